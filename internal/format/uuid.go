package format

// isUUID reports whether s is a UUID in the string form of RFC 4122 §3:
// 32 hex digits, either case, grouped 8-4-4-4-12 by hyphens. Every version
// and variant is accepted; no "urn:uuid:" prefix or braces.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if s[i] != '-' {
				return false
			}
		} else if !isHexDigit(s[i]) {
			return false
		}
	}
	return true
}
