package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
)

// TestOutputBindableRules has one case per rule of DESIGN.md §4 and the
// seed's "Bindable output_schema" section, accepted and refused.
func TestOutputBindableRules(t *testing.T) {
	t.Parallel()
	prop := func(p string) string { return `{"type":"object","properties":{"p":` + p + `}}` }
	cases := []struct {
		name   string
		schema string
		want   []fixtures.SchemaFinding // nil: compiles
	}{
		// The root: a flat object with non-empty properties.
		{"flat object", prop(`{"type":"string"}`), nil},
		{"root may omit type", `{"properties":{"p":{"type":"string"}}}`, nil},
		{"empty object", `{"type":"object"}`, []fixtures.SchemaFinding{fixtures.Unsupported("properties", "")}},
		{"empty properties", `{"type":"object","properties":{}}`, []fixtures.SchemaFinding{fixtures.Unsupported("properties", "")}},
		{"root not an object", `{"type":"string"}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/type")}},

		// Properties: primitives, primitive + null, closed enums, arrays of primitives.
		{"every primitive", `{"type":"object","properties":{"s":{"type":"string"},"n":{"type":"number"},"i":{"type":"integer"},"b":{"type":"boolean"}}}`, nil},
		{"primitive with null", prop(`{"type":["string","null"]}`), nil},
		{"null first", prop(`{"type":["null","integer"]}`), nil},
		{"two primitives", prop(`{"type":["string","number"]}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/type")}},
		{"three types", prop(`{"type":["string","number","null"]}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/type")}},
		{"null alone", prop(`{"type":"null"}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/type")}},
		{"type list with a non-name", prop(`{"type":["string",1]}`), []fixtures.SchemaFinding{fixtures.Malformed("type", "/properties/p/type/1")}},
		// JSON Schema's type list is non-empty and names each type once.
		{"empty type list", prop(`{"type":[]}`), []fixtures.SchemaFinding{fixtures.Malformed("type", "/properties/p/type")}},
		{"type list with a repeat", prop(`{"type":["string","string"]}`), []fixtures.SchemaFinding{fixtures.Malformed("type", "/properties/p/type/1")}},
		{"type list of null twice", prop(`{"type":["null","null"]}`), []fixtures.SchemaFinding{fixtures.Malformed("type", "/properties/p/type/1")}},
		{"type list with a late repeat", prop(`{"type":["string","null","string"]}`), []fixtures.SchemaFinding{fixtures.Malformed("type", "/properties/p/type/2")}},
		{"type list of a primitive alone", prop(`{"type":["string"]}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/type")}},
		{"type not a string", prop(`{"type":5}`), []fixtures.SchemaFinding{fixtures.Malformed("type", "/properties/p/type")}},
		// A keyword accepted without being enforced must still have its shape.
		{"exclusiveMinimum not a number", prop(`{"type":"number","exclusiveMinimum":"x"}`), []fixtures.SchemaFinding{fixtures.Malformed("exclusiveMinimum", "/properties/p/exclusiveMinimum")}},
		{"title not a string", prop(`{"type":"number","title":[]}`), []fixtures.SchemaFinding{fixtures.Malformed("title", "/properties/p/title")}},
		{"examples not an array", prop(`{"type":"number","examples":5}`), []fixtures.SchemaFinding{fixtures.Malformed("examples", "/properties/p/examples")}},
		{"format not a string", prop(`{"type":"string","format":7}`), []fixtures.SchemaFinding{fixtures.Malformed("format", "/properties/p/format")}},
		{"additionalProperties not a schema", `{"type":"object","properties":{"p":{"type":"string"}},"additionalProperties":5}`, []fixtures.SchemaFinding{fixtures.Malformed("additionalProperties", "/additionalProperties")}},
		{"additionalProperties a schema", `{"type":"object","properties":{"p":{"type":"string"}},"additionalProperties":{}}`, nil},
		{"default and const of any kind", prop(`{"type":"string","default":[1],"const":{}}`), nil},
		{"closed string enum", prop(`{"type":"string","enum":["low","normal","high"]}`), nil},
		{"number and boolean enums", `{"type":"object","properties":{"n":{"type":"number","enum":[1,2.5]},"b":{"type":"boolean","enum":[true]}}}`, nil},
		{"enum without type types itself", prop(`{"enum":["a","b"]}`), nil},
		{"enum with null on a nullable type", prop(`{"type":["string","null"],"enum":["a",null]}`), nil},
		{"enum with null types itself nullable", prop(`{"enum":["a",null]}`), nil},
		{"enum of null alone", prop(`{"enum":[null]}`), []fixtures.SchemaFinding{fixtures.Unsupported("enum", "/properties/p/enum")}},
		{"enum of null alone, repeated", prop(`{"enum":[null,null]}`), []fixtures.SchemaFinding{fixtures.Unsupported("enum", "/properties/p/enum")}},
		{"enum of null alone on a nullable type", prop(`{"type":["integer","null"],"enum":[null]}`), []fixtures.SchemaFinding{fixtures.Unsupported("enum", "/properties/p/enum")}},
		{"items enum of null alone", prop(`{"type":"array","items":{"enum":[null]}}`), []fixtures.SchemaFinding{fixtures.Unsupported("enum", "/properties/p/items/enum")}},
		{"items of type null", prop(`{"type":"array","items":{"type":"null"}}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/items/type")}},
		{"nullable items", prop(`{"type":"array","items":{"type":["string","null"]}}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/items/type")}},
		{"nullable items with an enum", prop(`{"type":"array","items":{"type":["integer","null"],"enum":[1,2]}}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/items/type")}},
		{"items enum with null", prop(`{"type":"array","items":{"enum":["a",null]}}`), []fixtures.SchemaFinding{fixtures.Unsupported("enum", "/properties/p/items/enum")}},
		{"items of a type that leaves out an enum's null", prop(`{"type":"array","items":{"type":"string","enum":["a",null]}}`), nil},
		{"a nested object's nullable property is the nested object's finding", prop(`{"type":"object","properties":{"q":{"type":["string","null"]}}}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p")}},
		{"an inner array's nullable items are the outer array's finding", prop(`{"type":"array","items":{"type":"array","items":{"type":["string","null"]}}}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/items")}},
		{"enum with an object choice", prop(`{"type":"string","enum":["a",{"x":1}]}`), []fixtures.SchemaFinding{fixtures.Unsupported("enum", "/properties/p/enum")}},
		{"array of primitives", prop(`{"type":"array","items":{"type":"string"}}`), nil},
		{"items may carry enum", prop(`{"type":"array","items":{"type":"string","enum":["a","b"]}}`), nil},
		{"array without items", prop(`{"type":"array"}`), []fixtures.SchemaFinding{fixtures.Unsupported("items", "/properties/p")}},
		{"nullable array", prop(`{"type":["array","null"],"items":{"type":"string"}}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/type")}},
		{"tuple items", prop(`{"type":"array","items":[{"type":"string"}]}`), []fixtures.SchemaFinding{fixtures.Unsupported("items", "/properties/p/items")}},
		{"untyped property", prop(`{"description":"x"}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p")}},

		// Not bindable.
		{"nested object", prop(`{"type":"object","properties":{"q":{"type":"string"}}}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p")}},
		{"array of objects", prop(`{"type":"array","items":{"type":"object","properties":{"q":{"type":"string"}}}}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/items")}},
		{"array of arrays", prop(`{"type":"array","items":{"type":"array","items":{"type":"string"}}}`), []fixtures.SchemaFinding{fixtures.Unsupported("type", "/properties/p/items")}},
		{"$ref", prop(`{"$ref":"#/$defs/x"}`), []fixtures.SchemaFinding{fixtures.Unsupported("$ref", "/properties/p/$ref"), fixtures.Unsupported("type", "/properties/p")}},
		{"oneOf", prop(`{"oneOf":[{"type":"string"},{"type":"integer"}]}`), []fixtures.SchemaFinding{fixtures.Unsupported("oneOf", "/properties/p/oneOf"), fixtures.Unsupported("type", "/properties/p")}},
		{"unknown keyword", prop(`{"type":"string","x-ui":"wide"}`), []fixtures.SchemaFinding{fixtures.Unsupported("x-ui", "/properties/p/x-ui")}},
		{"keyword on the wrong type", prop(`{"type":"number","minLength":1}`), []fixtures.SchemaFinding{fixtures.Unsupported("minLength", "/properties/p/minLength")}},
		{"required below the root", `{"type":"object","properties":{"p":{"type":"string","required":["x"]}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("required", "/properties/p/required")}},
		// An enum-only property has its choices' type for this rule too,
		// as if written.
		{"minimum on an enum of strings", prop(`{"enum":["a","b"],"minimum":5}`), []fixtures.SchemaFinding{fixtures.Unsupported("minimum", "/properties/p/minimum")}},
		{"required on an enum of strings", prop(`{"enum":["a","b"],"required":["x"]}`), []fixtures.SchemaFinding{fixtures.Unsupported("required", "/properties/p/required")}},
		{"items on an enum of strings", prop(`{"enum":["a","b"],"items":{"type":"string"}}`), []fixtures.SchemaFinding{fixtures.Unsupported("items", "/properties/p/items")}},
		{"properties on an enum of strings", prop(`{"enum":["a","b"],"properties":{"b":{"type":"string"}}}`), []fixtures.SchemaFinding{fixtures.Unsupported("properties", "/properties/p/properties")}},
		{"pattern on an enum of numbers", prop(`{"enum":[1,2],"pattern":"x"}`), []fixtures.SchemaFinding{fixtures.Unsupported("pattern", "/properties/p/pattern")}},
		{"minLength on an enum of booleans", prop(`{"enum":[true],"minLength":1}`), []fixtures.SchemaFinding{fixtures.Unsupported("minLength", "/properties/p/minLength")}},
		{"minimum on an items enum of strings", prop(`{"type":"array","items":{"enum":["a"],"minimum":1}}`), []fixtures.SchemaFinding{fixtures.Unsupported("minimum", "/properties/p/items/minimum")}},
		{"enum-only keywords that apply", prop(`{"enum":["a",null],"minLength":1,"pattern":"a"}`), nil},
		{"enum-only numeric bounds", prop(`{"enum":[1,2.5],"minimum":0,"maximum":3}`), nil},

		// Enforced keywords and their shapes.
		{"string constraints", prop(`{"type":"string","minLength":1,"maxLength":20,"pattern":"^[A-Z]{3}-\\d+$"}`), nil},
		{"numeric bounds", prop(`{"type":"number","minimum":0,"maximum":1}`), nil},
		{"minLength negative", prop(`{"type":"string","minLength":-1}`), []fixtures.SchemaFinding{fixtures.Malformed("minLength", "/properties/p/minLength")}},
		{"maxLength fractional", prop(`{"type":"string","maxLength":1.5}`), []fixtures.SchemaFinding{fixtures.Malformed("maxLength", "/properties/p/maxLength")}},
		{"maxLength 2.0 is an integer", prop(`{"type":"string","maxLength":2.0}`), nil},
		{"maxLength 1e18", prop(`{"type":"string","maxLength":1000000000000000000}`), nil},
		{"maxLength past int64", prop(`{"type":"string","maxLength":9223372036854775808}`), nil},
		{"minLength 1e30", prop(`{"type":"string","minLength":1e30}`), nil},
		{"minLength of twenty digits", prop(`{"type":"string","minLength":99999999999999999999}`), nil},
		{"maxLength a small fraction", prop(`{"type":"string","maxLength":1.5e-30}`), []fixtures.SchemaFinding{fixtures.Malformed("maxLength", "/properties/p/maxLength")}},
		{"maximum not a number", prop(`{"type":"number","maximum":"1"}`), []fixtures.SchemaFinding{fixtures.Malformed("maximum", "/properties/p/maximum")}},
		{"pattern not a string", prop(`{"type":"string","pattern":5}`), []fixtures.SchemaFinding{fixtures.Malformed("pattern", "/properties/p/pattern")}},
		{"pattern not a regular expression", prop(`{"type":"string","pattern":"([a-z"}`), []fixtures.SchemaFinding{fixtures.Malformed("pattern", "/properties/p/pattern")}},
		{"pattern with look-ahead", prop(`{"type":"string","pattern":"\\w+(?=\\d)"}`), []fixtures.SchemaFinding{fixtures.Unsupported("pattern", "/properties/p/pattern")}},
		{"pattern with look-aheads after its leading ^", prop(`{"type":"string","pattern":"^(?=.*\\d)(?!_)\\w+$"}`), nil},
		{"pattern with negative look-behind", prop(`{"type":"string","pattern":"(?<!x)y"}`), []fixtures.SchemaFinding{fixtures.Unsupported("pattern", "/properties/p/pattern")}},
		{"pattern with a back-reference", prop(`{"type":"string","pattern":"(a)\\1"}`), []fixtures.SchemaFinding{fixtures.Unsupported("pattern", "/properties/p/pattern")}},
		// pattern is ECMA-262, as in JSON Schema (and the JSON Schema profile).
		{"pattern with a \\u escape", prop(`{"type":"string","pattern":"^\\u0041$"}`), nil},
		{"pattern with a property escape", prop(`{"type":"string","pattern":"^\\p{Lu}\\p{Script=Greek}$"}`), nil},
		{"pattern past the automaton limit", prop(`{"type":"string","pattern":"a{1001}"}`), []fixtures.SchemaFinding{fixtures.Unsupported("limit", "/properties/p/pattern")}},
		{"pattern with a modifier group", prop(`{"type":"string","pattern":"(?i:x)"}`), []fixtures.SchemaFinding{fixtures.Unsupported("pattern", "/properties/p/pattern")}},
		{"Go's inline flags are not ECMA-262", prop(`{"type":"string","pattern":"(?i)x"}`), []fixtures.SchemaFinding{fixtures.Malformed("pattern", "/properties/p/pattern")}},
		{"Go's \\z is not ECMA-262", prop(`{"type":"string","pattern":"a\\z"}`), []fixtures.SchemaFinding{fixtures.Malformed("pattern", "/properties/p/pattern")}},
		{"Go's (?P<name>) is not ECMA-262", prop(`{"type":"string","pattern":"(?P<n>a)"}`), []fixtures.SchemaFinding{fixtures.Malformed("pattern", "/properties/p/pattern")}},
		{"required names", `{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]}`, nil},
		{"required not an array", `{"type":"object","properties":{"a":{"type":"string"}},"required":"a"}`, []fixtures.SchemaFinding{fixtures.Malformed("required", "/required")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.Compile(schema.OutputBindable, []byte(tc.schema))
			if tc.want == nil {
				require.Empty(t, res.Errors, "findings: %+v", res.Errors)
				require.NotNil(t, res.Schema)
				return
			}
			assert.Nil(t, res.Schema)
			assert.Equal(t, tc.want, fixtures.SchemaFindings(res.Errors))
			for _, f := range res.Errors {
				assert.NotEmpty(t, f.Message)
			}
		})
	}
}

// TestOutputBindableWarnings: keywords the runtime does not enforce are
// accepted, each reported as a warning with its schema path.
func TestOutputBindableWarnings(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.OutputBindable, []byte(`{"type":"object","title":"Receipt","additionalProperties":false,
		"properties":{
			"date":{"type":["string","null"],"format":"date","examples":["2026-11-30"]},
			"amount":{"type":"number","exclusiveMinimum":0,"default":0},
			"kind":{"type":"string","const":"receipt"},
			"tags":{"type":"array","items":{"type":"string","title":"tag"}}}}`))
	require.Empty(t, res.Errors)
	require.NotNil(t, res.Schema)
	assert.Equal(t, []fixtures.SchemaFinding{
		fixtures.Unsupported("title", "/title"),
		fixtures.Unsupported("additionalProperties", "/additionalProperties"),
		fixtures.Unsupported("format", "/properties/date/format"),
		fixtures.Unsupported("examples", "/properties/date/examples"),
		fixtures.Unsupported("exclusiveMinimum", "/properties/amount/exclusiveMinimum"),
		fixtures.Unsupported("default", "/properties/amount/default"),
		fixtures.Unsupported("const", "/properties/kind/const"),
		fixtures.Unsupported("title", "/properties/tags/items/title"),
	}, fixtures.SchemaFindings(res.Warnings))
	for _, w := range res.Warnings {
		assert.Contains(t, w.Message, "not enforced")
	}
	assert.Equal(t, schema.CodeNone, res.Code(), "warnings are not errors")
}

// TestToolInputHasNoWarnings: the tool input profile never accepts a keyword
// it does not enforce.
func TestToolInputHasNoWarnings(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.ToolInput, []byte(`{"type":"object","title":"t","properties":{"a":{"type":"string","format":"date"}}}`))
	assert.Empty(t, res.Warnings)
	assert.Equal(t, []fixtures.SchemaFinding{fixtures.Unsupported("title", "/title"), fixtures.Unsupported("format", "/properties/a/format")}, fixtures.SchemaFindings(res.Errors))
}
