package schema_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	_ "github.com/toolgate/toolgate/internal/validator" // the meta-schema check
)

// schemaFamilies are schema shapes that hold memory in different places:
// many nodes, long names, big enums, patterns, references.
var schemaFamilies = map[string]struct {
	profile schema.Profile
	copies  int // enough that pools and caches the runtime may drop are noise
	make    func(copy int) string
}{
	"many properties": {schema.ToolInput, 40, func(k int) string {
		var props []string
		for i := range 500 {
			props = append(props, fmt.Sprintf(`"p%d_%d":{"type":"string","description":"field %d of copy %d"}`, k, i, i, k))
		}
		return `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	}},
	"big enum": {schema.ToolInput, 100, func(k int) string {
		var choices []string
		for i := range 5000 {
			choices = append(choices, fmt.Sprintf(`"choice-%d-%d"`, k, i))
		}
		return `{"type":"object","properties":{"e":{"type":"string","enum":[` + strings.Join(choices, ",") + `]}}}`
	}},
	"nested objects": {schema.JSONSchema, 100, func(k int) string {
		s := fmt.Sprintf(`{"type":"integer","minimum":%d}`, k)
		for i := range 60 {
			s = fmt.Sprintf(`{"type":"object","properties":{"level%d":%s},"required":["level%d"],"additionalProperties":false}`, i, s, i)
		}
		return s
	}},
	"a repeated pattern": {schema.JSONSchema, 100, func(k int) string {
		var props []string
		for i := range 500 {
			props = append(props, fmt.Sprintf(`"p%d_%d":{"type":"string","pattern":"^[a-z]{1,%d}$"}`, k, i, 40+k))
		}
		return `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	}},
	"patterns and refs": {schema.JSONSchema, 5, func(k int) string {
		var defs, props []string
		for i := range 200 {
			defs = append(defs, fmt.Sprintf(`"d%d":{"type":"string","pattern":"^[a-z]{1,%d}-%d$","maxLength":%d}`, i, i+1, k, i+10))
			props = append(props, fmt.Sprintf(`"p%d":{"$ref":"#/$defs/d%d"}`, i, i))
		}
		return `{"$defs":{` + strings.Join(defs, ",") + `},"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	}},
}

// settleHeap collects garbage twice: a sync.Pool keeps what it held for
// one collection more (its victim cache), so after one collection the
// heap still counts the meta-schema check's pooled validators, which a
// deep schema grows. One run inside a loaded make test measured nested
// objects 2.5 MB heavier than usual (ratio 0.7996 against the 0.8 bar;
// 0.92 in a quiet run, 0.93 with two collections).
func settleHeap() {
	runtime.GC()
	runtime.GC()
}

// TestBytesEstimateTracksTheHeap checks Schema.Bytes, which the handle
// store counts against its byte budget, against what compiled schemas
// really hold on the heap: each family is compiled into at least 10 MB.
func TestBytesEstimateTracksTheHeap(t *testing.T) {
	for name, fam := range schemaFamilies {
		t.Run(name, func(t *testing.T) {
			copies := fam.copies
			docs := make([][]byte, copies)
			for k := range docs {
				docs[k] = []byte(fam.make(k))
			}
			kept := make([]*schema.Schema, copies)
			schema.Compile(fam.profile, []byte(fam.make(-1))) // compiles and caches the meta-schemas
			var before, after runtime.MemStats
			settleHeap()
			runtime.ReadMemStats(&before)
			var estimate int64
			for k, doc := range docs {
				res := schema.Compile(fam.profile, doc)
				require.Empty(t, res.Errors)
				kept[k] = res.Schema
				estimate += res.Schema.Bytes
			}
			settleHeap()
			runtime.ReadMemStats(&after)
			held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			runtime.KeepAlive(kept)
			runtime.KeepAlive(docs)
			ratio := float64(estimate) / float64(held)
			t.Logf("%s: estimate %d, heap %d, ratio %.2f", name, estimate, held, ratio)
			assert.GreaterOrEqual(t, ratio, 0.8, "the estimate must not undercount what the store keeps")
			assert.LessOrEqual(t, ratio, 1.5, "nor overcount it so much that the store evicts for nothing")
		})
	}
}
