package pattern

import (
	"slices"
	"unicode"
)

// A runeSet is a set of code points as sorted, disjoint, non-adjacent
// inclusive ranges [lo0, hi0, lo1, hi1, …]: the layout regexp/syntax uses
// for OpCharClass, so a set can become a syntax node without conversion.
type runeSet []rune

// setOf returns the set of the given inclusive ranges, normalised.
func setOf(pairs ...rune) runeSet {
	return runeSet(pairs).normalize()
}

// tableSet returns the code points of a Unicode range table.
func tableSet(t *unicode.RangeTable) runeSet {
	var s runeSet
	for _, r := range t.R16 {
		s = appendStride(s, rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		s = appendStride(s, rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return s.normalize()
}

func appendStride(s runeSet, lo, hi, stride rune) runeSet {
	if stride == 1 {
		return append(s, lo, hi)
	}
	for r := lo; r <= hi; r += stride {
		s = append(s, r, r)
	}
	return s
}

// normalize sorts the ranges and merges overlapping or adjacent ones, in
// place.
func (s runeSet) normalize() runeSet {
	if len(s) <= 2 {
		return s
	}
	type span struct{ lo, hi rune }
	spans := make([]span, len(s)/2)
	for i := range spans {
		spans[i] = span{s[2*i], s[2*i+1]}
	}
	slices.SortFunc(spans, func(a, b span) int { return int(a.lo - b.lo) })
	out := s[:0]
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], sp.hi)
			continue
		}
		out = append(out, sp.lo, sp.hi)
	}
	return out
}

// union returns the code points in any of the sets.
func union(sets ...runeSet) runeSet {
	var s runeSet
	for _, t := range sets {
		s = append(s, t...)
	}
	return s.normalize()
}

// complement returns the code points in [0, unicode.MaxRune] not in s.
func (s runeSet) complement() runeSet {
	var out runeSet
	next := rune(0)
	for i := 0; i < len(s); i += 2 {
		if s[i] > next {
			out = append(out, next, s[i]-1)
		}
		next = s[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

// minus returns the code points of s that are not in t.
func (s runeSet) minus(t runeSet) runeSet {
	return union(s.complement(), t).complement()
}

// contains reports whether r is in s.
func (s runeSet) contains(r rune) bool {
	i, found := slices.BinarySearch(s, r)
	return found || i%2 == 1
}
