package decimal_test

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/decimal"
)

// exactNumber is JSON number text read by math/big with nothing saturated:
// the value is Neg × Digits × 10^Exp, Digits an integer.
type exactNumber struct {
	neg    bool
	digits *big.Int
	exp    *big.Int
}

func readExact(t *testing.T, text string) exactNumber {
	t.Helper()
	n := exactNumber{exp: new(big.Int)}
	mantissa, exponent, hasExp := strings.Cut(strings.ToLower(text), "e")
	if hasExp {
		_, ok := n.exp.SetString(strings.TrimPrefix(exponent, "+"), 10)
		require.True(t, ok, "exponent of %q", text)
	}
	n.neg = strings.HasPrefix(mantissa, "-")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(mantissa, "-"), ".")
	n.exp.Sub(n.exp, big.NewInt(int64(len(frac))))
	var ok bool
	n.digits, ok = new(big.Int).SetString(whole+frac, 10)
	require.True(t, ok, "digits of %q", text)
	return n
}

// exactMultiple is the oracle: whether x is an integer multiple of m
// (positive), in big.Int arithmetic with the exponents exact, however long.
func exactMultiple(x, m exactNumber) bool {
	if x.digits.Sign() == 0 {
		return true
	}
	t := new(big.Int).Sub(x.exp, m.exp) // x / m = x.digits × 10^t / m.digits
	if t.Sign() >= 0 {
		p := new(big.Int).Exp(big.NewInt(10), t, m.digits)
		p.Mul(p, x.digits)
		return p.Mod(p, m.digits).Sign() == 0
	}
	if t.CmpAbs(big.NewInt(int64(len(x.digits.String())))) > 0 {
		return false // more places below m's last digit than x has digits
	}
	q, r := new(big.Int).QuoRem(x.digits, new(big.Int).Exp(big.NewInt(10), new(big.Int).Neg(t), nil), new(big.Int))
	return r.Sign() == 0 && q.Mod(q, m.digits).Sign() == 0
}

// residueMultiple runs a Residue and an Accumulator over text in pieces, as
// the validator does.
func residueMultiple(m decimal.Decimal, pieces []string) bool {
	var res decimal.Residue
	var acc decimal.Accumulator
	res.Reset(m)
	acc.Reset(8)
	for _, p := range pieces {
		res.Write([]byte(p))
		acc.Write([]byte(p))
	}
	return res.Multiple(acc.Value())
}

// genExponentNumber returns number text whose exponent may have any number
// of digits up to 40, saturated or not, either sign.
func genExponentNumber(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteByte('-')
	}
	b.WriteString([]string{"1", "1.5", "21", "4", "15", "0.35", "1234567890123456789012300000", "7", "0", "98765432109876543210"}[r.IntN(10)])
	b.WriteByte('e')
	if r.IntN(3) == 0 {
		b.WriteByte('-')
	}
	b.WriteByte("123456789"[r.IntN(9)])
	for range r.IntN(40) {
		b.WriteByte("0123456789"[r.IntN(10)])
	}
	return b.String()
}

// TestResidueAgainstBigInt: Multiple agrees with exact big.Int arithmetic
// on numbers with moderate exponents and with exponents far past what an
// Accumulator keeps (1.5e999999999999999999 is an integer, a multiple of 1,
// 0.5 and 0.3; 1e-99999999999999999999 is a multiple of nothing coarser
// than itself), for divisors of few digits and of DefaultMaxMultipleOfDigits.
func TestResidueAgainstBigInt(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	divisors := []string{"1", "2", "0.5", "7", "0.3", "1e-300", "2.5e7", "0.0001", "12345678901234567890123",
		"98765432109876543210987654321098765432", "1.28e-2", "3e300"}
	numbers := []string{"1.5e999999999999999999", "4e9999999999999999999999", "21e99999999999999999999",
		"1e600000000000", "1e549755813888", "1e-549755813888", "1e-99999999999999999999", "0e99999999999999999999"}
	for range 300 {
		numbers = append(numbers, genExponentNumber(r), genNumber(r))
	}
	multiples := 0
	for _, mText := range divisors {
		m := mustParse(t, mText)
		mExact := readExact(t, mText)
		for _, text := range numbers {
			want := exactMultiple(readExact(t, text), mExact)
			if want {
				multiples++
			}
			require.Equal(t, want, residueMultiple(m, randomCuts(r, text)), "is %s a multiple of %s", text, mText)
		}
	}
	require.Greater(t, multiples, len(divisors)*len(numbers)/10, "the corpus has multiples and non-multiples alike")
}

// TestExpModulo: ExpModulo is the exact exponent modulo ExpModulus: the same
// for every spelling of a value, Value's Exp modulo ExpModulus where that
// did not saturate, and different for values Exp cannot tell apart.
func TestExpModulo(t *testing.T) {
	t.Parallel()
	expModulo := func(text string) (uint64, decimal.Decimal) {
		var a decimal.Accumulator
		a.Reset(4)
		a.Write([]byte(text))
		return a.ExpModulo(), a.Value()
	}
	for _, same := range [][]string{
		{"1e6", "10e5", "0.001e9", "1000000", "1E+6"},
		{"1e1099511627777", "10e1099511627776", "0.1e1099511627778"},
		{"1e-1099511627778", "0.01e-1099511627776", "100e-1099511627780"},
		{"0", "0e99999999999999999999", "-0.0"},
	} {
		first, _ := expModulo(same[0])
		for _, text := range same[1:] {
			got, _ := expModulo(text)
			require.Equal(t, first, got, "%s and %s are one value", same[0], text)
		}
	}
	for _, text := range []string{"1", "-12.5e-7", "0.000123", "9e549755813887", "7e-549755813887"} {
		got, d := expModulo(text)
		m := int64(decimal.ExpModulus())
		require.Equal(t, uint64((d.Exp%m+m)%m), got, text)
	}
	a, da := expModulo("1e999999999999999999")
	b, db := expModulo("1e9999999999999999999")
	require.Equal(t, da.Exp, db.Exp, "both saturate")
	require.NotEqual(t, a, b)

	m := new(big.Int).SetUint64(decimal.ExpModulus())
	assert.True(t, m.ProbablyPrime(32), "the modulus is a prime")
	assert.Equal(t, 60, m.BitLen(), "of 60 bits: ten times a residue plus a digit fits in a uint64")
	assert.NotEqual(t, uint64(1<<60-93), decimal.ExpModulus(), "drawn at random, not the prime a document could aim at")
}
