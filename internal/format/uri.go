package format

import (
	"strings"
	"unicode/utf8"
)

// isURI reports whether s is an RFC 3986 URI: a scheme, ":", and the rest
// of an absolute reference, optionally with a fragment.
func isURI(s string) bool { return isReference(s, false, true) }

// isURIReference reports whether s is an RFC 3986 URI-reference: a URI
// or a relative reference.
func isURIReference(s string) bool { return isReference(s, false, false) }

// isIRI reports whether s is an RFC 3987 IRI: a URI that may also hold
// the Unicode characters RFC 3987 admits (ucschar, and iprivate in the
// query), but no bidirectional formatting character (RFC 3987 §4.1).
func isIRI(s string) bool { return isReference(s, true, true) }

// isIRIReference reports whether s is an RFC 3987 IRI-reference.
func isIRIReference(s string) bool { return isReference(s, true, false) }

// The character classes of RFC 3986 §2 and §3 (pathChar is pchar and
// "/", queryChar serves query and fragment). pct-encoded triplets are
// checked apart, and an IRI adds non-ASCII characters (see allowed).
var (
	unreserved = alpha + digit + "-._~"
	subDelims  = "!$&'()*+,;="
	pathChar   = newASCIISet(unreserved, subDelims, ":@/")
	queryChar  = newASCIISet(unreserved, subDelims, ":@/?")
	userinfo   = newASCIISet(unreserved, subDelims, ":")
	regName    = newASCIISet(unreserved, subDelims)
	ipFuture   = newASCIISet(unreserved, subDelims, ":")
	schemeChar = newASCIISet(alpha, digit, "+-.")
	portChar   = newASCIISet(digit)
)

// isReference reports whether s is a URI-reference (iri: an
// IRI-reference); absolute demands the scheme of a URI (IRI).
func isReference(s string, iri, absolute bool) bool {
	hasScheme := false
	if end := strings.IndexAny(s, ":/?#"); end >= 0 && s[end] == ':' {
		// A colon before any "/", "?" or "#" ends a scheme; a relative
		// reference may not have one there (RFC 3986 path-noscheme).
		if end == 0 || !isAlpha(s[0]) || !allASCII(s[1:end], &schemeChar) {
			return false
		}
		hasScheme, s = true, s[end+1:]
	}
	if absolute && !hasScheme {
		return false
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		if !allowed(s[i+1:], &queryChar, iri, false) {
			return false
		}
		s = s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		if !allowed(s[i+1:], &queryChar, iri, true) {
			return false
		}
		s = s[:i]
	}
	if rest, ok := strings.CutPrefix(s, "//"); ok {
		authority, path := rest, ""
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			authority, path = rest[:i], rest[i:]
		}
		return isAuthority(authority, iri) && allowed(path, &pathChar, iri, false)
	}
	// path-absolute, path-rootless, path-noscheme or path-empty: the
	// scheme test above already kept a colon out of a relative first
	// segment.
	return allowed(s, &pathChar, iri, false)
}

// isAuthority reports whether s is an RFC 3986 authority, [userinfo "@"]
// host [":" port], with RFC 3987's Unicode in userinfo and reg-name for
// an IRI.
func isAuthority(s string, iri bool) bool {
	if i := strings.IndexByte(s, '@'); i >= 0 {
		if !allowed(s[:i], &userinfo, iri, false) {
			return false
		}
		s = s[i+1:]
	}
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || !isIPLiteral(s[1:end]) {
			return false
		}
		host, port = "", s[end+1:]
		if port != "" && port[0] != ':' {
			return false
		}
	} else if i := strings.IndexByte(s, ':'); i >= 0 {
		host, port = s[:i], s[i:]
	}
	if port != "" && !allASCII(port[1:], &portChar) {
		return false
	}
	return allowed(host, &regName, iri, false)
}

// isIPLiteral reports whether s, the text between "[" and "]", is an
// IPv6 address or an RFC 3986 IPvFuture ("v" hex "." ...).
func isIPLiteral(s string) bool {
	if s == "" || (s[0]|0x20) != 'v' {
		return isIPv6(s)
	}
	dot := strings.IndexByte(s, '.')
	if dot < 2 || dot == len(s)-1 {
		return false
	}
	for i := 1; i < dot; i++ {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return allASCII(s[dot+1:], &ipFuture)
}

// allowed reports whether every character of s is in set or a
// pct-encoded triplet; for an IRI also a ucschar other than a
// bidirectional formatting character, and an iprivate one where private
// is set (the query).
func allowed(s string, set *asciiSet, iri, private bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case set.has(c):
			i++
		case c == '%':
			if i+2 >= len(s) || !isHexDigit(s[i+1]) || !isHexDigit(s[i+2]) {
				return false
			}
			i += 3
		case c >= utf8.RuneSelf && iri:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !(isUCSChar(r) && !isBidiFormatting(r)) && !(private && isIPrivate(r)) {
				return false
			}
			i += size
		default:
			return false
		}
	}
	return true
}

// allASCII reports whether every byte of s is in set.
func allASCII(s string, set *asciiSet) bool {
	for i := 0; i < len(s); i++ {
		if !set.has(s[i]) {
			return false
		}
	}
	return true
}

// isUCSChar reports whether r is an RFC 3987 ucschar: a non-ASCII
// character other than a control, surrogate, private-use character or
// noncharacter (and not in the E0000 tag block's first 4096).
func isUCSChar(r rune) bool {
	switch {
	case r < 0xA0:
		return false
	case r <= 0xD7FF:
		return true
	case r < 0xF900:
		return false
	case r <= 0xFDCF:
		return true
	case r < 0xFDF0:
		return false
	case r <= 0xFFEF:
		return true
	case r < 0x10000 || r > 0xEFFFD || (r >= 0xE0000 && r < 0xE1000):
		return false
	}
	return r&0xFFFF <= 0xFFFD
}

// isIPrivate reports whether r is an RFC 3987 iprivate character.
func isIPrivate(r rune) bool {
	return (r >= 0xE000 && r <= 0xF8FF) || (r >= 0xF0000 && r <= 0xFFFFD) || (r >= 0x100000 && r <= 0x10FFFD)
}

// isBidiFormatting reports whether r is one of the bidirectional
// formatting characters RFC 3987 §4.1 keeps out of IRIs: LRM, RLM, LRE,
// RLE, PDF, LRO and RLO.
func isBidiFormatting(r rune) bool {
	return r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E)
}
