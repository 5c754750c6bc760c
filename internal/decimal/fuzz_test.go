package decimal_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/decimal"
)

// FuzzDecimal checks Parse, Cmp, Equal, IsInteger, AppendCanonical and the
// Accumulator on arbitrary texts: Parse accepts exactly the JSON number
// grammar; with moderate exponents every answer agrees with math/big;
// canonical text reads back as the same value and is one spelling per value;
// an Accumulator fed in two pieces equals Parse; one that keeps only a few
// digits still compares exactly against bounds of that many digits; and
// CanEqual holds after every prefix of any spelling of a value.
func FuzzDecimal(f *testing.F) {
	for i, class := range orderedClasses {
		for j, text := range class {
			other := orderedClasses[(i+j+1)%len(orderedClasses)][0]
			f.Add(text, other, uint8(i), uint16(j))
		}
	}
	for _, pair := range [][2]string{
		{"0.09999999999999999999", "0.1"}, {"9007199254740992", "9007199254740993"},
		{"1e99999999999999999999", "1e99999999999999999998"}, {"-0", "0e-7"}, {"1.", "01"},
		{"1020", "1010"}, {"1203", "12"}, {"12.5e-3", "125E-4"}, {"", "-"},
	} {
		f.Add(pair[0], pair[1], uint8(2), uint16(2))
	}

	f.Fuzz(func(t *testing.T, as, bs string, limit uint8, cut uint16) {
		a, aok := decimal.Parse([]byte(as))
		b, bok := decimal.Parse([]byte(bs))
		if aok != jsonNumber.MatchString(as) || bok != jsonNumber.MatchString(bs) {
			t.Fatalf("Parse(%q) = %v, Parse(%q) = %v disagree with the JSON number grammar", as, aok, bs, bok)
		}
		if !aok || !bok {
			return
		}

		// Exponents beyond the saturation bound keep only the order's shape:
		// such values compare by sign and saturated magnitude, equal nothing,
		// and have no canonical spelling (schemas may not hold them).
		if !a.InRange() || !b.InRange() {
			if b.Cmp(a) != -a.Cmp(b) || a.Equal(b) {
				t.Fatalf("%s vs %s out of range: Cmp %d, reverse %d, Equal %v", as, bs, a.Cmp(b), b.Cmp(a), a.Equal(b))
			}
			return
		}

		// Order is antisymmetric and Equal follows Cmp for exact values.
		c := a.Cmp(b)
		if b.Cmp(a) != -c || a.Cmp(a) != 0 || a.Equal(b) != (c == 0) {
			t.Fatalf("%s vs %s: Cmp %d, reverse %d, Equal %v", as, bs, c, b.Cmp(a), a.Equal(b))
		}

		// Canonical text: JSON, same value, fixed point, one per value.
		ac, bc := a.String(), b.String()
		back, ok := decimal.Parse([]byte(ac))
		if !ok || !back.Equal(a) || back.String() != ac || back.IsInteger() != a.IsInteger() {
			t.Fatalf("canonical %q of %q does not read back as the same value", ac, as)
		}
		if (ac == bc) != (c == 0) {
			t.Fatalf("canonical %q and %q, but Cmp(%s, %s) = %d", ac, bc, as, bs, c)
		}

		// Against math/big while the exponents stay moderate.
		if moderate(as) && moderate(bs) {
			ar, br := rat(t, as), rat(t, bs)
			if want := ar.Cmp(br); c != want {
				t.Fatalf("Cmp(%s, %s) = %d, big.Rat says %d", as, bs, c, want)
			}
			if a.IsInteger() != ar.IsInt() || a.Neg != (ar.Sign() < 0) || a.IsZero() != (ar.Sign() == 0) {
				t.Fatalf("%s: IsInteger %v Neg %v IsZero %v; big.Rat %s", as, a.IsInteger(), a.Neg, a.IsZero(), ar.RatString())
			}
			if rat(t, ac).Cmp(ar) != 0 {
				t.Fatalf("canonical %q of %q is another value", ac, as)
			}
		}

		// The Accumulator, whole digits, in two pieces.
		var acc decimal.Accumulator
		i := int(cut) % (len(as) + 1)
		acc.Reset(len(as))
		acc.Write([]byte(as[:i]))
		acc.Write([]byte(as[i:]))
		if got := acc.Value(); !got.Equal(a) || got.Cmp(b) != c || got.String() != ac {
			t.Fatalf("Accumulator over %q | %q gives %s, Parse gives %s", as[:i], as[i:], got, ac)
		}

		// The Accumulator keeping few digits compares exactly against a
		// bound of at most that many digits.
		n := int(limit%8) + 1
		acc.Reset(n)
		acc.Write([]byte(as[:i]))
		acc.Write([]byte(as[i:]))
		got := acc.Value()
		if got.Truncated() != (len(a.Digits) > n) || got.IsInteger() != a.IsInteger() || got.Neg != a.Neg {
			t.Fatalf("%q kept to %d digits: Truncated %v IsInteger %v Neg %v", as, n, got.Truncated(), got.IsInteger(), got.Neg)
		}
		if len(b.Digits) <= n && (got.Cmp(b) != c || b.Cmp(got) != -c) {
			t.Fatalf("%q kept to %d digits compares %d with %s, exactly %d", as, n, got.Cmp(b), bs, c)
		}

		// CanEqual never refuses a prefix of a spelling of the value: of
		// the text itself and of its canonical text.
		if moderate(as) && a.InRange() {
			for _, text := range []string{as, ac} {
				for k := 1; k <= len(text); k++ {
					if !canEqualAfter(text[:k], a) {
						t.Fatalf("CanEqual(%s) is false after %q of %q", as, text[:k], text)
					}
					if !a.IsZero() && !expInRanges(text[:k], a.Exp) {
						t.Fatalf("ExpRanges after %q of %q leaves out %s's exponent %d", text[:k], text, as, a.Exp)
					}
				}
			}
		}
	})
}

// expInRanges reports whether an Accumulator that has read prefix yields
// a range of ExpRanges holding exp.
func expInRanges(prefix string, exp int64) bool {
	var a decimal.Accumulator
	a.Reset(64)
	a.Write([]byte(prefix))
	in := false
	a.ExpRanges(func(lo, hi int64) bool {
		in = lo <= exp && exp <= hi
		return !in
	})
	return in
}
