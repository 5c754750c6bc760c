// Package toolset compiles a set of tools — an MCP tools/list result, or
// name and schema pairs — schema by schema, and says tool by tool which ones
// can be enforced and why the others cannot. Schemas are registered
// unchanged: nothing is stripped to make a tool fit a profile.
package toolset

import (
	"context"
	"fmt"
	"strconv"
	"strings"

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

// Omitted counts the findings that keep the tool from being enforced but
// are not in Findings: its schema's errors past schema.Options.MaxFindings
// (schema.Result.ErrorsOmitted). Code counts them already.
func (r *Result) Omitted() int {
	if r.Compiled == nil {
		return 0
	}
	return r.Compiled.ErrorsOmitted
}

// Code summarizes the tool's findings; CodeNone when it can be enforced.
func (r *Result) Code() schema.Code { return schema.Summarize(r.Findings()) }

// Compile compiles every tool for profile with the default schema
// options, in input order: Check, then each Result's Compile, the tools'
// patterns from one budget (schema.Options.PatternBudget). A tool without
// a name or schema, or whose name occurs more than once, is a VALIDATION
// finding (its schema is still compiled, so its own findings show too): a
// runtime could not tell which schema a call to a repeated name must
// satisfy, so no occurrence of it is enforced.
func Compile(profile schema.Profile, tools []Tool) []Result {
	return CompileWith(profile, tools, schema.Options{})
}

// CompileWith is Compile with opts for every tool, Shared.
func CompileWith(profile schema.Profile, tools []Tool, opts schema.Options) []Result {
	results := Check(tools)
	opts = Shared(opts)
	for i := range results {
		_ = results[i].Compile(context.Background(), profile, opts) // never ends
	}
	return results
}

// Shared returns opts with the budgets the tools of one list spend
// together: their patterns' compile work (Limits.MaxPatternSteps) and
// their JSON Schema subschemas (Limits.MaxNodes). Each tool is bounded by
// those limits alone too, but a list of thousands of tools, each within
// them, would otherwise cost thousands of times as much. A pattern the
// tools repeat is compiled, and charged, once (schema.PatternMemo).
// Compile the tools of one list with the same Shared options.
func Shared(opts schema.Options) schema.Options {
	opts.PatternBudget = schema.NewPatternBudget(opts.Limits)
	opts.PatternMemo = schema.NewPatternMemo()
	opts.NodeBudget = schema.NewNodeBudget(opts.Limits)
	return opts
}

// Check returns one Result per tool, in input order, with the problems of
// the tool itself (no name, a repeated name, no schema) and no schema
// compiled yet, so that a caller can compile tool by tool (and stop between
// tools). Repeated names are counted with one map: linear in the tools.
func Check(tools []Tool) []Result {
	count := make(map[string]int, len(tools))
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
	}
	return results
}

// Compile compiles the tool's schema for profile with opts into
// r.Compiled; a tool without a schema stays as it is. It stops soon after
// ctx ends (see schema.CompileContext) and returns ctx's error, leaving
// r.Compiled nil.
func (r *Result) Compile(ctx context.Context, profile schema.Profile, opts schema.Options) error {
	if r.Schema == nil {
		return nil
	}
	res, err := schema.CompileContext(ctx, profile, r.Schema, opts)
	r.Compiled = res
	return err
}

func problem(keyword, msg string) schema.Finding {
	return schema.Finding{Code: schema.CodeValidation, Keyword: keyword, Message: msg, Offset: -1}
}

// DocumentError reports a tools/list document that cannot be read at all.
type DocumentError struct {
	Msg string
	// Pointer is the JSON pointer of the part of the document at fault
	// (an object with a member twice), or "" for the document as a whole.
	Pointer string
}

// Error implements error.
func (e *DocumentError) Error() string { return e.Msg }

// maxDocumentDepth bounds the nesting of a tools/list document. It is far
// above any schema's limit, so that a schema nested too deeply is that
// tool's finding (its compilation reports it), not the whole document's.
const maxDocumentDepth = 4096

// TooManyToolsError reports a tools/list document with more tools than
// the caller reads at once.
type TooManyToolsError struct {
	// Tools is the number of tools in the document; Max is the limit it
	// passes.
	Tools, Max int
}

// Error implements error.
func (e *TooManyToolsError) Error() string {
	return fmt.Sprintf("the toolset has %d tools, more than the limit of %d", e.Tools, e.Max)
}

// ParseToolsList reads an MCP tools/list result,
// {"tools": [{"name", "description", "inputSchema"}, ...]}, or a whole
// JSON-RPC response carrying one in "result", and returns its tools and
// its nextCursor ("" without one, or null: a paginating server's page
// names the next one there, and its tools are that page's only; the MCP
// SDKs stop at an empty one too). A document with an "error" member (a
// JSON-RPC error response, which a client raises on), with both "tools"
// and "result", or with a nextCursor neither a string nor null (which the
// MCP SDKs refuse) is a *DocumentError: fail closed rather than bind tools
// the client would not read. Members other than name and inputSchema are
// ignored. Each tool's schema is returned exactly as written (the bytes of
// its inputSchema), so numbers stay exact and findings come in document
// order; a schema with a repeated member name is that tool's finding. A
// tool whose name or inputSchema is missing or of the wrong kind is
// returned as it is, with an empty Name or a nil Schema, for Compile to
// report. A list of more than maxTools tools is a *TooManyToolsError,
// returned before any tool is built (0 or less: no limit); the document is
// parsed whole first, holding some 100 bytes of heap per byte of it.
func ParseToolsList(data []byte, maxTools int) (tools []Tool, nextCursor string, err error) {
	doc, dups, err := jsondoc.ParseDuplicates(data, maxDocumentDepth)
	if err != nil {
		return nil, "", &DocumentError{Msg: fmt.Sprintf("not a JSON document: %v", err)}
	}
	prefix, root := "", doc
	if doc.Kind == jsontok.Object {
		// A JSON-RPC response is read as an MCP client reads it; one that
		// could be read two ways is refused.
		result := doc.Get("result")
		switch {
		case doc.Get("error") != nil:
			return nil, "", &DocumentError{Msg: `a JSON-RPC response with an "error" member, not a tools/list result`}
		case result != nil && doc.Get("tools") != nil:
			return nil, "", &DocumentError{Msg: `ambiguous: both a "tools" list and a JSON-RPC "result"; send one of them`}
		case result != nil && result.Kind == jsontok.Object:
			doc, prefix = result, "/result"
		}
	}
	list := doc.Get("tools")
	if doc.Kind != jsontok.Object || list == nil || list.Kind != jsontok.Array {
		return nil, "", &DocumentError{Msg: `not a tools/list result: expected an object with a "tools" array`}
	}
	if c := doc.Get("nextCursor"); c != nil {
		switch c.Kind {
		case jsontok.String:
			nextCursor = c.Str
		case jsontok.Null:
		default:
			article := "a"
			if c.Kind == jsontok.Object || c.Kind == jsontok.Array {
				article = "an"
			}
			return nil, "", &DocumentError{Msg: fmt.Sprintf(`nextCursor must be a string (or null for none), not %s %s: an MCP client refuses such a result`, article, c.TypeName())}
		}
	}
	if maxTools > 0 && len(list.Items) > maxTools {
		return nil, "", &TooManyToolsError{Tools: len(list.Items), Max: maxTools}
	}
	tools = make([]Tool, 0, len(list.Items))
	for i, item := range list.Items {
		t := Tool{Pointer: fmt.Sprintf("%s/tools/%d", prefix, i)}
		if item.Kind == jsontok.Object {
			if name := item.Get("name"); name != nil && name.Kind == jsontok.String {
				t.Name = name.Str
			}
			if s := item.Get("inputSchema"); s != nil {
				t.Schema = data[s.Start : s.End+1]
			}
		}
		tools = append(tools, t)
	}
	for _, d := range dups {
		if !insideSchema(d.Pointer, prefix, tools) {
			return nil, "", &DocumentError{Msg: fmt.Sprintf("the member %q occurs twice in the object at %q", d.Name, d.Pointer), Pointer: d.Pointer}
		}
	}
	// ParseDuplicates returns the first repetitions only: the objects whose
	// members decide what is bound (the response, the result, each tool)
	// are checked whole, so that no padding of repetitions inside schemas
	// hides a second name or inputSchema, which a client's JSON parser
	// would read as the last one.
	type object struct {
		v       *jsondoc.Value
		pointer string
	}
	objects := []object{{doc, prefix}}
	if prefix != "" {
		objects = append(objects, object{root, ""})
	}
	for i, item := range list.Items {
		objects = append(objects, object{item, tools[i].Pointer})
	}
	for _, o := range objects {
		if name, ok := repeatedMember(o.v); ok {
			return nil, "", &DocumentError{Msg: fmt.Sprintf("the member %q occurs twice in the object at %q", name, o.pointer), Pointer: o.pointer}
		}
	}
	return tools, nextCursor, nil
}

// repeatedMember returns a member name that object v has twice.
func repeatedMember(v *jsondoc.Value) (string, bool) {
	if v.Kind != jsontok.Object {
		return "", false
	}
	seen := make(map[string]bool, len(v.Members))
	for _, m := range v.Members {
		if seen[m.Name] {
			return m.Name, true
		}
		seen[m.Name] = true
	}
	return "", false
}

// insideSchema reports whether pointer lies within the inputSchema of one of
// tools, the elements of the array at prefix+"/tools". It reads the tool's
// index from the pointer, so it costs the pointer's length whatever the
// number of tools (comparing each repetition with every tool made a list of
// 90,000 tools with repeated members take minutes).
func insideSchema(pointer, prefix string, tools []Tool) bool {
	rest, ok := strings.CutPrefix(pointer, prefix+"/tools/")
	if !ok {
		return false
	}
	index, rest, _ := strings.Cut(rest, "/")
	i, err := strconv.Atoi(index)
	if err != nil || i < 0 || i >= len(tools) || strconv.Itoa(i) != index || tools[i].Schema == nil {
		return false
	}
	return rest == "inputSchema" || strings.HasPrefix(rest, "inputSchema/")
}
