package decimal

import (
	"math/big"
	"math/bits"
)

// Residue decides multipleOf for a number whose text arrives in pieces,
// without keeping its digits: a number is a multiple of m when its
// significant digits, as an integer, times the power of ten of its last
// significant digit, is an integer multiple of m's. Residue keeps the
// remainder of the significant digits (up to the last non-zero one)
// modulo m's significant digits, so its memory and its work per digit do
// not grow with the number.
type Residue struct {
	small   uint64   // m's significant digits, when they fit (then big is nil)
	big     *big.Int // m's significant digits otherwise
	exp     int64    // the power of ten of m's last significant digit
	enough  int64    // 4 × m's significant digits: see Multiple
	r       uint64
	rBig    big.Int
	scratch [3]big.Int
	zeros   int64 // zeros read since the last non-zero digit
	started bool  // a non-zero digit was read
	part    part
}

// Reset prepares r to test multiples of m, a positive value known exactly.
func (r *Residue) Reset(m Decimal) {
	r.small, r.big, r.exp, r.r, r.zeros, r.started, r.part = 0, nil, m.Exp-int64(len(m.Digits)), 0, 0, false, partInt
	r.enough = 4 * int64(len(m.Digits))
	if len(m.Digits) < 18 { // fits in a uint64 with room for r*10+9
		for _, c := range m.Digits {
			r.small = r.small*10 + uint64(c-'0')
		}
		return
	}
	r.big, _ = new(big.Int).SetString(string(m.Digits), 10)
	r.rBig.SetInt64(0)
}

// Write reads the next piece of number text (valid JSON number grammar).
func (r *Residue) Write(text []byte) {
	for _, c := range text {
		switch {
		case c == '.':
			r.part = partFrac
		case c == 'e' || c == 'E':
			r.part = partExp
		case c < '0' || c > '9' || r.part == partExp:
		case c == '0':
			if r.started {
				r.zeros++
			}
		default:
			r.digit(c)
		}
	}
}

// digit appends the pending zeros and the non-zero digit c.
func (r *Residue) digit(c byte) {
	shift := r.zeros + 1
	r.zeros, r.started = 0, true
	if r.big == nil {
		r.r = (mulMod(r.r, powMod(10, shift, r.small), r.small) + uint64(c-'0')) % r.small
		return
	}
	ten, e, p := &r.scratch[0], &r.scratch[1], &r.scratch[2]
	p.Exp(ten.SetInt64(10), e.SetInt64(shift), r.big)
	r.rBig.Mul(&r.rBig, p)
	r.rBig.Add(&r.rBig, e.SetInt64(int64(c-'0')))
	r.rBig.Mod(&r.rBig, r.big)
}

// Multiple reports whether d, the number Write read (as an Accumulator
// with any precision limit reads it), is a multiple of m. It is exact for
// every number, even one whose exponent saturated.
//
// Past a power of ten (Residue.enough) the quotient's stops mattering.
// The number is D × 10^q times 10 to the power of m's last digit, D its
// significant digits; it is a multiple of m when m's significant digits,
// M = 2^a × 5^b × M', divide D × 10^q. M of k digits is below 10^k <
// 2^(4k), so a and b are below 4k: for q of 4k or more 2^a × 5^b divides
// 10^q, and M' (prime to 10) divides D × 10^q exactly when it divides D.
// The answer is the same for every such q, so a number whose exponent
// saturated (1.5e999999999999999999, far past any q it could carry) is
// decided exactly: as an integer it is a multiple of 1, 2 and 0.5, not of
// 7 (its D is 15). A saturated negative exponent leaves q negative, as the
// exact one would.
func (r *Residue) Multiple(d Decimal) bool {
	if d.IsZero() {
		return true
	}
	q := d.Exp - d.N - r.exp // the power of ten the quotient carries
	if q < 0 {
		return false // the number has a non-zero digit below m's last one
	}
	q = min(q, r.enough)
	if r.big == nil {
		return mulMod(r.r, powMod(10, q, r.small), r.small) == 0
	}
	var p, x big.Int
	p.Exp(big.NewInt(10), big.NewInt(q), r.big)
	x.Mul(&r.rBig, &p)
	return x.Mod(&x, r.big).Sign() == 0
}

// mulMod returns a*b mod m for a, b < m.
func mulMod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return bits.Rem64(hi, lo, m)
}

// powMod returns b^e mod m.
func powMod(b uint64, e int64, m uint64) uint64 {
	result := uint64(1) % m
	b %= m
	for e > 0 {
		if e&1 == 1 {
			result = mulMod(result, b, m)
		}
		b = mulMod(b, b, m)
		e >>= 1
	}
	return result
}
