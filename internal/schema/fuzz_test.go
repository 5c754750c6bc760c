package schema_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// fuzzSeeds are real tool schemas (the sigma built-in tools and a few MCP
// servers from ../shared/fixtures), every keyword and rule of the tool input
// profile, and malformed documents.
var fuzzSeeds = []string{
	// sigma-tools/*.json inputSchema values.
	`{"type":"object","properties":{"question":{"type":"string","description":"The concise question to ask the user."},"options":{"type":"array","description":"Selectable answers to show before the freeform input. If the question has concrete choices or examples, put them here instead of only mentioning them in placeholder.","items":{"oneOf":[{"type":"string"},{"type":"object","properties":{"label":{"type":"string"},"value":{"type":"string"},"description":{"type":"string"}},"required":["label"]}]}},"allow_freeform":{"type":"boolean","description":"Whether the user may type a custom answer instead of selecting an option."},"placeholder":{"type":"string","description":"Placeholder text for the final custom-answer input only. Do not put selectable choices here."},"timeout_ms":{"type":"integer","description":"Optional answer timeout in milliseconds.","minimum":1000}},"required":["question"]}`,
	`{"type":"object","properties":{"action":{"type":"string","enum":["add","update","complete","remove","list","clear"],"description":"Todo action to perform"},"id":{"type":"string","description":"Todo id (required for update, complete, remove)"},"content":{"type":"string","description":"Todo text (required for add; optional for update)"},"status":{"type":"string","enum":["pending","in_progress","completed"],"description":"Todo status (optional for add/update; complete forces completed)"}},"required":["action"]}`,
	`{"type":"object","properties":{"pattern":{"type":"string","description":"Search pattern (regular expression)"},"path":{"type":"string","description":"File or directory to search (default: current working directory)"},"glob":{"type":"string","description":"Glob pattern to filter files, e.g. '*.ex' or '**/*.exs'"},"ignore_case":{"type":"boolean","description":"Case-insensitive search (default: false)"},"context":{"type":"integer","description":"Number of lines of context to show around each match (default: 0)","minimum":0},"limit":{"type":"integer","description":"Maximum number of matches to return (default: 100)","minimum":1}},"required":["pattern"]}`,
	`{"type":"object","properties":{"path":{"type":"string","description":"Path to the file to read (relative or absolute)"},"offset":{"type":"integer","description":"Line number to start reading from (1-indexed)","minimum":1},"limit":{"type":"integer","description":"Maximum number of lines to read","minimum":1}},"required":["path"]}`,
	`{"type":"object","properties":{"url":{"type":"string","description":"The URL to fetch (must be http:// or https://)"},"max_length":{"type":"integer","description":"Maximum characters to return (default: 50000)","minimum":1}},"required":["url"]}`,
	`{"type":"object","properties":{"command":{"type":"string","description":"Bash command to execute"},"timeout":{"type":"integer","description":"Timeout in seconds (optional, no default timeout)"}},"required":["command"]}`,
	// mcp-tools: legal JSON Schema outside the subset.
	`{"type":"object","properties":{"entities":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string","description":"The name of the entity"},"entityType":{"type":"string","description":"The type of the entity"},"observations":{"type":"array","items":{"type":"string"},"description":"An array of observation contents associated with the entity"}},"required":["name","entityType","observations"],"additionalProperties":false}}},"required":["entities"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}`,
	`{"description":"Parameters for fetching a URL.","properties":{"url":{"description":"URL to fetch","format":"uri","minLength":1,"title":"Url","type":"string"},"max_length":{"default":5000,"description":"Maximum number of characters to return.","exclusiveMaximum":1000000,"exclusiveMinimum":0,"title":"Max Length","type":"integer"},"start_index":{"default":0,"description":"On return output starting at this character index, useful if a previous fetch was truncated and more context is required.","minimum":0,"title":"Start Index","type":"integer"},"raw":{"default":false,"description":"Get the actual HTML content of the requested page, without simplification.","title":"Raw","type":"boolean"}},"required":["url"],"title":"Fetch","type":"object"}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"path":{"type":"string"},"tail":{"description":"If provided, returns only the last N lines of the file","type":"number"},"head":{"description":"If provided, returns only the first N lines of the file","type":"number"}},"required":["path"]}`,
	// Every keyword and rule.
	`{"type":"object","description":"d","properties":{"a":{"type":"string","enum":["x"]},"n":{"type":"integer","minimum":0},"l":{"type":"array","items":{"type":"number"}},"o":{"oneOf":[{"type":"string"},{"type":"boolean"}],"description":"either"},"c":{"type":"object","additional_properties":true}},"required":["a"],"additionalProperties":false}`,
	`{"type":"object","properties":{"a":{"type":"object","enum":[{"x":1},"s",1.5,true,null,[1]]}}}`,
	`{"type":"object","properties":{"a":{"type":"number","minimum":1e99999999999999}}}`,
	`{"type":"object","properties":{"a":{"type":"array","enum":[[1e99999999999999]]}}}`,
	`{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}],"enum":["x"],"type":"string"}}}`,
	`{"type":"object","additionalProperties":false,"additional_properties":{"type":"string"}}`,
	`{"type":["object","null"],"oneOf":[],"properties":[],"required":"a"}`,
	`{"properties":{"a/b~c":{"type":"string","format":"x"},"":{"type":"null"},"e":true,"f":{}}}`,
	`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}],"minimum":"1"}}}`,
	`{"type":"object","properties":{"a":{"type":5,"description":["x"],"enum":"x","items":3}}}`,
	`{"type":"object","required":["a",1,null,{"b":2}]}`,
	`{"title":"t","type":"object","properties":{"b":{"type":"string","format":"f"},"a":{"type":"null"}},"$comment":"c"}`,
	`{"oneOf":[{"type":"object"}]}`,
	// Malformed documents.
	``, `{`, `[]`, `"object"`, `null`, `true`, `1`, `{"type":"object",}`, `{"type":"object","type":"string"}`,
	`{"type":"object"} {}`, "{\"type\":\"obj\xC3\x28ect\"}", `{"type":"\uD800"}`,
	// Valid JSON nested past the limit.
	strings.Repeat(`{"type":"object","properties":{"a":`, 70) + `{"type":"string"}` + strings.Repeat(`}}`, 70),
}

func FuzzCompile(f *testing.F) {
	for _, seed := range fuzzSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, profile := range []schema.Profile{schema.ToolInput, schema.OutputBindable} {
			fuzzProfile(t, profile, doc)
		}
	})
}

// fuzzProfile checks one compilation of doc under profile.
func fuzzProfile(t *testing.T, profile schema.Profile, doc []byte) {
	res := schema.Compile(profile, doc)
	if res == nil {
		t.Fatal("Compile returned nil")
	}
	checkResult(t, doc, res)
	for _, w := range res.Warnings {
		if profile == schema.ToolInput && w.Keyword != "schema" {
			t.Fatalf("%q: the tool input profile ignores nothing, yet warns %+v", doc, res.Warnings)
		}
	}
	for _, w := range res.Warnings {
		if w.Keyword == "" || !strings.HasSuffix(w.Message, ".") || w.Offset != -1 {
			t.Fatalf("%q: malformed warning %+v", doc, w)
		}
	}

	// Compiling is deterministic.
	if again := schema.Compile(profile, doc); !slices.Equal(again.Errors, res.Errors) || string(again.Canonical) != string(res.Canonical) {
		t.Fatalf("two compilations of %q differ:\n%+v\n%+v", doc, res.Errors, again.Errors)
	}

	// The canonical form is the same schema: it is JSON, a fixed point,
	// and compiles to the same findings (as a set: member order changes).
	if res.Canonical == nil {
		return
	}
	if !json.Valid(res.Canonical) {
		t.Fatalf("canonical text of %q is not JSON: %q", doc, res.Canonical)
	}
	canon := schema.Compile(profile, res.Canonical)
	if string(canon.Canonical) != string(res.Canonical) {
		t.Fatalf("canonical text of %q is not a fixed point:\n%s\n%s", doc, res.Canonical, canon.Canonical)
	}
	if a, b := findingSet(res.Errors), findingSet(canon.Errors); !slices.Equal(a, b) {
		t.Fatalf("%q and its canonical text %s compile differently:\n%v\n%v", doc, res.Canonical, a, b)
	}
}

// checkResult checks the invariants of one compilation.
func checkResult(t *testing.T, doc []byte, res *schema.Result) {
	t.Helper()
	if (res.Schema != nil) != (len(res.Errors) == 0) {
		t.Fatalf("%q: Schema %v with %d errors", doc, res.Schema != nil, len(res.Errors))
	}
	if got := res.Code(); (got == schema.CodeNone) != (len(res.Errors) == 0) || got != schema.Summarize(res.Errors) {
		t.Fatalf("%q: Code %v for %+v", doc, got, res.Errors)
	}
	var tree *jsondoc.Value
	if res.Canonical != nil {
		var err error
		if tree, err = jsondoc.Parse(doc, schema.DefaultMaxDepth); err != nil {
			t.Fatalf("%q: Canonical is set, but the document does not parse: %v", doc, err)
		}
	}
	// unread: the document was not read, as it is not JSON (a "json"
	// finding, VALIDATION) or nests past schema.DefaultMaxDepth (a
	// "limit" finding, UNSUPPORTED_CAPABILITY); either is its only finding.
	unread := false
	for _, f := range res.Errors {
		if f.Code != schema.CodeUnsupported && f.Code != schema.CodeValidation {
			t.Fatalf("%q: finding with code %v: %+v", doc, f.Code, f)
		}
		if f.Keyword == "" || f.Message == "" {
			t.Fatalf("%q: finding without a keyword or message: %+v", doc, f)
		}
		if !strings.HasSuffix(f.Message, ".") {
			t.Fatalf("%q: message is not a sentence: %q", doc, f.Message)
		}
		if f.Offset != -1 || f.InstancePath != "" {
			t.Fatalf("%q: schema finding with an argument offset or path: %+v", doc, f)
		}
		if f.Keyword == "json" {
			unread = true
			if f.Code != schema.CodeValidation {
				t.Fatalf("%q: a JSON problem must be VALIDATION: %+v", doc, f)
			}
			continue
		}
		if f.Keyword == "limit" && res.Canonical == nil {
			unread = true
			if f.Code != schema.CodeUnsupported || f.SchemaPath != "" {
				t.Fatalf("%q: a document past the depth limit is UNSUPPORTED_CAPABILITY at the root: %+v", doc, f)
			}
			continue
		}
		if tree == nil {
			t.Fatalf("%q: finding %+v for a document that is not JSON", doc, f)
		}
		if !resolves(tree, f.SchemaPath) {
			t.Fatalf("%q: finding path %q does not point into the schema: %+v", doc, f.SchemaPath, f)
		}
	}
	if (res.Canonical == nil) != unread {
		t.Fatalf("%q: Canonical %v, json or depth finding %v", doc, res.Canonical != nil, unread)
	}
	if unread && len(res.Errors) != 1 {
		t.Fatalf("%q: a document that is not read has exactly one finding: %+v", doc, res.Errors)
	}
}

// resolves reports whether the RFC 6901 pointer names a value in v.
func resolves(v *jsondoc.Value, pointer string) bool {
	if pointer == "" {
		return true
	}
	if pointer[0] != '/' {
		return false
	}
	for _, token := range strings.Split(pointer[1:], "/") {
		token = strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
		switch v.Kind {
		case jsontok.Object:
			if v = v.Get(token); v == nil {
				return false
			}
		case jsontok.Array:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(v.Items) || strconv.Itoa(i) != token {
				return false
			}
			v = v.Items[i]
		default:
			return false
		}
	}
	return true
}

// findingSet lists findings by their stable parts, sorted.
func findingSet(fs []schema.Finding) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%v %s %s", f.Code, f.Keyword, f.SchemaPath))
	}
	slices.Sort(out)
	return out
}
