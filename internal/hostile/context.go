package hostile

import (
	"context"
	"sync/atomic"
)

// Countdown is a context whose deadline passes once the work given it has
// looked at it a number of times (Err): a caller that leaves at a chosen
// point of the work, the same on every machine, however fast. Its Done
// channel never closes, so only work that looks at Err notices.
type Countdown struct {
	context.Context
	left  atomic.Int64
	looks atomic.Int64
}

// NewCountdown returns a context whose Err is nil for its first n calls
// and context.DeadlineExceeded from then on.
func NewCountdown(n int) *Countdown {
	c := &Countdown{Context: context.Background()}
	c.left.Store(int64(n))
	return c
}

// Err implements context.Context.
func (c *Countdown) Err() error {
	c.looks.Add(1)
	if c.left.Add(-1) < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// Looks returns how many times Err was called.
func (c *Countdown) Looks() int64 { return c.looks.Load() }
