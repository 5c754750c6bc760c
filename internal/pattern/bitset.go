package pattern

import "math/bits"

// bitset is a set of pattern indexes, one bit each.
type bitset []uint64

// newBitset returns an empty set for n patterns (at least one word, so an
// empty Set still has bitsets to index).
func newBitset(n int) bitset { return make(bitset, bitsetWords(n)) }

// bitsetWords is the length of a bitset of n bits.
func bitsetWords(n int) int { return max(1, (n+63)/64) }

func (s bitset) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s bitset) set(i int)      { s[i/64] |= 1 << (i % 64) }

func (s bitset) empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

func (s bitset) count() int {
	c := 0
	for _, w := range s {
		c += bits.OnesCount64(w)
	}
	return c
}

// subsetOf reports whether every bit of s is in t.
func (s bitset) subsetOf(t bitset) bool {
	for i, w := range s {
		if w&^t[i] != 0 {
			return false
		}
	}
	return true
}

// intersects reports whether s and t have a bit in common.
func (s bitset) intersects(t bitset) bool {
	for i, w := range s {
		if w&t[i] != 0 {
			return true
		}
	}
	return false
}

// orInto adds the bits of s to t and reports whether t changed.
func (s bitset) orInto(t bitset) bool {
	changed := false
	for i, w := range s {
		if w&^t[i] != 0 {
			t[i] |= w
			changed = true
		}
	}
	return changed
}

// Bits is a read-only set of pattern indexes, as returned by
// SetMatcher.Matches. It shares memory with the Set and stays valid for
// the Set's lifetime; reading it allocates nothing.
type Bits struct {
	w bitset
	n int
}

// Len is the number of patterns the set ranges over (the length of the
// slice given to CompileSet).
func (b Bits) Len() int { return b.n }

// Has reports whether pattern i is in the set; out-of-range i reports false.
func (b Bits) Has(i int) bool { return i >= 0 && i < b.n && b.w.has(i) }

// Count is the number of patterns in the set.
func (b Bits) Count() int { return b.w.count() }

// Empty reports whether the set has no pattern.
func (b Bits) Empty() bool { return b.w.empty() }

// Next returns the smallest pattern index ≥ i in the set, or -1 if there
// is none: `for i := b.Next(0); i >= 0; i = b.Next(i + 1)` visits them all.
func (b Bits) Next(i int) int {
	if i < 0 {
		i = 0
	}
	for ; i < b.n; i = (i/64 + 1) * 64 {
		if w := b.w[i/64] >> (i % 64); w != 0 {
			return i + bits.TrailingZeros64(w)
		}
	}
	return -1
}
