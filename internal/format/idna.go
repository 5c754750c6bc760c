package format

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/bidi"
	"golang.org/x/text/unicode/norm"
)

// isULabelText reports whether text is a U-label and, if so, returns the
// length of its A-label ("xn--" and the Punycode), whether it holds
// right-to-left characters and whether it satisfies the Bidi rule.
func isULabelText(text string) (aLength int, rtl, bidiOK, ok bool) {
	var buf [maxLabel]rune
	n := 0
	for _, r := range text {
		if n == len(buf) {
			return 0, false, false, false
		}
		buf[n] = r
		n++
	}
	label := buf[:n]
	if !utf8.ValidString(text) || !isULabel(label) || !isNFCRunes(label) {
		return 0, false, false, false
	}
	var encoded [maxLabel - len("xn--")]byte
	m, fits := punycodeEncode(encoded[:], label)
	if !fits {
		return 0, false, false, false
	}
	rtl, bidiOK = bidiRule(label)
	return len("xn--") + m, rtl, bidiOK, true
}

// isALabel reports whether label, LDH text starting with "xn--" in any
// case, is an A-label (RFC 5890 §2.3.2.1, RFC 5891 §5.3): its Punycode
// decodes to a U-label holding at least one non-ASCII character and
// encodes back to itself. ASCII case is ignored throughout, as in DNS.
// It also returns whether the U-label holds right-to-left characters and
// whether it satisfies the Bidi rule.
func isALabel(label string) (rtl, bidiOK, ok bool) {
	var buf [maxLabel]rune
	n, decoded := punycodeDecode(buf[:], label[len("xn--"):])
	if !decoded {
		return false, false, false
	}
	runes := buf[:n]
	for i, r := range runes {
		// DNS names ignore ASCII case, and so does this label: a basic
		// code point in upper case is only Punycode's case annotation.
		if r >= 'A' && r <= 'Z' {
			runes[i] = r + 'a' - 'A'
		}
	}
	var encoded [maxLabel]byte
	m, fits := punycodeEncode(encoded[:], runes)
	if !fits || !equalASCIIFold(encoded[:m], label[len("xn--"):]) || !hasNonASCII(runes) {
		return false, false, false
	}
	if !isULabel(runes) || !isNFCRunes(runes) {
		return false, false, false
	}
	rtl, bidiOK = bidiRule(runes)
	return rtl, bidiOK, true
}

// isNFC reports whether text is in Unicode Normalization Form C. The
// quick check decides almost every text without allocating; only one
// holding a character that may combine with what precedes it (a
// decomposed accent, say) takes x/text's full check, which allocates.
func isNFC(text string) bool {
	return norm.NFC.QuickSpanString(text) == len(text) || norm.NFC.IsNormalString(text)
}

// isNFCRunes reports whether code points that pass isULabel are, as
// text, in NFC. It runs the quick check of UAX #15 §9, which decides
// without allocating unless a code point may compose with the one before
// it (nfcMaybe: a combining accent, a Bengali vowel sign); then the text
// takes isNFC on a copy. (PVALID code points are never NFC_QC=No.)
func isNFCRunes(runes []rune) bool {
	var buf [utf8.UTFMax]byte
	var last uint8
	for _, r := range runes {
		class := norm.NFC.Properties(buf[:utf8.EncodeRune(buf[:], r)]).CCC()
		if class != 0 && last > class {
			return false
		}
		if unicode.Is(nfcMaybe, r) {
			return isNFC(string(runes))
		}
		last = class
	}
	return true
}

// isULabel reports whether label, NFC text, meets the U-label rules of
// RFC 5891 §4.2.3 that do not involve its neighbours: no hyphen first,
// last, or in both the third and fourth places; no combining mark first;
// and each code point PVALID under RFC 5892, or CONTEXTJ or CONTEXTO
// with its rule from RFC 5892 Appendix A satisfied.
func isULabel(label []rune) bool {
	n := len(label)
	if n == 0 || label[0] == '-' || label[n-1] == '-' || (n >= 4 && label[2] == '-' && label[3] == '-') ||
		unicode.Is(unicode.M, label[0]) {
		return false
	}
	for i, r := range label {
		if !unicode.Is(idnaPValid, r) && !contextRuleHolds(label, i) {
			return false
		}
	}
	return true
}

// The code points with a contextual rule (RFC 5892 Appendix A).
const (
	zeroWidthNonJoiner = 0x200C // CONTEXTJ, A.1
	zeroWidthJoiner    = 0x200D // CONTEXTJ, A.2
	middleDot          = 0x00B7 // CONTEXTO, A.3
	greekKeraia        = 0x0375 // CONTEXTO, A.4
	hebrewGeresh       = 0x05F3 // CONTEXTO, A.5
	hebrewGershayim    = 0x05F4 // CONTEXTO, A.6
	katakanaMiddleDot  = 0x30FB // CONTEXTO, A.7
	arabicIndicZero    = 0x0660 // CONTEXTO, A.8: 0660..0669
	extArabicIndicZero = 0x06F0 // CONTEXTO, A.9: 06F0..06F9
	viramaClass        = 9      // Canonical_Combining_Class of a virama
)

// contextRuleHolds reports whether label[i] is CONTEXTJ or CONTEXTO and
// its rule holds there.
func contextRuleHolds(label []rune, i int) bool {
	r := label[i]
	switch {
	case r == zeroWidthNonJoiner:
		return followsVirama(label, i) || joinsAcross(label, i)
	case r == zeroWidthJoiner:
		return followsVirama(label, i)
	case r == middleDot:
		return i > 0 && i+1 < len(label) && label[i-1] == 'l' && label[i+1] == 'l'
	case r == greekKeraia:
		return i+1 < len(label) && unicode.Is(unicode.Greek, label[i+1])
	case r == hebrewGeresh || r == hebrewGershayim:
		return i > 0 && unicode.Is(unicode.Hebrew, label[i-1])
	case r == katakanaMiddleDot:
		for _, c := range label {
			if unicode.In(c, unicode.Hiragana, unicode.Katakana, unicode.Han) {
				return true
			}
		}
		return false
	case r >= arabicIndicZero && r <= arabicIndicZero+9:
		return !containsDigitOf(label, extArabicIndicZero)
	case r >= extArabicIndicZero && r <= extArabicIndicZero+9:
		return !containsDigitOf(label, arabicIndicZero)
	}
	return false
}

// followsVirama reports whether the code point before label[i] has the
// canonical combining class of a virama.
func followsVirama(label []rune, i int) bool {
	if i == 0 {
		return false
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], label[i-1])
	return norm.NFD.Properties(buf[:n]).CCC() == viramaClass
}

// joinsAcross reports whether the zero width non-joiner at label[i] sits
// where RFC 5892 A.1's regular expression allows it: a left- or
// dual-joining character before it and a right- or dual-joining one after
// it, with only transparent ones between.
func joinsAcross(label []rune, i int) bool {
	before := i - 1
	for before >= 0 && unicode.Is(joiningTransparent, label[before]) {
		before--
	}
	after := i + 1
	for after < len(label) && unicode.Is(joiningTransparent, label[after]) {
		after++
	}
	return before >= 0 && unicode.Is(joiningLeftOrDual, label[before]) &&
		after < len(label) && unicode.Is(joiningRightOrDual, label[after])
}

// containsDigitOf reports whether label holds one of the ten digits that
// start at zero.
func containsDigitOf(label []rune, zero rune) bool {
	for _, r := range label {
		if r >= zero && r <= zero+9 {
			return true
		}
	}
	return false
}

// bidiRule reports whether label holds a character of Bidi class R, AL
// or AN (which makes its domain name a Bidi domain name, RFC 5893 §1.4)
// and whether it satisfies the six conditions of the Bidi rule (§2).
func bidiRule(label []rune) (rtl, ok bool) {
	first := bidiClass(label[0])
	rtlLabel := first == bidi.R || first == bidi.AL
	ok = rtlLabel || first == bidi.L
	var hasEN, hasAN bool
	last := first
	for _, r := range label {
		class := bidiClass(r)
		switch class {
		case bidi.R, bidi.AL:
			rtl = true
			ok = ok && rtlLabel
		case bidi.AN:
			rtl, hasAN = true, true
			ok = ok && rtlLabel
		case bidi.L:
			ok = ok && !rtlLabel
		case bidi.EN:
			hasEN = true
		case bidi.ES, bidi.CS, bidi.ET, bidi.ON, bidi.BN, bidi.NSM:
		default:
			ok = false
		}
		if class != bidi.NSM {
			last = class
		}
	}
	if rtlLabel {
		ok = ok && (last == bidi.R || last == bidi.AL || last == bidi.EN || last == bidi.AN) && !(hasEN && hasAN)
	} else {
		ok = ok && (last == bidi.L || last == bidi.EN)
	}
	return rtl, ok
}

func bidiClass(r rune) bidi.Class {
	p, _ := bidi.LookupRune(r)
	return p.Class()
}

// hasNonASCII reports whether any of runes is past ASCII.
func hasNonASCII(runes []rune) bool {
	for _, r := range runes {
		if r >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// equalASCIIFold reports whether a and b are equal ignoring the case of
// ASCII letters.
func equalASCIIFold(a []byte, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(isAlpha(a[i]) && a[i]|0x20 == b[i]|0x20) {
			return false
		}
	}
	return true
}
