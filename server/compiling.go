package server

import (
	"context"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/toolset"
)

// compileRoom bounds the schema bytes being compiled at once, over every
// request of a Service (Options.MaxCompilingBytes). Compiling holds a
// multiple of its source on the heap until it ends (some 150 times for a
// schema of many small subschemas), and each compile is bounded alone, so
// without a bound on them together, concurrent compiles multiply that peak.
// A compile waits, in arrival order, until its bytes are free; one larger
// than the whole room waits for all of it, so it runs alone.
type compileRoom struct {
	free *semaphore.Weighted
	size int64
}

func newCompileRoom(size int64) *compileRoom {
	return &compileRoom{free: semaphore.NewWeighted(size), size: size}
}

// enter waits until n bytes of room are free, or ctx ends (its status
// error, DEADLINE_EXCEEDED or CANCELLED). It returns how to give the room
// back, and records the wait in m.
func (r *compileRoom) enter(ctx context.Context, n int64, m *Metrics) (leave func(), err error) {
	n = max(1, min(n, r.size))
	start := time.Now()
	if err := r.free.Acquire(ctx, n); err != nil {
		return nil, alive(ctx)
	}
	m.compileWait(start)
	return func() { r.free.Release(n) }, nil
}

// compileBytes is what one schema's compile counts against the room: the
// schema and the documents it may reference.
func compileBytes(doc []byte, opts schema.Options) int64 {
	return int64(len(doc)) + resourceBytes(opts)
}

// toolsetBytes is what a CompileToolset counts against the room: its
// tools' schemas, compiled one after another and all held until it
// answers, and the documents they may reference.
func toolsetBytes(tools []toolset.Tool, opts schema.Options) int64 {
	n := resourceBytes(opts)
	for _, t := range tools {
		n += int64(len(t.Schema))
	}
	return n
}

// resourceBytes is the size of the documents a compile may reference.
func resourceBytes(opts schema.Options) int64 {
	var n int64
	for _, r := range opts.Resources {
		n += int64(len(r))
	}
	return n
}
