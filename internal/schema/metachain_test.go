package schema_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// The $vocabulary values a meta-schema of the chains below may have.
const (
	vocabNone         = ""
	vocabFull         = `,"$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://json-schema.org/draft/2020-12/vocab/applicator":true,"https://json-schema.org/draft/2020-12/vocab/validation":true}`
	vocabNoValidation = `,"$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://json-schema.org/draft/2020-12/vocab/applicator":true}`
)

// metaChain is a chain of meta-schemas the request supplies: the schema's
// $schema names the first, the $schema of each names the next, and the
// last one's names end: an index into the chain (a $schema cycle; its own
// index when it describes itself), or a URI.
type metaChain struct {
	vocabs []string // each meta-schema's $vocabulary member, or vocabNone
	ids    bool     // whether each meta-schema has an $id (else only its resource key names it)
	back   int      // the index the last one's $schema names, when end is ""
	end    string
}

// uri is the URI of the chain's meta-schema i.
func (metaChain) uri(i int) string { return fmt.Sprintf("http://m.example/meta%d", i) }

// resources returns the chain's meta-schemas, by URI.
func (m metaChain) resources() map[string][]byte {
	out := map[string][]byte{}
	for i, vocab := range m.vocabs {
		next := m.end
		switch {
		case i < len(m.vocabs)-1:
			next = m.uri(i + 1)
		case next == "":
			next = m.uri(m.back)
		}
		id := ""
		if m.ids {
			id = fmt.Sprintf(`,"$id":%q`, m.uri(i))
		}
		out[m.uri(i)] = fmt.Appendf(nil, `{"$schema":%q%s%s}`, next, id, vocab)
	}
	return out
}

// want is what compiling a schema under the chain should give: the
// code, and whether the validation vocabulary is in effect. The chain's
// dialect is the one it ends at, or, when the last meta-schema describes
// itself, the one its $vocabulary names; a longer cycle has none. The
// schema's vocabularies are those of the first meta-schema's $vocabulary
// (every one without).
func (m metaChain) want() (code schema.Code, validation bool) {
	switch {
	case m.end == "https://json-schema.org/draft/2020-12/schema":
	case m.end != "":
		return schema.CodeUnsupported, false // a $schema nothing knows
	case m.back != len(m.vocabs)-1:
		return schema.CodeUnsupported, false // a cycle through two or more
	case m.vocabs[m.back] == vocabNone:
		return schema.CodeUnsupported, false // self-describing, in no known dialect
	}
	return schema.CodeNone, m.vocabs[0] != vocabNoValidation
}

// TestMetaSchemaChains compiles a schema under every chain of up to three
// supplied meta-schemas, each with or without a $vocabulary (with or
// without the validation vocabulary), with and without $id, ending at
// itself, in a cycle back to any of them, at the 2020-12 meta-schema or
// at a URI toolgate does not know. Before, every chain that came back to
// a meta-schema panicked the compiler: the self-describing meta-schema,
// which is how every official one is written, included. Now such a
// meta-schema is honoured through its $vocabulary (a type under one
// without the validation vocabulary is not enforced), and a cycle whose
// $vocabulary names no dialect is UNSUPPORTED_CAPABILITY at the $schema.
func TestMetaSchemaChains(t *testing.T) {
	t.Parallel()
	const doc = `{"$schema":"http://m.example/meta0","properties":{"a":{"type":"integer"}}}`
	var chains []metaChain
	vocabs := []string{vocabNone, vocabFull, vocabNoValidation}
	for n := 1; n <= 3; n++ {
		for combo := range pow(len(vocabs), n) {
			var vs []string
			for i, c := 0, combo; i < n; i, c = i+1, c/len(vocabs) {
				vs = append(vs, vocabs[c%len(vocabs)])
			}
			for _, ids := range []bool{true, false} {
				for back := range n {
					chains = append(chains, metaChain{vocabs: vs, ids: ids, back: back})
				}
				for _, end := range []string{"https://json-schema.org/draft/2020-12/schema", "http://unknown.example/meta"} {
					chains = append(chains, metaChain{vocabs: vs, ids: ids, end: end})
				}
			}
		}
	}
	for _, m := range chains {
		name := fmt.Sprintf("%d metas, ids %v, back %d, end %q, vocabularies %q", len(m.vocabs), m.ids, m.back, m.end, m.vocabs)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var res *schema.Result
			require.NotPanics(t, func() {
				res = schema.CompileWith(schema.JSONSchema, []byte(doc), schema.Options{Resources: m.resources()})
			})
			code, validation := m.want()
			require.Equal(t, code, res.Code(), "%v", res.Errors)
			if code != schema.CodeNone {
				require.Len(t, res.Errors, 1)
				assert.Equal(t, "/$schema", res.Errors[0].SchemaPath)
				return
			}
			assert.Equal(t, !validation, validator.Validate(res.Schema, []byte(`{"a":"x"}`), validator.Options{}).Valid(), "type enforced")
			assert.True(t, validator.Validate(res.Schema, []byte(`{"a":1}`), validator.Options{}).Valid())
		})
	}
}

// pow returns b to the power n.
func pow(b, n int) int {
	p := 1
	for range n {
		p *= b
	}
	return p
}

// TestSelfDescribingMetaSchemaDialect: a self-describing meta-schema is
// read in the dialect of the vocabularies its $vocabulary lists: a
// 2019-09 one allows the array form of items (malformed in 2020-12), and
// one written as the official meta-schemas are, with an allOf of the
// vocabulary meta-schemas, checks the schemas that name it.
func TestSelfDescribingMetaSchemaDialect(t *testing.T) {
	t.Parallel()
	const (
		d2019 = `{"$schema":"http://m.example/meta","$id":"http://m.example/meta","$vocabulary":{"https://json-schema.org/draft/2019-09/vocab/core":true,` +
			`"https://json-schema.org/draft/2019-09/vocab/applicator":true,"https://json-schema.org/draft/2019-09/vocab/validation":true}}`
		official = `{"$schema":"http://m.example/meta","$id":"http://m.example/meta","$dynamicAnchor":"meta",` +
			`"$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://json-schema.org/draft/2020-12/vocab/applicator":true,` +
			`"https://json-schema.org/draft/2020-12/vocab/validation":true},` +
			`"allOf":[{"$ref":"https://json-schema.org/draft/2020-12/meta/core"},{"$ref":"https://json-schema.org/draft/2020-12/meta/applicator"},` +
			`{"$ref":"https://json-schema.org/draft/2020-12/meta/validation"}]}`
	)
	tuple := schema.CompileWith(schema.JSONSchema, []byte(`{"$schema":"http://m.example/meta","properties":{"a":{"items":[{"type":"string"}]}}}`),
		schema.Options{Resources: map[string][]byte{"http://m.example/meta": []byte(d2019)}})
	require.Empty(t, tuple.Errors)
	assert.False(t, validator.Validate(tuple.Schema, []byte(`{"a":[1]}`), validator.Options{}).Valid())

	bad := schema.CompileWith(schema.JSONSchema, []byte(`{"$schema":"http://m.example/meta","properties":{"a":{"minimum":"zz"}}}`),
		schema.Options{Resources: map[string][]byte{"http://m.example/meta": []byte(official)}})
	require.Equal(t, schema.CodeValidation, bad.Code(), "%v", bad.Errors)
	assert.Equal(t, "/properties/a/minimum", bad.Errors[0].SchemaPath)
}
