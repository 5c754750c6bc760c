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
		p, err := Compile(tc.expr, ECMA262, Limits{})
		require.NoError(t, err, tc.expr)
		var m Matcher
		m.Reset(p)
		m.WriteString(tc.text)
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
