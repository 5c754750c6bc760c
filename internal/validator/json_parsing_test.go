package validator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// repeatedNames are the suite's y_ documents with a member name twice:
// valid JSON (RFC 8259 §4: names SHOULD be unique), which the tokenizer
// reads, and arguments the validator refuses (DESIGN.md §3: duplicate keys
// are a "json" finding, since two readers would take different values).
var repeatedNames = map[string]bool{
	"y_object_duplicated_key.json":           true,
	"y_object_duplicated_key_and_value.json": true,
}

// TestJSONTestSuiteVerdicts runs JSONTestSuite's parsing corpus through a
// validator of the true schema (any document): a document toolgate accepts
// (every y_, and the i_ ones fixtures.ImplementationDefined accepts) is
// valid but for repeatedNames, and any other has exactly one finding,
// keyword "json", holding the tokenizer's reason; whole, one byte at a
// time and under StopAtFirst alike.
func TestJSONTestSuiteVerdicts(t *testing.T) {
	t.Parallel()
	compiled := schema.CompileWith(schema.JSONSchema, []byte(`true`), schema.Options{AnyDocument: true})
	require.Empty(t, compiled.Errors)
	for _, c := range fixtures.JSONTestSuite(t) {
		whole := validator.Validate(compiled.Schema, c.Doc, validator.Options{})
		if repeatedNames[c.Name] {
			c.Accept, c.Error = false, "more than once"
		}
		if c.Accept {
			assert.True(t, whole.Valid(), "%s: %s", c.Name, diffFindings(whole.Findings))
		} else if assert.Len(t, whole.Findings, 1, c.Name) {
			assert.Equal(t, "json", whole.Findings[0].Keyword, c.Name)
			assert.Contains(t, whole.Findings[0].Message, c.Error, c.Name)
		}
		ones := make([]int, len(c.Doc))
		for i := range ones {
			ones[i] = 1
		}
		for _, opts := range []validator.Options{{}, {StopAtFirst: true}} {
			got := diffFeed(compiled.Schema, opts, c.Doc, ones)
			assert.Equal(t, fixtures.Stable(whole.Findings), fixtures.Stable(got.Findings), "%s one byte at a time, StopAtFirst %v", c.Name, opts.StopAtFirst)
		}
	}
}
