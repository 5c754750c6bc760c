package pattern

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// reference is what a generated expression is checked against: Go's
// regexp, on the expression itself (RE2) or on the regexp/syntax tree the
// ECMA-262 front end translated it to.
type reference struct {
	expr string
	re   *regexp.Regexp
	tree *syntax.Regexp
	p    *Pattern
}

// generated returns n random expressions of one syntax that compile,
// with their references.
func generated(t *testing.T, seed uint64, n int, ecma bool) []reference {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	g := &exprGen{rng: rng, ecma: ecma}
	syn := RE2
	if ecma {
		syn = ECMA262
	}
	var refs []reference
	limited := 0
	defer func() { t.Logf("%d of %d generated expressions past the default limits", limited, limited+len(refs)) }()
	for len(refs) < n {
		expr := g.expr(2)
		p, err := Compile(expr, syn, Limits{})
		if err != nil && err.(*Error).Kind == Limit {
			limited++
			continue
		}
		var tree *syntax.Regexp
		var perr error
		if ecma {
			tree, _, perr = parseECMA(expr, Limits{}.withDefaults(), false)
		} else {
			tree, perr = syntax.Parse(expr, syntax.Perl)
		}
		require.NoError(t, err, expr)
		require.NoError(t, perr, expr)
		re, err := compileReference(tree)
		require.NoError(t, err, "%s → %s", expr, tree)
		refs = append(refs, reference{expr: expr, re: re, tree: tree, p: p})
	}
	return refs
}

// compileReference compiles tree with Go's regexp. Go refuses repeat
// counts above 1000, and nested repeats whose counts multiply past 1000,
// which ECMA-262 allows; such a tree is compiled with every repeat written
// out instead: x{2,4} as xx(?:x)?(?:x)?. Only whether a text matches is
// compared, so greediness need not survive.
func compileReference(tree *syntax.Regexp) (*regexp.Regexp, error) {
	re, err := regexp.Compile(tree.String())
	var serr *syntax.Error
	if errors.As(err, &serr) && serr.Code == syntax.ErrInvalidRepeatSize {
		return regexp.Compile(unrolled(tree).String())
	}
	return re, err
}

// unrolled returns a copy of re with no repeat counts: each x{m,n} becomes
// m copies of x and n-m copies of x?, and each x{m,} m copies of x and x*.
func unrolled(re *syntax.Regexp) *syntax.Regexp {
	out := *re
	out.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, sub := range re.Sub {
		out.Sub[i] = unrolled(sub)
	}
	if out.Op != syntax.OpRepeat {
		return &out
	}
	x := out.Sub[0]
	copies := &syntax.Regexp{Op: syntax.OpConcat}
	for range out.Min {
		copies.Sub = append(copies.Sub, x)
	}
	if out.Max < 0 {
		copies.Sub = append(copies.Sub, &syntax.Regexp{Op: syntax.OpStar, Sub: []*syntax.Regexp{x}})
	}
	for range out.Max - out.Min {
		copies.Sub = append(copies.Sub, &syntax.Regexp{Op: syntax.OpQuest, Sub: []*syntax.Regexp{x}})
	}
	if len(copies.Sub) == 0 {
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	return copies
}

// texts returns random texts plus samples of the expression's language.
func (r reference) texts(rng *rand.Rand, n int) []string {
	out := make([]string, 0, 2*n)
	for range n {
		out = append(out, randomText(rng, 8))
		var b strings.Builder
		sample(rng, r.tree, &b)
		out = append(out, b.String(), randomText(rng, 2)+b.String()+randomText(rng, 2))
	}
	return out
}

// TestDifferential checks that the automaton's verdict equals Go's regexp
// on generated expressions in both syntaxes and generated texts, whole, as
// bytes, and through a Matcher fed at random splits.
func TestDifferential(t *testing.T) {
	t.Parallel()
	patterns, texts := 150/scale, 30
	for _, ecma := range []bool{false, true} {
		name := "RE2"
		if ecma {
			name = "ECMA262"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(7, 8))
			matched := 0
			for _, r := range generated(t, 1, patterns, ecma) {
				for _, text := range r.texts(rng, texts) {
					want := r.re.MatchString(text)
					if want {
						matched++
					}
					require.Equal(t, want, r.p.MatchString(text), "%s (as %s) on %+q", r.expr, r.tree, text)
					require.Equal(t, want, r.p.Match([]byte(text)), "%s on %+q", r.expr, text)
					require.Equal(t, want, matchSplit(r.p, text, rng), "%s on %+q, split", r.expr, text)
				}
			}
			require.Greater(t, matched, patterns*texts/4, "the generator must produce matches too")
		})
	}
}

// matchSplit feeds text to a Matcher in random pieces, and checks that the
// dead index it reports is consistent with feeding it whole.
func matchSplit(p *Pattern, text string, rng *rand.Rand) bool {
	var m Matcher
	m.Reset(p)
	for rest := text; rest != ""; {
		n := 1 + rng.IntN(len(rest))
		m.WriteString(rest[:n])
		rest = rest[n:]
	}
	return m.Matched()
}

// TestSplitInvariance checks that every split of a text into two writes,
// and one byte per write, gives the same dead index, Matched, Dead and Done
// as one write.
func TestSplitInvariance(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, ecma := range []bool{false, true} {
		for _, r := range generated(t, 2, 40/scale, ecma) {
			for _, text := range r.texts(rng, 6) {
				var whole Matcher
				whole.Reset(r.p)
				dead := whole.WriteString(text)
				for cut := 0; cut <= len(text); cut++ {
					var m Matcher
					m.Reset(r.p)
					d1 := m.WriteString(text[:cut])
					d2 := m.WriteString(text[cut:])
					got := -1
					switch {
					case d1 >= 0:
						got = d1
					case d2 >= 0:
						got = cut + d2
					}
					require.Equal(t, dead, got, "%s on %+q cut at %d", r.expr, text, cut)
					require.Equal(t, whole.Matched(), m.Matched(), "%s on %+q cut at %d", r.expr, text, cut)
					require.Equal(t, whole.Dead(), m.Dead())
					require.Equal(t, whole.Done(), m.Done())
				}
				var m Matcher
				m.Reset(r.p)
				first := -1
				for i := 0; i < len(text); i++ {
					if d := m.Write([]byte{text[i]}); d >= 0 && first < 0 {
						require.Equal(t, 0, d)
						first = i
					}
				}
				require.Equal(t, dead, first, "%s on %+q byte by byte", r.expr, text)
				require.Equal(t, whole.Matched(), m.Matched())
			}
		}
	}
}

// TestViability checks prefix viability both ways on generated
// expressions and texts. Sound: when Write reports byte i dead, no
// completion of the text up to i matches (checked with regexp on random
// completions). Exact: while the matcher is not dead, some completion
// matches — the automaton finds one, and regexp confirms it. And at every
// character boundary, Grows says whether a character of some class (one
// of each is tried) can follow with the matcher still alive.
func TestViability(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	rejected := 0
	for _, ecma := range []bool{false, true} {
		for _, r := range generated(t, 3, 80/scale, ecma) {
			wit := newWitnesser(r.p.d)
			for _, text := range r.texts(rng, 10) {
				var m Matcher
				m.Reset(r.p)
				for i := 0; i < len(text); i++ {
					switch {
					case m.Done() && m.Matched():
						// Matched whatever follows, even inside a character:
						// complete it as the text does.
						end := i
						for end < len(text) && !utf8.RuneStart(text[end]) {
							end++
						}
						require.True(t, r.re.MatchString(text[:end]), "%s: %+q does not match", r.expr, text[:end])
					case !m.Dead():
						w, ok := wit.witness(m.c.state, m.c.node)
						require.True(t, ok, "%s: a live state has a way to match", r.expr)
						require.True(t, utf8.ValidString(text[:i]+w), "%s: witness %+q after %+q", r.expr, w, text[:i])
						require.True(t, r.re.MatchString(text[:i]+w), "%s: witness %+q after %+q does not match", r.expr, w, text[:i])
					}
					if m.c.node == 0 {
						require.Equal(t, wit.grows(m), m.Grows(), "%s: Grows after %+q", r.expr, text[:i])
						require.Equal(t, m.Grows(), m.GrowsWithin(0, utf8.MaxRune), "%s: GrowsWithin every character after %+q", r.expr, text[:i])
						for _, cr := range escapeRanges(rng, text) {
							require.Equal(t, growsByTrying(m, cr[0], cr[1]), m.GrowsWithin(cr[0], cr[1]),
								"%s: GrowsWithin(%U, %U) after %+q", r.expr, cr[0], cr[1], text[:i])
						}
					}
					if m.Write([]byte{text[i]}) < 0 {
						continue
					}
					rejected++
					require.False(t, r.re.MatchString(text), "%s rejects %+q at byte %d, which matches", r.expr, text, i)
					// Complete the character the dead byte is in, then add
					// random text: no such text may match.
					end := i + 1
					for end < len(text) && !utf8.RuneStart(text[end]) {
						end++
					}
					for range 20 {
						c := text[:end] + randomText(rng, 6)
						require.False(t, r.re.MatchString(c), "%s rejects %+q at byte %d, but %+q matches", r.expr, text, i, c)
					}
					break
				}
			}
		}
	}
	require.Greater(t, rejected, 100/scale, "the generator must produce early rejections")
}

// escapeRanges returns a few ranges of characters as the digits of a JSON
// \u escape leave them (the 16, 256 or 4,096 code points a prefix of
// the digits can still spell, or one), around a character of text or a
// random one, and one unaligned range of up to 4 characters, whose ends
// fall anywhere against the automaton's classes.
func escapeRanges(rng *rand.Rand, text string) [][2]rune {
	lo := rune(rng.IntN(0x80))
	out := [][2]rune{{lo, lo + rune(rng.IntN(4))}}
	for range 3 {
		r := rune(rng.IntN(0x10000))
		if runes := []rune(text); len(runes) > 0 && rng.IntN(2) == 0 {
			r = runes[rng.IntN(len(runes))]
		}
		width := []rune{1, 0x10, 0x100, 0x1000}[rng.IntN(4)]
		lo := r &^ (width - 1)
		if lo >= 0xD800 && lo+width-1 <= 0xDFFF {
			continue // no character: an escape's digits never leave that
		}
		out = append(out, [2]rune{lo, lo + width - 1})
	}
	return out
}

// growsByTrying reports whether some character in [lo, hi] leaves m
// alive, trying each one: what m.GrowsWithin must say.
func growsByTrying(m Matcher, lo, hi rune) bool {
	var buf [utf8.UTFMax]byte
	for r := lo; r <= hi; r++ {
		if next := m; utf8.ValidRune(r) && next.Write(buf[:utf8.EncodeRune(buf[:], r)]) < 0 {
			return true
		}
	}
	return false
}

// witnesser finds, for a state and trie node of a dfa, the shortest text
// that completes it into a match (in characters, then bytes): shortest
// paths over the table, backwards from the accepting states, with one
// character of each class, found by walking the trie.
type witnesser struct {
	d    *dfa
	rep  [][]byte          // by class: the encoding of one of its characters
	best map[uint32][]byte // by state at a character boundary
	mid  map[[2]int64]midWitness
}

type midWitness struct {
	text  string
	found bool
}

// grows reports whether one character of some class leaves m alive: what
// m.Grows must say at a character boundary.
func (w *witnesser) grows(m Matcher) bool {
	for _, rep := range w.rep {
		if next := m; rep != nil && next.Write(rep) < 0 {
			return true
		}
	}
	return false
}

func newWitnesser(d *dfa) *witnesser {
	w := &witnesser{d: d, rep: make([][]byte, d.nclass), best: map[uint32][]byte{}, mid: map[[2]int64]midWitness{}}
	seen := make([]bool, d.trie.nodes+1)
	var walk func(node int32, prefix []byte)
	walk = func(node int32, prefix []byte) {
		seen[node] = true
		for b := range 256 {
			e := d.trie.step(node, byte(b))
			switch {
			case e == badByte:
			case e >= 0:
				if w.rep[e] == nil {
					w.rep[e] = append(append([]byte(nil), prefix...), byte(b))
				}
			case !seen[-e]:
				walk(-e, append(prefix, byte(b)))
			}
		}
	}
	walk(0, nil)
	n := uint32(len(d.trans)) / d.stride
	for s := range n {
		if !d.matches(s*d.stride, 0).Empty() {
			w.best[s*d.stride] = []byte{}
		}
	}
	for changed := true; changed; {
		changed = false
		for s := range n {
			off := s * d.stride
			for c := range d.nclass {
				tail, ok := w.best[d.trans[off+c]]
				if !ok {
					continue
				}
				if old, have := w.best[off]; !have || len(tail)+len(w.rep[c]) < len(old) {
					w.best[off] = append(append([]byte(nil), w.rep[c]...), tail...)
					changed = true
				}
			}
		}
	}
	return w
}

// witness returns a completion from state s at trie node, if there is one.
func (w *witnesser) witness(s uint32, node int32) (string, bool) {
	if node == 0 {
		b, ok := w.best[s]
		return string(b), ok
	}
	key := [2]int64{int64(s), int64(node)}
	if m, ok := w.mid[key]; ok {
		return m.text, m.found
	}
	// Complete the character with one of each class the node can reach,
	// and keep the shortest.
	var best []byte
	found := false
	var walk func(node int32, prefix []byte)
	walk = func(node int32, prefix []byte) {
		for b := 0x80; b <= 0xBF; b++ {
			e := w.d.trie.step(node, byte(b))
			switch {
			case e == badByte:
			case e >= 0:
				tail, ok := w.best[w.d.trans[s+uint32(e)]]
				if ok && (!found || len(prefix)+1+len(tail) < len(best)) {
					best = append(append(append([]byte(nil), prefix...), byte(b)), tail...)
					found = true
				}
			default:
				walk(-e, append(prefix, byte(b)))
			}
		}
	}
	walk(node, nil)
	w.mid[key] = midWitness{string(best), found}
	return string(best), found
}

// TestCompileReferenceCounts checks that the reference rewrites counts Go
// refuses into the same language: each expression matches a run of "a"
// exactly when its length is in the stated range.
func TestCompileReferenceCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		expr   string
		lo, hi int // hi < 0: unbounded
	}{
		{`^a{1001}$`, 1001, 1001},
		{`^a{2500}$`, 2500, 2500},
		{`^a{0,2500}$`, 0, 2500},
		{`^a{1001,}$`, 1001, -1},
		{`^a{999,2001}$`, 999, 2001},
		{`^(?:a{2,2}){600}$`, 1200, 1200},
	} {
		tree, _, err := parseECMA(tc.expr, Limits{}.withDefaults(), false)
		require.NoError(t, err, tc.expr)
		re, err := compileReference(tree)
		require.NoError(t, err, tc.expr)
		for _, n := range []int{0, 1, tc.lo - 1, tc.lo, tc.lo + 1, tc.hi - 1, tc.hi, tc.hi + 1, 3100} {
			if n < 0 {
				continue
			}
			want := n >= tc.lo && (tc.hi < 0 || n <= tc.hi)
			require.Equal(t, want, re.MatchString(strings.Repeat("a", n)), "%s on %d a's", tc.expr, n)
		}
	}
}
