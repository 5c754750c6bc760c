package server_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

func jsonSchemaRequest(schema string, resources map[string]string, formatAssertion bool) *toolgatev1.CompileSchemaRequest {
	return &toolgatev1.CompileSchemaRequest{Profile: toolgatev1.Profile_PROFILE_JSON_SCHEMA, Resources: resources, FormatAssertion: formatAssertion,
		Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: schema}}
}

// TestJSONSchemaProfile checks the service's wiring of PROFILE_JSON_SCHEMA:
// documents supplied by URI resolve references, format assertion asserts
// standard formats (and refuses unknown ones), and both are part of the
// handle, in CompileSchema, Validate and CompileToolset alike.
func TestJSONSchemaProfile(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := t.Context()
	const ref = `{"type":"object","properties":{"port":{"$ref":"https://example.com/port.json"}},"required":["port"]}`
	port := map[string]string{"https://example.com/port.json": `{"type":"integer","minimum":1,"maximum":65535}`}
	validate := func(handle, args string) *toolgatev1.ValidateResponse {
		t.Helper()
		resp, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: handle},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: args}})
		require.NoError(t, err)
		return resp
	}

	t.Run("a reference to a supplied document", func(t *testing.T) {
		t.Parallel()
		resp, err := c.CompileSchema(ctx, jsonSchemaRequest(ref, port, false))
		require.NoError(t, err)
		require.Empty(t, resp.GetErrors())
		assert.True(t, validate(resp.GetHandle(), `{"port":443}`).GetValid())
		bad := validate(resp.GetHandle(), `{"port":70000}`)
		require.Len(t, bad.GetErrors(), 1)
		assert.Equal(t, "maximum", bad.GetErrors()[0].GetKeyword())

		missing, err := c.CompileSchema(ctx, jsonSchemaRequest(ref, nil, false))
		require.NoError(t, err)
		assert.Empty(t, missing.GetHandle(), "the server never fetches a document")
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, missing.GetCode())

		other, err := c.CompileSchema(ctx, jsonSchemaRequest(ref, map[string]string{"https://example.com/port.json": `{"type":"integer"}`}, false))
		require.NoError(t, err)
		assert.NotEqual(t, resp.GetHandle(), other.GetHandle(), "the document referred to is part of the handle")
	})
	t.Run("resources keys that name no document, or one twice", func(t *testing.T) {
		t.Parallel()
		const doc = `{"type":"integer"}`
		for key, want := range map[string]string{
			"port.json":                          `"port.json" is not an absolute URI`,
			"https://example.com/port.json#/x":   `has a fragment`,
			"https://example.com/port.json#port": `has a fragment`,
		} {
			_, err := c.CompileSchema(ctx, jsonSchemaRequest(ref, map[string]string{key: doc}, false))
			assert.Equal(t, codes.InvalidArgument, status.Code(err), "%s: %v", key, err)
			assert.ErrorContains(t, err, want, key)
		}
		_, err := c.CompileSchema(ctx, jsonSchemaRequest(ref, map[string]string{
			"https://example.com/port.json": doc, "https://example.com/port.json#": `{"type":"string"}`}, false))
		assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
		assert.ErrorContains(t, err, `"https://example.com/port.json" and "https://example.com/port.json#" name the same document`)
		// An empty fragment is the document's URI.
		resp, err := c.CompileSchema(ctx, jsonSchemaRequest(ref, map[string]string{"https://example.com/port.json#": doc}, false))
		require.NoError(t, err)
		assert.Empty(t, resp.GetErrors())
	})
	t.Run("format assertion", func(t *testing.T) {
		t.Parallel()
		// A format no checker knows: an annotation by default, and with
		// format assertion on UNSUPPORTED_CAPABILITY (whatever formats
		// the engine asserts).
		const unknown = `{"type":"object","properties":{"day":{"type":"string","format":"x-weekday"}}}`
		annotation, err := c.CompileSchema(ctx, jsonSchemaRequest(unknown, nil, false))
		require.NoError(t, err)
		assert.NotEmpty(t, annotation.GetHandle(), "%v", annotation.GetErrors())
		assert.True(t, validate(annotation.GetHandle(), `{"day":"x"}`).GetValid(), "format is an annotation by default")
		asserted, err := c.CompileSchema(ctx, jsonSchemaRequest(unknown, nil, true))
		require.NoError(t, err)
		assert.Empty(t, asserted.GetHandle())
		require.NotEmpty(t, asserted.GetErrors())
		assert.Equal(t, "format", asserted.GetErrors()[0].GetKeyword())
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, asserted.GetCode())

		const date = `{"type":"object","properties":{"day":{"type":"string","format":"date"}}}`
		dateAnnotation, err := c.CompileSchema(ctx, jsonSchemaRequest(date, nil, false))
		require.NoError(t, err)
		dateAsserted, err := c.CompileSchema(ctx, jsonSchemaRequest(date, nil, true))
		require.NoError(t, err)
		require.NotEmpty(t, dateAsserted.GetHandle(), "%v", dateAsserted.GetErrors())
		assert.NotEqual(t, dateAnnotation.GetHandle(), dateAsserted.GetHandle(), "format assertion is part of the handle")
		assert.True(t, validate(dateAnnotation.GetHandle(), `{"day":"friday"}`).GetValid())
		bad := validate(dateAsserted.GetHandle(), `{"day":"friday"}`)
		require.Len(t, bad.GetErrors(), 1)
		assert.Equal(t, "format", bad.GetErrors()[0].GetKeyword())
		assert.True(t, validate(dateAsserted.GetHandle(), `{"day":"2025-11-25"}`).GetValid())
	})
	t.Run("inline in Validate", func(t *testing.T) {
		t.Parallel()
		resp, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: jsonSchemaRequest(ref, port, false)},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"port":0}`}})
		require.NoError(t, err)
		require.Len(t, resp.GetErrors(), 1)
		assert.Equal(t, "minimum", resp.GetErrors()[0].GetKeyword())
	})
	t.Run("CompileToolset passes them to every tool", func(t *testing.T) {
		t.Parallel()
		req := toolListRequest(toolgatev1.Profile_PROFILE_JSON_SCHEMA,
			&toolgatev1.ToolSchema{Name: "listen", SchemaJson: ref},
			&toolgatev1.ToolSchema{Name: "dial", SchemaJson: `{"type":"object","properties":{"to":{"$ref":"https://example.com/port.json"}}}`})
		req.Resources = port
		resp, err := c.CompileToolset(ctx, req)
		require.NoError(t, err)
		assert.Equal(t, []string{"dial", "listen"}, mapsKeys(resp.GetBind()))
		single, err := c.CompileSchema(ctx, jsonSchemaRequest(ref, port, false))
		require.NoError(t, err)
		assert.Equal(t, single.GetHandle(), resp.GetBind()["listen"], "the same handle as CompileSchema")
		assert.False(t, validate(resp.GetBind()["dial"], `{"to":"x"}`).GetValid())
	})
}

// TestSchemaLimitsReachTheCompiler checks that each compile limit of
// Options reaches the compiler, in every profile it applies to: a schema
// within it compiles, and one past it is refused with one finding,
// keyword "limit".
func TestSchemaLimitsReachTheCompiler(t *testing.T) {
	t.Parallel()
	oneOf := func(n int) string {
		var b []string
		for i := range n {
			b = append(b, fmt.Sprintf(`{"type":"string","enum":["v%d"]}`, i))
		}
		return `{"type":"object","properties":{"a":{"oneOf":[` + strings.Join(b, ",") + `]}}}`
	}
	patterns := func(n int) string {
		var props []string
		for i := range n {
			props = append(props, fmt.Sprintf(`"p%d":{"type":"string","pattern":".{%d}"}`, i, 40+i))
		}
		return `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	}
	described := func(n int) string { return `{"type":"object","description":"` + strings.Repeat("d", n) + `"}` }
	nested := func(depth int) string {
		s := `{"type":"string"}`
		for range depth {
			s = `{"type":"object","properties":{"a":` + s + `}}`
		}
		return s
	}
	refs := func(n int) string {
		var props []string
		for i := range n {
			props = append(props, fmt.Sprintf(`"p%d":{"$ref":"#/$defs/s"}`, i))
		}
		return `{"type":"object","$defs":{"s":{"type":"string"}},"properties":{` + strings.Join(props, ",") + `}}`
	}
	// A long name above n subschemas: each one's path repeats the name.
	longPaths := func(n int) string {
		var props []string
		for i := range n {
			props = append(props, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
		}
		return `{"type":"object","properties":{"` + strings.Repeat("n", 64<<10) + `":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}}`
	}
	multipleOf := func(m string) string { return `{"type":"object","properties":{"n":{"multipleOf":` + m + `}}}` }
	const (
		toolInput  = toolgatev1.Profile_PROFILE_TOOL_INPUT
		jsonSchema = toolgatev1.Profile_PROFILE_JSON_SCHEMA
		bindable   = toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE
	)
	for _, tc := range []struct {
		name         string
		opts         server.Options
		profiles     []toolgatev1.Profile
		within, past string
		says         string
	}{
		{"MaxWidth", server.Options{MaxWidth: 3}, []toolgatev1.Profile{toolInput, jsonSchema}, oneOf(2), oneOf(8), "past the limit of 3"},
		// The patterns of one schema share the budget.
		{"MaxPatternSteps", server.Options{MaxPatternSteps: 200_000}, []toolgatev1.Profile{jsonSchema, bindable}, patterns(2), patterns(40), "more than 200000 steps"},
		{"MaxMultipleOfDigits", server.Options{MaxMultipleOfDigits: 4}, []toolgatev1.Profile{jsonSchema}, multipleOf("0.01255"), multipleOf("0.012555"), "5 significant digits"},
		// The root, the property and its branches: 4 nodes within, 22 past.
		{"MaxSchemaNodes", server.Options{MaxSchemaNodes: 10}, []toolgatev1.Profile{jsonSchema}, oneOf(2), oneOf(20), "more than 10 subschemas"},
		// Size and depth bound the JSON Schema profile's documents (the
		// subset profiles nest at most 64 levels, fixed).
		{"MaxSchemaBytes", server.Options{MaxSchemaBytes: 200}, []toolgatev1.Profile{jsonSchema}, described(100), described(300), "past the limit of 200"},
		// Depth counts JSON nesting: a root with one property is 3 deep.
		{"MaxSchemaDepth", server.Options{MaxSchemaDepth: 3}, []toolgatev1.Profile{jsonSchema}, nested(1), nested(2), "deeper than the limit of 3"},
		{"MaxSchemaRefs", server.Options{MaxSchemaRefs: 2}, []toolgatev1.Profile{jsonSchema}, refs(2), refs(3), "more than 2 references"},
		// A 64 KiB name above 30 subschemas: 1.9 MB of pointers, past
		// the free 1 MiB and twice the schema's size; above one, within.
		{"MaxSchemaPathRatio", server.Options{MaxSchemaPathRatio: 2}, []toolgatev1.Profile{toolInput, jsonSchema}, longPaths(1), longPaths(30), "past the limit: long member names"},
	} {
		c := client(t, server.Config{Options: tc.opts})
		for _, profile := range tc.profiles {
			t.Run(tc.name+"/"+profile.String(), func(t *testing.T) {
				t.Parallel()
				compile := func(text string) *toolgatev1.CompileSchemaResponse {
					resp, err := c.CompileSchema(t.Context(), &toolgatev1.CompileSchemaRequest{Profile: profile, Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: text}})
					require.NoError(t, err)
					return resp
				}
				within := compile(tc.within)
				assert.NotEmpty(t, within.GetHandle(), "%v", within.GetErrors())
				past := compile(tc.past)
				require.Len(t, past.GetErrors(), 1, "%v", past.GetErrors())
				assert.Equal(t, "limit", past.GetErrors()[0].GetKeyword())
				assert.Contains(t, past.GetErrors()[0].GetMessage(), tc.says)
				assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, past.GetCode())
			})
		}
	}
}

// TestStoreBytesBoundsTheHeap reproduces issue 9's finding 5: the store
// counted a compiled schema as its canonical JSON, while it holds many
// times that on the heap, so --store-bytes did not bound memory. Compiling
// distinct schemas worth several times StoreBytes in canonical JSON must
// leave the heap within StoreBytes (and some slack) of where it started.
func TestStoreBytesBoundsTheHeap(t *testing.T) {
	const storeBytes = 8 << 20
	srv, svc := server.NewGRPCServer(server.Config{Options: server.Options{StoreBytes: storeBytes}})
	t.Cleanup(srv.Stop)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	canonical := 0
	for i := range 24 {
		props := make([]string, 10_000)
		for k := range props {
			props[k] = fmt.Sprintf(`"p%02d_%05d":{"type":"string"}`, i, k)
		}
		schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
		canonical += len(schema)
		resp, err := svc.CompileSchema(t.Context(), compileJSON(schema))
		require.NoError(t, err)
		require.NotEmpty(t, resp.GetHandle())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("compiled %d bytes of canonical JSON; the heap grew by %d bytes with StoreBytes %d", canonical, grown, storeBytes)
	require.Greater(t, canonical, storeBytes/2, "the schemas' text alone nearly fills the store")
	assert.LessOrEqual(t, grown, int64(storeBytes+storeBytes/2), "the store holds at most StoreBytes of compiled schemas")
	runtime.KeepAlive(svc)
}
