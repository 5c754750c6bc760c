package pattern

import (
	"slices"
)

// A dfa is the finished automaton, in two layers. The classTrie reads
// bytes and names the rune class of each character at its last byte; the
// table steps over classes. Every row of the table holds, after one column
// per class:
//
//	invalid  the state after a byte that no valid UTF-8 continues
//	deadRow  where the state's bits start in dead: bit deadRow+node-1 is set
//	         when no character that can complete trie node leads anywhere
//	         but the dead state (so a text is rejected at the first byte of
//	         a character that cannot fit, not at its last)
//	accept   the bitset of patterns that match if the text ends here
//	sticky   the bitset of patterns that have matched, whatever follows
//
// State numbers are premultiplied by the row length, so a step is one
// lookup. States below sinks never change any more: state 0 is dead (no
// pattern matched and none can), the others are settled (what matched
// stays, and nothing else can match).
type dfa struct {
	trie   *classTrie
	nclass uint32
	stride uint32   // nclass + 4
	trans  []uint32 // rows as above
	dead   []uint64
	stuck  bitset // by state number (not premultiplied): every character leads to the dead state
	// The live ranges: for each state that is not a sink, the code points
	// that do not lead to the dead state, as ascending disjoint ranges (lo,
	// hi pairs), kept once per distinct set. State sinks/stride+i has set
	// k = liveSet[i], whose ranges are live[liveAt[k]:liveAt[k+1]]. All
	// are nil when they would not fit the limits (see liveRanges).
	live    []rune
	liveAt  []uint32
	liveSet []uint32
	sinks   uint32
	start   uint32
	bits    []uint64 // the distinct bitsets, words each; bitset 0 is empty
	words   int
	npat    int
}

// The extra columns of a row, after the classes.
const (
	colInvalid = iota
	colDeadRow
	colAccept
	colSticky
	extraCols
)

// run feeds b from state s and trie node, and returns the state and node
// reached and the index in b of the byte that made the text dead, or -1.
func run[T []byte | string](d *dfa, s uint32, node int32, b T) (uint32, int32, int) {
	if s < d.sinks {
		if s == 0 && len(b) > 0 {
			return 0, 0, 0
		}
		return s, 0, -1
	}
	for i := range len(b) {
		e := d.trie.step(node, b[i])
		switch {
		case e >= 0: // a character of class e ends here
			s, node = d.trans[s+uint32(e)], 0
			if s < d.sinks {
				return s, 0, deadAt(s, i)
			}
		case e == badByte:
			s = d.trans[s+d.nclass+colInvalid] // always a sink
			return s, 0, deadAt(s, i)
		default: // inside a character
			node = -e
			bit := d.trans[s+d.nclass+colDeadRow] + uint32(node-1)
			if d.dead[bit/64]&(1<<(bit%64)) != 0 {
				return 0, 0, i
			}
		}
	}
	return s, node, -1
}

// deadAt returns i if sink state s is dead, else -1.
func deadAt(s uint32, i int) int {
	if s == 0 {
		return i
	}
	return -1
}

// matches returns the patterns that match if the text ends in state s at
// trie node (inside a character only what has matched already counts).
func (d *dfa) matches(s uint32, node int32) Bits {
	col := colAccept
	if node != 0 {
		col = colSticky
	}
	id := int(d.trans[s+d.nclass+uint32(col)])
	return Bits{w: d.bits[id*d.words : (id+1)*d.words], n: d.npat}
}

// size is the memory the automaton holds, in bytes.
func (d *dfa) size() int {
	return 64 + d.trie.size() + 4*len(d.trans) + 8*len(d.dead) + 8*len(d.stuck) + 8*len(d.bits) +
		4*(len(d.live)+len(d.liveAt)+len(d.liveSet))
}

// grows reports whether, between characters in state s, some character
// can follow with a match still possible: false in the dead state, and
// in a state whose text must end to match.
func (d *dfa) grows(s uint32) bool { return !d.stuck.has(int(s / d.stride)) }

// growsWithin reports whether, between characters in state s, some
// character in [lo, hi] can follow with a match still possible: one
// binary search over the state's live ranges. Without them it answers
// as grows, which is true whenever it is for some range.
func (d *dfa) growsWithin(s uint32, lo, hi rune) bool {
	if s < d.sinks || d.liveSet == nil {
		return d.grows(s)
	}
	k := d.liveSet[(s-d.sinks)/d.stride]
	ranges := d.live[d.liveAt[k]:d.liveAt[k+1]]
	// The first range that ends at lo or after it.
	first, end := 0, len(ranges)/2
	for first < end {
		mid := int(uint(first+end) >> 1)
		if ranges[2*mid+1] >= lo {
			end = mid
		} else {
			first = mid + 1
		}
	}
	return first < len(ranges)/2 && ranges[2*first] <= hi
}

// table is the automaton between construction and layout: rows of
// next-state numbers (one column per class, then the invalid column).
type table struct {
	cols   int
	next   []int32
	accept []uint32 // by state: bitset ids
	sticky []uint32
	sinks  int
	start  int32
	bits   []uint64 // bitsets, words each
	words  int
}

func (t *table) states() int { return len(t.accept) }

// finish turns the built states into a dfa: it finds the states from which
// no pattern can match any more (dead) or from which nothing can change
// (settled), merges each kind into one sink state, minimizes, and lays out
// the table, the trie and the dead bits.
func (b *dfaBuilder) finish(start int32) (*dfa, error) {
	ns, k := len(b.states), b.classes.n+1
	can := b.reachableMatches()

	// Number the sinks first: dead, then one per set of matched patterns.
	renum := make([]int32, ns)
	sink := make([]bool, ns)
	sinkOf := numbering{}
	var rep []int32 // new state number → the old state it stands for
	var key []byte
	for s := range b.states {
		st := &b.states[s]
		if !can[s].subsetOf(st.sticky) {
			continue
		}
		sink[s] = true
		key = appendWords(key[:0], st.sticky)
		id, fresh := sinkOf.number(key)
		if renum[s] = id; fresh {
			rep = append(rep, int32(s))
		}
	}
	nsinks := len(rep)
	for s := range b.states {
		if !sink[s] {
			renum[s] = int32(len(rep))
			rep = append(rep, int32(s))
		}
	}

	t := &table{cols: k, sinks: nsinks, start: renum[start], words: len(b.matched)}
	t.next = make([]int32, len(rep)*k)
	t.accept = make([]uint32, len(rep))
	t.sticky = make([]uint32, len(rep))
	ids := numbering{}
	intern := func(s bitset) uint32 {
		key = appendWords(key[:0], s)
		id, fresh := ids.number(key)
		if fresh {
			t.bits = append(t.bits, s...)
		}
		return uint32(id)
	}
	intern(newBitset(b.npat)) // bitset 0: empty
	for i, old := range rep {
		row := t.next[i*k : (i+1)*k]
		for c := range row {
			if sink[old] {
				row[c] = int32(i)
			} else {
				row[c] = renum[b.trans[int(old)*k+c]]
			}
		}
		t.accept[i] = intern(b.states[old].end)
		t.sticky[i] = intern(b.states[old].sticky)
	}
	b.steps += len(t.next)
	var minimized int
	t, minimized = minimize(t, b.lim.MaxCompileSteps-b.steps)
	b.extra += minimized
	classOf := mergeClasses(t)
	return b.layout(t, classOf)
}

// trieSteps is the work, in steps, of putting one class span into the
// UTF-8 trie: a span is cut into at most 7 ranges of UTF-8 sequences, each
// a few nodes (callgrind and pprof of ^\p{L}+$, whose 650 spans take most
// of its compile).
const trieSteps = 8

// layout builds the dfa of a finished table whose class columns are the
// merged classes classOf gives for the construction's classes.
func (b *dfaBuilder) layout(t *table, classOf []int32) (*dfa, error) {
	nclass := t.cols - 1
	trie := newClassTrie(b.classes.spans, func(c int32) int32 { return classOf[c] }, nclass)
	b.extra += trieSteps * len(b.classes.spans)
	stride := uint32(nclass + extraCols)
	n := t.states()
	deadWords := ((n-t.sinks)*trie.nodes + 63) / 64
	stuck := newBitset(n)
	b.bytes = 64 + trie.size() + 4*n*int(stride) + 8*deadWords + 8*len(stuck) + 8*len(t.bits)
	if err := b.check(); err != nil {
		return nil, err
	}
	d := &dfa{
		trie:   trie,
		nclass: uint32(nclass),
		stride: stride,
		trans:  make([]uint32, n*int(stride)),
		sinks:  uint32(t.sinks) * stride,
		start:  uint32(t.start) * stride,
		bits:   t.bits,
		words:  t.words,
		npat:   b.npat,
	}
	// Dead bits for the states that are not sinks, one row of trie nodes
	// each: a node is dead in a state if every class that can complete it
	// leads to the dead state; the state is stuck if every class does. Of
	// the sinks only the dead state is stuck: the settled ones stay matched
	// whatever follows.
	live := newBitset(nclass)
	d.dead = make([]uint64, deadWords)
	d.stuck = stuck
	d.stuck.set(0)
	sets := liveSets{ids: numbering{}, of: make([]uint32, n-t.sinks)}
	for s := range n {
		row := d.trans[s*int(stride) : (s+1)*int(stride)]
		for c := range t.cols {
			row[c] = uint32(t.next[s*t.cols+c]) * stride
		}
		row[nclass+colAccept] = t.accept[s]
		row[nclass+colSticky] = t.sticky[s]
		if s < t.sinks {
			continue
		}
		deadRow := uint32((s - t.sinks) * trie.nodes)
		row[nclass+colDeadRow] = deadRow
		clear(live)
		for c := range nclass {
			if t.next[s*t.cols+c] != 0 {
				live.set(c)
			}
		}
		if live.empty() {
			d.stuck.set(s)
		}
		sets.add(s-t.sinks, live)
		for node, reach := range trie.reach {
			if !reach.intersects(live) {
				bit := deadRow + uint32(node)
				d.dead[bit/64] |= 1 << (bit % 64)
			}
		}
		b.steps += trie.nodes
	}
	if err := b.check(); err != nil {
		return nil, err
	}
	b.liveRanges(d, &sets, classOf)
	return d, nil
}

// liveSets numbers the distinct sets of live classes (those that do not
// lead to the dead state) of the states that are not sinks, as layout
// finds them.
type liveSets struct {
	ids  numbering
	key  []byte
	reps []bitset // by set number
	of   []uint32 // by state number - sinks
}

// add records that state sinks+i has the live classes live.
func (ls *liveSets) add(i int, live bitset) {
	ls.key = appendWords(ls.key[:0], live)
	id, fresh := ls.ids.number(ls.key)
	if fresh {
		ls.reps = append(ls.reps, slices.Clone(live))
	}
	ls.of[i] = uint32(id)
}

// liveRanges fills the live-range tables from the distinct sets of live
// classes layout found: for each, the code point ranges of its classes,
// adjacent ones merged (the states of a{0,63} share one set). They
// are what a character known only as a range (a JSON \u escape, digit by
// digit) needs. They are left out, and growsWithin answers as grows,
// when building them would take the construction past
// Limits.MaxCompileSteps or the automaton past Limits.MaxDFABytes: the
// pattern still compiles.
func (b *dfaBuilder) liveRanges(d *dfa, sets *liveSets, classOf []int32) {
	spans := b.classes.spans
	steps := b.steps + len(sets.reps)*len(spans)
	if steps > b.lim.MaxCompileSteps {
		return
	}
	budget := (b.lim.MaxDFABytes - b.bytes) / 4 // in table entries
	liveAt := make([]uint32, 1, len(sets.reps)+1)
	var live []rune
	for _, classes := range sets.reps {
		from := len(live)
		for _, sp := range spans {
			if !classes.has(int(classOf[sp.class])) {
				continue
			}
			if k := len(live); k > from && live[k-1]+1 == sp.lo {
				live[k-1] = sp.hi
			} else {
				live = append(live, sp.lo, sp.hi)
			}
		}
		liveAt = append(liveAt, uint32(len(live)))
		if len(live)+cap(liveAt)+len(sets.of) > budget {
			return
		}
	}
	d.live, d.liveAt, d.liveSet = live, liveAt, sets.of
	b.steps = steps
	b.bytes += 4 * (len(live) + len(liveAt) + len(sets.of))
}

// reachableMatches returns, for each state, the patterns that match at the
// end of some text that continues from it (the empty text included): the
// end bitsets propagated backwards over the transitions to a fixed point.
func (b *dfaBuilder) reachableMatches() []bitset {
	ns, k := len(b.states), b.classes.n+1
	can := make([]bitset, ns)
	for s := range b.states {
		can[s] = slices.Clone(b.states[s].end)
	}
	off, preds := predecessors(b.trans, ns, k)
	var work []int32
	for s := range ns {
		if !can[s].empty() {
			work = append(work, int32(s))
		}
	}
	b.backwards(off, preds, work, func(t, p int32) bool { return can[t].orInto(can[p]) })
	return can
}

// backwards walks the transitions back from the states of work, a stack:
// for each predecessor p of a state t taken from it (see predecessors),
// one step, visit(t, p), and p onto the stack when visit says it changed.
func (b *dfaBuilder) backwards(off, preds, work []int32, visit func(t, p int32) bool) {
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range preds[off[t]:off[t+1]] {
			b.steps++
			if visit(t, p) {
				work = append(work, p)
			}
		}
	}
}

// predecessors returns the predecessor lists of the ns states of trans
// (rows of k columns), compressed: state t's are preds[off[t]:off[t+1]],
// a state once for each column that leads to t.
func predecessors(trans []int32, ns, k int) (off, preds []int32) {
	off = make([]int32, ns+1)
	for _, t := range trans {
		off[t+1]++
	}
	for i := range ns {
		off[i+1] += off[i]
	}
	preds = make([]int32, len(trans))
	fill := slices.Clone(off[:ns])
	for i, t := range trans {
		preds[fill[t]] = int32(i / k)
		fill[t]++
	}
	return off, preds
}
