package toolset_test

import (
	"bytes"
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

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/store"
	"github.com/toolgate/toolgate/internal/toolset"
	_ "github.com/toolgate/toolgate/internal/validator" // the meta-schema check of JSON Schema profile tools
)

// u is short for the long tables.
var u = fixtures.Unsupported

func TestParseToolsList(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		doc  string
		want []toolset.Tool
		// canonical is, tool by tool, the canonical text its schema compiles
		// to ("" for a tool without a schema): what ParseToolsList returned
		// as the schema before it kept the schema as written.
		canonical []string
	}{
		{"valid", `{"tools": [
			{"name": "a", "description": "A.", "inputSchema": {"type": "object"}},
			{"name": "b", "inputSchema": {"properties": {"x": {"type": "string"}}, "type": "object"}}]}`,
			[]toolset.Tool{
				{Name: "a", Schema: []byte(`{"type": "object"}`), Pointer: "/tools/0"},
				{Name: "b", Schema: []byte(`{"properties": {"x": {"type": "string"}}, "type": "object"}`), Pointer: "/tools/1"},
			},
			[]string{`{"type":"object"}`, `{"properties":{"x":{"type":"string"}},"type":"object"}`}},
		{"schema as written", `{"tools": [{"name": "a", "inputSchema": {"type" : "object", "properties": {"n": {"type": "number", "minimum": 1.50}}}}]}`,
			[]toolset.Tool{{Name: "a", Schema: []byte(`{"type" : "object", "properties": {"n": {"type": "number", "minimum": 1.50}}}`), Pointer: "/tools/0"}},
			[]string{`{"properties":{"n":{"minimum":1.5e0,"type":"number"}},"type":"object"}`}},
		{"schema over several lines", "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\n\t\"type\": \"object\",\r\n\t\"required\": [ ]\n}\n}]}",
			[]toolset.Tool{{Name: "a", Schema: []byte("{\n\t\"type\": \"object\",\r\n\t\"required\": [ ]\n}"), Pointer: "/tools/0"}},
			[]string{`{"required":[],"type":"object"}`}},
		{"extra members ignored", `{"tools": [{"name": "a", "title": "A", "annotations": {"readOnlyHint": true},
			"outputSchema": {"type": "object"}, "_meta": {}, "inputSchema": {"type": "object"}}], "nextCursor": "x", "_meta": {}}`,
			[]toolset.Tool{{Name: "a", Schema: []byte(`{"type": "object"}`), Pointer: "/tools/0"}},
			[]string{`{"type":"object"}`}},
		{"no tools", `{"tools": []}`, []toolset.Tool{}, []string{}},
		{"tool without name", `{"tools": [{"inputSchema": {"type": "object"}}]}`,
			[]toolset.Tool{{Schema: []byte(`{"type": "object"}`), Pointer: "/tools/0"}},
			[]string{`{"type":"object"}`}},
		{"name not a string", `{"tools": [{"name": 7, "inputSchema": {"type": "object"}}]}`,
			[]toolset.Tool{{Schema: []byte(`{"type": "object"}`), Pointer: "/tools/0"}},
			[]string{`{"type":"object"}`}},
		{"tool without inputSchema", `{"tools": [{"name": "a"}]}`,
			[]toolset.Tool{{Name: "a", Pointer: "/tools/0"}},
			[]string{""}},
		{"inputSchema of any kind is kept for the compiler", `{"tools": [{"name": "a", "inputSchema": true}, {"name": "b", "inputSchema": null},
			{"name": "c", "inputSchema": 12.50 }, {"name": "d", "inputSchema":-0}, {"name": "e", "inputSchema": "{}"}]}`,
			[]toolset.Tool{
				{Name: "a", Schema: []byte(`true`), Pointer: "/tools/0"}, {Name: "b", Schema: []byte(`null`), Pointer: "/tools/1"},
				{Name: "c", Schema: []byte(`12.50`), Pointer: "/tools/2"}, {Name: "d", Schema: []byte(`-0`), Pointer: "/tools/3"},
				{Name: "e", Schema: []byte(`"{}"`), Pointer: "/tools/4"},
			},
			[]string{`true`, `null`, `1.25e1`, `0`, `"{}"`}},
		{"tool not an object", `{"tools": ["a", {"name": "b", "inputSchema": {}}]}`,
			[]toolset.Tool{{Pointer: "/tools/0"}, {Name: "b", Schema: []byte(`{}`), Pointer: "/tools/1"}},
			[]string{"", `{}`}},
		{"a repeated member inside a schema is kept for the compiler", `{"tools": [{"name": "a", "inputSchema": {"type": "object", "type": "string"}}]}`,
			[]toolset.Tool{{Name: "a", Schema: []byte(`{"type": "object", "type": "string"}`), Pointer: "/tools/0"}},
			[]string{""}}, // not compiled: the repetition is a finding (TestCompileRepeatedMember)
		{"a whole JSON-RPC response", `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [
			{"name": "a", "inputSchema": {"type": "object"}}, {"name": "b"}], "nextCursor": "x"}}`,
			[]toolset.Tool{{Name: "a", Schema: []byte(`{"type": "object"}`), Pointer: "/result/tools/0"}, {Name: "b", Pointer: "/result/tools/1"}},
			[]string{`{"type":"object"}`, ""}},
		{"a JSON-RPC response with the result first", `{"result": {"tools": [{"name": "a", "inputSchema": {}}]}, "id": "x", "jsonrpc": "2.0"}`,
			[]toolset.Tool{{Name: "a", Schema: []byte(`{}`), Pointer: "/result/tools/0"}},
			[]string{`{}`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, _, err := toolset.ParseToolsList([]byte(c.doc), 0)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
			require.Len(t, c.canonical, len(got))
			for i, tool := range got {
				if tool.Schema == nil {
					continue
				}
				// Each schema is the bytes of its inputSchema, exactly.
				assert.Contains(t, c.doc, string(tool.Schema), "tool %d", i)
				r := schema.Compile(schema.ToolInput, tool.Schema)
				if c.canonical[i] == "" {
					assert.Nil(t, r.Canonical, "tool %d", i)
					continue
				}
				// Compiled as written, it has the canonical text, and so the
				// handle, that it had when it was read as canonical text.
				assert.Equal(t, c.canonical[i], string(r.Canonical), "tool %d", i)
				before := schema.Compile(schema.ToolInput, []byte(c.canonical[i]))
				assert.Equal(t, before.Canonical, r.Canonical, "tool %d", i)
				assert.Equal(t, store.Handle(schema.ToolInput.String(), before.Canonical), store.Handle(schema.ToolInput.String(), r.Canonical), "tool %d", i)
				assert.Equal(t, fixtures.SchemaFindings(before.Errors), fixtures.SchemaFindings(r.Errors), "tool %d", i)
			}
		})
	}
}

func TestParseToolsListErrors(t *testing.T) {
	t.Parallel()
	nested := func(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }
	cases := []struct {
		name, doc, msg string
	}{
		{"not JSON", `{"tools": [`, "not a JSON document"},
		{"trailing data", `{"tools": []} {}`, "not a JSON document"},
		{"empty", ``, "not a JSON document"},
		{"nested deeper than 4096 levels", `{"tools": [{"name": "a", "inputSchema": ` + nested(4094) + `}]}`, "nesting deeper than the limit of 4096"},
		{"array", `[{"name": "a", "inputSchema": {}}]`, "not a tools/list result"},
		{"no tools member", `{"type": "object"}`, "not a tools/list result"},
		{"tools not an array", `{"tools": {"a": {"inputSchema": {}}}}`, "not a tools/list result"},
		{"a JSON-RPC error response", `{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}`, "not a tools/list result"},
		// Read two ways: an MCP client reads result, or raises on error.
		{"an error beside a result", `{"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "x"}, "result": {"tools": [{"name": "y", "inputSchema": {}}]}}`, `"error" member`},
		{"an error beside tools", `{"error": null, "tools": [{"name": "y", "inputSchema": {}}]}`, `"error" member`},
		{"tools beside a result", `{"jsonrpc": "2.0", "id": 1, "tools": [{"name": "x", "inputSchema": {}}], "result": {"tools": [{"name": "y", "inputSchema": {}}]}}`, "ambiguous"},
		{"tools beside a null result", `{"result": null, "tools": [{"name": "x", "inputSchema": {}}]}`, "ambiguous"},
		{"a JSON-RPC result without tools", `{"jsonrpc": "2.0", "id": 1, "result": {"type": "object"}}`, "not a tools/list result"},
		{"a JSON-RPC result whose tools is not an array", `{"jsonrpc": "2.0", "id": 1, "result": {"tools": {}}}`, "not a tools/list result"},
		{"a JSON-RPC result not an object", `{"jsonrpc": "2.0", "id": 1, "result": [{"name": "a", "inputSchema": {}}]}`, "not a tools/list result"},
		{"a result inside a result", `{"result": {"result": {"tools": []}}}`, "not a tools/list result"},
		// The MCP SDKs' result schemas take a string cursor, or none.
		{"a number nextCursor", `{"tools": [], "nextCursor": 2}`, "nextCursor must be a string (or null for none), not a number"},
		{"an object nextCursor", `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [], "nextCursor": {}}}`, "not an object"},
		{"nextCursor twice", `{"tools": [], "nextCursor": "a", "nextCursor": ""}`, `the member "nextCursor" occurs twice in the object at ""`},
		// A repeated member outside every inputSchema is the document's
		// error; inside one, it is that tool's finding (TestCompileRepeatedMember).
		{"a tool's name twice", `{"tools": [{"name": "a", "name": "b", "inputSchema": {}}]}`,
			`the member "name" occurs twice in the object at "/tools/0"`},
		{"a tool's inputSchema twice", `{"tools": [{"name": "a", "inputSchema": {}, "inputSchema": {}}]}`,
			`the member "inputSchema" occurs twice in the object at "/tools/0"`},
		{"tools twice", `{"tools": [], "tools": [{"name": "a", "inputSchema": {}}]}`,
			`the member "tools" occurs twice in the object at ""`},
		{"a member twice in another member of a tool", `{"tools": [{"name": "a", "annotations": {"x": 1, "x": 1}, "inputSchema": {}}]}`,
			`the member "x" occurs twice in the object at "/tools/0/annotations"`},
		{"a member twice in a member named like inputSchema", `{"tools": [{"name": "a", "inputSchemas": {"x": 1, "x": 1}, "inputSchema": {}}]}`,
			`the member "x" occurs twice in the object at "/tools/0/inputSchemas"`},
		{"a member twice in a tool without an inputSchema", `{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b", "x": {"y": 1, "y": 1}}]}`,
			`the member "y" occurs twice in the object at "/tools/1/x"`},
		{"a member twice beside the tools", `{"tools": [{"name": "a", "inputSchema": {}}], "_meta": {"x": 1, "x": 2}}`,
			`the member "x" occurs twice in the object at "/_meta"`},
		{"a member twice outside a schema and another inside one", `{"tools": [{"name": "a", "inputSchema": {"type": "object", "type": "object"}}, {"name": "b", "name": "b"}]}`,
			`the member "name" occurs twice in the object at "/tools/1"`},
		{"a tool's name twice in a JSON-RPC response", `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "name": "b", "inputSchema": {}}]}}`,
			`the member "name" occurs twice in the object at "/result/tools/0"`},
		{"a JSON-RPC response's result twice", `{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}, "result": {"tools": []}}`,
			`the member "result" occurs twice in the object at ""`},
		// Past the first 100 repetitions the parser records: found by a
		// review, a client's parser reads the last name, toolgate the first.
		{"a tool's name twice after 100 repetitions in schemas", `{"tools": [` + strings.Repeat(`{"name": "p", "inputSchema": {"type": "object", "type": "object"}}, `, 100) +
			`{"name": "read_file", "name": "delete_file", "inputSchema": {}}]}`, `the member "name" occurs twice in the object at "/tools/100"`},
		{"a tool's inputSchema twice after 100 repetitions in schemas", `{"tools": [` + strings.Repeat(`{"name": "p", "inputSchema": {"type": "object", "type": "object"}}, `, 100) +
			`{"name": "w", "inputSchema": {"type": "object", "additionalProperties": false}, "inputSchema": {}}]}`, `the member "inputSchema" occurs twice in the object at "/tools/100"`},
		{"tools twice after 100 repetitions in schemas", `{"tools": [` + strings.TrimSuffix(strings.Repeat(`{"name": "p", "inputSchema": {"type": "object", "type": "object"}}, `, 100), ", ") +
			`], "tools": []}`, `the member "tools" occurs twice in the object at ""`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tools, _, err := toolset.ParseToolsList([]byte(c.doc), 0)
			assert.Nil(t, tools)
			var de *toolset.DocumentError
			require.ErrorAs(t, err, &de)
			assert.Contains(t, de.Error(), c.msg)
		})
	}
}

// TestParseToolsListNextCursor: a page of a paginated tools/list names
// the next page in nextCursor, in a bare result or a JSON-RPC response;
// none, null and "" (where the SDKs stop too) mean the list ends there,
// and a nextCursor beside the response's result is not the result's.
func TestParseToolsListNextCursor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ doc, want string }{
		{`{"tools": [{"name": "a", "inputSchema": {}}], "nextCursor": "page-2"}`, "page-2"},
		{`{"jsonrpc": "2.0", "id": 1, "result": {"tools": [], "nextCursor": "eyJvZmZzZXQiOjUwfQ=="}}`, "eyJvZmZzZXQiOjUwfQ=="},
		{`{"tools": []}`, ""},
		{`{"tools": [], "nextCursor": null}`, ""},
		{`{"tools": [], "nextCursor": ""}`, ""},
		{`{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}, "nextCursor": "x"}`, ""},
	} {
		tools, cursor, err := toolset.ParseToolsList([]byte(c.doc), 0)
		require.NoError(t, err, c.doc)
		assert.NotNil(t, tools, c.doc)
		assert.Equal(t, c.want, cursor, c.doc)
	}
}

// TestParseToolsListMaxTools: a list of more than maxTools tools is a
// *TooManyToolsError that names both counts, in a bare result or a
// JSON-RPC response; maxTools 0 or less bounds nothing.
func TestParseToolsListMaxTools(t *testing.T) {
	t.Parallel()
	three := `{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b", "inputSchema": {}}, {"name": "c", "inputSchema": {}}]}`
	for _, c := range []struct {
		name     string
		doc      string
		maxTools int
		tooMany  bool
	}{
		{"at the limit", three, 3, false},
		{"past the limit", three, 2, true},
		{"past the limit in a JSON-RPC response", `{"jsonrpc": "2.0", "id": 1, "result": ` + three + `}`, 1, true},
		{"no limit", three, 0, false},
		{"a negative limit", three, -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tools, _, err := toolset.ParseToolsList([]byte(c.doc), c.maxTools)
			if !c.tooMany {
				require.NoError(t, err)
				assert.Len(t, tools, 3)
				return
			}
			assert.Nil(t, tools)
			var tm *toolset.TooManyToolsError
			require.ErrorAs(t, err, &tm)
			assert.Equal(t, toolset.TooManyToolsError{Tools: 3, Max: c.maxTools}, *tm)
			assert.EqualError(t, err, fmt.Sprintf("the toolset has 3 tools, more than the limit of %d", c.maxTools))
		})
	}
}

// TestParseToolsListMaxToolsBuildsNoTool: a list past maxTools is refused
// before any of its tools is built, so refusing 200,000 empty tools costs
// what parsing the document does (their Tools and pointers, built first,
// once cost as much again).
func TestParseToolsListMaxToolsBuildsNoTool(t *testing.T) {
	doc := []byte(`{"tools": [` + strings.Repeat(`{}, `, 200_000) + `{}]}`)
	parse := testing.AllocsPerRun(1, func() { _, _, _ = jsondoc.ParseDuplicates(doc, 4096) })
	refuse := testing.AllocsPerRun(1, func() {
		_, _, err := toolset.ParseToolsList(doc, 1024)
		require.Error(t, err)
	})
	assert.LessOrEqual(t, refuse, parse+10, "refusing allocates what parsing does")
}

// TestCompileRepeatedMember checks that a member name repeated inside one
// tool's inputSchema is a VALIDATION "json" finding of that tool, at the
// object that repeats it, while the other tools compile.
func TestCompileRepeatedMember(t *testing.T) {
	t.Parallel()
	for prefix, doc := range map[string]string{
		"": `{"tools": [
			{"name": "nested", "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "type": "integer"}}}},
			{"name": "ok", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}},
			{"name": "root", "inputSchema": {"type": "object", "required": [], "required": ["x"]}}]}`,
		"/result": `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [
			{"name": "nested", "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "type": "integer"}}}},
			{"name": "ok", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}},
			{"name": "root", "inputSchema": {"type": "object", "required": [], "required": ["x"]}}]}}`,
	} {
		tools, _, err := toolset.ParseToolsList([]byte(doc), 0)
		require.NoError(t, err, doc)
		results := toolset.Compile(schema.ToolInput, tools)
		require.Len(t, results, 3)
		for i, name := range []string{"nested", "ok", "root"} {
			assert.Equal(t, name, results[i].Name)
			assert.Equal(t, prefix+"/tools/"+strconv.Itoa(i), results[i].Pointer)
			assert.Empty(t, results[i].Problems, name)
			require.NotNil(t, results[i].Compiled, name)
		}
		assert.Equal(t, []fixtures.SchemaFinding{fixtures.Malformed("json", "/properties/x")}, fixtures.SchemaFindings(results[0].Findings()))
		assert.Equal(t, schema.CodeValidation, results[0].Code())
		assert.Nil(t, results[0].Compiled.Schema)
		assert.Contains(t, results[0].Findings()[0].Message, `The schema object at "/properties/x" has the member "type" twice.`)
		assert.Equal(t, schema.CodeNone, results[1].Code(), "%v", results[1].Findings())
		assert.NotNil(t, results[1].Compiled.Schema)
		assert.Equal(t, []fixtures.SchemaFinding{fixtures.Malformed("json", "")}, fixtures.SchemaFindings(results[2].Findings()))
		assert.Contains(t, results[2].Findings()[0].Message, `The schema object at "" has the member "required" twice.`)
		assert.Nil(t, results[2].Compiled.Schema)
	}
}

// TestCompileDeepSchema checks that a schema nested deeper than a schema
// may is its own tool's finding (past the profile's limit:
// UNSUPPORTED_CAPABILITY, keyword "limit"), not the document's error: the
// document may nest up to 4096 levels.
func TestCompileDeepSchema(t *testing.T) {
	t.Parallel()
	// A chain of 32 schemas nests 64 levels, the most a schema may; one
	// more is too deep.
	require.Equal(t, `{"type": "object", "properties": {"a": {"type": "object", "properties": {}}}}`, chain(2))
	assert.Equal(t, schema.CodeNone, schema.Compile(schema.ToolInput, []byte(chain(32))).Code())
	assert.Equal(t, schema.CodeUnsupported, schema.Compile(schema.ToolInput, []byte(chain(33))).Code())
	for _, c := range []struct {
		name   string
		schema string
	}{
		{"100 levels of properties", chain(50)},
		{"4093 levels, the most the document allows", strings.Repeat("[", 4093) + strings.Repeat("]", 4093)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tools, _, err := toolset.ParseToolsList([]byte(`{"tools": [
				{"name": "before", "inputSchema": {"type": "object"}},
				{"name": "deep", "inputSchema": `+c.schema+`},
				{"name": "after", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]}`), 0)
			require.NoError(t, err)
			require.Len(t, tools, 3)
			assert.Equal(t, c.schema, string(tools[1].Schema))
			results := toolset.Compile(schema.ToolInput, tools)
			for _, i := range []int{0, 2} {
				assert.Equal(t, schema.CodeNone, results[i].Code(), "%s: %v", results[i].Name, results[i].Findings())
				assert.NotNil(t, results[i].Compiled.Schema)
			}
			assert.Equal(t, []fixtures.SchemaFinding{fixtures.Unsupported("limit", "")}, fixtures.SchemaFindings(results[1].Findings()))
			assert.Equal(t, "The schema nests deeper than the limit of 64.", results[1].Findings()[0].Message)
			assert.Nil(t, results[1].Compiled.Schema)
		})
	}
}

// chain returns n object schemas each nested in the last one's properties,
// 2n levels deep: {"type": "object", "properties": {"a": {...}}}, the
// innermost with empty properties.
func chain(n int) string {
	return strings.Repeat(`{"type": "object", "properties": {"a": `, n-1) +
		`{"type": "object", "properties": {}}` + strings.Repeat(`}}`, n-1)
}

func TestCompile(t *testing.T) {
	t.Parallel()
	tools, _, err := toolset.ParseToolsList([]byte(`{"tools": [
		{"name": "ok", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
		{"name": "twice", "inputSchema": {"type": "object"}},
		{"inputSchema": {"type": "object", "properties": {"u": {"type": "string", "format": "uri"}}}},
		{"name": "twice", "inputSchema": {"type": "object", "properties": {"n": {"type": 5}}}},
		{"name": "bare"},
		{"name": "unsupported", "inputSchema": {"$schema": "x", "type": "object"}}]}`), 0)
	require.NoError(t, err)
	results := toolset.Compile(schema.ToolInput, tools)
	require.Len(t, results, len(tools))
	cases := []struct {
		problems []fixtures.SchemaFinding // findings about the tool itself
		errors   []fixtures.SchemaFinding // findings about its schema; nil when compiled
		code     schema.Code
	}{
		{nil, nil, schema.CodeNone},
		{[]fixtures.SchemaFinding{fixtures.Malformed("name", "")}, nil, schema.CodeValidation},
		{[]fixtures.SchemaFinding{fixtures.Malformed("name", "")}, []fixtures.SchemaFinding{fixtures.Unsupported("format", "/properties/u/format")}, schema.CodeUnsupported},
		{[]fixtures.SchemaFinding{fixtures.Malformed("name", "")}, []fixtures.SchemaFinding{fixtures.Malformed("type", "/properties/n/type")}, schema.CodeValidation},
		{[]fixtures.SchemaFinding{fixtures.Malformed("inputSchema", "")}, nil, schema.CodeValidation},
		{nil, []fixtures.SchemaFinding{fixtures.Unsupported("$schema", "/$schema")}, schema.CodeUnsupported},
	}
	for i, c := range cases {
		r := &results[i]
		assert.Equal(t, tools[i], r.Tool, "tool %d", i)
		assert.Equal(t, c.problems, nilIfEmpty(fixtures.SchemaFindings(r.Problems)), "tool %d problems", i)
		assert.Equal(t, c.code, r.Code(), "tool %d code", i)
		assert.Equal(t, append(slices.Clone(c.problems), c.errors...), nilIfEmpty(fixtures.SchemaFindings(r.Findings())), "tool %d findings", i)
		if tools[i].Schema == nil {
			assert.Nil(t, r.Compiled, "tool %d has no schema to compile", i)
			continue
		}
		// Every schema is compiled, repeated names included, so its own
		// findings show too.
		require.NotNil(t, r.Compiled, "tool %d", i)
		assert.Equal(t, c.errors, nilIfEmpty(fixtures.SchemaFindings(r.Compiled.Errors)), "tool %d schema", i)
		assert.Equal(t, c.errors == nil, r.Compiled.Schema != nil, "tool %d compiled", i)
	}
	// Findings about the tool carry its message and no schema path.
	assert.Contains(t, results[1].Problems[0].Message, `"twice" occurs 2 times`)
	assert.Contains(t, results[2].Problems[0].Message, "no name")
	assert.Contains(t, results[4].Problems[0].Message, "no inputSchema")
}

func nilIfEmpty(w []fixtures.SchemaFinding) []fixtures.SchemaFinding {
	if len(w) == 0 {
		return nil
	}
	return w
}

// TestCompileNameless checks that a nameless tool is reported even when
// several tools lack a name (they share the empty name).
func TestCompileNameless(t *testing.T) {
	t.Parallel()
	results := toolset.Compile(schema.ToolInput, []toolset.Tool{
		{Schema: []byte(`{"type":"object"}`)}, {Schema: []byte(`{"type":"object"}`)},
	})
	for _, r := range results {
		assert.Equal(t, []fixtures.SchemaFinding{fixtures.Malformed("name", "")}, fixtures.SchemaFindings(r.Problems))
		assert.Contains(t, r.Problems[0].Message, "no name")
	}
}

// TestNumbersStayExact checks that a bound beyond float64's exact integers
// survives the tools/list document, the compiler and the handle:
// 9007199254740993 (2^53 + 1) rounds to 9007199254740992 as a float64.
func TestNumbersStayExact(t *testing.T) {
	t.Parallel()
	doc := func(n string) []byte {
		return []byte(`{"tools": [{"name": "n", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": ` + n + `}}}}]}`)
	}
	compile := func(n string) *schema.Result {
		tools, _, err := toolset.ParseToolsList(doc(n), 0)
		require.NoError(t, err)
		require.Len(t, tools, 1)
		assert.Equal(t, `{"type": "object", "properties": {"n": {"type": "integer", "minimum": `+n+`}}}`, string(tools[0].Schema), "the schema as written")
		r := toolset.Compile(schema.ToolInput, tools)[0]
		require.Equal(t, schema.CodeNone, r.Code(), "%v", r.Findings())
		return r.Compiled
	}
	above, at := compile("9007199254740993"), compile("9007199254740992")
	assert.Equal(t, `{"properties":{"n":{"minimum":9007199254740993,"type":"integer"}},"type":"object"}`, string(above.Canonical))
	assert.NotEqual(t, store.Handle(schema.ToolInput.String(), above.Canonical), store.Handle(schema.ToolInput.String(), at.Canonical),
		"schemas that differ only beyond float64 precision must get different handles")
	require.NotNil(t, above.Schema.Root.Keys[0].Schema.Minimum)
	assert.Equal(t, "9007199254740993", above.Schema.Root.Keys[0].Schema.Minimum.String())

	// A spelling of the same value gives the same canonical text.
	same := compile("9007199254740993")
	assert.Equal(t, above.Canonical, same.Canonical)
	respelled := compile("9.007199254740993e15")
	assert.Equal(t, above.Canonical, respelled.Canonical)
}

// mcpFixtures returns every tools/list document of testdata/mcp-tools, by
// file name.
func mcpFixtures(t *testing.T) map[string][]byte {
	t.Helper()
	dir := fixtures.Testdata(t, "mcp-tools")
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	docs := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		docs[filepath.Base(p)] = data
	}
	return docs
}

// TestRealMCPTools compiles every real MCP tool and checks, against an
// independent walk of each inputSchema (DESIGN.md §3), that a tool compiles
// exactly when the walk finds nothing refused, and that its findings are
// exactly what the walk finds, each at its exact schema path.
func TestRealMCPTools(t *testing.T) {
	t.Parallel()
	total := 0
	for file, data := range mcpFixtures(t) {
		tools, _, err := toolset.ParseToolsList(data, 0)
		require.NoError(t, err, file)
		var doc struct {
			Tools []struct {
				InputSchema any `json:"inputSchema"`
			} `json:"tools"`
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&doc), file)
		require.Len(t, doc.Tools, len(tools), file)
		var raw struct {
			Tools []struct {
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		}
		require.NoError(t, json.Unmarshal(data, &raw), file)
		for i, tool := range tools {
			assert.Equal(t, string(raw.Tools[i].InputSchema), string(tool.Schema), "%s: tool %d's schema as written", file, i)
		}
		for i, r := range toolset.Compile(schema.ToolInput, tools) {
			total++
			t.Run(file+"/"+r.Name, func(t *testing.T) {
				assert.Empty(t, r.Problems, "real tools have unique names and a schema")
				require.NotNil(t, r.Compiled)
				w := &walker{}
				w.node(doc.Tools[i].InputSchema, "", true)
				expected := dedupe(w.found)
				got := dedupe(fixtures.SchemaFindings(r.Compiled.Errors))
				assert.Equal(t, len(expected) == 0, r.Code() == schema.CodeNone, "compiles exactly when nothing is refused")
				for _, e := range expected {
					assert.Contains(t, got, e, "the walk finds %s at %q", e.Keyword, e.Path)
				}
				for _, g := range got {
					assert.Contains(t, expected, g, "the compiler reports %s at %q", g.Keyword, g.Path)
					_, ok := fixtures.Resolve(doc.Tools[i].InputSchema, g.Path)
					assert.True(t, ok, "schema path %q exists", g.Path)
				}
				assert.Empty(t, r.Compiled.Warnings, "the tool input profile has no warnings")
			})
		}
	}
	assert.Equal(t, 70, total, "PROVENANCE.md lists 70 tools")
}

func dedupe(ws []fixtures.SchemaFinding) []fixtures.SchemaFinding {
	slices.SortFunc(ws, func(a, b fixtures.SchemaFinding) int {
		return strings.Compare(a.Path+"\x00"+a.Keyword, b.Path+"\x00"+b.Keyword)
	})
	return slices.Compact(ws)
}

// walker finds, independently of the compiler, what the tool input profile
// refuses in a schema (DESIGN.md §3). It walks schema positions only (the
// root, properties/*, items, oneOf/*), not the values of other keywords:
// property names and enum values are not keywords, and the inside of a
// refused keyword such as anyOf is not examined. It models the rules the
// real schemas exercise and assumes well-formed keyword values (the
// compiler's VALIDATION findings are tested in package schema).
type walker struct{ found []fixtures.SchemaFinding }

var nineKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"additional_properties": true, "description": true, "enum": true, "minimum": true,
	"items": true, "oneOf": true,
}

var sixTypes = map[string]bool{
	"object": true, "array": true, "string": true, "integer": true, "number": true, "boolean": true,
}

// appliesTo lists the types a keyword can constrain; absent means any type.
var appliesTo = map[string][]string{
	"properties": {"object"}, "required": {"object"}, "additionalProperties": {"object"},
	"additional_properties": {"object"}, "minimum": {"integer", "number"}, "items": {"array"},
}

func (w *walker) refuse(kw, path string) { w.found = append(w.found, fixtures.Unsupported(kw, path)) }

func (w *walker) node(v any, path string, root bool) {
	m, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); isBool {
			w.refuse("schema", path)
		}
		return
	}
	for k := range m {
		if !nineKeywords[k] {
			w.refuse(k, path+"/"+jsondoc.EscapePointerToken(k))
		}
	}
	_, hasOneOf := m["oneOf"]
	typ, hasType := m["type"]
	name, _ := typ.(string)
	switch {
	case !hasType && root && !hasOneOf:
		name = "object"
	case !hasType && !root && !hasOneOf:
		w.refuse("type", path) // untyped: would accept any value
	case hasType && (!sixTypes[name] || (root && name != "object")):
		w.refuse("type", path+"/type") // a list, "null", or a root that is not an object
		name = ""
	}
	if hasOneOf {
		if root {
			w.refuse("oneOf", path+"/oneOf")
		}
		for k := range m {
			if k != "oneOf" && k != "description" {
				w.refuse(k, path+"/"+jsondoc.EscapePointerToken(k))
			}
		}
	}
	for k := range m {
		if types, ok := appliesTo[k]; ok && name != "" && !slices.Contains(types, name) {
			w.refuse(k, path+"/"+jsondoc.EscapePointerToken(k))
		}
	}
	if _, isObject := m["additionalProperties"].(map[string]any); isObject {
		w.refuse("additionalProperties", path+"/additionalProperties")
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for k, p := range props {
			w.node(p, path+"/properties/"+jsondoc.EscapePointerToken(k), false)
		}
	}
	switch items := m["items"].(type) {
	case []any:
		w.refuse("items", path+"/items")
	case nil:
	default:
		w.node(items, path+"/items", false)
	}
	if branches, ok := m["oneOf"].([]any); ok {
		for i, b := range branches {
			w.node(b, path+"/oneOf/"+strconv.Itoa(i), false)
		}
	}
}

// TestRealMCPToolsByHand lists, for a varied set of real tools, the findings
// the tool input profile must report, written by hand from the fixture
// JSON. nil means the tool compiles.
func TestRealMCPToolsByHand(t *testing.T) {
	t.Parallel()
	docs := mcpFixtures(t)
	cases := []struct {
		file, tool string
		want       []fixtures.SchemaFinding
	}{
		// zod output: $schema on every root, and nothing else refused.
		{"server-filesystem.json", "read_file", []fixtures.SchemaFinding{u("$schema", "/$schema")}},
		{"server-memory.json", "create_entities", []fixtures.SchemaFinding{u("$schema", "/$schema")}},
		// minItems on an array of strings.
		{"server-filesystem.json", "read_multiple_files", []fixtures.SchemaFinding{u("$schema", "/$schema"), u("minItems", "/properties/paths/minItems")}},
		// default on a boolean; the items object without additionalProperties is fine.
		{"server-filesystem.json", "edit_file", []fixtures.SchemaFinding{u("$schema", "/$schema"), u("default", "/properties/dryRun/default")}},
		// format, and default two objects deep.
		{"cloudflare-browser.json", "get_url_screenshot", []fixtures.SchemaFinding{
			u("$schema", "/$schema"), u("format", "/properties/url/format"),
			u("default", "/properties/viewport/properties/height/default"),
			u("default", "/properties/viewport/properties/width/default"),
		}},
		{"cloudflare-radar.json", "list_autonomous_systems", []fixtures.SchemaFinding{u("$schema", "/$schema"), u("pattern", "/properties/location/pattern")}},
		{"cloudflare-radar.json", "get_as_details", []fixtures.SchemaFinding{u("$schema", "/$schema"), u("exclusiveMinimum", "/properties/asn/exclusiveMinimum")}},
		// anyOf beside "type": "string" — typed, so only anyOf; the format
		// members of the anyOf are not examined.
		{"cloudflare-radar.json", "get_ip_details", []fixtures.SchemaFinding{u("$schema", "/$schema"), u("anyOf", "/properties/ip/anyOf")}},
		// Refused keywords inside items.
		{"cloudflare-radar.json", "get_domains_ranking", []fixtures.SchemaFinding{
			u("$schema", "/$schema"), u("format", "/properties/date/items/format"),
			u("pattern", "/properties/location/items/pattern"),
		}},
		// pydantic: title everywhere, exclusive bounds, minLength; minimum on
		// an integer is fine.
		{"mcp-server-fetch.json", "fetch", []fixtures.SchemaFinding{
			u("title", "/title"),
			u("format", "/properties/url/format"), u("minLength", "/properties/url/minLength"), u("title", "/properties/url/title"),
			u("default", "/properties/max_length/default"), u("exclusiveMaximum", "/properties/max_length/exclusiveMaximum"),
			u("exclusiveMinimum", "/properties/max_length/exclusiveMinimum"), u("title", "/properties/max_length/title"),
			u("default", "/properties/start_index/default"), u("title", "/properties/start_index/title"),
			u("default", "/properties/raw/default"), u("title", "/properties/raw/title"),
		}},
		{"github-mcp-server.json", "update_issue_state", []fixtures.SchemaFinding{u("maxLength", "/properties/rationale/maxLength")}},
		// maxLength inside the second oneOf branch of items.
		{"github-mcp-server.json", "update_issue_assignees", []fixtures.SchemaFinding{u("maxLength", "/properties/assignees/items/oneOf/1/properties/rationale/maxLength")}},
		{"github-mcp-server.json", "set_issue_fields", []fixtures.SchemaFinding{
			u("maxLength", "/properties/fields/items/properties/rationale/maxLength"), u("minItems", "/properties/fields/minItems"),
		}},
		{"github-mcp-server.json", "search_repositories", []fixtures.SchemaFinding{
			u("default", "/properties/minimal_output/default"), u("maximum", "/properties/perPage/maximum"),
		}},
		// A property named "type" holding a default: the keyword is default.
		{"github-mcp-server.json", "list_global_security_advisories", []fixtures.SchemaFinding{u("default", "/properties/type/default")}},
		// A type list; and a property named "type" that is a nullable anyOf
		// without a type of its own, so it is also untyped.
		{"github-mcp-server.json", "issue_write", []fixtures.SchemaFinding{
			u("type", "/properties/issue_fields/items/properties/value/type"),
			u("anyOf", "/properties/type/anyOf"), u("type", "/properties/type"),
		}},
		// type beside oneOf (twice), an untyped anyOf, and untyped "any JSON"
		// properties inside both oneOf branches.
		{"github-mcp-server.json", "projects_write", []fixtures.SchemaFinding{
			u("anyOf", "/properties/filter/anyOf"), u("type", "/properties/filter"),
			u("type", "/properties/items/items/type"),
			u("type", "/properties/updated_field/type"),
			u("type", "/properties/updated_field/oneOf/0/properties/value"),
			u("type", "/properties/updated_field/oneOf/1/properties/value"),
		}},
		// Tools that compile: no arguments; an array of closed objects; an
		// object property without properties.
		{"github-mcp-server.json", "get_me", nil},
		{"github-mcp-server.json", "push_files", nil},
		{"server-puppeteer.json", "puppeteer_navigate", nil},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.tool, func(t *testing.T) {
			t.Parallel()
			tools, _, err := toolset.ParseToolsList(docs[c.file], 0)
			require.NoError(t, err)
			var r *toolset.Result
			for _, res := range toolset.Compile(schema.ToolInput, tools) {
				if res.Name == c.tool {
					r = &res
				}
			}
			require.NotNil(t, r, "no tool %q in %s", c.tool, c.file)
			assert.ElementsMatch(t, c.want, fixtures.SchemaFindings(r.Findings()))
			if c.want == nil {
				assert.Equal(t, schema.CodeNone, r.Code())
				assert.NotNil(t, r.Compiled.Schema)
			} else {
				assert.Equal(t, schema.CodeUnsupported, r.Code())
				assert.Nil(t, r.Compiled.Schema)
			}
		})
	}
}

// TestOwnToolsLists reads the project's own tools/list documents, which run
// in a fresh clone too.
func TestOwnToolsLists(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(fixtures.Testdata(t, "mcp/small.json"))
	require.NoError(t, err)
	tools, _, err := toolset.ParseToolsList(data, 0)
	require.NoError(t, err)
	results := toolset.Compile(schema.ToolInput, tools)
	require.Len(t, results, 4)
	got := make([][]fixtures.SchemaFinding, len(results))
	for i := range results {
		got[i] = fixtures.SchemaFindings(results[i].Findings())
	}
	assert.Equal(t, [][]fixtures.SchemaFinding{
		{},
		// In document order.
		{u("format", "/properties/url/format"), u("maximum", "/properties/retries/maximum"), u("pattern", "/properties/a~1b/pattern")},
		{u("type", "/properties/type")},
		{fixtures.Malformed("inputSchema", "")},
	}, got)
}

// repeatedMembers returns a tools/list result of n tools whose schemas each
// repeat a member: every repetition is checked against the tools.
func repeatedMembers(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"tools": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name": "t%d", "inputSchema": {"type": "object", "type": "object"}}`, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// TestParseToolsListManyRepeatedMembers reads 90,000 tools whose schemas
// each repeat a member (issue 9, finding 6: every repetition was compared
// with every tool, and such a list took 161 s). Reading it is linear now,
// a fraction of a second; the generous limit only keeps a regression from
// hanging the run, and the old comparison overran it several times over.
func TestParseToolsListManyRepeatedMembers(t *testing.T) {
	t.Parallel()
	const n = 90_000
	doc := repeatedMembers(n)
	done := make(chan error, 1)
	go func() {
		tools, _, err := toolset.ParseToolsList(doc, 0)
		if err == nil && len(tools) != n {
			err = fmt.Errorf("%d tools, want %d", len(tools), n)
		}
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatalf("reading %d tools (%d bytes) with repeated members took over 30s: the check is not linear", n, len(doc))
	}
}

// TestCompileSharesThePatternBudget: Compile (what toolgate check runs)
// compiles the tools' patterns from one default budget, so 60 tools whose
// patterns each fit it alone (RE2 patterns of the bindable output profile,
// some 350,000 steps each) are bounded together: the first compile, the
// last are refused with keyword "limit".
func TestCompileSharesThePatternBudget(t *testing.T) {
	t.Parallel()
	var tools []toolset.Tool
	for i := range 60 {
		tools = append(tools, toolset.Tool{Name: fmt.Sprintf("t%d", i),
			Schema: fmt.Appendf(nil, `{"type":"object","properties":{"s":{"type":"string","pattern":".{%d}"}}}`, 250+i)})
	}
	results := toolset.Compile(schema.OutputBindable, tools)
	require.Len(t, results, 60)
	assert.Equal(t, schema.CodeNone, results[0].Code(), "%v", results[0].Findings())
	last := results[59].Findings()
	require.Len(t, last, 1)
	assert.Equal(t, "limit", last[0].Keyword)
	assert.Contains(t, last[0].Message, fmt.Sprintf("more than %d steps", schema.DefaultMaxPatternSteps))
}

// TestCompileSharesTheNodeBudget: Compile with options (what toolgate
// check runs) builds the tools' JSON Schema subschemas from one budget of
// Limits.MaxNodes: 20 tools of 10 subschemas each fit 100 alone, not
// together, so the tools past the budget are refused with keyword "limit".
func TestCompileSharesTheNodeBudget(t *testing.T) {
	t.Parallel()
	var tools []toolset.Tool
	for i := range 20 {
		tools = append(tools, toolset.Tool{Name: fmt.Sprintf("t%d", i),
			Schema: []byte(`{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{},"h":{},"i":{}}}`)})
	}
	results := toolset.CompileWith(schema.JSONSchema, tools, schema.Options{Limits: schema.Limits{MaxNodes: 100}})
	require.Len(t, results, 20)
	enforced := 0
	for _, r := range results {
		if r.Code() == schema.CodeNone {
			enforced++
			continue
		}
		f := r.Findings()
		require.Len(t, f, 1, "%s", r.Name)
		assert.Equal(t, "limit", f[0].Keyword)
		assert.Contains(t, f[0].Message, "more than 100 subschemas")
	}
	assert.Equal(t, 10, enforced, "100 subschemas: ten tools of ten")
}

// TestRepeatedPatternIsCompiledOnce: a pattern every tool of a list
// repeats (generated servers give each tool the same id pattern) is
// compiled, and charged to the list's shared pattern budget, once: 600
// tools of ^[A-Za-z0-9_.-]{1,128}$ all compile, where tools from the
// 281st on were refused for the budget (found by an adversarial review),
// while 600 distinct patterns of that size still spend it.
func TestRepeatedPatternIsCompiledOnce(t *testing.T) {
	t.Parallel()
	tools := func(pattern func(i int) string) []toolset.Tool {
		var out []toolset.Tool
		for i := range 600 {
			out = append(out, toolset.Tool{Name: fmt.Sprintf("t%d", i), Pointer: fmt.Sprintf("/tools/%d", i),
				Schema: []byte(`{"type":"object","properties":{"id":{"type":"string","pattern":` + strconv.Quote(pattern(i)) + `}}}`)})
		}
		return out
	}
	refused := func(results []toolset.Result) int {
		n := 0
		for _, r := range results {
			if r.Code() != schema.CodeNone {
				n++
			}
		}
		return n
	}
	same := toolset.Compile(schema.JSONSchema, tools(func(int) string { return `^[A-Za-z0-9_.-]{1,128}$` }))
	assert.Zero(t, refused(same), "one pattern, compiled once")
	distinct := toolset.Compile(schema.JSONSchema, tools(func(i int) string { return fmt.Sprintf(`^[A-Za-z0-9_.-]{1,128}%d$`, i) }))
	assert.Positive(t, refused(distinct), "distinct patterns still share one budget")
}
