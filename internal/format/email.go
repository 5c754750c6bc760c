package format

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxLocalPart is the most octets in the local part of an address (RFC
// 5321 §4.5.3.1.1).
const maxLocalPart = 64

// atext is the ASCII of an atom (RFC 5322 §3.2.3, which RFC 5321 cites).
var atext = newASCIISet(alpha, digit, "!#$%&'*+-/=?^_`{|}~")

// isEmail reports whether s is an e-mail address as RFC 5321 §4.1.2's
// Mailbox: a local part of at most 64 octets, a dot-string of atoms or a
// quoted string, then "@" and a host name (isHostname) or an address
// literal, "[" IPv4 "]" or "[IPv6:" IPv6 "]". Earlier dialects cite RFC
// 5322's addr-spec, whose wider domain syntax RFC 5322 §3.4.1 itself
// defers to RFC 5321; comments, folding white space and obsolete forms
// are not addresses here. An IPv6 literal that elides groups writes at
// most six (RFC 5321 IPv6-comp); general address literals are refused,
// as no standardized tag but IPv6 exists.
func isEmail(s string) bool { return isMailbox(s, false) }

// isIDNEmail reports whether s is an internationalized e-mail address
// (RFC 6531 §3.3): isEmail's grammar in which atoms and quoted strings
// may hold any non-ASCII character and the domain may hold U-labels.
// NFC is only a recommendation for addresses (RFC 6532 §3.1), so the
// domain is normalized to NFC before its labels are checked.
func isIDNEmail(s string) bool { return isMailbox(s, true) }

// isMailbox reports whether s is an RFC 5321 Mailbox; idn admits RFC
// 6531's extensions.
func isMailbox(s string, idn bool) bool {
	at := strings.LastIndexByte(s, '@')
	if at < 0 || at > maxLocalPart || !utf8.ValidString(s[:at]) || !isLocalPart(s[:at], idn) {
		return false
	}
	domain := s[at+1:]
	if literal, ok := strings.CutPrefix(domain, "["); ok {
		literal, ok = strings.CutSuffix(literal, "]")
		return ok && isAddressLiteral(literal)
	}
	if !idn {
		return isDomainName(domain, checkALabels)
	}
	// A valid domain has at most maxName code points in NFC, each the
	// composition of at most four (the longest canonical decomposition) of
	// up to four octets: longer text cannot normalize to one, and is
	// refused before normalization copies it.
	if len(domain) > 4*4*maxName || !utf8.ValidString(domain) {
		return false
	}
	if !isNFC(domain) {
		domain = norm.NFC.String(domain)
	}
	return isDomainName(domain, checkALabels|allowULabels)
}

// isLocalPart reports whether s is an RFC 5321 Local-part: a Dot-string
// (atoms joined by single dots) or a Quoted-string; idn lets both hold
// non-ASCII characters (RFC 6531 UTF8-non-ascii). s is valid UTF-8.
func isLocalPart(s string, idn bool) bool {
	if s == "" {
		return false
	}
	if s[0] == '"' {
		return isQuotedString(s, idn)
	}
	atom := 0 // length of the atom being read
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case atext.has(c):
			i++
		case c == '.' && atom > 0:
			atom, i = 0, i+1
			continue
		case c >= utf8.RuneSelf && idn: // valid UTF-8: isMailbox checked
			i++
		default:
			return false
		}
		atom++
	}
	return atom > 0
}

// isQuotedString reports whether s, which starts with a double quote, is
// an RFC 5321 Quoted-string: printable ASCII but '"' and '\', or a
// backslash before a printable ASCII character, up to a closing double
// quote that ends s.
func isQuotedString(s string, idn bool) bool {
	for i := 1; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			return i == len(s)-1
		case c == '\\':
			if i+1 == len(s) || s[i+1] < ' ' || s[i+1] > '~' {
				return false
			}
			i += 2
		case c >= ' ' && c <= '~':
			i++
		case c >= utf8.RuneSelf && idn: // valid UTF-8: isMailbox checked
			i++
		default:
			return false
		}
	}
	return false
}

// isAddressLiteral reports whether s, the text between "[" and "]", is an
// RFC 5321 IPv4-address-literal or IPv6-address-literal. Their IPv4
// octets are Snums, which may have leading zeros ([001.2.3.4]), unlike
// those of format ipv4.
func isAddressLiteral(s string) bool {
	if !hasASCIIPrefixFold(s, "ipv6:") {
		return isDottedQuad(s, snum)
	}
	groups, elided, ok := ipv6Groups(s[len("ipv6:"):], snum)
	return ok && (!elided || groups <= 6)
}
