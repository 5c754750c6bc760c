package validator_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestClassRangeEnds checks, through the JSON Schema profile, the class
// ranges with a class escape for an end: one with \d \D \s \S \w or \W is
// read as Annex B reads it ([\w-.] is \w, - and .), so it is a valid
// format "regex" and compiles as a pattern; one with \p{…} or \P{…} is
// malformed in every dialect (V8 refuses it with the u flag, and without
// it \p is p), so format "regex" fails it and a pattern holding it is
// refused with VALIDATION, as every malformed pattern is.
func TestClassRangeEnds(t *testing.T) {
	t.Parallel()
	compiled := schema.CompileWith(schema.JSONSchema, []byte(`{"format":"regex"}`), schema.Options{AnyDocument: true, FormatAssertion: true})
	require.Empty(t, compiled.Errors)
	regex := compiled.Schema
	for _, c := range []struct {
		expr  string
		valid bool
	}{
		{`[\w-.]`, true},
		{`[\d-z]`, true},
		{`[a-\w]`, true},
		{`[\s-\D]`, true},
		{`[\p{L}-]`, true},
		{`[-\p{L}]`, true},
		{`[\p{L}\-z]`, true},
		{`[\p{L}-z]`, false},
		{`[\p{L}-\p{N}]`, false},
		{`[\P{L}-z]`, false},
		{`[a-\p{L}]`, false},
		{`[\p{L}-\d]`, false},
		{`[\w-\P{Lu}]`, false},
	} {
		t.Run(c.expr, func(t *testing.T) {
			t.Parallel()
			text, err := json.Marshal(c.expr)
			require.NoError(t, err)
			assert.Equal(t, c.valid, validator.Validate(regex, text, validator.Options{}).Valid(), `format "regex"`)

			res := schema.CompileWith(schema.JSONSchema, []byte(`{"pattern":`+string(text)+`,"patternProperties":{`+string(text)+`:true}}`), schema.Options{AnyDocument: true})
			if c.valid {
				assert.Empty(t, res.Errors)
				return
			}
			require.Len(t, res.Errors, 2, "%v", res.Errors)
			for i, path := range []string{"/pattern", "/patternProperties/" + c.expr} {
				f := res.Errors[i]
				assert.Equal(t, schema.CodeValidation, f.Code, f.Message)
				assert.Equal(t, "pattern", f.Keyword)
				assert.Equal(t, path, f.SchemaPath)
				assert.Contains(t, f.Message, "with a property escape for an end")
			}
		})
	}
}
