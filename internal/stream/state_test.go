package stream_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestStreamStateIsBounded: the open calls of a stream hold validation
// state together within Limits.MaxState; the call whose delta passes it is
// refused (keyword "limit"), and a call that ends gives its part back. The
// schema applies 102 subschemas to every array it nests, so a call that
// opens arrays and leaves them open holds state by its depth.
func TestStreamStateIsBounded(t *testing.T) {
	branches := []string{`{"items":{"$ref":"#/$defs/x"}}`}
	for i := range 100 {
		branches = append(branches, fmt.Sprintf(`{"maxItems":%d}`, 1000+i))
	}
	res := schema.Compile(schema.JSONSchema, []byte(`{"$defs":{"x":{"anyOf":[`+strings.Join(branches, ",")+`]}},"properties":{"a":{"$ref":"#/$defs/x"}}}`))
	require.Empty(t, res.Errors)
	open := `{"a":` + strings.Repeat("[", 20)
	one := validator.New(res.Schema, validator.Options{StopAtFirst: true})
	one.Write([]byte(open))
	perCall := one.State()
	require.Greater(t, perCall, int64(1<<20), "each open call holds over a MiB")

	var results []stream.Result
	s := stream.NewSession(t.Context(), stream.Limits{MaxState: 5 * perCall / 2}, func(r *stream.Result) { results = append(results, *r) })
	b := &stream.Binding{Handle: "h", Schema: res.Schema}
	for _, id := range []string{"c1", "c2", "c3"} {
		require.NoError(t, s.Start(id, "deep", b))
		require.NoError(t, s.Delta(id, []byte(open)))
	}
	require.Len(t, results, 1, "two calls fit, the third does not")
	r := results[0]
	assert.Equal(t, "c3", r.CallID)
	assert.True(t, r.Early)
	require.Len(t, r.Findings, 1)
	assert.Equal(t, "limit", r.Findings[0].Keyword)
	assert.Contains(t, r.Findings[0].Message, fmt.Sprintf("more than the limit of %d bytes of validation state", 5*perCall/2))

	require.NoError(t, s.Delta("c1", []byte(strings.Repeat("]", 20)+"}")))
	require.NoError(t, s.End("c1"))
	require.Len(t, results, 2)
	assert.True(t, results[1].Valid(), "c1: %+v", results[1].Findings)
	require.NoError(t, s.Start("c4", "deep", b))
	require.NoError(t, s.Delta("c4", []byte(open)))
	assert.Len(t, results, 2, "c1 gave its part back: c4 fits")
}
