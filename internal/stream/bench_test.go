package stream_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
)

// batchSchema is a tool taking many todo items, so every byte of the
// benchmark documents is validated (names matched, enums narrowed).
const batchSchema = `{"type":"object","required":["items"],"additionalProperties":false,"properties":{
	"items":{"type":"array","items":{"type":"object","required":["action"],"additionalProperties":false,"properties":{
		"action":{"type":"string","enum":["add","update","complete","remove"]},
		"id":{"type":"integer","minimum":1},
		"content":{"type":"string"},
		"status":{"type":"string","enum":["pending","in_progress","completed"]}}}}}}`

// batchDocument returns a valid arguments document of about size bytes.
func batchDocument(size int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"items": [`)
	for i := 0; sb.Len() < size-120; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `{"action": "update", "id": %d, "content": "Review section %d of the design, \"carefully\" — déjà vu", "status": "in_progress"}`, i+1, i)
	}
	sb.WriteString(`]}`)
	return []byte(sb.String())
}

// BenchmarkStreamPieces feeds a 64 KiB and a 1 MiB document through a
// Session in 1-byte, 16-byte and whole pieces. The ns/byte metric should not
// grow with the document: each delta costs time proportional to its length.
func BenchmarkStreamPieces(b *testing.B) {
	res := schema.Compile(schema.ToolInput, []byte(batchSchema))
	if len(res.Errors) > 0 {
		b.Fatal(res.Errors)
	}
	bound := &stream.Binding{Handle: "h", Schema: res.Schema}
	for _, size := range []int{64 << 10, 1 << 20} {
		doc := batchDocument(size)
		for _, piece := range []int{1, 16, len(doc)} {
			name := fmt.Sprintf("%dKiB/piece=%d", size>>10, piece)
			if piece == len(doc) {
				name = fmt.Sprintf("%dKiB/piece=whole", size>>10)
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				valid := true
				for b.Loop() {
					sess := stream.NewSession(b.Context(), stream.Limits{}, func(r *stream.Result) { valid = r.Valid() })
					if err := sess.Start("c", "", bound); err != nil {
						b.Fatal(err)
					}
					for i := 0; i < len(doc); i += piece {
						if err := sess.Delta("c", doc[i:min(i+piece, len(doc))]); err != nil {
							b.Fatal(err)
						}
					}
					if err := sess.End("c"); err != nil || !valid {
						b.Fatal("invalid", err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(doc)), "ns/byte")
			})
		}
	}
}

func TestBatchDocumentIsValid(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.ToolInput, []byte(batchSchema))
	if len(res.Errors) > 0 {
		t.Fatal(res.Errors)
	}
	for _, size := range []int{64 << 10, 1 << 20} {
		doc := batchDocument(size)
		got, _ := streamed(t, res.Schema, [][]byte{doc})
		if !got.Valid() {
			t.Fatalf("%d-byte document: %+v", len(doc), got.Findings)
		}
	}
}
