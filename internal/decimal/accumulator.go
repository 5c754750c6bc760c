package decimal

import "crypto/rand"

// Accumulator builds a Decimal from JSON number text fed in pieces. The text
// must already be valid JSON number grammar (the tokenizer checks it); the
// Accumulator only interprets it. It keeps at most a fixed number of
// significant digits, so its memory does not grow with the text: later
// non-zero digits only mark the value as truncated, and exponent digits
// saturate. Feeding a digit costs O(1); no method allocates after Reset has
// sized the digit buffer once.
type Accumulator struct {
	digits  []byte
	limit   int
	part    part
	neg     bool
	nd      int64 // significant digits seen, counting zeros after the first non-zero
	lastNZ  int64 // position (1-based) of the last non-zero significant digit
	dp      int64 // position of the decimal point within the significant digits
	expNeg  bool
	expSign bool // the exponent's sign has been read
	expSeen bool // an exponent digit has been read
	exp     int64
	expMod  uint64 // the exponent modulo ExpModulus(), exact however long
}

type part uint8

const (
	partInt part = iota
	partFrac
	partExp
)

// Reset prepares a for a new number, keeping up to limit significant digits.
func (a *Accumulator) Reset(limit int) {
	if cap(a.digits) < limit {
		a.digits = make([]byte, 0, limit)
	}
	*a = Accumulator{digits: a.digits[:0], limit: limit}
}

// Write interprets the next piece of number text.
func (a *Accumulator) Write(text []byte) {
	for _, c := range text {
		switch {
		case c == '-':
			if a.part == partExp {
				a.expNeg, a.expSign = true, true
			} else {
				a.neg = true
			}
		case c == '+':
			a.expSign = true
		case c == '.':
			a.part = partFrac
		case c == 'e' || c == 'E':
			a.part = partExp
		case a.part == partExp:
			a.expSeen = true
			if a.exp < maxExp {
				a.exp = a.exp*10 + int64(c-'0')
			}
			a.expMod = (a.expMod*10 + uint64(c-'0')) % expModulus
		default:
			a.digit(c)
		}
	}
}

func (a *Accumulator) digit(c byte) {
	if a.nd == 0 && c == '0' {
		if a.part == partFrac {
			a.dp--
		}
		return
	}
	a.nd++
	if a.part == partInt {
		a.dp++
	}
	if c != '0' {
		a.lastNZ = a.nd
	}
	if len(a.digits) < a.limit {
		a.digits = append(a.digits, c)
	}
}

// Value returns the number read so far. Its Digits alias a's buffer and are
// valid until the next Reset.
func (a *Accumulator) Value() Decimal {
	if a.lastNZ == 0 {
		return Decimal{}
	}
	exp := min(a.exp, maxExp)
	if a.expNeg {
		exp = -exp
	}
	kept := min(int64(len(a.digits)), a.lastNZ)
	return Decimal{Neg: a.neg, Digits: a.digits[:kept], Exp: a.dp + exp, N: a.lastNZ}
}

// ExpModulo returns the exponent of the number read so far, as Value's
// Exp (the value is 0.Digits × 10^Exp), modulo ExpModulus(), exact even where
// Exp saturated: 1e999999999999999999 and 1e9999999999999999999 have
// one saturated Exp but different ExpModulo. Content hashes use it to tell
// such numbers apart; exponents that differ by a multiple of ExpModulus()
// share it, and which those are no document can know. Zero has 0.
func (a *Accumulator) ExpModulo() uint64 {
	if a.lastNZ == 0 {
		return 0
	}
	m := int64(expModulus)
	dp := uint64((a.dp%m + m) % m)
	if a.expNeg {
		return (dp + expModulus - a.expMod) % expModulus
	}
	return (dp + a.expMod) % expModulus
}

// ExpModulus returns the modulus of ExpModulo: a prime of 60 bits, so
// that ten times a residue plus a digit stays inside a uint64, drawn at
// random for each process. With a fixed one, 1 and 1e1152921504606846883
// had one ExpModulo, and content hashes took them for one value: a
// uniqueItems under "not" then passed an array it rejects. A secret
// modulus makes a shared residue a chance no document can aim at.
func ExpModulus() uint64 { return expModulus }

var expModulus = randomPrime(60)

// randomPrime returns a random prime of the given number of bits.
func randomPrime(bits int) uint64 {
	p, err := rand.Prime(rand.Reader, bits)
	if err != nil {
		panic("decimal: no random prime: " + err.Error()) // crypto/rand does not fail
	}
	return p.Uint64()
}

// InExponent reports whether the text read so far has reached its
// exponent ("e" or "E").
func (a *Accumulator) InExponent() bool { return a.part == partExp }

// CanBeInteger reports whether some continuation of the number text read
// so far is an integer. Until a negative exponent's sign one always is (a
// large enough exponent may follow, and zero is one); after "e-" the
// exponent E so far (0 before its digits) only grows in magnitude with
// more digits, so the text can end as an integer only if it is one at E
// already: 1.5e- cannot (1.5e-0 is not), 775.00E-0 still can, 775.00E-01
// cannot. It lets "type": "integer" reject a number at that byte.
func (a *Accumulator) CanBeInteger() bool {
	if a.lastNZ == 0 || a.part != partExp || !a.expNeg {
		return true
	}
	return a.lastNZ <= a.dp-min(a.exp, maxExp)
}

// ExpRanges calls yield with ranges [lo, hi] of exponents, until it
// returns false: a non-zero Decimal with the significant digits read so
// far and its Exp in one of the ranges is one that some continuation of
// the text can still equal, and one with its Exp outside them is not.
// The exponent still to come is any number whose digits begin with those
// read (7 leaves 7, 70–79, 700–799, …), so there is one range per count
// of digits yet to come, at most 14 below maxExp, and a single one before
// the exponent's first non-zero digit. Before the exponent it yields
// every exponent. It lets an enum of numbers that share the digits reject
// a value at the exponent's first byte that leaves none, with one binary
// search per range.
func (a *Accumulator) ExpRanges(yield func(lo, hi int64) bool) {
	if a.part != partExp || !a.expSign && !a.expSeen {
		yield(-expAny, expAny) // either sign may still come
		return
	}
	// The exponent, E, makes Exp = dp + E.
	within := func(lo, hi int64) bool {
		if a.expNeg {
			return yield(a.dp-hi, a.dp-lo)
		}
		return yield(a.dp+lo, a.dp+hi)
	}
	if a.exp == 0 {
		within(0, expAny) // no exponent digit yet, or only zeros
		return
	}
	for lo, width := a.exp, int64(1); lo <= maxExp; lo, width = lo*10, width*10 {
		if !within(lo, lo+width-1) {
			return
		}
	}
}

// expAny bounds the exponents ExpRanges yields where any may come: far
// past maxExp, and far from overflowing when the decimal point's position
// is added.
const expAny = 1 << 60
