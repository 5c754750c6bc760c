package validator_test

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// editCall is a realistic call of the edit tool.
const editCall = `{"path": "lib/app/server.ex", "old_content": "  def handle_call(:ping, _from, state) do\n    {:reply, :pong, state}\n  end\n", "content": "  def handle_call(:ping, _from, state) do\n    {:reply, {:pong, state.count}, state}\n  end\n"}`

// TestJSONSchemaProfileDoesNotAllocate: on valid input, the JSON Schema
// profile allocates nothing, like the tool input profile (after warm-up).
func TestJSONSchemaProfileDoesNotAllocate(t *testing.T) {
	for _, profile := range []schema.Profile{schema.ToolInput, schema.JSONSchema} {
		res := schema.Compile(profile, editSchema(t))
		require.Empty(t, res.Errors)
		v := validator.New(res.Schema, validator.Options{})
		doc := []byte(editCall)
		allocs := testing.AllocsPerRun(200, func() {
			v.Reset()
			v.Write(doc)
			if !v.Close().Valid() {
				t.Fatal("invalid")
			}
		})
		assert.Zero(t, allocs, "%s", profile)
	}
}

// BenchmarkProfiles validates the same edit call under the tool input and
// the JSON Schema profiles: compare their ns/op in one run (the issue's
// bound: JSON Schema at most 1.2x tool input on an in-subset schema).
func BenchmarkProfiles(b *testing.B) {
	doc := []byte(editCall)
	for _, profile := range []schema.Profile{schema.ToolInput, schema.JSONSchema} {
		res := schema.Compile(profile, editSchema(b))
		require.Empty(b, res.Errors)
		b.Run(profile.String(), func(b *testing.B) {
			v := validator.New(res.Schema, validator.Options{})
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				v.Reset()
				v.Write(doc)
				v.Close()
			}
		})
	}
}

// BenchmarkCompile compiles JSON Schemas with toolgate's JSON Schema
// profile (the meta-schema check included) and with santhosh-tekuri's
// compiler (which checks against the meta-schema too): compare in one run.
func BenchmarkCompile(b *testing.B) {
	for name, text := range map[string][]byte{
		"edit":  editSchema(b),
		"fetch": []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"url":{"type":"string","format":"uri","minLength":1},"max_length":{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":1000000,"default":5000},"start_index":{"type":"integer","minimum":0,"default":0},"raw":{"type":"boolean","default":false}},"required":["url"]}`),
	} {
		b.Run(name+"/toolgate", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := schema.Compile(schema.JSONSchema, text); res.Schema == nil {
					b.Fatal(res.Errors)
				}
			}
		})
		b.Run(name+"/santhosh", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
				if err != nil {
					b.Fatal(err)
				}
				c := jsonschema.NewCompiler()
				if err := c.AddResource("schema.json", doc); err != nil {
					b.Fatal(err)
				}
				if _, err := c.Compile("schema.json"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
