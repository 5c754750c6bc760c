package validator_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// httpRequestSchema loads testdata/tools/http_request.json's input schema.
func httpRequestSchema(t testing.TB) *schema.Schema {
	var tool struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	data := readFileTB(t, fixtures.Testdata(t, "tools/http_request.json"))
	require.NoError(t, json.Unmarshal(data, &tool))
	return compile(t, string(tool.InputSchema))
}

func readFileTB(t testing.TB, path string) []byte {
	t.Helper()
	b, err := readAll(path)
	require.NoError(t, err)
	return b
}

// smallCall is a realistic ~300-byte tool call.
const smallCall = `{"method": "POST", "url": "https://api.example.test/v1/orders/1234/items",
 "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Idempotency-Key", "value": "b7c1f2d0-6a55-4f1e-9a55-2f1b6e1c0d3e"}],
 "timeout_seconds": 12.5, "retries": 2, "body": {"sku": "WIDGET-42", "quantity": 3, "gift": false}}`

// largeCall returns a ~30 KB tool call: many headers and a large body.
func largeCall() string {
	var sb strings.Builder
	sb.WriteString(`{"method": "PUT", "url": "https://api.example.test/v1/catalog", "headers": [`)
	for i := range 150 {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `{"name": "X-Trace-%d", "value": "span-%08d-\u00e9t\u00e9"}`, i, i*7919)
	}
	sb.WriteString(`], "timeout_seconds": 30, "retries": 1, "body": {"items": [`)
	for i := range 200 {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `{"id": %d, "title": "Item number %d with a longer description", "price": %d.%02d, "tags": ["a", "b"], "in_stock": true}`, i, i, i*3, i%100)
	}
	sb.WriteString(`]}}`)
	return sb.String()
}

func TestBenchmarkDocumentsAreValid(t *testing.T) {
	t.Parallel()
	s := httpRequestSchema(t)
	for _, doc := range []string{smallCall, largeCall()} {
		require.True(t, json.Valid([]byte(doc)))
		res := validator.Validate(s, []byte(doc), validator.Options{})
		require.True(t, res.Valid(), "%+v", res.Findings)
	}
	assert.InDelta(t, 300, len(smallCall), 60)
	assert.InDelta(t, 30_000, len(largeCall()), 4000)
}

// TestValidInputDoesNotAllocate checks that, after warm-up, validating a
// valid tool call allocates nothing: through a reused Validator (a stream's
// call) and through the pooled Validate.
func TestValidInputDoesNotAllocate(t *testing.T) {
	s := httpRequestSchema(t)
	doc := []byte(smallCall)
	v := validator.New(s, validator.Options{})
	allocs := testing.AllocsPerRun(200, func() {
		v.Reset()
		v.Write(doc[:100])
		v.Write(doc[100:])
		if !v.Close().Valid() {
			t.Fatal("invalid")
		}
	})
	assert.Zero(t, allocs, "reused Validator")
	if raceEnabled {
		t.Log("pooled Validate not measured: the race detector makes sync.Pool drop items")
		return
	}
	allocs = testing.AllocsPerRun(200, func() {
		if !validator.Validate(s, doc, validator.Options{}).Valid() {
			t.Fatal("invalid")
		}
	})
	assert.Zero(t, allocs, "pooled Validate")
}

// TestSyntaxErrorAllocatesOnce checks what a syntax error costs a reused
// Validator: one string that holds both the finding's path and its
// message, and nothing else (the tokenizer's error lives inside it).
func TestSyntaxErrorAllocatesOnce(t *testing.T) {
	s := httpRequestSchema(t)
	doc := []byte(`{"url": "https://example.com/a` + "\n" + `b"}`)
	v := validator.New(s, validator.Options{})
	var got schema.Finding
	allocs := testing.AllocsPerRun(200, func() {
		v.Reset()
		v.Write(doc)
		res := v.Close()
		if len(res.Findings) != 1 {
			t.Fatalf("findings: %+v", res.Findings)
		}
		got = res.Findings[0]
	})
	assert.Equal(t, 1.0, allocs)
	assert.Equal(t, "/url", got.InstancePath)
	assert.Equal(t, "json", got.Keyword)
	assert.Equal(t, "The arguments are not valid JSON: invalid control character 0x0A in string at byte 30.", got.Message)
}

// BenchmarkValidate validates tool calls beside encoding/json.Valid on the
// same bytes: compare the two sub-benchmarks' ns/op (or MB/s) of one run.
func BenchmarkValidate(b *testing.B) {
	s := httpRequestSchema(b)
	for _, doc := range []struct{ name, text string }{{"300B", smallCall}, {"30KB", largeCall()}} {
		data := []byte(doc.text)
		b.Run("toolgate/"+doc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if !validator.Validate(s, data, validator.Options{}).Valid() {
					b.Fatal("invalid")
				}
			}
		})
		b.Run("json.Valid/"+doc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if !json.Valid(data) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// BenchmarkObjectKeywords validates arrays of small objects against object
// keywords of one entry and of many, for the ratio: an object must cost
// what its members do, not what its node knows. dependentSchemas grows
// with its entries by design (each is an evaluation of every object, up
// to the width limit); the rest must not grow at all.
//
//	go test -run '^$' -bench '^BenchmarkObjectKeywords$' -benchmem ./internal/validator
func BenchmarkObjectKeywords(b *testing.B) {
	entries := func(n int, entry func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = entry(i)
		}
		return strings.Join(parts, ",")
	}
	objects := func(n int, object func(i int) string) string { return `{"l":[` + entries(n, object) + `]}` }
	empty := objects(50_000, func(int) string { return "{}" })
	withMember := objects(2_000, func(int) string { return `{"k00000":1}` })
	for _, keyword := range []struct {
		name   string
		schema func(n int) string
		doc    string
		sizes  []int
	}{
		{"dependentRequired", func(n int) string {
			return `{"dependentRequired":{` + entries(n, func(i int) string { return fmt.Sprintf(`"k%05d":["x"]`, i) }) + `}}`
		}, empty, []int{1, 40_000}},
		{"properties", func(n int) string {
			return `{"properties":{` + entries(n, func(i int) string { return fmt.Sprintf(`"k%05d":{}`, i) }) + `}}`
		}, empty, []int{1, 40_000}},
		{"dependentSchemas", func(n int) string {
			return `{"dependentSchemas":{` + entries(n, func(i int) string { return fmt.Sprintf(`"k%05d":{"required":["k00000"]}`, i) }) + `}}`
		}, withMember, []int{1, 998}},
		// An object against an enum of n arrays and one object: its kind
		// is found at the sorted choices' end, not by a scan.
		{"enum", func(n int) string {
			return `{"enum":[` + entries(n, func(i int) string { return fmt.Sprintf(`[%d]`, i) }) + `,{}]}`
		}, objects(2_000, func(int) string { return "{}" }), []int{1, 20_000}},
	} {
		for _, n := range keyword.sizes {
			b.Run(fmt.Sprintf("%s/%d", keyword.name, n), func(b *testing.B) {
				s := compileFor(b, schema.JSONSchema, `{"properties":{"l":{"items":`+keyword.schema(n)+`}}}`)
				v := validator.New(s, validator.Options{})
				doc := []byte(keyword.doc)
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				for b.Loop() {
					v.Reset()
					v.Write(doc)
					if !v.Close().Valid() {
						b.Fatal("the document must be valid")
					}
				}
			})
		}
	}
}
