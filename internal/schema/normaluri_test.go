package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestAbsoluteURIsLoseTheirDotSegments: an absolute $id, $ref, $schema or
// resource key names the document that it names without its dot
// segments (RFC 3986 §5.2.2), as a relative one always did, and with its
// scheme in lower case, as a resolved reference always was. Before, each
// absolute one kept them, and a $ref to the document it named was
// UNSUPPORTED_CAPABILITY ("a document this request does not supply").
func TestAbsoluteURIsLoseTheirDotSegments(t *testing.T) {
	t.Parallel()
	integer := map[string][]byte{"http://x.example/a/c": []byte(`{"type":"integer"}`)}
	for _, tc := range []struct {
		name, schema string
		resources    map[string][]byte
	}{
		{"absolute $id with ..", `{"$id":"http://x.example/a/b/../c","$defs":{"i":{"type":"integer"}},"properties":{"x":{"$ref":"http://x.example/a/c#/$defs/i"}}}`, nil},
		{"absolute $id with .", `{"$id":"http://x.example/a/./c","$defs":{"i":{"type":"integer"}},"properties":{"x":{"$ref":"http://x.example/a/c#/$defs/i"}}}`, nil},
		{"absolute $ref with .. to an $id", `{"$id":"http://x.example/a/c","$defs":{"i":{"type":"integer"}},"properties":{"x":{"$ref":"http://x.example/a/b/../c#/$defs/i"}}}`, nil},
		{"absolute $ref with ..", `{"properties":{"x":{"$ref":"http://x.example/a/b/../c"}}}`, integer},
		{"absolute $ref with . and ..", `{"properties":{"x":{"$ref":"http://x.example/./a/b/./../c"}}}`, integer},
		{"resource key with ..", `{"properties":{"x":{"$ref":"http://x.example/a/c"}}}`,
			map[string][]byte{"http://x.example/a/b/../c": []byte(`{"type":"integer"}`)}},
		{"resource key with an upper-case scheme", `{"properties":{"x":{"$ref":"http://x.example/a/c"}}}`,
			map[string][]byte{"HTTP://x.example/a/c": []byte(`{"type":"integer"}`)}},
		{"$schema with ..", `{"$schema":"http://x.example/m/x/../meta","properties":{"x":{"type":"integer"}}}`,
			map[string][]byte{"http://x.example/m/meta": []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema"}`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.CompileWith(schema.JSONSchema, []byte(tc.schema), schema.Options{Resources: tc.resources})
			require.Empty(t, res.Errors)
			assert.False(t, validator.Validate(res.Schema, []byte(`{"x":"s"}`), validator.Options{}).Valid())
			assert.True(t, validator.Validate(res.Schema, []byte(`{"x":1}`), validator.Options{}).Valid())
		})
	}
}

// TestIdentifiersEqualOnceNormalized: two $ids that name one URI once
// their dot segments are gone identify two schemas, the README's
// duplicate-$id VALIDATION finding at the second; before, both were
// kept, and a $ref to that URI found the root only.
func TestIdentifiersEqualOnceNormalized(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`{"$id":"http://x.example/a/b/../c","$defs":{"a":{"$id":"http://x.example/a/c","type":"integer"}}}`,
		`{"$id":"http://x.example/a/c","$defs":{"a":{"$id":"http://x.example/a/./c","type":"integer"}}}`,
		`{"$id":"http://x.example/a/c","$defs":{"a":{"$id":"HTTP://x.example/a/d/../c","type":"integer"}}}`,
	} {
		res := schema.Compile(schema.JSONSchema, []byte(doc))
		require.Len(t, res.Errors, 1, doc)
		f := res.Errors[0]
		assert.Equal(t, schema.CodeValidation, f.Code, doc)
		assert.Equal(t, "/$defs/a/$id", f.SchemaPath, doc)
		assert.Contains(t, f.Message, `The $id "http://x.example/a/c" identifies two schemas`, doc)
	}
}
