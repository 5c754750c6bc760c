package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/schema"
)

// TestWarningWhenTheSchemaConstrainsNothing: a schema that names no type
// and that every object satisfies compiles with a warning (keyword
// "schema"), so that a client that sent an empty Struct sees it in the
// answer (issue 13); a tool without parameters, which says "type":
// "object", gets none.
func TestWarningWhenTheSchemaConstrainsNothing(t *testing.T) {
	for _, c := range []struct {
		p    schema.Profile
		s    string
		warn bool
	}{
		{schema.ToolInput, `{}`, true}, {schema.ToolInput, `{"description":"x","properties":{}}`, true},
		// A tool without parameters says so: no warning.
		{schema.ToolInput, `{"type":"object"}`, false}, {schema.ToolInput, `{"type":"object","description":"x","properties":{}}`, false},
		{schema.ToolInput, `{"type":"object","properties":{"a":{"type":"string"}}}`, false},
		{schema.JSONSchema, `{}`, true}, {schema.JSONSchema, `true`, true}, {schema.JSONSchema, `{"allOf":[{},{"type":"object"}]}`, true},
		{schema.JSONSchema, `{"type":"object","$schema":"http://json-schema.org/draft-07/schema#"}`, false},
		{schema.JSONSchema, `{"required":["a"]}`, false}, {schema.JSONSchema, `{"not":{"required":["a"]}}`, false},
	} {
		res := schema.Compile(c.p, []byte(c.s))
		assert.Empty(t, res.Errors, c.s)
		found := false
		for _, w := range res.Warnings {
			if w.Keyword == "schema" {
				found = true
			}
		}
		assert.Equal(t, c.warn, found, "%s %+v", c.s, res.Warnings)
	}
}
