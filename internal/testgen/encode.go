package testgen

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Compact returns the plain JSON text of v: no whitespace, members in order,
// numbers in their shortest plain spelling, only the escapes JSON requires.
func Compact(v any) []byte {
	e := &encoder{}
	e.value(v)
	return e.buf
}

// Encode returns JSON text for v written in a randomly chosen style: with or
// without whitespace between tokens, members in order or shuffled, numbers
// respelled without changing their value (1 as 1.0, 1e0, 10E-1, 0.1e+1),
// and characters escaped that need not be (\u00e9, \ud83d\ude00, \/).
// Every spelling decodes to the same value as Compact(v).
//
// Strings holding bytes that are not UTF-8 are written as Hazard describes.
func Encode(r *rand.Rand, v any) []byte {
	e := &encoder{r: r, space: chance(r, 0.4), shuffle: chance(r, 0.3)}
	if chance(r, 0.5) {
		e.respell = 0.3
	}
	if chance(r, 0.4) {
		e.escape = 0.25
	}
	e.ws()
	e.value(v)
	e.ws()
	return e.buf
}

// encoder writes JSON text. With a nil r it writes the plain spelling.
type encoder struct {
	r       *rand.Rand
	buf     []byte
	space   bool
	shuffle bool
	respell float64 // chance that a number is respelled
	escape  float64 // chance that a character is escaped needlessly
}

func (e *encoder) maybe(p float64) bool { return e.r != nil && chance(e.r, p) }

// ws writes optional whitespace between tokens.
func (e *encoder) ws() {
	if !e.space {
		return
	}
	for range e.r.IntN(3) {
		e.buf = append(e.buf, pick(e.r, []byte(" \t\n\r  ")))
	}
}

func (e *encoder) value(v any) {
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, v)
	case string:
		e.string(v)
	case *big.Rat:
		e.number(v)
	case []any:
		e.buf = append(e.buf, '[')
		for i, x := range v {
			if i > 0 {
				e.ws()
				e.buf = append(e.buf, ',')
			}
			e.ws()
			e.value(x)
		}
		e.ws()
		e.buf = append(e.buf, ']')
	case Object:
		if e.shuffle && e.r != nil {
			v = append(Object(nil), v...)
			e.r.Shuffle(len(v), func(i, j int) { v[i], v[j] = v[j], v[i] })
		}
		e.buf = append(e.buf, '{')
		for i, m := range v {
			if i > 0 {
				e.ws()
				e.buf = append(e.buf, ',')
			}
			e.ws()
			e.string(m.Name)
			e.ws()
			e.buf = append(e.buf, ':')
			e.ws()
			e.value(m.Value)
		}
		e.ws()
		e.buf = append(e.buf, '}')
	default:
		panic(fmt.Sprintf("testgen: %T is not a JSON value", v))
	}
}

const hexDigits = "0123456789abcdef"

func (e *encoder) string(s string) {
	e.buf = append(e.buf, '"')
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			if sur, ok := surrogateAt(s, i); ok {
				e.uescape(sur) // a lone surrogate escape, written on purpose
				i += 3
			} else {
				e.buf = append(e.buf, s[i]) // an invalid UTF-8 byte, written raw on purpose
				i++
			}
			continue
		}
		i += size
		switch {
		case c == '"' || c == '\\':
			e.buf = append(e.buf, '\\', byte(c))
		case c < 0x20:
			if short, ok := shortEscapes[byte(c)]; ok && !e.maybe(0.3) {
				e.buf = append(e.buf, '\\', short)
			} else {
				e.uescape(c)
			}
		case !e.maybe(e.escape):
			e.buf = utf8.AppendRune(e.buf, c)
		case c == '/' && e.maybe(0.7):
			e.buf = append(e.buf, '\\', '/')
		case c > 0xFFFF:
			c -= 0x10000
			e.uescape(0xD800 + c>>10)
			e.uescape(0xDC00 + c&0x3FF)
		default:
			e.uescape(c)
		}
	}
	e.buf = append(e.buf, '"')
}

var shortEscapes = map[byte]byte{'\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// uescape writes \uXXXX for a code unit, in lower or upper case hex.
func (e *encoder) uescape(u rune) {
	start := len(e.buf)
	e.buf = append(e.buf, '\\', 'u', hexDigits[u>>12&0xF], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
	if e.maybe(0.3) {
		copy(e.buf[start+2:], strings.ToUpper(string(e.buf[start+2:])))
	}
}

// surrogateAt decodes a UTF-16 surrogate encoded like a code point in UTF-8
// (ED A0–BF 80–BF) at s[i:], which Go strings may hold but UTF-8 forbids.
func surrogateAt(s string, i int) (rune, bool) {
	if i+2 >= len(s) || s[i] != 0xED || s[i+1] < 0xA0 || s[i+1] > 0xBF || s[i+2]&0xC0 != 0x80 {
		return 0, false
	}
	return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), true
}

// number writes x exactly, respelled at random: trailing zeros, a moved
// decimal point with a compensating exponent, 'e' or 'E', an explicit '+',
// zero-padded exponent digits, and "-0" for zero.
func (e *encoder) number(x *big.Rat) {
	digits, exp, ok := decimalOf(x)
	if !ok {
		panic("testgen: number without a finite decimal expansion: " + x.String())
	}
	neg := x.Sign() < 0
	if !e.maybe(e.respell) {
		e.buf = appendPlain(e.buf, neg, digits, exp)
		return
	}
	if digits == "0" {
		e.buf = append(e.buf, pick(e.r, []string{"-0", "0.0", "0e0", "-0.00", "0E+3", "0.0e-2"})...)
		return
	}
	pad := e.r.IntN(3) // trailing zeros, as in 1.0 or 100e-2
	digits += strings.Repeat("0", pad)
	exp -= pad
	// The written exponent: none, scientific (one digit before the point), or
	// anything a few places either side.
	var shown int
	switch e.r.IntN(3) {
	case 0:
		shown = 0
	case 1:
		shown = exp + len(digits) - 1
	default:
		shown = exp + e.r.IntN(len(digits)+4) - 2
	}
	if abs(exp-shown) > 40 {
		shown = exp // keep the mantissa short
	}
	if neg {
		e.buf = append(e.buf, '-')
	}
	e.buf = appendMantissa(e.buf, digits, exp-shown)
	if shown == 0 && !e.maybe(0.3) {
		return
	}
	e.buf = append(e.buf, pick(e.r, []byte("eE")))
	switch {
	case shown < 0:
		e.buf = append(e.buf, '-')
	case e.maybe(0.3):
		e.buf = append(e.buf, '+')
	}
	if e.maybe(0.2) {
		e.buf = append(e.buf, '0')
	}
	e.buf = strconv.AppendInt(e.buf, int64(abs(shown)), 10)
}

// appendPlain writes digits × 10^exp without an exponent when it is short,
// else in scientific form.
func appendPlain(dst []byte, neg bool, digits string, exp int) []byte {
	if neg {
		dst = append(dst, '-')
	}
	if digits == "0" || exp >= -12 && exp+len(digits) <= 30 {
		return appendMantissa(dst, digits, exp)
	}
	shown := exp + len(digits) - 1
	dst = appendMantissa(dst, digits, exp-shown)
	dst = append(dst, 'e')
	return strconv.AppendInt(dst, int64(shown), 10)
}

// appendMantissa writes digits × 10^q in plain decimal notation.
func appendMantissa(dst []byte, digits string, q int) []byte {
	if q >= 0 {
		dst = append(dst, digits...)
		return append(dst, strings.Repeat("0", q)...)
	}
	point := len(digits) + q
	if point > 0 {
		return append(append(append(dst, digits[:point]...), '.'), digits[point:]...)
	}
	dst = append(dst, "0."...)
	dst = append(dst, strings.Repeat("0", -point)...)
	return append(dst, digits...)
}
