package pattern

import "unicode/utf8"

// A byteTrie recognises the UTF-8 encodings of one set of code points, one
// byte at a time. Node 0 is the root; an edge leads to another node or, on
// the last byte of a sequence, to trieAccept. The automaton builder uses it
// to run a rune-level instruction of the NFA over bytes, so the DFA rejects
// at the first byte of a multi-byte character that cannot belong to the set.
// Surrogates (U+D800–U+DFFF) have no UTF-8 encoding and are left out.
type byteTrie struct {
	nodes [][]trieEdge
}

// trieEdge leads from a node on the bytes lo–hi (inclusive).
type trieEdge struct {
	lo, hi byte
	next   int32 // a node index, or trieAccept
}

const (
	trieAccept int32 = -1 // the byte completes a code point of the set
	trieNone   int32 = -2 // no code point of the set continues with the byte
)

// newByteTrie builds the trie of the UTF-8 encodings of s.
func newByteTrie(s runeSet) *byteTrie {
	t := &byteTrie{nodes: [][]trieEdge{nil}}
	var seq []byteRange
	for i := 0; i < len(s); i += 2 {
		seq = forEachUTF8Range(s[i], s[i+1], seq, t.insert)
	}
	return t
}

// step returns where the trie goes from node on byte b.
func (t *byteTrie) step(node int32, b byte) int32 {
	edges := t.nodes[node]
	// The first edge that does not end below b.
	i, j := 0, len(edges)
	for i < j {
		h := int(uint(i+j) >> 1)
		if edges[h].hi < b {
			i = h + 1
		} else {
			j = h
		}
	}
	if i < len(edges) && edges[i].lo <= b {
		return edges[i].next
	}
	return trieNone
}

// insert adds one sequence of byte ranges. Sequences arrive in ascending
// order and two of them either share a prefix range exactly or differ there
// completely (a property of the split in forEachUTF8Range), so a shared
// prefix can only be the last edge of each node on the way.
func (t *byteTrie) insert(seq []byteRange) {
	node := int32(0)
	for i, r := range seq {
		edges := t.nodes[node]
		last := i == len(seq)-1
		if n := len(edges); n > 0 && edges[n-1].lo == r.lo && edges[n-1].hi == r.hi && !last && edges[n-1].next >= 0 {
			node = edges[n-1].next
			continue
		}
		next := trieAccept
		if !last {
			next = int32(len(t.nodes))
			t.nodes = append(t.nodes, nil)
		}
		t.nodes[node] = append(edges, trieEdge{lo: r.lo, hi: r.hi, next: next})
		node = next
	}
}

// byteRange is an inclusive range of byte values.
type byteRange struct{ lo, hi byte }

// forEachUTF8Range splits the code points lo–hi into sequences of byte
// ranges whose concatenations are exactly their UTF-8 encodings, in
// ascending order, and calls f with each (the slice is reused; buf is the
// scratch space, returned for reuse). It is the split of RE2's and Rust
// regex-syntax's UTF-8 compilers: first by encoded length, then until every
// range after the first differing byte is a full continuation range.
func forEachUTF8Range(lo, hi rune, buf []byteRange, f func([]byteRange)) []byteRange {
	type span struct{ lo, hi rune }
	stack := []span{{lo, hi}}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
	split:
		for r.lo <= r.hi {
			// Surrogates have no encoding.
			if r.lo < 0xD800 && r.hi >= 0xD800 || r.lo <= 0xDFFF && r.hi > 0xDFFF {
				if r.hi > 0xDFFF {
					stack = append(stack, span{max(r.lo, 0xE000), r.hi})
				}
				r.hi = min(r.hi, 0xD7FF)
				continue
			}
			if r.lo >= 0xD800 && r.hi <= 0xDFFF {
				break
			}
			// One encoded length at a time.
			for _, m := range [...]rune{0x7F, 0x7FF, 0xFFFF} {
				if r.lo <= m && m < r.hi {
					stack = append(stack, span{m + 1, r.hi})
					r.hi = m
					continue split
				}
			}
			// Split until the low bits of lo are all 0 and of hi all 1
			// below the first byte where they differ.
			for i := uint(1); i < utf8.UTFMax; i++ {
				m := rune(1)<<(6*i) - 1
				if r.lo&^m != r.hi&^m {
					if r.lo&m != 0 {
						stack = append(stack, span{r.lo | m + 1, r.hi})
						r.hi = r.lo | m
						continue split
					}
					if r.hi&m != m {
						stack = append(stack, span{r.hi &^ m, r.hi})
						r.hi = r.hi&^m - 1
						continue split
					}
				}
			}
			var a, b [utf8.UTFMax]byte
			n := utf8.EncodeRune(a[:], r.lo)
			utf8.EncodeRune(b[:], r.hi)
			buf = buf[:0]
			for i := range n {
				buf = append(buf, byteRange{a[i], b[i]})
			}
			f(buf)
			break
		}
	}
	return buf
}
