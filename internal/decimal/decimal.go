// Package decimal holds exact decimal numbers parsed from JSON number text.
// Values are compared and printed without ever passing through float64, and
// an Accumulator builds a value from text that arrives in pieces.
package decimal

// maxExp bounds the decimal exponent an Accumulator tracks. Exponents in JSON
// text beyond it saturate: 1e999999999999999999 compares as larger than any
// number a schema may hold (see InRange) and costs as little as 1.
const maxExp = 1 << 40

// Decimal is the exact value sign × 0.d₁d₂…dₙ × 10^Exp. Digits holds d₁…dₙ
// as ASCII without leading or trailing zeros; zero has no digits. A Decimal
// built by an Accumulator with a precision limit may keep only the first
// digits: N then counts all significant digits and Truncated reports that
// non-zero digits were dropped.
type Decimal struct {
	// Neg is the sign; it is false for zero.
	Neg bool
	// Digits are the leading significant digits, ASCII '0'–'9'.
	Digits []byte
	// Exp is the decimal exponent: the value is 0.Digits × 10^Exp.
	Exp int64
	// N counts every significant digit up to the last non-zero one.
	N int64
}

// IsZero reports whether d is zero.
func (d Decimal) IsZero() bool { return d.N == 0 }

// Truncated reports whether d lost non-zero digits to a precision limit.
func (d Decimal) Truncated() bool { return d.N > int64(len(d.Digits)) }

// IsInteger reports whether d has no fractional part (1.0 and 1e2 do).
func (d Decimal) IsInteger() bool { return d.N <= d.Exp || d.N == 0 }

// ExactExponent bounds the exponents of the numbers a schema may hold:
// InRange holds for those of magnitude below it, and comparisons of such a
// number with any argument value are exact.
const ExactExponent = maxExp / 2

// InRange reports whether d's exponent lies well inside the saturation bound
// (below ExactExponent in magnitude), so that comparisons with any argument
// value are exact.
func (d Decimal) InRange() bool { return d.Exp > -ExactExponent && d.Exp < ExactExponent }

// Cmp compares d and e by value and returns -1, 0 or +1. A truncated operand
// compares as larger in magnitude than any value sharing its kept digits.
func (d Decimal) Cmp(e Decimal) int { return Compare(&d, &e) }

// Compare is Cmp for operands held in place: a Decimal is six words, and
// a search or a bound check that compares many need not copy each.
func Compare(d, e *Decimal) int {
	switch {
	case d.IsZero() && e.IsZero():
		return 0
	case d.IsZero():
		return signOf(!e.Neg) * -1
	case e.IsZero():
		return signOf(!d.Neg)
	case d.Neg != e.Neg:
		return signOf(e.Neg)
	}
	c := cmpAbs(d, e)
	if d.Neg {
		return -c
	}
	return c
}

// Equal reports whether d and e are the same number. A truncated operand,
// or one whose exponent saturated (see InRange), is never equal to anything:
// its exact value is unknown.
func (d Decimal) Equal(e Decimal) bool {
	return d.exact() && e.exact() && d.Cmp(e) == 0
}

// exact reports whether d is known exactly.
func (d Decimal) exact() bool { return !d.Truncated() && (d.IsZero() || d.InRange()) }

func signOf(positive bool) int {
	if positive {
		return 1
	}
	return -1
}

func cmpAbs(d, e *Decimal) int {
	if d.Exp != e.Exp {
		return signOf(d.Exp > e.Exp)
	}
	n := min(len(d.Digits), len(e.Digits))
	for i := range n {
		if d.Digits[i] != e.Digits[i] {
			return signOf(d.Digits[i] > e.Digits[i])
		}
	}
	switch {
	case d.N > int64(n) && e.N > int64(n):
		return 0 // both truncated at the same digits: undecidable, never for a schema bound
	case d.N > int64(n):
		return 1
	case e.N > int64(n):
		return -1
	}
	return 0
}

// AppendCanonical appends the canonical JSON text of d: one spelling per
// value, so equal numbers print alike. Integers up to 21 digits print plainly
// ("100"); everything else prints in scientific form ("1.5e-1", "1e30").
// A value not known exactly (truncated, or with a saturated exponent) prints
// its kept digits followed by "…", which is not JSON and equals no canonical
// number.
func (d Decimal) AppendCanonical(dst []byte) []byte {
	if d.IsZero() {
		return append(dst, '0')
	}
	if d.Neg {
		dst = append(dst, '-')
	}
	if !d.exact() {
		return append(append(dst, d.Digits...), "…"...)
	}
	n := int64(len(d.Digits))
	if d.Exp >= n && d.Exp <= 21 {
		dst = append(dst, d.Digits...)
		for range d.Exp - n {
			dst = append(dst, '0')
		}
		return dst
	}
	dst = append(dst, d.Digits[0])
	if n > 1 {
		dst = append(append(dst, '.'), d.Digits[1:]...)
	}
	dst = append(dst, 'e')
	return appendInt(dst, d.Exp-1)
}

// AppendBrief appends d for a reader: with at most digits significant
// digits, as JavaScript writes a number (0.1, 12.5, 0.000001, 1e-7,
// 1.5e+300 as 1.5e300), where AppendCanonical writes 1e-1 and 1.25e1;
// past them, its first digits, "…" and its exponent ("7.77…e-1"), which
// is not JSON: a number of a million digits quoted in a message costs
// what a short one does.
func (d Decimal) AppendBrief(dst []byte, digits int) []byte {
	if len(d.Digits) <= digits || digits < 1 {
		return d.AppendPlain(dst)
	}
	if d.Neg {
		dst = append(dst, '-')
	}
	if !d.exact() {
		return append(append(dst, d.Digits[:digits]...), "…"...)
	}
	dst = append(dst, d.Digits[0])
	if digits > 1 {
		dst = append(append(dst, '.'), d.Digits[1:digits]...)
	}
	dst = append(dst, "…e"...)
	return appendInt(dst, d.Exp-1)
}

// AppendPlain appends d as AppendCanonical does, but in fixed notation
// where JavaScript's Number.prototype.toString uses it: a fraction whose
// first significant digit is at most six places after the point, or a
// number of at most 21 digits before it (0.5 and 12.25, where
// AppendCanonical writes 5e-1 and 1.225e1). The text is JSON, with every
// digit of d: AppendBrief is AppendPlain for a number short enough.
func (d Decimal) AppendPlain(dst []byte) []byte {
	n := int64(len(d.Digits))
	if d.IsZero() || !d.exact() || d.Exp >= n || d.Exp < -5 || d.Exp > 21 {
		return d.AppendCanonical(dst) // integers are in fixed notation there
	}
	if d.Neg {
		dst = append(dst, '-')
	}
	if d.Exp <= 0 {
		dst = append(dst, "0."...)
		for range -d.Exp {
			dst = append(dst, '0')
		}
		return append(dst, d.Digits...)
	}
	return append(append(append(dst, d.Digits[:d.Exp]...), '.'), d.Digits[d.Exp:]...)
}

// String returns the canonical text of d.
func (d Decimal) String() string { return string(d.AppendCanonical(nil)) }

func appendInt(dst []byte, v int64) []byte {
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(dst, buf[i:]...)
}

// Parse returns the exact value of JSON number text. It reports false when
// text is not a JSON number.
func Parse(text []byte) (Decimal, bool) {
	if !validNumber(text) {
		return Decimal{}, false
	}
	var a Accumulator
	a.Reset(len(text))
	a.Write(text)
	d := a.Value()
	d.Digits = append([]byte(nil), d.Digits...)
	return d, true
}

// validNumber reports whether text follows the JSON number grammar.
func validNumber(text []byte) bool {
	i := 0
	if i < len(text) && text[i] == '-' {
		i++
	}
	switch {
	case i < len(text) && text[i] == '0':
		i++
	case i < len(text) && text[i] >= '1' && text[i] <= '9':
		for i < len(text) && isDigit(text[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(text) && text[i] == '.' {
		i++
		start := i
		for i < len(text) && isDigit(text[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			i++
		}
		start := i
		for i < len(text) && isDigit(text[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(text)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
