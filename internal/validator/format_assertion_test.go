package validator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/testgen"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestFormatAssertionInEveryDialect: under format assertion, a format some
// dialect defines is asserted whichever dialect the schema names (draft-07
// "uuid", as zod-to-json-schema and the MCP TypeScript SDK write it, and
// draft-04 "date"), a name no dialect defines is UNSUPPORTED_CAPABILITY,
// and without assertion every format is an annotation.
func TestFormatAssertionInEveryDialect(t *testing.T) {
	t.Parallel()
	for _, d := range testgen.Dialects {
		for _, tc := range []struct{ format, valid, wrong string }{
			{"uuid", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "f81d4fae"},
			{"date", "2026-12-07", "07/12/2026"},
			{"email", "a@example.com", "a@"},
		} {
			text := []byte(`{"$schema":"` + string(d) + `","properties":{"v":{"type":"string","format":"` + tc.format + `"}}}`)
			asserted := schema.CompileWith(schema.JSONSchema, text, schema.Options{FormatAssertion: true})
			require.Empty(t, asserted.Errors, "%s %s", d, tc.format)
			assert.True(t, validator.Validate(asserted.Schema, []byte(`{"v":"`+tc.valid+`"}`), validator.Options{}).Valid(), "%s %s %q", d, tc.format, tc.valid)
			res := validator.Validate(asserted.Schema, []byte(`{"v":"`+tc.wrong+`"}`), validator.Options{})
			if assert.Len(t, res.Findings, 1, "%s %s %q", d, tc.format, tc.wrong) {
				assert.Equal(t, "format", res.Findings[0].Keyword)
			}
			annotation := schema.CompileWith(schema.JSONSchema, text, schema.Options{})
			require.Empty(t, annotation.Errors)
			assert.True(t, validator.Validate(annotation.Schema, []byte(`{"v":"`+tc.wrong+`"}`), validator.Options{}).Valid(), "%s %s: an annotation", d, tc.format)
		}
		unknown := schema.CompileWith(schema.JSONSchema, []byte(`{"$schema":"`+string(d)+`","properties":{"v":{"format":"int32"}}}`), schema.Options{FormatAssertion: true})
		if assert.Len(t, unknown.Errors, 1, d) {
			assert.Equal(t, schema.CodeUnsupported, unknown.Errors[0].Code)
			assert.Equal(t, "/properties/v/format", unknown.Errors[0].SchemaPath)
		}
	}
}
