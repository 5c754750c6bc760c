package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// Custom meta-schemas that declare vocabularies without the allOf of
// their meta-schemas that the official ones hold, and one that declares
// none.
const (
	meta2020 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"http://m.example/meta",` +
		`"$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://json-schema.org/draft/2020-12/vocab/applicator":true,` +
		`"https://json-schema.org/draft/2020-12/vocab/validation":true}}`
	meta2020NoValidation = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"http://m.example/meta",` +
		`"$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://json-schema.org/draft/2020-12/vocab/applicator":true}}`
	meta2019 = `{"$schema":"https://json-schema.org/draft/2019-09/schema","$id":"http://m.example/meta",` +
		`"$vocabulary":{"https://json-schema.org/draft/2019-09/vocab/core":true,"https://json-schema.org/draft/2019-09/vocab/applicator":true,` +
		`"https://json-schema.org/draft/2019-09/vocab/validation":true}}`
	metaNoVocabulary  = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"http://m.example/meta"}`
	metaOfficialStyle = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"http://m.example/meta","$dynamicAnchor":"meta",` +
		`"$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://json-schema.org/draft/2020-12/vocab/applicator":true,` +
		`"https://json-schema.org/draft/2020-12/vocab/validation":true},` +
		`"allOf":[{"$ref":"https://json-schema.org/draft/2020-12/meta/core"},{"$ref":"https://json-schema.org/draft/2020-12/meta/applicator"},` +
		`{"$ref":"https://json-schema.org/draft/2020-12/meta/validation"}]}`
)

// TestDeclaredVocabulariesAreWellFormed: under a custom meta-schema, a
// keyword of a vocabulary it declares has the value that vocabulary
// defines, at any depth, though the meta-schema's own text checks
// nothing: "minimum": "zz" is VALIDATION at its place, where before it
// compiled and was dropped. A meta-schema without $vocabulary puts every
// vocabulary in effect, so its dialect's meta-schema applies. A
// violation that the meta-schema reports as well is one finding.
func TestDeclaredVocabulariesAreWellFormed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, meta, schema, path string
	}{
		{"2020-12 minimum", meta2020, `{"properties":{"a":{"minimum":"zz"}}}`, "/properties/a/minimum"},
		{"2020-12 deep in $defs", meta2020, `{"$defs":{"a":{"items":{"anyOf":[{"minLength":-1}]}}}}`, "/$defs/a/items/anyOf/0/minLength"},
		{"2020-12 definitions", meta2020, `{"definitions":{"a":{"required":"a"}}}`, "/definitions/a/required"},
		{"2020-12 dependencies", meta2020, `{"dependencies":{"a":{"type":5}}}`, "/dependencies/a/type"},
		{"2019-09 maxItems", meta2019, `{"properties":{"a":{"items":[{"maxItems":"x"}]}}}`, "/properties/a/items/0/maxItems"},
		{"no $vocabulary", metaNoVocabulary, `{"properties":{"a":{"minimum":"zz"}}}`, "/properties/a/minimum"},
		{"an official-style meta-schema, once", metaOfficialStyle, `{"properties":{"a":{"minimum":"zz"}}}`, "/properties/a/minimum"},
		{"an embedded resource's", meta2020, `{"$defs":{"r":{"$id":"http://x.example/r","minimum":"zz"}}}`, "/$defs/r/minimum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.CompileWith(schema.JSONSchema, []byte(`{"$schema":"http://m.example/meta",`+tc.schema[1:]),
				schema.Options{Resources: map[string][]byte{"http://m.example/meta": []byte(tc.meta)}})
			require.Len(t, res.Errors, 1, "%v", res.Errors)
			assert.Equal(t, schema.CodeValidation, res.Errors[0].Code)
			assert.Equal(t, tc.path, res.Errors[0].SchemaPath)
		})
	}
}

// TestVocabulariesNotInEffectStayUnchecked: a keyword of a vocabulary the
// meta-schema leaves out is not in effect, so its value is not checked
// (and it is warned of, as ignored), in the schema and in a resource
// embedded in it without a $schema of its own, which is written in the
// same vocabularies: before, that resource enforced every vocabulary.
func TestVocabulariesNotInEffectStayUnchecked(t *testing.T) {
	t.Parallel()
	opts := schema.Options{Resources: map[string][]byte{"http://m.example/meta": []byte(meta2020NoValidation)}}
	res := schema.CompileWith(schema.JSONSchema, []byte(`{"$schema":"http://m.example/meta","properties":{"a":{"minimum":"zz"}}}`), opts)
	require.Empty(t, res.Errors)
	assert.NotEmpty(t, res.Warnings)

	res = schema.CompileWith(schema.JSONSchema, []byte(`{"$schema":"http://m.example/meta","$defs":{"r":{"$id":"http://x.example/r","type":"integer"}},`+
		`"properties":{"a":{"$ref":"http://x.example/r"}}}`), opts)
	require.Empty(t, res.Errors)
	assert.True(t, validator.Validate(res.Schema, []byte(`{"a":"s"}`), validator.Options{}).Valid(), "type is not in effect")
}
