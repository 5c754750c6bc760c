package format

// asciiSet is a set of ASCII bytes, one bit each.
type asciiSet [2]uint64

// newASCIISet returns the set of the bytes in chars, which must be ASCII.
func newASCIISet(chars ...string) asciiSet {
	var set asciiSet
	for _, part := range chars {
		for i := 0; i < len(part); i++ {
			set[part[i]/64] |= 1 << (part[i] % 64)
		}
	}
	return set
}

// has reports whether c is in the set; a byte past ASCII never is.
func (set *asciiSet) has(c byte) bool {
	return c < 0x80 && set[c/64]&(1<<(c%64)) != 0
}

// Character classes of RFC 5234 Appendix B.1, shared by the grammars.
const (
	alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	digit = "0123456789"
)

// decimalDigits returns the value of s when s is a non-empty run of ASCII
// digits short enough not to overflow an int.
func decimalDigits(s string) (value int, ok bool) {
	if s == "" || len(s) > 9 || countDigits(s) != len(s) {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		value = value*10 + int(s[i]-'0')
	}
	return value, true
}

// countDigits returns how many ASCII digits s starts with.
func countDigits(s string) int {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func isHexDigit(c byte) bool { return isDigit(c) || ((c|0x20) >= 'a' && (c|0x20) <= 'f') }

// hasASCIIPrefixFold reports whether s starts with prefix, ignoring the
// case of ASCII letters; prefix must be lower case.
func hasASCIIPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if c := s[i]; c != prefix[i] && !(isAlpha(c) && c|0x20 == prefix[i]) {
			return false
		}
	}
	return true
}
