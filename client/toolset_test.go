package client_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/toolgate/toolgate/client"
	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/server"
)

const (
	compiles    = toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED
	unsupported = toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY
	malformed   = toolgatev1.ErrorCode_ERROR_CODE_VALIDATION
)

// toolOutcome is what the tests compare of a ToolResult: its name, its
// code and the keywords of its findings.
type toolOutcome struct {
	Name     string
	Code     toolgatev1.ErrorCode
	Keywords []string
}

func outcomesOf(results []*toolgatev1.ToolResult) []toolOutcome {
	var out []toolOutcome
	for _, r := range results {
		o := toolOutcome{Name: r.GetName(), Code: r.GetCode()}
		for _, e := range r.GetErrors() {
			o.Keywords = append(o.Keywords, e.GetKeyword())
		}
		out = append(out, o)
	}
	return out
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// dateSchema uses format, which the tool input profile refuses and the
// output bindable profile accepts with a warning.
const dateSchema = `{"type":"object","properties":{"date":{"type":"string","format":"date"}}}`

func TestCompileToolset(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	toolsList := `{"tools":[
		{"name":"weather","description":"Forecast.","inputSchema":` + weatherSchema + `},
		{"name":"grep","inputSchema":` + patternSchema + `},
		{"name":"todo","inputSchema":` + todoSchema + `},
		{"name":"todo","inputSchema":` + todoSchema + `},
		{"name":"no_schema"}]}`

	t.Run("every tool, in order", func(t *testing.T) {
		t.Parallel()
		resp, err := c.CompileToolset(t.Context(), toolsList)
		require.NoError(t, err)
		assert.Equal(t, []toolOutcome{
			{"weather", compiles, nil},
			{"grep", unsupported, []string{"pattern"}},
			{"todo", malformed, []string{"name"}},
			{"todo", malformed, []string{"name"}},
			{"no_schema", malformed, []string{"inputSchema"}},
		}, outcomesOf(resp.GetTools()))
		weather, err := c.Compile(t.Context(), weatherSchema)
		require.NoError(t, err)
		assert.Equal(t, map[string]string{"weather": weather.GetHandle()}, resp.GetBind(), "the handle Compile gives")
	})
	t.Run("WithProfile", func(t *testing.T) {
		t.Parallel()
		doc := `{"tools":[{"name":"d","inputSchema":` + dateSchema + `}]}`
		input, err := c.CompileToolset(t.Context(), doc)
		require.NoError(t, err)
		assert.Equal(t, unsupported, input.GetTools()[0].GetCode(), "the default is the tool input profile")
		output, err := c.CompileToolset(t.Context(), doc, client.WithProfile(toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE))
		require.NoError(t, err)
		require.Equal(t, compiles, output.GetTools()[0].GetCode())
		require.Len(t, output.GetTools()[0].GetWarnings(), 1)
		assert.Equal(t, "/properties/date/format", output.GetTools()[0].GetWarnings()[0].GetSchemaPath())
	})
	t.Run("the whole JSON-RPC response", func(t *testing.T) {
		t.Parallel()
		bare, err := c.CompileToolset(t.Context(), toolsList)
		require.NoError(t, err)
		resp, err := c.CompileToolset(t.Context(), `{"jsonrpc":"2.0","id":1,"result":`+toolsList+`}`)
		require.NoError(t, err)
		assert.Equal(t, outcomesOf(bare.GetTools()), outcomesOf(resp.GetTools()))
		assert.Equal(t, bare.GetBind(), resp.GetBind())
		assert.Len(t, resp.GetBind(), 1)
	})
	t.Run("a member repeated inside a schema is that tool's finding", func(t *testing.T) {
		t.Parallel()
		resp, err := c.CompileToolset(t.Context(), `{"tools":[
			{"name":"weather","inputSchema":`+weatherSchema+`},
			{"name":"twice","inputSchema":{"type":"object","type":"object"}}]}`)
		require.NoError(t, err)
		assert.Equal(t, []toolOutcome{
			{"weather", compiles, nil},
			{"twice", malformed, []string{"json"}},
		}, outcomesOf(resp.GetTools()))
		assert.Equal(t, []string{"weather"}, sortedKeys(resp.GetBind()))
	})
	t.Run("a request the server cannot read fails the call", func(t *testing.T) {
		t.Parallel()
		for _, doc := range []string{``, `not json`, `[]`, weatherSchema,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
			`{"tools":[{"name":"a","name":"b","inputSchema":` + weatherSchema + `}]}`} {
			resp, err := c.CompileToolset(t.Context(), doc)
			assert.Equal(t, codes.InvalidArgument, status.Code(err), "%q: %v", doc, err)
			assert.Nil(t, resp)
		}
		_, err := c.CompileToolset(t.Context(), `{"tools":[]}`, client.WithProfile(toolgatev1.Profile(99)))
		assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
	})
}

func TestCompileTools(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	ctx := t.Context()
	resp, err := c.CompileTools(ctx, []client.ToolSchema{
		{Name: "weather", SchemaJSON: weatherSchema},
		{Name: "grep", SchemaJSON: patternSchema},
		{Name: "cut", SchemaJSON: `{"type":"object",`},
		{Name: "no_schema"},
		{SchemaJSON: todoSchema},
		{Name: "todo", SchemaJSON: todoSchema},
	})
	require.NoError(t, err)
	assert.Equal(t, []toolOutcome{
		{"weather", compiles, nil},
		{"grep", unsupported, []string{"pattern"}},
		{"cut", malformed, []string{"json"}},
		{"no_schema", malformed, []string{"inputSchema"}},
		{"", malformed, []string{"name"}},
		{"todo", compiles, nil},
	}, outcomesOf(resp.GetTools()), "in the caller's order")
	assert.Equal(t, []string{"todo", "weather"}, sortedKeys(resp.GetBind()))

	same, err := c.CompileToolset(ctx, `{"tools":[{"name":"weather","inputSchema":`+weatherSchemaRespelled+`}]}`)
	require.NoError(t, err)
	assert.Equal(t, same.GetBind()["weather"], resp.GetBind()["weather"], "both forms, the same handle")

	output, err := c.CompileTools(ctx, []client.ToolSchema{{Name: "d", SchemaJSON: dateSchema}}, client.WithProfile(toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE))
	require.NoError(t, err)
	assert.Equal(t, []string{"d"}, sortedKeys(output.GetBind()), "WithProfile")

	empty, err := c.CompileTools(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, empty.GetTools())
	assert.Empty(t, client.NewToolset(empty).Bind())
}

func TestToolset(t *testing.T) {
	t.Parallel()
	const h1, h2 = "tg1_1", "tg1_2"
	ok := func(name, handle string) *toolgatev1.ToolResult {
		return &toolgatev1.ToolResult{Name: name, Handle: handle}
	}
	refused := func(name string) *toolgatev1.ToolResult {
		return &toolgatev1.ToolResult{Name: name, Code: unsupported, Errors: []*toolgatev1.Error{{Code: unsupported, Keyword: "format"}}}
	}
	cases := []struct {
		name        string
		resp        *toolgatev1.CompileToolsetResponse
		bind        map[string]string
		refusedTool []string
	}{
		{"nil response", nil, map[string]string{}, nil},
		{"empty response", &toolgatev1.CompileToolsetResponse{}, map[string]string{}, nil},
		{"every tool bound",
			&toolgatev1.CompileToolsetResponse{Tools: []*toolgatev1.ToolResult{ok("a", h1), ok("b", h2)}, Bind: map[string]string{"a": h1, "b": h2}},
			map[string]string{"a": h1, "b": h2}, nil},
		{"refused tools in input order",
			&toolgatev1.CompileToolsetResponse{Tools: []*toolgatev1.ToolResult{refused("z"), ok("a", h1), refused(""), refused("b")}, Bind: map[string]string{"a": h1}},
			map[string]string{"a": h1}, []string{"z", "", "b"}},
		// A response that contradicts itself binds nothing it does not
		// confirm: fail closed.
		{"bound by the server but refused by its result",
			&toolgatev1.CompileToolsetResponse{Tools: []*toolgatev1.ToolResult{refused("a")}, Bind: map[string]string{"a": h1}},
			map[string]string{}, []string{"a"}},
		{"bound to another handle than its result's",
			&toolgatev1.CompileToolsetResponse{Tools: []*toolgatev1.ToolResult{ok("a", h1)}, Bind: map[string]string{"a": h2}},
			map[string]string{}, []string{"a"}},
		{"bound without a result",
			&toolgatev1.CompileToolsetResponse{Tools: []*toolgatev1.ToolResult{ok("a", h1)}, Bind: map[string]string{"a": h1, "ghost": h2}},
			map[string]string{"a": h1}, nil},
		{"a repeated name",
			&toolgatev1.CompileToolsetResponse{Tools: []*toolgatev1.ToolResult{ok("a", h1), ok("a", h1)}, Bind: map[string]string{"a": h1}},
			map[string]string{}, []string{"a", "a"}},
		{"an empty name or handle",
			&toolgatev1.CompileToolsetResponse{Tools: []*toolgatev1.ToolResult{ok("", h1), ok("b", "")}, Bind: map[string]string{"": h1, "b": ""}},
			map[string]string{}, []string{"", "b"}},
		{"compiled but not bound by the server",
			&toolgatev1.CompileToolsetResponse{Tools: []*toolgatev1.ToolResult{ok("a", h1)}},
			map[string]string{}, []string{"a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := client.NewToolset(tc.resp)
			assert.Equal(t, tc.bind, ts.Bind())
			var names []string
			for _, r := range ts.Refused() {
				names = append(names, r.GetName())
			}
			assert.Equal(t, tc.refusedTool, names)
		})
	}
	t.Run("Bind returns a new map", func(t *testing.T) {
		t.Parallel()
		resp := &toolgatev1.CompileToolsetResponse{Tools: []*toolgatev1.ToolResult{ok("a", h1)}, Bind: map[string]string{"a": h1}}
		ts := client.NewToolset(resp)
		b := ts.Bind()
		b["extra"] = h2
		delete(b, "a")
		assert.Equal(t, map[string]string{"a": h1}, ts.Bind())
		assert.Equal(t, map[string]string{"a": h1}, resp.GetBind())
	})
	t.Run("nil Toolset", func(t *testing.T) {
		t.Parallel()
		var ts *client.Toolset
		assert.Empty(t, ts.Bind())
		assert.Nil(t, ts.Refused())
	})
}

// The search call of testdata/mcp-e2e/anthropic.sse (see its README):
// scope "everywhere" starts no enum choice.
const (
	e2eSearchArgs = `{"query": "retry_limit", "scope": "everywhere"}`
	e2eBadDelta   = `scope\": \"ev`
)

// TestToolsetEndToEnd is issue 6 through the Go client: an MCP tools/list
// result compiled with CompileToolset, read with NewToolset, and its Bind
// given to ValidateProviderStream with an Anthropic SSE body that calls a
// tool validly, a tool invalidly and a tool the list does not have; then
// a call to the tool that did not compile. The body is held open after the
// invalid call's deciding event until its rejection has reached the
// caller, so early really is early.
func TestToolsetEndToEnd(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	toolsList, err := os.ReadFile(fixtures.Testdata(t, "mcp-e2e/tools_list.json"))
	require.NoError(t, err)
	resp, err := c.CompileToolset(t.Context(), string(toolsList))
	require.NoError(t, err)
	ts := client.NewToolset(resp)

	refused := ts.Refused()
	require.Len(t, refused, 1)
	assert.Equal(t, "fetch_url", refused[0].GetName())
	assert.Equal(t, unsupported, refused[0].GetCode())
	var paths []string
	for _, e := range refused[0].GetErrors() {
		assert.Equal(t, unsupported, e.GetCode())
		assert.NotEmpty(t, e.GetMessage())
		paths = append(paths, e.GetSchemaPath())
	}
	assert.Equal(t, []string{"/$schema", "/properties/url/format", "/properties/max_length/maximum", "/properties/max_length/default"},
		paths, "every reason is given, in document order")
	require.Equal(t, []string{"read_file", "search", "write_file"}, sortedKeys(ts.Bind()))

	t.Run("three calls, three results", func(t *testing.T) {
		t.Parallel()
		data, err := os.ReadFile(fixtures.Testdata(t, "mcp-e2e/anthropic.sse"))
		require.NoError(t, err)
		body := string(data)
		cut := eventEnd(body, e2eBadDelta)
		head, tail := body[:cut], body[cut:]
		pr, rejected, wrote := heldBody(head, tail)

		var results []*toolgatev1.CallResult
		for r, err := range c.ValidateProviderStream(t.Context(), client.Anthropic, pr, ts.Bind()) {
			require.NoError(t, err)
			results = append(results, r)
			if r.GetCallId() == "toolu_02Search" {
				close(rejected)
			}
		}
		require.NoError(t, <-wrote)
		require.Equal(t, []verdict{
			{CallID: "toolu_01ReadFile", Tool: "read_file", Valid: true},
			{CallID: "toolu_02Search", Tool: "search", Early: true, Keyword: "enum"},
			{CallID: "toolu_03Delete", Tool: "delete_file", Early: true, Keyword: "tool_name"},
		}, verdicts(results), "exactly one result per call, as soon as it is known")

		search := results[1]
		assert.Equal(t, malformed, search.GetCode())
		require.Len(t, search.GetErrors(), 1)
		e := search.GetErrors()[0]
		assert.Equal(t, "/scope", e.GetInstancePath())
		assert.Equal(t, "/properties/scope/enum", e.GetSchemaPath())
		assert.Equal(t, int64(strings.Index(e2eSearchArgs, "everywhere")), e.GetOffset(), "the 'e' no choice starts with")
		assert.Equal(t, malformed, results[2].GetCode())
	})

	t.Run("the tool that did not compile is not bound", func(t *testing.T) {
		t.Parallel()
		body := anthropicStream(anthropicCall{id: "toolu_04Fetch", name: "fetch_url", fragments: []string{`{"url": `, `"https://example.com"}`}})
		results, err := collect(t, c.ValidateProviderStream(t.Context(), client.Anthropic, strings.NewReader(body), ts.Bind()))
		require.NoError(t, err)
		require.Len(t, results, 1)
		assert.Equal(t, verdict{CallID: "toolu_04Fetch", Tool: "fetch_url", Early: true, Keyword: "tool_name"}, verdictOf(results[0]))
		assert.Equal(t, malformed, results[0].GetCode(), "never passed unchecked")
	})
}

func verdicts(results []*toolgatev1.CallResult) []verdict {
	var out []verdict
	for _, r := range results {
		out = append(out, verdictOf(r))
	}
	return out
}

// TestToolsetOnAnyReplica: tools compiled on replica A, and a stream that
// reaches a replica B which has never seen them (a fresh one per case: an
// inline bind stores the schemas on B). Bound by handle, each call
// is answered NOT_FOUND in-band; bound with WithToolset and a Toolset from
// LoadToolset or LoadTools, the schemas travel with the stream and every
// call is validated on B.
func TestToolsetOnAnyReplica(t *testing.T) {
	t.Parallel()
	a := dialReplica(t, newReplica(t, server.Config{}))
	toolsList, err := os.ReadFile(fixtures.Testdata(t, "mcp-e2e/tools_list.json"))
	require.NoError(t, err)
	data, err := os.ReadFile(fixtures.Testdata(t, "mcp-e2e/anthropic.sse"))
	require.NoError(t, err)
	validated := []verdict{
		{CallID: "toolu_01ReadFile", Tool: "read_file", Valid: true},
		{CallID: "toolu_02Search", Tool: "search", Early: true, Keyword: "enum"},
		{CallID: "toolu_03Delete", Tool: "delete_file", Early: true, Keyword: "tool_name"},
	}

	listed, err := a.LoadToolset(t.Context(), string(toolsList))
	require.NoError(t, err)
	require.Equal(t, []string{"read_file", "search", "write_file"}, sortedKeys(listed.Bind()))
	pairs := []client.ToolSchema{{Name: "read_file", SchemaJSON: `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`},
		{Name: "search", SchemaJSON: `{"type":"object","properties":{"query":{"type":"string"},"scope":{"type":"string","enum":["workspace","file"]}},"required":["query"]}`}}
	paired, err := a.LoadTools(t.Context(), pairs)
	require.NoError(t, err)

	cases := []struct {
		name  string
		tools map[string]string
		opts  []client.StreamOption
		want  []verdict
	}{
		{"by handle", listed.Bind(), nil, []verdict{
			{CallID: "toolu_01ReadFile", Tool: "read_file", Early: true, Keyword: "handle"},
			{CallID: "toolu_02Search", Tool: "search", Early: true, Keyword: "handle"},
			{CallID: "toolu_03Delete", Tool: "delete_file", Early: true, Keyword: "tool_name"},
		}},
		{"LoadToolset inline", nil, []client.StreamOption{client.WithToolset(listed)}, validated},
		{"LoadTools inline", nil, []client.StreamOption{client.WithToolset(paired)}, validated},
		{"NewToolset knows only handles", nil, []client.StreamOption{client.WithToolset(client.NewToolset(&toolgatev1.CompileToolsetResponse{
			Tools: []*toolgatev1.ToolResult{{Name: "search", Handle: listed.Bind()["search"]}}, Bind: map[string]string{"search": listed.Bind()["search"]}}))},
			[]verdict{
				{CallID: "toolu_01ReadFile", Tool: "read_file", Early: true, Keyword: "tool_name"},
				{CallID: "toolu_02Search", Tool: "search", Early: true, Keyword: "handle"},
				{CallID: "toolu_03Delete", Tool: "delete_file", Early: true, Keyword: "tool_name"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := dialReplica(t, newReplica(t, server.Config{})) // a replica that has seen nothing
			results, err := collect(t, b.ValidateProviderStream(t.Context(), client.Anthropic, strings.NewReader(string(data)), tc.tools, tc.opts...))
			require.NoError(t, err)
			assert.Equal(t, tc.want, verdicts(results))
			for _, r := range results {
				if verdictOf(r).Keyword == "handle" {
					assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_NOT_FOUND, r.GetCode())
				}
			}
		})
	}
}

// TestLoadToolsetKeepsSchemasOnlyWhenItReadsTheSameTools: a tools/list the
// client reads differently from the server (here: the server sees no
// tools/list at all) gives an error, and one it reads alike keeps every
// bound tool's schema, so a stream binds them inline.
func TestLoadToolsetKeepsSchemasOnlyWhenItReadsTheSameTools(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	_, err := c.LoadToolset(t.Context(), `{"tools": {}}`)
	assert.Equal(t, codes.InvalidArgument, status.Code(err))
	ts, err := c.LoadToolset(t.Context(), `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"todo","inputSchema":`+todoSchema+`},{"name":"x"}]}}`)
	require.NoError(t, err)
	assert.Equal(t, []string{"todo"}, sortedKeys(ts.Bind()))
	body := anthropicStream(anthropicCall{id: "toolu_1", name: "todo", fragments: []string{`{"action":"list"}`}})
	other := dialReplica(t, newReplica(t, server.Config{}))
	results, err := collect(t, other.ValidateProviderStream(t.Context(), client.Anthropic, strings.NewReader(body), nil, client.WithToolset(ts)))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "toolu_1", Tool: "todo", Valid: true}}, verdicts(results))
}

// TestToolsetInlineBindsCountResources: every inline schema carries the
// Toolset's resources, so a toolset that compiles in one CompileTools
// request may need several binds on a stream. Each bind stays under the
// client's bound (1 MiB), and the stream is validated: in one bind, the six
// tools would pass the server's message limit (4 MiB).
func TestToolsetInlineBindsCountResources(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var binds []int // the encoded size of each bind message sent
	record := func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		s, err := streamer(ctx, desc, cc, method, opts...)
		return bindRecorder{s, func(n int) { mu.Lock(); binds = append(binds, n); mu.Unlock() }}, err
	}
	c := dialReplica(t, newReplica(t, server.Config{}), client.WithDialOptions(grpc.WithStreamInterceptor(record)))
	common := `{"type":"string","enum":["add","list"],"description":"` + strings.Repeat("x", 700<<10) + `"}`
	var tools []client.ToolSchema
	for i := range 6 {
		tools = append(tools, client.ToolSchema{Name: fmt.Sprintf("t%d", i),
			SchemaJSON: `{"type":"object","properties":{"action":{"$ref":"https://example.com/common.json"}}}`})
	}
	ts, err := c.LoadTools(t.Context(), tools, client.WithProfile(toolgatev1.Profile_PROFILE_JSON_SCHEMA),
		client.WithResources(map[string]string{"https://example.com/common.json": common}))
	require.NoError(t, err)
	require.Len(t, ts.Bind(), 6, "%v", ts.Refused())

	body := openAIStream("call_1", "t5", `{"action":"add"}`)
	results, err := collect(t, c.ValidateProviderStream(t.Context(), client.OpenAIChat, strings.NewReader(body), nil, client.WithToolset(ts)))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "call_1", Tool: "t5", Valid: true}}, verdicts(results))
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, binds, 6, "one tool per bind: two copies of the resource would pass the bound")
	for _, n := range binds {
		assert.LessOrEqual(t, n, 1<<20)
	}
}

// bindRecorder is a client stream that reports the size of every bind
// message it sends.
type bindRecorder struct {
	grpc.ClientStream
	sent func(size int)
}

func (b bindRecorder) SendMsg(m any) error {
	if req, ok := m.(*toolgatev1.ValidateStreamRequest); ok && req.GetBind() != nil {
		b.sent(proto.Size(req))
	}
	return b.ClientStream.SendMsg(m)
}

// TestLoadToolsetLongRefusedName: a tool whose name is past the server's
// --max-name-bytes is refused, and the server echoes its name cut; the
// tools that compiled still travel inline to any replica (that one name
// used to make LoadToolset keep no schema at all, so another replica
// answered the bound tool's calls NOT_FOUND).
func TestLoadToolsetLongRefusedName(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	long := strings.Repeat("x", 2000)
	doc := `{"tools":[{"name":"todo","inputSchema":` + todoSchema + `},{"name":"` + long + `","inputSchema":{"type":"object"}}]}`
	ts, err := c.LoadToolset(t.Context(), doc)
	require.NoError(t, err)
	require.Equal(t, []string{"todo"}, sortedKeys(ts.Bind()))
	require.Len(t, ts.Refused(), 1)

	other := dialReplica(t, newReplica(t, server.Config{}))
	body := anthropicStream(anthropicCall{id: "toolu_1", name: "todo", fragments: []string{`{"action":"list"}`}})
	results, err := collect(t, other.ValidateProviderStream(t.Context(), client.Anthropic, strings.NewReader(body), nil, client.WithToolset(ts)))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "toolu_1", Tool: "todo", Valid: true}}, verdicts(results), "todo's schema traveled inline")
}
