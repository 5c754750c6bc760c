package schema_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestOlderDialects checks what draft-06 and draft-04 change from
// draft-07, each against the same schema written in the dialect that has
// the other meaning: a keyword the older dialect does not define is
// ignored with a warning, draft-04's boolean exclusiveMaximum makes
// maximum exclusive, its identifier is id (which, as draft-07's $id, may
// name a resource and an anchor in it at once: "item.json#s"), and it has
// no boolean schemas.
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
		{"an id with a fragment in draft-04", `{` + d4 + `,"id":"http://example.com/root.json","properties":{"a":{"$ref":"item.json#s"}},` +
			`"definitions":{"x":{"id":"item.json#s","type":"string"}}}`, "",
			[]string{`{"a":"s"}`}, []string{`{"a":1}`}},
		{"an absolute $id with a fragment in draft-07", `{` + d7 + `,"$id":"http://example.com/root.json","properties":{"a":{"$ref":"http://example.com/item.json#s"}},` +
			`"definitions":{"x":{"$id":"http://example.com/item.json#s","type":"string"}}}`, "",
			[]string{`{"a":"s"}`}, []string{`{"a":1}`}},
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

// TestResolutionFindings: an identifier or a reference that is no URI
// reference, a $recursiveRef other than "#" (left undefined), an identifier or anchor that two schemas of one document or
// resource declare (which a reference could not tell apart), and a
// $schema that names nothing toolgate enforces, are findings at the
// keyword where they stand, in the root or in a resource
// embedded deeper, with the identifier's own spelling (draft-04's id),
// quoting the reference once.
func TestResolutionFindings(t *testing.T) {
	t.Parallel()
	const vocabMeta = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/meta",` +
		`"$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://example.com/vocab/extra":true}}`
	for _, tc := range []struct {
		name, schema string
		resources    map[string][]byte
		code         schema.Code
		keyword      string
		path         string
		message      string
	}{
		{"a root $id with a broken host", `{"$id":"http://[::1/x"}`, nil,
			schema.CodeValidation, "$id", "/$id", `The $id "http://[::1/x" is no URI reference toolgate can resolve: missing ']' in host.`},
		{"a nested $id with a broken escape", `{"$defs":{"a":{"$id":"%zz"}}}`, nil,
			schema.CodeValidation, "$id", "/$defs/a/$id", `The $id "%zz" is no URI reference toolgate can resolve: invalid URL escape "%zz".`},
		{"a $ref with a broken escape", `{"properties":{"a":{"$ref":"%zz"}}}`, nil,
			schema.CodeValidation, "$ref", "/properties/a/$ref", `The reference "%zz" cannot be resolved: invalid URL escape "%zz".`},
		{"an $id twice in one document", `{"$id":"http://a.example/root","$defs":{"x":{"$id":"http://a.example/root"}}}`, nil,
			schema.CodeValidation, "$id", "/$defs/x/$id", `The $id "http://a.example/root" identifies two schemas, this one and the root schema, so a reference to it would be ambiguous.`},
		{"a relative $id twice", `{"$defs":{"x":{"$id":"x.json"},"y":{"$id":"x.json"}}}`, nil,
			schema.CodeValidation, "$id", "/$defs/y/$id", `identifies two schemas, this one and the schema at "/$defs/x"`},
		{"an $anchor twice in one resource", `{"$anchor":"a","$defs":{"x":{"$anchor":"a"}}}`, nil,
			schema.CodeValidation, "$anchor", "/$defs/x/$anchor", `The anchor "a" is declared twice in the resource "toolgate:///schema.json", here and by the root schema`},
		{"a $dynamicAnchor that an $anchor repeats", `{"$defs":{"x":{"$dynamicAnchor":"a"},"y":{"$anchor":"a"}}}`, nil,
			schema.CodeValidation, "$anchor", "/$defs/y/$anchor", `The anchor "a" is declared twice`},
		{"a draft-07 plain-name id twice", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"x":{"$id":"#a"},"y":{"$id":"#a"}}}`, nil,
			schema.CodeValidation, "$id", "/definitions/y/$id", `The anchor "a" is declared twice`},
		{"draft-04's id", `{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{"a":{"id":"%zz"}}}`, nil,
			schema.CodeValidation, "id", "/definitions/a/id", `The id "%zz" is no URI reference`},
		{"a relative $id under a URN", `{"$id":"urn:example:x","$defs":{"a":{"$id":"rel/x"}}}`, nil,
			schema.CodeValidation, "$id", "/$defs/a/$id", `cannot be resolved against "urn:example:x"`},
		{"a $recursiveRef to a pointer", `{"$schema":"https://json-schema.org/draft/2019-09/schema","$defs":{"s":{"type":"string"}},"properties":{"q":{"$recursiveRef":"#/$defs/s"}}}`, nil,
			schema.CodeUnsupported, "$recursiveRef", "/properties/q/$recursiveRef", `The reference "#/$defs/s" cannot be followed: $recursiveRef is defined only for "#"`},
		{"a $recursiveRef to another document", `{"$schema":"https://json-schema.org/draft/2019-09/schema","properties":{"q":{"$recursiveRef":"http://example.com/x"}}}`, nil,
			schema.CodeUnsupported, "$recursiveRef", "/properties/q/$recursiveRef", `The reference "http://example.com/x" cannot be followed`},
		{"an unknown root $schema", `{"$schema":"http://unknown.example/meta"}`, nil,
			schema.CodeUnsupported, "$schema", "/$schema", `The $schema "http://unknown.example/meta" is neither a dialect toolgate enforces`},
		{"an unknown $schema of an embedded resource", `{"properties":{"a":{"$id":"http://x.example/a","$schema":"http://unknown.example/meta"}}}`, nil,
			schema.CodeUnsupported, "$schema", "/properties/a/$schema", `The $schema "http://unknown.example/meta" is neither`},
		{"a meta-schema that requires an unknown vocabulary", `{"$schema":"https://example.com/meta"}`,
			map[string][]byte{"https://example.com/meta": []byte(vocabMeta)},
			schema.CodeUnsupported, "$schema", "/$schema", `requires the vocabulary "https://example.com/vocab/extra", which toolgate does not implement`},
		{"a meta-schema that is malformed JSON Schema", `{"$schema":"https://example.com/meta"}`,
			map[string][]byte{"https://example.com/meta": []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":5}`)},
			schema.CodeValidation, "$schema", "/$schema", `Its meta-schema "https://example.com/meta" cannot be used: The schema does not follow JSON Schema 2020-12: /type must`},
		{"a meta-schema toolgate cannot honour", `{"$schema":"https://example.com/meta"}`,
			map[string][]byte{"https://example.com/meta": []byte(`{"properties":{"a":{"pattern":"(?<=x)"}}}`)},
			schema.CodeUnsupported, "$schema", "/$schema", `Its meta-schema "https://example.com/meta" cannot be used: The pattern uses a look-behind (?<=…) at offset 0, which cannot run in linear time (toolgate matches patterns with an automaton); rewrite the pattern without it.`},
		{"a meta-schema that is not JSON", `{"$defs":{"a":{"$id":"http://x.example/a","$schema":"https://example.com/meta"}}}`,
			map[string][]byte{"https://example.com/meta": []byte(`{"type":`)},
			schema.CodeValidation, "$schema", "/$defs/a/$schema", `The meta-schema "https://example.com/meta" cannot be used`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.CompileWith(schema.JSONSchema, []byte(tc.schema), schema.Options{Resources: tc.resources})
			require.Nil(t, res.Schema)
			require.Len(t, res.Errors, 1, "%v", res.Errors)
			f := res.Errors[0]
			assert.Equal(t, tc.code, f.Code)
			assert.Equal(t, tc.keyword, f.Keyword)
			assert.Equal(t, tc.path, f.SchemaPath)
			assert.Contains(t, f.Message, tc.message)
		})
	}
}

// TestOneNameInTwoPlaces: what a resource's identifiers do not make
// ambiguous compiles: one anchor name in two resources, and $anchor and
// $dynamicAnchor of one name on one schema; a reference to each finds its
// own.
func TestOneNameInTwoPlaces(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		schema         string
		valid, invalid []string
	}{
		{`{"$defs":{"x":{"$id":"http://a.example/x","$anchor":"a","type":"string"},"y":{"$id":"http://a.example/y","$anchor":"a","type":"integer"}},` +
			`"properties":{"s":{"$ref":"http://a.example/x#a"},"n":{"$ref":"http://a.example/y#a"}}}`,
			[]string{`{"s":"x","n":1}`}, []string{`{"s":1}`, `{"n":"x"}`}},
		{`{"$defs":{"x":{"$anchor":"a","$dynamicAnchor":"a","type":"string"}},"properties":{"s":{"$ref":"#a"}}}`,
			[]string{`{"s":"x"}`}, []string{`{"s":1}`}},
	} {
		res := schema.Compile(schema.JSONSchema, []byte(tc.schema))
		require.NotNil(t, res.Schema, "%s: %v", tc.schema, res.Errors)
		assert.Empty(t, res.Errors)
		for _, doc := range tc.valid {
			assert.True(t, validator.Validate(res.Schema, []byte(doc), validator.Options{}).Valid(), doc)
		}
		for _, doc := range tc.invalid {
			assert.False(t, validator.Validate(res.Schema, []byte(doc), validator.Options{}).Valid(), doc)
		}
	}
}

// TestEmbeddedResourceWinsOverSupplied: a schema's own resource (its $id)
// is what a reference to that URI means, and a request document of the
// same URI is never read: it does not change the verdicts or the handle.
func TestEmbeddedResourceWinsOverSupplied(t *testing.T) {
	t.Parallel()
	const doc = `{"$defs":{"b":{"$id":"http://x.example/b","type":"string"}},"properties":{"p":{"$ref":"http://x.example/b"}}}`
	supplied := schema.CompileWith(schema.JSONSchema, []byte(doc), schema.Options{Resources: map[string][]byte{"http://x.example/b": []byte(`{"type":"integer"}`)}})
	require.NotNil(t, supplied.Schema, "%v", supplied.Errors)
	assert.True(t, validator.Validate(supplied.Schema, []byte(`{"p":"s"}`), validator.Options{}).Valid())
	assert.False(t, validator.Validate(supplied.Schema, []byte(`{"p":1}`), validator.Options{}).Valid())
	alone := schema.CompileWith(schema.JSONSchema, []byte(doc), schema.Options{})
	require.NotNil(t, alone.Schema, "%v", alone.Errors)
	assert.Equal(t, alone.Key, supplied.Key)
}

// TestEmbeddedResourcesFollowTheirOwnMetaSchema: a resource embedded with
// its own $schema is checked against that dialect's meta-schema, not the
// document root's, and so are resources embedded in it in turn. Each
// legal schema here was refused by the root's meta-schema before, and
// each malformed one compiled with the keyword silently dropped.
func TestEmbeddedResourcesFollowTheirOwnMetaSchema(t *testing.T) {
	t.Parallel()
	const (
		d2019 = `"$schema":"https://json-schema.org/draft/2019-09/schema"`
		d2020 = `"$schema":"https://json-schema.org/draft/2020-12/schema"`
		d7    = `"$schema":"http://json-schema.org/draft-07/schema#"`
		d4    = `"$schema":"http://json-schema.org/draft-04/schema#"`
	)
	for _, tc := range []struct {
		name, schema, valid, invalid string
	}{
		{"draft-07 array items in 2020-12",
			`{"$defs":{"e":{"$id":"https://x.example/e",` + d7 + `,"items":[{"type":"string"}],"additionalItems":false}},"properties":{"a":{"$ref":"https://x.example/e"}}}`,
			`{"a":["s"]}`, `{"a":[1]}`},
		{"draft-04 boolean exclusiveMinimum in draft-07",
			`{` + d7 + `,"definitions":{"e":{"id":"https://x.example/e",` + d4 + `,"minimum":5,"exclusiveMinimum":true}},"properties":{"a":{"$ref":"https://x.example/e"}}}`,
			`{"a":6}`, `{"a":5}`},
		{"2020-12 inside draft-07 inside 2020-12",
			`{"$defs":{"e":{"$id":"https://x.example/e",` + d7 + `,"definitions":{"f":{"$id":"https://x.example/f",` + d2020 + `,"prefixItems":[{"type":"string"}]}},"items":[{"$ref":"https://x.example/f"}]}},"properties":{"a":{"$ref":"https://x.example/e"}}}`,
			`{"a":[["s"]]}`, `{"a":[[1]]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.Compile(schema.JSONSchema, []byte(tc.schema))
			require.Empty(t, res.Errors)
			assert.True(t, validator.Validate(res.Schema, []byte(tc.valid), validator.Options{}).Valid())
			assert.False(t, validator.Validate(res.Schema, []byte(tc.invalid), validator.Options{}).Valid())
		})
	}
	for _, tc := range []struct {
		name, schema, path, message string
	}{
		{"2020-12 dependentRequired in draft-07",
			`{` + d7 + `,"definitions":{"e":{"$id":"https://x.example/e",` + d2020 + `,"dependentRequired":{"b":"c"}}},"properties":{"a":{"$ref":"https://x.example/e"}}}`,
			"/definitions/e/dependentRequired/b", "JSON Schema 2020-12"},
		{"2020-12 prefixItems in draft-07",
			`{` + d7 + `,"definitions":{"e":{"$id":"https://x.example/e",` + d2020 + `,"prefixItems":5}}}`,
			"/definitions/e/prefixItems", "JSON Schema 2020-12"},
		{"2019-09 $recursiveAnchor in 2020-12",
			`{"$defs":{"e":{"$id":"https://x.example/e",` + d2019 + `,"$recursiveAnchor":"yes"}}}`,
			"/$defs/e/$recursiveAnchor", "JSON Schema 2019-09"},
		{"draft-07 malformed items inside a 2020-12 resource inside draft-07",
			`{` + d7 + `,"definitions":{"e":{"$id":"https://x.example/e",` + d2020 + `,"$defs":{"f":{"$id":"https://x.example/f",` + d7 + `,"items":5}}}}}`,
			"/definitions/e/$defs/f/items", "JSON Schema draft-07"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.Compile(schema.JSONSchema, []byte(tc.schema))
			require.Nil(t, res.Schema)
			require.NotEmpty(t, res.Errors)
			f := res.Errors[0]
			assert.Equal(t, schema.CodeValidation, f.Code)
			assert.Equal(t, tc.path, f.SchemaPath, "%v", res.Errors)
			assert.Contains(t, f.Message, tc.message)
		})
	}
}

// TestCheckResources: a request document is named by an absolute URI
// without fragment (an empty one is allowed), and by one key only.
func TestCheckResources(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		keys []string
		want string // "" for none
	}{
		{[]string{"https://example.com/a.json", "urn:example:b", "https://example.com/c.json#"}, ""},
		{[]string{"a.json"}, `"a.json" is not an absolute URI`},
		{[]string{"//example.com/a.json"}, `"//example.com/a.json" is not an absolute URI`},
		{[]string{"https://example.com/a.json#/defs"}, `"https://example.com/a.json#/defs" has a fragment`},
		{[]string{"https://example.com/a.json#anchor"}, `has a fragment`},
		{[]string{"http://[::1/a"}, `"http://[::1/a" is not an absolute URI`},
		{[]string{"https://example.com/a.json#", "https://example.com/a.json"}, `"https://example.com/a.json" and "https://example.com/a.json#" name the same document`},
		{[]string{"https://example.com/a/../b.json", "https://example.com/b.json"}, `"https://example.com/a/../b.json" and "https://example.com/b.json" name the same document`},
		{[]string{"HTTPS://example.com/b.json", "https://example.com/./b.json"}, `"HTTPS://example.com/b.json" and "https://example.com/./b.json" name the same document`},
	} {
		resources := map[string][]byte{}
		for _, k := range tc.keys {
			resources[k] = []byte(`{}`)
		}
		err := schema.CheckResources(resources)
		if tc.want == "" {
			assert.NoError(t, err, "%v", tc.keys)
			continue
		}
		assert.ErrorContains(t, err, tc.want, "%v", tc.keys)
	}
}

// TestResourcesTwoKeysForOneDocument: a caller that skips CheckResources
// and names one document by two keys gets the first key's text, in sorted
// order, every time, never the one a map happens to yield.
func TestResourcesTwoKeysForOneDocument(t *testing.T) {
	t.Parallel()
	const doc = `{"properties":{"p":{"$ref":"https://example.com/a.json"}}}`
	resources := map[string][]byte{"https://example.com/a.json": []byte(`{"type":"integer"}`), "https://example.com/a.json#": []byte(`{"type":"string"}`)}
	require.Error(t, schema.CheckResources(resources))
	for range 20 {
		res := schema.CompileWith(schema.JSONSchema, []byte(doc), schema.Options{Resources: resources})
		require.NotNil(t, res.Schema, "%v", res.Errors)
		assert.True(t, validator.Validate(res.Schema, []byte(`{"p":1}`), validator.Options{}).Valid())
		assert.False(t, validator.Validate(res.Schema, []byte(`{"p":"s"}`), validator.Options{}).Valid())
	}
}

// TestMetaSchemaURISchemes: a $schema that names a dialect's meta-schema
// with the other scheme of json-schema.org (real schemas write
// https://json-schema.org/draft-07/schema#) names that dialect, and so
// does one written with an upper-case scheme or dot segments, as a $ref
// to it would find it; another host does not.
func TestMetaSchemaURISchemes(t *testing.T) {
	t.Parallel()
	tuple := `"properties":{"a":{"items":[{"type":"string"}]}}` // the array form of items: not in 2020-12
	for uri, tuples := range map[string]bool{
		"https://json-schema.org/draft-07/schema#":           true,
		"https://json-schema.org/draft-07/schema":            true,
		"https://json-schema.org/draft-04/schema#":           true,
		"http://json-schema.org/draft/2019-09/schema":        true,
		"http://json-schema.org/draft/2020-12/schema":        false,
		"HTTP://json-schema.org/draft-07/schema#":            true,
		"http://json-schema.org/draft-06/../draft-07/schema": true,
	} {
		res := schema.Compile(schema.JSONSchema, []byte(`{"$schema":"`+uri+`",`+tuple+`}`))
		if tuples {
			assert.Empty(t, res.Errors, uri)
		} else {
			assert.Equal(t, []fixtures.SchemaFinding{fixtures.Malformed("items", "/properties/a/items")}, fixtures.SchemaFindings(res.Errors), uri)
		}
	}
	res := schema.Compile(schema.JSONSchema, []byte(`{"$schema":"https://example.org/draft-07/schema#"}`))
	assert.Equal(t, []fixtures.SchemaFinding{fixtures.Unsupported("$schema", "/$schema")}, fixtures.SchemaFindings(res.Errors))
}

// TestUnknownKeywordHoldingReferencedSchemas: an unknown keyword is
// ignored, and its warning asks for its spelling, unless a $ref names a
// subschema under it (OpenAPI's components): that warning says the
// referenced subschemas apply, and they do; or unless a $ref names its
// value (before, that one's warning said it was ignored). One whose
// subschemas no $ref names keeps the usual warning.
func TestUnknownKeywordHoldingReferencedSchemas(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.JSONSchema, []byte(`{"$ref":"#/components/schemas/Pet","components":{"schemas":{"Pet":{"required":["name"]}}},`+
		`"x-defs":{"Unused":{"type":"string"}},"minimun":3,"properties":{"s":{"$ref":"#/x-self"}},"x-self":{"type":"string"}}`))
	require.Empty(t, res.Errors)
	messages := map[string]string{}
	for _, w := range res.Warnings {
		messages[w.SchemaPath] = w.Message
	}
	assert.Equal(t, map[string]string{
		"/components": `The keyword "components" is not part of JSON Schema 2020-12, so it is not applied to the value; the subschemas under it that a $ref names are (as $defs would hold them).`,
		"/x-defs":     `The keyword "x-defs" is not part of JSON Schema 2020-12, so it is ignored (no value is checked against it); check its spelling.`,
		"/minimun":    `The keyword "minimun" is not part of JSON Schema 2020-12, so it is ignored (no value is checked against it); check its spelling.`,
		"/x-self":     `The keyword "x-self" is not part of JSON Schema 2020-12, so it is not applied to the value where it stands; its value is a schema a $ref names, and applies there (as a $defs entry would).`,
	}, messages)
	assert.False(t, validator.Validate(res.Schema, []byte(`{"age":1}`), validator.Options{}).Valid(), "the referenced schema applies")
	assert.False(t, validator.Validate(res.Schema, []byte(`{"name":"n","s":1}`), validator.Options{}).Valid(), "so does the referenced value")
}
