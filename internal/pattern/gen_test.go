package pattern

import (
	"math/rand/v2"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// exprGen writes random regular expressions in one syntax, from pieces that
// cover every construct the package translates or compiles.
type exprGen struct {
	rng   *rand.Rand
	ecma  bool
	names int
}

var (
	ecmaAtoms = []string{
		"a", "b", "c", "é", "🐲", "α", ".", `\d`, `\D`, `\w`, `\W`, `\s`, `\S`, "[a-c]", "[^a]",
		"[^]", "[]", `\u{1F432}`, `\x41`, `\p{L}`, `\p{Lu}`, `\P{L}`, `[\p{L}\d]`, `\p{sc=Greek}`,
		`\n`, `\r`, `\u2028`, `[\s\S]`, `\cJ`, "K", `\uD83D\uDE00`, `[🐲-🐵]`, `\.`, `\0`, "_",
	}
	re2Atoms = []string{
		"a", "b", "c", "é", "🐲", "α", ".", `\d`, `\D`, `\w`, `\W`, `\s`, `\S`, "[a-c]", "[^a]",
		`\x{1F432}`, `\x41`, `\pL`, `\p{Lu}`, `\PL`, `[\pL\d]`, `\p{Greek}`, `\n`, `\r`,
		`[[:alpha:]]`, `(?i:k)`, `(?i:é)`, `(?i:ab)`, `(?s:.)`, `\Q.*\E`, "K", "_", `[^\n]`,
	}
	ecmaAssertions = []string{"^", "$", `\b`, `\B`}
	re2Assertions  = []string{"^", "$", `\b`, `\B`, `\A`, `\z`, "(?m:^)", "(?m:$)"}
	quantifiers    = []string{"*", "+", "?", "{2}", "{1,3}", "{0,2}", "*?", "+?", "{2,}", "??"}
)

func (g *exprGen) expr(depth int) string {
	var b strings.Builder
	alts := 1
	if g.rng.IntN(4) == 0 {
		alts = 2 + g.rng.IntN(2)
	}
	for i := range alts {
		if i > 0 {
			b.WriteByte('|')
		}
		for range 1 + g.rng.IntN(3) {
			b.WriteString(g.term(depth))
		}
	}
	return b.String()
}

func (g *exprGen) term(depth int) string {
	atoms, assertions := ecmaAtoms, ecmaAssertions
	if !g.ecma {
		atoms, assertions = re2Atoms, re2Assertions
	}
	if g.rng.IntN(6) == 0 {
		return assertions[g.rng.IntN(len(assertions))]
	}
	var atom string
	if depth > 0 && g.rng.IntN(4) == 0 {
		inner := g.expr(depth - 1)
		switch g.rng.IntN(3) {
		case 0:
			atom = "(" + inner + ")"
		case 1:
			atom = "(?:" + inner + ")"
		default:
			g.names++
			if g.ecma {
				atom = "(?<n" + strconv.Itoa(g.names) + ">" + inner + ")"
			} else {
				atom = "(?P<n" + strconv.Itoa(g.names) + ">" + inner + ")"
			}
		}
	} else {
		atom = atoms[g.rng.IntN(len(atoms))]
	}
	if g.rng.IntN(3) == 0 {
		atom += quantifiers[g.rng.IntN(len(quantifiers))]
	}
	return atom
}

// textAlphabet holds the characters of random texts: what the atoms above
// match and do not match, case pairs for (?i), line terminators, one
// character of each UTF-8 length.
var textAlphabet = []string{
	"a", "b", "c", "A", "K", "k", "\u212a", "é", "É", "α", "Ω", "🐲", "😀", "\n", "\r", " ",
	"1", "_", "\u2028", "\u00a0", "\t", "x", ".", "*", "\x00",
}

func randomText(rng *rand.Rand, maxLen int) string {
	var b strings.Builder
	for range rng.IntN(maxLen + 1) {
		b.WriteString(textAlphabet[rng.IntN(len(textAlphabet))])
	}
	return b.String()
}

// sample writes a random text of re's language, ignoring empty-width
// assertions (so it may not match; callers check with regexp).
func sample(rng *rand.Rand, re *syntax.Regexp, b *strings.Builder) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return
		}
		i := 2 * rng.IntN(len(re.Rune)/2)
		lo, hi := re.Rune[i], re.Rune[i+1]
		r := lo + rune(rng.IntN(int(min(hi-lo, 300))+1))
		if utf8.ValidRune(r) {
			b.WriteRune(r)
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteString(textAlphabet[rng.IntN(len(textAlphabet))])
	case syntax.OpCapture:
		sample(rng, re.Sub[0], b)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			sample(rng, sub, b)
		}
	case syntax.OpAlternate:
		sample(rng, re.Sub[rng.IntN(len(re.Sub))], b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + 2
			}
		}
		for range lo + rng.IntN(hi-lo+1) {
			sample(rng, re.Sub[0], b)
		}
	}
}
