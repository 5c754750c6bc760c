package validator_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/testgen"
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
