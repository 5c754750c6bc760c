package schema_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
)

func TestNameIndexWhole(t *testing.T) {
	t.Parallel()
	x := schema.IndexNames([]string{"", "a", "ab", "abc", "ac", "b", "é"})
	for _, c := range []struct {
		p       string
		ok      bool
		lo, end int
	}{
		{"", true, 0, 7}, // every name starts with ""
		{"a", true, 1, 5},
		{"ab", true, 2, 4},
		{"abc", true, 3, 4},
		{"ac", true, 4, 5},
		{"b", true, 5, 6},
		{"é", true, 6, 7},
		{"abd", false, 0, 0},  // a prefix of no name, and not one
		{"abcd", false, 0, 0}, // a longer name than any
		{"c", false, 0, 0},
		{"\xc3", false, 0, 0}, // half of é
	} {
		lo, end, ok := x.Whole([]byte(c.p))
		assert.Equal(t, c.ok, ok, "%q", c.p)
		if c.ok {
			assert.Equal(t, []int{c.lo, c.end}, []int{lo, end}, "%q", c.p)
		}
	}
	assert.Equal(t, 7, x.Len())
}

func TestNameIndexEmpty(t *testing.T) {
	t.Parallel()
	var zero schema.NameIndex
	var none *schema.NameIndex
	empty := schema.IndexNames(nil)
	for name, x := range map[string]*schema.NameIndex{"zero": &zero, "nil": none, "no names": &empty} {
		_, _, ok := x.Whole(nil)
		assert.False(t, ok, name)
		_, _, ok = x.Whole([]byte("a"))
		assert.False(t, ok, name)
		assert.Zero(t, x.Len(), name)
		assert.Empty(t, x.Names(), name)
	}
}

// TestNameIndexAgainstAScan checks Whole, on random sets of names over a
// small alphabet (so names are often prefixes of one another), against a
// scan of the names for every string up to one byte longer than the
// longest name.
func TestNameIndexAgainstAScan(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 0x4e414d45))
	for range 300 {
		var names []string
		for range r.IntN(40) {
			names = append(names, randomWord(r, 4))
		}
		slices.Sort(names)
		names = slices.Compact(names)
		x := schema.IndexNames(names)
		require.Equal(t, names, x.Names())
		for _, p := range allWords(5) {
			lo, end, ok := x.Whole([]byte(p))
			i, found := slices.BinarySearch(names, p)
			require.Equal(t, found, ok, "%q in %q", p, names)
			if !found {
				continue
			}
			want := i
			for want < len(names) && strings.HasPrefix(names[want], p) {
				want++
			}
			require.Equal(t, []int{i, want}, []int{lo, end}, "%q in %q", p, names)
		}
	}
}

// randomWord returns a word of up to max letters from "abc".
func randomWord(r *rand.Rand, max int) string {
	b := make([]byte, r.IntN(max+1))
	for i := range b {
		b[i] = "abc"[r.IntN(3)]
	}
	return string(b)
}

// allWords returns every word of up to max letters from "abc".
func allWords(max int) []string {
	words := []string{""}
	for i := 0; i < len(words); i++ {
		if len(words[i]) < max {
			for _, c := range "abc" {
				words = append(words, words[i]+string(c))
			}
		}
	}
	return words
}
