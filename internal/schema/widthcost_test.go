package schema_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
)

// compileAllocating compiles doc as a JSON Schema and returns the bytes
// the compile allocated (so a test calling it does not run in parallel).
func compileAllocating(doc []byte) (*schema.Result, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := schema.Compile(schema.JSONSchema, doc)
	runtime.ReadMemStats(&after)
	return res, after.TotalAlloc - before.TotalAlloc
}

// TestWidthMeasureCostIsBounded: 150 properties that each $ref one
// definition of 40,000 properties (553 KB, under the 1 MiB limit) took
// 7–9 s of CPU and 2.6 GB of allocation to be refused for the width
// budget, and 20 of them 1.4 s and 436 MB to compile: every set of a
// property and the definition merged, sorted and searched the
// definition's names again, queued an entry for each, and was charged an
// eighth of a step per name. Now 150 references compile as 20 do, in
// allocation (some 100 MB, what parsing and building the nodes take), and
// where each reference adds a property of its own, so each set builds
// members of its own, the budget refuses the schema having allocated no
// more.
func TestWidthMeasureCostIsBounded(t *testing.T) {
	compileAllocating(schema.RefsToWideDef(1, 1, func(int) string { return "" })) // the meta-schema, once
	var shared [2]uint64
	for i, refs := range []int{20, 150} {
		doc := schema.RefsToWideDef(refs, 40_000, func(int) string { return "" })
		require.Less(t, len(doc), schema.DefaultMaxBytes)
		res, alloc := compileAllocating(doc)
		t.Logf("%d references, %d bytes: %d MB allocated, code %v", refs, len(doc), alloc>>20, res.Code())
		require.Empty(t, res.Errors, "%v", res.Errors)
		assert.Equal(t, 2, res.Schema.Width, "a reference and the definition")
		assert.Less(t, alloc, uint64(256<<20), "bytes allocated compiling a %d-byte schema", len(doc))
		shared[i] = alloc
	}
	assert.Less(t, shared[1], shared[0]+shared[0]/8, "150 references allocate what 20 do")

	doc := schema.RefsToWideDef(150, 40_000, func(i int) string { return fmt.Sprintf(`,"properties":{"x%d":true}`, i) })
	require.Less(t, len(doc), schema.DefaultMaxBytes)
	res, alloc := compileAllocating(doc)
	t.Logf("150 references with a property each, %d bytes: %d MB allocated, code %v", len(doc), alloc>>20, res.Code())
	require.Len(t, res.Errors, 1, "%v", res.Errors)
	assert.Equal(t, "limit", res.Errors[0].Keyword)
	assert.Contains(t, res.Errors[0].Message, "combine in more ways than toolgate measures")
	assert.Less(t, alloc, shared[0]+shared[0]/8, "refused at the budget, having allocated what the accepted schema does")
}
