package schema_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/hostile"
	"github.com/toolgate/toolgate/internal/pattern"
	"github.com/toolgate/toolgate/internal/schema"
)

// wideSchema is an object schema of n string properties.
func wideSchema(n int) []byte {
	props := make([]string, n)
	for i := range props {
		props[i] = fmt.Sprintf(`"p%d":{"type":"string"}`, i)
	}
	return []byte(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)
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
		assert.Less(t, stopped, whole/4, "%s: allocations of the stopped compile and the whole one", profile)
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
