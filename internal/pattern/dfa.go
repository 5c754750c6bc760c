package pattern

import (
	"encoding/binary"
	"slices"
)

// A dfa is the finished automaton: a transition table over byte classes,
// with state numbers premultiplied by the row length so a step is one
// lookup. States below sinks never change any more: state 0 is dead (no
// pattern matched and none can), the others are settled (their patterns
// matched, and no other can).
type dfa struct {
	class  [256]uint8
	stride uint32   // number of byte classes: the length of a row
	trans  []uint32 // state offset + class → next state offset
	sinks  uint32   // offsets below sinks are sink states
	start  uint32
	accept []uint32 // by state number: index of the bitset of patterns that match at the end
	bits   []uint64 // the distinct end bitsets, words each; bitset 0 is empty
	words  int
	npat   int
}

// run feeds b from state s, and returns the state reached and the index in
// b of the byte that made it dead, or -1.
func (d *dfa) run(s uint32, b []byte) (uint32, int) {
	if s < d.sinks {
		if s == 0 && len(b) > 0 {
			return 0, 0
		}
		return s, -1
	}
	for i, c := range b {
		s = d.trans[s+uint32(d.class[c])]
		if s < d.sinks {
			if s == 0 {
				return 0, i
			}
			return s, -1
		}
	}
	return s, -1
}

// runString is run for a string.
func (d *dfa) runString(s uint32, b string) (uint32, int) {
	if s < d.sinks {
		if s == 0 && len(b) > 0 {
			return 0, 0
		}
		return s, -1
	}
	for i := 0; i < len(b); i++ {
		s = d.trans[s+uint32(d.class[b[i]])]
		if s < d.sinks {
			if s == 0 {
				return 0, i
			}
			return s, -1
		}
	}
	return s, -1
}

// matches returns the patterns that match if the text ends in state s.
func (d *dfa) matches(s uint32) Bits {
	id := int(d.accept[s/d.stride])
	return Bits{w: d.bits[id*d.words : (id+1)*d.words], n: d.npat}
}

// size is the memory the automaton holds, in bytes.
func (d *dfa) size() int {
	return 256 + 8*8 + 4*len(d.trans) + 4*len(d.accept) + 8*len(d.bits)
}

// finish turns the built states into a dfa: it finds the states from which
// no pattern can match any more (dead) or from which nothing can change
// (settled), merges each kind into one sink state, and lays out the table.
func (b *dfaBuilder) finish(start int32) (*dfa, error) {
	ns, k := len(b.states), len(b.reps)
	can := b.reachableMatches()

	// Number the sinks first: dead, then one per set of matched patterns.
	renum := make([]int32, ns)
	sink := make([]bool, ns)
	sinkOf := make(map[string]int32)
	var rep []int32 // new state number → the old state it stands for
	for s := range b.states {
		st := &b.states[s]
		if !can[s].subsetOf(st.sticky) {
			continue
		}
		sink[s] = true
		key := bitsetKey(st.sticky)
		if i, ok := sinkOf[key]; ok {
			renum[s] = i
			continue
		}
		renum[s] = int32(len(rep))
		sinkOf[key] = renum[s]
		rep = append(rep, int32(s))
	}
	nsinks := len(rep)
	for s := range b.states {
		if !sink[s] {
			renum[s] = int32(len(rep))
			rep = append(rep, int32(s))
		}
	}

	d := &dfa{
		class:  b.classes,
		stride: uint32(k),
		sinks:  uint32(nsinks) * uint32(k),
		start:  uint32(renum[start]) * uint32(k),
		trans:  make([]uint32, len(rep)*k),
		accept: make([]uint32, len(rep)),
		words:  len(b.matched),
		npat:   b.npat,
	}
	bitsOf := make(map[string]uint32)
	d.bits = make([]uint64, d.words) // bitset 0: empty
	bitsOf[bitsetKey(d.bits)] = 0
	for i, old := range rep {
		row := d.trans[i*k : (i+1)*k]
		for c := range row {
			if sink[old] {
				row[c] = uint32(i) * uint32(k)
			} else {
				row[c] = uint32(renum[b.trans[int(old)*k+c]]) * uint32(k)
			}
		}
		end := b.states[old].end
		key := bitsetKey(end)
		id, ok := bitsOf[key]
		if !ok {
			id = uint32(len(d.bits) / d.words)
			d.bits = append(d.bits, end...)
			bitsOf[key] = id
		}
		d.accept[i] = id
	}
	return minimize(d, b.lim.MaxCompileSteps-b.steps), nil
}

// reachableMatches returns, for each state, the patterns that match at the
// end of some text that continues from it (the empty text included): the
// end bitsets propagated backwards over the transitions to a fixed point.
func (b *dfaBuilder) reachableMatches() []bitset {
	ns, k := len(b.states), len(b.reps)
	can := make([]bitset, ns)
	for s := range b.states {
		can[s] = slices.Clone(b.states[s].end)
	}
	// Predecessor lists, compressed: preds[off[t]:off[t+1]].
	off := make([]int32, ns+1)
	for _, t := range b.trans {
		off[t+1]++
	}
	for i := range ns {
		off[i+1] += off[i]
	}
	preds := make([]int32, len(b.trans))
	fill := slices.Clone(off[:ns])
	for i, t := range b.trans {
		preds[fill[t]] = int32(i / k)
		fill[t]++
	}
	var work []int32
	for s := range ns {
		if !can[s].empty() {
			work = append(work, int32(s))
		}
	}
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range preds[off[t]:off[t+1]] {
			if can[t].orInto(can[p]) {
				work = append(work, p)
			}
		}
	}
	return can
}

func bitsetKey(s bitset) string {
	key := make([]byte, 0, 8*len(s))
	for _, w := range s {
		key = binary.LittleEndian.AppendUint64(key, w)
	}
	return string(key)
}
