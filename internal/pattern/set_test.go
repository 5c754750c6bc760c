package pattern

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSetTable checks Matches, Dead and Done of a set on hand-picked
// member names, as patternProperties uses them.
func TestSetTable(t *testing.T) {
	t.Parallel()
	exprs := []string{`^x-`, `^[a-z]+$`, `_id$`, `\d{2,}`, `^$`}
	set, err := CompileSet(exprs, ECMA262, Limits{})
	require.NoError(t, err)
	require.Equal(t, len(exprs), set.Len())
	assert.Equal(t, `_id$`, set.Expr(2))
	assert.Equal(t, ECMA262, set.Syntax())
	for _, tc := range []struct {
		name    string
		matches []int
		dead    int  // index of the byte after which no pattern can match, or -1
		done    bool // at the end
	}{
		{"", []int{4}, -1, false},
		{"x-y", []int{0}, -1, false},
		{"user_id", []int{2}, -1, false},
		{"abc", []int{1}, -1, false},
		{"X-", nil, -1, false},       // _id$ and \d{2,} can still match
		{"a12", []int{3}, -1, false}, // ^[a-z]+$ lost at the 1, \d{2,} matched at the 2
		{"x-12_id", []int{0, 2, 3}, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var m SetMatcher
			m.Reset(set)
			assert.Equal(t, tc.dead, m.WriteString(tc.name))
			got := m.Matches()
			var want []int
			for i := got.Next(0); i >= 0; i = got.Next(i + 1) {
				want = append(want, i)
			}
			assert.Equal(t, tc.matches, want)
			assert.Equal(t, len(tc.matches), got.Count())
			assert.Equal(t, len(exprs), got.Len())
			assert.Equal(t, len(tc.matches) == 0, got.Empty())
			assert.Equal(t, tc.done, m.Done())
			assert.Equal(t, got, set.MatchString(tc.name))
		})
	}
}

// TestSetAnchoredDeath checks that a set of anchored patterns dies at the
// first byte no pattern can follow, and settles when every pattern that
// can still change has.
func TestSetAnchoredDeath(t *testing.T) {
	t.Parallel()
	set, err := CompileSet([]string{`^ab$`, `^ac`, `^b.*$`}, ECMA262, Limits{})
	require.NoError(t, err)
	var m SetMatcher
	m.Reset(set)
	assert.Equal(t, 1, m.WriteString("ax"), "nothing continues a then x")
	assert.True(t, m.Dead())
	assert.True(t, m.Done())
	assert.Equal(t, 0, m.WriteString("b"), "a dead matcher refuses the next byte")
	assert.Equal(t, -1, m.WriteString(""))

	m.Reset(set)
	assert.Equal(t, -1, m.WriteString("ac"))
	assert.True(t, m.Done(), "^ac has matched and no other pattern can")
	assert.Equal(t, -1, m.WriteString("anything"))
	assert.True(t, m.Matches().Has(1))
	assert.False(t, m.Matches().Has(0))
	assert.False(t, m.Matches().Has(-1))
	assert.False(t, m.Matches().Has(3))
}

// TestSetAgreesWithPatterns checks generated sets against their patterns
// one by one: pattern i is in Matches exactly when regexp matches it; the
// set is dead exactly from the byte where every pattern is dead; it is Done
// exactly when every pattern is.
func TestSetAgreesWithPatterns(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	for _, ecma := range []bool{false, true} {
		refs := generated(t, 4, 60/scale, ecma)
		for len(refs) > 0 {
			var group []reference
			var exprs []string
			group, exprs, refs = nextGroup(rng, refs, 1, 5)
			syn := RE2
			if ecma {
				syn = ECMA262
			}
			set, err := CompileSet(exprs, syn, Limits{})
			if err != nil {
				require.Equal(t, Limit, err.(*Error).Kind, "%q: %v", exprs, err)
				require.Equal(t, -1, err.(*Error).Index)
				continue
			}
			for _, text := range group[0].texts(rng, 8) {
				checkSet(t, set, group, text)
			}
		}
	}
}

func checkSet(t *testing.T, set *Set, group []reference, text string) {
	t.Helper()
	var m SetMatcher
	m.Reset(set)
	ms := make([]Matcher, len(group))
	for i, r := range group {
		ms[i].Reset(r.p)
	}
	setDead := -1
	for i := 0; i < len(text); i++ {
		if d := m.Write([]byte{text[i]}); d >= 0 && setDead < 0 {
			setDead = i
		}
		allDead, allDone, anyGrows := true, true, false
		for j := range ms {
			ms[j].Write([]byte{text[i]})
			allDead = allDead && ms[j].Dead()
			allDone = allDone && ms[j].Done()
			anyGrows = anyGrows || ms[j].Grows()
		}
		require.Equal(t, allDead, m.Dead(), "%q on %+q after byte %d", set.exprs, text, i)
		require.Equal(t, allDone, m.Done(), "%q on %+q after byte %d", set.exprs, text, i)
		require.Equal(t, anyGrows, m.Grows(), "%q on %+q after byte %d", set.exprs, text, i)
		if allDead {
			require.GreaterOrEqual(t, setDead, 0)
		}
	}
	got := m.Matches()
	for j, r := range group {
		require.Equal(t, r.re.MatchString(text), got.Has(j), "%q: pattern %d on %+q", set.exprs, j, text)
	}
}

// TestCompileSetErrors checks that a refused expression is named by its
// index, and that a set past a limit as a whole has index -1.
func TestCompileSetErrors(t *testing.T) {
	t.Parallel()
	_, err := CompileSet([]string{"a", "b", "(?=c)", "["}, ECMA262, Limits{})
	var perr *Error
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, Unsupported, perr.Kind)
	assert.Equal(t, 2, perr.Index)

	_, err = CompileSet([]string{"a{30}", "b{30}"}, ECMA262, Limits{MaxProgram: 50})
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, Limit, perr.Kind)
	assert.Equal(t, 1, perr.Index, "the program limit is reached at the second expression")
	assert.Contains(t, perr.Msg, "it and the expressions before it in the set would compile to more than 50 instructions together (Limits.MaxProgram)",
		"each fits alone")

	exprs := []string{`a[ab]{6}`, `b[ab]{6}`, `c[ab]{6}`}
	_, err = CompileSet(exprs, ECMA262, Limits{MaxDFABytes: 4096})
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, Limit, perr.Kind)
	assert.Equal(t, -1, perr.Index, "the automaton of the set is too large, not one expression")

	_, err = Compile(`a[ab]{6}`, ECMA262, Limits{MaxDFABytes: 1024})
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, 0, perr.Index)
}

// TestSetOutOfSteps checks the error of a set that runs out of
// Limits.MaxCompileSteps as one automaton or once split: it states the
// limit itself, not what the attempts before left of it, and names the
// patterns it ran out at, by the first and the last.
func TestSetOutOfSteps(t *testing.T) {
	t.Parallel()
	var exprs []string
	for i := range 12 {
		exprs = append(exprs, fmt.Sprintf("f%d.*x.*y", i))
	}
	for _, c := range []struct {
		name  string
		bytes int
		says  string
	}{
		{"one automaton", 256 << 10, `the automaton of the set's 12 patterns, "f0.*x.*y" to "f11.*x.*y", would take more than 200000 steps to build (Limits.MaxCompileSteps); use fewer`},
		{"split", 64 << 10, `the set's 12 patterns would take more than 200000 steps to compile together (Limits.MaxCompileSteps), split into automata that fit Limits.MaxDFABytes, ` +
			`and ran out at the 6 patterns "f6.*x.*y" to "f11.*x.*y"; use fewer`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := CompileSet(exprs, ECMA262, Limits{MaxCompileSteps: 200_000, MaxDFABytes: c.bytes})
			var perr *Error
			require.ErrorAs(t, err, &perr)
			assert.Equal(t, Limit, perr.Kind)
			assert.Equal(t, -1, perr.Index, "the set as a whole")
			assert.Contains(t, perr.Msg, c.says)
		})
	}
	t.Run("one pattern, cut", func(t *testing.T) {
		t.Parallel()
		long := strings.Repeat("é", 30)
		sp := splitter{set: &Set{exprs: []string{"a", long}}, max: Limits{MaxCompileSteps: 7}}
		assert.Contains(t, sp.outOfSteps([]string{long}).Msg, `more than 7 steps to compile together (Limits.MaxCompileSteps), split into automata that fit Limits.MaxDFABytes, `+
			`and ran out at "`+strings.Repeat("é", 24)+`…"; use fewer`)
	})
}

// TestQuoteExpr checks how messages quote an expression: whole up to
// maxQuoted bytes, else cut there, at a character boundary, and marked.
func TestQuoteExpr(t *testing.T) {
	t.Parallel()
	for expr, want := range map[string]string{
		`^\d+$`:                       `"^\\d+$"`,
		strings.Repeat("a", 48):       `"` + strings.Repeat("a", 48) + `"`,
		strings.Repeat("a", 49):       `"` + strings.Repeat("a", 48) + `…"`,
		"a" + strings.Repeat("é", 30): `"a` + strings.Repeat("é", 23) + `…"`, // 47 bytes: the next é would pass 48
	} {
		assert.Equal(t, want, quoteExpr(expr), expr)
	}
}

// TestEmptyAndZero checks the edge values: an empty set matches nothing
// and is dead from the start; zero matchers are dead.
func TestEmptyAndZero(t *testing.T) {
	t.Parallel()
	set, err := CompileSet(nil, ECMA262, Limits{})
	require.NoError(t, err)
	var sm SetMatcher
	sm.Reset(set)
	assert.True(t, sm.Dead())
	assert.Equal(t, 0, sm.WriteString("a"))
	assert.True(t, set.MatchString("").Empty())

	var zero SetMatcher
	assert.True(t, zero.Dead())
	assert.True(t, zero.Done())
	assert.True(t, zero.Matches().Empty())
	assert.Equal(t, 0, zero.Write([]byte("a")))
	assert.Equal(t, -1, zero.WriteString(""))

	var zm Matcher
	assert.True(t, zm.Dead())
	assert.True(t, zm.Done())
	assert.False(t, zm.Matched())
	assert.Equal(t, 0, zm.WriteString("a"))
	assert.Equal(t, -1, zm.Write(nil))
}

// TestMatchingAllocatesNothing checks the streaming and whole-text entry
// points with the allocation counter.
func TestMatchingAllocatesNothing(t *testing.T) {
	p, err := Compile(`^[\p{L}_][\p{L}\d_-]{0,63}$`, ECMA262, Limits{})
	require.NoError(t, err)
	set, err := CompileSet([]string{`^x-`, `_id$`, `\p{Lu}`}, ECMA262, Limits{})
	require.NoError(t, err)
	text := []byte("élan_vital-42")
	var m Matcher
	var sm SetMatcher
	allocs := testing.AllocsPerRun(100, func() {
		m.Reset(p)
		m.Write(text[:3])
		m.Write(text[3:])
		_ = m.Matched()
		sm.Reset(set)
		sm.WriteString("user_id")
		_ = sm.Matches().Count()
		_ = p.MatchString("abc")
		_ = set.MatchString("X_id")
	})
	assert.Zero(t, allocs)
	assert.True(t, m.Matched())
}

// TestConcurrentUse runs matchers of one Pattern and one Set from many
// goroutines (under -race, a shared write would be reported).
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	p, err := Compile(`\bfoo\d+`, ECMA262, Limits{})
	require.NoError(t, err)
	set, err := CompileSet([]string{`foo`, `\d$`}, ECMA262, Limits{})
	require.NoError(t, err)
	re := regexp.MustCompile(`\bfoo\d+`)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 0))
			for range 200 {
				text := "x foo" + randomText(rng, 4)
				var m Matcher
				m.Reset(p)
				m.WriteString(text)
				assert.Equal(t, re.MatchString(text), m.Matched(), text)
				var sm SetMatcher
				sm.Reset(set)
				sm.WriteString(text)
				assert.True(t, sm.Matches().Has(0))
			}
		})
	}
	wg.Wait()
}

// TestSplitSet: a set whose one automaton would pass Limits.MaxDFABytes is
// split into automata that fit together, and answers as one. The nine
// patternProperties of SchemaStore's drupal-recipe schema (Apache-2.0) are
// unanchored searches of some 5 KB each alone whose product passes 2 MiB.
func TestSplitSet(t *testing.T) {
	t.Parallel()
	exprs := []string{"block.block.*", "core.entity_form_display.*.*.*", "core.entity_view_display.*.*.*", "contact.form.*",
		"editor.editor.*", "field.field.*.*.*", "field.storage.*.*", "workflows.workflow.*", "user.role.*"}
	_, err := CompileSet(exprs[:8], ECMA262, Limits{MaxDFABytes: 256 << 20})
	require.Error(t, err, "one automaton for eight of them passes 2 MiB")
	set, err := CompileSet(exprs, ECMA262, Limits{})
	require.NoError(t, err)
	assert.Greater(t, set.Parts(), 1)
	assert.LessOrEqual(t, set.Parts(), DefaultMaxSetParts)
	assert.LessOrEqual(t, set.Size(), DefaultMaxDFABytes+1024, "the parts fit the limit together")
	// MaxSetParts bounds the automata, so the work per byte: one fewer
	// than the set needs refuses it, naming the limit.
	one, err := CompileSet(exprs[:1], ECMA262, Limits{})
	require.NoError(t, err)
	var m SetMatcher
	for parts := 1; parts <= set.Parts(); parts++ {
		got, err := CompileSet(exprs, ECMA262, Limits{MaxSetParts: parts})
		if err == nil {
			assert.LessOrEqual(t, got.Parts(), parts)
			continue
		}
		var perr *Error
		require.ErrorAs(t, err, &perr)
		assert.Equal(t, Limit, perr.Kind)
		assert.Equal(t, -1, perr.Index)
		assert.Contains(t, perr.Msg, "Limits.MaxSetParts", "parts %d", parts)
		assert.Less(t, parts, set.Parts(), "the default split fits %d", set.Parts())
	}
	for text, want := range map[string][]int{
		"field.storage.node.body":        {6},
		"field.field.node.article.body":  {5},
		"user.role.editor":               {8},
		"xblock_blockx/user.role":        {0, 8},
		"system.site":                    nil,
		"core.entity_view_display.a.b.c": {2},
	} {
		// One matcher for every text, Reset in between to a set of one
		// part and then to the split set, as an object's state is.
		m.Reset(one)
		m.WriteString("x")
		m.Reset(set)
		for i := range len(text) { // a byte at a time
			m.WriteString(text[i : i+1])
		}
		var got []int
		bits := m.Matches()
		for i := bits.Next(0); i >= 0; i = bits.Next(i + 1) {
			got = append(got, i)
		}
		assert.Equal(t, want, got, text)
		assert.Equal(t, bits, set.MatchString(text), text)
	}

	// Generated sets, split by a limit below their one automaton's size,
	// agree with their patterns one by one.
	rng := rand.New(rand.NewPCG(13, 14))
	refs := generated(t, 4, 60/scale, true)
	split := 0
	for len(refs) > 1 {
		var group []reference
		var exprs []string
		group, exprs, refs = nextGroup(rng, refs, 2, 4)
		whole, err := CompileSet(exprs, ECMA262, Limits{})
		if err != nil {
			continue
		}
		set, err := CompileSet(exprs, ECMA262, Limits{MaxDFABytes: whole.parts[0].d.size() - 1})
		if err != nil {
			require.Equal(t, -1, err.(*Error).Index, "%q: %v", exprs, err)
			continue
		}
		if set.Parts() > 1 {
			split++
		}
		for _, text := range group[0].texts(rng, 8) {
			checkSet(t, set, group, text)
		}
	}
	assert.Positive(t, split, "no generated set was split")
}

// nextGroup takes the next least to least+spread-1 references (fewer if
// refs runs out) and returns them, their expressions and the rest.
func nextGroup(rng *rand.Rand, refs []reference, least, spread int) (group []reference, exprs []string, rest []reference) {
	n := min(len(refs), least+rng.IntN(spread))
	group, rest = refs[:n], refs[n:]
	exprs = make([]string, n)
	for i, r := range group {
		exprs[i] = r.expr
	}
	return group, exprs, rest
}
