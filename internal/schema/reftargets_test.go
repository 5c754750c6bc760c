package schema_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestReferencedPlacesAreMetaChecked: a place that a $ref compiles as a
// schema, though no meta-schema check reached it as one (the value of an
// unknown keyword, a keyword's map of subschemas, an enum value, draft-07's
// $defs, an unknown keyword of a supplied document), is checked as a
// schema of its dialect: a malformed keyword there is VALIDATION at its
// place, once, where before it compiled and was dropped.
func TestReferencedPlacesAreMetaChecked(t *testing.T) {
	t.Parallel()
	const doc = `{"x":{"minimum":"zz"}}`
	for _, tc := range []struct {
		name, schema, path string
	}{
		{"an unknown keyword", `{"properties":{"x":{"$ref":"#/unknownKw"}},"unknownKw":{"type":"integer","minimum":"zz"}}`, "/unknownKw/minimum"},
		{"properties, with type", `{"$ref":"#/properties","properties":{"type":{"type":"integer"}}}`, "/properties/type"},
		{"properties, with required", `{"$ref":"#/properties","properties":{"required":{"type":"integer"}}}`, "/properties/required"},
		{"a nested properties", `{"$ref":"#/$defs/x/properties","$defs":{"x":{"properties":{"pattern":{"minimum":1}}}}}`, "/$defs/x/properties/pattern"},
		{"deep under an unknown keyword", `{"$ref":"#/components/schemas/Pet","components":{"schemas":{"Pet":{"properties":{"a":{"minimum":"x"}}}}}}`,
			"/components/schemas/Pet/properties/a/minimum"},
		{"an enum value", `{"$ref":"#/enum/0","enum":[{"minimum":"zz"}]}`, "/enum/0/minimum"},
		{"draft-07 $defs", `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/$defs/a","$defs":{"a":{"type":"bogus"}}}`, "/$defs/a/type"},
		{"under a place checked already, once", `{"properties":{"a":{"$ref":"#/x"},"b":{"$ref":"#/x/properties/c"},"d":{"$ref":"#/x/properties/c/not"}},` +
			`"x":{"properties":{"c":{"not":{"minimum":"zz"}}}}}`, "/x/properties/c/not/minimum"},
		{"a supplied document", `{"properties":{"a":{"$ref":"http://m.example/doc#/x"}}}`, "http://m.example/doc#/x/minimum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.CompileWith(schema.JSONSchema, []byte(tc.schema), schema.Options{Resources: map[string][]byte{"http://m.example/doc": []byte(doc)}})
			require.Len(t, res.Errors, 1, "%v", res.Errors)
			assert.Equal(t, schema.CodeValidation, res.Errors[0].Code)
			assert.Equal(t, tc.path, res.Errors[0].SchemaPath)
		})
	}
}

// TestWellFormedReferencedPlacesCompile: a well-formed schema in such a
// place compiles, as before, and applies where a $ref names it.
func TestWellFormedReferencedPlacesCompile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		schema, valid, invalid string
	}{
		{`{"properties":{"x":{"$ref":"#/unknownKw"}},"unknownKw":{"type":"integer","minimum":3}}`, `{"x":3}`, `{"x":2}`},
		{`{"$ref":"#/properties","properties":{"foo":{"type":"integer"}}}`, `{}`, `{"foo":"s"}`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`, `{"x":"s"}`, `{"x":1}`},
	} {
		res := schema.Compile(schema.JSONSchema, []byte(tc.schema))
		require.Empty(t, res.Errors, tc.schema)
		assert.True(t, validator.Validate(res.Schema, []byte(tc.valid), validator.Options{}).Valid(), tc.schema)
		assert.False(t, validator.Validate(res.Schema, []byte(tc.invalid), validator.Options{}).Valid(), tc.schema)
	}
}

// TestNestedReferencedPlacesAreBounded: places that references name and
// that nest in one another under unknown keywords are each checked whole,
// so together they may hold a bounded multiple of the schema's bytes: 100
// of them around a 50 KB value are refused as a limit
// (UNSUPPORTED_CAPABILITY) instead of costing 100 checks of it; five
// compile.
func TestNestedReferencedPlacesAreBounded(t *testing.T) {
	t.Parallel()
	nested := func(depth int) []byte {
		var refs, open []string
		path := ""
		for i := range depth {
			path += fmt.Sprintf("/u%d", i)
			refs = append(refs, fmt.Sprintf(`"p%d":{"$ref":"#%s"}`, i, path))
			open = append(open, fmt.Sprintf(`"u%d":{"type":"object",`, i))
		}
		return []byte(`{"properties":{` + strings.Join(refs, ",") + `},` + strings.Join(open, "") +
			`"big":"` + strings.Repeat("a", 50_000) + `"` + strings.Repeat("}", depth) + "}")
	}
	res := schema.Compile(schema.JSONSchema, nested(100))
	require.Len(t, res.Errors, 1, "%v", res.Errors)
	assert.Equal(t, schema.CodeUnsupported, res.Errors[0].Code)
	assert.Equal(t, "limit", res.Errors[0].Keyword)
	ok := schema.Compile(schema.JSONSchema, nested(5))
	assert.Empty(t, ok.Errors)
}
