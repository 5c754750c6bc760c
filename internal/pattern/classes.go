package pattern

import (
	"slices"
	"unicode"
)

// runeClasses partitions the code points into classes that every rune set
// of an nfa, and every empty-width condition it uses, treats alike: the
// alphabet of the automaton. Surrogates belong to no class (they have no
// UTF-8 encoding).
type runeClasses struct {
	spans  []classSpan // ascending, disjoint; every code point but the surrogates
	n      int
	rep    []rune   // one code point of each class
	member []bitset // by set index: the classes in the set
}

// classSpan is a range of code points of one class.
type classSpan struct {
	lo, hi rune
	class  int32
}

// partitionRunes computes the classes of sets, also separating the code
// points of each of cuts (the ASCII word characters for \b, \n for line
// anchors). It adds its work to *steps.
func partitionRunes(sets, cuts []runeSet, steps *int) runeClasses {
	all := append(slices.Clone(sets), cuts...)
	bounds := []rune{0, 0xD800, 0xE000, unicode.MaxRune + 1}
	for _, s := range all {
		for i := 0; i < len(s); i += 2 {
			bounds = append(bounds, s[i], s[i+1]+1)
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	*steps += len(bounds)

	// Elementary spans, and the sets that hold each.
	type span struct{ lo, hi rune }
	var spans []span
	for i := 0; i+1 < len(bounds); i++ {
		// Between the bounds 0xD800 and 0xE000 lie only surrogates, in one
		// span or in several where a set's range ends among them.
		if bounds[i] < 0xD800 || bounds[i] >= 0xE000 {
			spans = append(spans, span{bounds[i], bounds[i+1] - 1})
		}
	}
	words := (len(all) + 63) / 64
	sig := make([]uint64, len(spans)*words)
	for k, s := range all {
		for i := 0; i < len(s); i += 2 {
			j, _ := slices.BinarySearchFunc(spans, s[i], func(sp span, r rune) int { return int(sp.lo - r) })
			for ; j < len(spans) && spans[j].hi <= s[i+1]; j++ {
				sig[j*words+k/64] |= 1 << (k % 64)
				*steps++
			}
		}
	}

	// One class per distinct signature.
	c := runeClasses{member: make([]bitset, len(sets))}
	ids := numbering{}
	var first []int // a span of each class
	var key []byte
	for j, sp := range spans {
		key = appendWords(key[:0], sig[j*words:(j+1)*words])
		id, fresh := ids.number(key)
		if fresh {
			c.rep = append(c.rep, sp.lo)
			first = append(first, j)
		}
		if n := len(c.spans); n > 0 && c.spans[n-1].class == id && c.spans[n-1].hi+1 == sp.lo {
			c.spans[n-1].hi = sp.hi
		} else {
			c.spans = append(c.spans, classSpan{sp.lo, sp.hi, id})
		}
	}
	c.n = len(c.rep)
	for k := range sets {
		c.member[k] = newBitset(c.n)
		for id, j := range first {
			if sig[j*words+k/64]&(1<<(k%64)) != 0 {
				c.member[k].set(id)
			}
		}
	}
	*steps += len(sets) * c.n
	return c
}
