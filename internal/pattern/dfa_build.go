package pattern

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
)

// The construction is the subset construction (Cox, "Regular Expression
// Matching Can Be Simple And Fast", and RE2's DFA), done completely at
// compile time, over rune classes. A DFA state is the set of NFA threads
// alive after some text, plus what the empty-width instructions need to
// know of the last character, plus the patterns that have already matched:
//
//   - Threads wait at empty-width instructions (^ $ \b \B) until the next
//     character, or the end of the text, decides the condition: a
//     transition first resolves them with the flags of the boundary before
//     its character, then steps every rune thread over it.
//   - A pattern that matched stays matched (a search needs one match), so
//     its threads are dropped and its bit is kept in the state.
//   - Besides one transition per class, each state has one for a byte that
//     no valid UTF-8 continues: it keeps only the matched patterns.

// Context bits a state keeps about the text before it.
const (
	ctxStart   uint8 = 1 << iota // no character yet
	ctxWord                      // the last character was an ASCII word character
	ctxNewline                   // the last character was \n
)

// bstate is a DFA state while the automaton is built.
type bstate struct {
	ctx     uint8
	sticky  bitset   // patterns that have matched
	threads []uint32 // instructions, sorted
	end     bitset   // patterns that match if the text ends here
}

// dfaBuilder runs the subset construction within Limits.
type dfaBuilder struct {
	n     *nfa
	npat  int
	track uint8 // the context bits the NFA looks at
	// negative, when not nil, makes the automaton that of one pattern
	// whose verdict combines the npat patterns built: pattern i must match
	// unless negative[i], and must not if it is (see combine).
	negative []bool
	lim      Limits
	steps    int // against lim.MaxCompileSteps
	// extra is work that steps leaves out, bounded otherwise: minimizing
	// (by its own share of MaxCompileSteps) and the UTF-8 trie (by the
	// classes); a Budget is charged for it.
	extra   int
	bytes   int // memory held by the construction, against MaxDFABytes
	classes runeClasses
	states  []bstate
	index   map[string]int32
	trans   []int32 // row-major: state × (class…, invalid) → state index

	// Scratch, reused by every transition.
	key     []byte
	next    []uint32
	matched bitset
	before  sparseSet // instructions expanded at the boundary before the character
	after   sparseSet // instructions reached after the character
	stack   []uint32  // for expand
	fstack  []uint32  // for follow, which expand calls
}

// buildDFA builds the search automaton of n for npat patterns (or, with
// negative, for their combined verdict), and returns the work it took in
// steps, refused or not.
func buildDFA(n *nfa, npat int, negative []bool, lim Limits) (*dfa, int, error) {
	b := &dfaBuilder{
		n:        n,
		npat:     npat,
		negative: negative,
		lim:      lim,
		index:    make(map[string]int32),
		matched:  newBitset(npat),
		before:   newSparseSet(len(n.insts)),
		after:    newSparseSet(len(n.insts)),
	}
	d, err := b.build()
	return d, b.steps + b.extra, err
}

// build runs the subset construction, then finishes the automaton.
func (b *dfaBuilder) build() (*dfa, error) {
	n := b.n
	var cuts []runeSet
	if n.needs&(syntax.EmptyBeginText|syntax.EmptyBeginLine) != 0 {
		b.track |= ctxStart
	}
	if n.needs&(syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 {
		b.track |= ctxWord
		cuts = append(cuts, wordSet)
	}
	if n.needs&syntax.EmptyBeginLine != 0 {
		b.track |= ctxNewline
	}
	if n.needs&(syntax.EmptyBeginLine|syntax.EmptyEndLine) != 0 {
		cuts = append(cuts, runeSet{'\n', '\n'})
	}
	b.classes = partitionRunes(n.sets, cuts, &b.steps)
	b.bytes += 16*len(b.classes.spans) + 8*len(n.sets)*len(b.matched)
	if err := b.check(); err != nil {
		return nil, err
	}

	// State 0 is dead: no thread, nothing matched.
	b.states = append(b.states, bstate{sticky: newBitset(b.npat), end: newBitset(b.npat)})
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
		for c := range b.classes.n {
			t, err := b.transition(s, int32(c))
			if err != nil {
				return nil, err
			}
			b.trans = append(b.trans, t)
		}
		// A byte that no valid UTF-8 continues keeps only what matched.
		b.next = b.next[:0]
		copy(b.matched, b.states[s].sticky)
		t, err := b.intern(0)
		if err != nil {
			return nil, err
		}
		b.trans = append(b.trans, t)
		if err := b.check(); err != nil {
			return nil, err
		}
		b.states[s].threads = nil // no longer needed; the key keeps the identity
	}
	// Row 0 (dead) goes nowhere; the loop above skipped it.
	b.trans = append(make([]int32, b.classes.n+1), b.trans...)
	if b.negative != nil {
		if err := b.combine(); err != nil {
			return nil, err
		}
	}
	return b.finish(start)
}

// combine turns the automaton of several patterns into that of one, whose
// verdict on a text is holds of the patterns that match it: it rewrites
// each state's end and sticky bitsets as those of pattern 0 alone, so
// that finish, which derives everything else from them and the
// transitions (the dead state and the settled sinks, minimizing, the dead
// bits of the trie, stuck states and live ranges), finds them for the
// verdict. A state's end is whether the verdict holds if the text ends
// there. Its sticky is whether it holds at the end of every text that
// continues from it, through any column: the verdict can no longer
// change (with look-aheads that fail, or may, it can turn false again).
// A byte that no valid UTF-8 continues keeps the verdict only where it is
// sticky, and is dead elsewhere; a state from which no text reaches a
// state whose end holds then becomes dead in finish, as with any pattern.
func (b *dfaBuilder) combine() error {
	ns, k := len(b.states), b.classes.n+1
	holds := func(bits bitset) bool {
		for i, neg := range b.negative {
			if bits.has(i) == neg {
				return false
			}
		}
		return true
	}
	// Backwards from the states where it fails: every state that reaches
	// one is not settled.
	off, preds := predecessors(b.trans, ns, k)
	unsettled := make([]bool, ns)
	var work []int32
	for s := range ns {
		if !holds(b.states[s].end) {
			unsettled[s] = true
			work = append(work, int32(s))
		}
	}
	b.backwards(off, preds, work, func(_, p int32) bool {
		was := unsettled[p]
		unsettled[p] = true
		return !was
	})
	if err := b.check(); err != nil {
		return err
	}
	for s := range b.states {
		st := &b.states[s]
		end, sticky := newBitset(1), newBitset(1)
		if holds(st.end) {
			end.set(0)
		}
		if unsettled[s] {
			b.trans[s*k+k-1] = 0
		} else {
			sticky.set(0)
		}
		st.end, st.sticky = end, sticky
	}
	b.npat, b.matched = 1, newBitset(1)
	return nil
}

// check reports a Limit error once the construction has spent its steps.
func (b *dfaBuilder) check() error {
	if b.steps > b.lim.MaxCompileSteps {
		return stepsError("building its automaton would take more than %d steps (Limits.MaxCompileSteps); simplify the pattern", b.lim.MaxCompileSteps)
	}
	if b.bytes > b.lim.MaxDFABytes {
		return bytesError("its automaton would need more than %d bytes (Limits.MaxDFABytes); simplify the pattern or split it", b.lim.MaxDFABytes)
	}
	return nil
}

// flags returns the empty-width conditions that hold between the text of a
// state with context ctx and the character r, or the end of the text.
func flags(ctx uint8, r rune, atEnd bool) syntax.EmptyOp {
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
		if r == '\n' {
			f |= syntax.EmptyEndLine
		}
		nextWord = syntax.IsWordChar(r)
	}
	if (ctx&ctxWord != 0) != nextWord {
		f |= syntax.EmptyWordBoundary
	} else {
		f |= syntax.EmptyNoWordBoundary
	}
	return f
}

// transition computes the state that state s goes to on a character of
// class c.
func (b *dfaBuilder) transition(s int, c int32) (int32, error) {
	st := &b.states[s]
	r := b.classes.rep[c]
	copy(b.matched, st.sticky)
	b.next = b.next[:0]
	b.before.clear()
	b.after.clear()
	f := flags(st.ctx, r, false)
	for _, pc := range st.threads {
		in := &b.n.insts[pc]
		switch in.op {
		case opRune:
			b.stepRune(pc, c)
		case opEmpty:
			if syntax.EmptyOp(in.arg)&^f == 0 {
				b.expand(in.out, f, c)
			}
		}
	}
	ctx := uint8(0)
	if syntax.IsWordChar(r) {
		ctx |= ctxWord
	}
	if r == '\n' {
		ctx |= ctxNewline
	}
	return b.intern(ctx)
}

// expand follows the threads from pc at a boundary where the conditions f
// hold: before a character of class c, whose rune instructions it steps,
// or at the end of the text (c < 0), where only matches count.
func (b *dfaBuilder) expand(pc uint32, f syntax.EmptyOp, c int32) {
	b.walk(pc, &b.before, &b.stack, f, func(pc uint32, in *nfaInst) {
		if in.op == opRune && c >= 0 {
			b.stepRune(pc, c)
		}
	})
}

// stepRune steps the rune thread at pc over a character of class c.
func (b *dfaBuilder) stepRune(pc uint32, c int32) {
	b.steps++
	in := &b.n.insts[pc]
	if b.classes.member[in.arg].has(int(c)) {
		b.follow(in.out)
	}
}

// follow adds the threads from pc after a character: through Nop and Alt,
// up to the next rune or empty-width instruction, recording matches.
func (b *dfaBuilder) follow(pc uint32) {
	b.walk(pc, &b.after, &b.fstack, noEmpty, func(pc uint32, in *nfaInst) {
		if in.op == opRune || in.op == opEmpty {
			b.next = append(b.next, pc)
		}
	})
}

// noEmpty is a set of conditions no empty-width instruction is satisfied
// by: walking with it stops at every one.
const noEmpty syntax.EmptyOp = 0

// walk visits, once for seen, the instructions reachable from pc through
// Nop, Alt and the empty-width instructions whose conditions f satisfies,
// skipping patterns that have matched; it records matches and hands the
// instructions it stops at to leaf. stack is its scratch space.
func (b *dfaBuilder) walk(pc uint32, seen *sparseSet, stack *[]uint32, f syntax.EmptyOp, leaf func(uint32, *nfaInst)) {
	st := append((*stack)[:0], pc)
	for len(st) > 0 {
		pc := st[len(st)-1]
		st = st[:len(st)-1]
		if seen.has(pc) {
			continue
		}
		seen.add(pc)
		b.steps++
		in := &b.n.insts[pc]
		if in.pattern >= 0 && b.matched.has(int(in.pattern)) {
			continue
		}
		switch {
		case in.op == opNop:
			st = append(st, in.out)
		case in.op == opAlt:
			st = append(st, in.arg, in.out)
		case in.op == opEmpty && f != noEmpty && syntax.EmptyOp(in.arg)&^f == 0:
			st = append(st, in.out)
		case in.op == opMatch:
			b.matched.set(int(in.arg))
		default:
			leaf(pc, in)
		}
	}
	*stack = st
}

// endMatches records in st.end the patterns that match if the text ends
// in state st.
func (b *dfaBuilder) endMatches(st *bstate) {
	copy(b.matched, st.sticky)
	b.before.clear()
	f := flags(st.ctx, 0, true)
	for _, pc := range st.threads {
		if in := &b.n.insts[pc]; in.op == opEmpty && syntax.EmptyOp(in.arg)&^f == 0 {
			b.expand(in.out, f, -1)
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
		for _, pc := range b.next {
			if p := b.n.insts[pc].pattern; p < 0 || !b.matched.has(int(p)) {
				threads = append(threads, pc)
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
	for _, pc := range threads {
		b.key = binary.LittleEndian.AppendUint32(b.key, pc)
	}
	if i, ok := b.index[string(b.key)]; ok {
		return i, nil
	}
	i := int32(len(b.states))
	b.bytes += 2*len(b.key) + (b.classes.n+1)*4 + stateOverhead
	if err := b.check(); err != nil {
		return 0, err
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
