package pattern

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
)

// The construction is the subset construction over bytes (Cox, "Regular
// Expression Matching Can Be Simple And Fast", and RE2's DFA), done
// completely at compile time. A DFA state is the set of NFA threads alive
// after some text, plus what the empty-width instructions need to know of
// the last byte, plus the patterns that have already matched:
//
//   - A thread is an instruction and, for a rune instruction in the middle of
//     a multi-byte character, the trie node reached so far.
//   - Threads wait at empty-width instructions (^ $ \b \B) until the next
//     byte, or the end of the text, decides the condition: a transition
//     first resolves them with the flags of the boundary before its byte,
//     then steps every rune thread over the byte.
//   - A pattern that matched stays matched (a search needs one match), so
//     its threads are dropped and its bit is kept in the state.

// Context bits a state keeps about the text before it.
const (
	ctxStart   uint8 = 1 << iota // no byte yet
	ctxWord                      // the last byte was an ASCII word character
	ctxNewline                   // the last byte was \n
)

// bstate is a DFA state while the automaton is built.
type bstate struct {
	ctx     uint8
	sticky  bitset   // patterns that have matched
	threads []uint64 // pc<<32 | trie node, sorted
	end     bitset   // patterns that match if the text ends here
}

// dfaBuilder runs the subset construction within Limits.
type dfaBuilder struct {
	n      *nfa
	npat   int
	track  uint8 // the context bits the NFA looks at
	lim    Limits
	steps  int
	bytes  int // memory held by the construction, against MaxDFABytes
	states []bstate
	index  map[string]int32
	trans  []int32 // row-major: state × class → state index

	classes [256]uint8
	reps    []byte // one byte of each class

	// Scratch, reused by every transition.
	key     []byte
	next    []uint64
	matched bitset
	before  sparseSet // instructions expanded at the boundary before the byte
	after   sparseSet // instructions reached after the byte
	stack   []uint32  // for expand
	fstack  []uint32  // for follow, which expand calls
}

// buildDFA builds the search automaton of n for npat patterns.
func buildDFA(n *nfa, npat int, lim Limits) (*dfa, error) {
	b := &dfaBuilder{
		n:       n,
		npat:    npat,
		lim:     lim,
		index:   make(map[string]int32),
		matched: newBitset(npat),
		before:  newSparseSet(len(n.insts)),
		after:   newSparseSet(len(n.insts)),
	}
	if n.needs&(syntax.EmptyBeginText|syntax.EmptyBeginLine) != 0 {
		b.track |= ctxStart
	}
	if n.needs&(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 {
		b.track |= ctxWord
	}
	if n.needs&syntax.EmptyBeginLine != 0 {
		b.track |= ctxNewline
	}
	b.byteClasses()

	// State 0 is dead: no thread, nothing matched.
	b.states = append(b.states, bstate{sticky: newBitset(npat), end: newBitset(npat)})
	b.index[""] = 0
	clear(b.matched)
	b.next = b.next[:0]
	b.after.clear()
	for _, pc := range n.start {
		b.follow(pc)
	}
	start, err := b.intern(ctxStart)
	if err != nil {
		return nil, err
	}
	for s := 1; s < len(b.states); s++ {
		b.endMatches(&b.states[s])
		for _, c := range b.reps {
			t, err := b.transition(s, c)
			if err != nil {
				return nil, err
			}
			b.trans = append(b.trans, t)
			if b.steps > b.lim.MaxCompileSteps {
				return nil, limitError("building its automaton would take more than %d steps (Limits.MaxCompileSteps); simplify the pattern", b.lim.MaxCompileSteps)
			}
		}
		b.states[s].threads = nil // no longer needed; the key keeps the identity
	}
	// Row 0 (dead) goes nowhere; the loop above skipped it.
	b.trans = append(make([]int32, len(b.reps)), b.trans...)
	return b.finish(start)
}

// byteClasses partitions the byte values so that bytes of one class are
// alike for every trie edge and for every empty-width condition.
func (b *dfaBuilder) byteClasses() {
	var cut [257]bool
	for _, t := range b.n.tries {
		for _, edges := range t.nodes {
			for _, e := range edges {
				cut[e.lo] = true
				cut[int(e.hi)+1] = true
			}
		}
	}
	if b.track&ctxWord != 0 {
		for _, r := range [...]int{'0', '9' + 1, 'A', 'Z' + 1, '_', '_' + 1, 'a', 'z' + 1} {
			cut[r] = true
		}
	}
	if b.n.needs&(syntax.EmptyBeginLine|syntax.EmptyEndLine) != 0 {
		cut['\n'], cut['\n'+1] = true, true
	}
	class := -1
	for c := range 256 {
		if c == 0 || cut[c] {
			class++
			b.reps = append(b.reps, byte(c))
		}
		b.classes[c] = uint8(class)
	}
}

// flags returns the empty-width conditions that hold between the text of a
// state with context ctx and the byte c, or the end of the text.
func flags(ctx uint8, c byte, atEnd bool) syntax.EmptyOp {
	var f syntax.EmptyOp
	if ctx&ctxStart != 0 {
		f |= syntax.EmptyBeginText | syntax.EmptyBeginLine
	}
	if ctx&ctxNewline != 0 {
		f |= syntax.EmptyBeginLine
	}
	nextWord := false
	if atEnd {
		f |= syntax.EmptyEndText | syntax.EmptyEndLine
	} else {
		if c == '\n' {
			f |= syntax.EmptyEndLine
		}
		nextWord = isWordByte(c)
	}
	if (ctx&ctxWord != 0) != nextWord {
		f |= syntax.EmptyWordBoundary
	} else {
		f |= syntax.EmptyNoWordBoundary
	}
	return f
}

// isWordByte reports whether c is an ASCII word character [0-9A-Za-z_],
// the definition of \b for both syntaxes.
func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
}

// transition computes the state that state s goes to on byte c.
func (b *dfaBuilder) transition(s int, c byte) (int32, error) {
	st := &b.states[s]
	copy(b.matched, st.sticky)
	b.next = b.next[:0]
	b.before.clear()
	b.after.clear()
	f := flags(st.ctx, c, false)
	for _, t := range st.threads {
		pc, node := uint32(t>>32), int32(uint32(t))
		in := &b.n.insts[pc]
		switch in.op {
		case opRune:
			b.stepRune(pc, node, c)
		case opEmpty:
			if syntax.EmptyOp(in.arg)&^f == 0 {
				b.expand(in.out, f, c)
			}
		}
	}
	ctx := uint8(0)
	if isWordByte(c) {
		ctx |= ctxWord
	}
	if c == '\n' {
		ctx |= ctxNewline
	}
	return b.intern(ctx)
}

// expand follows the threads from pc at the boundary before byte c, where
// the conditions f hold, and steps the rune instructions it reaches.
func (b *dfaBuilder) expand(pc uint32, f syntax.EmptyOp, c byte) {
	b.stack = append(b.stack[:0], pc)
	for len(b.stack) > 0 {
		pc := b.stack[len(b.stack)-1]
		b.stack = b.stack[:len(b.stack)-1]
		if b.before.has(pc) {
			continue
		}
		b.before.add(pc)
		b.steps++
		in := &b.n.insts[pc]
		if in.pattern >= 0 && b.matched.has(int(in.pattern)) {
			continue
		}
		switch in.op {
		case opNop:
			b.stack = append(b.stack, in.out)
		case opAlt:
			b.stack = append(b.stack, in.arg, in.out)
		case opEmpty:
			if syntax.EmptyOp(in.arg)&^f == 0 {
				b.stack = append(b.stack, in.out)
			}
		case opMatch:
			b.matched.set(int(in.arg))
		case opRune:
			b.stepRune(pc, 0, c)
		}
	}
}

// stepRune steps the rune thread (pc, node) over byte c.
func (b *dfaBuilder) stepRune(pc uint32, node int32, c byte) {
	b.steps++
	in := &b.n.insts[pc]
	switch next := b.n.tries[in.arg].step(node, c); {
	case next == trieAccept:
		b.follow(in.out)
	case next >= 0:
		b.next = append(b.next, uint64(pc)<<32|uint64(next))
	}
}

// follow adds the threads from pc after a byte: through Nop and Alt, up to
// the next rune or empty-width instruction, recording matches.
func (b *dfaBuilder) follow(pc uint32) {
	stack := append(b.fstack[:0], pc)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b.after.has(pc) {
			continue
		}
		b.after.add(pc)
		b.steps++
		in := &b.n.insts[pc]
		if in.pattern >= 0 && b.matched.has(int(in.pattern)) {
			continue
		}
		switch in.op {
		case opNop:
			stack = append(stack, in.out)
		case opAlt:
			stack = append(stack, in.arg, in.out)
		case opRune, opEmpty:
			b.next = append(b.next, uint64(pc)<<32)
		case opMatch:
			b.matched.set(int(in.arg))
		}
	}
	b.fstack = stack
}

// endMatches records in st.end the patterns that match if the text ends
// in state st.
func (b *dfaBuilder) endMatches(st *bstate) {
	copy(b.matched, st.sticky)
	b.before.clear()
	f := flags(st.ctx, 0, true)
	for _, t := range st.threads {
		in := &b.n.insts[uint32(t>>32)]
		if in.op != opEmpty || syntax.EmptyOp(in.arg)&^f != 0 {
			continue
		}
		// Only matches matter at the end: expand without stepping.
		b.stack = append(b.stack[:0], in.out)
		for len(b.stack) > 0 {
			pc := b.stack[len(b.stack)-1]
			b.stack = b.stack[:len(b.stack)-1]
			if b.before.has(pc) {
				continue
			}
			b.before.add(pc)
			b.steps++
			in := &b.n.insts[pc]
			switch in.op {
			case opNop:
				b.stack = append(b.stack, in.out)
			case opAlt:
				b.stack = append(b.stack, in.arg, in.out)
			case opEmpty:
				if syntax.EmptyOp(in.arg)&^f == 0 {
					b.stack = append(b.stack, in.out)
				}
			case opMatch:
				b.matched.set(int(in.arg))
			}
		}
	}
	st.end = slices.Clone(b.matched)
}

// intern returns the index of the state made of b.next, b.matched and the
// context ctx, adding it if it is new.
func (b *dfaBuilder) intern(ctx uint8) (int32, error) {
	// Threads of patterns that have matched no longer matter, nor does the
	// search loop once every pattern has.
	threads := b.next[:0]
	if b.matched.count() < b.npat {
		for _, t := range b.next {
			if p := b.n.insts[uint32(t>>32)].pattern; p < 0 || !b.matched.has(int(p)) {
				threads = append(threads, t)
			}
		}
	}
	slices.Sort(threads)
	threads = slices.Compact(threads)
	b.next = threads
	if len(threads) == 0 {
		if b.matched.empty() {
			return 0, nil
		}
		ctx = 0 // nothing left to look at the context
	}
	ctx &= b.track

	b.key = append(b.key[:0], ctx)
	for _, w := range b.matched {
		b.key = binary.LittleEndian.AppendUint64(b.key, w)
	}
	for _, t := range threads {
		b.key = binary.LittleEndian.AppendUint64(b.key, t)
	}
	if i, ok := b.index[string(b.key)]; ok {
		return i, nil
	}
	i := int32(len(b.states))
	b.bytes += 2*len(b.key) + len(b.reps)*4 + stateOverhead
	if b.bytes > b.lim.MaxDFABytes {
		return 0, limitError("its automaton would need more than %d bytes (Limits.MaxDFABytes); simplify the pattern or split it", b.lim.MaxDFABytes)
	}
	b.index[string(b.key)] = i
	b.states = append(b.states, bstate{ctx: ctx, sticky: slices.Clone(b.matched), threads: slices.Clone(threads)})
	return i, nil
}

// stateOverhead is what a state costs besides its key and its row: the
// map entry, the state record and its bitsets, roughly.
const stateOverhead = 96

// sparseSet is a set of instruction indexes with O(1) add, test and clear
// (Briggs and Torczon; regexp uses the same).
type sparseSet struct {
	dense  []uint32
	sparse []uint32
}

func newSparseSet(n int) sparseSet {
	return sparseSet{dense: make([]uint32, 0, n), sparse: make([]uint32, n)}
}

func (s *sparseSet) has(i uint32) bool {
	j := s.sparse[i]
	return int(j) < len(s.dense) && s.dense[j] == i
}

func (s *sparseSet) add(i uint32) {
	s.sparse[i] = uint32(len(s.dense))
	s.dense = append(s.dense, i)
}

func (s *sparseSet) clear() { s.dense = s.dense[:0] }
