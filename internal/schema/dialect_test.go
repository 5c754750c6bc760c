package schema_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestOlderDialects checks what draft-06 and draft-04 change from
// draft-07, each against the same schema written in the dialect that has
// the other meaning: a keyword the older dialect does not define is
// ignored with a warning, draft-04's boolean exclusiveMaximum makes
// maximum exclusive, its identifier is id, and it has no boolean schemas.
func TestOlderDialects(t *testing.T) {
	t.Parallel()
	const (
		d7 = `"$schema":"http://json-schema.org/draft-07/schema#"`
		d6 = `"$schema":"http://json-schema.org/draft-06/schema#"`
		d4 = `"$schema":"http://json-schema.org/draft-04/schema#"`
	)
	for _, tc := range []struct {
		name, schema string
		warns        string // the keyword warned of as unknown, or ""
		valid        []string
		invalid      []string
	}{
		{"if in draft-07", `{` + d7 + `,"if":{"required":["a"]},"then":{"required":["b"]}}`, "",
			[]string{`{}`, `{"a":1,"b":2}`}, []string{`{"a":1}`}},
		{"if in draft-06", `{` + d6 + `,"if":{"required":["a"]},"then":{"required":["b"]}}`, "if",
			[]string{`{}`, `{"a":1}`}, nil},
		{"const in draft-06", `{` + d6 + `,"properties":{"a":{"const":1}}}`, "",
			[]string{`{"a":1}`}, []string{`{"a":2}`}},
		{"const in draft-04", `{` + d4 + `,"properties":{"a":{"const":1}}}`, "const",
			[]string{`{"a":1}`, `{"a":2}`}, nil},
		{"propertyNames in draft-04", `{` + d4 + `,"propertyNames":{"maxLength":1}}`, "propertyNames",
			[]string{`{"long":1}`}, nil},
		{"numeric exclusiveMaximum in draft-06", `{` + d6 + `,"properties":{"n":{"exclusiveMaximum":5}}}`, "",
			[]string{`{"n":4.9}`}, []string{`{"n":5}`}},
		{"boolean exclusiveMaximum in draft-04", `{` + d4 + `,"properties":{"n":{"maximum":5,"exclusiveMaximum":true}}}`, "",
			[]string{`{"n":4.9}`}, []string{`{"n":5}`, `{"n":6}`}},
		{"false exclusiveMinimum in draft-04", `{` + d4 + `,"properties":{"n":{"minimum":5,"exclusiveMinimum":false}}}`, "",
			[]string{`{"n":5}`}, []string{`{"n":4}`}},
		{"id in draft-04", `{` + d4 + `,"id":"http://example.com/root.json","properties":{"a":{"$ref":"item.json"}},` +
			`"definitions":{"x":{"id":"item.json","type":"string"}}}`, "",
			[]string{`{"a":"s"}`}, []string{`{"a":1}`}},
		{"$id in draft-04", `{` + d4 + `,"$id":"http://example.com/root.json"}`, "$id", []string{`{}`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.CompileWith(schema.JSONSchema, []byte(tc.schema), schema.Options{})
			require.Empty(t, res.Errors)
			warned := slices.IndexFunc(res.Warnings, func(f schema.Finding) bool { return f.Keyword == tc.warns })
			if tc.warns == "" {
				assert.Empty(t, res.Warnings)
			} else {
				assert.GreaterOrEqual(t, warned, 0, "%+v", res.Warnings)
			}
			for _, doc := range tc.valid {
				assert.True(t, validator.Validate(res.Schema, []byte(doc), validator.Options{}).Valid(), doc)
			}
			for _, doc := range tc.invalid {
				assert.False(t, validator.Validate(res.Schema, []byte(doc), validator.Options{}).Valid(), doc)
			}
		})
	}

	// Malformed in draft-04, and only there.
	for _, bad := range []string{
		`{` + d4 + `,"properties":{"a":true}}`,                   // no boolean schemas
		`{` + d4 + `,"properties":{"n":{"exclusiveMaximum":5}}}`, // a boolean, with maximum
		`{` + d4 + `,"properties":{"n":{"exclusiveMaximum":true}}}`,
	} {
		res := schema.CompileWith(schema.JSONSchema, []byte(bad), schema.Options{})
		require.NotEmpty(t, res.Errors, bad)
		assert.Equal(t, schema.CodeValidation, res.Errors[0].Code, bad)
	}
	ok := schema.CompileWith(schema.JSONSchema, []byte(`{`+d6+`,"properties":{"a":true}}`), schema.Options{})
	assert.Empty(t, ok.Errors, "draft-06 has boolean schemas")

	// A $schema in a subschema that is not a resource (no identifier)
	// changes nothing: under 2020-12 the $ref beside it does not hide its
	// siblings, so the $id under them is found.
	inner := schema.CompileWith(schema.JSONSchema, []byte(`{"properties":{"a":{`+d7+`,"$ref":"#/$defs/s",`+
		`"properties":{"b":{"$id":"http://example.com/b","type":"string"}}},"c":{"$ref":"http://example.com/b"}},"$defs":{"s":{}}}`), schema.Options{})
	require.Empty(t, inner.Errors)
	assert.False(t, validator.Validate(inner.Schema, []byte(`{"c":1}`), validator.Options{}).Valid())
}
