package format

import (
	"strings"
	"unicode/utf8"
)

// DNS bounds: octets in a label (RFC 1035 §2.3.4), and characters in a
// name written without its final dot (255 octets on the wire, RFC 1034
// §3.1, less the length octet of the first label and the root).
const (
	maxLabel = 63
	maxName  = 253
)

// hostRules selects the reading of a domain name.
type hostRules uint8

const (
	// letterFirst: a label starts with a letter (RFC 1034 §3.1); without
	// it a digit may start one too (RFC 1123 §2.1).
	letterFirst hostRules = 1 << iota
	// checkALabels: a label starting "xn--" must be an A-label, and a
	// name holding right-to-left labels must follow the Bidi rule.
	checkALabels
	// allowULabels: a label may be a U-label (RFC 5890 §2.3.2.1).
	allowULabels
	// ideographicDots: U+3002, U+FF0E and U+FF61 separate labels as "."
	// does (RFC 3490 §3.1).
	ideographicDots
)

// isHostname reports whether s is a host name as draft-07 and later cite
// it: RFC 1123 §2.1 (labels of letters, digits and inner hyphens, 1-63
// octets, 253 in all, no final dot) in which every label starting "xn--"
// is an A-label of RFC 5890/5891.
func isHostname(s string) bool { return isDomainName(s, checkALabels) }

// isRFC1034Hostname reports whether s is a host name as draft-04 and
// draft-06 cite it: RFC 1034 §3.1's preferred name syntax, in which a
// label starts with a letter; Punycode is not looked into.
func isRFC1034Hostname(s string) bool { return isDomainName(s, letterFirst) }

// isIDNHostname reports whether s is an internationalized host name (RFC
// 5890 §2.3.2.3): labels that are host name labels, A-labels or U-labels
// (RFC 5891 §5.4, RFC 5892 with its contextual rules, RFC 5893 Bidi
// rule), separated by "." or an ideographic full stop, at most 253
// octets once every U-label is written as its A-label.
func isIDNHostname(s string) bool {
	return isDomainName(s, checkALabels|allowULabels|ideographicDots)
}

// isDomainName reports whether s is a domain name under rules.
func isDomainName(s string, rules hostRules) bool {
	if s == "" || (rules&allowULabels == 0 && len(s) > maxName) {
		return false
	}
	length := -1 // of the name in A-label form: each label and a dot before it
	bidiDomain, bidiOK := false, true
	for {
		label, rest, more := cutLabel(s, rules&ideographicDots != 0)
		aLength, rtl, labelBidiOK, ok := checkLabel(label, rules)
		length += 1 + aLength
		if !ok || length > maxName {
			return false
		}
		bidiDomain, bidiOK = bidiDomain || rtl, bidiOK && labelBidiOK
		if !more {
			break
		}
		s = rest
	}
	return !bidiDomain || bidiOK
}

// cutLabel splits s at its first label separator.
func cutLabel(s string, ideographic bool) (label, rest string, found bool) {
	if !ideographic {
		return strings.Cut(s, ".")
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '.':
			return s[:i], s[i+1:], true
		case strings.HasPrefix(s[i:], "\u3002"), strings.HasPrefix(s[i:], "\uff0e"), strings.HasPrefix(s[i:], "\uff61"):
			return s[:i], s[i+len("\u3002"):], true
		}
	}
	return s, "", false
}

// checkLabel checks one label under rules and returns the length of its
// A-label form, whether it holds right-to-left characters, and whether it
// satisfies the Bidi rule (RFC 5893 §2), which binds every label of a
// name holding right-to-left ones.
func checkLabel(label string, rules hostRules) (aLength int, rtl, bidiOK, ok bool) {
	if label == "" {
		return 0, false, false, false
	}
	if !isASCII(label) {
		if rules&allowULabels == 0 {
			return 0, false, false, false
		}
		return isULabelText(label)
	}
	if len(label) > maxLabel || !isLDHLabel(label, rules&letterFirst != 0) {
		return 0, false, false, false
	}
	if rules&checkALabels != 0 && hasASCIIPrefixFold(label, "xn--") {
		rtl, bidiOK, ok = isALabel(label)
		return len(label), rtl, bidiOK, ok
	}
	// An LDH label is left-to-right: the Bidi rule asks only that it
	// start with a letter, as it ends with a letter or digit.
	return len(label), false, isAlpha(label[0]), true
}

// isLDHLabel reports whether label is letters, digits and hyphens,
// neither starting nor ending with a hyphen, starting with a letter when
// letterFirst is set.
func isLDHLabel(label string, letterFirst bool) bool {
	last := len(label) - 1
	if label[0] == '-' || label[last] == '-' || (letterFirst && !isAlpha(label[0])) {
		return false
	}
	for i := 0; i < len(label); i++ {
		if c := label[i]; !isAlpha(c) && !isDigit(c) && c != '-' {
			return false
		}
	}
	return true
}

// isASCII reports whether every byte of s is ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
