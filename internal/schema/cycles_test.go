package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/schema"
)

// TestReferenceCyclesThatConsumeNoInput: a schema that applies itself to
// the same value through in-place applicators (DESIGN §8: "$ref cycles
// that consume no input") is VALIDATION at the $ref; one that reaches
// itself only through a member or an element consumes input and compiles.
// then and else apply nothing without an if (the specification ignores
// them, and so does the validator), so a cycle through them alone is no
// cycle.
func TestReferenceCyclesThatConsumeNoInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema string
		cycle        bool
	}{
		{"itself", `{"$ref":"#"}`, true},
		{"through allOf", `{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, true},
		{"through not", `{"not":{"$ref":"#"}}`, true},
		{"through if", `{"if":{"$ref":"#"}}`, true},
		{"through then beside an if", `{"if":true,"then":{"$ref":"#"}}`, true},
		{"through then without an if", `{"then":{"$ref":"#"}}`, false},
		{"through else without an if", `{"else":{"$ref":"#"}}`, false},
		{"through a member", `{"properties":{"a":{"$ref":"#"}}}`, false},
		{"through an element", `{"properties":{"l":{"items":{"$ref":"#/properties/l"}}}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.Compile(schema.JSONSchema, []byte(tc.schema))
			if !tc.cycle {
				assert.Empty(t, res.Errors)
				return
			}
			if assert.Len(t, res.Errors, 1) {
				assert.Equal(t, schema.CodeValidation, res.Errors[0].Code)
				assert.Equal(t, "$ref", res.Errors[0].Keyword)
				assert.Contains(t, res.Errors[0].Message, "consume no input")
			}
		})
	}
}
