package pattern

import (
	"math/rand/v2"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trieClass runs the trie over b and returns the class it names at the
// last byte, or -1 if b is not exactly one character to it; ok is false if
// a node on the way cannot reach that class.
func trieClass(trie *classTrie, b []byte) (class int32, ok bool) {
	node := int32(0)
	var path [utf8.UTFMax]int32
	depth := 0
	for i, c := range b {
		e := trie.step(node, c)
		switch {
		case e == badByte:
			return -1, true
		case e >= 0:
			if i != len(b)-1 {
				return -1, true
			}
			for _, n := range path[:depth] {
				if !trie.reach[n-1].has(int(e)) {
					return e, false
				}
			}
			return e, true
		default:
			node = -e
			path[depth] = node
			depth++
		}
	}
	return -1, true
}

// TestClassTrieExhaustive checks, for every code point, that the trie of
// a partition names the class of the code point at the last byte of its
// UTF-8 encoding, and that the class holds the code point exactly when
// each set does; and that it refuses what is not UTF-8. The sets cross
// every encoding-length boundary, the surrogates, and random ranges.
func TestClassTrieExhaustive(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	families := map[string][]runeSet{
		"all":        {{0, unicode.MaxRune}},
		"letters":    {tableSet(unicode.L), tableSet(unicode.Nd), wordSet},
		"boundaries": {setOf(0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0xD7FF, 0xE000, 0x10FFFF, 0x10FFFF)},
		"surrogates": {setOf(0xD000, 0xDFFF), setOf(0xDC00, 0xE0FF)},
		"singles":    {setOf('a', 'a'), setOf(0xE9, 0xE9, 0x20AC, 0x20AC), setOf(0x1F432, 0x1F432)},
	}
	for i := range 4 {
		var sets []runeSet
		for range 1 + rng.IntN(4) {
			var s runeSet
			for range 1 + rng.IntN(40) {
				lo := rune(rng.IntN(unicode.MaxRune + 1))
				s = append(s, lo, min(lo+rune(rng.IntN(1<<uint(rng.IntN(20)))), unicode.MaxRune))
			}
			sets = append(sets, s.normalize())
		}
		families["random"+string(rune('0'+i))] = sets
	}
	for name, sets := range families {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			steps := 0
			classes := partitionRunes(sets, nil, &steps)
			trie := newClassTrie(classes.spans, func(c int32) int32 { return c }, classes.n)
			check := func(r rune) {
				var buf [utf8.UTFMax]byte
				n := utf8.EncodeRune(buf[:], r)
				c, ok := trieClass(trie, buf[:n])
				if c < 0 || !ok {
					require.Failf(t, "no class, or a node that cannot reach it", "U+%04X: %d", r, c)
				}
				for k, s := range sets {
					if classes.member[k].has(int(c)) != s.contains(r) {
						require.Failf(t, "wrong class", "U+%04X: class %d, set %d", r, c, k)
					}
				}
			}
			// Every code point (every scale-th under the race detector,
			// plus all of them next to a range end).
			for r := rune(0); r <= unicode.MaxRune; r += scale {
				if r < 0xD800 || r > 0xDFFF {
					check(r)
				}
			}
			for _, s := range sets {
				for _, end := range s {
					for r := max(end-2, 0); r <= min(end+2, unicode.MaxRune); r++ {
						if r < 0xD800 || r > 0xDFFF {
							check(r)
						}
					}
				}
			}
			for _, bad := range [][]byte{
				{0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xC0, 0x80}, {0xC1, 0xBF},
				{0xE0, 0x80, 0x80}, {0xF0, 0x80, 0x80, 0x80}, {0xF4, 0x90, 0x80, 0x80},
				{0xF5, 0x80, 0x80, 0x80}, {0x80}, {0xBF}, {0xFF}, {0xC3, 0x41},
			} {
				c, _ := trieClass(trie, bad)
				assert.Equal(t, int32(-1), c, "% X", bad)
			}
		})
	}
}
