package pattern

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBudgetIsShared: compiles given one Budget spend it together, each
// compile what it took, and once it is spent the next compile is refused
// at once, with a Limit error that names the budget, and spends nothing.
// The automata compiled within the budget are the ones compiled without.
func TestBudgetIsShared(t *testing.T) {
	t.Parallel()
	b := NewBudget(200_000, 0)
	var compiled int
	for n := 20; ; n++ {
		expr := fmt.Sprintf(".{%d}", n)
		before := b.Left()
		p, err := Compile(expr, ECMA262, Limits{Budget: b})
		if err != nil {
			var perr *Error
			require.ErrorAs(t, err, &perr)
			assert.Equal(t, Limit, perr.Kind)
			assert.Equal(t, 0, perr.Index)
			assert.Contains(t, perr.Msg, "more than 200000 steps to build (Limits.Budget)")
			assert.NotContains(t, perr.Msg, "MaxCompileSteps", "the budget, not the pattern's own limit, refused it")
			assert.Less(t, b.Left(), before, "a refused compile spends what it took")
			break
		}
		compiled++
		assert.Less(t, b.Left(), before, "%s spent nothing", expr)
		alone, err := Compile(expr, ECMA262, Limits{})
		require.NoError(t, err)
		assert.Equal(t, alone.d.size(), p.d.size(), "%s: the same automaton", expr)
		for _, s := range []string{"", "x", string(make([]byte, n-1)), string(make([]byte, n))} {
			assert.Equal(t, alone.MatchString(s), p.MatchString(s), "%s on %d bytes", expr, len(s))
		}
	}
	assert.Greater(t, compiled, 2, "the budget fits a few patterns before it runs out")

	left := b.Left()
	_, err := Compile("a", ECMA262, Limits{Budget: b})
	require.Error(t, err, "a spent budget refuses even the smallest pattern")
	assert.Contains(t, err.Error(), "Limits.Budget")
	assert.Equal(t, left, b.Left(), "and spends nothing on it")
	_, err = CompileSet([]string{"a", "b"}, ECMA262, Limits{Budget: b})
	var perr *Error
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, -1, perr.Index, "a set refused as a whole")
	assert.Equal(t, 200_000, b.Steps())
}

// TestBudgetChargesEveryStage: a compile refused for any limit, or one that
// compiles, is charged for the work it did, and its overshoot of what the
// budget had left is bounded by the stages that check it.
func TestBudgetChargesEveryStage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, expr string
		syn        Syntax
		lim        Limits
		fails      bool
	}{
		{"compiles", `^[a-z]{1,20}@example\.com$`, ECMA262, Limits{}, false},
		{"compiles/RE2", `^[a-z]{1,20}@example\.com$`, RE2, Limits{}, false},
		{"malformed", `a(`, ECMA262, Limits{}, true},
		{"dfa bytes", `a{999}`, ECMA262, Limits{}, true},
		{"program", `((a{100}){100}){100}`, ECMA262, Limits{}, true},
		{"steps", `[ab]*a[ab]{10}`, ECMA262, Limits{MaxCompileSteps: 5000}, true},
		{"classes", `\p{L}{20}`, ECMA262, Limits{MaxCompileSteps: 20_000}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const size = 1 << 30
			b := NewBudget(size, 0)
			tc.lim.Budget = b
			_, err := Compile(tc.expr, tc.syn, tc.lim)
			assert.Equal(t, tc.fails, err != nil, "%v", err)
			spent := size - b.Left()
			assert.GreaterOrEqual(t, spent, exprSteps, "every compile is charged its fixed cost")
			assert.LessOrEqual(t, spent, exprSteps+4*tc.lim.withDefaults().MaxCompileSteps, "and at most its stages' limits")
		})
	}
	t.Run("overshoot", func(t *testing.T) {
		t.Parallel()
		b := NewBudget(10_000, 0) // less than .{300} needs: its automaton's construction notices
		_, err := Compile(".{300}", ECMA262, Limits{Budget: b})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "Limits.Budget")
		assert.GreaterOrEqual(t, b.Left(), -4*10_000-exprSteps, "each stage stops within what was left")
	})
}

// TestBudgetBoundsBytes: compiles given one Budget of bytes hold at most
// those bytes of automata together, each building at most what is left;
// the one that does not fit is refused with a Limit error that names the
// budget and is marked Shared, and compiles alone with a budget of its
// own. A set the budget's bytes cannot hold whole is split to fit them.
func TestBudgetBoundsBytes(t *testing.T) {
	t.Parallel()
	const bytes = 300_000
	b := NewBudget(1<<30, bytes)
	held := 0
	for n := 20; ; n += 10 {
		expr := fmt.Sprintf(".{%d}", n)
		p, err := Compile(expr, ECMA262, Limits{Budget: b})
		if err != nil {
			var perr *Error
			require.ErrorAs(t, err, &perr)
			assert.Equal(t, Limit, perr.Kind)
			assert.True(t, perr.Shared, "the budget refused it")
			assert.Equal(t, 0, perr.Index)
			assert.Contains(t, perr.Msg, "more than 300000 bytes of automata (Limits.Budget)")
			_, err = Compile(expr, ECMA262, Limits{Budget: NewBudget(1<<30, bytes)})
			require.NoError(t, err, "%s fits a budget of its own", expr)
			_, err = Compile(expr, ECMA262, Limits{MaxDFABytes: bytes - held})
			require.Error(t, err, "%s is refused by a MaxDFABytes of what was left, as its construction needs more", expr)
			break
		}
		held += p.d.size()
		assert.Equal(t, bytes-held, b.BytesLeft())
	}
	assert.LessOrEqual(t, held, bytes)
	assert.Equal(t, bytes, b.Bytes())

	_, err := Compile(`a{999}`, ECMA262, Limits{Budget: NewBudget(1<<30, 1<<30)})
	var perr *Error
	require.ErrorAs(t, err, &perr)
	assert.False(t, perr.Shared, "past the pattern's own MaxDFABytes, not the budget")
	assert.Contains(t, perr.Msg, "Limits.MaxDFABytes")

	// The drupal set of TestSplitSet: one automaton passes 2 MiB, its
	// parts need far less.
	exprs := []string{"block.block.*", "core.entity_form_display.*.*.*", "core.entity_view_display.*.*.*", "contact.form.*",
		"editor.editor.*", "field.field.*.*.*", "field.storage.*.*", "workflows.workflow.*", "user.role.*"}
	const room = 256 << 10
	b = NewBudget(1<<30, room)
	split, err := CompileSet(exprs, ECMA262, Limits{Budget: b})
	require.NoError(t, err, "split, the set fits a budget of %d bytes", room)
	assert.Greater(t, split.Parts(), 1)
	automata := 0
	for _, part := range split.parts {
		automata += part.d.size()
	}
	assert.Equal(t, room-b.BytesLeft(), automata, "the budget is charged the parts' automata")
	_, err = CompileSet(exprs, ECMA262, Limits{Budget: NewBudget(1<<30, 1000)})
	require.ErrorAs(t, err, &perr)
	assert.True(t, perr.Shared)
	assert.Equal(t, -1, perr.Index, "the set is refused as a whole")
	assert.Contains(t, perr.Msg, "bytes of automata (Limits.Budget)")
}
