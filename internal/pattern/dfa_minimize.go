package pattern

import "encoding/binary"

// minimize merges the states of t that no text can tell apart (Moore's
// partition refinement: split blocks by the blocks their transitions reach
// until nothing splits), spending at most budget steps, and returns the
// steps it spent. If the budget runs out it returns t unchanged:
// minimizing only saves memory, the answers are the same. Sinks stay first and state 0 stays dead, because a block is
// numbered by its smallest member and no two sinks are equivalent (their
// matched sets differ).
func minimize(t *table, budget int) (*table, int) {
	n, k := t.states(), t.cols
	block := make([]int32, n)
	nblocks := partition(block, func(s int, key []byte) []byte {
		key = binary.LittleEndian.AppendUint32(key, t.accept[s])
		return binary.LittleEndian.AppendUint32(key, t.sticky[s])
	})
	steps := 0
	for {
		if steps+n*(k+1) > budget {
			return t, steps
		}
		steps += n * (k + 1)
		prev := append([]int32(nil), block...)
		count := partition(block, func(s int, key []byte) []byte {
			key = binary.LittleEndian.AppendUint32(key, uint32(prev[s]))
			for _, to := range t.next[s*k : (s+1)*k] {
				key = binary.LittleEndian.AppendUint32(key, uint32(prev[to]))
			}
			return key
		})
		if count == nblocks {
			break
		}
		nblocks = count
	}
	if nblocks == n {
		return t, steps
	}
	// Blocks are numbered by first appearance, so by smallest member.
	m := *t
	m.next = make([]int32, nblocks*k)
	m.accept = make([]uint32, nblocks)
	m.sticky = make([]uint32, nblocks)
	done := make([]bool, nblocks)
	for s := range n {
		b := block[s]
		if done[b] {
			continue
		}
		done[b] = true
		m.accept[b], m.sticky[b] = t.accept[s], t.sticky[s]
		for c, to := range t.next[s*k : (s+1)*k] {
			m.next[int(b)*k+c] = block[to]
		}
	}
	m.start = block[t.start]
	return &m, steps
}

// mergeClasses merges, in place, the class columns of t that every state
// treats alike (classes were cut for the NFA, and minimizing can make
// columns equal), and returns each old class's new column. The invalid
// column stays last.
func mergeClasses(t *table) []int32 {
	n, k := t.states(), t.cols
	nclass := k - 1
	col := make([]int32, nclass)
	ncols := partition(col, func(c int, key []byte) []byte {
		for s := range n {
			key = binary.LittleEndian.AppendUint32(key, uint32(t.next[s*k+c]))
		}
		return key
	})
	if ncols == nclass {
		return col
	}
	next := make([]int32, n*(ncols+1))
	for s := range n {
		for c := range nclass {
			next[s*(ncols+1)+int(col[c])] = t.next[s*k+c]
		}
		next[s*(ncols+1)+ncols] = t.next[s*k+nclass]
	}
	t.next, t.cols = next, ncols+1
	return col
}

// partition numbers the items by the key of each, in order of first
// appearance, writing the numbers to block; it returns how many there are.
func partition(block []int32, key func(i int, key []byte) []byte) int {
	ids := make(numbering, len(block))
	var buf []byte
	for i := range block {
		buf = key(i, buf[:0])
		block[i], _ = ids.number(buf)
	}
	return len(ids)
}
