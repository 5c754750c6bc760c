package pattern

import (
	"math/rand/v2"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trieAccepts runs the trie over b and reports whether it ends exactly on
// the last byte with a complete code point.
func trieAccepts(t *byteTrie, b []byte) bool {
	node := int32(0)
	for i, c := range b {
		node = t.step(node, c)
		if node == trieAccept {
			return i == len(b)-1
		}
		if node == trieNone {
			return false
		}
	}
	return false
}

// TestByteTrieExhaustive checks, for every code point, that the trie of a
// set accepts the UTF-8 encoding exactly when the code point is in the set,
// for sets that cross every encoding-length boundary, the surrogates, and
// random ranges.
func TestByteTrieExhaustive(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	sets := map[string]runeSet{
		"all":        {0, unicode.MaxRune},
		"letters":    tableSet(unicode.L),
		"not L":      tableSet(unicode.L).complement(),
		"boundaries": setOf(0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0xD7FF, 0xE000, 0x10FFFF, 0x10FFFF),
		"surrogates": setOf(0xD000, 0xDFFF),
		"singles":    setOf('a', 'a', 0xE9, 0xE9, 0x20AC, 0x20AC, 0x1F432, 0x1F432),
	}
	for i := range 6 {
		var s runeSet
		for range 1 + rng.IntN(40) {
			lo := rune(rng.IntN(unicode.MaxRune + 1))
			s = append(s, lo, min(lo+rune(rng.IntN(1<<uint(rng.IntN(20)))), unicode.MaxRune))
		}
		sets["random"+string(rune('0'+i))] = s.normalize()
	}
	for name, set := range sets {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			trie := newByteTrie(set)
			var buf [utf8.UTFMax]byte
			for r := rune(0); r <= unicode.MaxRune; r++ {
				if r >= 0xD800 && r <= 0xDFFF {
					continue
				}
				n := utf8.EncodeRune(buf[:], r)
				if trieAccepts(trie, buf[:n]) != set.contains(r) {
					require.Failf(t, "wrong verdict", "U+%04X: in set %v", r, set.contains(r))
				}
			}
			// Never an encoding of a surrogate, an overlong form or past
			// U+10FFFF, nor a stray continuation byte.
			for _, bad := range [][]byte{
				{0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xC0, 0x80}, {0xC1, 0xBF},
				{0xE0, 0x80, 0x80}, {0xF0, 0x80, 0x80, 0x80}, {0xF4, 0x90, 0x80, 0x80},
				{0xF5, 0x80, 0x80, 0x80}, {0x80}, {0xBF}, {0xFF},
			} {
				assert.False(t, trieAccepts(trie, bad), "% X", bad)
			}
		})
	}
}
