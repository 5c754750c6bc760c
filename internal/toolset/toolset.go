// Package toolset compiles a set of tools — an MCP tools/list result, or
// name and schema pairs — schema by schema, and says tool by tool which ones
// can be enforced and why the others cannot. Schemas are registered
// unchanged: nothing is stripped to make a tool fit a profile.
package toolset

import (
	"fmt"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// Tool is one tool to compile.
type Tool struct {
	// Name is the tool's name; empty when the tool had none.
	Name string
	// Schema is the tool's input schema as JSON text; nil when the tool had
	// none.
	Schema []byte
	// Pointer locates the tool in its source document ("/tools/3"), or is
	// empty for tools not read from a document.
	Pointer string
}

// Result is the outcome for one tool.
type Result struct {
	Tool
	// Compiled is the compilation of the tool's schema; nil when the tool
	// has no schema.
	Compiled *schema.Result
	// Problems are findings about the tool itself (keyword "name" or
	// "inputSchema"), as opposed to its schema.
	Problems []schema.Finding
}

// Findings returns every finding that keeps the tool from being enforced.
func (r *Result) Findings() []schema.Finding {
	if r.Compiled == nil {
		return r.Problems
	}
	return append(append([]schema.Finding(nil), r.Problems...), r.Compiled.Errors...)
}

// Code summarizes the tool's findings; CodeNone when it can be enforced.
func (r *Result) Code() schema.Code { return schema.Summarize(r.Findings()) }

// Compile compiles every tool for profile, in input order. A tool without a
// name or schema, or whose name occurs more than once, is a VALIDATION
// finding (its schema is still compiled, so its own findings show too): a
// runtime could not tell which schema a call to a repeated name must
// satisfy, so no occurrence of it is enforced.
func Compile(profile schema.Profile, tools []Tool) []Result {
	count := map[string]int{}
	for _, t := range tools {
		count[t.Name]++
	}
	results := make([]Result, len(tools))
	for i, t := range tools {
		r := &results[i]
		r.Tool = t
		if t.Name == "" {
			r.Problems = append(r.Problems, problem("name", "This tool has no name, so no call can name it."))
		} else if count[t.Name] > 1 {
			r.Problems = append(r.Problems, problem("name", fmt.Sprintf("The tool name %q occurs %d times; a call could not be matched to one schema.", t.Name, count[t.Name])))
		}
		if t.Schema == nil {
			r.Problems = append(r.Problems, problem("inputSchema", "This tool has no inputSchema."))
		}
		if t.Schema != nil {
			r.Compiled = schema.Compile(profile, t.Schema)
		}
	}
	return results
}

func problem(keyword, msg string) schema.Finding {
	return schema.Finding{Code: schema.CodeValidation, Keyword: keyword, Message: msg, Offset: -1}
}

// DocumentError reports a tools/list document that cannot be read at all.
type DocumentError struct{ Msg string }

// Error implements error.
func (e *DocumentError) Error() string { return e.Msg }

// ParseToolsList reads an MCP tools/list result,
// {"tools": [{"name", "description", "inputSchema"}, ...]}. Members other
// than name and inputSchema are ignored. Each tool's schema is returned as
// its canonical JSON text, so numbers stay exact. A tool whose name or
// inputSchema is missing or of the wrong kind is returned as it is, with an
// empty Name or a nil Schema, for Compile to report.
func ParseToolsList(data []byte) ([]Tool, error) {
	doc, err := jsondoc.Parse(data, schema.DefaultMaxDepth+4)
	if err != nil {
		return nil, &DocumentError{Msg: fmt.Sprintf("not a JSON document: %v", err)}
	}
	list := doc.Get("tools")
	if doc.Kind != jsontok.Object || list == nil || list.Kind != jsontok.Array {
		return nil, &DocumentError{Msg: `not a tools/list result: expected an object with a "tools" array`}
	}
	tools := make([]Tool, 0, len(list.Items))
	for i, item := range list.Items {
		t := Tool{Pointer: fmt.Sprintf("/tools/%d", i)}
		if item.Kind == jsontok.Object {
			if name := item.Get("name"); name != nil && name.Kind == jsontok.String {
				t.Name = name.Str
			}
			if s := item.Get("inputSchema"); s != nil {
				t.Schema = jsondoc.Canonical(s)
			}
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// IsToolsList reports whether data looks like a tools/list result rather
// than a single schema: an object whose "tools" member is an array of
// objects with an inputSchema.
func IsToolsList(data []byte) bool {
	doc, err := jsondoc.Parse(data, schema.DefaultMaxDepth+4)
	if err != nil || doc.Kind != jsontok.Object {
		return false
	}
	list := doc.Get("tools")
	if list == nil || list.Kind != jsontok.Array {
		return false
	}
	for _, item := range list.Items {
		if item.Kind != jsontok.Object || item.Get("inputSchema") == nil {
			return false
		}
	}
	return true
}
