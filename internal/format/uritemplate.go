package format

import "strings"

// literalChar is the ASCII of RFC 6570 literals: every visible character
// but those the template syntax or URIs reserve ('"', "%" outside a
// pct-encoded triplet, "<", ">", "\", "^", "`", "{", "|", "}"). The
// apostrophe, which the RFC's ABNF leaves out although it is an RFC 3986
// sub-delim, is admitted as the test suite has it.
var literalChar = newASCIISet(alpha, digit, "!#$&'()*+,-./:;=?@[]_~")

// varChar is RFC 6570 varchar without pct-encoded: ALPHA, DIGIT, "_".
var varChar = newASCIISet(alpha, digit, "_")

// isURITemplate reports whether s is an RFC 6570 URI Template of any of
// its four levels: literals and pct-encoded triplets, and expressions
// "{" [operator] varspec *("," varspec) "}" where a varspec is a
// variable name with an optional ":" prefix length (1-9999) or "*". The
// operators that §2.2 reserves for future extensions ("=", ",", "!",
// "@", "|") belong to no level and are refused.
func isURITemplate(s string) bool {
	for s != "" {
		open := strings.IndexByte(s, '{')
		literals := s
		if open >= 0 {
			literals = s[:open]
		}
		if !isTemplateLiterals(literals) {
			return false
		}
		if open < 0 {
			return true
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 || !isTemplateExpression(s[open+1:open+end]) {
			return false
		}
		s = s[open+end+1:]
	}
	return true
}

// isTemplateLiterals reports whether s is a run of RFC 6570 literals:
// literalChar, pct-encoded triplets, and the ucschar and iprivate
// characters of RFC 3987 but its bidirectional formatting characters,
// which no IRI a template expands to may hold (RFC 3987 §4.1).
func isTemplateLiterals(s string) bool { return allowed(s, &literalChar, true, true) }

// isTemplateExpression reports whether s, the text between "{" and "}",
// is an operator and variable list of RFC 6570 §2.2-2.4.
func isTemplateExpression(s string) bool {
	if s != "" && strings.IndexByte("+#./;?&", s[0]) >= 0 {
		s = s[1:]
	}
	for {
		n := varNameLength(s)
		if n == 0 {
			return false
		}
		s = s[n:]
		if s != "" && s[0] == '*' {
			s = s[1:]
		} else if s != "" && s[0] == ':' {
			digits := countDigits(s[1:])
			if digits == 0 || digits > 4 || s[1] == '0' {
				return false
			}
			s = s[1+digits:]
		}
		if s == "" {
			return true
		}
		if s[0] != ',' {
			return false
		}
		s = s[1:]
	}
}

// varNameLength returns the length of the RFC 6570 varname s starts with
// (varchars, a single dot between two of them), or 0 when there is none.
func varNameLength(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if varChar.has(c) {
			n++
		} else if c == '%' && n+2 < len(s) && isHexDigit(s[n+1]) && isHexDigit(s[n+2]) {
			n += 3
		} else if c == '.' && n > 0 && s[n-1] != '.' {
			n++
		} else {
			break
		}
	}
	if n > 0 && s[n-1] == '.' {
		return 0
	}
	return n
}
