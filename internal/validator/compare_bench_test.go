package validator_test

import (
	"bytes"
	"encoding/json"
	"testing"

	// goccy/go-json is test-only here: its Valid is the speed anchor of
	// BenchmarkCompare, the fastest syntax check in Go we know of.
	gojson "github.com/goccy/go-json"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/benchcpu"
	"github.com/toolgate/toolgate/internal/benchdoc"
	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// compareImpl is one implementation BenchmarkCompare measures. prepare does
// the work done once (compiling the schema, allocating a validator) and
// returns the check run per document, which reports whether it accepted
// the document.
type compareImpl struct {
	name string
	// schemaAware implementations reject violations; the others check
	// syntax only.
	schemaAware bool
	prepare     func(tb testing.TB, schemaText []byte) func(doc []byte) bool
}

// accepts is the answer a correct implementation gives for a document.
func (c compareImpl) accepts(v benchdoc.Verdict) bool {
	if c.schemaAware {
		return v == benchdoc.Valid
	}
	return v != benchdoc.SyntaxError
}

// compareImpls are the implementations of issue 10, in its order.
var compareImpls = []compareImpl{
	{"toolgate", true, toolgateCheck(validator.Options{})},
	{"toolgatefirst", true, toolgateCheck(validator.Options{StopAtFirst: true})},
	{"jsonvalid", false, func(testing.TB, []byte) func([]byte) bool { return json.Valid }},
	{"goccy", false, func(testing.TB, []byte) func([]byte) bool { return gojson.Valid }},
	{"santhosh", true, santhoshCheck},
	{"unmarshal", false, func(testing.TB, []byte) func([]byte) bool {
		return func(doc []byte) bool {
			var v any
			return json.Unmarshal(doc, &v) == nil
		}
	}},
}

// toolgateCheck compiles the schema once and reuses one Validator, as a
// stream's call does: Reset, Write the whole document, Close.
func toolgateCheck(opts validator.Options) func(testing.TB, []byte) func([]byte) bool {
	return func(tb testing.TB, schemaText []byte) func([]byte) bool {
		res := schema.Compile(schema.ToolInput, schemaText)
		require.Empty(tb, res.Errors)
		v := validator.New(res.Schema, opts)
		return func(doc []byte) bool {
			v.Reset()
			v.Write(doc)
			return v.Close().Valid()
		}
	}
}

// santhoshCheck is santhosh-tekuri/jsonschema as its users run it: its own
// decoder (numbers as json.Number), then Validate.
func santhoshCheck(tb testing.TB, schemaText []byte) func([]byte) bool {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaText))
	require.NoError(tb, err)
	s, err := oracleCompile(doc)
	require.NoError(tb, err)
	return func(doc []byte) bool {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
		return err == nil && s.Validate(v) == nil
	}
}

func editSchema(tb testing.TB) []byte {
	tb.Helper()
	text, err := benchdoc.Schema(fixtures.RepoRoot(tb))
	require.NoError(tb, err)
	return text
}

// TestCompareImplementationsAnswerRight runs every implementation of
// BenchmarkCompare once on every document: each must give the answer the
// document was built to get, or its timing would compare unlike work.
func TestCompareImplementationsAnswerRight(t *testing.T) {
	t.Parallel()
	schemaText := editSchema(t)
	for _, impl := range compareImpls {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			check := impl.prepare(t, schemaText)
			for _, doc := range benchdoc.Docs() {
				assert.Equal(t, impl.accepts(doc.Verdict), check(doc.Data), "%s on %s (%s)", impl.name, doc.Name, doc.Verdict)
			}
		})
	}
}

// TestCompareFindings checks what toolgate reports on the two rejected
// documents: the deciding byte, and with StopAtFirst nothing past it.
func TestCompareFindings(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.ToolInput, editSchema(t))
	require.Empty(t, res.Errors)
	for _, tc := range []struct {
		doc     string
		keyword string
	}{{"invalid", "type"}, {"syntax", "json"}} {
		t.Run(tc.doc, func(t *testing.T) {
			t.Parallel()
			doc, ok := benchdoc.Lookup(tc.doc)
			require.True(t, ok)
			for _, first := range []bool{false, true} {
				r := validator.Validate(res.Schema, doc.Data, validator.Options{StopAtFirst: first})
				require.Len(t, r.Findings, 1, "StopAtFirst=%v: %+v", first, r.Findings)
				assert.Equal(t, tc.keyword, r.Findings[0].Keyword)
				assert.Equal(t, doc.Deciding, r.Findings[0].Offset)
			}
		})
	}
}

// BenchmarkCompare measures toolgate against other Go JSON implementations
// on the documents of package benchdoc (issue 10): <doc>/<impl>, with
// throughput (SetBytes), CPU time (benchcpu) and allocations. Compare the
// ratios of one run; `make benchmarks` computes them into
// docs/BENCHMARKS.md.
func BenchmarkCompare(b *testing.B) {
	schemaText := editSchema(b)
	for _, doc := range benchdoc.Docs() {
		b.Run(doc.Name, func(b *testing.B) {
			for _, impl := range compareImpls {
				b.Run(impl.name, func(b *testing.B) {
					check := impl.prepare(b, schemaText)
					want := impl.accepts(doc.Verdict)
					b.SetBytes(int64(len(doc.Data)))
					b.ReportAllocs()
					stop := benchcpu.Start(b)
					for b.Loop() {
						if check(doc.Data) != want {
							b.Fatalf("%s on %s: accepted=%v, want %v", impl.name, doc.Name, !want, want)
						}
					}
					stop()
				})
			}
		})
	}
}
