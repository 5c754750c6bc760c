package validator

import "unicode/utf8"

// jsonQuote renders s as a JSON string, the notation a model writes its
// arguments in and reads back: '"' and '\' escaped, control characters
// as \n, \r, \t or \u00XX (DEL too, which is invisible), each byte of
// invalid UTF-8 (a quote cut inside a character) as \ufffd, and
// everything else as it is. Go's strconv.Quote would write escapes JSON
// does not have (\x00, \a, \v).
func jsonQuote(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x7f {
			b = append(b, c)
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
	}
	return string(append(b, '"'))
}
