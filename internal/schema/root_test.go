package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
)

// TestRootThatAcceptsNoObject: tool arguments are always one object, so a
// JSON Schema profile root whose type, enum or const leaves no object
// possible would refuse every call; it is unsupported at the keyword that
// excludes objects, its own or an in-place applicator's ($ref, allOf,
// every anyOf or oneOf branch, both then and else) whose subschemas
// exclude objects. A root with one object choice among others compiles,
// and so does any root when the document need not be an object (the
// conformance suite's). The tool input profile refuses a root type other
// than object (DESIGN.md §3), but its root enum, which seed 000 says
// "works on object roots", narrows the object type as any enum does, and
// "an empty enum rejects every supplied value": one with no object choice
// compiles and rejects every call as a VALIDATION finding.
func TestRootThatAcceptsNoObject(t *testing.T) {
	for _, c := range []struct {
		name    string
		profile schema.Profile
		schema  string
		want    []fixtures.SchemaFinding
	}{
		{"enum of numbers", schema.ToolInput, `{"enum":[1,2]}`, nil},
		{"object type, enum of a number", schema.ToolInput, `{"type":"object","enum":[1]}`, nil},
		{"object type, empty enum", schema.ToolInput, `{"type":"object","enum":[]}`, nil},
		{"enum with an array", schema.ToolInput, `{"enum":[[1]]}`, nil},
		{"root type string", schema.ToolInput, `{"type":"string"}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "/type")}},
		{"enum with an object", schema.ToolInput, `{"enum":[{"a":1},2]}`, nil},
		{"enum below the root", schema.ToolInput, `{"type":"object","properties":{"a":{"type":"string","enum":[1]}}}`, nil},

		{"type string", schema.JSONSchema, `{"type":"string"}`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "")}},
		{"false", schema.JSONSchema, `false`, []fixtures.SchemaFinding{fixtures.Unsupported("type", "")}},
		{"enum of numbers", schema.JSONSchema, `{"enum":[1,2]}`, []fixtures.SchemaFinding{fixtures.Unsupported("enum", "/enum")}},
		{"empty enum", schema.JSONSchema, `{"enum":[]}`, []fixtures.SchemaFinding{fixtures.Unsupported("enum", "/enum")}},
		{"const string", schema.JSONSchema, `{"const":"x"}`, []fixtures.SchemaFinding{fixtures.Unsupported("const", "/const")}},
		{"const array", schema.JSONSchema, `{"type":["object","array"],"const":[]}`, []fixtures.SchemaFinding{fixtures.Unsupported("const", "/const")}},
		{"const object", schema.JSONSchema, `{"const":{"a":1}}`, nil},
		{"enum with an object", schema.JSONSchema, `{"enum":["x",{}]}`, nil},
		{"enum below the root", schema.JSONSchema, `{"properties":{"a":{"enum":[]}}}`, nil},

		{"$ref to an array schema", schema.JSONSchema, `{"$ref":"#/$defs/a","$defs":{"a":{"type":"array"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("$ref", "/$ref")}},
		{"$ref to a $ref to a const", schema.JSONSchema, `{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"const":3}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("$ref", "/$ref")}},
		{"draft-07 $ref to false", schema.JSONSchema, `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","definitions":{"a":false}}`, []fixtures.SchemaFinding{fixtures.Unsupported("$ref", "/$ref")}},
		{"$ref to an object schema", schema.JSONSchema, `{"$ref":"#/$defs/a","$defs":{"a":{"type":["object","null"]}}}`, nil},
		{"allOf with a string schema", schema.JSONSchema, `{"allOf":[{"type":"object"},{"allOf":[{"type":"string"}]}]}`, []fixtures.SchemaFinding{fixtures.Unsupported("allOf", "/allOf/1")}},
		{"anyOf without an object branch", schema.JSONSchema, `{"anyOf":[{"type":"string"},{"enum":[1]},false]}`, []fixtures.SchemaFinding{fixtures.Unsupported("anyOf", "/anyOf")}},
		{"anyOf with an object branch", schema.JSONSchema, `{"anyOf":[{"type":"string"},{"allOf":[true]}]}`, nil},
		{"oneOf without an object branch", schema.JSONSchema, `{"oneOf":[{"type":"array"},{"$ref":"#/$defs/n"}],"$defs":{"n":{"type":"null"}}}`, []fixtures.SchemaFinding{fixtures.Unsupported("oneOf", "/oneOf")}},
		{"then and else without an object", schema.JSONSchema, `{"if":{"required":["a"]},"then":{"type":"array"},"else":false}`, []fixtures.SchemaFinding{fixtures.Unsupported("if", "/if")}},
		{"then without an object, no else", schema.JSONSchema, `{"if":{"required":["a"]},"then":{"type":"array"}}`, nil},
		{"not is not followed", schema.JSONSchema, `{"not":{"type":"object"}}`, nil},
	} {
		res := schema.Compile(c.profile, []byte(c.schema))
		assert.ElementsMatch(t, c.want, fixtures.SchemaFindings(res.Errors), "%s: %s", c.profile, c.name)
	}
	for s, why := range map[string]string{
		`{"$ref":"#/$defs/a","$defs":{"a":{"type":"array"}}}`:                   "no object satisfies its $ref",
		`{"oneOf":[{"type":"string"},{"type":"null"}]}`:                         "no oneOf branch accepts an object",
		`{"if":{"required":["a"]},"then":{"type":"array"},"else":{"enum":[1]}}`: "neither its then nor its else accepts an object",
	} {
		res := schema.Compile(schema.JSONSchema, []byte(s))
		if assert.Len(t, res.Errors, 1, s) {
			assert.Equal(t, "The root schema must accept a JSON object: tool arguments are always one object, and "+why+", so every call would be refused.", res.Errors[0].Message)
		}
	}
	for _, s := range []string{`{"enum":[1,2]}`, `{"const":"x"}`, `{"type":"string"}`} {
		res := schema.CompileWith(schema.JSONSchema, []byte(s), schema.Options{AnyDocument: true})
		assert.Empty(t, res.Errors, "any document: %s", s)
	}
}
