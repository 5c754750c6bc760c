package validator_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// allOfCopies is an allOf of k copies of keyword kw, each made a node of
// its own by its description.
func allOfCopies(k int, kw string) string {
	branches := make([]string, k)
	for i := range branches {
		branches[i] = fmt.Sprintf(`{%s,"description":"%d"}`, kw, i)
	}
	return `{"allOf":[` + strings.Join(branches, ",") + `]}`
}

// wideRecursive is an anyOf of k distinct array branches, one of which
// recurses into the items: each "[" opens k+2 evaluations.
func wideRecursive(k int) string {
	branches := make([]string, 0, k+1)
	for i := range k {
		branches = append(branches, fmt.Sprintf(`{"maxItems":%d}`, 1_000_000+i))
	}
	branches = append(branches, `{"items":{"$ref":"#/$defs/x"}}`)
	return `{"$defs":{"x":{"anyOf":[` + strings.Join(branches, ",") + `]}},"properties":{"a":{"$ref":"#/$defs/x"}}}`
}

// members is an unfinished object of n distinct members.
func members(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, `"m%d":0,`, i)
	}
	return b.String()
}

// heldWriting writes doc to a new validator and returns the heap it holds
// then, after a collection, with the validator.
func heldWriting(t *testing.T, s *schema.Schema, opts validator.Options, doc string) (int64, *validator.Validator) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := validator.New(s, opts)
	v.Write([]byte(doc))
	runtime.GC()
	runtime.ReadMemStats(&after)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc), v
}

// TestStateIsBounded: the state one document holds is bounded by
// Options.MaxState, whatever the schema multiplies: an allOf of 400
// unevaluatedItems (a record per element per evaluation, 6 KB per byte of
// arguments before the bound) and an anyOf of 500 branches that recurses
// into arrays (width × depth evaluations: 42 MB for 131 bytes before it).
// Past the bound the document is refused with keyword "limit", at the byte
// where it was passed, and nothing after it is read.
func TestStateIsBounded(t *testing.T) {
	for _, c := range []struct {
		name, schema, doc string
	}{
		{"unevaluated records", `{"properties":{"a":` + allOfCopies(400, `"unevaluatedItems":false`) + `}}`, `{"a":[` + strings.Repeat("0,", 25_000)},
		{"unevaluated member records", allOfCopies(400, `"unevaluatedProperties":false`), members(20_000)},
		{"evaluations of open values", wideRecursive(500), `{"a":` + strings.Repeat("[", 126)},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := schema.Compile(schema.JSONSchema, []byte(c.schema))
			require.Empty(t, res.Errors)
			for _, limit := range []int64{1 << 20, validator.DefaultMaxState} {
				for _, stop := range []bool{false, true} {
					held, v := heldWriting(t, res.Schema, validator.Options{MaxState: limit, StopAtFirst: stop}, c.doc)
					assert.Less(t, held, 2*limit+(4<<20), "limit %d: the heap held", limit)
					// It may pass the bound by what the event that passed it
					// opens: one value's evaluations.
					assert.LessOrEqual(t, v.State(), limit+int64(res.Schema.Width)*1<<10, "limit %d", limit)
					r := v.Close()
					require.NotEmpty(t, r.Findings)
					last := r.Findings[len(r.Findings)-1]
					assert.Equal(t, "limit", last.Keyword, "limit %d, stop at first %v: %+v", limit, stop, last)
					assert.Less(t, last.Offset, int64(len(c.doc)))
					assert.Contains(t, last.Message, fmt.Sprintf("more than the limit of %d bytes of state at byte %d", limit, last.Offset))
					runtime.KeepAlive(v)
				}
			}
		})
	}
}

// TestStateLimitKeepsValidVerdicts: records that other evaluations cover
// count toward the bound while the value is open, so a valid document is
// refused only past it, and what a closed value held is given back.
func TestStateLimitKeepsValidVerdicts(t *testing.T) {
	res := schema.Compile(schema.JSONSchema, []byte(`{"properties":{"a":{"allOf":[{"items":true}],"unevaluatedItems":false}}}`))
	require.Empty(t, res.Errors)
	elements := `{"a":[` + strings.TrimSuffix(strings.Repeat("1,", 2_000), ",") + "]}"
	v := validator.New(res.Schema, validator.Options{})
	v.Write([]byte(elements))
	assert.True(t, v.Close().Valid())
	assert.Zero(t, v.State(), "every value closed")

	v = validator.New(res.Schema, validator.Options{MaxState: 32 << 10})
	v.Write([]byte(elements))
	r := v.Close()
	require.Len(t, r.Findings, 1)
	f := r.Findings[0]
	assert.Equal(t, "limit", f.Keyword)
	assert.Equal(t, schema.CodeValidation, f.Code)
	assert.Regexp(t, `^/a/[0-9]+$`, f.InstancePath, "at the element where the bound was passed")
	// Records of 24 bytes, the first 100 of them with their reason (a
	// violation, some 180 bytes): some 400 elements, of 2 bytes each, fit.
	assert.Greater(t, f.Offset, int64(600), "records of 24 bytes and 100 reasons: some 400 elements fit")
}

// TestPoolKeepsFewEvaluations: a document that opened thousands of
// evaluations leaves the pooled validator with at most KeptFreeEvals of
// them, so the next document does not inherit its memory.
func TestPoolKeepsFewEvaluations(t *testing.T) {
	res := schema.Compile(schema.JSONSchema, []byte(wideRecursive(500)))
	require.Empty(t, res.Errors)
	v := validator.New(res.Schema, validator.Options{})
	v.Write([]byte(`{"a":` + strings.Repeat("[", 20)))
	v.Close()
	v.Reset()
	require.Greater(t, validator.Recycled(v), validator.KeptFreeEvals, "the document opened more than the pool keeps")
	validator.Put(v)
	assert.Equal(t, validator.KeptFreeEvals, validator.Recycled(v))
}
