package server

import (
	"bytes"
	"cmp"
	"context"
	"time"

	"golang.org/x/sync/semaphore"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/pattern"
	"github.com/toolgate/toolgate/internal/schema"
)

// compileRoom bounds the schema bytes being compiled at once, over every
// request of a Service (Options.MaxCompilingBytes). Compiling holds a
// multiple of its source on the heap until it ends (some 150 times for a
// schema of many small subschemas), and each compile is bounded alone, so
// without a bound on them together, concurrent compiles multiply that peak.
// A compile that may build pattern automata counts at least patternBytes,
// since they are not bounded by its size. A compile waits, in arrival
// order, until its bytes are free; one larger than the whole room waits
// for all of it, so it runs alone.
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
// schema and the documents it may reference, and at least patternBytes if
// they may hold patterns.
func compileBytes(profile schema.Profile, doc []byte, opts schema.Options) int64 {
	return withPatterns(int64(len(doc))+resourceBytes(opts), profile, opts, mayHoldPatterns(doc))
}

// toolsetBytes is what a CompileToolset counts against the room: its
// tools_list_json, parsed whole (descriptions and all) before any tool is
// compiled and held until it answers, or the schemas of its tools, and the
// documents they may reference, and at least patternBytes if any of them
// may hold patterns (the tools' automata share one budget, so one floor
// covers them all).
func toolsetBytes(profile schema.Profile, req *toolgatev1.CompileToolsetRequest, opts schema.Options) int64 {
	n, patterns := resourceBytes(opts), false
	add := func(text string) {
		n += int64(len(text))
		patterns = patterns || mayHoldPatterns(readOnlyBytes(text))
	}
	switch src := req.GetSource().(type) {
	case *toolgatev1.CompileToolsetRequest_ToolsListJson:
		add(src.ToolsListJson)
	case *toolgatev1.CompileToolsetRequest_Tools:
		for _, t := range src.Tools.GetTools() {
			add(t.GetSchemaJson())
		}
	}
	return withPatterns(n, profile, opts, patterns)
}

// resourceBytes is the size of the documents a compile may reference.
func resourceBytes(opts schema.Options) int64 {
	var n int64
	for _, r := range opts.Resources {
		n += int64(len(r))
	}
	return n
}

// heapPerSchemaByte is the heap compiling holds per schema byte at most,
// patterns aside: some 150 bytes for a schema of many small subschemas.
const heapPerSchemaByte = 150

// withPatterns returns n, raised to patternBytes when the schemas
// (patterns) or the resources may hold patterns under profile.
func withPatterns(n int64, profile schema.Profile, opts schema.Options, patterns bool) int64 {
	if profile == schema.ToolInput { // the tool input subset has no patterns
		return n
	}
	for _, r := range opts.Resources {
		patterns = patterns || mayHoldPatterns(r)
	}
	if patterns {
		return max(n, patternBytes(opts))
	}
	return n
}

// mayHoldPatterns reports whether a schema document may hold a pattern or
// patternProperties keyword: it names one, or holds an escape that may
// spell one ("\u0070attern"). It may answer yes for a document without
// patterns (a property named pattern), never no for one with them. The
// built-in meta-schemas' few short patterns are left out.
func mayHoldPatterns(doc []byte) bool {
	return bytes.Contains(doc, []byte("pattern")) || bytes.Contains(doc, []byte(`\u`))
}

// patternBytes is what a compile that may build pattern automata counts
// against the room at least, in the room's schema bytes: the automata it
// may hold together (Limits.MaxPatternBytes) and the garbage of building
// them, up to one automaton's worth more (Limits.Pattern.MaxDFABytes), at
// heapPerSchemaByte. A schema of patterns holds that however short it is:
// 400 distinct 2.6 KB schemas of 45 heavy patterns each, compiled at once,
// counted 1 MiB of room by their bytes and peaked at 2.36 GB of heap, some
// 6 MB each; counting this, at most 100 of them fit the default room, and
// they peaked at 0.63 GB.
func patternBytes(opts schema.Options) int64 {
	held := cmp.Or(max(opts.Limits.MaxPatternBytes, 0), schema.DefaultMaxPatternBytes)
	building := min(cmp.Or(max(opts.Limits.Pattern.MaxDFABytes, 0), pattern.DefaultMaxDFABytes), held)
	return int64(held+building) / heapPerSchemaByte
}
