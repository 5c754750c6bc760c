package schema_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/hostile"
	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/pattern"
	"github.com/toolgate/toolgate/internal/schema"
)

// wideSchema is an object schema of n string properties.
func wideSchema(n int) []byte {
	return properties(n, func(int) string { return `{"type":"string"}` })
}

// TestCompileContextStops: a compile whose context ends stops soon after,
// in every profile, and returns the context's error and no Result; it
// does a small part of the work the whole compile does (counted in heap
// allocations, which do not depend on the machine's speed; so it does not
// run in parallel).
func TestCompileContextStops(t *testing.T) {
	doc := wideSchema(20_000)
	for _, profile := range []schema.Profile{schema.ToolInput, schema.OutputBindable, schema.JSONSchema} {
		whole := testing.AllocsPerRun(1, func() {
			res, err := schema.CompileContext(context.Background(), profile, doc, schema.Options{})
			require.NoError(t, err)
			require.NotNil(t, res.Schema, "%s: %v", profile, res.Errors)
		})
		var ctx *hostile.Countdown
		stopped := testing.AllocsPerRun(1, func() {
			ctx = hostile.NewCountdown(context.Background(), 4, context.DeadlineExceeded) // some 1,000 of the 20,000 subschemas
			res, err := schema.CompileContext(ctx, profile, doc, schema.Options{})
			assert.ErrorIs(t, err, context.DeadlineExceeded, "%s", profile)
			assert.Nil(t, res, "%s", profile)
		})
		assert.Equal(t, int64(5), ctx.Looks(), "%s: the end is seen once and kept", profile)
		// The whole compile allocates some 220,000 times (380,000 when
		// measuring the width allocated 8 times per member), the stopped
		// one some 61,000.
		assert.Less(t, stopped, whole/3, "%s: allocations of the stopped compile and the whole one", profile)
	}
}

// TestCompileContextStopsWritingTheCanonicalForm: a compile also looks at
// its context while it writes the schema's canonical form, between the
// parse and the compile proper. The first stopped compile that parsed the
// whole schema (one chunk) allocates less than the parse and the whole
// canonical form do: it gave up inside the form (counted in heap
// allocations, so it does not run in parallel).
func TestCompileContextStopsWritingTheCanonicalForm(t *testing.T) {
	doc := wideSchema(2_000) // under one parse chunk, 2,002 objects
	v, err := jsondoc.Parse(doc, 0)
	require.NoError(t, err)
	parse := testing.AllocsPerRun(1, func() { _, _ = jsondoc.Parse(doc, 0) })
	canonical := testing.AllocsPerRun(1, func() { _ = jsondoc.Canonical(v) })
	require.Greater(t, canonical, float64(2_000), "an allocation for each object's sorted members")
	for _, profile := range []schema.Profile{schema.ToolInput, schema.JSONSchema} {
		stoppedAfterParse := false
		for n := 0; n < 8 && !stoppedAfterParse; n++ {
			allocs := testing.AllocsPerRun(1, func() {
				_, err := schema.CompileContext(hostile.NewCountdown(context.Background(), n, context.DeadlineExceeded), profile, doc, schema.Options{})
				require.ErrorIs(t, err, context.DeadlineExceeded, "%s, %d looks", profile, n)
			})
			if allocs < parse {
				continue // stopped before the parse was done
			}
			stoppedAfterParse = true
			assert.Less(t, allocs, parse+canonical/2, "%s: stopped at look %d", profile, n+1)
		}
		assert.True(t, stoppedAfterParse, "%s: no countdown stopped the compile after its parse", profile)
	}
}

// endWatch is a Countdown that records the heap's allocation counters when
// the work first sees it ended.
type endWatch struct {
	*hostile.Countdown
	seen bool
	at   runtime.MemStats
}

func (w *endWatch) Err() error {
	err := w.Countdown.Err()
	if err != nil && !w.seen {
		w.seen = true
		runtime.ReadMemStats(&w.at)
	}
	return err
}

// TestCompileContextStopsAtOnce: wherever its context ends, a compile
// that has seen the end does next to nothing more: it does not compile
// the rest of a node's properties, sort its names, write its canonical
// form or measure its width. Counted in heap allocations after the end
// is seen (so it does not run in parallel), at ten points spread over the
// compile of 20,000 properties.
func TestCompileContextStopsAtOnce(t *testing.T) {
	doc := wideSchema(20_000)
	for _, profile := range []schema.Profile{schema.ToolInput, schema.OutputBindable, schema.JSONSchema} {
		all := hostile.NewCountdown(context.Background(), 1<<30, context.Canceled)
		_, err := schema.CompileContext(all, profile, doc, schema.Options{})
		require.NoError(t, err)
		looks := int(all.Looks())
		require.Greater(t, looks, 20, "%s: looks of the whole compile", profile)
		for i := range 10 {
			n := i * looks / 10
			w := &endWatch{Countdown: hostile.NewCountdown(context.Background(), n, context.Canceled)}
			_, err := schema.CompileContext(w, profile, doc, schema.Options{})
			var end runtime.MemStats
			runtime.ReadMemStats(&end)
			require.ErrorIs(t, err, context.Canceled, "%s, after %d looks", profile, n)
			require.True(t, w.seen)
			assert.Less(t, end.Mallocs-w.at.Mallocs, uint64(100), "%s, ended after %d of %d looks: allocations after the end", profile, n, looks)
			assert.Less(t, end.TotalAlloc-w.at.TotalAlloc, uint64(64<<10), "%s, ended after %d of %d looks: bytes after the end", profile, n, looks)
		}
	}
}

// TestCompileContextStopsBetweenPatterns: a compile looks at its context
// before each regular expression, so one ended among them compiles no
// more of them (their budget is left unspent).
func TestCompileContextStopsBetweenPatterns(t *testing.T) {
	t.Parallel()
	doc := patternsSchema(200, func(i int) string { return fmt.Sprintf("^a{50}-%d$", i) })
	for _, profile := range []schema.Profile{schema.OutputBindable, schema.JSONSchema} {
		whole := pattern.NewBudget(schema.DefaultMaxPatternSteps, 0)
		res, err := schema.CompileContext(context.Background(), profile, doc, schema.Options{PatternBudget: whole})
		require.NoError(t, err)
		require.Empty(t, res.Errors)

		part := pattern.NewBudget(schema.DefaultMaxPatternSteps, 0)
		ctx := hostile.NewCountdown(context.Background(), 20, context.DeadlineExceeded)
		_, err = schema.CompileContext(ctx, profile, doc, schema.Options{PatternBudget: part})
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		spentWhole, spentPart := whole.Steps()-whole.Left(), part.Steps()-part.Left()
		assert.Less(t, spentPart, spentWhole/4, "%s: pattern steps of the stopped compile and the whole one", profile)
	}
}

// TestCompileContextUnended: a context that does not end changes nothing:
// the same Result as CompileWith, findings included.
func TestCompileContextUnended(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`{"type":"object","properties":{"a":{"type":"string","pattern":"^a+$"}}}`,
		`{"type":"object","properties":{"a":{"type":"strin"}}}`,
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"integer","minimum":3}}}`,
		`{"type":"object","title":"t","properties":{"a":{"type":"string","format":"email"}}}`,
	} {
		for _, profile := range []schema.Profile{schema.ToolInput, schema.OutputBindable, schema.JSONSchema} {
			want := schema.CompileWith(profile, []byte(doc), schema.Options{})
			got, err := schema.CompileContext(t.Context(), profile, []byte(doc), schema.Options{})
			require.NoError(t, err)
			assert.Equal(t, want.Errors, got.Errors, "%s %s", profile, doc)
			assert.Equal(t, want.Warnings, got.Warnings, "%s %s", profile, doc)
			assert.Equal(t, want.Key, got.Key, "%s %s", profile, doc)
			assert.Equal(t, want.Schema == nil, got.Schema == nil, "%s %s", profile, doc)
		}
	}
}
