package validator

import (
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// matcher narrows a sorted list of names (member names, or the string
// choices of an enum) to those that start with the bytes fed so far. Names
// sharing a prefix are contiguous in a sorted list, so the candidates are
// always one range [lo, hi), and the shortest candidate (the only one that
// can equal the prefix exactly) is at lo. Each byte narrows the range by
// binary search: O(log n) per byte, however many names there are. A first
// piece that is a whole name, as most member names are, skips the searches:
// one hash lookup in the index finds it and the names it begins.
type matcher struct {
	lo, hi, pos int
	dead        bool // a byte already left no candidate
}

func (mt *matcher) reset(n int) { mt.lo, mt.hi, mt.pos, mt.dead = 0, n, 0, false }

// feed narrows the range by p and returns the index in p of the byte that
// left no candidate, or -1 while candidates remain (or had already run out).
// With no names at all, the first byte leaves none. Each probe of the
// binary searches, and the lookup, is counted in *steps.
func (mt *matcher) feed(ix *schema.NameIndex, p []byte, steps *int64) int {
	if mt.dead {
		return -1
	}
	if mt.pos == 0 && mt.hi-mt.lo > 1 { // nothing fed yet, and more than one name to tell apart
		*steps++
		if lo, hi, ok := ix.Whole(p); ok {
			mt.lo, mt.hi, mt.pos = lo, hi, len(p)
			return -1
		}
	}
	names := ix.Names()
	for i, b := range p {
		lo, hi, pos := mt.lo, mt.hi, mt.pos
		if hi-lo == 1 { // one candidate left: compare the rest, no search
			s, rest := names[lo][pos:], p[i:]
			if len(rest) <= len(s) && s[:len(rest)] == string(rest) { // the usual case: one memequal
				mt.pos += len(rest)
				*steps += int64(len(rest))
				return -1
			}
			n := 0
			for n < len(rest) && n < len(s) && s[n] == rest[n] {
				n++
			}
			mt.pos += n
			if n == len(rest) {
				*steps += int64(n)
				return -1
			}
			*steps += int64(n + 1)
			mt.dead = true
			return i + n
		}
		// Within [lo, hi) every name has the same pos bytes; the ones that
		// end there come first, then they are ordered by their byte at pos.
		first, end := lo, hi
		for first < end { // the first name with a byte >= b at pos
			*steps++
			mid := int(uint(first+end) >> 1)
			if s := names[mid]; len(s) > pos && s[pos] >= b {
				end = mid
			} else {
				first = mid + 1
			}
		}
		end = hi
		for l := first; l < end; { // the first name with a byte > b at pos
			*steps++
			mid := int(uint(l+end) >> 1)
			if names[mid][pos] > b {
				end = mid
			} else {
				l = mid + 1
			}
		}
		mt.lo, mt.hi, mt.pos = first, end, pos+1
		if first >= end {
			mt.dead = true
			return i
		}
	}
	return -1
}

// growsInto reports whether some candidate continues what was fed with
// one of chars.
func (mt *matcher) growsInto(ix *schema.NameIndex, chars jsontok.CharRange, steps *int64) bool {
	names := ix.Names()
	return chars.Some(func(lo, hi rune) bool { return mt.growsWithin(names, lo, hi, steps) })
}

// growsWithin reports whether some candidate continues what was fed with
// a character in [lo, hi]. UTF-8 keeps the order of code points, so the
// first candidate whose rest is at least lo's encoding (found by binary
// search; a candidate that ends here sorts first) has the least next
// character from lo on. Each probe is counted in *steps.
func (mt *matcher) growsWithin(names []string, lo, hi rune, steps *int64) bool {
	if mt.dead {
		return false
	}
	var buf [utf8.UTFMax]byte
	from := string(buf[:utf8.EncodeRune(buf[:], lo)])
	first, end := mt.lo, mt.hi
	for first < end {
		*steps++
		mid := int(uint(first+end) >> 1)
		if names[mid][mt.pos:] >= from {
			end = mid
		} else {
			first = mid + 1
		}
	}
	if first == mt.hi {
		return false
	}
	next, _ := utf8.DecodeRuneInString(names[first][mt.pos:])
	return next <= hi
}

// match returns the index of the name equal to everything fed, or -1.
func (mt *matcher) match(ix *schema.NameIndex) int {
	names := ix.Names()
	if !mt.dead && mt.lo < mt.hi && len(names[mt.lo]) == mt.pos {
		return mt.lo
	}
	return -1
}
