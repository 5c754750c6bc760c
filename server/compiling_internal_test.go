package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/pattern"
	"github.com/toolgate/toolgate/internal/schema"
)

// TestCompileBytesCountPatterns: a compile that may build pattern automata
// counts at least patternBytes against the room, whatever its size, under
// the profiles that have patterns; the rest count their bytes.
func TestCompileBytesCountPatterns(t *testing.T) {
	t.Parallel()
	floor := patternBytes(schema.Options{})
	assert.Equal(t, int64(schema.DefaultMaxPatternBytes+2<<20)/150, floor, "the default floor")
	withRef := schema.Options{Resources: map[string][]byte{"http://x.test/p.json": []byte(`{"pattern":"^a+$"}`)}}
	long := `{"pattern":"^a$","description":"` + strings.Repeat("x", int(floor)) + `"}`
	for _, tc := range []struct {
		name    string
		profile schema.Profile
		doc     string
		opts    schema.Options
		want    int64
	}{
		{"no pattern", schema.JSONSchema, `{"type":"string"}`, schema.Options{}, 17},
		{"pattern", schema.JSONSchema, `{"pattern":"^a$"}`, schema.Options{}, floor},
		{"patternProperties", schema.JSONSchema, `{"patternProperties":{"^a":{}}}`, schema.Options{}, floor},
		{"an escaped keyword", schema.JSONSchema, `{"\u0070attern":"^a$"}`, schema.Options{}, floor},
		{"bindable output", schema.OutputBindable, `{"type":"string","pattern":"^a$"}`, schema.Options{}, floor},
		{"tool input has no patterns", schema.ToolInput, `{"type":"string","pattern":"^a$"}`, schema.Options{}, 33},
		{"a referenced document's pattern", schema.JSONSchema, `{"$ref":"http://x.test/p.json"}`, withRef, floor},
		{"a schema past the floor counts its bytes", schema.JSONSchema, long, schema.Options{}, int64(len(long))},
		{"a smaller automata bound", schema.JSONSchema, `{"pattern":"^a$"}`,
			schema.Options{Limits: schema.Limits{MaxPatternBytes: 1 << 20}}, (1<<20 + 1<<20) / 150},
		{"a smaller automaton bound", schema.JSONSchema, `{"pattern":"^a$"}`,
			schema.Options{Limits: schema.Limits{Pattern: pattern.Limits{MaxDFABytes: 256 << 10}}}, (4<<20 + 256<<10) / 150},
	} {
		assert.Equal(t, tc.want, compileBytes(tc.profile, []byte(tc.doc), tc.opts), tc.name)
	}

	plain := []*toolgatev1.ToolSchema{{Name: "a", SchemaJson: `{"type":"object"}`}, {Name: "b", SchemaJson: `{}`}}
	list := func(tools ...*toolgatev1.ToolSchema) *toolgatev1.CompileToolsetRequest {
		return &toolgatev1.CompileToolsetRequest{Source: &toolgatev1.CompileToolsetRequest_Tools{Tools: &toolgatev1.ToolList{Tools: tools}}}
	}
	assert.Equal(t, int64(19), toolsetBytes(schema.JSONSchema, list(plain...), schema.Options{}), "tools without patterns")
	patterned := append(plain, &toolgatev1.ToolSchema{Name: "c", SchemaJson: `{"pattern":"^c$"}`})
	assert.Equal(t, floor, toolsetBytes(schema.JSONSchema, list(patterned...), schema.Options{}),
		"one floor for a toolset: its tools' automata share one budget")
	described := `{"tools":[{"name":"a","description":"` + strings.Repeat("x", 100) + `","inputSchema":{}}]}`
	assert.Equal(t, int64(len(described)), toolsetBytes(schema.JSONSchema, &toolgatev1.CompileToolsetRequest{
		Source: &toolgatev1.CompileToolsetRequest_ToolsListJson{ToolsListJson: described}}, schema.Options{}),
		"a tools/list counts its whole text, parsed whole")
	assert.Zero(t, toolsetBytes(schema.JSONSchema, &toolgatev1.CompileToolsetRequest{}, schema.Options{}),
		"no source: nothing to read")
}

// FuzzMayHoldPatterns: mayHoldPatterns never answers no for a document
// that holds a pattern or patternProperties keyword, however it is spelled
// (its keys are read back by encoding/json, independently).
func FuzzMayHoldPatterns(f *testing.F) {
	for _, s := range []string{`{"pattern":"a"}`, `{"\u0070attern":"a"}`, `{"items":{"patternProperties":{}}}`,
		`{"p\u0061tternProperties":{}}`, `{"type":"string"}`, `[{"a":{"pattern":1}}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var v any
		if json.Unmarshal([]byte(doc), &v) != nil || !namesPattern(v) {
			return
		}
		if !mayHoldPatterns([]byte(doc)) {
			t.Fatalf("%q names a pattern keyword, but mayHoldPatterns says no", doc)
		}
	})
}

// namesPattern reports whether a decoded JSON value has a key pattern or
// patternProperties at any depth.
func namesPattern(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if k == "pattern" || k == "patternProperties" || namesPattern(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if namesPattern(e) {
				return true
			}
		}
	}
	return false
}
