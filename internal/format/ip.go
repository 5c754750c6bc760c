package format

// isIPv4 reports whether s is an IPv4 address in dotted-quad form (RFC
// 2673 §3.2): four decimal octets 0-255 joined by dots, none written with
// a leading zero (RFC 3986 dec-octet), nothing around them.
func isIPv4(s string) bool { return isDottedQuad(s, decOctet) }

// isDottedQuad reports whether s is four decimal octets joined by dots,
// nothing around them, each as octet reads it: octet returns the length
// of the octet s starts with, or 0 when none is there.
func isDottedQuad(s string, octet func(string) int) bool {
	for i := 0; i < 4; i++ {
		n := octet(s)
		if n == 0 {
			return false
		}
		s = s[n:]
		if i < 3 {
			if s == "" || s[0] != '.' {
				return false
			}
			s = s[1:]
		}
	}
	return s == ""
}

// decOctet returns the length of the RFC 3986 dec-octet s starts with, or
// 0 when the digits there are not one (none, a leading zero, past 255).
func decOctet(s string) int {
	n := countDigits(s)
	value, ok := decimalDigits(s[:n])
	if !ok || n > 3 || value > 255 || (n > 1 && s[0] == '0') {
		return 0
	}
	return n
}

// snum returns the length of the RFC 5321 §4.1.3 Snum s starts with, or 0
// when the digits there are not one (none, more than three, past 255):
// unlike a dec-octet it may have leading zeros (001).
func snum(s string) int {
	n := countDigits(s)
	value, ok := decimalDigits(s[:n])
	if !ok || n > 3 || value > 255 {
		return 0
	}
	return n
}

// isIPv6 reports whether s is an IPv6 address in a text form of RFC 4291
// §2.2: eight groups of one to four hex digits, any run of them elided
// once with "::", the last two optionally written as a dotted-quad IPv4
// address. No zone (RFC 4007 "%eth0"), prefix length or brackets.
func isIPv6(s string) bool {
	_, _, ok := ipv6Groups(s, decOctet)
	return ok
}

// ipv6Groups parses s as isIPv6 does, but reads the octets of a dotted
// quad with octet (see isDottedQuad), and also returns how many 16-bit
// groups it writes out (a dotted quad counts two) and whether it elides
// others with "::".
func ipv6Groups(s string, octet func(string) int) (groups int, elided, ok bool) {
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		elided, s = true, s[2:]
	}
	for s != "" {
		n := 0
		for n < len(s) && isHexDigit(s[n]) {
			n++
		}
		if n < len(s) && s[n] == '.' {
			// A dotted quad ends the address and fills its last two groups.
			if !isDottedQuad(s, octet) {
				return 0, false, false
			}
			groups, s = groups+2, ""
			break
		}
		if n == 0 || n > 4 {
			return 0, false, false
		}
		groups, s = groups+1, s[n:]
		switch {
		case s == "":
		case len(s) >= 2 && s[0] == ':' && s[1] == ':':
			if elided {
				return 0, false, false
			}
			elided, s = true, s[2:]
		case s[0] == ':' && len(s) > 1:
			s = s[1:]
		default:
			return 0, false, false
		}
	}
	if (elided && groups > 7) || (!elided && groups != 8) {
		return 0, false, false
	}
	return groups, elided, true
}
