package pattern

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGrows pins Grows on hand-picked patterns and sets: whether one more
// character, not yet known, can follow the text with a match still
// possible.
func TestGrows(t *testing.T) {
	t.Parallel()
	cases := []struct {
		expr, text string
		want       bool
	}{
		{`^ab$`, "", true},
		{`^ab$`, "a", true},
		{`^ab$`, "ab", false}, // only the end of the text can follow
		{`^ab$`, "ax", false}, // dead
		{`^a{2}$`, "aa", false},
		{`^$`, "", false},
		{`^$|^a`, "", true},
		{`^ab`, "ab", true}, // matched whatever follows
		{`ab$`, "ab", true}, // "abab" still matches
		{`^[a-c]*$`, "abc", true},
		{`^.$`, "é", false},
		{`^\d+$`, "12", true},
	}
	for _, tc := range cases {
		m := matcherAfter(t, tc.expr, tc.text)
		assert.Equal(t, tc.want, m.Grows(), "%s after %q", tc.expr, tc.text)
	}
	var zero Matcher
	assert.False(t, zero.Grows(), "the zero Matcher is dead")

	p, err := Compile(`^é$`, ECMA262, Limits{})
	require.NoError(t, err)
	var m Matcher
	m.Reset(p)
	m.Write([]byte("é")[:1])
	assert.True(t, m.Grows(), "inside a character it cannot tell, so it does not refuse")

	set, err := CompileSet([]string{`^a$`, `^b$`}, ECMA262, Limits{})
	require.NoError(t, err)
	var sm SetMatcher
	sm.Reset(set)
	sm.WriteString("a")
	assert.False(t, sm.Grows(), "neither member can take one more character")
	set, err = CompileSet([]string{`^a$`, `^ab`}, ECMA262, Limits{})
	require.NoError(t, err)
	sm.Reset(set)
	sm.WriteString("a")
	assert.True(t, sm.Grows(), "^ab can")
}

// TestGrowsWithin pins GrowsWithin where a range meets the ends of the
// characters that can follow, for a pattern and a set.
func TestGrowsWithin(t *testing.T) {
	t.Parallel()
	cases := []struct {
		expr, text string
		lo, hi     rune
		want       bool
	}{
		{`^x[b-d]$`, "x", 'a', 'a', false},
		{`^x[b-d]$`, "x", 'e', 'e', false},
		{`^x[b-d]$`, "x", 'a', 'b', true},
		{`^x[b-d]$`, "x", 'd', 'e', true},
		{`^x[b-d]$`, "x", 0, 'a', false},
		{`^x[b-d]$`, "x", 'e', 0x10FFFF, false},
		{`^x[b-d]$`, "xb", 0, 0x10FFFF, false}, // only the end can follow
		{`^x[b-d]$`, "", 'x', 'x', true},
		{`^[^é]$`, "", 'é', 'é', false},
		{`^[^é]$`, "", 'é', 'é' + 1, true},
		{`^[\u0370-\u03FF]+$`, "", 0x0370, 0x037F, true},
		{`^[\u0370-\u03FF]+$`, "", 0x0400, 0x04FF, false}, // Cyrillic, after the Greek block
		{`^[\u0370-\u03FF]+$`, "", 0x1F600, 0x1F64F, false},
		{`^.*😀`, "", 0x1F600, 0x1F64F, true}, // unanchored at the end: anything can follow
		// States whose characters adjoin (b–c after a, d–e after b) keep
		// their ranges apart.
		{`^(?:a[b-c]|b[d-e])$`, "a", 'd', 'e', false},
		{`^(?:a[b-c]|b[d-e])$`, "a", 'c', 'd', true},
		{`^(?:a[b-c]|b[d-e])$`, "b", 'd', 'd', true},
		{`^(?:a[b-c]|b[d-e])$`, "b", 'b', 'c', false},
		{`^ab`, "ab", 0x0400, 0x04FF, true}, // matched whatever follows
		{`^ab`, "ax", 0, 0x10FFFF, false},   // dead
	}
	for _, tc := range cases {
		m := matcherAfter(t, tc.expr, tc.text)
		assert.Equal(t, tc.want, m.GrowsWithin(tc.lo, tc.hi), "%s after %q in %U–%U", tc.expr, tc.text, tc.lo, tc.hi)
	}
	var zero Matcher
	assert.False(t, zero.GrowsWithin(0, 0x10FFFF), "the zero Matcher is dead")

	set, err := CompileSet([]string{`^a$`, `^a[0-9]`}, ECMA262, Limits{})
	require.NoError(t, err)
	var sm SetMatcher
	sm.Reset(set)
	sm.WriteString("a")
	assert.True(t, sm.GrowsWithin('0', '9'), "^a[0-9] takes a digit")
	assert.False(t, sm.GrowsWithin('A', 'Z'), "neither member takes a letter")
}

// TestGrowsWithinPastTheLimits: an automaton that fits Limits.MaxDFABytes
// only without its live ranges still compiles, and GrowsWithin then
// answers as Grows (never refusing what a character could continue).
func TestGrowsWithinPastTheLimits(t *testing.T) {
	t.Parallel()
	const expr = `^x\p{L}+$`
	full, err := Compile(expr, ECMA262, Limits{})
	require.NoError(t, err)
	require.NotNil(t, full.d.liveSet)
	bare := full.d.size() - 4*(len(full.d.live)+len(full.d.liveAt)+len(full.d.liveSet))
	p, err := Compile(expr, ECMA262, Limits{MaxDFABytes: bare})
	require.NoError(t, err, "the automaton fits without its live ranges")
	require.Nil(t, p.d.liveSet)
	var m Matcher
	m.Reset(p)
	m.WriteString("x")
	assert.True(t, m.GrowsWithin('0', '9'), "without the ranges it cannot tell, so it does not refuse")
	m.Reset(full)
	m.WriteString("x")
	assert.False(t, m.GrowsWithin('0', '9'), "with them a digit is refused")
}

// matcherAfter returns a Matcher of the ECMA-262 expr that has read text.
func matcherAfter(t *testing.T, expr, text string) *Matcher {
	t.Helper()
	p, err := Compile(expr, ECMA262, Limits{})
	require.NoError(t, err, expr)
	m := &Matcher{}
	m.Reset(p)
	m.WriteString(text)
	return m
}

// TestSurrogatesAreNoCharacters: no text holds a lone surrogate (UTF-8
// has no encoding for one, and a JSON escape of one is a syntax error),
// so an ECMA-262 pattern that needs one can never match, and its matcher
// is dead from the first byte; where a surrogate is only an alternative,
// the rest still matches.
func TestSurrogatesAreNoCharacters(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{`\uD83D`, `[\uDB00-\uDFFF]x`, `^a\uDC00b$`} {
		m := matcherAfter(t, expr, "")
		assert.True(t, m.Dead(), "%s can match no text", expr)
	}
	m := matcherAfter(t, `^a\uDC00?b$`, "ab")
	assert.True(t, m.Matched())
	m = matcherAfter(t, `^[^\uDC00]$`, "")
	assert.True(t, m.GrowsWithin(0xE000, 0xE000))
	assert.False(t, m.Done())
}
