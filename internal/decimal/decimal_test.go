package decimal_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/decimal"
)

// mustParse parses text that the test knows to be a JSON number.
func mustParse(t testing.TB, text string) decimal.Decimal {
	t.Helper()
	d, ok := decimal.Parse([]byte(text))
	require.True(t, ok, "Parse(%q)", text)
	return d
}

// dec spells an expected Decimal: sign, digits, exponent; N is the digit
// count of an untruncated value.
func dec(neg bool, digits string, exp int64) decimal.Decimal {
	d := decimal.Decimal{Neg: neg, Exp: exp, N: int64(len(digits))}
	if digits != "" {
		d.Digits = []byte(digits)
	}
	return d
}

func TestParse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text string
		want decimal.Decimal
	}{
		{"0", decimal.Decimal{}},
		{"-0", decimal.Decimal{}},
		{"0.000", decimal.Decimal{}},
		{"-0.0e-7", decimal.Decimal{}},
		{"0e5", decimal.Decimal{}},
		{"1", dec(false, "1", 1)},
		{"-1", dec(true, "1", 1)},
		{"10", dec(false, "1", 2)},
		{"1.0", dec(false, "1", 1)},
		{"1e0", dec(false, "1", 1)},
		{"10e-1", dec(false, "1", 1)},
		{"1.50", dec(false, "15", 1)},
		{"0.001", dec(false, "1", -2)},
		{"0.0010", dec(false, "1", -2)},
		{"-12.3e-4", dec(true, "123", -2)},
		{"1E5", dec(false, "1", 6)},
		{"1e+5", dec(false, "1", 6)},
		{"1e-005", dec(false, "1", -4)},
		{"120.0340", dec(false, "120034", 3)},
		{"9007199254740993", dec(false, "9007199254740993", 16)},
		{"123456789012345678901234567890", dec(false, "12345678901234567890123456789", 30)},
		{"1e999999999", dec(false, "1", 1_000_000_000)},
		{"1e-999999999", dec(false, "1", -999_999_998)},
		{"-4.5e999999999", dec(true, "45", 1_000_000_000)},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			t.Parallel()
			got := mustParse(t, tc.text)
			assert.Equal(t, tc.want, got)
			assert.False(t, got.Truncated())
		})
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"", "-", "+1", "01", "-01", "00", "1.", ".5", "-.5", "1e", "1e+", "1E-", "1.e5",
		"1e5.0", "0x10", "1.5.2", "--1", "NaN", "Infinity", "-Infinity", " 1", "1 ", "1e5e5",
		"１", "1_000", "1,5", "e5", "1e+-5",
	} {
		t.Run(strconv.Quote(text), func(t *testing.T) {
			t.Parallel()
			_, ok := decimal.Parse([]byte(text))
			assert.False(t, ok)
		})
	}
}

// orderedClasses lists numbers in increasing order; the spellings inside one
// class are the same value.
var orderedClasses = [][]string{
	{"-1e999999999", "-10e999999998", "-0.1e1000000000"},
	{"-9007199254740993"},
	{"-9007199254740992", "-9.007199254740992e15"},
	{"-1.5", "-15e-1", "-1.50"},
	{"-1", "-1.0", "-1e0", "-10e-1", "-0.1e1"},
	{"-0.1", "-1e-1"},
	{"-0.09999999999999999999"},
	{"-1e-999999999", "-0.1e-999999998"},
	{"0", "-0", "0.0", "0e5", "-0e-5", "0.000e999999999", "0E+0"},
	{"1e-999999999", "10e-1000000000", "0.01e-999999997"},
	{"1e-999999998"},
	{"0.09999999999999999999"},
	{"0.1", "1e-1", "1E-1", "0.10", "10e-2", "0.01e1"},
	{"0.1000000000000000000000000000001"},
	{"1", "1.0", "1e0", "10e-1", "100e-2", "0.1e1", "1.000000000000000000000e0", "0.00001e5"},
	{"1.5", "15e-1", "0.15E1", "1.50000"},
	{"2"},
	{"9007199254740992", "9.007199254740992e15", "9007199254740992.0"},
	{"9007199254740993"},
	{"1e21", "1000000000000000000000", "10e20"},
	{"1e100", "1E+100"},
	{"1e999999998"},
	{"9e999999998"},
	{"1e999999999", "10e999999998", "0.1e1000000000"},
}

// TestCmpAndEqual compares every pair of spellings of orderedClasses: equal
// within a class, ordered across classes, and antisymmetric.
func TestCmpAndEqual(t *testing.T) {
	t.Parallel()
	type spelled struct {
		class int
		text  string
		d     decimal.Decimal
	}
	var all []spelled
	for class, texts := range orderedClasses {
		for _, text := range texts {
			all = append(all, spelled{class, text, mustParse(t, text)})
		}
	}
	for _, a := range all {
		for _, b := range all {
			want := 0
			switch {
			case a.class < b.class:
				want = -1
			case a.class > b.class:
				want = 1
			}
			assert.Equal(t, want, a.d.Cmp(b.d), "Cmp(%s, %s)", a.text, b.text)
			assert.Equal(t, want == 0, a.d.Equal(b.d), "Equal(%s, %s)", a.text, b.text)
		}
	}
}

func TestCmpNamed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		a, b string
		want int
	}{
		{"1 = 1.0", "1", "1.0", 0},
		{"1 = 1e0", "1", "1e0", 0},
		{"1 = 10e-1", "1", "10e-1", 0},
		{"0 = -0", "0", "-0", 0},
		{"0 = 0.0", "0", "0.0", 0},
		{"0 = 0e5", "0", "0e5", 0},
		{"0.09999999999999999999 < 0.1", "0.09999999999999999999", "0.1", -1},
		{"2^53 < 2^53+1", "9007199254740992", "9007199254740993", -1},
		{"huge > smaller huge", "1e999999999", "9e999999998", 1},
		{"huge > every ordinary number", "1e999999999", "123456789012345678901234567890", 1},
		{"tiny > 0", "1e-999999999", "0", 1},
		{"-tiny < 0", "-1e-999999999", "-0", -1},
		{"tiny < less tiny", "1e-999999999", "1e-999999998", -1},
		{"negative order reversed", "-2", "-1", -1},
		{"longer digits larger", "1.00000000000000000001", "1", 1},
		{"same exponent, digit decides", "0.12", "0.13", -1},
		{"prefix digits", "0.123", "0.12", 1},
		{"sign decides", "-1e999999999", "1e-999999999", -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b := mustParse(t, tc.a), mustParse(t, tc.b)
			assert.Equal(t, tc.want, a.Cmp(b))
			assert.Equal(t, -tc.want, b.Cmp(a))
			assert.Equal(t, tc.want == 0, a.Equal(b))
		})
	}
}

func TestIsInteger(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text string
		want bool
	}{
		{"0", true}, {"-0", true}, {"0.0", true}, {"0e-5", true},
		{"1", true}, {"1.0", true}, {"1e2", true}, {"1E+2", true}, {"0.5e1", true}, {"120e-1", true},
		{"-7", true}, {"1e999999999", true}, {"123456789012345678901234567890", true},
		{"1.5", false}, {"0.5", false}, {"1e-1", false}, {"12.30", false}, {"123e-1", false},
		{"-0.001", false}, {"1e-999999999", false}, {"1.0000000000000000000001", false},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, mustParse(t, tc.text).IsInteger())
		})
	}
}

func TestAppendCanonical(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text, want string
	}{
		{"0", "0"},
		{"-0", "0"},
		{"0.000e9", "0"},
		{"1", "1"},
		{"1.0", "1"},
		{"-1", "-1"},
		{"100", "100"},
		{"1e2", "100"},
		{"10e1", "100"},
		{"1.5", "1.5e0"},
		{"-2.50", "-2.5e0"},
		{"0.15", "1.5e-1"},
		{"0.001", "1e-3"},
		{"1e20", "100000000000000000000"},
		{"123456789012345678901", "123456789012345678901"},
		{"1e21", "1e21"},
		{"1234567890123456789012", "1.234567890123456789012e21"},
		{"12345678901234567890.5", "1.23456789012345678905e19"},
		{"1e999999999", "1e999999999"},
		{"-1e-999999999", "-1e-999999999"},
		{"9007199254740993", "9007199254740993"},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			t.Parallel()
			d := mustParse(t, tc.text)
			assert.Equal(t, tc.want, string(d.AppendCanonical(nil)))
			assert.Equal(t, "prefix:"+tc.want, string(d.AppendCanonical([]byte("prefix:"))))
			assert.Equal(t, tc.want, d.String())
			back := mustParse(t, tc.want)
			assert.True(t, back.Equal(d), "canonical %s reads back as another value", tc.want)
		})
	}
}

// jsonNumber is the JSON number grammar; it splits off the exponent digits.
var jsonNumber = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?([0-9]+))?$`)

// moderate reports whether text is a JSON number whose exponent is small
// enough for big.Rat to hold its value cheaply.
func moderate(text string) bool {
	m := jsonNumber.FindStringSubmatch(text)
	if m == nil || len(text) > 400 {
		return false
	}
	if m[1] == "" {
		return true
	}
	e, err := strconv.Atoi(m[1])
	return err == nil && e <= 400
}

// rat is the big.Rat oracle's value of a JSON number text.
func rat(t testing.TB, text string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(text)
	require.True(t, ok, "big.Rat.SetString(%q)", text)
	return r
}

// genNumber returns random JSON number text with a moderate exponent. Its
// digits come from a small alphabet and its exponent from a small range, so
// that distinct spellings of one value are common.
func genNumber(r *rand.Rand) string {
	var b strings.Builder
	digits := func(n int) {
		for range n {
			b.WriteByte("0019"[r.IntN(4)])
		}
	}
	if r.IntN(3) == 0 {
		b.WriteByte('-')
	}
	if r.IntN(3) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteByte("19"[r.IntN(2)])
		digits(r.IntN(6))
	}
	if r.IntN(2) == 0 {
		b.WriteByte('.')
		digits(1 + r.IntN(6))
	}
	if r.IntN(2) == 0 {
		b.WriteByte("eE"[r.IntN(2)])
		if r.IntN(2) == 0 {
			b.WriteByte("+-"[r.IntN(2)])
		}
		if r.IntN(4) == 0 {
			b.WriteByte('0')
		}
		b.WriteString(strconv.Itoa(r.IntN(12)))
	}
	return b.String()
}

// TestAgainstBigRat cross-checks every pair of a random corpus against
// math/big: Cmp, Equal, IsInteger, the sign, and that canonical text is one
// spelling per value and reads back as the same value.
func TestAgainstBigRat(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	texts := []string{"0", "-0", "1", "0.1", "9007199254740993", "1e21", "1e20", "0.09999999999999999999"}
	for range 400 {
		texts = append(texts, genNumber(r))
	}
	type parsed struct {
		text  string
		d     decimal.Decimal
		r     *big.Rat
		canon string
	}
	all := make([]parsed, 0, len(texts))
	for _, text := range texts {
		d := mustParse(t, text)
		p := parsed{text, d, rat(t, text), d.String()}
		all = append(all, p)
		assert.Equal(t, p.r.IsInt(), d.IsInteger(), "IsInteger(%s)", text)
		assert.Equal(t, p.r.Sign() == 0, d.IsZero(), "IsZero(%s)", text)
		assert.Equal(t, p.r.Sign() < 0, d.Neg, "Neg(%s)", text)
		assert.Zero(t, rat(t, p.canon).Cmp(p.r), "canonical %s of %s is another value", p.canon, text)
		back := mustParse(t, p.canon)
		assert.True(t, back.Equal(d), "canonical %s of %s reads back as another value", p.canon, text)
		assert.Equal(t, p.canon, back.String(), "canonical text is a fixed point")
	}
	for _, a := range all {
		for _, b := range all {
			want := a.r.Cmp(b.r)
			require.Equal(t, want, a.d.Cmp(b.d), "Cmp(%s, %s)", a.text, b.text)
			require.Equal(t, want == 0, a.d.Equal(b.d), "Equal(%s, %s)", a.text, b.text)
			require.Equal(t, want == 0, a.canon == b.canon, "canonical %s vs %s for %s and %s", a.canon, b.canon, a.text, b.text)
		}
	}
}

// randomCuts splits text at random points, with empty pieces sometimes.
func randomCuts(r *rand.Rand, text string) []string {
	var pieces []string
	start := 0
	for i := 0; i <= len(text); i++ {
		for r.IntN(3) == 0 {
			pieces = append(pieces, text[start:i])
			start = i
		}
	}
	return append(pieces, text[start:])
}

// TestAccumulatorSplits: an Accumulator with room for every digit, fed in
// any split (every two-way split and random multi-splits), equals Parse.
func TestAccumulatorSplits(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	texts := []string{"0", "-0", "1", "-12.3e-4", "1e999999999", "1e-999999999", "0.0010", "120.0340", "9007199254740993"}
	for range 300 {
		texts = append(texts, genNumber(r))
	}
	var a decimal.Accumulator
	for _, text := range texts {
		want := mustParse(t, text)
		check := func(pieces []string) {
			t.Helper()
			a.Reset(len(text))
			for _, p := range pieces {
				a.Write([]byte(p))
			}
			got := a.Value()
			if len(got.Digits) == 0 {
				got.Digits = nil
			}
			require.Equal(t, want, got, "text %q in pieces %q", text, pieces)
			assert.False(t, got.Truncated(), "text %q", text)
		}
		for i := 0; i <= len(text); i++ {
			check([]string{text[:i], text[i:]})
		}
		for range 5 {
			check(randomCuts(r, text))
		}
	}
}

// TestAccumulatorLimit: an Accumulator that keeps only limit digits still
// compares exactly against every bound of at most limit digits, keeps the
// sign, integrality and zero-ness exact, and reports truncation, in which
// case the value equals nothing.
func TestAccumulatorLimit(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	var texts, bounds []string
	for range 300 {
		texts = append(texts, genNumber(r))
	}
	texts = append(texts, "1020", "1203", "1200", "1.0002", "100000000001", "0.000001000001", "-99999", "1e999999999", "1.5e-999999999")
	for range 200 {
		bounds = append(bounds, genNumber(r))
	}
	bounds = append(bounds, "0", "1", "10", "11", "12", "1000", "1e3", "-1", "1e999999999", "1e-999999999")
	for limit := 1; limit <= 6; limit++ {
		t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
			t.Parallel()
			var a decimal.Accumulator
			for _, text := range texts {
				exact := mustParse(t, text)
				a.Reset(limit)
				for _, p := range randomCuts(rand.New(rand.NewPCG(uint64(limit), uint64(len(text)))), text) {
					a.Write([]byte(p))
				}
				got := a.Value()
				require.LessOrEqual(t, len(got.Digits), limit)
				truncated := len(exact.Digits) > limit
				assert.Equal(t, truncated, got.Truncated(), "Truncated(%s)", text)
				assert.Equal(t, exact.IsZero(), got.IsZero(), "IsZero(%s)", text)
				assert.Equal(t, exact.Neg, got.Neg, "Neg(%s)", text)
				assert.Equal(t, exact.IsInteger(), got.IsInteger(), "IsInteger(%s)", text)
				assert.Equal(t, exact.InRange(), got.InRange(), "InRange(%s)", text)
				if truncated {
					assert.False(t, got.Equal(got), "a truncated value equals nothing (%s)", text)
					assert.True(t, strings.HasSuffix(got.String(), "…"), "truncated text %q", got.String())
				}
				for _, bt := range bounds {
					bound := mustParse(t, bt)
					if len(bound.Digits) > limit {
						continue
					}
					want := exact.Cmp(bound)
					if !assert.Equal(t, want, got.Cmp(bound), "Cmp(%s kept to %d digits, %s)", text, limit, bt) ||
						!assert.Equal(t, -want, bound.Cmp(got), "Cmp(%s, %s kept to %d digits)", bt, text, limit) {
						return
					}
					if !truncated {
						assert.Equal(t, want == 0, got.Equal(bound), "Equal(%s, %s)", text, bt)
					}
				}
			}
		})
	}
}

// TestAccumulatorTruncates: with a limit of two digits, only later
// non-zero digits truncate the value; trailing zeros do not.
func TestAccumulatorTruncates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text      string
		digits    string
		truncated bool
	}{
		{"12", "12", false},
		{"120", "12", false},
		{"123", "12", true},
		{"0.00012", "12", false},
		{"1.2e99", "12", false},
		{"-1200e-3", "12", false},
		{"1020", "10", true},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			t.Parallel()
			var a decimal.Accumulator
			a.Reset(2)
			a.Write([]byte(tc.text))
			v := a.Value()
			assert.Equal(t, tc.digits, string(v.Digits))
			assert.Equal(t, tc.truncated, v.Truncated())
		})
	}
}

// TestSaturatedExponents: exponents beyond what the package tracks saturate;
// such values are out of range, compare beyond every in-range value, and
// cost no more than small ones. Not parallel (AllocsPerRun).
func TestSaturatedExponents(t *testing.T) {
	huge := mustParse(t, "1e99999999999999999999999999")
	tiny := mustParse(t, "1e-99999999999999999999999999")
	assert.False(t, huge.InRange())
	assert.False(t, tiny.InRange())
	assert.True(t, mustParse(t, "1e999999999").InRange())
	assert.True(t, mustParse(t, "1e-999999999").InRange())
	for _, text := range []string{"0", "1", "-1", "1e999999999", "9.99e999999999", "1e-999999999", "123456789012345678901234567890"} {
		d := mustParse(t, text)
		assert.Equal(t, 1, huge.Cmp(d), "huge vs %s", text)
		assert.Equal(t, -1, d.Cmp(huge), "%s vs huge", text)
		if d.Cmp(decimal.Decimal{}) > 0 {
			assert.Equal(t, -1, tiny.Cmp(d), "tiny vs %s", text)
		}
	}
	assert.Equal(t, 1, tiny.Cmp(decimal.Decimal{}))
	assert.True(t, huge.IsInteger())
	assert.False(t, tiny.IsInteger())

	var a decimal.Accumulator
	a.Reset(4)
	text := []byte("1e99999999999999999999999999999999999999999999999999999999999999999999999999")
	allocs := testing.AllocsPerRun(10, func() {
		a.Reset(4)
		a.Write(text)
		_ = a.Value()
	})
	assert.Zero(t, allocs)
}

// TestAccumulatorNoAllocations: after Reset has sized the buffer, writing
// and reading a value allocate nothing. Not parallel (AllocsPerRun).
func TestAccumulatorNoAllocations(t *testing.T) {
	var a decimal.Accumulator
	a.Reset(32)
	text := []byte("-12345678901234567890.0987654321e-12345")
	allocs := testing.AllocsPerRun(100, func() {
		a.Reset(32)
		a.Write(text[:7])
		a.Write(text[7:])
		_ = a.Value()
	})
	assert.Zero(t, allocs)
}

// canEqualAfter writes prefix (at least one byte) to a fresh Accumulator
// and asks CanEqual(d).
func canEqualAfter(prefix string, d decimal.Decimal) bool {
	var a decimal.Accumulator
	a.Reset(64)
	a.Write([]byte(prefix))
	return a.CanEqual(d)
}

// witness searches the continuations of prefix up to maxLen bytes over
// alphabet for one that makes a JSON number equal to d.
func witness(prefix string, d decimal.Decimal, alphabet string, maxLen int) (string, bool) {
	buf := []byte(prefix)
	var search func(n int) (string, bool)
	search = func(n int) (string, bool) {
		if v, ok := decimal.Parse(buf); ok && v.Equal(d) {
			return string(buf[len(prefix):]), true
		}
		if n == 0 {
			return "", false
		}
		for i := range len(alphabet) {
			buf = append(buf, alphabet[i])
			w, ok := search(n - 1)
			buf = buf[:len(buf)-1]
			if ok {
				return w, true
			}
		}
		return "", false
	}
	return search(maxLen)
}

// TestCanEqualNamed pins CanEqual on prefixes whose answer is known: true
// exactly when some continuation of the prefix spells d.
func TestCanEqualNamed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		prefix, d string
		want      bool
	}{
		{"-", "0", true},
		{"-", "1", false},
		{"-", "-1", true},
		{"0", "5", true},      // 0.5e1
		{"0.0", "5", true},    // 0.05e2
		{"0e", "5", false},    // 0eX is zero
		{"0e", "0", true},     // 0e1
		{"-0.", "0.5", false}, // negative
		{"12", "13", false},
		{"12", "12", true},
		{"12", "1.2", true},  // 12e-1
		{"10", "1", true},    // 10e-1
		{"1200", "12", true}, // 1200e-2
		{"1.5", "15", true},  // 1.5e1
		{"1.5", "0.15", true},
		{"1.5e", "15", true},
		{"1.5e-", "15", false},
		{"1.5e+", "15", true},
		{"1.5e+1", "15", true},
		{"1.5e+2", "15", false},
		{"15e-", "1.5", true},
		{"1e", "1", true},
		{"1e-", "1", true}, // 1e-0
		{"1e05", "1", false},
		{"1e0", "1e10", true}, // 1e010
		{"1e1", "1e10", true},
		{"1e2", "1e10", false},
		{"1e2", "10", false},
		{"1e-0", "10", false},
		// Once the exponent starts, the significant digits are final.
		{"1e", "12", false},
		{"1e1", "12", false},
		{"1.2e", "123", false},
		{"12e", "1.2", true},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%q can equal %s", tc.prefix, tc.d), func(t *testing.T) {
			t.Parallel()
			d := mustParse(t, tc.d)
			assert.Equal(t, tc.want, canEqualAfter(tc.prefix, d))
			if tc.prefix != "" {
				w, found := witness(tc.prefix, d, "0123456789.eE+-", 3)
				if found {
					assert.True(t, tc.want, "the test table is wrong: %q%q equals %s", tc.prefix, w, tc.d)
				}
			}
		})
	}
}

// reachable returns the values (canonical text -> the continuation that
// spells it) of the numbers that continue prefix with up to two more
// mantissa digits from 0-2, an optional fraction of up to two such digits,
// and an exponent of 0-12 in every spelling (new, or continuing the
// prefix's). For targets with at most two significant digits from 0-2 and
// small exponents, that finds a continuation whenever one exists.
func reachable(prefix string) map[string]string {
	var digits []string
	for _, a := range []string{"", "0", "1", "2"} {
		for _, b := range []string{"", "0", "1", "2"} {
			if a != "" || b == "" {
				digits = append(digits, a+b)
			}
		}
	}
	var exps []string
	for k := range 13 {
		n := strconv.Itoa(k)
		exps = append(exps, n, "+"+n, "-"+n, "e"+n, "e+"+n, "e-"+n)
	}
	exps = append(exps, "")
	out := map[string]string{}
	for _, a := range digits {
		for _, f := range digits {
			frac := ""
			if f != "" {
				frac = "." + f
			}
			for _, e := range exps {
				w := a + frac + e
				if d, ok := decimal.Parse([]byte(prefix + w)); ok {
					if _, dup := out[d.String()]; !dup {
						out[d.String()] = w
					}
				}
			}
		}
	}
	return out
}

// TestCanEqualAgainstSearch checks CanEqual on every prefix of a corpus of
// short numbers against a search of continuations: it must be true when some
// continuation equals d (or an early enum rejection would refuse a valid
// value) and false when none does (or rejection comes later than DESIGN.md
// §6 asks).
func TestCanEqualAgainstSearch(t *testing.T) {
	t.Parallel()
	targets := []string{"0", "1", "10", "0.1", "12", "1.2", "120", "-1", "-0.12", "100", "0.01", "2", "21", "-20"}
	seen := map[string]bool{}
	var failures []string
	pairs := 0
	for _, text := range searchCorpus(t) {
		for i := 1; i <= len(text); i++ {
			prefix := text[:i]
			if seen[prefix] {
				continue
			}
			seen[prefix] = true
			values := reachable(prefix)
			for _, ts := range targets {
				d := mustParse(t, ts)
				w, found := values[d.String()]
				pairs++
				if got := canEqualAfter(prefix, d); got != found {
					if found {
						failures = append(failures, fmt.Sprintf("after %q: CanEqual(%s) = false, but %q%q equals it", prefix, ts, prefix, w))
					} else {
						failures = append(failures, fmt.Sprintf("after %q: CanEqual(%s) = true, but no continuation equals it", prefix, ts))
					}
				}
			}
		}
	}
	assert.Empty(t, failures, "%d of %d prefix/target pairs", len(failures), pairs)
}

// TestCanBeIntegerAgainstSearch checks CanBeInteger on every prefix of the
// search corpus against the continuations reachable finds: true exactly
// when one of them is an integer (false too early would reject a valid
// integer; true too long, later than DESIGN.md §8 asks).
func TestCanBeIntegerAgainstSearch(t *testing.T) {
	t.Parallel()
	var failures []string
	for _, text := range searchCorpus(t) {
		for i := 1; i <= len(text); i++ {
			prefix := text[:i]
			var a decimal.Accumulator
			a.Reset(64)
			a.Write([]byte(prefix))
			witness, found := "", false
			for canon, w := range reachable(prefix) {
				if mustParse(t, canon).IsInteger() {
					witness, found = w, true
					break
				}
			}
			if got := a.CanBeInteger(); got != found {
				failures = append(failures, fmt.Sprintf("after %q: CanBeInteger() = %v (an integer continuation: %q)", prefix, got, witness))
			}
		}
	}
	assert.Empty(t, failures)
	for prefix, want := range map[string]bool{"1.5e-": false, "1.5e": true, "1.5e+": true, "775.00E-0": true, "775.00E-01": false, "0.5e-99": false, "0.00e-99": true, "100e-2": true, "100e-3": false} {
		var a decimal.Accumulator
		a.Reset(64)
		a.Write([]byte(prefix))
		assert.Equal(t, want, a.CanBeInteger(), prefix)
	}
}

// searchCorpus returns short numbers, written out and drawn, whose every
// prefix the search tests try.
func searchCorpus(t *testing.T) []string {
	texts := []string{"0", "-0", "1", "12", "1.2", "0.12", "-0.1", "10", "1e1", "1.2e1", "12e-1", "120e-2", "0.0", "1.0e+0", "2.1", "-2e1", "0e1", "102", "1e-1", "0.01", "100.10e-1"}
	r := rand.New(rand.NewPCG(8, 8))
	for range 20 {
		var b strings.Builder
		if r.IntN(3) == 0 {
			b.WriteByte('-')
		}
		if r.IntN(3) == 0 {
			b.WriteByte('0')
		} else {
			b.WriteByte("12"[r.IntN(2)])
			for range r.IntN(3) {
				b.WriteByte("012"[r.IntN(3)])
			}
		}
		if r.IntN(2) == 0 {
			b.WriteByte('.')
			for range 1 + r.IntN(2) {
				b.WriteByte("012"[r.IntN(3)])
			}
		}
		if r.IntN(2) == 0 {
			b.WriteString([]string{"e", "E+", "e-"}[r.IntN(3)])
			b.WriteByte("012"[r.IntN(3)])
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		mustParse(t, text)
	}
	return texts
}

// TestCanEqualEverySpelling: for every spelling b of a value in
// orderedClasses and every other spelling a of the same value, CanEqual(a)
// holds after every non-empty prefix of b, and after every non-empty prefix
// of a random number and of its canonical text for its value.
func TestCanEqualEverySpelling(t *testing.T) {
	t.Parallel()
	for _, class := range orderedClasses {
		for _, a := range class {
			d := mustParse(t, a)
			for _, b := range class {
				for i := 1; i <= len(b); i++ {
					assert.True(t, canEqualAfter(b[:i], d), "after %q of %s, for %s", b[:i], b, a)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(9, 9))
	for range 500 {
		text := genNumber(r)
		d := mustParse(t, text)
		canon := d.String()
		for i := 1; i <= len(text); i++ {
			require.True(t, canEqualAfter(text[:i], d), "after %q of %s", text[:i], text)
		}
		for i := 1; i <= len(canon); i++ {
			require.True(t, canEqualAfter(canon[:i], d), "after %q of %s, for %s", canon[:i], canon, text)
		}
	}
}

// TestExpRangesAgainstCanEqual checks ExpRanges on every prefix of the
// search corpus and of exponent-heavy numbers: a Decimal with the
// prefix's sign and significant digits lies in a yielded range exactly
// when CanEqual holds for it, for every Exp within 1,300 of the prefix's
// own. An enum's early rejection in an exponent relies on it.
func TestExpRangesAgainstCanEqual(t *testing.T) {
	t.Parallel()
	texts := append(searchCorpus(t), "1e7", "1e70", "1.5e-07", "25e-003", "4e+12", "-3.25E-1", "7e00", "120e-2", "9e1234")
	var failures []string
	checked := 0
	for _, text := range texts {
		for i := 1; i <= len(text); i++ {
			var a decimal.Accumulator
			a.Reset(64)
			a.Write([]byte(text[:i]))
			v := a.Value()
			if v.IsZero() {
				continue // ExpRanges speaks of non-zero values
			}
			var ranges [][2]int64
			a.ExpRanges(func(lo, hi int64) bool {
				ranges = append(ranges, [2]int64{lo, hi})
				return true
			})
			for x := v.Exp - 1300; x <= v.Exp+1300; x++ {
				d := decimal.Decimal{Neg: v.Neg, Digits: v.Digits, Exp: x, N: v.N}
				in := slices.ContainsFunc(ranges, func(r [2]int64) bool { return r[0] <= x && x <= r[1] })
				checked++
				if want := a.CanEqual(d); in != want {
					failures = append(failures, fmt.Sprintf("after %q: Exp %d in %v is %v, CanEqual %v", text[:i], x, ranges, in, want))
				}
			}
		}
	}
	require.Greater(t, checked, 10000)
	assert.Empty(t, failures)
	var a decimal.Accumulator
	a.Reset(64)
	a.Write([]byte("1e7"))
	n := 0
	a.ExpRanges(func(lo, hi int64) bool { n++; return n < 3 })
	assert.Equal(t, 3, n, "yield's false stops it")
}

// TestReachDecidesReachable: outside ReachByExponent, Reach alone decides
// Reachable's answer (a validator checks bounds again only when Reach
// changes), and the exponent's digits are ReachByExponent. Every prefix of
// many numbers is checked: the answers of each case must all be one.
func TestReachDecidesReachable(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	texts := []string{"0", "-0", "0.000", "-0.0e1", "0e-3", "12.5", "-3e5", "1E+2", "7.25e-10", "100", "-0.5"}
	for range 300 {
		texts = append(texts, genNumber(r))
	}
	answers := map[decimal.Reach]string{}
	var a decimal.Accumulator
	for _, text := range texts {
		a.Reset(len(text))
		for i := range len(text) {
			a.Write([]byte{text[i]})
			reach := a.Reach()
			if exp := strings.IndexAny(text, "eE"); exp >= 0 && i > exp && strings.ContainsAny(text[exp+1:i+1], "0123456789+-") &&
				strings.Trim(text[:exp], "-0.") != "" {
				assert.Equal(t, decimal.ReachByExponent, reach, "%q after %q", text, text[:i+1])
			}
			if reach == decimal.ReachByExponent {
				continue
			}
			lo, hi := a.Reachable()
			got := fmt.Sprintf("%+v %+v", lo, hi)
			if want, ok := answers[reach]; ok {
				require.Equal(t, want, got, "case %d after %q", reach, text[:i+1])
			}
			answers[reach] = got
		}
	}
	assert.Len(t, answers, 5, "every case outside the exponent is met: %v", answers)
}

// TestAppendBrief: up to digits significant digits a number is written as
// JavaScript writes it (the wants of fixed notation are
// String(Number(text)) in Node); past them, its first digits, "…" and its
// exponent.
func TestAppendBrief(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text   string
		digits int
		want   string
	}{
		{"1.5", 3, "1.5"},
		{"0.1", 3, "0.1"},
		{"-12.25", 4, "-12.25"},
		{"100.5e-2", 4, "1.005"},
		{"0.000001", 3, "0.000001"},
		{"-0.0000123", 3, "-0.0000123"},
		{"0.0000001", 3, "1e-7"},
		{"123456789012345678901.5", 30, "123456789012345678901.5"},
		{"1234567890123456789012.5", 30, "1.2345678901234567890125e21"},
		{"1e20", 3, "100000000000000000000"},
		{"1e21", 3, "1e21"},
		{"1e22", 3, "1e22"},
		{"-0", 3, "0"},
		{"1.5e300", 3, "1.5e300"},
		{"123", 3, "123"},
		{"1234", 3, "1.23…e3"},
		{"-0.0012345", 2, "-1.2…e-3"},
		{"1234", 1, "1…e3"},
		{"1234", 0, "1234"},
		{"7" + strings.Repeat("7", 99_999), 4, "7.777…e99999"},
		{"0." + strings.Repeat("3", 50), 40, "3." + strings.Repeat("3", 39) + "…e-1"},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, string(mustParse(t, tc.text).AppendBrief(nil, tc.digits)))
		})
	}
}
