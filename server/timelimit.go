package server

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// errOverTime is the cause of a context that Options.MaxRequestTime ended.
var errOverTime = errors.New("over the server's time for one request")

// requestTimeLimit bounds each unary call to limit (Options.MaxRequestTime):
// a call whose client set no deadline, or a later one, gets one limit from
// now, so that no request holds a core for longer however it was called.
// A call that runs past it ends with DEADLINE_EXCEEDED saying so; one that
// ends at its client's own deadline says what it said before.
func requestTimeLimit(limit time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) <= limit {
			return handler(ctx, req)
		}
		ctx, cancel := context.WithTimeoutCause(ctx, limit, errOverTime)
		defer cancel()
		resp, err := handler(ctx, req)
		if err != nil && errors.Is(context.Cause(ctx), errOverTime) {
			return nil, overTime(limit)
		}
		return resp, err
	}
}

// overTime is the status of a request or stream event that took longer
// than limit.
func overTime(limit time.Duration) error {
	return status.Errorf(codes.DeadlineExceeded, "the request took longer than the server allows for one (--max-request-time, %s)", limit)
}

// eventClock bounds the time each event of a stream takes to process
// (Options.MaxRequestTime): its ctx, the stream's, also reports
// context.DeadlineExceeded from Err once an event started has not stopped
// within limit, which stops the validation or compile in progress where
// it next looks (every few KiB). One timer serves every event: start and
// stop cost no allocation. Its Done is the stream's: the over-time is for
// work, which looks at Err, not for waits.
type eventClock struct {
	ctx   *clockContext
	timer *time.Timer
	limit time.Duration
}

// clockContext is a stream's context, whose Err also says when an event
// ran over its time.
type clockContext struct {
	context.Context
	over atomic.Bool
}

// Err implements context.Context.
func (c *clockContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if c.over.Load() {
		return context.DeadlineExceeded
	}
	return nil
}

// newEventClock returns a clock over parent. Call release when the
// stream ends.
func newEventClock(parent context.Context, limit time.Duration) (*eventClock, func()) {
	c := &eventClock{ctx: &clockContext{Context: parent}, limit: limit}
	c.timer = time.AfterFunc(limit, func() { c.ctx.over.Store(true) })
	c.timer.Stop()
	return c, func() { c.timer.Stop() }
}

func (c *eventClock) start() { c.timer.Reset(c.limit) }
func (c *eventClock) stop()  { c.timer.Stop() }

// over reports whether an event ran over its time.
func (c *eventClock) over() bool { return c.ctx.over.Load() }
