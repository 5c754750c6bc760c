package client

import (
	"context"
	"encoding/json"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
)

// CompileToolset compiles every tool of an MCP tools/list result with the
// CompileToolset RPC. toolsListJSON is the result as JSON text,
// {"tools": [{"name": ..., "inputSchema": {...}}, ...]}, or the whole
// JSON-RPC response that carries it in "result". Members other
// than each tool's name and inputSchema are ignored. Every schema is
// compiled unchanged, with the tool input profile unless WithProfile says
// otherwise; WithAdmission(ADMISSION_STRICT) binds nothing unless every tool
// compiles.
//
// The response has one ToolResult per tool, in the order of the list, and
// the bind map of the tools that compiled; NewToolset reads it. A tool that
// cannot be enforced is not an error: its result carries its code and every
// finding (unsupported keywords with their schema paths; keyword "name" for
// a missing or repeated name, "inputSchema" for a missing schema). The
// error return is for the call itself: codes.InvalidArgument when
// toolsListJSON is not JSON, is not a tools/list result (an object with a
// "tools" array, or a JSON-RPC response carrying one), repeats a member name
// outside the tools' schemas, or nests deeper than 4096 levels, or when the
// profile is unknown (a repeated name or deep nesting inside one tool's
// schema is that tool's finding); codes.ResourceExhausted when the request exceeds
// the server's message limit; codes.Unavailable, codes.Unauthenticated and
// so on.
//
// The handles are stored on the server that answered. Compiling the same
// list again, on any replica, gives the same handles.
func (c *Client) CompileToolset(ctx context.Context, toolsListJSON string, opts ...CompileOption) (*toolgatev1.CompileToolsetResponse, error) {
	cfg := newCompileConfig(opts)
	return c.api.CompileToolset(ctx, &toolgatev1.CompileToolsetRequest{
		Profile:         cfg.profile,
		Admission:       cfg.admission,
		Resources:       cfg.resources,
		FormatAssertion: cfg.formatAssertion,
		Source:          &toolgatev1.CompileToolsetRequest_ToolsListJson{ToolsListJson: toolsListJSON},
	})
}

// A ToolSchema is one tool for CompileTools: its name, as models call it,
// and its input schema as JSON text.
type ToolSchema struct {
	// Name is the tool's name; it must be non-empty and unique in the list.
	Name string
	// SchemaJSON is the tool's input schema, one JSON object as text.
	// Empty means the tool has no schema (an "inputSchema" finding).
	SchemaJSON string
}

// CompileTools is CompileToolset for tools given as name and schema pairs
// rather than as a tools/list document; it sends them as a ToolList. The
// results come in the order of tools (a slice, not a map, so that the
// order is the caller's). The schemas are compiled exactly as written, so
// a schema that is not JSON is a finding with keyword "json" in its tool's
// result, not an error. Options, answers and errors are as for
// CompileToolset, except that there is no document to reject: an empty
// tools gives an empty response.
func (c *Client) CompileTools(ctx context.Context, tools []ToolSchema, opts ...CompileOption) (*toolgatev1.CompileToolsetResponse, error) {
	list := &toolgatev1.ToolList{Tools: make([]*toolgatev1.ToolSchema, len(tools))}
	for i, t := range tools {
		list.Tools[i] = &toolgatev1.ToolSchema{Name: t.Name, SchemaJson: t.SchemaJSON}
	}
	cfg := newCompileConfig(opts)
	return c.api.CompileToolset(ctx, &toolgatev1.CompileToolsetRequest{
		Profile:         cfg.profile,
		Admission:       cfg.admission,
		Resources:       cfg.resources,
		FormatAssertion: cfg.formatAssertion,
		Source:          &toolgatev1.CompileToolsetRequest_Tools{Tools: list},
	})
}

// A Toolset reads a CompileToolsetResponse: which tools a stream can
// enforce (Bind) and which it cannot, and why (Refused). Every tool of the
// response is in exactly one of the two. A Toolset does not change after
// NewToolset and is safe for concurrent use; it holds no connection.
//
// Typical use, with the tools of an MCP server and a provider's stream:
//
//	resp, err := c.CompileToolset(ctx, toolsListJSON)
//	if err != nil {
//		return err
//	}
//	ts := client.NewToolset(resp)
//	for _, r := range ts.Refused() {
//		log.Printf("tool %q is not enforced: %s %v", r.GetName(), r.GetCode(), r.GetErrors())
//	}
//	for res, err := range c.ValidateProviderStream(ctx, client.Anthropic, body, ts.Bind()) {
//		...
//	}
type Toolset struct {
	resp *toolgatev1.CompileToolsetResponse
	// schemas holds, for a Toolset made by LoadToolset or LoadTools, each
	// tool's schema text by name, compiled with cfg (profile, resources,
	// format assertion); nil otherwise.
	schemas map[string]string
	cfg     compileConfig
}

// NewToolset returns the Toolset that resp, an answer of CompileToolset or
// CompileTools, describes. It keeps resp, which must not be modified
// afterwards. A nil resp is an empty Toolset. Such a Toolset knows only
// handles; LoadToolset and LoadTools make one that also knows the schemas,
// so that WithToolset binds them inline.
func NewToolset(resp *toolgatev1.CompileToolsetResponse) *Toolset {
	return &Toolset{resp: resp}
}

// LoadToolset is CompileToolset followed by NewToolset, and the Toolset
// also keeps the exact text of each tool's inputSchema (read from
// toolsListJSON in the client), so that a stream given WithToolset binds
// the tools inline and validates them on whichever replica it reaches.
// The schemas are kept only when the client reads the same tools, in the
// same order and with the same names, as the server's answer lists;
// otherwise the Toolset knows handles only. Errors are CompileToolset's.
func (c *Client) LoadToolset(ctx context.Context, toolsListJSON string, opts ...CompileOption) (*Toolset, error) {
	resp, err := c.CompileToolset(ctx, toolsListJSON, opts...)
	if err != nil {
		return nil, err
	}
	ts := &Toolset{resp: resp, cfg: newCompileConfig(opts)}
	if tools, ok := readToolsList(toolsListJSON); ok && sameTools(tools, resp.GetTools()) {
		ts.schemas = schemaTexts(tools)
	}
	return ts, nil
}

// LoadTools is CompileTools followed by NewToolset, and the Toolset also
// keeps each tool's SchemaJSON, so that a stream given WithToolset binds
// the tools inline. Errors are CompileTools'.
func (c *Client) LoadTools(ctx context.Context, tools []ToolSchema, opts ...CompileOption) (*Toolset, error) {
	resp, err := c.CompileTools(ctx, tools, opts...)
	if err != nil {
		return nil, err
	}
	return &Toolset{resp: resp, cfg: newCompileConfig(opts), schemas: schemaTexts(tools)}, nil
}

// schemaTexts maps each tool's name to its schema text.
func schemaTexts(tools []ToolSchema) map[string]string {
	m := make(map[string]string, len(tools))
	for _, t := range tools {
		m[t.Name] = t.SchemaJSON
	}
	return m
}

// readToolsList reads the name and the exact inputSchema text of each
// tool of an MCP tools/list result (or of a JSON-RPC response carrying one
// in "result", as the server reads it).
func readToolsList(doc string) ([]ToolSchema, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(doc), &top) != nil {
		return nil, false
	}
	if _, ok := top["tools"]; !ok {
		var result map[string]json.RawMessage
		if json.Unmarshal(top["result"], &result) == nil && result != nil {
			top = result
		}
	}
	var items []json.RawMessage
	if json.Unmarshal(top["tools"], &items) != nil {
		return nil, false
	}
	tools := make([]ToolSchema, len(items))
	for i, item := range items {
		var fields map[string]json.RawMessage
		if json.Unmarshal(item, &fields) != nil {
			continue
		}
		_ = json.Unmarshal(fields["name"], &tools[i].Name) // not a string: no name, as the server reads it
		tools[i].SchemaJSON = string(fields["inputSchema"])
	}
	return tools, true
}

// sameTools reports whether tools are the results' tools, in order: as
// many, and each that compiled (has a handle) under the same name. A
// refused tool's name is not compared: the server echoes a name past
// --max-name-bytes cut, and one such tool must not cost every other tool
// its inline schema (Bind never binds a refused tool).
func sameTools(tools []ToolSchema, results []*toolgatev1.ToolResult) bool {
	if len(tools) != len(results) {
		return false
	}
	for i, r := range results {
		if r.GetHandle() != "" && tools[i].Name != r.GetName() {
			return false
		}
	}
	return true
}

// inline returns, for the tools Bind binds, the inline schema of each one
// whose schema ts knows.
func (ts *Toolset) inline() map[string]*toolgatev1.CompileSchemaRequest {
	if ts == nil || ts.schemas == nil {
		return nil
	}
	out := map[string]*toolgatev1.CompileSchemaRequest{}
	for name := range ts.Bind() {
		if text, ok := ts.schemas[name]; ok {
			out[name] = &toolgatev1.CompileSchemaRequest{Profile: ts.cfg.profile, Resources: ts.cfg.resources,
				FormatAssertion: ts.cfg.formatAssertion, Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: text}}
		}
	}
	return out
}

// Bind returns a new map from tool name to handle of every tool that
// compiled, ready to be the tools of ValidateProviderStream (or the tools of
// a StreamBind). The caller may modify it. The handles are held by the
// server that compiled them: on a replica that does not hold them, each
// call gets a result with code ERROR_CODE_NOT_FOUND (keyword "handle").
// Give the stream WithToolset instead, with a Toolset from LoadToolset or
// LoadTools, and the schemas travel with the stream.
//
// Tools that did not compile are NOT in it: a call the model makes to such
// a tool, like a call to a name the list never had, gets a result that is
// not valid, with code ERROR_CODE_VALIDATION and keyword "tool_name". It is
// never passed unchecked. Nor is any tool whose name occurs more than once
// in the list, since a call could not be matched to one schema.
//
// Bind fails closed: a name is bound only when the server bound it and the
// one result with that name compiled to that same handle, so a response
// that contradicts itself leaves a tool out rather than binding a schema it
// says was refused.
func (ts *Toolset) Bind() map[string]string {
	results := byName(ts.response().GetTools())
	bind := map[string]string{}
	for name, handle := range ts.response().GetBind() {
		if r := results[name]; r != nil && handle != "" && r.GetHandle() == handle &&
			r.GetCode() == toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED {
			bind[name] = handle
		}
	}
	return bind
}

// Refused returns, in input order, the result of every tool that Bind
// leaves out: its name (possibly empty), its code
// (ERROR_CODE_UNSUPPORTED_CAPABILITY when the schema uses something outside
// the profile, ERROR_CODE_VALIDATION when the schema or the tool itself is
// malformed), and in its errors every finding, each fit to show to a person
// or to log (see also errors_truncated). Under ADMISSION_STRICT, when a
// tool did not compile, none is bound: the tools that compiled are here
// too, with code ERROR_CODE_UNSPECIFIED and no errors. It returns nil when
// every tool can be enforced.
func (ts *Toolset) Refused() []*toolgatev1.ToolResult {
	bind := ts.Bind()
	var refused []*toolgatev1.ToolResult
	for _, r := range ts.response().GetTools() {
		if h, ok := bind[r.GetName()]; !ok || h != r.GetHandle() {
			refused = append(refused, r)
		}
	}
	return refused
}

func (ts *Toolset) response() *toolgatev1.CompileToolsetResponse {
	if ts == nil {
		return nil
	}
	return ts.resp
}

// byName maps each name that exactly one result has to that result; the
// empty name and repeated names map to nil.
func byName(results []*toolgatev1.ToolResult) map[string]*toolgatev1.ToolResult {
	m := make(map[string]*toolgatev1.ToolResult, len(results))
	for _, r := range results {
		if _, repeated := m[r.GetName()]; repeated || r.GetName() == "" {
			m[r.GetName()] = nil
			continue
		}
		m[r.GetName()] = r
	}
	return m
}
