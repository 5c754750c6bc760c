package pattern

import (
	"regexp"
	"regexp/syntax"
	"testing"
	"unicode/utf8"
)

// fuzzLimits keep each fuzz input cheap.
var fuzzLimits = Limits{MaxProgram: 2000, MaxDFABytes: 256 << 10, MaxCompileSteps: 1 << 20}

var fuzzSeeds = []string{
	"a", `^abc$`, `\bfoo\b`, `(a|b)*c`, `[^\p{L}\d]`, `\p{sc=Greek}+`, `(?<n>x)\k<n>`, `(?=a)`,
	`a{2,3}?`, `[\uD83D\uDE00-\uD83D\uDE4F]`, `\u{1F432}`, `(?i:a)`, `[\d-]`, `\cJ`, `.`,
	`(?m)^x$`, `(?s).`, `\pL`, `(?i)K`, `[[:alpha:]]`, `\Q*\E`, `a++`, `(?P<n>a)`, "",
	`[`, `(`, `\`, `{`, `a{,2}`, `\p{Foo}`, "\xff", `\0A{1001}`, `(?:ab){999,1002}`,
	zodEmail, pydanticNumber, `^(?!a)`, `^(?=.*b)a*$`, `^(?!x$)(?=^.b|\b)..`, `^(?=a)|b`,
}

// FuzzCompile checks that Compile and Valid never panic, that a refusal
// is a well-formed *Error, that a compiled automaton stays within its
// limit, and that Valid and Compile agree on what is malformed.
func FuzzCompile(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, expr string, re2 bool) {
		syn := ECMA262
		if re2 {
			syn = RE2
		}
		p, err := Compile(expr, syn, fuzzLimits)
		if err != nil {
			e, ok := err.(*Error)
			if !ok || e.Kind < Malformed || e.Kind > Limit || e.Msg == "" || e.Index != 0 || e.Offset < -1 || e.Offset > len(expr) {
				t.Fatalf("%q: bad error %#v", expr, err)
			}
		} else if p.d.size() > fuzzLimits.MaxDFABytes {
			t.Fatalf("%q: %d bytes past the limit", expr, p.d.size())
		}
		if syn != ECMA262 {
			return
		}
		verr := Valid(expr, fuzzLimits)
		malformed := err != nil && err.(*Error).Kind == Malformed
		if (verr != nil && verr.(*Error).Kind == Malformed) != malformed {
			t.Fatalf("%q: Valid says %v, Compile %v", expr, verr, err)
		}
	})
}

// FuzzMatch checks the automaton against Go's regexp on the same tree, for
// any expression that compiles and any valid UTF-8 text, whole and split
// at a fuzzed point. An expression with look-aheads after its leading ^
// is checked against regexp on its rest and on each look-ahead, each
// anchored at the start.
func FuzzMatch(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "xfoo abc é🐲", false, uint8(3))
		f.Add(s, "aab\nc", true, uint8(1))
	}
	f.Fuzz(func(t *testing.T, expr, text string, re2 bool, cut uint8) {
		if !utf8.ValidString(text) {
			return
		}
		syn := ECMA262
		var tree *syntax.Regexp
		var heads []lookahead // look-aheads after the leading ^
		var err error
		if re2 {
			syn = RE2
			tree, err = syntax.Parse(expr, syntax.Perl)
		} else {
			tree, heads, _, err = parseECMAHeads(expr, fuzzLimits.withDefaults())
		}
		if err != nil {
			return
		}
		p, err := Compile(expr, syn, fuzzLimits)
		if err != nil {
			return
		}
		re, err := compileReference(tree)
		if err != nil {
			t.Fatalf("%q translates to %q, which regexp refuses: %v", expr, tree, err)
		}
		want := re.MatchString(text)
		for _, la := range heads {
			head := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{{Op: syntax.OpBeginText}, la.re}}
			hre, err := compileReference(head)
			if err != nil {
				t.Fatalf("%q: its look-ahead translates to %q, which regexp refuses: %v", expr, head, err)
			}
			want = want && hre.MatchString(text) != la.negative
		}
		if got := p.MatchString(text); got != want {
			t.Fatalf("%q (as %s) on %q: %v, regexp %v", expr, tree, text, got, want)
		}
		i := int(cut) % (len(text) + 1)
		checkSplit(t, p, expr, text, i, want)
		// At the cut, between characters: GrowsWithin the 16 code points
		// around the next character says what trying each says, and if it
		// refuses them the text cannot match.
		if i < len(text) && utf8.RuneStart(text[i]) {
			var at Matcher
			at.Reset(p)
			at.WriteString(text[:i])
			r, _ := utf8.DecodeRuneInString(text[i:])
			lo, hi := r&^0xF, r|0xF
			grows := at.GrowsWithin(lo, hi)
			if tried := growsByTrying(at, lo, hi); grows != tried {
				t.Fatalf("%q after %q: GrowsWithin(%U, %U) %v, trying each %v", expr, text[:i], lo, hi, grows, tried)
			}
			if !grows && want {
				t.Fatalf("%q after %q refuses %U–%U, but %q matches", expr, text[:i], lo, hi, text)
			}
		}
	})
}

// FuzzLookAhead checks patterns ^(?=A)(?!B)(?:R) made of fuzzed parts
// against Go's regexp on ^(?:R), ^(?:A) and ^(?:B), each part translated
// alone, on a fuzzed text: whole, split, and for a sound early rejection.
func FuzzLookAhead(f *testing.F) {
	f.Add(`.*\d`, `.*\.\.`, `[\w.]+@\w+\.\w{2,}$`, "a.b@c.de", uint8(3))
	f.Add(`^[-+.]*$`, `[+-]?0*\d*\.?\d*$`, `\d+`, "+.5", uint8(1))
	f.Add(`a`, `b`, `[ab]*$`, "ab", uint8(0))
	f.Add(`.*b`, `^$`, `a*$`, "aaa", uint8(2))
	f.Fuzz(func(t *testing.T, pos, neg, rest, text string, cut uint8) {
		if !utf8.ValidString(text) {
			return
		}
		lim := fuzzLimits.withDefaults()
		var refs []*regexp.Regexp
		for _, part := range []string{rest, pos, neg} {
			if _, _, err := parseECMA(part, lim, false); err != nil {
				return // each part must be a pattern of its own
			}
			tree, _, err := parseECMA(`^(?:`+part+`)`, lim, false)
			if err != nil {
				return
			}
			re, err := compileReference(tree)
			if err != nil {
				t.Fatalf("%q translates to %q, which regexp refuses: %v", part, tree, err)
			}
			refs = append(refs, re)
		}
		expr := `^(?=` + pos + `)(?!` + neg + `)(?:` + rest + `)`
		p, err := Compile(expr, ECMA262, fuzzLimits)
		if err != nil {
			// Malformed only for names two parts both give their groups.
			if err.(*Error).Kind == Unsupported {
				t.Fatalf("%q: %v", expr, err)
			}
			return
		}
		want := refs[0].MatchString(text) && refs[1].MatchString(text) && !refs[2].MatchString(text)
		if got := p.MatchString(text); got != want {
			t.Fatalf("%q on %q: %v, regexp %v", expr, text, got, want)
		}
		m := checkSplit(t, p, expr, text, int(cut)%(len(text)+1), want)
		if m.Done() && want {
			// Settled: the text with more after it still matches.
			more := text + "a.1 é"
			if !refs[0].MatchString(more) || !refs[1].MatchString(more) || refs[2].MatchString(more) {
				t.Fatalf("%q: Done after %q, but %q does not match", expr, text, more)
			}
		}
	})
}

// checkSplit writes text to a Matcher of p (compiled from expr) in two
// pieces, cut at i, and fails t unless it matches as want says, with no
// early rejection of a text that matches. It returns the Matcher.
func checkSplit(t *testing.T, p *Pattern, expr, text string, i int, want bool) *Matcher {
	t.Helper()
	var m Matcher
	m.Reset(p)
	d1 := m.WriteString(text[:i])
	d2 := m.WriteString(text[i:])
	if m.Matched() != want {
		t.Fatalf("%q on %q split at %d: %v, regexp %v", expr, text, i, m.Matched(), want)
	}
	if want && (d1 >= 0 || d2 >= 0) {
		t.Fatalf("%q on %q: rejected early (%d, %d) but matches", expr, text, d1, d2)
	}
	return &m
}
