package pattern

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// The ECMA-262 front end: a recursive-descent parser for the Pattern
// grammar of ECMA-262 (2025) in Unicode mode (the u flag), producing a
// regexp/syntax tree with the same meaning. JSON Schema patterns always run
// with u-flag semantics and no other flag, so ^ and $ are the ends of the
// text and . excludes the four line terminators.
//
// The parser reads the whole pattern even after it has met a construct it
// cannot translate (look-around, back-references, modifiers, properties
// Go's tables lack): a malformed pattern is Malformed wherever the error
// is, and only a well-formed one is Unsupported. Syntax and limit errors
// unwind the parser by panicking with an *Error, recovered in parseECMA;
// nothing else panics.

// ecmaParser holds the state of one parse.
type ecmaParser struct {
	src   string
	pos   int
	lim   Limits
	depth int
	// syntaxOnly checks the syntax without building the sets of class
	// escapes inside classes ([\p{L}\d]), which only a compile needs:
	// each \p{…} of a class costs its ranges, hundreds for a few bytes.
	syntaxOnly bool
	// terms counts the syntax nodes made; each costs an instruction at
	// least, so more than Limits.MaxProgram cannot compile. work counts
	// the code-point ranges put into classes, against MaxCompileSteps.
	terms, work int
	// groups counts the capturing groups; names holds their names.
	groups int
	names  map[string]bool
	refs   []ecmaRef
	// unsupported is the first construct that cannot be translated.
	unsupported *Error
	// heads allows look-aheads right after the leading ^ of the pattern,
	// which found collects apart from the tree; atHead says the next term
	// is in that place.
	heads  bool
	atHead bool
	found  []lookahead
}

// lookahead is a look-ahead (?=…) or (?!…) right after a pattern's
// leading ^: at position 0 it tests whether re matches a prefix of the
// text (^ and $ inside it keep their meaning).
type lookahead struct {
	negative bool
	re       *syntax.Regexp
	offset   int
}

// ecmaRef is a back-reference, checked once all groups are known.
type ecmaRef struct {
	offset int
	num    int    // \N, or 0 for \k<name>
	digits string // the digits of \N as written
	name   string
}

// parseECMA parses expr as an ECMA-262 pattern with the u flag, and
// returns the work it took in steps (syntax nodes and class ranges),
// refused or not. Its error is an *Error: Malformed, Limit, or (for a
// pattern otherwise well formed and within the limits) Unsupported. With
// syntaxOnly the tree's classes leave out their class escapes, and the
// tree is only good for its error.
func parseECMA(expr string, lim Limits, syntaxOnly bool) (*syntax.Regexp, int, error) {
	re, _, work, err := parseECMAWith(expr, lim, syntaxOnly, false)
	return re, work, err
}

// parseECMAHeads parses expr as parseECMA does, but also accepts
// look-aheads right after a leading ^ that begins the pattern, with no |
// at its top level: ^(?!…)(?=…)R. It returns the tree of ^R and the
// look-aheads apart, in order; any other look-around stays Unsupported.
func parseECMAHeads(expr string, lim Limits) (*syntax.Regexp, []lookahead, int, error) {
	return parseECMAWith(expr, lim, false, true)
}

func parseECMAWith(expr string, lim Limits, syntaxOnly, heads bool) (re *syntax.Regexp, found []lookahead, work int, err error) {
	if !utf8.ValidString(expr) {
		return nil, nil, 0, malformedAt(-1, "The pattern is not valid UTF-8 text.")
	}
	p := &ecmaParser{src: expr, lim: lim, names: make(map[string]bool), syntaxOnly: syntaxOnly, heads: heads}
	defer func() {
		work = p.work + p.terms
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			re, found, err = nil, nil, e
		}
	}()
	re, _ = p.disjunction()
	if p.pos < len(p.src) { // only ')' stops a top-level disjunction
		p.fail(p.pos, "an unmatched )", "", `escape it as \)`)
	}
	p.checkRefs()
	h := height(re)
	for _, la := range p.found {
		h = max(h, 1+height(la.re))
	}
	if h > lim.MaxNesting {
		return nil, nil, 0, limitError("it nests %d levels deep, more than %d (Limits.MaxNesting)", h, lim.MaxNesting)
	}
	if p.unsupported != nil {
		return nil, nil, 0, p.unsupported
	}
	return re, p.found, 0, nil
}

// fail stops the parse with a Malformed error: the construct at offset,
// why it is wrong (may be empty), and what to write instead.
func (p *ecmaParser) fail(offset int, construct, why, hint string) {
	msg := fmt.Sprintf("The pattern is not a valid ECMA-262 regular expression: %s at offset %d", construct, offset)
	if why != "" {
		msg += " " + why
	}
	panic(malformedAt(offset, "%s; %s.", msg, hint))
}

// unsupport records a well-formed construct that cannot be translated; the
// first one becomes the error if the pattern is otherwise well formed.
func (p *ecmaParser) unsupport(offset int, format string, args ...any) {
	if p.unsupported == nil {
		p.unsupported = unsupportedAt(offset, format, args...)
	}
}

// unsupportConstruct records look-around and back-references, which no
// automaton can run (but for look-aheads right after a leading ^, which
// the pattern's automaton runs with the rest, see parseECMAHeads).
func (p *ecmaParser) unsupportConstruct(offset int, name string) {
	p.unsupport(offset, "The pattern uses %s at offset %d, which cannot run in linear time (toolgate matches patterns with an automaton); rewrite the pattern without it.", name, offset)
}

func (p *ecmaParser) more() bool { return p.pos < len(p.src) }

// peek returns the byte at the current position plus i, or 0 past the end.
func (p *ecmaParser) peek(i int) byte {
	if p.pos+i < len(p.src) {
		return p.src[p.pos+i]
	}
	return 0
}

func (p *ecmaParser) eat(s string) bool {
	if strings.HasPrefix(p.src[p.pos:], s) {
		p.pos += len(s)
		return true
	}
	return false
}

// nextRune consumes one code point.
func (p *ecmaParser) nextRune() rune {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	return r
}

// enter and leave bound the recursion.
func (p *ecmaParser) enter(offset int) {
	p.depth++
	if p.depth > p.lim.MaxNesting {
		panic(limitError("it nests more than %d levels deep at offset %d (Limits.MaxNesting)", p.lim.MaxNesting, offset))
	}
}

func (p *ecmaParser) leave() { p.depth-- }

// count adds a syntax node, and stops the parse once the pattern has more
// than Limits.MaxProgram of them.
func (p *ecmaParser) count() {
	p.terms++
	if p.terms > p.lim.MaxProgram {
		panic(limitError("it would compile to more than %d instructions (Limits.MaxProgram); use a shorter pattern", p.lim.MaxProgram))
	}
}

// charge adds n to the parse's work, and stops it past
// Limits.MaxCompileSteps.
func (p *ecmaParser) charge(n int) {
	p.work += n
	if p.work > p.lim.MaxCompileSteps {
		panic(stepsError("its classes take more than %d steps to build (Limits.MaxCompileSteps); simplify them", p.lim.MaxCompileSteps))
	}
}

// disjunction reads Alternative ('|' Alternative)* up to a ')' or the end.
// It returns the group names inside: alternatives may repeat a name
// (ES2025), since at most one of them takes part in a match.
func (p *ecmaParser) disjunction() (*syntax.Regexp, []string) {
	p.enter(p.pos)
	defer p.leave()
	var alts []*syntax.Regexp
	var names []string
	for {
		alt, n := p.alternative()
		alts = append(alts, alt)
		for _, name := range n {
			if !contains(names, name) {
				names = append(names, name)
			}
		}
		if !p.eat("|") {
			break
		}
	}
	if p.depth == 1 && len(alts) > 1 && len(p.found) > 0 {
		la := p.found[0]
		p.unsupport(la.offset, "The pattern uses a look-ahead at offset %d in a pattern with | at its top level; toolgate runs look-aheads only right after a leading ^ that applies to the whole pattern (^(?!…)(?=…)…): group the alternatives, as in ^(?!…)(?:a|b).", la.offset)
	}
	if len(alts) == 1 {
		return alts[0], names
	}
	return &syntax.Regexp{Op: syntax.OpAlternate, Sub: alts}, names
}

// alternative reads Term* up to a '|', a ')' or the end. A group name may
// appear once in it.
func (p *ecmaParser) alternative() (*syntax.Regexp, []string) {
	var subs []*syntax.Regexp
	var names []string
	caret := false // the alternative begins with ^ itself
	for p.more() && p.peek(0) != '|' && p.peek(0) != ')' {
		start := p.pos
		caret = caret || len(subs) == 0 && p.peek(0) == '^'
		p.atHead = p.depth == 1 && len(subs) == 1 && caret
		t, n := p.term()
		for _, name := range n {
			if contains(names, name) {
				p.fail(start, fmt.Sprintf("a second group named %q", name), "in the same alternative", "give each group its own name")
			}
			names = append(names, name)
		}
		if t != nil { // nil: a look-ahead after the leading ^, kept apart
			subs = append(subs, t)
		}
	}
	switch len(subs) {
	case 0:
		p.count()
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}, names
	case 1:
		return subs[0], names
	}
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: subs}, names
}

// term reads an Assertion, or an Atom with an optional Quantifier. It
// returns a nil tree for a look-ahead right after the leading ^ when the
// parse collects them (see parseECMAHeads).
func (p *ecmaParser) term() (*syntax.Regexp, []string) {
	p.count()
	start := p.pos
	var assertion syntax.Op
	switch {
	case p.eat("^"):
		assertion = syntax.OpBeginText
	case p.eat("$"):
		assertion = syntax.OpEndText
	case p.eat(`\b`):
		assertion = syntax.OpWordBoundary
	case p.eat(`\B`):
		assertion = syntax.OpNoWordBoundary
	}
	if assertion != 0 {
		p.noQuantifier(start)
		return &syntax.Regexp{Op: assertion}, nil
	}
	for _, la := range [...]struct{ open, name string }{
		{"(?=", "a look-ahead (?=…)"}, {"(?!", "a negative look-ahead (?!…)"},
		{"(?<=", "a look-behind (?<=…)"}, {"(?<!", "a negative look-behind (?<!…)"},
	} {
		if p.eat(la.open) {
			head := p.atHead && la.open[2] != '<'
			p.atHead = false
			re, names := p.disjunction()
			p.closeGroup(start)
			p.noQuantifier(start)
			switch {
			case head && p.heads:
				p.found = append(p.found, lookahead{negative: la.open == "(?!", re: re, offset: start})
				return nil, names // kept apart from the tree
			case head:
				p.unsupport(start, "The pattern uses %s at offset %d in a set of patterns (patternProperties), which toolgate runs as one automaton without look-around; a look-ahead right after a leading ^ runs only in a pattern of its own.", la.name, start)
			default:
				p.unsupportConstruct(start, la.name)
			}
			return &syntax.Regexp{Op: syntax.OpEmptyMatch}, names
		}
	}
	atom, names := p.atom()
	return p.quantifier(atom, start), names
}

// noQuantifier refuses a quantifier after an assertion, which the u flag
// does not allow.
func (p *ecmaParser) noQuantifier(start int) {
	_, _, braces := p.scanBraces() // a { that starts no quantifier is itself
	switch p.peek(0) {
	case '*', '+', '?':
	case '{':
		if !braces {
			return
		}
	default:
		return
	}
	p.fail(p.pos, "a quantifier", "after the assertion "+p.src[start:p.pos], "an assertion cannot be repeated")
}

// closeGroup consumes the ')' of the group opened at start.
func (p *ecmaParser) closeGroup(start int) {
	if !p.eat(")") {
		p.fail(start, "a group", "that is never closed", "close it with )")
	}
}

// atom reads one Atom.
func (p *ecmaParser) atom() (*syntax.Regexp, []string) {
	start := p.pos
	switch c := p.peek(0); c {
	case '.':
		p.pos++
		return classNode(dotSet), nil
	case '(':
		return p.group()
	case '[':
		return classNode(p.class()), nil
	case '\\':
		return p.atomEscape(), nil
	case '*', '+', '?':
		p.fail(start, "the quantifier "+string(c), "with nothing to repeat", `escape it as \`+string(c))
	case '{':
		if _, _, ok := p.scanBraces(); ok {
			p.fail(start, "a quantifier", "with nothing to repeat", `escape the brace as \{`)
		}
	}
	// A { that starts no quantifier, and a lone } or ], are themselves,
	// as Annex B reads them (the u flag refuses them; ^{[a-z]+}$ is real).
	return literalNode(p.nextRune()), nil
}

// group reads a group: ( … ), (?: … ), (?<name> … ) or a modifier group.
func (p *ecmaParser) group() (*syntax.Regexp, []string) {
	start := p.pos
	p.pos++ // (
	var name string
	switch {
	case p.eat("?:"):
	case p.eat("?<"):
		name = p.groupName(start)
		p.groups++
		p.names[name] = true
	case p.peek(0) == '?':
		p.pos++
		p.modifiers(start)
	default:
		p.groups++
	}
	re, names := p.disjunction()
	p.closeGroup(start)
	if name != "" {
		if contains(names, name) {
			p.fail(start, fmt.Sprintf("a group named %q", name), "around a group of the same name", "give each group its own name")
		}
		names = append(names, name)
	}
	return re, names
}

// modifiers reads the flags of an ES2025 modifier group after "(?", as in
// (?i:…) or (?-s:…), which is recorded as Unsupported.
func (p *ecmaParser) modifiers(start int) {
	var seen [2]string
	side := 0
	for p.more() && p.peek(0) != ':' {
		c := p.peek(0)
		switch {
		case c == '-' && side == 0:
			side = 1
		case c == 'i' || c == 'm' || c == 's':
			if strings.IndexByte(seen[0]+seen[1], c) >= 0 {
				p.fail(p.pos, fmt.Sprintf("the flag %c", c), "twice in a modifier group", "name each flag once")
			}
			seen[side] += string(c)
		case c == ')' && side == 0 && seen[0] != "":
			p.fail(start, fmt.Sprintf("the inline flags (?%s)", seen[0]), "", "ECMA-262 has no global inline flags, and toolgate does not run the modifier groups that scope them; spell the cases out instead, for example [Aa] for a case-insensitive a")
		default:
			p.fail(start, "the group (?", "that is not (?:, (?<name>, a look-around or a modifier group", `escape the parenthesis as \( to match it`)
		}
		p.pos++
	}
	if !p.eat(":") {
		p.fail(start, "a modifier group", "without its :", "write it as (?flags:…)")
	}
	if side == 1 && seen[0] == "" && seen[1] == "" {
		p.fail(start, "the empty modifier group (?-:", "", "name at least one flag")
	}
	p.unsupport(start, "The pattern uses the modifier group %s at offset %d, which toolgate does not run; spell the cases out instead, for example [Aa] for a case-insensitive a.", p.src[start:p.pos], start)
}

// quantifier reads an optional Quantifier after atom.
func (p *ecmaParser) quantifier(atom *syntax.Regexp, start int) *syntax.Regexp {
	re := &syntax.Regexp{Sub: []*syntax.Regexp{atom}}
	switch p.peek(0) {
	case '*':
		re.Op = syntax.OpStar
		p.pos++
	case '+':
		re.Op = syntax.OpPlus
		p.pos++
	case '?':
		re.Op = syntax.OpQuest
		p.pos++
	case '{':
		lo, hi, ok := p.scanBraces()
		if !ok {
			return atom // a literal {, the next atom
		}
		p.pos = p.braceEnd(p.pos)
		minimum, maximum := repeatCount(lo), -1
		if hi != "*" {
			if compareDigits(lo, hi) > 0 {
				p.fail(start, fmt.Sprintf("the quantifier {%s,%s}", lo, hi), "with its numbers out of order", "write the smaller number first")
			}
			maximum = repeatCount(hi)
		}
		re.Op, re.Min, re.Max = syntax.OpRepeat, minimum, maximum
	default:
		return atom
	}
	if p.eat("?") {
		re.Flags |= syntax.NonGreedy // the same language: only which match is found changes
	}
	return re
}

// scanBraces reads {n}, {n,} or {n,m} at the current position without
// consuming it; hi is lo for {n} and "*" for {n,}.
func (p *ecmaParser) scanBraces() (lo, hi string, ok bool) {
	s := p.src[p.pos:]
	end := strings.IndexByte(s, '}')
	if len(s) < 3 || s[0] != '{' || end < 0 {
		return "", "", false
	}
	body := s[1:end]
	lo, hi, comma := strings.Cut(body, ",")
	if !comma {
		hi = lo
	} else if hi == "" {
		hi = "*"
	}
	if !allDigits(lo) || hi != "*" && !allDigits(hi) {
		return "", "", false
	}
	return lo, hi, true
}

func (p *ecmaParser) braceEnd(pos int) int {
	return pos + strings.IndexByte(p.src[pos:], '}') + 1
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// compareDigits compares two decimal numbers of any length.
func compareDigits(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// maxRepeatCount is where repetition counts saturate: any count that large
// is far past every program limit.
const maxRepeatCount = 1 << 30

func repeatCount(digits string) int {
	n := 0
	for i := 0; i < len(digits); i++ {
		n = min(n*10+int(digits[i]-'0'), maxRepeatCount)
	}
	return n
}

// checkRefs checks the back-references against the groups of the whole
// pattern (a reference may come before its group).
func (p *ecmaParser) checkRefs() {
	for _, r := range p.refs {
		switch {
		case r.name != "" && !p.names[r.name]:
			p.fail(r.offset, fmt.Sprintf(`the back-reference \k<%s>`, r.name), "to a group that does not exist", "name an existing group")
		case r.name == "" && (len(r.digits) > 9 || r.num > p.groups):
			p.fail(r.offset, `the back-reference \`+r.digits, fmt.Sprintf("to a group the pattern does not have (it has %d capturing groups)", p.groups), `write \0 for a NUL character, or escape what you meant`)
		}
	}
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// literalNode matches one code point.
func literalNode(r rune) *syntax.Regexp {
	return &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}}
}

// classNode matches one code point of set.
func classNode(set runeSet) *syntax.Regexp {
	if len(set) == 0 {
		return &syntax.Regexp{Op: syntax.OpNoMatch}
	}
	return &syntax.Regexp{Op: syntax.OpCharClass, Rune: set}
}
