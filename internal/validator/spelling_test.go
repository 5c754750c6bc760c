package validator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/validator"
)

// TestAdditionalPropertiesSpellingPath: the tool input profile takes
// additionalProperties also spelled additional_properties (DESIGN.md §3).
// A finding keeps the rule's name, additionalProperties, as its keyword,
// but its schema path is a pointer into the schema (§2), so it names the
// member the schema has: "/additionalProperties" resolves nowhere in a
// schema that spells it the other way. Checked whole and fed one byte at a
// time, stopping at the first finding as a stream does.
func TestAdditionalPropertiesSpellingPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema, doc string
		want              violation
	}{
		{"root, camel case", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, `{"b":1}`,
			violation{"additionalProperties", "/additionalProperties", ""}},
		{"root, snake case", `{"type":"object","properties":{"a":{"type":"string"}},"additional_properties":false}`, `{"b":1}`,
			violation{"additionalProperties", "/additional_properties", ""}},
		{"nested, snake case", `{"type":"object","properties":{"o":{"type":"object","additional_properties":false}}}`, `{"o":{"x":1}}`,
			violation{"additionalProperties", "/properties/o/additional_properties", "/o"}},
		{"array item, snake case", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"k":{"type":"integer"}},"additional_properties":false}}}}`, `{"l":[{"k":1},{"j":2}]}`,
			violation{"additionalProperties", "/properties/l/items/additional_properties", "/l/1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := compile(t, tc.schema)
			res := validator.Validate(s, []byte(tc.doc), validator.Options{})
			assert.Equal(t, []violation{tc.want}, stable(res.Findings), "whole")
			v := validator.New(s, validator.Options{StopAtFirst: true})
			for i := range len(tc.doc) {
				v.Write([]byte{tc.doc[i]})
			}
			assert.Equal(t, []violation{tc.want}, stable(v.Close().Findings), "one byte at a time")
		})
	}
}
