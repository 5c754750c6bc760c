package server

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// BenchmarkValidateChunks compares Validate's feeding in checkEvery pieces,
// with a context check before each, to one validator.Validate of the whole
// document (the baseline, in the same run): the cost of stopping at a
// deadline.
func BenchmarkValidateChunks(b *testing.B) {
	res := schema.Compile(schema.ToolInput, []byte(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"q":{"type":"string","enum":["alpha","beta","gamma"]},"n":{"type":"integer","minimum":0}},"required":["q"]}}}}`))
	if res.Schema == nil {
		b.Fatal(res.Errors)
	}
	doc := []byte(`{"items":[` + strings.TrimSuffix(strings.Repeat(`{"q":"beta","n":12345},`, 40_000), ",") + `]}`)
	s := NewService(Options{})
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if r := validator.Validate(res.Schema, doc, s.opts.validatorOptions()); !r.Valid() {
				b.Fatal(r.Findings)
			}
		}
	})
	b.Run("chunks", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if r, err := s.validate(context.Background(), res.Schema, doc); err != nil || !r.Valid() {
				b.Fatal(err, r.Findings)
			}
		}
	})
}
