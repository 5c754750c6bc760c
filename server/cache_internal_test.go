package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/schema"
)

// TestCompileCache: a schema seen before is found by its request's digest,
// not compiled again; any change to what the compile depends on misses.
func TestCompileCache(t *testing.T) {
	t.Parallel()
	s := NewService(Options{})
	req := func(text string, profile toolgatev1.Profile, format bool, resources map[string]string) *toolgatev1.CompileSchemaRequest {
		return &toolgatev1.CompileSchemaRequest{Profile: profile, FormatAssertion: format, Resources: resources,
			Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: text}}
	}
	const text = `{"properties": {"a": {"type": "string", "format": "uri", "minLenght": 3}, "b": {"$ref": "http://x.test/b.json"}}}`
	docs := map[string]string{"http://x.test/b.json": `{"type":"integer"}`}
	first, err := s.compile(t.Context(), req(text, toolgatev1.Profile_PROFILE_JSON_SCHEMA, false, docs))
	require.NoError(t, err)
	require.NotNil(t, first.res.Schema)
	require.NotEmpty(t, first.res.Warnings, "an unknown keyword: the compile warns")

	again, err := s.compile(t.Context(), req(text, toolgatev1.Profile_PROFILE_JSON_SCHEMA, false, docs))
	require.NoError(t, err)
	assert.Equal(t, first.handle, again.handle)
	assert.Same(t, first.res.Schema, again.res.Schema, "found in the cache, not compiled again")
	assert.Equal(t, first.res.Warnings, again.res.Warnings, "with the compile's warnings")

	for name, r := range map[string]*toolgatev1.CompileSchemaRequest{
		"other spelling":  req(text+" ", toolgatev1.Profile_PROFILE_JSON_SCHEMA, false, docs),
		"format asserted": req(text, toolgatev1.Profile_PROFILE_JSON_SCHEMA, true, docs),
		"other document":  req(text, toolgatev1.Profile_PROFILE_JSON_SCHEMA, false, map[string]string{"http://x.test/b.json": `{"type":"string"}`}),
	} {
		c, err := s.compile(t.Context(), r)
		require.NoError(t, err, name)
		assert.NotSame(t, first.res.Schema, c.res.Schema, "%s: compiled", name)
	}

	// An evicted schema is compiled again (the cache holds only its handle).
	small := NewService(Options{StoreEntries: 1})
	a, err := small.compile(t.Context(), req(`{"type":"object"}`, toolgatev1.Profile_PROFILE_TOOL_INPUT, false, nil))
	require.NoError(t, err)
	_, err = small.compile(t.Context(), req(`{"type":"object","required":["x"]}`, toolgatev1.Profile_PROFILE_TOOL_INPUT, false, nil))
	require.NoError(t, err)
	b, err := small.compile(t.Context(), req(`{"type":"object"}`, toolgatev1.Profile_PROFILE_TOOL_INPUT, false, nil))
	require.NoError(t, err)
	assert.Equal(t, a.handle, b.handle)
	assert.NotSame(t, a.res.Schema, b.res.Schema, "evicted, so compiled again")
	_, held := small.store.Get(b.handle)
	assert.True(t, held, "and stored again")
}

// TestRequestKeyTellsRequestsApart: the compile cache's key is the same
// for the same request and differs when anything the compile depends on
// differs, in both of its layouts (without documents, and with them).
func TestRequestKeyTellsRequestsApart(t *testing.T) {
	t.Parallel()
	const text = `{"type":"object"}`
	docs := map[string][]byte{"http://x.test/b.json": []byte(`{}`)}
	keys := map[string]string{}
	for name, key := range map[string]string{
		"tool input":           requestKey(schema.ToolInput, schema.Options{}, []byte(text)),
		"json schema":          requestKey(schema.JSONSchema, schema.Options{}, []byte(text)),
		"format asserted":      requestKey(schema.ToolInput, schema.Options{FormatAssertion: true}, []byte(text)),
		"other text":           requestKey(schema.ToolInput, schema.Options{}, []byte(text+" ")),
		"empty text":           requestKey(schema.ToolInput, schema.Options{}, nil),
		"with a document":      requestKey(schema.ToolInput, schema.Options{Resources: docs}, []byte(text)),
		"with another":         requestKey(schema.ToolInput, schema.Options{Resources: map[string][]byte{"http://x.test/b.json": []byte(`{ }`)}}, []byte(text)),
		"document, json":       requestKey(schema.JSONSchema, schema.Options{Resources: docs}, []byte(text)),
		"document, format":     requestKey(schema.ToolInput, schema.Options{Resources: docs, FormatAssertion: true}, []byte(text)),
		"document, other text": requestKey(schema.ToolInput, schema.Options{Resources: docs}, []byte(text+" ")),
	} {
		if other, ok := keys[key]; ok {
			t.Errorf("%s and %s have one key", name, other)
		}
		keys[key] = name
	}
	assert.Equal(t, requestKey(schema.ToolInput, schema.Options{}, []byte(text)),
		requestKey(schema.ToolInput, schema.Options{Resources: map[string][]byte{}}, []byte(text)),
		"no documents and an empty set of them are one request")
	assert.Equal(t, requestKey(schema.ToolInput, schema.Options{Resources: docs}, []byte(text)),
		requestKey(schema.ToolInput, schema.Options{Resources: map[string][]byte{"http://x.test/b.json": []byte(`{}`)}}, []byte(text)),
		"the same documents, the same key")
}
