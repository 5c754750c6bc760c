package pattern

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLimitsDefaults checks that the zero Limits, and fields ≤ 0, are the
// documented defaults, and that MaxDFABytes is capped.
func TestLimitsDefaults(t *testing.T) {
	t.Parallel()
	want := Limits{MaxNesting: 1000, MaxProgram: 10_000, MaxDFABytes: 2 << 20, MaxCompileSteps: 10_000_000, MaxSetParts: 8}
	assert.Equal(t, want, Limits{}.withDefaults())
	assert.Equal(t, want, Limits{MaxNesting: -1, MaxProgram: -5, MaxDFABytes: -1, MaxCompileSteps: -1, MaxSetParts: -1}.withDefaults())
	assert.Equal(t, 7, Limits{MaxNesting: 7}.withDefaults().MaxNesting)
	assert.Equal(t, MaxDFABytesCap, Limits{MaxDFABytes: 1 << 40}.withDefaults().MaxDFABytes)
	assert.Equal(t, MaxProgramCap, Limits{MaxProgram: 1 << 40}.withDefaults().MaxProgram)
}

// limitCase is an expression that fits one Limits and not a smaller one.
type limitCase struct {
	name     string
	expr     string
	syn      Syntax
	fits     Limits
	tooSmall Limits
	says     string
}

// TestEachLimit checks every limit at its edge: the expression compiles
// within the larger value and is refused with Kind Limit, naming the
// limit, under the smaller one.
func TestEachLimit(t *testing.T) {
	t.Parallel()
	nest := strings.Repeat("(", 20) + "a" + strings.Repeat(")", 20)
	alternatives := "^(?:w0|w1|w2|w3|w4|w5|w6|w7|w8|w9|w10|w11|w12|w13|w14|w15|w16|w17|w18|w19|w20|w21|w22|w23|w24|w25|w26|w27|w28|w29)$" // no quantifier
	for _, tc := range []limitCase{
		{"nesting/ECMA", nest, ECMA262, Limits{MaxNesting: 50}, Limits{MaxNesting: 10}, "Limits.MaxNesting"},
		{"nesting/RE2", nest, RE2, Limits{MaxNesting: 50}, Limits{MaxNesting: 10}, "Limits.MaxNesting"},
		{"program/count", `a{50}`, ECMA262, Limits{MaxProgram: 60}, Limits{MaxProgram: 40}, "40 instructions (Limits.MaxProgram; a{50} is 50); use smaller repetition counts"},
		{"program/terms", strings.Repeat("ab", 30), ECMA262, Limits{MaxProgram: 70}, Limits{MaxProgram: 50}, "50 instructions (Limits.MaxProgram); use a shorter pattern"},
		{"program/alternatives", alternatives, ECMA262, Limits{MaxProgram: 200}, Limits{MaxProgram: 100}, "100 instructions (Limits.MaxProgram); use a shorter pattern"},
		{"program/long and counted", alternatives + `|x{2}`, ECMA262, Limits{MaxProgram: 200}, Limits{MaxProgram: 100}, "even with each repetition counted once; use a shorter pattern"},
		{"program/RE2", `(?:ab){20}`, RE2, Limits{MaxProgram: 50}, Limits{MaxProgram: 30}, "use smaller repetition counts"},
		{"dfa bytes", `[ab]*a[ab]{8}`, ECMA262, Limits{MaxDFABytes: 1 << 20}, Limits{MaxDFABytes: 16 << 10}, "Limits.MaxDFABytes"},
		{"steps", `[ab]*a[ab]{10}`, ECMA262, Limits{}, Limits{MaxCompileSteps: 5000}, "Limits.MaxCompileSteps"},
		{"steps/class", "[" + strings.Repeat(`\p{L}`, 40) + "]", ECMA262, Limits{}, Limits{MaxCompileSteps: 20_000}, "Limits.MaxCompileSteps"},
		{"steps/join", `\p{L}{20}`, ECMA262, Limits{}, Limits{MaxCompileSteps: 20_000}, "steps to join (Limits.MaxCompileSteps)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tc.expr, tc.syn, tc.fits)
			require.NoError(t, err)
			assert.LessOrEqual(t, p.d.size(), tc.fits.withDefaults().MaxDFABytes)
			_, err = Compile(tc.expr, tc.syn, tc.tooSmall)
			var perr *Error
			require.ErrorAs(t, err, &perr)
			assert.Equal(t, Limit, perr.Kind)
			assert.Contains(t, perr.Msg, tc.says)
		})
	}
}

// TestSizeWithinLimit checks, for generated expressions and random
// MaxDFABytes, that a compiled automaton never holds more than the limit.
func TestSizeWithinLimit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	for _, ecma := range []bool{false, true} {
		g := &exprGen{rng: rng, ecma: ecma}
		syn := map[bool]Syntax{false: RE2, true: ECMA262}[ecma]
		for range 200 / scale {
			lim := Limits{MaxDFABytes: 1024 << rng.IntN(9)}
			p, err := Compile(g.expr(2), syn, lim)
			if err != nil {
				require.Equal(t, Limit, err.(*Error).Kind, err)
				continue
			}
			assert.LessOrEqual(t, p.d.size(), lim.MaxDFABytes, p.expr)
			assert.Equal(t, len(p.expr)+p.d.size(), p.Size())
		}
	}
}

// TestHostileBounded compiles expressions built to explode — in states,
// program size, parse work — and checks that each is refused with a Limit
// error having allocated a bounded amount of memory (counted by the
// runtime, not timed).
func TestHostileBounded(t *testing.T) {
	for _, tc := range []struct{ name, expr string }{
		{"exponential states", `[ab]*a[ab]{30}`},
		{"long literal", strings.Repeat("x", 1<<20)},
		{"huge count", `(?:a|b){99999999}`},
		{"big class", "[" + strings.Repeat(`\p{L}\P{N}`, 8000) + "]"},
		{"alternatives", strings.Repeat("a|", 1<<19) + "a"},
		{"deep", strings.Repeat("(?:", 1<<16) + "a" + strings.Repeat(")", 1<<16)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := Compile(tc.expr, ECMA262, Limits{})
			runtime.ReadMemStats(&after)
			var perr *Error
			require.ErrorAs(t, err, &perr)
			assert.Equal(t, Limit, perr.Kind, perr.Msg)
			allocated := after.TotalAlloc - before.TotalAlloc
			assert.Less(t, allocated, uint64(64<<20), "allocated %d bytes", allocated)
			t.Logf("%s: %d bytes allocated: %s", tc.name, allocated, perr.Msg)
		})
	}
	// A set of many patterns that each search for a character followed by
	// any few characters: the product of their positions explodes.
	var exprs []string
	for i := range 40 {
		exprs = append(exprs, string(rune('a'+i%26))+".{0,6}"+string(rune('a'+(i*7)%26)))
	}
	_, err := CompileSet(exprs, ECMA262, Limits{})
	var perr *Error
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, Limit, perr.Kind)
	assert.Equal(t, -1, perr.Index)
}

// TestValidSkipsClassSets: Valid, which format "regex" runs on argument
// strings, does not build the sets of class escapes inside classes, so its
// work stays within a few steps per byte of the expression (each \p{L}
// of a class is some 1,300 runes to a compile), and its verdicts are
// Compile's: a malformed class is malformed for both.
func TestValidSkipsClassSets(t *testing.T) {
	t.Parallel()
	big := "[" + strings.Repeat(`\p{L}`, 200) + "]"
	_, work, err := parseECMA(big, Limits{}.withDefaults(), true)
	require.NoError(t, err)
	assert.LessOrEqual(t, work, 4*len(big), "syntax only")
	_, work, err = parseECMA(big, Limits{}.withDefaults(), false)
	require.NoError(t, err)
	assert.Greater(t, work, 100*len(big), "a compile builds the class")
	for _, expr := range []string{`[\p{L}-a]`, `[\p{Nope}]`, `[\p{L}z-a]`, `[\p{L}`, `[\p{Lu}\P{Ll}\d\w]`, `[^\p{L}\s]x`, `[\p{Script=Greek}\p{sc=Nope}]`} {
		_, cerr := Compile(expr, ECMA262, Limits{})
		verr := Valid(expr, Limits{})
		cm := cerr != nil && cerr.(*Error).Kind == Malformed
		vm := verr != nil && verr.(*Error).Kind == Malformed
		assert.Equal(t, cm, vm, "%s: Compile %v, Valid %v", expr, cerr, verr)
	}
}
