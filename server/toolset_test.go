package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/server"
)

func toolsListRequest(profile toolgatev1.Profile, doc string) *toolgatev1.CompileToolsetRequest {
	return &toolgatev1.CompileToolsetRequest{Profile: profile, Source: &toolgatev1.CompileToolsetRequest_ToolsListJson{ToolsListJson: doc}}
}

func toolListRequest(profile toolgatev1.Profile, tools ...*toolgatev1.ToolSchema) *toolgatev1.CompileToolsetRequest {
	return &toolgatev1.CompileToolsetRequest{Profile: profile, Source: &toolgatev1.CompileToolsetRequest_Tools{Tools: &toolgatev1.ToolList{Tools: tools}}}
}

// finding is what the tests compare of an Error: its stable part.
type finding struct {
	Code       toolgatev1.ErrorCode
	Keyword    string
	SchemaPath string
}

func findingsOf(errs []*toolgatev1.Error) []finding {
	var out []finding
	for _, e := range errs {
		out = append(out, finding{e.GetCode(), e.GetKeyword(), e.GetSchemaPath()})
	}
	return out
}

// toolOutcome is what the tests compare of a ToolResult.
type toolOutcome struct {
	Name     string
	Code     toolgatev1.ErrorCode
	Findings []finding
}

func outcomesOf(results []*toolgatev1.ToolResult) []toolOutcome {
	var out []toolOutcome
	for _, r := range results {
		out = append(out, toolOutcome{r.GetName(), r.GetCode(), findingsOf(r.GetErrors())})
	}
	return out
}

const (
	unsupported = toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY
	malformed   = toolgatev1.ErrorCode_ERROR_CODE_VALIDATION
	compiles    = toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED
)

// mixedToolsList is a tools/list result with one tool of every kind the
// RPC must tell apart, in an order that is not alphabetical.
const mixedToolsList = `{"tools":[
	{"name":"weather","description":"Forecast.","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1}},"required":["city"]}},
	{"name":"grep","inputSchema":{"type":"object","properties":{"q":{"type":"string","pattern":"^a"}}}},
	{"name":"broken","inputSchema":{"type":"object","properties":{"n":{"type":5}}}},
	{"description":"a tool without a name","inputSchema":{"type":"object","properties":{}}},
	{"name":"no_schema","description":"a tool without an inputSchema"},
	{"name":"dup","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}},
	{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}},
	{"name":"dup","inputSchema":{"type":"object","properties":{"b":{"type":"string"}}}}
],"nextCursor":"page-2"}`

const weatherToolSchema = `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1}},"required":["city"]}`

func TestCompileToolsetToolsList(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := t.Context()
	resp, err := c.CompileToolset(ctx, toolsListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, mixedToolsList))
	require.NoError(t, err)

	name := finding{malformed, "name", ""}
	assert.Equal(t, []toolOutcome{
		{"weather", compiles, nil},
		{"grep", unsupported, []finding{{unsupported, "pattern", "/properties/q/pattern"}}},
		{"broken", malformed, []finding{{malformed, "type", "/properties/n/type"}}},
		{"", malformed, []finding{name}},
		{"no_schema", malformed, []finding{{malformed, "inputSchema", ""}}},
		{"dup", malformed, []finding{name}},
		{"add", compiles, nil},
		{"dup", malformed, []finding{name}},
	}, outcomesOf(resp.GetTools()), "one result per tool, in input order")

	weather, err := c.CompileSchema(ctx, compileJSON(weatherToolSchema))
	require.NoError(t, err)
	results := resp.GetTools()
	assert.Equal(t, weather.GetHandle(), results[0].GetHandle(), "the handle CompileSchema gives the same schema")
	require.NotEmpty(t, results[6].GetHandle())
	assert.Equal(t, map[string]string{"weather": results[0].GetHandle(), "add": results[6].GetHandle()}, resp.GetBind(),
		"every tool that compiled, and no other; no occurrence of a repeated name")
	for _, r := range results {
		if r.GetCode() != compiles {
			assert.Empty(t, r.GetHandle(), "tool %q was refused", r.GetName())
		}
		assert.Empty(t, r.GetWarnings())
		assert.False(t, r.GetErrorsTruncated())
		for _, e := range r.GetErrors() {
			assert.NotEmpty(t, e.GetMessage(), "tool %q: %s", r.GetName(), e.GetKeyword())
			assert.Empty(t, e.GetInstancePath())
			assert.Zero(t, e.GetOffset())
		}
	}
	assert.Contains(t, results[5].GetErrors()[0].GetMessage(), `"dup" occurs 2 times`)

	t.Run("the handles validate", func(t *testing.T) {
		v, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: resp.GetBind()["add"]},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"a":1,"b":"2"}`}})
		require.NoError(t, err)
		assert.False(t, v.GetValid())
		require.Len(t, v.GetErrors(), 1)
		assert.Equal(t, "/b", v.GetErrors()[0].GetInstancePath())
	})
	t.Run("a repeated name is refused even when every occurrence has the same schema", func(t *testing.T) {
		same := `{"name":"t","inputSchema":{"type":"object","properties":{}}}`
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"tools":[`+same+`,`+same+`]}`))
		require.NoError(t, err)
		assert.Equal(t, []toolOutcome{{"t", malformed, []finding{name}}, {"t", malformed, []finding{name}}}, outcomesOf(resp.GetTools()))
		assert.Empty(t, resp.GetBind())
	})
	t.Run("a repeated name with an unsupported schema has both findings", func(t *testing.T) {
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"tools":[
			{"name":"t","inputSchema":{"type":"object","properties":{"q":{"type":"string","format":"uri"}}}},
			{"name":"t","inputSchema":{"type":"object"}}]}`))
		require.NoError(t, err)
		assert.Equal(t, []toolOutcome{
			// The response code is UNSUPPORTED_CAPABILITY when any finding
			// is, as for CompileSchema (DESIGN.md §2).
			{"t", unsupported, []finding{name, {unsupported, "format", "/properties/q/format"}}},
			{"t", malformed, []finding{name}},
		}, outcomesOf(resp.GetTools()))
	})
	t.Run("tools of the wrong shape", func(t *testing.T) {
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"tools":[
			"read_file", {"name":7,"inputSchema":{"type":"object"}}, {"name":"n","inputSchema":null}, {"name":"s","inputSchema":"{}"}]}`))
		require.NoError(t, err)
		assert.Equal(t, []toolOutcome{
			{"", malformed, []finding{name, {malformed, "inputSchema", ""}}},
			{"", malformed, []finding{name}},
			{"n", malformed, []finding{{malformed, "schema", ""}}},
			{"s", malformed, []finding{{malformed, "schema", ""}}},
		}, outcomesOf(resp.GetTools()))
		assert.Empty(t, resp.GetBind())
	})
	t.Run("a member repeated inside one schema is that tool's finding", func(t *testing.T) {
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"tools":[
			{"name":"a","inputSchema":{"type":"object","properties":{"q":{"type":"string","type":"integer"}}}},
			{"name":"b","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}]}`))
		require.NoError(t, err)
		assert.Equal(t, []toolOutcome{
			{"a", malformed, []finding{{malformed, "json", "/properties/q"}}},
			{"b", compiles, nil},
		}, outcomesOf(resp.GetTools()))
		assert.Contains(t, resp.GetTools()[0].GetErrors()[0].GetMessage(), `has the member "type" twice`)
		assert.Equal(t, []string{"b"}, mapsKeys(resp.GetBind()))
	})
	t.Run("a schema nested too deeply is that tool's finding", func(t *testing.T) {
		deep := strings.Repeat(`{"type":"object","properties":{"a":`, 49) + `{"type":"object","properties":{}}` + strings.Repeat(`}}`, 49) // 100 levels
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"tools":[
			{"name":"a","inputSchema":{"type":"object"}},
			{"name":"deep","inputSchema":`+deep+`},
			{"name":"b","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}]}`))
		require.NoError(t, err)
		assert.Equal(t, []toolOutcome{
			{"a", compiles, nil},
			{"deep", unsupported, []finding{{unsupported, "limit", ""}}},
			{"b", compiles, nil},
		}, outcomesOf(resp.GetTools()))
		assert.Equal(t, "The schema nests deeper than the limit of 64.", resp.GetTools()[1].GetErrors()[0].GetMessage())
		assert.Equal(t, []string{"a", "b"}, mapsKeys(resp.GetBind()))
	})
	t.Run("an empty list", func(t *testing.T) {
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"tools":[]}`))
		require.NoError(t, err)
		assert.Empty(t, resp.GetTools())
		assert.Empty(t, resp.GetBind())
	})
	t.Run("numbers stay exact", func(t *testing.T) {
		minimum := func(n string) string {
			return `{"type":"object","properties":{"n":{"type":"integer","minimum":` + n + `}}}`
		}
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"tools":[
			{"name":"a","inputSchema":`+minimum("9007199254740992")+`},
			{"name":"b","inputSchema":`+minimum("9007199254740993")+`}]}`))
		require.NoError(t, err)
		a, b := resp.GetBind()["a"], resp.GetBind()["b"]
		assert.NotEqual(t, a, b)
		direct, err := c.CompileSchema(ctx, compileJSON(minimum("9007199254740993")))
		require.NoError(t, err)
		assert.Equal(t, direct.GetHandle(), b)
	})
}

// TestCompileToolsetJSONRPCResponse checks that a whole JSON-RPC response
// to tools/list is read as the tools/list result it carries.
func TestCompileToolsetJSONRPCResponse(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := t.Context()
	bare, err := c.CompileToolset(ctx, toolsListRequest(0, mixedToolsList))
	require.NoError(t, err)
	resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"jsonrpc":"2.0","id":1,"result":`+mixedToolsList+`}`))
	require.NoError(t, err)
	assert.True(t, proto.Equal(bare, resp), "the same results and handles as the result alone:\n%v\n%v", bare, resp)
	assert.Len(t, resp.GetTools(), 8)
	assert.Equal(t, []string{"add", "weather"}, mapsKeys(resp.GetBind()))

	t.Run("members in any order", func(t *testing.T) {
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"result":{"tools":[{"name":"w","inputSchema":`+weatherToolSchema+`}]},"id":"7","jsonrpc":"2.0"}`))
		require.NoError(t, err)
		assert.Equal(t, []toolOutcome{{"w", compiles, nil}}, outcomesOf(resp.GetTools()))
		assert.Equal(t, bare.GetBind()["weather"], resp.GetBind()["w"])
	})
	t.Run("an empty list", func(t *testing.T) {
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`))
		require.NoError(t, err)
		assert.Empty(t, resp.GetTools())
		assert.Empty(t, resp.GetBind())
	})
}

// TestCompileToolsetMorePages: a tools/list page with a nextCursor binds
// its tools and says the list goes on; a last page, and tools sent as a
// list, do not.
func TestCompileToolsetMorePages(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := t.Context()
	page := `{"tools":[{"name":"w","inputSchema":` + weatherToolSchema + `}],"nextCursor":"cGFnZT0y"}`
	for doc, more := range map[string]bool{
		page: true,
		`{"jsonrpc":"2.0","id":2,"result":` + page + `}`:                                     true,
		`{"tools":[{"name":"w","inputSchema":` + weatherToolSchema + `}]}`:                   false,
		`{"tools":[{"name":"w","inputSchema":` + weatherToolSchema + `}],"nextCursor":null}`: false,
	} {
		resp, err := c.CompileToolset(ctx, toolsListRequest(0, doc))
		require.NoError(t, err, doc)
		assert.Equal(t, more, resp.GetMorePages(), doc)
		assert.Equal(t, []string{"w"}, mapsKeys(resp.GetBind()), "the page's tools are bound: %s", doc)
	}
	resp, err := c.CompileToolset(ctx, toolListRequest(0, &toolgatev1.ToolSchema{Name: "w", SchemaJson: weatherToolSchema}))
	require.NoError(t, err)
	assert.False(t, resp.GetMorePages())
	_, err = c.CompileToolset(ctx, toolsListRequest(0, `{"tools":[],"nextCursor":7}`))
	assert.Equal(t, codes.InvalidArgument, status.Code(err))
	assert.ErrorContains(t, err, "nextCursor must be a string")
}

func TestCompileToolsetToolList(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := t.Context()
	resp, err := c.CompileToolset(ctx, toolListRequest(toolgatev1.Profile_PROFILE_TOOL_INPUT,
		&toolgatev1.ToolSchema{Name: "weather", SchemaJson: weatherToolSchema},
		&toolgatev1.ToolSchema{Name: "grep", SchemaJson: `{"type":"object","properties":{"q":{"type":"string","pattern":"^a","maxLength":9}}}`},
		&toolgatev1.ToolSchema{Name: "cut", SchemaJson: `{"type":"object",`},
		&toolgatev1.ToolSchema{Name: "no_schema"},
		&toolgatev1.ToolSchema{SchemaJson: `{"type":"object"}`},
		&toolgatev1.ToolSchema{Name: "dup", SchemaJson: `{"type":"object"}`},
		&toolgatev1.ToolSchema{Name: "dup", SchemaJson: `{"type":"object"}`},
		&toolgatev1.ToolSchema{Name: "add", SchemaJson: `{"type":"object","properties":{"a":{"type":"number"}}}`},
	))
	require.NoError(t, err)
	name := finding{malformed, "name", ""}
	assert.Equal(t, []toolOutcome{
		{"weather", compiles, nil},
		{"grep", unsupported, []finding{{unsupported, "pattern", "/properties/q/pattern"}, {unsupported, "maxLength", "/properties/q/maxLength"}}},
		{"cut", malformed, []finding{{malformed, "json", ""}}},
		{"no_schema", malformed, []finding{{malformed, "inputSchema", ""}}},
		{"", malformed, []finding{name}},
		{"dup", malformed, []finding{name}},
		{"dup", malformed, []finding{name}},
		{"add", compiles, nil},
	}, outcomesOf(resp.GetTools()))
	assert.ElementsMatch(t, []string{"weather", "add"}, mapsKeys(resp.GetBind()))

	fromList, err := c.CompileToolset(ctx, toolsListRequest(0, `{"tools":[{"name":"weather","inputSchema":`+weatherToolSchema+`}]}`))
	require.NoError(t, err)
	assert.Equal(t, fromList.GetBind()["weather"], resp.GetBind()["weather"], "both forms give a schema the same handle")

	t.Run("an empty list", func(t *testing.T) {
		resp, err := c.CompileToolset(ctx, toolListRequest(0))
		require.NoError(t, err)
		assert.Empty(t, resp.GetTools())
		assert.Empty(t, resp.GetBind())
	})
}

// TestCompileToolsetLimits: a toolset may hold at most MaxToolsetTools
// tools (RESOURCE_EXHAUSTED past it; never more than the store holds), and
// a tool whose name is longer than MaxNameBytes is not bound (keyword
// "name"), its name echoed cut.
func TestCompileToolsetLimits(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	tools := func(n int) []*toolgatev1.ToolSchema {
		out := make([]*toolgatev1.ToolSchema, n)
		for i := range out {
			out[i] = &toolgatev1.ToolSchema{Name: "t" + strconv.Itoa(i), SchemaJson: `{"type":"object"}`}
		}
		return out
	}
	c := client(t, server.Config{Options: server.Options{MaxToolsetTools: 3, MaxNameBytes: 8}})
	_, err := c.CompileToolset(ctx, toolListRequest(0, tools(4)...))
	assert.Equal(t, codes.ResourceExhausted, code(err))
	assert.Contains(t, status.Convert(err).Message(), "4 tools, more than the limit of 3")
	resp, err := c.CompileToolset(ctx, toolListRequest(0, append(tools(2), &toolgatev1.ToolSchema{Name: "123456789", SchemaJson: `{"type":"object"}`})...))
	require.NoError(t, err)
	assert.Equal(t, []toolOutcome{{"t0", compiles, nil}, {"t1", compiles, nil}, {"12345678…", malformed, []finding{{malformed, "name", ""}}}},
		outcomesOf(resp.GetTools()))
	assert.Equal(t, []string{"t0", "t1"}, mapsKeys(resp.GetBind()))

	small := client(t, server.Config{Options: server.Options{StoreEntries: 2}})
	_, err = small.CompileToolset(ctx, toolListRequest(0, tools(3)...))
	assert.Equal(t, codes.ResourceExhausted, code(err), "no more tools than the store holds")
}

func mapsKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func TestCompileToolsetInvalidArgument(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	cases := []struct {
		name string
		req  *toolgatev1.CompileToolsetRequest
	}{
		{"no source", &toolgatev1.CompileToolsetRequest{}},
		{"no source, a profile", &toolgatev1.CompileToolsetRequest{Profile: toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE}},
		{"empty text", toolsListRequest(0, ``)},
		{"not JSON", toolsListRequest(0, `tools: [read_file]`)},
		{"cut JSON", toolsListRequest(0, `{"tools":[{"name":"a","inputSchema":{"type":"object"}}`)},
		{"trailing data", toolsListRequest(0, `{"tools":[]} {"tools":[]}`)},
		{"an array", toolsListRequest(0, `[{"name":"a","inputSchema":{"type":"object"}}]`)},
		{"one schema, not a list", toolsListRequest(0, weatherToolSchema)},
		{"tools not an array", toolsListRequest(0, `{"tools":{"a":{"type":"object"}}}`)},
		{"tools null", toolsListRequest(0, `{"tools":null}`)},
		{"a JSON-RPC error response", toolsListRequest(0, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`)},
		{"a JSON-RPC result without tools", toolsListRequest(0, `{"jsonrpc":"2.0","id":1,"result":{}}`)},
		{"a tool's name twice", toolsListRequest(0, `{"tools":[{"name":"a","name":"b","inputSchema":{"type":"object"}}]}`)},
		{"tools twice", toolsListRequest(0, `{"tools":[],"tools":[]}`)},
		{"a tool's name twice in a JSON-RPC response", toolsListRequest(0, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","name":"a","inputSchema":{}}]}}`)},
		{"nested deeper than a document may", toolsListRequest(0, `{"tools":[{"name":"a","inputSchema":`+strings.Repeat("[", 4094)+strings.Repeat("]", 4094)+`}]}`)},
		{"unknown profile, tools/list", toolsListRequest(7, `{"tools":[]}`)},
		{"unknown profile, tool list", toolListRequest(7, &toolgatev1.ToolSchema{Name: "a", SchemaJson: `{"type":"object"}`})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp, err := c.CompileToolset(t.Context(), tc.req)
			assert.Equal(t, codes.InvalidArgument, code(err), "%v", err)
			assert.Nil(t, resp)
		})
	}
}

func TestCompileToolsetOutputBindable(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := t.Context()
	doc := `{"tools":[
		{"name":"receipt","inputSchema":{"type":"object","required":["total"],"properties":{
			"total":{"type":"number","minimum":0},
			"date":{"type":"string","format":"date","title":"Date"}}}},
		{"name":"address","inputSchema":{"type":"object","properties":{"street":{"type":"object","properties":{"n":{"type":"integer"}}}}}},
		{"name":"ticket","inputSchema":{"type":"object","properties":{"urgency":{"type":"string","enum":["low","high"],"default":"low"}}}},
		{"name":"plain","inputSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}]}`
	resp, err := c.CompileToolset(ctx, toolsListRequest(toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE, doc))
	require.NoError(t, err)
	results := resp.GetTools()
	require.Len(t, results, 4)
	assert.Equal(t, []toolOutcome{
		{"receipt", compiles, nil},
		{"address", unsupported, findingsOf(results[1].GetErrors())},
		{"ticket", compiles, nil},
		{"plain", compiles, nil},
	}, outcomesOf(results))
	assert.NotEmpty(t, results[1].GetErrors(), "a nested object is not bindable")
	assert.Equal(t, []finding{
		{unsupported, "format", "/properties/date/format"},
		{unsupported, "title", "/properties/date/title"},
	}, findingsOf(results[0].GetWarnings()), "each tool's own warnings, in document order")
	assert.Equal(t, []finding{{unsupported, "default", "/properties/urgency/default"}}, findingsOf(results[2].GetWarnings()))
	assert.Empty(t, results[3].GetWarnings())
	assert.ElementsMatch(t, []string{"plain", "receipt", "ticket"}, mapsKeys(resp.GetBind()), "warnings do not keep a tool from being bound")

	input, err := c.CompileToolset(ctx, toolsListRequest(toolgatev1.Profile_PROFILE_TOOL_INPUT, doc))
	require.NoError(t, err)
	assert.Equal(t, []string{"address", "plain"}, mapsKeys(input.GetBind()),
		"the tool input profile takes nested objects and refuses format, title and default")
	assert.NotEqual(t, resp.GetBind()["plain"], input.GetBind()["plain"], "the profile is part of the handle")
}

func TestCompileToolsetFindingsCap(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{Options: server.Options{MaxFindings: 2}})
	resp, err := c.CompileToolset(t.Context(), toolsListRequest(0, `{"tools":[
		{"name":"many","inputSchema":{"type":"object","title":"t","$id":"x","default":{}}},
		{"name":"two","inputSchema":{"type":"object","title":"t","$id":"x"}},
		{"name":"dup","inputSchema":{"type":"object","title":"t","$id":"x"}},
		{"name":"dup","inputSchema":{"type":"object"}}]}`))
	require.NoError(t, err)
	results := resp.GetTools()
	require.Len(t, results, 4)
	assert.Len(t, results[0].GetErrors(), 2)
	assert.True(t, results[0].GetErrorsTruncated(), "three findings, a cap of two")
	assert.Len(t, results[1].GetErrors(), 2)
	assert.False(t, results[1].GetErrorsTruncated(), "the cap is per tool")
	require.Len(t, results[2].GetErrors(), 2)
	assert.Equal(t, "name", results[2].GetErrors()[0].GetKeyword(), "the finding about the tool comes first")
	assert.True(t, results[2].GetErrorsTruncated())
	assert.False(t, results[3].GetErrorsTruncated())

	output, err := c.CompileToolset(t.Context(), toolsListRequest(toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE, `{"tools":[
		{"name":"three","inputSchema":{"type":"object","title":"t","examples":[{}],"properties":{"a":{"type":"string","format":"email"}}}},
		{"name":"two","inputSchema":{"type":"object","title":"t","properties":{"a":{"type":"string","format":"email"}}}}]}`))
	require.NoError(t, err)
	warned := output.GetTools()
	require.Len(t, warned, 2)
	assert.Len(t, warned[0].GetWarnings(), 2)
	assert.True(t, warned[0].GetWarningsTruncated(), "three warnings, a cap of two")
	assert.Len(t, warned[1].GetWarnings(), 2)
	assert.False(t, warned[1].GetWarningsTruncated())
	assert.Empty(t, resp.GetBind())
}

// TestCompileToolsetSharesThePatternBudget: the tools of one
// CompileToolset compile their patterns from one --max-pattern-steps, so a
// list of many tools, each within it alone, is bounded together; the
// tools after it ran out are refused with keyword "limit", while each of
// them compiles on its own.
func TestCompileToolsetSharesThePatternBudget(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{Options: server.Options{MaxPatternSteps: 200_000}})
	var tools []string
	for i := range 30 {
		tools = append(tools, fmt.Sprintf(`{"name":"t%d","inputSchema":{"type":"object","properties":{"s":{"type":"string","pattern":".{%d}"}}}}`, i, 40+i))
	}
	resp, err := c.CompileToolset(t.Context(), toolsListRequest(toolgatev1.Profile_PROFILE_JSON_SCHEMA, `{"tools":[`+strings.Join(tools, ",")+`]}`))
	require.NoError(t, err)
	results := resp.GetTools()
	require.Len(t, results, 30)
	assert.NotEmpty(t, results[0].GetHandle(), "%v", results[0].GetErrors())
	last := results[29]
	require.Len(t, last.GetErrors(), 1, "the budget ran out before the last tool")
	assert.Equal(t, "limit", last.GetErrors()[0].GetKeyword())
	assert.Contains(t, last.GetErrors()[0].GetMessage(), "more than 200000 steps")
	alone, err := c.CompileToolset(t.Context(), toolsListRequest(toolgatev1.Profile_PROFILE_JSON_SCHEMA, `{"tools":[`+tools[29]+`]}`))
	require.NoError(t, err)
	assert.NotEmpty(t, alone.GetTools()[0].GetHandle(), "the last tool compiles on its own")
}

// TestCompileToolsetSharesTheNodeBudget: the tools of one CompileToolset
// build their JSON Schema subschemas from one --max-schema-nodes, so tools
// that each refer to one large supplied document do not each compile it
// within the limit alone: the tool that would pass it, and those after,
// are refused with keyword "limit", while each compiles on its own.
func TestCompileToolsetSharesTheNodeBudget(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{Options: server.Options{MaxSchemaNodes: 50}})
	var props []string
	for i := range 30 {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
	}
	big := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}` // 31 subschemas
	tool := `{"type":"object","properties":{"x":{"$ref":"urn:big"}}}`
	request := func(n int) *toolgatev1.CompileToolsetRequest {
		list := &toolgatev1.ToolList{}
		for i := range n {
			list.Tools = append(list.Tools, &toolgatev1.ToolSchema{Name: fmt.Sprint("t", i), SchemaJson: tool})
		}
		return &toolgatev1.CompileToolsetRequest{Profile: toolgatev1.Profile_PROFILE_JSON_SCHEMA,
			Resources: map[string]string{"urn:big": big}, Source: &toolgatev1.CompileToolsetRequest_Tools{Tools: list}}
	}
	resp, err := c.CompileToolset(t.Context(), request(3))
	require.NoError(t, err)
	results := resp.GetTools()
	require.Len(t, results, 3)
	assert.NotEmpty(t, results[0].GetHandle(), "%v", results[0].GetErrors())
	for _, r := range results[1:] {
		require.Len(t, r.GetErrors(), 1, "%s: the budget ran out", r.GetName())
		assert.Equal(t, "limit", r.GetErrors()[0].GetKeyword())
		assert.Contains(t, r.GetErrors()[0].GetMessage(), "compiled together in this request")
		assert.Contains(t, r.GetErrors()[0].GetMessage(), "more than 50 subschemas")
	}
	alone, err := c.CompileToolset(t.Context(), request(1))
	require.NoError(t, err)
	assert.NotEmpty(t, alone.GetTools()[0].GetHandle(), "one tool compiles within the limit: %v", alone.GetTools()[0].GetErrors())
}

// TestCompileToolsetMatchesCompileSchema compiles every real MCP toolset of
// testdata/mcp-tools and checks each tool against CompileSchema of its
// inputSchema alone: the same code, handle and findings.
func TestCompileToolsetMatchesCompileSchema(t *testing.T) {
	t.Parallel()
	dir := fixtures.Testdata(t, "mcp-tools")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	c := client(t, server.Config{})
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var list struct {
				Tools []struct {
					Name        string          `json:"name"`
					InputSchema json.RawMessage `json:"inputSchema"`
				} `json:"tools"`
			}
			require.NoError(t, json.Unmarshal(data, &list))
			resp, err := c.CompileToolset(t.Context(), toolsListRequest(0, string(data)))
			require.NoError(t, err)
			require.Len(t, resp.GetTools(), len(list.Tools))
			var bound map[string]string // nil while empty, as GetBind is
			for i, tool := range list.Tools {
				got := resp.GetTools()[i]
				want, err := c.CompileSchema(t.Context(), compileJSON(string(tool.InputSchema)))
				require.NoError(t, err)
				assert.Equal(t, tool.Name, got.GetName())
				assert.Equal(t, want.GetCode(), got.GetCode(), tool.Name)
				assert.Equal(t, want.GetHandle(), got.GetHandle(), tool.Name)
				// The same findings in the same order: a tools/list
				// document's schemas are compiled as written.
				assert.Equal(t, findingsOf(want.GetErrors()), findingsOf(got.GetErrors()), tool.Name)
				assert.Equal(t, findingsOf(want.GetWarnings()), findingsOf(got.GetWarnings()), tool.Name)
				for j, e := range got.GetErrors() {
					assert.Equal(t, want.GetErrors()[j].GetMessage(), e.GetMessage(), tool.Name)
				}
				if got.GetCode() == compiles {
					if bound == nil {
						bound = map[string]string{}
					}
					bound[tool.Name] = got.GetHandle()
				}
			}
			assert.Equal(t, bound, resp.GetBind())
		})
	}
}

// sseData returns the data of every event of a server-sent event file
// whose events have one data line each.
func sseData(t *testing.T, path string) []string {
	t.Helper()
	body, err := os.ReadFile(path)
	require.NoError(t, err)
	var events []string
	for line := range strings.Lines(string(body)) {
		if data, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "data: "); ok {
			events = append(events, data)
		}
	}
	return events
}

// The search call of testdata/mcp-e2e/anthropic.sse: its arguments, whose
// scope "everywhere" no enum choice starts with, and the bytes of them
// sent up to the delta holding the first impossible byte.
const (
	e2eSearchArgs = `{"query": "retry_limit", "scope": "everywhere"}`
	e2eSearchSeen = len(`{"query": "retry_limit", `) + len(`"scope": "ev`)
)

// TestToolsetEndToEnd is issue 6 end to end over a real TCP listener: an
// MCP tools/list result is compiled, its binding is bound to a
// ValidateStream, and an Anthropic stream calls a tool validly, a tool
// invalidly, a tool the list does not have, and (on a second stream) the
// tool that did not compile. Each result must arrive as soon as its
// verdict is known: the test sends the events one at a time and waits for
// a result right after the event that decides it.
func TestToolsetEndToEnd(t *testing.T) {
	t.Parallel()
	c := tcpClient(t, server.Config{})
	toolsList, err := os.ReadFile(fixtures.Testdata(t, "mcp-e2e/tools_list.json"))
	require.NoError(t, err)
	resp, err := c.CompileToolset(t.Context(), toolsListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, string(toolsList)))
	require.NoError(t, err)

	require.Equal(t, []toolOutcome{
		{"read_file", compiles, nil},
		{"write_file", compiles, nil},
		{"search", compiles, nil},
		{"fetch_url", unsupported, findingsOf(resp.GetTools()[3].GetErrors())},
	}, outcomesOf(resp.GetTools()))
	assert.Equal(t, []finding{
		{unsupported, "$schema", "/$schema"},
		{unsupported, "format", "/properties/url/format"},
		{unsupported, "maximum", "/properties/max_length/maximum"},
		{unsupported, "default", "/properties/max_length/default"},
	}, findingsOf(resp.GetTools()[3].GetErrors()), "in document order")
	require.Equal(t, []string{"read_file", "search", "write_file"}, mapsKeys(resp.GetBind()))

	const anthropic = toolgatev1.Provider_PROVIDER_ANTHROPIC
	t.Run("three calls, three results", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		s, err := c.ValidateStream(ctx)
		require.NoError(t, err)
		send(t, s, askReceipt(), bind(resp.GetBind()))

		// decides maps a substring of the event that decides a call to the
		// check of that call's result.
		decides := []struct {
			event string
			check func(t *testing.T, r *toolgatev1.CallResult)
		}{
			{`"type":"content_block_stop","index":1`, func(t *testing.T, r *toolgatev1.CallResult) {
				assert.Equal(t, "toolu_01ReadFile", r.GetCallId())
				assert.Equal(t, "read_file", r.GetToolName())
				assert.True(t, r.GetValid(), "%v", r.GetErrors())
				assert.Equal(t, compiles, r.GetCode())
				assert.False(t, r.GetEarly())
				assert.Equal(t, int64(len(`{"path": "config/app.yaml", "max_lines": 200}`)), r.GetBytes())
			}},
			{`scope\": \"ev"`, func(t *testing.T, r *toolgatev1.CallResult) {
				assert.Equal(t, "toolu_02Search", r.GetCallId())
				assert.Equal(t, "search", r.GetToolName())
				assert.False(t, r.GetValid())
				assert.True(t, r.GetEarly(), "rejected while the call was still streaming")
				assert.Equal(t, int64(e2eSearchSeen), r.GetBytes())
				assert.Equal(t, malformed, r.GetCode())
				require.Len(t, r.GetErrors(), 1)
				e := r.GetErrors()[0]
				assert.Equal(t, finding{malformed, "enum", "/properties/scope/enum"}, findingsOf(r.GetErrors())[0])
				assert.Equal(t, "/scope", e.GetInstancePath())
				assert.Equal(t, int64(strings.Index(e2eSearchArgs, "everywhere")), e.GetOffset(), "the 'e' that no choice starts with")
				assert.Contains(t, e.GetMessage(), "/scope")
			}},
			{`"name":"delete_file"`, func(t *testing.T, r *toolgatev1.CallResult) {
				assert.Equal(t, "toolu_03Delete", r.GetCallId())
				assert.Equal(t, "delete_file", r.GetToolName())
				assert.False(t, r.GetValid())
				assert.True(t, r.GetEarly(), "decided at the call's start")
				assert.Equal(t, malformed, r.GetCode())
				require.Len(t, r.GetErrors(), 1)
				assert.Equal(t, "tool_name", r.GetErrors()[0].GetKeyword())
				assert.Empty(t, r.GetErrors()[0].GetSchemaPath())
			}},
		}
		events := sseData(t, fixtures.Testdata(t, "mcp-e2e/anthropic.sse"))
		next := 0
		for _, ev := range events {
			send(t, s, providerEvent(anthropic, ev))
			if next < len(decides) && strings.Contains(ev, decides[next].event) {
				decides[next].check(t, recvResult(t, s))
				next++
			}
		}
		require.Equal(t, len(decides), next, "every deciding event was sent")
		require.NoError(t, s.CloseSend())
		recvEnd(t, s, 2+int64(len(events)), 3) // exactly three results
	})

	t.Run("the tool that did not compile is not bound", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		s, err := c.ValidateStream(ctx)
		require.NoError(t, err)
		send(t, s, askReceipt(), bind(resp.GetBind()),
			providerEvent(anthropic, `{"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","content":[]}}`),
			providerEvent(anthropic, `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_04Fetch","name":"fetch_url","input":{}}}`),
			providerEvent(anthropic, `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"url\": \"https://example.com\"}"}}`),
			providerEvent(anthropic, `{"type":"content_block_stop","index":0}`),
			providerEvent(anthropic, `{"type":"message_stop"}`))
		require.NoError(t, s.CloseSend())
		r := recvResult(t, s)
		assert.Equal(t, "toolu_04Fetch", r.GetCallId())
		assert.Equal(t, "fetch_url", r.GetToolName())
		assert.False(t, r.GetValid(), "never passed unchecked")
		assert.Equal(t, malformed, r.GetCode())
		require.Len(t, r.GetErrors(), 1)
		assert.Equal(t, "tool_name", r.GetErrors()[0].GetKeyword())
		recvEnd(t, s, 7, 1)
	})
}

// TestCompileToolsetAdmission checks issue 11's admission modes: quarantine
// (the default) binds what compiled, strict binds nothing unless every tool
// compiled, and each compiled tool reports a handle that works either way.
func TestCompileToolsetAdmission(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	const allCompile = `{"tools":[
		{"name":"weather","inputSchema":` + weatherToolSchema + `},
		{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"}}}}]}`
	sameName := `{"name":"t","inputSchema":{"type":"object"}}`
	cases := []struct {
		name      string
		admission toolgatev1.Admission
		doc       string
		bound     []string
		admitted  bool
		handles   int // tools that report a handle
	}{
		{"unspecified is quarantine", toolgatev1.Admission_ADMISSION_UNSPECIFIED, mixedToolsList, []string{"add", "weather"}, true, 2},
		{"quarantine", toolgatev1.Admission_ADMISSION_QUARANTINE, mixedToolsList, []string{"add", "weather"}, true, 2},
		{"strict with a tool that does not compile", toolgatev1.Admission_ADMISSION_STRICT, mixedToolsList, nil, false, 2},
		{"strict when every tool compiles", toolgatev1.Admission_ADMISSION_STRICT, allCompile, []string{"add", "weather"}, true, 2},
		{"strict with a repeated name", toolgatev1.Admission_ADMISSION_STRICT, `{"tools":[` + sameName + `,` + sameName + `]}`, nil, false, 0},
		{"strict with no tools", toolgatev1.Admission_ADMISSION_STRICT, `{"tools":[]}`, nil, true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := toolsListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, tc.doc)
			req.Admission = tc.admission
			resp, err := c.CompileToolset(t.Context(), req)
			require.NoError(t, err)
			assert.Equal(t, tc.bound, mapsKeys(resp.GetBind()))
			assert.Equal(t, tc.admitted, resp.GetAdmitted())
			handles := 0
			for _, r := range resp.GetTools() {
				if r.GetHandle() == "" {
					continue
				}
				handles++
				assert.Equal(t, compiles, r.GetCode())
				v, err := c.Validate(t.Context(), &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: r.GetHandle()},
					Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
				require.NoError(t, err, "tool %q: the server holds its handle", r.GetName())
				assert.NotNil(t, v)
			}
			assert.Equal(t, tc.handles, handles)
		})
	}
	t.Run("an unknown admission is INVALID_ARGUMENT", func(t *testing.T) {
		t.Parallel()
		req := toolsListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, allCompile)
		req.Admission = 7
		_, err := c.CompileToolset(t.Context(), req)
		assert.Equal(t, codes.InvalidArgument, code(err))
		assert.Contains(t, err.Error(), "admission 7")
	})
}

// TestJSONSchemaOnlyOptions checks that the compile options only
// PROFILE_JSON_SCHEMA takes (resources, format_assertion) are
// INVALID_ARGUMENT under the other profiles, in every RPC that compiles.
func TestJSONSchemaOnlyOptions(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	type options struct {
		resources       map[string]string
		formatAssertion bool
		field           string
	}
	for _, opt := range []options{
		{map[string]string{"https://example.com/a.json": `{"type":"string"}`}, false, "resources"},
		{nil, true, "format_assertion"},
	} {
		for _, profile := range []toolgatev1.Profile{toolgatev1.Profile_PROFILE_UNSPECIFIED, toolgatev1.Profile_PROFILE_TOOL_INPUT, toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE} {
			compile := &toolgatev1.CompileSchemaRequest{Profile: profile, Resources: opt.resources, FormatAssertion: opt.formatAssertion,
				Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: `{"type":"object","properties":{"a":{"type":"string"}}}`}}
			toolset := toolListRequest(profile, &toolgatev1.ToolSchema{Name: "a", SchemaJson: `{"type":"object"}`})
			toolset.Resources, toolset.FormatAssertion = opt.resources, opt.formatAssertion
			for rpc, call := range map[string]func() error{
				"CompileSchema": func() error { _, err := c.CompileSchema(t.Context(), compile); return err },
				"Validate inline": func() error {
					_, err := c.Validate(t.Context(), &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compile},
						Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
					return err
				},
				"CompileToolset": func() error { _, err := c.CompileToolset(t.Context(), toolset); return err },
			} {
				t.Run(opt.field+"/"+profile.String()+"/"+rpc, func(t *testing.T) {
					err := call()
					assert.Equal(t, codes.InvalidArgument, code(err), "%v", err)
					assert.Contains(t, err.Error(), opt.field+": only PROFILE_JSON_SCHEMA")
				})
			}
		}
	}
}

// TestCompileToolsetHandlesAreHeld: every handle a CompileToolset answers
// is in the store when it answers. Tools whose compiled schemas together
// hold more than StoreBytes would evict one another, so that a bind of
// them finds its first tools gone (issue: three tools on a store with room
// for two were all bound, and the first was NOT_FOUND at once); such a
// toolset is RESOURCE_EXHAUSTED, like one past --max-toolset-tools, and
// stores nothing. A schema two tools share is counted once.
func TestCompileToolsetHandlesAreHeld(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	tool := func(name, typ string) *toolgatev1.ToolSchema {
		return &toolgatev1.ToolSchema{Name: name, SchemaJson: `{"type":"object","properties":{"x":{"type":"` + typ + `"},"y":{"type":"integer"}}}`}
	}
	three := []*toolgatev1.ToolSchema{tool("a", "string"), tool("b", "number"), tool("c", "boolean")}
	var svc *server.Service
	measure := toolgatev1.NewValidationServiceClient(startService(t, server.Config{}, func(s *server.Service) { svc = s }))
	_, err := measure.CompileToolset(ctx, toolListRequest(0, three...))
	require.NoError(t, err)
	need := server.StoredBytes(svc)
	require.Positive(t, need)

	for _, tc := range []struct {
		name       string
		storeBytes int64
		tools      []*toolgatev1.ToolSchema
		held       bool
	}{
		{"room for all", need, three, true},
		{"room for all but a byte", need - 1, three, false},
		{"a shared schema counted once", need, append(slices.Clone(three), tool("a2", "string")), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var svc *server.Service
			c := toolgatev1.NewValidationServiceClient(startService(t, server.Config{Options: server.Options{StoreBytes: tc.storeBytes}}, func(s *server.Service) { svc = s }))
			for _, admission := range []toolgatev1.Admission{toolgatev1.Admission_ADMISSION_QUARANTINE, toolgatev1.Admission_ADMISSION_STRICT} {
				req := toolListRequest(0, tc.tools...)
				req.Admission = admission
				resp, err := c.CompileToolset(ctx, req)
				if !tc.held {
					assert.Equal(t, codes.ResourceExhausted, code(err), "%v: %v", admission, err)
					assert.Contains(t, status.Convert(err).Message(), fmt.Sprintf("more than the store's bound of %d bytes", tc.storeBytes))
					assert.Zero(t, server.StoredSchemas(svc), "%v: a refused toolset stores nothing", admission)
					continue
				}
				require.NoError(t, err)
				require.Len(t, resp.GetBind(), len(tc.tools))
				for name, h := range resp.GetBind() {
					_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: h},
						Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
					assert.NoError(t, err, "%v: tool %q's handle is held", admission, name)
				}
			}
		})
	}
}
