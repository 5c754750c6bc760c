package provider

import (
	"bytes"
	"encoding/json"
)

// compactJSON returns the JSON value raw with insignificant whitespace
// removed and everything else — key order, number text, escapes — exactly as
// sent. Absent and null values give "".
func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	b.Grow(len(raw))
	if json.Compact(&b, raw) != nil || b.String() == "null" {
		return "" // raw came out of a successful decode, so only null lands here
	}
	return b.String()
}

// appendEscaped appends s as the inside of a JSON string: '"' and '\\' and
// control characters escaped (\b \f \n \r \t, else \u00XX), everything else —
// non-ASCII included — as UTF-8. This is the text Python's
// json.dumps(ensure_ascii=False) writes, which the Gemini recordings'
// expected arguments use.
func appendEscaped(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	return append(dst, s[start:]...)
}

// appendQuoted appends s as a JSON string.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}
