package pattern

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The real look-ahead patterns of generators: zod v4's z.email(), and
// pydantic's Decimal.
const (
	zodEmail       = `^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`
	pydanticNumber = `^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$`
)

// lookaheadRef is the reference verdict of a pattern with look-aheads
// after its leading ^: Go's regexp on ^(?:R) and on each ^(?:Ai), each
// written independently of the parser's split.
type lookaheadRef struct {
	rest  *regexp.Regexp
	heads []*regexp.Regexp
	neg   []bool
}

func (r lookaheadRef) match(s string) bool {
	if !r.rest.MatchString(s) {
		return false
	}
	for i, re := range r.heads {
		if re.MatchString(s) == r.neg[i] {
			return false
		}
	}
	return true
}

// ecmaRegexp compiles the ECMA-262 expr, which must have no look-around,
// anchored as ^(?:expr), with Go's regexp through the front end's tree.
func ecmaRegexp(t testing.TB, expr string) *regexp.Regexp {
	t.Helper()
	tree, _, err := parseECMA(`^(?:`+expr+`)`, Limits{}.withDefaults(), false)
	require.NoError(t, err, expr)
	re, err := compileReference(tree)
	require.NoError(t, err, expr)
	return re
}

// newLookaheadRef returns the reference of ^L1…LkR from R and the Li.
func newLookaheadRef(t testing.TB, rest string, heads ...string) lookaheadRef {
	t.Helper()
	r := lookaheadRef{rest: ecmaRegexp(t, rest)}
	for _, h := range heads {
		neg := strings.HasPrefix(h, "(?!")
		require.True(t, neg || strings.HasPrefix(h, "(?="), h)
		r.heads = append(r.heads, ecmaRegexp(t, h[3:len(h)-1]))
		r.neg = append(r.neg, neg)
	}
	return r
}

// lookaheadCase is a pattern with look-aheads, its reference, texts it
// matches and does not, and an alphabet and lengths for exactness.
type lookaheadCase struct {
	rest     string
	heads    []string
	yes, no  []string
	alphabet []string
	n, m     int // texts of up to n characters, completions of up to m more
}

func (c lookaheadCase) expr() string { return "^" + strings.Join(c.heads, "") + c.rest }

var lookaheadCases = []lookaheadCase{
	{
		rest:  `([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`,
		heads: []string{`(?!\.)`, `(?!.*\.\.)`},
		yes:   []string{"a@b.cd", "john.doe@example.com", "o'neil+tag@x-y.example.org", "a.b.c@d.ef"},
		no:    []string{"", ".a@b.cd", "a..b@c.de", "a@b..cd", "a.@b.cd", "a@b.c", "a@-b.cd", "a@b.cd.", "é@b.cd"},
		// "a." needs "a@a.aa" to match: six more.
		alphabet: []string{"a", ".", "@"}, n: 4, m: 6,
	},
	{
		rest:     `[+-]?0*\d*\.?\d*$`,
		heads:    []string{`(?!^[-+.]*$)`},
		yes:      []string{"0", "1.5", "-1", "+.5", "5.", "007", ".0"},
		no:       []string{"", "+", "-", ".", "+.", "1.2.3", "x", "1e5", "--1"},
		alphabet: []string{"1", ".", "-", "x"}, n: 5, m: 3,
	},
	{
		rest:     `a*$`,
		heads:    []string{`(?=.*b)`},
		no:       []string{"", "a", "aa", "b", "ab", "ba"},
		alphabet: []string{"a", "b"}, n: 5, m: 4,
	},
	{
		rest:     ``,
		heads:    []string{`(?!a)`},
		yes:      []string{"", "b", "ba", "é"},
		no:       []string{"a", "ab"},
		alphabet: []string{"a", "b", "é"}, n: 4, m: 3,
	},
	{
		rest:     `[a-c]*`,
		heads:    []string{`(?!x$)`},
		yes:      []string{"", "a", "xa", "xx", "b"},
		no:       []string{"x"},
		alphabet: []string{"a", "x"}, n: 5, m: 3,
	},
	{
		rest:     `\w+$`,
		heads:    []string{`(?=.*\d)`, `(?=.*[a-z])`, `(?!.*aa)`},
		yes:      []string{"a1", "1a", "ab12", "1a1"},
		no:       []string{"", "a", "1", "aa1", "1aa", "a 1", "A1"},
		alphabet: []string{"a", "1", "A"}, n: 5, m: 3,
	},
	{
		// ^ and $ inside a look-ahead keep their meaning.
		rest:     `.*`,
		heads:    []string{`(?=^ab$|^c)`, `(?!^$)`},
		yes:      []string{"ab", "c", "cab", "c\n"},
		no:       []string{"", "a", "abc", "b", "xab"},
		alphabet: []string{"a", "b", "c"}, n: 4, m: 3,
	},
	{
		// A look-ahead whose ^ cannot hold after a character: (?=a^) fails.
		rest:     `a`,
		heads:    []string{`(?!a^)`, `(?=a|\b)`},
		yes:      []string{"a", "ab"},
		no:       []string{"", "b"},
		alphabet: []string{"a", "b"}, n: 3, m: 3,
	},
	{
		// Positive and negative of one expression: nothing matches.
		rest:     `.*`,
		heads:    []string{`(?=ab)`, `(?!ab)`},
		no:       []string{"", "ab", "abc", "b"},
		alphabet: []string{"a", "b"}, n: 3, m: 3,
	},
}

// TestLookAhead checks patterns with look-aheads right after the leading
// ^ against their reference: on the texts listed, and for exactness on
// every text over a small alphabet, byte by byte: the index Write reports
// is in the first character after which no completion matches (brute
// force over the alphabet), before it some completion does (the
// automaton's witness, confirmed by the reference, and the brute force),
// Matched is the reference's verdict, and once Done and matched every
// completion matches.
func TestLookAhead(t *testing.T) {
	t.Parallel()
	for _, tc := range lookaheadCases {
		t.Run(tc.expr(), func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tc.expr(), ECMA262, Limits{})
			require.NoError(t, err)
			ref := newLookaheadRef(t, tc.rest, tc.heads...)
			for _, s := range tc.yes {
				require.True(t, ref.match(s), "the reference matches %+q", s)
				assert.True(t, p.MatchString(s), "%+q", s)
				assert.True(t, p.Match([]byte(s)), "%+q", s)
			}
			for _, s := range tc.no {
				require.False(t, ref.match(s), "the reference does not match %+q", s)
				assert.False(t, p.MatchString(s), "%+q", s)
			}
			checkExact(t, p, ref.match, tc.alphabet, tc.n, tc.m)
		})
	}
}

// TestLookAheadEmpty: ^(?=.*b)a*$ matches nothing, so its matcher is dead
// before the first byte and rejects it.
func TestLookAheadEmpty(t *testing.T) {
	t.Parallel()
	m := matcherAfter(t, `^(?=.*b)a*$`, "")
	assert.True(t, m.Dead())
	assert.False(t, m.Matched())
	assert.Equal(t, 0, m.WriteString("a"))
	for _, text := range []string{"a", "b", "é"} {
		var m Matcher
		p, err := Compile(`^(?=.*b)a*$`, ECMA262, Limits{})
		require.NoError(t, err)
		m.Reset(p)
		assert.Equal(t, 0, m.WriteString(text), "%+q", text)
	}
}

// TestLookAheadReal pins where the real patterns reject texts.
func TestLookAheadReal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		expr, text string
		dead       int
	}{
		{zodEmail, ".a@b.cd", 0},
		{zodEmail, "a..b@c.de", 2},
		{zodEmail, "a@b..cd", 4},
		{zodEmail, "a.@b.cd", 2}, // the last character before @ is no dot
		{zodEmail, "ab@-", 3},
		{zodEmail, "é", 0}, // at its first byte: no character from C3 fits
		{zodEmail, "john.doe@example.com", -1},
		{pydanticNumber, "+.", -1}, // "+.5" still matches
		{pydanticNumber, "1.2.", 3},
		{pydanticNumber, "x", 0},
		{pydanticNumber, "--", 1},
	} {
		p, err := Compile(tc.expr, ECMA262, Limits{})
		require.NoError(t, err)
		var m Matcher
		m.Reset(p)
		first := -1
		for i := 0; i < len(tc.text); i++ {
			if d := m.Write([]byte{tc.text[i]}); d >= 0 && first < 0 {
				first = i
			}
		}
		assert.Equal(t, tc.dead, first, "%s on %+q", tc.expr, tc.text)
	}
}

// checkExact checks p against ref on every text of up to n characters of
// alphabet, fed byte by byte, completions tried up to m characters more.
func checkExact(t *testing.T, p *Pattern, ref func(string) bool, alphabet []string, n, m int) {
	t.Helper()
	viable := map[string]bool{}
	var canMatch func(s string, left int) bool // some completion of up to left characters matches
	canMatch = func(s string, left int) bool {
		if v, ok := viable[s]; ok && left == n+m-utf8.RuneCountInString(s) {
			return v
		}
		v := ref(s)
		for _, c := range alphabet {
			if v || left == 0 {
				break
			}
			v = canMatch(s+c, left-1)
		}
		if left == n+m-utf8.RuneCountInString(s) {
			viable[s] = v
		}
		return v
	}
	allMatch := func(s string) bool { // every completion of up to m characters matches
		var all func(s string, left int) bool
		all = func(s string, left int) bool {
			if !ref(s) {
				return false
			}
			for _, c := range alphabet {
				if left > 0 && !all(s+c, left-1) {
					return false
				}
			}
			return true
		}
		return all(s, m)
	}
	wit := newWitnesser(p.d)
	var texts func(prefix []string)
	texts = func(chars []string) {
		text := strings.Join(chars, "")
		var mt Matcher
		mt.Reset(p)
		dead, at := -1, 0
		for j, c := range chars {
			prefix := strings.Join(chars[:j], "")
			require.Equal(t, canMatch(prefix, n+m-j), !mt.Dead(), "%s: alive after %+q", p, prefix)
			require.Equal(t, ref(prefix), mt.Matched(), "%s: Matched after %+q", p, prefix)
			if !mt.Dead() {
				w, ok := wit.witness(mt.c.state, mt.c.node)
				require.True(t, ok, "%s: a live state has a way to match", p)
				require.True(t, ref(prefix+w), "%s: witness %+q after %+q does not match", p, w, prefix)
				require.Equal(t, wit.grows(mt), mt.Grows(), "%s: Grows after %+q", p, prefix)
				require.Equal(t, mt.Grows(), mt.GrowsWithin(0, utf8.MaxRune), "%s: GrowsWithin after %+q", p, prefix)
			}
			if mt.Done() && mt.Matched() {
				require.True(t, allMatch(prefix), "%s: Done and matched after %+q, but a completion does not match", p, prefix)
			}
			for k := 0; k < len(c); k++ {
				if d := mt.Write([]byte{c[k]}); d >= 0 && dead < 0 {
					require.Equal(t, 0, d)
					dead = at + k
				}
			}
			if dead >= 0 && dead < at {
				continue
			}
			if !canMatch(prefix+c, n+m-j-1) {
				// The first character after which nothing matches: the
				// dead byte is one of its bytes.
				require.True(t, dead >= at && dead < at+len(c), "%s: %+q is dead after %+q, but Write says %d", p, c, prefix, dead)
			} else {
				require.Less(t, dead, 0, "%s: %+q rejected at %d, but a completion matches", p, text, dead)
			}
			at += len(c)
		}
		if !mt.Dead() {
			require.Equal(t, ref(text), mt.Matched(), "%s on %+q", p, text)
			require.Equal(t, ref(text), p.MatchString(text), "%s on %+q", p, text)
		}
		if len(chars) < n {
			for _, c := range alphabet {
				texts(append(chars[:len(chars):len(chars)], c))
			}
		}
	}
	texts(nil)
}

// TestLookAheadDifferential checks generated patterns ^L1…LkR, whose R
// and look-aheads are generated expressions, against Go's regexp on ^(?:R)
// and each ^(?:Ai), whole, split and byte by byte, and for prefix
// viability with the automaton's witness and random completions.
func TestLookAheadDifferential(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	g := &exprGen{rng: rng, ecma: true}
	matched, rejected, built := 0, 0, 0
	for built < 150/scale {
		rest := "(?:" + g.expr(2) + ")"
		if rng.IntN(2) == 0 {
			rest = g.expr(1) // not grouped: it must have no | at its top level
			if strings.Contains(rest, "|") {
				rest = "(?:" + rest + ")"
			}
		}
		var heads []string
		for range 1 + rng.IntN(3) {
			open := "(?="
			if rng.IntN(2) == 0 {
				open = "(?!"
			}
			heads = append(heads, open+g.expr(1)+")")
		}
		expr := "^" + strings.Join(heads, "") + rest
		p, err := Compile(expr, ECMA262, Limits{})
		if err != nil && err.(*Error).Kind == Limit {
			continue
		}
		require.NoError(t, err, expr)
		built++
		ref := newLookaheadRef(t, rest, heads...)
		wit := newWitnesser(p.d)
		tree, found, _, err := parseECMAHeads(expr, Limits{}.withDefaults())
		require.NoError(t, err)
		require.Len(t, found, len(heads))
		var samples []string
		for range 10 {
			var b strings.Builder
			sample(rng, tree, &b)
			for _, la := range found {
				if rng.IntN(2) == 0 {
					b.Reset()
					sample(rng, la.re, &b)
				}
			}
			samples = append(samples, b.String(), b.String()+randomText(rng, 3))
		}
		for range 10 {
			samples = append(samples, randomText(rng, 8))
		}
		for _, text := range samples {
			want := ref.match(text)
			if want {
				matched++
			}
			require.Equal(t, want, p.MatchString(text), "%s on %+q", expr, text)
			require.Equal(t, want, matchSplit(p, text, rng), "%s on %+q, split", expr, text)
			var m Matcher
			m.Reset(p)
			for i := 0; i < len(text); i++ {
				if !m.Dead() {
					w, ok := wit.witness(m.c.state, m.c.node)
					require.True(t, ok, "%s: a live state has a way to match", expr)
					require.True(t, ref.match(text[:i]+w), "%s: witness %+q after %+q does not match", expr, w, text[:i])
				}
				if m.Done() && m.Matched() && utf8.RuneStart(text[i]) {
					for range 5 {
						c := text[:i] + randomText(rng, 4)
						require.True(t, ref.match(c), "%s: Done and matched after %+q, but %+q does not match", expr, text[:i], c)
					}
				}
				if m.Write([]byte{text[i]}) < 0 {
					continue
				}
				rejected++
				require.False(t, want, "%s rejects %+q at byte %d, which matches", expr, text, i)
				end := i + 1
				for end < len(text) && !utf8.RuneStart(text[end]) {
					end++
				}
				for range 20 {
					c := text[:end] + randomText(rng, 6)
					require.False(t, ref.match(c), "%s rejects %+q at byte %d, but %+q matches", expr, text, i, c)
				}
				break
			}
		}
	}
	require.Greater(t, matched, 100/scale, "the generator must produce matches too")
	require.Greater(t, rejected, 100/scale, "the generator must produce early rejections")
}

// TestLookAheadRefused: look-around anywhere but right after the leading
// ^ of a pattern of its own stays Unsupported, and a set refuses it.
func TestLookAheadRefused(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{
		`(?=a)b`, `a(?=b)`, `^a(?=b)`, `^(?=a)b(?!c)`, `^(?=a)|b`, `b|^(?=a)`, `^(?:(?=a)b)`,
		`(^)(?=a)`, `^(?=(?=a)a)`, `^(?!a(?!b))`, `^(?<=a)b`, `^(?<!a)b`, `^^(?=a)`, `x^(?=a)`,
		`^(?=a)(a)\1`,
	} {
		_, err := Compile(expr, ECMA262, Limits{})
		require.Error(t, err, expr)
		assert.Equal(t, Unsupported, err.(*Error).Kind, "%s: %v", expr, err)
		assert.NoError(t, Valid(expr, Limits{}), expr)
	}
	_, err := CompileSet([]string{`^a`, `^(?!a)b`}, ECMA262, Limits{})
	require.Error(t, err)
	assert.Equal(t, Unsupported, err.(*Error).Kind)
	assert.Equal(t, 1, err.(*Error).Index)
	assert.Contains(t, err.Error(), "patternProperties")
	_, err = Compile(`^(?=a`, ECMA262, Limits{})
	assert.Equal(t, Malformed, err.(*Error).Kind)
	_, err = Compile(`^(?=a)*`, ECMA262, Limits{})
	assert.Equal(t, Malformed, err.(*Error).Kind)
	_, err = Compile(`^(?=a)`, RE2, Limits{})
	assert.Equal(t, Unsupported, err.(*Error).Kind, "RE2 syntax has no look-around")
}

// TestLookAheadLimits: the look-aheads count against the limits with the
// rest, and a Budget is charged for the combined automaton.
func TestLookAheadLimits(t *testing.T) {
	t.Parallel()
	p, err := Compile(zodEmail, ECMA262, Limits{})
	require.NoError(t, err)
	_, err = Compile(zodEmail, ECMA262, Limits{MaxDFABytes: p.d.size() - 1})
	require.Error(t, err)
	assert.Equal(t, Limit, err.(*Error).Kind)

	// Each part fits MaxProgram alone, but not all together.
	_, err = Compile(`^(?=a{30})(?=b{30})c{30}`, ECMA262, Limits{MaxProgram: 80})
	require.Error(t, err)
	assert.Equal(t, Limit, err.(*Error).Kind)
	assert.Contains(t, err.Error(), "look-aheads")
	_, err = Compile(`^(?=a{30})(?=b{30})c{30}`, ECMA262, Limits{MaxProgram: 200})
	require.NoError(t, err)

	// The product of the look-ahead and the rest is what is built.
	_, err = Compile(`^(?=.*a.{12})(?!.*b.{12})`, ECMA262, Limits{MaxDFABytes: 64 << 10})
	require.Error(t, err)
	assert.Equal(t, Limit, err.(*Error).Kind)

	budget := NewBudget(1<<20, 1<<20)
	_, err = Compile(zodEmail, ECMA262, Limits{Budget: budget})
	require.NoError(t, err)
	assert.Less(t, budget.Left(), 1<<20)
}

// TestLookAheadMatchAllocs: matching a pattern with look-aheads allocates
// nothing.
func TestLookAheadMatchAllocs(t *testing.T) {
	p, err := Compile(zodEmail, ECMA262, Limits{})
	require.NoError(t, err)
	var m Matcher
	allocs := testing.AllocsPerRun(100, func() {
		m.Reset(p)
		m.WriteString("john.doe@example.com")
		_ = m.Matched()
		_ = p.MatchString("john.doe@example.com")
	})
	assert.Zero(t, allocs)
}

// TestLookAheadInvalidUTF8: a byte that no valid UTF-8 continues kills
// the matcher unless the verdict is already settled true, as for any
// pattern: a negative look-ahead that has not failed yet does not settle
// it.
func TestLookAheadInvalidUTF8(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		expr, text string
		dead       int
		matched    bool
	}{
		{`^(?!.*b)`, "a\xff", 1, false},
		{`^(?!.*b)`, "\xff", 0, false},
		{`^(?!a)b`, "b\xff", -1, true},
		{`^(?=a)`, "a\xff", -1, true},
		{`^(?=a$)`, "a\xff", 1, false},
		{zodEmail, "a@b.cd\xff", 6, false},
		{pydanticNumber, "1\xff", 1, false},
	} {
		m := matcherAfter(t, tc.expr, "")
		assert.Equal(t, tc.dead, m.WriteString(tc.text), "%s on %+q", tc.expr, tc.text)
		assert.Equal(t, tc.matched, m.Matched(), "%s on %+q", tc.expr, tc.text)
	}
}

// BenchmarkLookAhead compares matching and compiling zod's z.email() with
// and without its look-aheads: the automaton steps once per byte either
// way.
func BenchmarkLookAhead(b *testing.B) {
	text := []byte("john.doe+newsletter@mail.example-host.com")
	for _, in := range []struct{ name, expr string }{
		{"with", zodEmail},
		{"without", strings.Replace(zodEmail, `(?!\.)(?!.*\.\.)`, "", 1)},
	} {
		p, err := Compile(in.expr, ECMA262, Limits{})
		require.NoError(b, err)
		b.Run("match/"+in.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			var m Matcher
			for b.Loop() {
				m.Reset(p)
				m.Write(text)
				if !m.Matched() {
					b.Fatal("wrong verdict")
				}
			}
		})
		b.Run("compile/"+in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compile(in.expr, ECMA262, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
