package pattern

import "encoding/binary"

// minimize merges the states of d that no text can tell apart (Moore's
// partition refinement: split blocks by the blocks their transitions reach
// until nothing splits), spending at most budget steps. If the budget runs
// out it returns d unchanged: minimizing only saves memory, the answers are
// the same. Sinks stay first and state 0 stays dead, because a block is
// numbered by its smallest member and no two sinks are equivalent (their
// matched sets differ).
func minimize(d *dfa, budget int) *dfa {
	k := int(d.stride)
	n := len(d.accept)
	block := make([]int32, n)
	nblocks := partition(block, func(s int, key []byte) []byte {
		return binary.LittleEndian.AppendUint32(key, d.accept[s])
	})
	steps := 0
	for {
		steps += n * (k + 1)
		if steps > budget {
			return d
		}
		prev := append([]int32(nil), block...)
		count := partition(block, func(s int, key []byte) []byte {
			key = binary.LittleEndian.AppendUint32(key, uint32(prev[s]))
			for _, t := range d.trans[s*k : (s+1)*k] {
				key = binary.LittleEndian.AppendUint32(key, uint32(prev[t/uint32(k)]))
			}
			return key
		})
		if count == nblocks {
			break
		}
		nblocks = count
	}
	if nblocks == n {
		return mergeClasses(d)
	}
	// Blocks are numbered by first appearance, so by smallest member.
	m := *d
	m.trans = make([]uint32, nblocks*k)
	m.accept = make([]uint32, nblocks)
	done := make([]bool, nblocks)
	for s := range n {
		b := block[s]
		if done[b] {
			continue
		}
		done[b] = true
		m.accept[b] = d.accept[s]
		for c, t := range d.trans[s*k : (s+1)*k] {
			m.trans[int(b)*k+c] = uint32(block[t/uint32(k)]) * uint32(k)
		}
	}
	m.start = uint32(block[d.start/uint32(k)]) * uint32(k)
	return mergeClasses(&m)
}

// mergeClasses merges the byte classes that every state treats alike (the
// classes were cut for the NFA, and minimizing can make columns equal).
func mergeClasses(d *dfa) *dfa {
	k, n := int(d.stride), len(d.accept)
	col := make([]int32, k)
	ncols := partition(col, func(c int, key []byte) []byte {
		for s := range n {
			key = binary.LittleEndian.AppendUint32(key, d.trans[s*k+c]/uint32(k))
		}
		return key
	})
	if ncols == k {
		return d
	}
	m := *d
	m.stride = uint32(ncols)
	for b := range m.class {
		m.class[b] = uint8(col[d.class[b]])
	}
	m.trans = make([]uint32, n*ncols)
	for s := range n {
		for c := range k {
			m.trans[s*ncols+int(col[c])] = d.trans[s*k+c] / uint32(k) * uint32(ncols)
		}
	}
	m.sinks = d.sinks / uint32(k) * uint32(ncols)
	m.start = d.start / uint32(k) * uint32(ncols)
	return &m
}

// partition numbers the states by the key of each, in order of first
// appearance, writing the numbers to block; it returns how many there are.
func partition(block []int32, key func(s int, key []byte) []byte) int {
	ids := make(map[string]int32, len(block))
	var buf []byte
	for s := range block {
		buf = key(s, buf[:0])
		id, ok := ids[string(buf)]
		if !ok {
			id = int32(len(ids))
			ids[string(buf)] = id
		}
		block[s] = id
	}
	return len(ids)
}
