package hostile

import (
	"context"
	"sync/atomic"
)

// Countdown is a context that ends once the work given it has looked at
// it a number of times (Err): a caller that leaves at a chosen point of
// the work, the same on every machine, however fast. Its Done channel and
// values are its parent's, so only work that looks at Err notices.
type Countdown struct {
	context.Context
	end   error
	left  atomic.Int64
	looks atomic.Int64
}

// NewCountdown returns a context whose Err is parent's for its first n
// calls and end (context.Canceled, say) from then on.
func NewCountdown(parent context.Context, n int, end error) *Countdown {
	c := &Countdown{Context: parent, end: end}
	c.left.Store(int64(n))
	return c
}

// Err implements context.Context.
func (c *Countdown) Err() error {
	c.looks.Add(1)
	if c.left.Add(-1) < 0 {
		return c.end
	}
	return c.Context.Err()
}

// Looks returns how many times Err was called.
func (c *Countdown) Looks() int64 { return c.looks.Load() }
