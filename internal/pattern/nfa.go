package pattern

import (
	"regexp/syntax"
	"slices"
	"unicode"
)

// An nfa is the union of one or more compiled regexp/syntax programs, the
// input of the DFA construction. Instructions that consume a code point
// refer to a rune set by index.
type nfa struct {
	insts []nfaInst
	sets  []runeSet
	// start holds the instructions a search begins with.
	start []uint32
	// needs collects the context the empty-width instructions look at.
	needs syntax.EmptyOp
}

// nfaInst is one instruction. For opRune, arg is a set index; for opAlt,
// the second branch; for opEmpty, the syntax.EmptyOp condition; for
// opMatch, the pattern index.
type nfaInst struct {
	op      nfaOp
	out     uint32
	arg     uint32
	pattern int32 // the pattern the instruction belongs to; -1 for the shared search loop
}

type nfaOp uint8

const (
	opFail  nfaOp = iota
	opNop         // go to out
	opAlt         // go to out and to arg
	opRune        // consume a code point of sets[arg], then go to out
	opEmpty       // go to out if the empty-width condition arg holds here
	opMatch       // pattern arg matches here
)

// nfaBuilder joins programs into one nfa, sharing equal rune sets.
type nfaBuilder struct {
	n    nfa
	sets map[string]uint32
	// work counts the runes of the rune sets added, each read to share
	// equal sets, against Limits.MaxCompileSteps.
	work int
}

func newNFABuilder() *nfaBuilder {
	return &nfaBuilder{sets: make(map[string]uint32)}
}

// add appends the program of pattern index, and returns its start
// instruction and whether every match of it begins at the start of the
// text (so a search need not try it anywhere else).
func (b *nfaBuilder) add(prog *syntax.Prog, index int) (start uint32, anchored bool) {
	base := uint32(len(b.n.insts))
	for i := range prog.Inst {
		in := &prog.Inst[i]
		ni := nfaInst{op: opNop, out: base + in.Out, pattern: int32(index)}
		switch in.Op {
		case syntax.InstFail:
			ni.op = opFail
		case syntax.InstAlt, syntax.InstAltMatch:
			ni.op, ni.arg = opAlt, base+in.Arg
		case syntax.InstEmptyWidth:
			ni.op, ni.arg = opEmpty, in.Arg
			b.n.needs |= syntax.EmptyOp(in.Arg)
		case syntax.InstMatch:
			ni.op, ni.arg = opMatch, uint32(index)
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			if set := instRunes(in); len(set) == 0 {
				ni.op = opFail
			} else {
				ni.op, ni.arg = opRune, b.set(set)
				b.work += len(set)
			}
		}
		b.n.insts = append(b.n.insts, ni)
	}
	return base + uint32(prog.Start), prog.StartCond()&syntax.EmptyBeginText != 0
}

// searchLoop appends the shared prefix of an unanchored search, "any code
// point, any number of times", whose every character boundary starts each
// of the given patterns (at least one) again, and returns its first
// instruction.
func (b *nfaBuilder) searchLoop(starts []uint32) uint32 {
	anyRune := b.set(runeSet{0, unicode.MaxRune})
	head := uint32(len(b.n.insts))
	// head: alt(rune → head, alt(start0, alt(start1, …)))
	b.n.insts = append(b.n.insts, nfaInst{op: opAlt, out: head + 1, pattern: -1})
	b.n.insts = append(b.n.insts, nfaInst{op: opRune, out: head, arg: anyRune, pattern: -1})
	prev := head
	for i, s := range starts {
		if i == len(starts)-1 {
			b.n.insts[prev].arg = s
			break
		}
		alt := uint32(len(b.n.insts))
		b.n.insts = append(b.n.insts, nfaInst{op: opAlt, out: s, pattern: -1})
		b.n.insts[prev].arg = alt
		prev = alt
	}
	return head
}

// set returns the index of set, adding it on first use.
func (b *nfaBuilder) set(set runeSet) uint32 {
	key := string(set)
	if i, ok := b.sets[key]; ok {
		return i
	}
	i := uint32(len(b.n.sets))
	b.n.sets = append(b.n.sets, set)
	b.sets[key] = i
	return i
}

// instRunes returns the code points a rune instruction accepts, with the
// case folding of a single folded literal made explicit.
func instRunes(in *syntax.Inst) runeSet {
	switch in.Op {
	case syntax.InstRuneAny:
		return runeSet{0, unicode.MaxRune}
	case syntax.InstRuneAnyNotNL:
		return runeSet{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
	case syntax.InstRune1:
		return runeSet{in.Rune[0], in.Rune[0]}
	}
	if len(in.Rune) != 1 {
		return slices.Clone(runeSet(in.Rune))
	}
	r0 := in.Rune[0]
	set := runeSet{r0, r0}
	if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
		for r := unicode.SimpleFold(r0); r != r0; r = unicode.SimpleFold(r) {
			set = append(set, r, r)
		}
	}
	return set.normalize()
}
