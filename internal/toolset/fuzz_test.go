package toolset

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/jsondoc"
)

// FuzzParseToolsList checks that ParseToolsList never panics, that every
// schema it returns is the exact text of a value in the document, that
// its placement of repeated members agrees with a plain scan of every
// tool, and that a limit of two tools refuses exactly the lists it would
// read with more, and nothing it would refuse.
func FuzzParseToolsList(f *testing.F) {
	for _, seed := range []string{
		`{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}`,
		`{"tools": [{"name": "a", "inputSchema": {"type": "object", "type": "object"}}, {"name": "b", "inputSchema": {}}]}`,
		`{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"x": {"y": 1, "y": 2}}}]}}`,
		`{"tools": [{"name": "a", "inputSchemas": {"x": 1, "x": 1}, "inputSchema": {}}]}`,
		`{"tools": [{"name": "a", "name": "b"}]}`,
		`{"tools": [], "tools": []}`,
		`{"result": {"tools": [{"inputSchema": [{"a": 1, "a": 1}]}]}, "x": {"b": 1, "b": 1}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tools, _, err := ParseToolsList(data, 0)
		limited, _, lerr := ParseToolsList(data, 2)
		var tooMany *TooManyToolsError
		switch {
		case err != nil && lerr == nil:
			t.Fatalf("a limit of two read a document refused without one: %v", err)
		case err == nil && len(tools) > 2 && (!errors.As(lerr, &tooMany) || *tooMany != TooManyToolsError{Tools: len(tools), Max: 2}):
			t.Fatalf("%d tools, a limit of two: %v", len(tools), lerr)
		case err == nil && len(tools) <= 2 && (lerr != nil || len(limited) != len(tools)):
			t.Fatalf("%d tools within a limit of two: %d tools, %v", len(tools), len(limited), lerr)
		}
		doc, dups, perr := jsondoc.ParseDuplicates(data, maxDocumentDepth)
		if perr != nil {
			if err == nil {
				t.Fatalf("ParseToolsList accepted a document jsondoc rejects: %v", perr)
			}
			return
		}
		prefix := ""
		if doc.Get("tools") == nil && doc.Get("result") != nil {
			prefix = "/result"
		}
		wantErr := false
		for _, d := range dups {
			if !insideSchemaByScan(d.Pointer, tools) {
				wantErr = true
			}
			if tools != nil && insideSchema(d.Pointer, prefix, tools) != insideSchemaByScan(d.Pointer, tools) {
				t.Fatalf("repetition at %q: insideSchema disagrees with a scan of every tool", d.Pointer)
			}
		}
		if err != nil {
			return
		}
		if wantErr {
			t.Fatalf("ParseToolsList accepted a repetition outside every schema: %v", dups)
		}
		for _, tool := range tools {
			if tool.Schema != nil && !strings.Contains(string(data), string(tool.Schema)) {
				t.Fatalf("tool %q: schema %q is not text of the document", tool.Pointer, tool.Schema)
			}
		}
	})
}

// insideSchemaByScan is what insideSchema computes, by comparing pointer
// with every tool's schema pointer: the quadratic reference.
func insideSchemaByScan(pointer string, tools []Tool) bool {
	for _, t := range tools {
		if t.Schema == nil {
			continue
		}
		if p := t.Pointer + "/inputSchema"; pointer == p || strings.HasPrefix(pointer, p+"/") {
			return true
		}
	}
	return false
}
