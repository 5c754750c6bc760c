package pattern

import (
	"fmt"
	"regexp/syntax"
	"slices"
)

// Syntax is the regular-expression dialect of an expression.
type Syntax uint8

const (
	// ECMA262 is the dialect of JSON Schema's pattern, patternProperties
	// and format "regex": ECMA-262 with the u flag and no other, translated
	// to the same meaning (see the package documentation). It is the zero
	// Syntax.
	ECMA262 Syntax = iota
	// RE2 is Go's regexp syntax as regexp.Compile reads it. No schema
	// keyword uses it (every profile's pattern is ECMA262); the package's
	// tests compile expressions in it to check the automata against
	// regexp on the very same text.
	RE2
)

// String returns "ECMA-262" or "RE2".
func (s Syntax) String() string {
	switch s {
	case ECMA262:
		return "ECMA-262"
	case RE2:
		return "RE2"
	}
	return fmt.Sprintf("Syntax(%d)", uint8(s))
}

// A Pattern is a compiled regular expression for a search: it matches a
// text when the expression matches anywhere in it (anchor with ^ and $ to
// match the whole text). It is immutable and safe for concurrent use.
type Pattern struct {
	expr string
	syn  Syntax
	d    *dfa
}

// Compile compiles expr in syntax syn within lim (the zero Limits is the
// defaults). An ECMA-262 expr may begin with ^ and look-aheads,
// ^(?!…)(?=…)…, which run exactly (see the package documentation); the
// look-aheads and the rest count against lim together, as one automaton.
// Its error is an *Error: Malformed if expr is not a regular expression
// of syn, Unsupported if it is one that cannot be run with the same
// meaning (look-behind, look-ahead anywhere else, back-references, …),
// Limit if its program or automaton would be larger than lim allows.
func Compile(expr string, syn Syntax, lim Limits) (*Pattern, error) {
	d, _, err := compileDFA([]string{expr}, syn, lim.withDefaults(), true)
	if err != nil {
		return nil, err
	}
	return &Pattern{expr: expr, syn: syn, d: d}, nil
}

// String returns the expression the pattern was compiled from.
func (p *Pattern) String() string { return p.expr }

// Size is the memory the compiled pattern holds, in bytes, for callers
// that account for what they cache.
func (p *Pattern) Size() int { return len(p.expr) + p.d.size() }

// MatchString reports whether the pattern matches s, a valid UTF-8 text.
func (p *Pattern) MatchString(s string) bool {
	st, node, _ := run(p.d, p.d.start, 0, s)
	return !p.d.matches(st, node).Empty()
}

// Match reports whether the pattern matches b, a valid UTF-8 text.
func (p *Pattern) Match(b []byte) bool {
	st, node, _ := run(p.d, p.d.start, 0, b)
	return !p.d.matches(st, node).Empty()
}

// A Set is a group of compiled expressions run together, as one automaton:
// matching a text costs a few table lookups per byte however many expressions
// the set has, and tells which of them match. When one automaton for all
// of them would pass Limits.MaxDFABytes (unanchored searches multiply
// each other's states: nine ordinary patternProperties such as
// "field.storage.*.*", 5 KB each alone, need more than 2 MiB together),
// the set is split into as few automata as halving finds, which together
// stay within it, and matching costs that many lookups per byte (Parts).
// It is immutable and safe for concurrent use.
type Set struct {
	exprs []string
	syn   Syntax
	parts []setPart // at least one
}

// setPart is one automaton of a Set: the expressions from first on, as
// many as it has patterns.
type setPart struct {
	d     *dfa
	first int
}

// CompileSet compiles exprs, all in syntax syn, into one Set within lim
// (for a set, MaxProgram bounds the programs together, MaxDFABytes the
// automata together, MaxSetParts their number, and MaxCompileSteps the
// work of every attempt). Its error is an *Error as for Compile;
// Error.Index names the refused expression, or is -1 when the set as a
// whole is past a limit. An empty set matches nothing. Unlike Compile, it
// refuses every look-ahead as Unsupported, those right after a leading ^
// included: a set's automaton answers which expressions match, and has no
// room for each one's look-aheads.
func CompileSet(exprs []string, syn Syntax, lim Limits) (*Set, error) {
	lim = lim.withDefaults()
	sp := splitter{
		set:  &Set{exprs: append([]string(nil), exprs...), syn: syn},
		max:  lim,
		lim:  lim,
		room: lim.MaxSetParts - 1,
	}
	if b := lim.Budget; b != nil && b.bytes > 0 && b.bytesLeft < lim.MaxDFABytes {
		sp.byBudget = true
		sp.lim.MaxDFABytes = max(b.bytesLeft, 0)
	}
	d, spent, err := compileDFA(exprs, syn, lim, false)
	if e, ok := err.(*Error); ok && e.bytes && len(exprs) > 1 {
		if sp.room <= 0 {
			return nil, sp.tooBig()
		}
		sp.lim.MaxCompileSteps -= spent
		if err := sp.split(exprs, 0); err != nil {
			return nil, err
		}
		return sp.set, nil
	}
	if e, ok := err.(*Error); ok && e.steps && !e.Shared && e.Index < 0 && len(exprs) > 1 {
		return nil, sp.outOfSteps(exprs)
	}
	if err != nil {
		return nil, err
	}
	sp.set.parts = []setPart{{d: d}}
	return sp.set, nil
}

// splitter compiles a set whose one automaton would pass MaxDFABytes into
// several: max is the set's limits, lim what is left of them, room how
// many more parts a split may add; byBudget marks a set whose Budget
// leaves it fewer bytes than MaxDFABytes.
type splitter struct {
	set      *Set
	max      Limits
	lim      Limits
	room     int
	byBudget bool
}

// split compiles exprs, from index first of the set, as two halves, or
// returns the set's error.
func (sp *splitter) split(exprs []string, first int) error {
	sp.room--
	half := len(exprs) / 2
	if err := sp.part(exprs[:half], first); err != nil {
		return err
	}
	return sp.part(exprs[half:], first+half)
}

// part compiles exprs, from index first of the set, into one automaton
// within what is left of the limits, or splits them again when it would
// pass MaxDFABytes and MaxSetParts leaves room. Its error is the set's.
func (sp *splitter) part(exprs []string, first int) error {
	if sp.lim.MaxCompileSteps <= 0 {
		return sp.outOfSteps(exprs)
	}
	if sp.lim.MaxDFABytes <= 0 {
		return sp.tooBig()
	}
	d, spent, err := compileDFA(exprs, sp.set.syn, sp.lim, false)
	sp.lim.MaxCompileSteps -= spent
	if err == nil {
		sp.lim.MaxDFABytes -= d.size()
		sp.set.parts = append(sp.set.parts, setPart{d: d, first: first})
		return nil
	}
	e, ok := err.(*Error)
	switch {
	case ok && e.steps && !e.Shared:
		// It ran out of what the set's earlier attempts left, not of a
		// limit of its own.
		if e.Index >= 0 {
			exprs = exprs[e.Index : e.Index+1]
		}
		return sp.outOfSteps(exprs)
	case !ok || !e.bytes:
		if ok {
			e.Index = -1
		}
		return err
	case len(exprs) == 1 || sp.room <= 0:
		return sp.tooBig()
	}
	return sp.split(exprs, first)
}

// outOfSteps is the error of a set of several expressions that used up
// Limits.MaxCompileSteps compiling exprs: all of them as one automaton,
// or some once split. It names exprs by the first and the last, each cut
// to maxQuoted bytes.
func (sp *splitter) outOfSteps(exprs []string) *Error {
	first, last := quoteExpr(exprs[0]), quoteExpr(exprs[len(exprs)-1])
	var e *Error
	switch {
	case len(exprs) == len(sp.set.exprs):
		e = stepsError("the automaton of the set's %d patterns, %s to %s, would take more than %d steps to build (Limits.MaxCompileSteps); use fewer or simpler patterns",
			len(exprs), first, last, sp.max.MaxCompileSteps)
	case len(exprs) == 1:
		e = sp.splitOutOfSteps(first)
	default:
		e = sp.splitOutOfSteps(fmt.Sprintf("the %d patterns %s to %s", len(exprs), first, last))
	}
	e.Index = -1
	return e
}

// splitOutOfSteps is outOfSteps' error for a split set that ran out at
// the patterns named.
func (sp *splitter) splitOutOfSteps(named string) *Error {
	return stepsError("the set's %d patterns would take more than %d steps to compile together (Limits.MaxCompileSteps), split into automata that fit Limits.MaxDFABytes, and ran out at %s; use fewer or simpler patterns",
		len(sp.set.exprs), sp.max.MaxCompileSteps, named)
}

// tooBig is the error of a set that does not fit MaxDFABytes however
// MaxSetParts lets it be split.
func (sp *splitter) tooBig() *Error {
	if sp.byBudget {
		return sp.max.Budget.fullError(len(sp.set.exprs), -1)
	}
	e := bytesError("its automata would need more than %d bytes (Limits.MaxDFABytes), even split in up to %d (Limits.MaxSetParts); use fewer or simpler patterns",
		sp.max.MaxDFABytes, sp.max.MaxSetParts)
	e.Index = -1
	return e
}

// Len is the number of expressions in the set.
func (s *Set) Len() int { return len(s.exprs) }

// Expr returns expression i of the set.
func (s *Set) Expr(i int) string { return s.exprs[i] }

// Syntax returns the syntax the set was compiled in.
func (s *Set) Syntax() Syntax { return s.syn }

// Parts is the number of automata the set runs: 1 unless one would pass
// Limits.MaxDFABytes (see Set), and at most Len. Matching costs a few
// table lookups per byte for each.
func (s *Set) Parts() int { return len(s.parts) }

// Size is the memory the compiled set holds, in bytes.
func (s *Set) Size() int {
	n := 0
	for _, p := range s.parts {
		n += p.d.size()
	}
	for _, e := range s.exprs {
		n += len(e) + 16
	}
	return n
}

// MatchString returns the expressions that match str, a valid UTF-8 text.
// It allocates nothing unless the set has several Parts.
func (s *Set) MatchString(str string) Bits {
	if len(s.parts) == 1 {
		d := s.parts[0].d
		st, node, _ := run(d, d.start, 0, str)
		return d.matches(st, node)
	}
	out := newBitset(len(s.exprs))
	for _, p := range s.parts {
		st, node, _ := run(p.d, p.d.start, 0, str)
		p.merge(out, p.d.matches(st, node))
	}
	return Bits{w: out, n: len(s.exprs)}
}

// merge adds the part's matches b to the set's bits out.
func (p setPart) merge(out bitset, b Bits) {
	for j := b.Next(0); j >= 0; j = b.Next(j + 1) {
		out.set(p.first + j)
	}
}

// Valid reports whether expr is a valid ECMA-262 regular expression with
// the u flag, for JSON Schema's format "regex": nil if it is (even if it
// uses what Compile refuses as Unsupported, such as look-behind), an
// *Error of Kind Malformed if it is not, or of Kind Limit if reading it
// would pass lim (MaxNesting; MaxProgram syntax nodes; MaxCompileSteps
// for its classes), so that no answer costs unbounded work. It checks the
// class escapes of a class ([\p{L}\d]) by name without building their
// sets, which only a compile needs, so its work is linear in expr: a
// format "regex" string of \p{L} in a class cost 5 µs a byte (200 of
// them, 1.2 KB, took 6 ms), and now 19 ns.
func Valid(expr string, lim Limits) error {
	_, _, err := parseECMA(expr, lim.withDefaults(), true)
	if e, ok := err.(*Error); ok && e.Kind == Unsupported {
		return nil
	}
	return err
}

// compileDFA runs the whole pipeline within lim and its Budget, and
// returns the steps it took, refused or not. With heads, the one
// expression of exprs may have look-aheads after its leading ^ (see
// buildPipeline).
func compileDFA(exprs []string, syn Syntax, lim Limits, heads bool) (*dfa, int, error) {
	shared := lim.Budget
	if shared == nil {
		return buildPipeline(exprs, syn, lim, heads)
	}
	boundBytes := shared.bytes > 0
	if shared.left <= 0 {
		return nil, 0, shared.spentError(len(exprs), -1)
	}
	if boundBytes && shared.bytesLeft <= 0 {
		return nil, 0, shared.fullError(len(exprs), -1)
	}
	// Which limit binds: the budget's, or the expression's own.
	bySteps := shared.left < lim.MaxCompileSteps
	byBytes := boundBytes && shared.bytesLeft < lim.MaxDFABytes
	lim.MaxCompileSteps = min(lim.MaxCompileSteps, shared.left)
	if byBytes {
		lim.MaxDFABytes = shared.bytesLeft
	}
	d, spent, err := buildPipeline(exprs, syn, lim, heads)
	shared.left -= spent
	e, isLimit := err.(*Error)
	switch {
	case err == nil && boundBytes:
		shared.bytesLeft -= d.size()
	case isLimit && e.steps && bySteps:
		err = shared.spentError(len(exprs), e.Index)
	case isLimit && e.bytes && byBytes:
		err = shared.fullError(len(exprs), e.Index)
	}
	return d, spent, err
}

// spentError is the Limit error of a compile of n expressions (index the
// refused one's, or -1) that the budget's steps do not leave enough for.
func (b *Budget) spentError(n, index int) *Error {
	e := stepsError("it and the expressions compiled before it with the same budget would take more than %d steps to build (Limits.Budget); use fewer or simpler patterns", b.steps)
	return b.refused(e, n, index)
}

// fullError is the Limit error of a compile of n expressions (index the
// refused one's, or -1) that the budget's bytes do not leave enough for.
// It is a bytes error, as a set split in parts may need fewer bytes.
func (b *Budget) fullError(n, index int) *Error {
	e := bytesError("it and the expressions compiled before it with the same budget would hold more than %d bytes of automata (Limits.Budget); use fewer or simpler patterns", b.bytes)
	return b.refused(e, n, index)
}

// refused marks e as the budget's error of a compile of n expressions.
func (b *Budget) refused(e *Error, n, index int) *Error {
	e.Shared, e.Index = true, index
	if index < 0 && n == 1 {
		e.Index = 0
	}
	return e
}

// exprSteps is what a Budget is charged for each expression besides the
// steps counted: the fixed cost of a compile, some 15–40 µs, as much as
// 1,000 steps of building an automaton take.
const exprSteps = 1000

// buildPipeline parses each expression, compiles it with regexp/syntax,
// joins the programs and builds the automaton, and returns the work it
// took in steps, refused or not.
//
// With heads, exprs is one ECMA-262 expression, which may be
// ^L1…LkR with look-aheads Li = (?=Ai) or (?!Ai): it matches a text s
// when ^(?:R) does, and each ^(?:Ai) does for (?=, and does not for (?!.
// Those k+1 searches are built as one automaton, as a set's patterns
// are, so each state knows where every one stands, and the automaton is
// then turned into the automaton of that one verdict (dfaBuilder.combine)
// before it is finished: exact, and no larger than the product.
func buildPipeline(exprs []string, syn Syntax, lim Limits, heads bool) (*dfa, int, error) {
	b := newNFABuilder()
	var searched []uint32
	var negative []bool // by pattern, with heads only
	parsed := 0         // the programs' work; the join's is b.work
	for i, expr := range exprs {
		var progs []*syntax.Prog
		var work int
		var err *Error
		if heads && syn == ECMA262 {
			progs, negative, work, err = compileHeads(expr, lim)
		} else {
			var prog *syntax.Prog
			prog, work, err = compileProgram(expr, syn, lim, lim.MaxProgram-len(b.n.insts))
			progs = []*syntax.Prog{prog}
		}
		parsed += exprSteps + work
		if err != nil {
			err.Index = i
			return nil, parsed + b.work, err
		}
		for j, prog := range progs {
			start, anchored := b.add(prog, i+j) // j > 0 only with heads, for one expression
			if b.work > lim.MaxCompileSteps {
				err := stepsError("its character classes take more than %d steps to join (Limits.MaxCompileSteps); simplify them", lim.MaxCompileSteps)
				err.Index = i
				return nil, parsed + b.work, err
			}
			if anchored {
				b.n.start = append(b.n.start, start)
			} else {
				searched = append(searched, start)
			}
		}
	}
	if len(searched) > 0 {
		b.n.start = append(b.n.start, b.searchLoop(searched))
	}
	npat := len(exprs)
	if negative != nil {
		npat = len(negative)
	}
	d, steps, err := buildDFA(&b.n, npat, negative, lim)
	spent := parsed + b.work + steps
	if err != nil {
		err.(*Error).Index = -1
		if len(exprs) == 1 {
			err.(*Error).Index = 0
		}
		return nil, spent, err
	}
	return d, spent, nil
}

// compileProgram parses expr and compiles it to a program of at most
// budget instructions, and returns the work it took in steps (the parse's,
// and an instruction each), refused or not.
func compileProgram(expr string, syn Syntax, lim Limits, budget int) (*syntax.Prog, int, *Error) {
	var re *syntax.Regexp
	var work int
	var err error
	switch syn {
	case ECMA262:
		re, work, err = parseECMA(expr, lim, false)
	case RE2:
		re, err = parseRE2(expr, lim)
		work = len(expr)
	default:
		return nil, 0, unsupportedAt(-1, "The pattern syntax %s is not one this package knows.", syn)
	}
	if err != nil {
		return nil, work, err.(*Error)
	}
	prog, n, perr := compileTree(re, lim, budget)
	return prog, work + n, perr
}

// compileHeads parses the ECMA-262 expr, which may have look-aheads right
// after its leading ^, and compiles ^(?:R) and each ^(?:Ai) (see
// buildPipeline) to programs of at most Limits.MaxProgram instructions
// together. negative says, by program, whether its match counts against
// the pattern's; it is nil when expr has no look-ahead, and progs is then
// the expression's one program. It returns the work as compileProgram.
func compileHeads(expr string, lim Limits) (progs []*syntax.Prog, negative []bool, work int, err *Error) {
	re, found, work, perr := parseECMAHeads(expr, lim)
	if perr != nil {
		return nil, nil, work, perr.(*Error)
	}
	trees := []*syntax.Regexp{re}
	if len(found) > 0 {
		negative = []bool{false}
	}
	for _, la := range found {
		trees = append(trees, &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{{Op: syntax.OpBeginText}, la.re}})
		negative = append(negative, la.negative)
	}
	budget := lim.MaxProgram
	for _, tree := range trees {
		prog, n, err := compileTree(tree, lim, budget)
		work += n
		if err != nil {
			if len(trees) > 1 && err.Kind == Limit && budget < lim.MaxProgram {
				err = limitError("its look-aheads and the rest would compile to more than %d instructions together (Limits.MaxProgram); use a shorter pattern", lim.MaxProgram)
			}
			return nil, nil, work, err
		}
		budget -= len(prog.Inst)
		progs = append(progs, prog)
	}
	return progs, negative, work, nil
}

// compileTree compiles re to a program of at most budget instructions,
// and returns the work it took in steps (an instruction each).
func compileTree(re *syntax.Regexp, lim Limits, budget int) (*syntax.Prog, int, *Error) {
	if budget <= 0 || programSize(re, int64(budget), true) > int64(budget) {
		return nil, 0, programError(re, programSize(re, int64(lim.MaxProgram), true), lim)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, 0, malformedAt(-1, "The pattern cannot be compiled: %s.", err)
	}
	if len(prog.Inst) > budget {
		return nil, len(prog.Inst), programError(re, int64(len(prog.Inst)), lim)
	}
	return prog, len(prog.Inst), nil
}

// programError is the Limit error of re, whose program of size
// instructions does not fit what lim.MaxProgram leaves it. It says what is
// too large: the programs of a set together, when re's alone fits; re
// itself, when it has no repetition count or does not fit even with each
// counted once; or else its repetition counts.
func programError(re *syntax.Regexp, size int64, lim Limits) *Error {
	limit := int64(lim.MaxProgram)
	switch {
	case size <= limit:
		return limitError("it and the expressions before it in the set would compile to more than %d instructions together (Limits.MaxProgram); use fewer or shorter patterns", limit)
	case !counted(re):
		return limitError("it would compile to more than %d instructions (Limits.MaxProgram); use a shorter pattern", limit)
	case programSize(re, limit, false) > limit:
		return limitError("it would compile to more than %d instructions (Limits.MaxProgram) even with each repetition counted once; use a shorter pattern", limit)
	}
	return limitError("its repetition counts would expand it to more than %d instructions (Limits.MaxProgram; a{50} is 50); use smaller repetition counts", limit)
}

// counted reports whether re repeats something by a count, x{n,m}.
func counted(re *syntax.Regexp) bool {
	return re.Op == syntax.OpRepeat || slices.ContainsFunc(re.Sub, counted)
}

// programSize estimates the instructions re compiles to, as regexp/syntax
// does before it expands repetitions (or, unless expand, as if each
// repetition count were 1), saturating just past limit so huge counts
// cannot overflow.
func programSize(re *syntax.Regexp, limit int64, expand bool) int64 {
	sat := func(n int64) int64 { return min(n, limit+1) }
	sub := func(i int) int64 { return programSize(re.Sub[i], limit, expand) }
	var n int64
	switch re.Op {
	case syntax.OpLiteral:
		n = int64(len(re.Rune))
	case syntax.OpCapture, syntax.OpStar:
		n = 2 + sub(0)
	case syntax.OpPlus, syntax.OpQuest:
		n = 1 + sub(0)
	case syntax.OpConcat, syntax.OpAlternate:
		for i := range re.Sub {
			n = sat(n + sub(i))
		}
		if re.Op == syntax.OpAlternate {
			n += int64(len(re.Sub)) - 1
		}
	case syntax.OpRepeat:
		s := sub(0)
		if !expand {
			n = s
			break
		}
		if re.Max == -1 { // x{2,} = xx+
			n = 1 + sat(int64(re.Min))*s
			break
		}
		n = sat(int64(re.Max))*s + int64(re.Max-re.Min) // x{2,5} = xx(x(x(x)?)?)?
	}
	return sat(max(1, n))
}
