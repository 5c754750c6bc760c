package schema_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/hostile"
	"github.com/toolgate/toolgate/internal/pattern"
	"github.com/toolgate/toolgate/internal/schema"
)

// patternsSchema is an object of n string properties, property i with the
// pattern expr(i).
func patternsSchema(n int, expr func(i int) string) []byte {
	var props []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string","pattern":%q}`, i, expr(i)))
	}
	return []byte(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)
}

// budgetMessage is what the finding of a schema whose patterns ran out of
// Limits.MaxPatternSteps says.
const budgetMessage = "Limits.MaxPatternSteps"

// TestPatternBudget: the patterns of one schema share one budget of
// compile work, in both profiles that have patterns. Past it the schema is
// refused with one "limit" finding, at the first pattern left uncompiled
// (those after it are not compiled, and get none); within it, the same
// schema compiles.
func TestPatternBudget(t *testing.T) {
	t.Parallel()
	distinct := patternsSchema(60, func(i int) string { return fmt.Sprintf(".{%d}", 20+i) })
	for _, profile := range []schema.Profile{schema.JSONSchema, schema.OutputBindable} {
		t.Run(profile.String(), func(t *testing.T) {
			t.Parallel()
			small := schema.CompileWith(profile, distinct, schema.Options{Limits: schema.Limits{MaxPatternSteps: 100_000}})
			require.Len(t, small.Errors, 1, "%v", small.Errors)
			f := small.Errors[0]
			assert.Equal(t, schema.CodeUnsupported, f.Code)
			assert.Equal(t, "limit", f.Keyword)
			assert.Contains(t, f.Message, "more than 100000 steps")
			assert.Contains(t, f.Message, budgetMessage)
			assert.Regexp(t, `^/properties/p\d+/pattern$`, f.SchemaPath)
			assert.NotEqual(t, "/properties/p59/pattern", f.SchemaPath, "the budget ran out before the last pattern")

			large := schema.CompileWith(profile, distinct, schema.Options{Limits: schema.Limits{MaxPatternSteps: 10_000_000}})
			assert.Empty(t, large.Errors)
		})
	}
	t.Run("default", func(t *testing.T) {
		t.Parallel()
		// Each .{N} for N in 250–329 takes some 350,000 steps: together
		// more than DefaultMaxPatternSteps.
		heavy := patternsSchema(80, func(i int) string { return fmt.Sprintf(".{%d}", 250+i) })
		res := schema.Compile(schema.JSONSchema, heavy)
		require.Len(t, res.Errors, 1, "%v", res.Errors)
		assert.Contains(t, res.Errors[0].Message, fmt.Sprintf("more than %d steps", schema.DefaultMaxPatternSteps))
	})
}

// TestRepeatedPatternsCompileOnce: a schema that repeats one pattern
// compiles it once, so the repetitions cost its budget nothing: a thousand
// copies of a pattern of some 500,000 steps fit the default budget (they
// would take 25 times it), and a thousand copies of a refused pattern are
// each refused at their own path, by the pattern's own limit.
func TestRepeatedPatternsCompileOnce(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.JSONSchema, patternsSchema(1000, func(int) string { return ".{300}" }))
	assert.Empty(t, res.Errors)
	require.NotNil(t, res.Schema)

	// Every copy's finding is kept, to see each at its own path.
	refused := schema.CompileWith(schema.JSONSchema, patternsSchema(1000, func(int) string { return "a{999}" }), schema.Options{MaxFindings: 1000})
	require.Len(t, refused.Errors, 1000)
	paths := map[string]bool{}
	for _, f := range refused.Errors {
		paths[f.SchemaPath] = true
		assert.Equal(t, "limit", f.Keyword)
		assert.Contains(t, f.Message, "Limits.MaxDFABytes")
		assert.NotContains(t, f.Message, budgetMessage)
	}
	assert.Len(t, paths, 1000, "each copy has its finding at its own path")
}

// TestPatternFloodIsBounded compiles the hostile corpus's pattern-flood:
// 20,000 distinct patterns, each refused by the pattern compiler's own
// limits after some 760,000 steps of work, which would take 4.5 minutes if
// each had a budget of its own. Now the schema's budget stops it after at
// most DefaultMaxPatternSteps / 500,000 of them.
func TestPatternFloodIsBounded(t *testing.T) {
	t.Parallel()
	shape, ok := hostile.Lookup("pattern-flood")
	require.True(t, ok)
	res := schema.Compile(schema.JSONSchema, shape.Generate().Schema)
	require.NotEmpty(t, res.Errors)
	last := res.Errors[len(res.Errors)-1]
	assert.Contains(t, last.Message, budgetMessage)
	assert.LessOrEqual(t, len(res.Errors)-1, schema.DefaultMaxPatternSteps/500_000, "patterns compiled before the budget ran out")
	for _, f := range res.Errors[:len(res.Errors)-1] {
		assert.Contains(t, f.Message, "Limits.MaxDFABytes")
	}
}

// TestPatternBytes: the automata of one schema's patterns hold at most
// Limits.MaxPatternBytes together; a pattern that does not fit what the
// ones before it left is refused with a "limit" finding that names the
// limit, and the same schema compiles with room for them all.
func TestPatternBytes(t *testing.T) {
	t.Parallel()
	// Each [a-q][^u-z]{6}x… is cheap to build and holds some 10 KB.
	doc := patternsSchema(40, func(i int) string { return fmt.Sprintf("[a-q][^u-z]{6}x%d", i) })
	for _, profile := range []schema.Profile{schema.JSONSchema, schema.OutputBindable} {
		t.Run(profile.String(), func(t *testing.T) {
			t.Parallel()
			small := schema.CompileWith(profile, doc, schema.Options{Limits: schema.Limits{MaxPatternBytes: 100_000}})
			require.NotEmpty(t, small.Errors)
			for _, f := range small.Errors {
				assert.Equal(t, schema.CodeUnsupported, f.Code)
				assert.Equal(t, "limit", f.Keyword)
				assert.Contains(t, f.Message, "more than 100000 bytes of automata together")
				assert.Contains(t, f.Message, "Limits.MaxPatternBytes")
				assert.Regexp(t, `^/properties/p\d+/pattern$`, f.SchemaPath)
			}
			assert.NotEqual(t, "/properties/p0/pattern", small.Errors[0].SchemaPath, "the first patterns fit")

			large := schema.CompileWith(profile, doc, schema.Options{})
			assert.Empty(t, large.Errors, "the default holds them")
		})
	}
}

// TestPatternLimitsPerExpression: Limits.Pattern bounds each expression
// alone under both profiles with patterns, and the budget the schema
// shares still applies beside it.
func TestPatternLimitsPerExpression(t *testing.T) {
	t.Parallel()
	doc := patternsSchema(2, func(i int) string { return fmt.Sprintf("^a{%d}$", 100+100*i) }) // 100 and 200 instructions
	lim := schema.Limits{Pattern: pattern.Limits{MaxProgram: 150}}
	for _, profile := range []schema.Profile{schema.JSONSchema, schema.OutputBindable} {
		assert.Empty(t, schema.CompileWith(profile, doc, schema.Options{}).Errors, "%s: within the default", profile)
		res := schema.CompileWith(profile, doc, schema.Options{Limits: lim})
		require.Len(t, res.Errors, 1, "%s: only the longer one is past 150", profile)
		f := res.Errors[0]
		assert.Equal(t, schema.CodeUnsupported, f.Code)
		assert.Equal(t, "limit", f.Keyword)
		assert.Equal(t, "/properties/p1/pattern", f.SchemaPath)
		assert.Contains(t, f.Message, "Limits.MaxProgram")

		shared := schema.Options{Limits: lim, PatternBudget: pattern.NewBudget(1, 0)}
		spent := schema.CompileWith(profile, doc, shared)
		require.NotEmpty(t, spent.Errors)
		assert.Contains(t, spent.Errors[0].Message, budgetMessage, "%s: the shared budget is still spent", profile)
	}
}

// TestPatternSetOutOfSteps: a patternProperties set split to fit
// Limits.MaxDFABytes that runs out of compile steps is refused at the
// keyword with a message that states Limits.MaxCompileSteps itself, not
// what the set's earlier automata left of it, and names the patterns
// that ran out.
func TestPatternSetOutOfSteps(t *testing.T) {
	t.Parallel()
	var members []string
	for i := range 50 {
		members = append(members, fmt.Sprintf(`"f%d.*x.*y":{"type":"integer"}`, i))
	}
	doc := `{"patternProperties":{` + strings.Join(members, ",") + `},"additionalProperties":false}`
	res := schema.CompileWith(schema.JSONSchema, []byte(doc), schema.Options{AnyDocument: true})
	require.Len(t, res.Errors, 1, "%v", res.Errors)
	f := res.Errors[0]
	assert.Equal(t, schema.CodeUnsupported, f.Code)
	assert.Equal(t, "limit", f.Keyword)
	assert.Equal(t, "/patternProperties", f.SchemaPath)
	assert.Contains(t, f.Message, fmt.Sprintf("the set's 50 patterns would take more than %d steps to compile together (Limits.MaxCompileSteps)", pattern.DefaultMaxCompileSteps))
	assert.Regexp(t, `ran out at the \d+ patterns "f\d+\.\*x\.\*y" to "f\d+\.\*x\.\*y"; use fewer or simpler patterns\.$`, f.Message)
}

// TestPatternMeansOneThing: pattern is ECMA-262 in every profile that has
// it, so the bindable output profile compiles each pattern as the JSON
// Schema profile does, with the same findings: valid ECMA-262 compiles,
// malformed ECMA-262 (Go's own syntax included) is VALIDATION, and what
// no automaton runs with the same meaning, or past a limit, is
// UNSUPPORTED_CAPABILITY.
func TestPatternMeansOneThing(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{
		`^[A-Z]{3}-\d+$`, `^\u0041$`, `\u{1F600}`, `^\p{L}+$`, `[[:alpha:]]`, `^\d{4}\-\d{2}$`, // valid
		`a{1001}`,                  // past Limits.MaxDFABytes
		`(?=a)`, `(a)\1`, `(?i:a)`, // unsupported
		`([a-z`, `(?i)a`, `a\z`, `(?P<n>a)`, `\p{Latin}`, // malformed
	} {
		t.Run(expr, func(t *testing.T) {
			t.Parallel()
			doc := patternsSchema(1, func(int) string { return expr })
			js := schema.Compile(schema.JSONSchema, doc)
			bindable := schema.Compile(schema.OutputBindable, doc)
			assert.Equal(t, js.Errors, bindable.Errors)
			assert.Equal(t, js.Schema == nil, bindable.Schema == nil)
		})
	}
}
