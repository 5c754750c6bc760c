package server_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// longNamed is a schema whose one property, named with n bytes, is an
// array of strings, and arguments with items wrong items under it: each
// finding carries the name in its schema path, its instance path and its
// message (issue 9, finding 4, in a form that does not depend on how the
// engine words a message).
func longNamed(n, items int) (schema, args string) {
	name := strings.Repeat("n", n)
	return `{"type":"object","properties":{"` + name + `":{"type":"array","items":{"type":"string"}}}}`,
		`{"` + name + `":[` + strings.TrimSuffix(strings.Repeat("1,", items), ",") + `]}`
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

// TestAnswersAreBounded reproduces issue 9's finding 4, unbounded answers:
// 100 findings under a 64 KiB property name carry 19 MB of pointers and
// messages, more than a default client accepts. Within the default bounds
// an answer is small and still says what is wrong.
func TestAnswersAreBounded(t *testing.T) {
	t.Parallel()
	validate := func(t *testing.T, cfg server.Config, schema, args string) (*toolgatev1.ValidateResponse, error) {
		t.Helper()
		c := client(t, cfg)
		compiled, err := c.CompileSchema(t.Context(), compileJSON(schema))
		require.NoError(t, err)
		require.Empty(t, compiled.GetErrors())
		return c.Validate(t.Context(), &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: compiled.GetHandle()},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: args}})
	}
	t.Run("unbounded, a default client cannot read the answer", func(t *testing.T) {
		t.Parallel()
		schema, args := longNamed(64<<10, 100)
		_, err := validate(t, server.Config{Options: server.Options{MaxFindingMessage: 1 << 30, MaxAnswerBytes: 1 << 30}}, schema, args)
		assert.Equal(t, codes.ResourceExhausted, code(err), "%v", err)
	})
	t.Run("default bounds", func(t *testing.T) {
		t.Parallel()
		const items = 32
		schema, args := longNamed(4<<10, items)
		resp, err := validate(t, server.Config{}, schema, args)
		require.NoError(t, err)
		require.Len(t, resp.GetErrors(), items)
		assert.False(t, resp.GetErrorsTruncated(), "every finding fits once its texts are cut")
		for _, e := range resp.GetErrors() {
			assert.Equal(t, "type", e.GetKeyword())
			assert.Equal(t, "/properties", e.GetSchemaPath(), "cut to its longest ancestor within 1 KiB")
			assert.Empty(t, e.GetInstancePath(), "cut to the root")
			assert.Equal(t, "A value inside the arguments object must be a string; got a number.", e.GetMessage(),
				"the engine cut the pointer, and its message names the ancestor")
		}
	})
	t.Run("the answer budget leaves findings out", func(t *testing.T) {
		t.Parallel()
		schema, args := longNamed(4<<10, 32)
		// Each finding carries the 4 KiB name three times: 12 KB.
		resp, err := validate(t, server.Config{Options: server.Options{MaxFindingMessage: 1 << 20, MaxAnswerBytes: 30_000}}, schema, args)
		require.NoError(t, err)
		assert.Len(t, resp.GetErrors(), 2)
		assert.True(t, resp.GetErrorsTruncated())
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, resp.GetCode())
		assert.LessOrEqual(t, findingBytes(resp.GetErrors()), 30_000)
	})
	t.Run("a stream's result is bounded too", func(t *testing.T) {
		t.Parallel()
		c := client(t, server.Config{})
		schema, args := longNamed(4<<10, 3)
		compiled, err := c.CompileSchema(t.Context(), compileJSON(schema))
		require.NoError(t, err)
		s, err := c.ValidateStream(t.Context())
		require.NoError(t, err)
		for _, ev := range []*toolgatev1.ValidateStreamRequest{
			{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{CallId: "1", Handle: compiled.GetHandle()}}},
			{Event: &toolgatev1.ValidateStreamRequest_Delta{Delta: &toolgatev1.CallDelta{CallId: "1", Fragment: args}}},
		} {
			require.NoError(t, s.Send(ev))
		}
		resp, err := s.Recv()
		require.NoError(t, err)
		require.NoError(t, s.CloseSend())
		res := resp.GetResult()
		require.Len(t, res.GetErrors(), 1)
		assert.True(t, res.GetEarly())
		assert.Equal(t, "/properties", res.GetErrors()[0].GetSchemaPath())
		assert.Equal(t, "A value inside the arguments object must be a string; got a number.", res.GetErrors()[0].GetMessage())
	})
}

// TestStreamResultsHaveBudgetsOfTheirOwn: each CallResult of a stream is
// one answer, with MaxAnswerBytes of its own: however many rejections came
// before, a result carries its first finding.
func TestStreamResultsHaveBudgetsOfTheirOwn(t *testing.T) {
	t.Parallel()
	c, s := openStream(t, server.Config{Options: server.Options{MaxAnswerBytes: 300}})
	h := compileTodo(t, c)
	send(t, s, bind(map[string]string{"todo": h}))
	for i := range 20 {
		id := "c" + strconv.Itoa(i)
		send(t, s, startCall(id, "todo", ""), delta(id, `{"action":"`+strings.Repeat("x", 100)+`"}`), end(id))
		res := recvResult(t, s)
		assert.False(t, res.GetValid(), id)
		require.NotEmpty(t, res.GetErrors(), "%s: the first finding is always sent", id)
		assert.Equal(t, "enum", res.GetErrors()[0].GetKeyword(), id)
	}
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

// untypedProperties is a tool input schema of n untyped properties, an
// UNSUPPORTED_CAPABILITY finding each.
func untypedProperties(n int) string {
	props := make([]string, n)
	for i := range props {
		props[i] = fmt.Sprintf(`"p%d":{}`, i)
	}
	return `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
}

// TestCompileFindingsAreCapped checks that the compiler keeps no more
// findings than an answer lists (Options.MaxFindings) and that every
// answer about a schema with more says so: errors_truncated, the cap's
// findings, and the code of all of them; a stream's bind counts them all.
func TestCompileFindingsAreCapped(t *testing.T) {
	t.Parallel()
	const maxFindings, n = 10, 250
	c := client(t, server.Config{Options: server.Options{MaxFindings: maxFindings}})
	ctx := t.Context()
	for _, tc := range []struct {
		name      string
		n         int
		truncated bool
	}{{"past the cap", n, true}, {"at the cap", maxFindings, false}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			schema := untypedProperties(tc.n)
			compiled, err := c.CompileSchema(ctx, compileJSON(schema))
			require.NoError(t, err)
			assert.Len(t, compiled.GetErrors(), maxFindings)
			assert.Equal(t, tc.truncated, compiled.GetErrorsTruncated(), "CompileSchema")
			assert.Equal(t, unsupported, compiled.GetCode())

			inline, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(schema)},
				Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
			require.NoError(t, err)
			assert.Len(t, inline.GetErrors(), maxFindings)
			assert.Equal(t, tc.truncated, inline.GetErrorsTruncated(), "Validate inline")
			assert.Equal(t, unsupported, inline.GetCode())

			toolset, err := c.CompileToolset(ctx, toolListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, &toolgatev1.ToolSchema{Name: "t", SchemaJson: schema}))
			require.NoError(t, err)
			require.Len(t, toolset.GetTools(), 1)
			tool := toolset.GetTools()[0]
			assert.Len(t, tool.GetErrors(), maxFindings)
			assert.Equal(t, tc.truncated, tool.GetErrorsTruncated(), "CompileToolset")
			assert.Equal(t, unsupported, tool.GetCode())

			s, err := c.ValidateStream(ctx)
			require.NoError(t, err)
			send(t, s, bindInline(map[string]string{"t": schema}))
			_, err = s.Recv()
			assert.Equal(t, codes.InvalidArgument, code(err), "%v", err)
			assert.Contains(t, status.Convert(err).Message(), fmt.Sprintf("(ERROR_CODE_UNSUPPORTED_CAPABILITY, %d findings)", tc.n), "the bind counts every finding")
		})
	}
}
