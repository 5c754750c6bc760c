package format

import (
	"strings"
	"unicode/utf8"
)

// isJSONPointer reports whether s is an RFC 6901 JSON Pointer: empty, or
// reference tokens each introduced by "/", in which "~" appears only as
// "~0" or "~1". Any other Unicode character may appear unescaped.
func isJSONPointer(s string) bool {
	if (s != "" && s[0] != '/') || !utf8.ValidString(s) {
		return false
	}
	for i := strings.IndexByte(s, '~'); i >= 0; i = strings.IndexByte(s, '~') {
		if i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1') {
			return false
		}
		s = s[i+2:]
	}
	return true
}

// isRelativeJSONPointer reports whether s is a Relative JSON Pointer as
// draft-07 and 2019-09 cite it (draft-handrews-relative-json-pointer-01
// and -02): a non-negative integer without a leading zero, then "#" or a
// JSON Pointer.
func isRelativeJSONPointer(s string) bool {
	n := nonNegativeInteger(s)
	return n > 0 && (s[n:] == "#" || isJSONPointer(s[n:]))
}

// isRelativeJSONPointerWithIndex reports whether s is a Relative JSON
// Pointer as 2020-12 cites it (draft-bhutton-relative-json-pointer-00),
// which adds an index manipulation after the integer: "+" or "-" and a
// positive integer, as in "0+1#" or "1-2/name".
func isRelativeJSONPointerWithIndex(s string) bool {
	n := nonNegativeInteger(s)
	if n == 0 {
		return false
	}
	if n < len(s) && (s[n] == '+' || s[n] == '-') {
		m := nonNegativeInteger(s[n+1:])
		if m == 0 || s[n+1] == '0' {
			return false
		}
		n += 1 + m
	}
	return s[n:] == "#" || isJSONPointer(s[n:])
}

// nonNegativeInteger returns the length of the non-negative integer s
// starts with ("0", or digits not starting with "0"), or 0 when there is
// none. After a "0" it returns 0 when another digit follows.
func nonNegativeInteger(s string) int {
	n := countDigits(s)
	if n > 1 && s[0] == '0' {
		return 0
	}
	return n
}
