package schema

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refsToWideDef is a JSON Schema of refs properties that each $ref one
// definition of props properties (true schemas), each beside own(i): at
// refs=150, props=40,000 and nothing of their own, about 550 KB, under
// the 1 MiB limit.
func refsToWideDef(refs, props int, own func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(`{"properties":{`)
	for i := range refs {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%d":{"$ref":"#/$defs/big"%s}`, i, own(i))
	}
	b.WriteString(`},"$defs":{"big":{"properties":{`)
	for i := range props {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"q%d":true`, i)
	}
	b.WriteString(`}}}}`)
	return []byte(b.String())
}

// RefsToWideDef is refsToWideDef, for the package's external tests.
var RefsToWideDef = refsToWideDef

// sharesNothing adds nothing to a reference: its set and the
// definition's build the same members.
func sharesNothing(int) string { return "" }

// ownProperty adds a property of its own to a reference: its set builds
// members of its own, merging its name with the definition's.
func ownProperty(i int) string { return fmt.Sprintf(`,"properties":{"x%d":true}`, i) }

// measuredSteps returns the width of the schema at root, whether it was
// measured within budget, the steps spent and the bytes allocated (so a
// test calling it does not run in parallel).
func measuredSteps(root *Node, budget int) (width int, ok bool, steps int, alloc uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m := newWidthMeter(budget, nil)
	ok = m.explore(root)
	runtime.ReadMemStats(&after)
	return m.width, ok, budget - m.budget, after.TotalAlloc - before.TotalAlloc
}

// TestWidthMeasureSharesADefinitionsMembers: sets that differ only in
// nodes with no member applicators (each $ref to one definition of 40,000
// names, beside the referring node) build the definition's members once:
// 150 references cost a few steps each more than 20 do. Before, each set
// merged, sorted and searched the names again and queued an entry per
// name, duplicates included (20 references: 1.3 million steps and 337 MB
// allocated measuring; 150 were refused at the budget after 7 s and
// 2.5 GB).
func TestWidthMeasureSharesADefinitionsMembers(t *testing.T) {
	var steps [2]int
	for i, refs := range []int{20, 150} {
		res := Compile(JSONSchema, refsToWideDef(refs, 40_000, sharesNothing))
		require.Empty(t, res.Errors, "%v", res.Errors)
		width, ok, spent, alloc := measuredSteps(res.Schema.Root, widthBudget)
		t.Logf("%d references: width %d, %d steps, %d bytes allocated", refs, width, spent, alloc)
		require.True(t, ok)
		assert.Equal(t, 2, width, "a reference and the definition")
		assert.Less(t, spent, 40_000/2, "the definition's 40,000 names, once, each under half a step")
		assert.Less(t, alloc, uint64(4<<20), "no entry of a member's true schema is kept")
		steps[i] = spent
	}
	assert.Less(t, steps[1]-steps[0], 130*20, "130 more references, under 20 steps each")
}

// TestWidthMeasureWorkIsBounded: where every set builds members of its own
// (each reference adds a property), every name merged costs budget, and
// what the measure allocates is bounded by the steps it spends, whether
// it gets to the end of the schema or stops at its budget.
func TestWidthMeasureWorkIsBounded(t *testing.T) {
	res := Compile(JSONSchema, refsToWideDef(20, 40_000, ownProperty))
	require.Empty(t, res.Errors, "%v", res.Errors)
	width, ok, spent, alloc := measuredSteps(res.Schema.Root, widthBudget)
	t.Logf("whole: width %d, %d steps, %d bytes allocated", width, spent, alloc)
	require.True(t, ok)
	assert.Equal(t, 2, width)
	assert.Greater(t, spent, 20*40_000/4, "20 sets of 40,000 names, each at least a quarter of a step")
	assert.Less(t, alloc, uint64(8*spent+1<<20), "allocated per step")

	budget := spent / 2
	_, ok, spentHalf, allocHalf := measuredSteps(res.Schema.Root, budget)
	t.Logf("half: %d steps, %d bytes allocated", spentHalf, allocHalf)
	assert.False(t, ok, "stopped at a budget of half the steps it takes")
	assert.LessOrEqual(t, spentHalf, budget+4, "spent past the budget")
	assert.Less(t, allocHalf, uint64(8*spentHalf+1<<20), "allocated per step")
}
