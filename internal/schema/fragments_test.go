package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestAnchorFragmentsArePercentDecoded: a reference's fragment is
// percent-encoded (RFC 3986), so "#f%6Fo" names the anchor "foo", as a
// JSON pointer fragment's escapes are decoded; one that does not decode
// is malformed.
func TestAnchorFragmentsArePercentDecoded(t *testing.T) {
	t.Parallel()
	const defs = `"$defs":{"i":{"$anchor":"foo","type":"integer"}}`
	for ref, want := range map[string][]fixtures.SchemaFinding{
		`#foo`:    nil,
		`#f%6Fo`:  nil,
		`#%66oo`:  nil,
		`#f%6`:    {fixtures.Malformed("$ref", "/properties/a/$ref")},
		`#f%6Fox`: {fixtures.Malformed("$ref", "/properties/a/$ref")},
	} {
		res := schema.Compile(schema.JSONSchema, []byte(`{"properties":{"a":{"$ref":"`+ref+`"}},`+defs+`}`))
		if want == nil {
			assert.Empty(t, res.Errors, ref)
			continue
		}
		assert.Equal(t, want, fixtures.SchemaFindings(res.Errors), ref)
	}
}

// TestRootMetaFindingSpeaksOfTheSchema: a schema document that is no
// object or boolean breaks the meta-schema at its root, and the finding
// says so of the schema, not of "the arguments".
func TestRootMetaFindingSpeaksOfTheSchema(t *testing.T) {
	t.Parallel()
	for doc, got := range map[string]string{`[]`: "an array", `5`: "a number", `"x"`: "a string", `null`: "null"} {
		res := schema.Compile(schema.JSONSchema, []byte(doc))
		require.NotEmpty(t, res.Errors, doc)
		assert.Equal(t, schema.CodeValidation, res.Errors[0].Code, doc)
		assert.Equal(t, "The schema does not follow JSON Schema 2020-12: the schema must be an object or boolean; got "+got+".", res.Errors[0].Message, doc)
	}
}

// TestDynamicRefFragmentIsPercentDecoded: a $dynamicRef whose fragment is
// a percent-encoded dynamic anchor resolves dynamically, as the same
// fragment written plainly does: the list's items are the outer
// resource's strings, not the list's own bookend, which allows anything.
func TestDynamicRefFragmentIsPercentDecoded(t *testing.T) {
	t.Parallel()
	for _, frag := range []string{"items", "it%65ms"} {
		src := `{"$id":"https://example.test/root","properties":{"l":{"$ref":"list"}},"$defs":{
			"foo":{"$dynamicAnchor":"items","type":"string"},
			"list":{"$id":"list","type":"array","items":{"$dynamicRef":"#` + frag + `"},
				"$defs":{"items":{"$dynamicAnchor":"items"}}}}}`
		res := schema.Compile(schema.JSONSchema, []byte(src))
		require.Empty(t, res.Errors, frag)
		assert.True(t, validator.Validate(res.Schema, []byte(`{"l":["a","b"]}`), validator.Options{}).Valid(), frag)
		assert.False(t, validator.Validate(res.Schema, []byte(`{"l":["a",42]}`), validator.Options{}).Valid(), "%s: the outer anchor's type applies", frag)
	}
}
