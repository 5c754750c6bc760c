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

// TestStateAcrossSessions: sessions sharing a Limits.State hold at most
// its bound of validation state together, however many streams there are:
// the call whose delta passes it is refused (keyword "limit"), and state
// comes back as calls end and sessions are released.
func TestStateAcrossSessions(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.JSONSchema, []byte(`{"properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"anyOf":[{"items":{"$ref":"#/$defs/x"}},{"maxItems":1000},{"maxItems":1001}]}}}`))
	require.Empty(t, res.Errors)
	open := `{"a":` + strings.Repeat("[", 20)
	one := validator.New(res.Schema, validator.Options{StopAtFirst: true})
	one.Write([]byte(open))
	perCall := one.State()

	shared := stream.NewHeldBytes(5 * perCall / 2)
	b := &stream.Binding{Handle: "h", Schema: res.Schema}
	session := func() (*stream.Session, *[]stream.Result) {
		var results []stream.Result
		return stream.NewSession(t.Context(), stream.Limits{State: shared}, func(r *stream.Result) { results = append(results, *r) }), &results
	}
	s1, r1 := session()
	s2, r2 := session()
	s3, r3 := session()
	for _, s := range []*stream.Session{s1, s2, s3} {
		require.NoError(t, s.Start("c", "deep", b))
		require.NoError(t, s.Delta("c", []byte(open)))
	}
	assert.Empty(t, *r1)
	assert.Empty(t, *r2)
	require.Len(t, *r3, 1, "two calls fit, the third stream's does not")
	f := (*r3)[0].Findings
	require.Len(t, f, 1)
	assert.Equal(t, "limit", f[0].Keyword)
	assert.Contains(t, f[0].Message, fmt.Sprintf("over every stream, need more than the limit of %d bytes", 5*perCall/2))
	assert.Equal(t, 2*perCall, shared.Used())

	require.NoError(t, s1.Delta("c", []byte(strings.Repeat("]", 20)+"}")))
	require.NoError(t, s1.End("c"))
	assert.True(t, (*r1)[0].Valid())
	assert.Equal(t, perCall, shared.Used(), "an ended call gives its state back")
	s2.Release()
	assert.Zero(t, shared.Used(), "a released session gives back its open calls' state")
	s3.Release()
	assert.Zero(t, shared.Used())
}

// TestStateIsClaimedByQuanta: a session claims the shared bound a quantum
// (64 KiB) at a time, so that the counter every stream shares is not
// touched at each delta: what it holds covers its state, and exceeds it
// by at most the quantum.
func TestStateIsClaimedByQuanta(t *testing.T) {
	t.Parallel()
	shared := stream.NewHeldBytes(1 << 30)
	h := newHarness(t, stream.Limits{State: shared})
	require.NoError(t, h.Start("c", "todo", nil))
	require.NoError(t, h.Delta("c", []byte(`{"action":`)))
	assert.Equal(t, int64(64<<10), shared.Used(), "one quantum covers a small call")
	for range 100 {
		require.NoError(t, h.Delta("c", []byte(` `)))
	}
	assert.Equal(t, int64(64<<10), shared.Used(), "small moves of the state leave the claim alone")
	require.NoError(t, h.Delta("c", []byte(`"list"}`)))
	require.NoError(t, h.End("c"))
	assert.Equal(t, int64(64<<10), shared.Used(), "a quantum of slack is kept for the next call")
	h.Release()
	assert.Zero(t, shared.Used())
}
