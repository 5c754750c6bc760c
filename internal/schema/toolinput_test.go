package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
)

// TestToolInputRules has one case per rule and decided point of DESIGN.md §3,
// each with a schema the rule accepts and one it refuses.
func TestToolInputRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		schema string
		want   []fixtures.SchemaFinding // nil: compiles
	}{
		// The nine keywords, and nothing else.
		{"all nine keywords compile", `{"type":"object","description":"d","properties":{
			"a":{"type":"string","enum":["x"]},
			"n":{"type":"integer","minimum":0},
			"l":{"type":"array","items":{"type":"number"}},
			"o":{"oneOf":[{"type":"string"},{"type":"boolean"}],"description":"either"},
			"c":{"type":"object","additional_properties":true}},
			"required":["a"],"additionalProperties":false}`, nil},
		{"$ref", `{"type":"object","properties":{"a":{"$ref":"#/x"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("$ref", "/properties/a/$ref"), fixtures.Unsupported("type", "/properties/a")}},
		{"$schema at root", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`, []fixtures.SchemaFinding{fixtures.Unsupported("$schema", "/$schema")}},
		{"$id", `{"$id":"x","type":"object"}`, []fixtures.SchemaFinding{fixtures.Unsupported("$id", "/$id")}},
		{"title", `{"type":"object","title":"t"}`, []fixtures.SchemaFinding{fixtures.Unsupported("title", "/title")}},
		{"default", `{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("default", "/properties/a/default")}},
		{"const", `{"type":"object","properties":{"a":{"type":"string","const":"x"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("const", "/properties/a/const")}},
		{"anyOf", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("anyOf", "/properties/a/anyOf"), fixtures.Unsupported("type", "/properties/a")}},
		{"allOf", `{"type":"object","allOf":[{"type":"object"}]}`, []fixtures.SchemaFinding{fixtures.Unsupported("allOf", "/allOf")}},
		{"not", `{"type":"object","not":{"type":"object"}}`, []fixtures.SchemaFinding{fixtures.Unsupported("not", "/not")}},
		{"pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"^x"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("pattern", "/properties/a/pattern")}},
		{"minLength", `{"type":"object","properties":{"a":{"type":"string","minLength":1}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("minLength", "/properties/a/minLength")}},
		{"maxItems", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"maxItems":1}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("maxItems", "/properties/a/maxItems")}},
		{"maximum", `{"type":"object","properties":{"a":{"type":"number","maximum":1}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("maximum", "/properties/a/maximum")}},
		{"exclusiveMinimum", `{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":1}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("exclusiveMinimum", "/properties/a/exclusiveMinimum")}},
		{"format", `{"type":"object","properties":{"a":{"type":"string","format":"date"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("format", "/properties/a/format")}},
		{"unknown keyword", `{"type":"object","x-vendor":1}`, []fixtures.SchemaFinding{fixtures.Unsupported("x-vendor", "/x-vendor")}},
		{"pointer escapes in paths", `{"type":"object","properties":{"a/b~c":{"type":"string","format":"x"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("format", "/properties/a~1b~0c/format")}},

		// The whole schema is checked: absent properties and every branch.
		{"every property is checked", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","pattern":"x"},"c":{"type":"number","maximum":2}}}`,
			[]fixtures.SchemaFinding{fixtures.Unsupported("pattern", "/properties/b/pattern"), fixtures.Unsupported("maximum", "/properties/c/maximum")}},
		{"every oneOf branch is checked", `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"string","format":"uri"},{"type":"integer","const":1}]}}}`,
			[]fixtures.SchemaFinding{fixtures.Unsupported("format", "/properties/a/oneOf/1/format"), fixtures.Unsupported("const", "/properties/a/oneOf/2/const")}},
		{"nested items are checked", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b":{"type":"string","minLength":2}}}}}}`,
			[]fixtures.SchemaFinding{fixtures.Unsupported("minLength", "/properties/a/items/properties/b/minLength")}},

		// VALIDATION: the schema breaks JSON Schema itself.
		{"type not a string", `{"type":"object","properties":{"a":{"type":5}}}`, []fixtures.SchemaFinding{fixtures.Malformed("type", "/properties/a/type")}},
		{"required not an array", `{"type":"object","required":"a"}`, []fixtures.SchemaFinding{fixtures.Malformed("required", "/required")}},
		{"required item not a string", `{"type":"object","required":["a",1]}`, []fixtures.SchemaFinding{fixtures.Malformed("required", "/required/1")}},
		{"minimum not a number", `{"type":"object","properties":{"a":{"type":"number","minimum":"1"}}}`, []fixtures.SchemaFinding{fixtures.Malformed("minimum", "/properties/a/minimum")}},
		{"enum not an array", `{"type":"object","properties":{"a":{"type":"string","enum":"x"}}}`, []fixtures.SchemaFinding{fixtures.Malformed("enum", "/properties/a/enum")}},
		{"oneOf empty", `{"type":"object","properties":{"a":{"oneOf":[]}}}`, []fixtures.SchemaFinding{fixtures.Malformed("oneOf", "/properties/a/oneOf")}},
		{"oneOf not an array", `{"type":"object","properties":{"a":{"oneOf":{"type":"string"}}}}`, []fixtures.SchemaFinding{fixtures.Malformed("oneOf", "/properties/a/oneOf")}},
		{"properties not an object", `{"type":"object","properties":[]}`, []fixtures.SchemaFinding{fixtures.Malformed("properties", "/properties")}},
		{"description not a string", `{"type":"object","description":["x"]}`, []fixtures.SchemaFinding{fixtures.Malformed("description", "/description")}},
		{"schema not an object", `{"type":"object","properties":{"a":"string"}}`, []fixtures.SchemaFinding{fixtures.Malformed("schema", "/properties/a")}},
		{"root not an object", `["type","object"]`, []fixtures.SchemaFinding{fixtures.Malformed("schema", "")}},
		{"not JSON", `{"type":"object",}`, []fixtures.SchemaFinding{fixtures.Malformed("json", "")}},
		{"duplicate member in schema", `{"type":"object","type":"string"}`, []fixtures.SchemaFinding{fixtures.Malformed("json", "")}},
		{"both codes: unsupported wins, all listed", `{"type":"object","properties":{"a":{"type":"string","pattern":"x"},"b":{"type":7}}}`,
			[]fixtures.SchemaFinding{fixtures.Unsupported("pattern", "/properties/a/pattern"), fixtures.Malformed("type", "/properties/b/type")}},

		// Root rules.
		{"root may omit type", `{"properties":{"a":{"type":"string"}},"required":["a"]}`, nil},
		{"root type string", `{"type":"string"}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/type")}},
		{"root type array", `{"type":["object","null"]}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/type")}},
		{"root oneOf", `{"oneOf":[{"type":"object"}]}`, []fixtures.SchemaFinding{fixtures.Unsupported("oneOf", "/oneOf")}},

		// type names.
		{"every allowed type", `{"type":"object","properties":{"o":{"type":"object"},"a":{"type":"array","items":{"type":"string"}},"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"}}}`, nil},
		{"type null", `{"type":"object","properties":{"a":{"type":"null"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/a/type")}},
		{"type list", `{"type":"object","properties":{"a":{"type":["string","null"]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/a/type")}},
		{"empty type list, as any list", `{"type":"object","properties":{"a":{"type":[]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/a/type")}},
		{"type list with a repeat, as any list", `{"type":"object","properties":{"a":{"type":["string","string"]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/a/type")}},
		{"type unknown name", `{"type":"object","properties":{"a":{"type":"int"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/a/type")}},

		// Untyped nodes and boolean schemas below the root.
		{"empty schema", `{"type":"object","properties":{"a":{}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/a")}},
		{"enum-only schema", `{"type":"object","properties":{"a":{"enum":["x"]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/a")}},
		{"description-only schema", `{"type":"object","properties":{"a":{"description":"x"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/a")}},
		{"boolean property schema", `{"type":"object","properties":{"a":true}}`, []fixtures.SchemaFinding{fixtures.Unsupported("schema", "/properties/a")}},
		{"boolean items schema", `{"type":"object","properties":{"a":{"type":"array","items":false}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("schema", "/properties/a/items")}},
		{"typed enum", `{"type":"object","properties":{"a":{"type":"integer","enum":[1,2]}}}`, nil},

		// Keywords on a type they cannot constrain.
		{"minimum on string", `{"type":"object","properties":{"a":{"type":"string","minimum":1}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("minimum", "/properties/a/minimum")}},
		{"items on object", `{"type":"object","items":{"type":"string"}}`, []fixtures.SchemaFinding{fixtures.Unsupported("items", "/items")}},
		{"properties on array", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"properties":{}}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("properties", "/properties/a/properties")}},
		{"required on array", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"required":[]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("required", "/properties/a/required")}},
		{"additionalProperties on array", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"additionalProperties":false}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("additionalProperties", "/properties/a/additionalProperties")}},
		{"minimum on integer and number", `{"type":"object","properties":{"a":{"type":"integer","minimum":1},"b":{"type":"number","minimum":-1.5}}}`, nil},

		// required.
		{"required with undeclared names and repeats", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a","b"]}`, nil},

		// additionalProperties.
		{"additionalProperties false", `{"type":"object","additionalProperties":false}`, nil},
		{"additional_properties spelling", `{"type":"object","additional_properties":false}`, nil},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"string"}}`, []fixtures.SchemaFinding{fixtures.Unsupported("additionalProperties", "/additionalProperties")}},
		{"additionalProperties not boolean", `{"type":"object","additionalProperties":"no"}`, []fixtures.SchemaFinding{fixtures.Malformed("additionalProperties", "/additionalProperties")}},
		{"additional_properties not boolean", `{"type":"object","additional_properties":"no"}`, []fixtures.SchemaFinding{fixtures.Malformed("additionalProperties", "/additional_properties")}},
		{"both spellings", `{"type":"object","additionalProperties":false,"additional_properties":false}`, []fixtures.SchemaFinding{fixtures.Malformed("additionalProperties", "/additional_properties")}},

		// enum.
		{"enum of every kind", `{"type":"object","properties":{"a":{"type":"object","enum":[{"x":1},"s",1.5,true,null,[1]]}}}`, nil},
		{"empty enum compiles", `{"type":"object","properties":{"a":{"type":"string","enum":[]}}}`, nil},
		{"enum beside oneOf", `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}],"enum":["x"]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("enum", "/properties/a/enum")}},

		// items.
		{"tuple items", `{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("items", "/properties/a/items")}},
		{"items not a schema", `{"type":"object","properties":{"a":{"type":"array","items":3}}}`, []fixtures.SchemaFinding{fixtures.Malformed("schema", "/properties/a/items")}},

		// oneOf.
		{"oneOf with description", `{"type":"object","properties":{"a":{"description":"d","oneOf":[{"type":"string"},{"type":"integer"}]}}}`, nil},
		{"oneOf with type beside", `{"type":"object","properties":{"a":{"type":"string","oneOf":[{"type":"string"}]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/a/type")}},
		{"oneOf with minimum beside", `{"type":"object","properties":{"a":{"minimum":1,"oneOf":[{"type":"integer"}]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("minimum", "/properties/a/minimum")}},
		{"oneOf with an unknown keyword beside, reported once", `{"type":"object","properties":{"a":{"default":1,"oneOf":[{"type":"integer"}]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("default", "/properties/a/default")}},

		// Numbers stay exact and in range.
		{"huge exponent bound", `{"type":"object","properties":{"a":{"type":"number","minimum":1e99999999999999}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("minimum", "/properties/a/minimum")}},
		{"tiny exponent bound", `{"type":"object","properties":{"a":{"type":"number","minimum":1e-99999999999999}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("minimum", "/properties/a/minimum")}},
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
			assert.Equal(t, tc.want, fixtures.SchemaFindings(res.Errors))
			wantCode := schema.CodeValidation
			for _, w := range tc.want {
				if w.Code == schema.CodeUnsupported {
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

// TestExponentLimitMessage checks that a bound whose exponent is out of
// the exact range is refused with a message that fits both directions: a
// tiny number is not "too large".
func TestExponentLimitMessage(t *testing.T) {
	t.Parallel()
	for _, bound := range []string{"1e99999999999999", "-1e99999999999999", "1e-99999999999999"} {
		res := schema.Compile(schema.ToolInput, []byte(`{"type":"object","properties":{"a":{"type":"number","minimum":`+bound+`}}}`))
		require.Len(t, res.Errors, 1, bound)
		assert.Equal(t, "The number "+bound+" has a decimal exponent too far from zero for this service to compare it exactly (the limit is about ±5.5e+11).", res.Errors[0].Message)
	}
	res := schema.Compile(schema.ToolInput, []byte(`{"type":"object","properties":{"a":{"type":"number","minimum":1e549755813000}}}`))
	assert.Empty(t, res.Errors, "an exponent inside the limit compiles")
}

// TestMalformedValueMessages: a keyword's value of the wrong JSON kind is
// named with its article, and null as the literal it is.
func TestMalformedValueMessages(t *testing.T) {
	t.Parallel()
	for schemaText, want := range map[string]string{
		`{"type":"object","properties":{"a":{"type":"number","minimum":null}}}`: "minimum must be a number, not null.",
		`{"type":"object","properties":{"a":{"type":"number","minimum":"1"}}}`:  "minimum must be a number, not a string.",
		`{"type":"object","description":[]}`:                                    "description must be a string, not an array.",
		`{"type":"object","properties":null}`:                                   "properties must be an object mapping names to schemas, not null.",
	} {
		res := schema.Compile(schema.ToolInput, []byte(schemaText))
		if assert.Len(t, res.Errors, 1, schemaText) {
			assert.Equal(t, want, res.Errors[0].Message, schemaText)
		}
	}
}

func TestCompileKeepsFindingsInDocumentOrder(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.ToolInput, []byte(`{"title":"t","type":"object","properties":{"b":{"type":"string","format":"f"},"a":{"type":"null"}},"$comment":"c"}`))
	assert.Equal(t, []fixtures.SchemaFinding{
		fixtures.Unsupported("title", "/title"),
		fixtures.Unsupported("format", "/properties/b/format"),
		fixtures.Unsupported("type", "/properties/a/type"),
		fixtures.Unsupported("$comment", "/$comment"),
	}, fixtures.SchemaFindings(res.Errors))
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

// TestKeyTable: a node's keys are its properties and its required names,
// once each, sorted bytewise, each required one marked and indexed; a
// required name that a closed object does not declare is kept apart, as
// required but forbidden.
func TestKeyTable(t *testing.T) {
	t.Parallel()
	type key struct {
		Name               string
		Declared, Required bool
	}
	for _, tc := range []struct {
		name, doc string
		keys      []key
		required  []int
		forbidden []string
	}{
		{"properties and required merged", `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}},"required":["a","c"]}`,
			[]key{{"a", true, true}, {"b", true, false}, {"c", false, true}}, []int{0, 2}, nil},
		{"required before properties", `{"type":"object","required":["z","a"],"properties":{"z":{"type":"string"}}}`,
			[]key{{"a", false, true}, {"z", true, true}}, []int{0, 1}, nil},
		{"a name required twice", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a","b","b"]}`,
			[]key{{"a", true, true}, {"b", false, true}}, []int{0, 1}, nil},
		{"sorted bytewise", `{"type":"object","properties":{"é":{"type":"string"},"Z":{"type":"string"},"a":{"type":"string"},"":{"type":"string"}}}`,
			[]key{{"", true, false}, {"Z", true, false}, {"a", true, false}, {"é", true, false}}, nil, nil},
		{"closed: an undeclared required name is forbidden", `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}},"required":["y","a","x"]}`,
			[]key{{"a", true, true}}, []int{0}, []string{"x", "y"}},
	} {
		res := schema.Compile(schema.ToolInput, []byte(tc.doc))
		require.Empty(t, res.Errors, tc.name)
		root := res.Schema.Root
		var keys []key
		for _, k := range root.Keys {
			keys = append(keys, key{k.Name, k.Declared, k.Required})
			assert.Equal(t, k.Declared, k.Schema != nil, "%s: %q has a schema when declared", tc.name, k.Name)
		}
		assert.Equal(t, tc.keys, keys, tc.name)
		assert.Equal(t, tc.required, root.Required, tc.name)
		assert.Equal(t, tc.forbidden, root.RequiredForbidden, tc.name)
		var names []string
		for _, k := range tc.keys {
			names = append(names, k.Name)
		}
		assert.Equal(t, names, root.KeyNames.Names(), tc.name)
	}
}
