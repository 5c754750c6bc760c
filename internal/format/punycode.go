package format

import (
	"math"
	"strings"
	"unicode/utf8"
)

// Punycode (RFC 3492) with the parameters IDNA uses (§5).
const (
	punyBase        = 36
	punyTMin        = 1
	punyTMax        = 26
	punySkew        = 38
	punyDamp        = 700
	punyInitialBias = 72
	punyInitialN    = 0x80
)

// punycodeDecode decodes s, the Punycode after an A-label's "xn--", into
// dst and returns how many code points it wrote. ok is false when s is
// not Punycode, encodes a value that is not a Unicode scalar, or decodes
// to more code points than dst holds. A delimiter with no basic code points before it is accepted
// here; such a label does not encode back to itself (see isALabel).
func punycodeDecode(dst []rune, s string) (n int, ok bool) {
	in := 0
	if b := strings.LastIndexByte(s, '-'); b >= 0 {
		if b > len(dst) {
			return 0, false
		}
		for ; n < b; n++ {
			if s[n] >= utf8.RuneSelf {
				return 0, false
			}
			dst[n] = rune(s[n])
		}
		in = b + 1
	}
	code, bias, i := punyInitialN, punyInitialBias, 0
	for in < len(s) {
		oldi, w := i, 1
		for k := punyBase; ; k += punyBase {
			if in == len(s) {
				return 0, false
			}
			digit := punyDigit(s[in])
			in++
			if digit < 0 || digit > (math.MaxInt32-i)/w {
				return 0, false
			}
			i += digit * w
			t := punyThreshold(k, bias)
			if digit < t {
				break
			}
			if w > math.MaxInt32/(punyBase-t) {
				return 0, false
			}
			w *= punyBase - t
		}
		bias = punyAdapt(i-oldi, n+1, oldi == 0)
		if i/(n+1) > utf8.MaxRune-code {
			return 0, false
		}
		code += i / (n + 1)
		i %= n + 1
		if n == len(dst) || !utf8.ValidRune(rune(code)) {
			return 0, false
		}
		copy(dst[i+1:n+1], dst[i:n])
		dst[i] = rune(code)
		n, i = n+1, i+1
	}
	return n, true
}

// punycodeEncode encodes runes as Punycode into dst (without "xn--") and
// returns how many bytes it wrote; ok is false when they do not fit.
func punycodeEncode(dst []byte, runes []rune) (n int, ok bool) {
	for _, r := range runes {
		if r < utf8.RuneSelf {
			if n == len(dst) {
				return 0, false
			}
			dst[n] = byte(r)
			n++
		}
	}
	basic, handled := n, n
	if basic > 0 {
		if n == len(dst) {
			return 0, false
		}
		dst[n] = '-'
		n++
	}
	code, delta, bias := rune(punyInitialN), 0, punyInitialBias
	for handled < len(runes) {
		next := rune(utf8.MaxRune + 1)
		for _, r := range runes {
			if r >= code && r < next {
				next = r
			}
		}
		if int(next-code) > (math.MaxInt32-delta)/(handled+1) {
			return 0, false
		}
		delta += int(next-code) * (handled + 1)
		code = next
		for _, r := range runes {
			if r < code {
				delta++
			}
			if r != code {
				continue
			}
			q := delta
			for k := punyBase; ; k += punyBase {
				t := punyThreshold(k, bias)
				if q < t {
					break
				}
				if n == len(dst) {
					return 0, false
				}
				dst[n] = punyDigitByte(t + (q-t)%(punyBase-t))
				n++
				q = (q - t) / (punyBase - t)
			}
			if n == len(dst) {
				return 0, false
			}
			dst[n] = punyDigitByte(q)
			n++
			bias = punyAdapt(delta, handled+1, handled == basic)
			delta = 0
			handled++
		}
		delta++
		code++
	}
	return n, true
}

// punyDigit returns the value of a Punycode digit (a-z or A-Z: 0-25,
// 0-9: 26-35), or -1.
func punyDigit(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= '0' && c <= '9':
		return int(c-'0') + 26
	}
	return -1
}

// punyDigitByte returns the lower-case Punycode digit for a value 0-35.
func punyDigitByte(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}

// punyThreshold is t(k) of RFC 3492 §6.2: k - bias clamped to [tmin, tmax].
func punyThreshold(k, bias int) int {
	return min(max(k-bias, punyTMin), punyTMax)
}

// punyAdapt is the bias adaptation function of RFC 3492 §6.1.
func punyAdapt(delta, points int, first bool) int {
	if first {
		delta /= punyDamp
	} else {
		delta /= 2
	}
	delta += delta / points
	k := 0
	for delta > ((punyBase-punyTMin)*punyTMax)/2 {
		delta /= punyBase - punyTMin
		k += punyBase
	}
	return k + (punyBase-punyTMin+1)*delta/(delta+punySkew)
}
