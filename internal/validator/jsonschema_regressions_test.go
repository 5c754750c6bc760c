package validator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/testgen"
	"github.com/toolgate/toolgate/internal/validator"
)

// jsRegressions are minimal cases reduced from what the JSON Schema
// differential and early rejection tests found (found: where), checked
// like diffRegressions: first is the first byte no valid document could
// follow, or -1 for valid arguments.
var jsRegressions = []struct {
	name, found      string
	schema, instance string
	first            int64
}{
	{
		name:     "a bare $ref branch is decided when its target is, not at the value's first byte",
		found:    "TestJSONSchemaDifferential seeds 334, 755, 1304: StopAtFirst stopped after the earliest finding",
		schema:   `{"oneOf":[{"$ref":"#/$defs/a"},{"type":"object"}],"$defs":{"a":{"type":"object","properties":{"x":true}}}}`,
		instance: `{"b":1}`,
		first:    6,
	},
	{
		name:     "a closed object refuses a name only required lists at its first impossible byte",
		found:    "TestEarlyRejectionIsExact seeds 1000023, 1000046",
		schema:   `{"additionalProperties":false,"properties":{"a":true},"required":["abc"]}`,
		instance: `{"abc":1}`,
		first:    3,
	},
	{
		name:     "a closed object refuses a name only dependentRequired lists at its first impossible byte",
		found:    "TestEarlyRejectionIsExact seed 1000042",
		schema:   `{"additionalProperties":false,"properties":{"a":true},"dependentRequired":{"a":["zz"]}}`,
		instance: `{"a":1,"zz":2}`,
		first:    8,
	},
	{
		name:     "a number const with no negative choice refuses a minus sign",
		found:    "TestEarlyRejectionIsExact seed 1000031",
		schema:   `{"properties":{"n":{"const":100}}}`,
		instance: `{"n":-100}`,
		first:    5,
	},
	{
		name:     "-0 is zero, so a zero choice keeps a minus sign alive",
		found:    "by hand, beside seed 1000031",
		schema:   `{"properties":{"n":{"enum":[0,5]}}}`,
		instance: `{"n":-0}`,
		first:    -1,
	},
	{
		name:     "a minus sign and a digit no negative choice has",
		found:    "by hand, beside seed 1000031",
		schema:   `{"properties":{"n":{"enum":[0,5]}}}`,
		instance: `{"n":-5}`,
		first:    6,
	},
	{
		name:     "a bound held back to the number's end still decides before the number's type",
		found:    "TestJSONSchemaDifferential seed 405458: a full validation's anyOf failed at the type, StopAtFirst's at the bound",
		schema:   `{"$defs":{"n":{"type":"integer","minimum":0}},"properties":{"b":{"$ref":"#/$defs/n"}},"anyOf":[{"properties":{"b":{"$ref":"#/$defs/n"}}}]}`,
		instance: `{"b":-1.5}`,
		first:    6,
	},
	{
		name:     "a maxLength held back to the string's end still decides before the enum",
		found:    "by hand, beside seed 405458",
		schema:   `{"$defs":{"n":{"type":"string","maxLength":1,"enum":["a","abc"]}},"properties":{"b":{"$ref":"#/$defs/n"}},"anyOf":[{"properties":{"b":{"$ref":"#/$defs/n"}}}]}`,
		instance: `{"b":"ab"}`,
		first:    7,
	},
	{
		name:     "a name held back to its closing quote still decides before a propertyNames failure",
		found:    "TestJSONSchemaDifferential seed 1003269 of -jsdiff.seed 1000000",
		schema:   `{"type":"object","$defs":{"i":{"additionalProperties":false,"propertyNames":{"maxLength":1}}},"allOf":[{"$ref":"#/$defs/i"}],"anyOf":[{"$ref":"#/$defs/i"},{"type":"null"}]}`,
		instance: `{"ab":1}`,
		first:    1, // the opening quote: the closed object allows no name
	},
	{
		name:     "a maxLength held back decides before an anyOf that fails at the string's end",
		found:    "by hand, beside seed 1003269 (endString applies held-back violations first)",
		schema:   `{"$defs":{"s":{"maxLength":1,"anyOf":[{"enum":["abc"]}]}},"properties":{"s":{"$ref":"#/$defs/s"}},"oneOf":[{"properties":{"s":{"$ref":"#/$defs/s"}}},{"type":"null"}]}`,
		instance: `{"s":"ab"}`,
		first:    7,
	},
}

func TestJSONSchemaRegressions(t *testing.T) {
	t.Parallel()
	for _, c := range jsRegressions {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			compiled := schema.CompileWith(schema.JSONSchema, []byte(c.schema), schema.Options{})
			require.Empty(t, compiled.Errors)
			oracle, err := jsOracle([]byte(c.schema), testgen.Draft2020)
			require.NoError(t, err)
			diffCheckRegression(t, compiled.Schema, oracle, jsDiffExceptionFor, []byte(c.instance), c.first)
		})
	}
}

// TestClosedObjectNamesOnlyDeclaredNames checks the message of a name a
// closed object refuses: the allowed names are those properties
// declares, not those required or dependentRequired also mention.
func TestClosedObjectNamesOnlyDeclaredNames(t *testing.T) {
	t.Parallel()
	compiled := schema.CompileWith(schema.JSONSchema,
		[]byte(`{"additionalProperties":false,"properties":{"b":true,"a":true},"required":["abc"],"dependentRequired":{"a":["zz"]}}`), schema.Options{})
	require.Empty(t, compiled.Errors)
	res := validator.Validate(compiled.Schema, []byte(`{"x":1}`), validator.Options{})
	require.Len(t, res.Findings, 2, "%s", diffFindings(res.Findings))
	assert.Equal(t, "additionalProperties", res.Findings[0].Keyword)
	assert.Contains(t, res.Findings[0].Message, `allowed properties are "a", "b".`)
}
