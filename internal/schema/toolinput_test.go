package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
)

// want is one expected finding: code, keyword and schema path.
type want struct {
	code    schema.Code
	keyword string
	path    string
}

func unsupported(kw, path string) want { return want{schema.CodeUnsupported, kw, path} }
func malformed(kw, path string) want   { return want{schema.CodeValidation, kw, path} }

func findings(fs []schema.Finding) []want {
	out := make([]want, 0, len(fs))
	for _, f := range fs {
		out = append(out, want{f.Code, f.Keyword, f.SchemaPath})
	}
	return out
}

// TestToolInputRules has one case per rule and decided point of DESIGN.md §3,
// each with a schema the rule accepts and one it refuses.
func TestToolInputRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		schema string
		want   []want // nil: compiles
	}{
		// The nine keywords, and nothing else.
		{"all nine keywords compile", `{"type":"object","description":"d","properties":{
			"a":{"type":"string","enum":["x"]},
			"n":{"type":"integer","minimum":0},
			"l":{"type":"array","items":{"type":"number"}},
			"o":{"oneOf":[{"type":"string"},{"type":"boolean"}],"description":"either"},
			"c":{"type":"object","additional_properties":true}},
			"required":["a"],"additionalProperties":false}`, nil},
		{"$ref", `{"type":"object","properties":{"a":{"$ref":"#/x"}}}`, []want{unsupported("$ref", "/properties/a/$ref"), unsupported("type", "/properties/a")}},
		{"$schema at root", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`, []want{unsupported("$schema", "/$schema")}},
		{"$id", `{"$id":"x","type":"object"}`, []want{unsupported("$id", "/$id")}},
		{"title", `{"type":"object","title":"t"}`, []want{unsupported("title", "/title")}},
		{"default", `{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`, []want{unsupported("default", "/properties/a/default")}},
		{"const", `{"type":"object","properties":{"a":{"type":"string","const":"x"}}}`, []want{unsupported("const", "/properties/a/const")}},
		{"anyOf", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}]}}}`, []want{unsupported("anyOf", "/properties/a/anyOf"), unsupported("type", "/properties/a")}},
		{"allOf", `{"type":"object","allOf":[{"type":"object"}]}`, []want{unsupported("allOf", "/allOf")}},
		{"not", `{"type":"object","not":{"type":"object"}}`, []want{unsupported("not", "/not")}},
		{"pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"^x"}}}`, []want{unsupported("pattern", "/properties/a/pattern")}},
		{"minLength", `{"type":"object","properties":{"a":{"type":"string","minLength":1}}}`, []want{unsupported("minLength", "/properties/a/minLength")}},
		{"maxItems", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"maxItems":1}}}`, []want{unsupported("maxItems", "/properties/a/maxItems")}},
		{"maximum", `{"type":"object","properties":{"a":{"type":"number","maximum":1}}}`, []want{unsupported("maximum", "/properties/a/maximum")}},
		{"exclusiveMinimum", `{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":1}}}`, []want{unsupported("exclusiveMinimum", "/properties/a/exclusiveMinimum")}},
		{"format", `{"type":"object","properties":{"a":{"type":"string","format":"date"}}}`, []want{unsupported("format", "/properties/a/format")}},
		{"unknown keyword", `{"type":"object","x-vendor":1}`, []want{unsupported("x-vendor", "/x-vendor")}},
		{"pointer escapes in paths", `{"type":"object","properties":{"a/b~c":{"type":"string","format":"x"}}}`, []want{unsupported("format", "/properties/a~1b~0c/format")}},

		// The whole schema is checked: absent properties and every branch.
		{"every property is checked", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","pattern":"x"},"c":{"type":"number","maximum":2}}}`,
			[]want{unsupported("pattern", "/properties/b/pattern"), unsupported("maximum", "/properties/c/maximum")}},
		{"every oneOf branch is checked", `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"string","format":"uri"},{"type":"integer","const":1}]}}}`,
			[]want{unsupported("format", "/properties/a/oneOf/1/format"), unsupported("const", "/properties/a/oneOf/2/const")}},
		{"nested items are checked", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b":{"type":"string","minLength":2}}}}}}`,
			[]want{unsupported("minLength", "/properties/a/items/properties/b/minLength")}},

		// VALIDATION: the schema breaks JSON Schema itself.
		{"type not a string", `{"type":"object","properties":{"a":{"type":5}}}`, []want{malformed("type", "/properties/a/type")}},
		{"required not an array", `{"type":"object","required":"a"}`, []want{malformed("required", "/required")}},
		{"required item not a string", `{"type":"object","required":["a",1]}`, []want{malformed("required", "/required/1")}},
		{"minimum not a number", `{"type":"object","properties":{"a":{"type":"number","minimum":"1"}}}`, []want{malformed("minimum", "/properties/a/minimum")}},
		{"enum not an array", `{"type":"object","properties":{"a":{"type":"string","enum":"x"}}}`, []want{malformed("enum", "/properties/a/enum")}},
		{"oneOf empty", `{"type":"object","properties":{"a":{"oneOf":[]}}}`, []want{malformed("oneOf", "/properties/a/oneOf")}},
		{"oneOf not an array", `{"type":"object","properties":{"a":{"oneOf":{"type":"string"}}}}`, []want{malformed("oneOf", "/properties/a/oneOf")}},
		{"properties not an object", `{"type":"object","properties":[]}`, []want{malformed("properties", "/properties")}},
		{"description not a string", `{"type":"object","description":["x"]}`, []want{malformed("description", "/description")}},
		{"schema not an object", `{"type":"object","properties":{"a":"string"}}`, []want{malformed("schema", "/properties/a")}},
		{"root not an object", `["type","object"]`, []want{malformed("schema", "")}},
		{"not JSON", `{"type":"object",}`, []want{malformed("json", "")}},
		{"duplicate member in schema", `{"type":"object","type":"string"}`, []want{malformed("json", "")}},
		{"both codes: unsupported wins, all listed", `{"type":"object","properties":{"a":{"type":"string","pattern":"x"},"b":{"type":7}}}`,
			[]want{unsupported("pattern", "/properties/a/pattern"), malformed("type", "/properties/b/type")}},

		// Root rules.
		{"root may omit type", `{"properties":{"a":{"type":"string"}},"required":["a"]}`, nil},
		{"root type string", `{"type":"string"}`, []want{unsupported("type", "/type")}},
		{"root type array", `{"type":["object","null"]}`, []want{unsupported("type", "/type")}},
		{"root oneOf", `{"oneOf":[{"type":"object"}]}`, []want{unsupported("oneOf", "/oneOf")}},

		// type names.
		{"every allowed type", `{"type":"object","properties":{"o":{"type":"object"},"a":{"type":"array","items":{"type":"string"}},"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"}}}`, nil},
		{"type null", `{"type":"object","properties":{"a":{"type":"null"}}}`, []want{unsupported("type", "/properties/a/type")}},
		{"type list", `{"type":"object","properties":{"a":{"type":["string","null"]}}}`, []want{unsupported("type", "/properties/a/type")}},
		{"type unknown name", `{"type":"object","properties":{"a":{"type":"int"}}}`, []want{unsupported("type", "/properties/a/type")}},

		// Untyped nodes and boolean schemas below the root.
		{"empty schema", `{"type":"object","properties":{"a":{}}}`, []want{unsupported("type", "/properties/a")}},
		{"enum-only schema", `{"type":"object","properties":{"a":{"enum":["x"]}}}`, []want{unsupported("type", "/properties/a")}},
		{"description-only schema", `{"type":"object","properties":{"a":{"description":"x"}}}`, []want{unsupported("type", "/properties/a")}},
		{"boolean property schema", `{"type":"object","properties":{"a":true}}`, []want{unsupported("schema", "/properties/a")}},
		{"boolean items schema", `{"type":"object","properties":{"a":{"type":"array","items":false}}}`, []want{unsupported("schema", "/properties/a/items")}},
		{"typed enum", `{"type":"object","properties":{"a":{"type":"integer","enum":[1,2]}}}`, nil},

		// Keywords on a type they cannot constrain.
		{"minimum on string", `{"type":"object","properties":{"a":{"type":"string","minimum":1}}}`, []want{unsupported("minimum", "/properties/a/minimum")}},
		{"items on object", `{"type":"object","items":{"type":"string"}}`, []want{unsupported("items", "/items")}},
		{"properties on array", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"properties":{}}}}`, []want{unsupported("properties", "/properties/a/properties")}},
		{"required on array", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"required":[]}}}`, []want{unsupported("required", "/properties/a/required")}},
		{"additionalProperties on array", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"additionalProperties":false}}}`, []want{unsupported("additionalProperties", "/properties/a/additionalProperties")}},
		{"minimum on integer and number", `{"type":"object","properties":{"a":{"type":"integer","minimum":1},"b":{"type":"number","minimum":-1.5}}}`, nil},

		// required.
		{"required with undeclared names and repeats", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a","b"]}`, nil},

		// additionalProperties.
		{"additionalProperties false", `{"type":"object","additionalProperties":false}`, nil},
		{"additional_properties spelling", `{"type":"object","additional_properties":false}`, nil},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"string"}}`, []want{unsupported("additionalProperties", "/additionalProperties")}},
		{"additionalProperties not boolean", `{"type":"object","additionalProperties":"no"}`, []want{malformed("additionalProperties", "/additionalProperties")}},
		{"both spellings", `{"type":"object","additionalProperties":false,"additional_properties":false}`, []want{malformed("additionalProperties", "/additional_properties")}},

		// enum.
		{"enum of every kind", `{"type":"object","properties":{"a":{"type":"object","enum":[{"x":1},"s",1.5,true,null,[1]]}}}`, nil},
		{"empty enum compiles", `{"type":"object","properties":{"a":{"type":"string","enum":[]}}}`, nil},
		{"enum beside oneOf", `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}],"enum":["x"]}}}`, []want{unsupported("enum", "/properties/a/enum")}},

		// items.
		{"tuple items", `{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`, []want{unsupported("items", "/properties/a/items")}},
		{"items not a schema", `{"type":"object","properties":{"a":{"type":"array","items":3}}}`, []want{malformed("schema", "/properties/a/items")}},

		// oneOf.
		{"oneOf with description", `{"type":"object","properties":{"a":{"description":"d","oneOf":[{"type":"string"},{"type":"integer"}]}}}`, nil},
		{"oneOf with type beside", `{"type":"object","properties":{"a":{"type":"string","oneOf":[{"type":"string"}]}}}`, []want{unsupported("type", "/properties/a/type")}},
		{"oneOf with minimum beside", `{"type":"object","properties":{"a":{"minimum":1,"oneOf":[{"type":"integer"}]}}}`, []want{unsupported("minimum", "/properties/a/minimum")}},
		{"oneOf with an unknown keyword beside, reported once", `{"type":"object","properties":{"a":{"default":1,"oneOf":[{"type":"integer"}]}}}`, []want{unsupported("default", "/properties/a/default")}},

		// Numbers stay exact and in range.
		{"huge exponent bound", `{"type":"object","properties":{"a":{"type":"number","minimum":1e99999999999999}}}`, []want{unsupported("minimum", "/properties/a/minimum")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.Compile(schema.ToolInput, []byte(tc.schema))
			if tc.want == nil {
				require.Empty(t, res.Errors, "findings: %+v", res.Errors)
				require.NotNil(t, res.Schema)
				assert.Equal(t, schema.CodeNone, res.Code())
				return
			}
			assert.Nil(t, res.Schema)
			assert.Equal(t, tc.want, findings(res.Errors))
			wantCode := schema.CodeValidation
			for _, w := range tc.want {
				if w.code == schema.CodeUnsupported {
					wantCode = schema.CodeUnsupported
				}
			}
			assert.Equal(t, wantCode, res.Code())
			for _, f := range res.Errors {
				assert.NotEmpty(t, f.Message)
				assert.Equal(t, int64(-1), f.Offset)
			}
		})
	}
}

func TestCompileKeepsFindingsInDocumentOrder(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.ToolInput, []byte(`{"title":"t","type":"object","properties":{"b":{"type":"string","format":"f"},"a":{"type":"null"}},"$comment":"c"}`))
	assert.Equal(t, []want{
		unsupported("title", "/title"),
		unsupported("format", "/properties/b/format"),
		unsupported("type", "/properties/a/type"),
		unsupported("$comment", "/$comment"),
	}, findings(res.Errors))
}

func TestCompileCanonicalIgnoresOrderAndSpacing(t *testing.T) {
	t.Parallel()
	a := schema.Compile(schema.ToolInput, []byte(`{"type":"object","properties":{"n":{"type":"number","minimum":1.0},"s":{"type":"string"}}}`))
	b := schema.Compile(schema.ToolInput, []byte(" {\"properties\": {\"s\": {\"type\": \"string\"}, \"n\": {\"minimum\": 1, \"type\": \"number\"}}, \"type\": \"object\"}\n"))
	c := schema.Compile(schema.ToolInput, []byte(`{"type":"object","properties":{"n":{"type":"number","minimum":1.0000000000000000000001},"s":{"type":"string"}}}`))
	assert.Equal(t, string(a.Canonical), string(b.Canonical))
	assert.NotEqual(t, string(a.Canonical), string(c.Canonical))
}

func TestUnknownProfile(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.Profile(99), []byte(`{"type":"object"}`))
	require.Len(t, res.Errors, 1)
	assert.Equal(t, schema.CodeValidation, res.Code())
	assert.Equal(t, "profile", res.Errors[0].Keyword)
}
