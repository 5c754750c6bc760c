package pattern

import (
	"encoding/binary"
	"math"
	"unicode/utf8"
)

// A classTrie reads UTF-8 one byte at a time and says, at the last byte of
// each character, which rune class it is: the byte-level front of the
// automaton, shared by all its states. Node 0 is the boundary between
// characters; the other nodes are inside a character, where only
// continuation bytes 0x80–0xBF may follow. Identical subtrees are merged,
// so a node stands for "what may still complete this character".
type classTrie struct {
	root  [256]int32 // by byte: a class (≥ 0), a node (-node), or badByte
	cont  []int32    // by (node-1)*64 + byte-0x80: the same
	nodes int        // nodes inside a character, numbered 1…nodes
	reach []bitset   // by node-1: the classes that can complete it
}

// badByte marks a byte that no valid UTF-8 text has there.
const badByte int32 = math.MinInt32

// trieEdge leads from a node on the bytes lo–hi (inclusive) to a node
// (≥ 1) or, on the last byte of a character, to a class (-class-1).
type trieEdge struct {
	lo, hi byte
	next   int32
}

// newClassTrie builds the trie of the spans, whose classes are mapped
// through classOf, with nclass classes in all.
func newClassTrie(spans []classSpan, classOf func(int32) int32, nclass int) *classTrie {
	// The trie, as lists of edges; node 0 is the root.
	nodes := [][]trieEdge{nil}
	var seq []byteRange
	for _, sp := range spans {
		leaf := -classOf(sp.class) - 1
		seq = forEachUTF8Range(sp.lo, sp.hi, seq, func(rs []byteRange) {
			node := int32(0)
			for i, r := range rs {
				edges := nodes[node]
				last := i == len(rs)-1
				// Sequences arrive in ascending order, and two share a
				// prefix range exactly or differ there completely (a
				// property of the split), so a shared prefix can only be
				// the last edge of each node on the way.
				if n := len(edges); !last && n > 0 && edges[n-1].lo == r.lo && edges[n-1].hi == r.hi {
					node = edges[n-1].next
					continue
				}
				next := leaf
				if !last {
					next = int32(len(nodes))
					nodes = append(nodes, nil)
				}
				nodes[node] = append(edges, trieEdge{lo: r.lo, hi: r.hi, next: next})
				node = next
			}
		})
	}

	// Merge identical subtrees, children first (they were created after
	// their parents), joining adjacent edges that lead to the same place.
	canon := make([]int32, len(nodes))
	ids := numbering{}
	var unique [][]trieEdge
	var key []byte
	for n := len(nodes) - 1; n >= 1; n-- {
		edges := canonEdges(nodes[n], canon)
		key = key[:0]
		for _, e := range edges {
			key = append(key, e.lo, e.hi)
			key = binary.LittleEndian.AppendUint32(key, uint32(e.next))
		}
		id, fresh := ids.number(key)
		if fresh {
			unique = append(unique, edges)
		}
		canon[n] = id + 1
	}

	t := &classTrie{nodes: len(unique), cont: make([]int32, 64*len(unique)), reach: make([]bitset, len(unique))}
	fill := func(row []int32, edges []trieEdge, base int) {
		for i := range row {
			row[i] = badByte
		}
		for _, e := range edges {
			for b := int(e.lo); b <= int(e.hi); b++ {
				row[b-base] = entry(e.next)
			}
		}
	}
	fill(t.root[:], canonEdges(nodes[0], canon), 0)
	// unique[i] is node i+1; its children have smaller numbers.
	for i, edges := range unique {
		fill(t.cont[i*64:(i+1)*64], edges, 0x80)
		t.reach[i] = newBitset(nclass)
		for _, e := range edges {
			if e.next < 0 {
				t.reach[i].set(int(-e.next - 1))
			} else {
				t.reach[e.next-1].orInto(t.reach[i])
			}
		}
	}
	return t
}

// canonEdges returns edges with their nodes replaced by canonical ones and
// adjacent edges to the same place joined.
func canonEdges(edges []trieEdge, canon []int32) []trieEdge {
	var out []trieEdge
	for _, e := range edges {
		if e.next > 0 {
			e.next = canon[e.next]
		}
		if n := len(out); n > 0 && out[n-1].next == e.next && int(out[n-1].hi)+1 == int(e.lo) {
			out[n-1].hi = e.hi
			continue
		}
		out = append(out, e)
	}
	return out
}

// entry encodes an edge target as a table entry: a class ≥ 0, a node < 0.
func entry(next int32) int32 {
	if next < 0 {
		return -next - 1
	}
	return -next
}

// step returns the entry for byte b at node (0 between characters).
func (t *classTrie) step(node int32, b byte) int32 {
	if node == 0 {
		return t.root[b]
	}
	if b < 0x80 || b > 0xBF {
		return badByte
	}
	return t.cont[int(node-1)<<6|int(b-0x80)]
}

// size is the memory the trie holds, in bytes.
func (t *classTrie) size() int {
	n := 4*len(t.root) + 4*len(t.cont)
	for _, r := range t.reach {
		n += 8 * len(r)
	}
	return n
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
