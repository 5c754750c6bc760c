package server_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// oneOfFanOut is a schema whose array items must match one of n identical
// branches: a string item fails every branch, and the engine's message for
// it gives every branch's reason (issue 9, finding 4).
func oneOfFanOut(n int) string {
	return `{"type":"object","properties":{"a":{"type":"array","items":{"oneOf":[` +
		strings.TrimSuffix(strings.Repeat(`{"type":"integer"},`, n), ",") + `]}}}}`
}

// findingBytes is what an answer's findings weigh, as the server counts
// them (see Options.MaxAnswerBytes), without the fixed overhead.
func findingBytes(errs ...[]*toolgatev1.Error) int {
	n := 0
	for _, list := range errs {
		for _, e := range list {
			n += len(e.GetKeyword()) + len(e.GetSchemaPath()) + len(e.GetInstancePath()) + len(e.GetMessage())
		}
	}
	return n
}

// stringItems returns arguments with n string items under "a".
func stringItems(n int) string {
	return `{"a":[` + strings.TrimSuffix(strings.Repeat(`"x",`, n), ",") + `]}`
}

// TestAnswersAreBounded reproduces issue 9's finding 4, unbounded answers:
// eight string items under a oneOf of 20,000 branches make findings whose
// messages total megabytes, more than a default client accepts. Within the
// default bounds an answer is small and still says what is wrong.
func TestAnswersAreBounded(t *testing.T) {
	t.Parallel()
	validate := func(t *testing.T, cfg server.Config, branches int, args string) (*toolgatev1.ValidateResponse, error) {
		t.Helper()
		c := client(t, cfg)
		compiled, err := c.CompileSchema(t.Context(), compileJSON(oneOfFanOut(branches)))
		require.NoError(t, err)
		require.Empty(t, compiled.GetErrors())
		return c.Validate(t.Context(), &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: compiled.GetHandle()},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: args}})
	}

	t.Run("unbounded, a default client cannot read the answer", func(t *testing.T) {
		t.Parallel()
		_, err := validate(t, server.Config{Options: server.Options{MaxFindingMessage: 1 << 30, MaxAnswerBytes: 1 << 30}}, 20_000, stringItems(8))
		assert.Equal(t, codes.ResourceExhausted, code(err), "%v", err)
	})
	t.Run("default bounds", func(t *testing.T) {
		t.Parallel()
		const items = 32
		resp, err := validate(t, server.Config{}, 500, stringItems(items))
		require.NoError(t, err)
		require.Len(t, resp.GetErrors(), items)
		assert.False(t, resp.GetErrorsTruncated(), "every finding fits once its message is cut")
		for i, e := range resp.GetErrors() {
			assert.Equal(t, "oneOf", e.GetKeyword())
			assert.Equal(t, "/a/"+strconv.Itoa(i), e.GetInstancePath())
			assert.Contains(t, e.GetMessage(), "500 oneOf branches")
			assert.Regexp(t, `… \(\d+ more bytes\)$`, e.GetMessage())
			assert.LessOrEqual(t, len(e.GetMessage()), server.DefaultMaxFindingMessage+len("… (1000000 more bytes)"))
		}
	})
	t.Run("the answer budget leaves findings out", func(t *testing.T) {
		t.Parallel()
		resp, err := validate(t, server.Config{Options: server.Options{MaxFindingMessage: 1000, MaxAnswerBytes: 3000}}, 500, stringItems(32))
		require.NoError(t, err)
		assert.Len(t, resp.GetErrors(), 2)
		assert.True(t, resp.GetErrorsTruncated())
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, resp.GetCode())
		assert.LessOrEqual(t, findingBytes(resp.GetErrors()), 3000)
	})
	t.Run("a stream's result is bounded too", func(t *testing.T) {
		t.Parallel()
		c := client(t, server.Config{})
		compiled, err := c.CompileSchema(t.Context(), compileJSON(oneOfFanOut(500)))
		require.NoError(t, err)
		s, err := c.ValidateStream(t.Context())
		require.NoError(t, err)
		for _, ev := range []*toolgatev1.ValidateStreamRequest{
			{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{CallId: "1", Handle: compiled.GetHandle()}}},
			{Event: &toolgatev1.ValidateStreamRequest_Delta{Delta: &toolgatev1.CallDelta{CallId: "1", Fragment: `{"a":["x"]`}}},
		} {
			require.NoError(t, s.Send(ev))
		}
		resp, err := s.Recv()
		require.NoError(t, err)
		require.NoError(t, s.CloseSend())
		res := resp.GetResult()
		require.Len(t, res.GetErrors(), 1)
		assert.True(t, res.GetEarly())
		assert.Regexp(t, `… \(\d+ more bytes\)$`, res.GetErrors()[0].GetMessage())
		assert.LessOrEqual(t, len(res.GetErrors()[0].GetMessage()), server.DefaultMaxFindingMessage+len("… (1000000 more bytes)"))
	})
}

// TestToolsetAnswerBudget checks that the tools of one CompileToolset
// answer share one budget: once it is spent, the later tools still say
// whether they compiled and why not (code), with errors_truncated and no
// findings.
func TestToolsetAnswerBudget(t *testing.T) {
	t.Parallel()
	const n = 200
	tools := make([]*toolgatev1.ToolSchema, n)
	for i := range tools {
		tools[i] = &toolgatev1.ToolSchema{Name: "t" + strconv.Itoa(i), SchemaJson: `{"type":"object","properties":{"q":{"type":"string","pattern":"^a"}}}`}
	}
	const budget = 4000
	c := client(t, server.Config{Options: server.Options{MaxAnswerBytes: budget}})
	resp, err := c.CompileToolset(t.Context(), toolListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, tools...))
	require.NoError(t, err)
	require.Len(t, resp.GetTools(), n)
	var all [][]*toolgatev1.Error
	with := 0
	for i, r := range resp.GetTools() {
		assert.Equal(t, unsupported, r.GetCode(), "tool %d", i)
		if len(r.GetErrors()) > 0 {
			assert.Equal(t, i, with, "findings go to the first tools, in order")
			with++
			assert.False(t, r.GetErrorsTruncated())
		} else {
			assert.True(t, r.GetErrorsTruncated(), "tool %d", i)
		}
		all = append(all, r.GetErrors())
	}
	assert.Greater(t, with, 1)
	assert.Less(t, with, n)
	assert.LessOrEqual(t, findingBytes(all...), budget)
}
