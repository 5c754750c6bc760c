package format_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/format"
)

func TestHostname(t *testing.T) {
	t.Parallel()
	label63 := strings.Repeat("a", 63)
	name253 := strings.Repeat(strings.Repeat("a", 62)+".", 4) + "a" // 4×63 + 1
	checkFormat(t, format.Draft2020, "hostname", []formatCase{
		valid("one label", "localhost"),
		valid("digits first (RFC 1123)", "3com.example"),
		valid("all digits", "123.example"),
		valid("inner hyphens", "a-b--c.example"),
		valid("upper case", "WWW.EXAMPLE.COM"),
		valid("63-octet label", label63+".example"),
		valid("253 octets", name253),
		valid("A-label", "xn--mnchen-3ya.de"),
		valid("A-label, upper case", "XN--MNCHEN-3YA.DE"),
		valid("reserved LDH label that is not xn--", "ab--cd.example"),
		invalid("64-octet label", label63+"a.example"),
		invalid("254 octets", name253+"a"),
		invalid("empty", ""),
		invalid("empty label", "a..b"),
		invalid("leading hyphen", "-a.example"),
		invalid("trailing hyphen", "a-.example"),
		invalid("underscore", "_srv.example"),
		invalid("space", "a b.example"),
		invalid("final dot", "example.com."),
		invalid("non-ASCII", "münchen.de"),
		invalid("fullwidth full stop", "example．com"),
		invalid("Punycode that is not", "xn--.example"),
		invalid("Punycode of ASCII only", "xn--abc-.example"),
		invalid("Punycode of a disallowed code point (U+2713 CHECK MARK)", "xn--hkh.example"),
		valid("A-label of a single code point", "xn--tda.example"),
		invalid("A-label with a delimiter but no basic code points", "xn---tda.example"),
		valid("right-to-left A-label", "xn--4db.example"),
		invalid("right-to-left A-label beside a label starting with a digit (Bidi rule)", "xn--4db.1a"),
	})
}

func TestRFC1034Hostname(t *testing.T) {
	t.Parallel()
	cases := []formatCase{
		valid("letters", "www.example.com"),
		valid("letter first, digit last", "a1.example"),
		valid("Punycode is not decoded", "xn--X.example"),
		invalid("digit first", "3com.example"),
		invalid("hyphen last", "a-.example"),
		invalid("64-octet label", strings.Repeat("a", 64)),
		invalid("non-ASCII", "münchen.de"),
		invalid("final dot", "example."),
	}
	for _, dialect := range []format.Dialect{format.Draft4, format.Draft6} {
		t.Run(dialect.String(), func(t *testing.T) {
			t.Parallel()
			checkFormat(t, dialect, "hostname", cases)
		})
	}
}

func TestIDNHostname(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft2020, "idn-hostname", []formatCase{
		valid("ASCII", "www.example.com"),
		valid("U-label", "münchen.de"),
		valid("A-label", "xn--mnchen-3ya.de"),
		valid("mixed labels", "bücher.xn--mnchen-3ya.example"),
		valid("ideographic full stop", "例え。テスト"),
		valid("Hebrew (right to left)", "אבג.example"),
		valid("Arabic with Arabic-Indic digits", "مثال٣"),
		valid("ZWNJ after a virama", "क्\u200cष"),
		valid("ZWNJ between joining Arabic letters with a transparent mark", "ب\u064b\u200cب"),
		valid("middle dot between l's (Catalan)", "col·lecció"),
		valid("Greek keraia before Greek", "α͵β"),
		valid("katakana middle dot with Han", "中・国"),
		valid("sharp s is PVALID", "straße.de"),
		valid("final sigma is PVALID", "ς.example"),
		valid("U-label whose A-label has 63 octets", strings.Repeat("a", 55)+"ä"),
		invalid("U-label whose A-label has 64 octets", strings.Repeat("a", 56)+"ä"),
		valid("Bengali vowel sign AA (NFC quick check Maybe)", "বাংলা.example"),
		valid("its A-label", "xn--54b7fta0cc.example"),
		valid("Devanagari with a virama", "नमस्ते.example"),
		valid("its A-label", "xn--h2bhs4b8d8a.example"),
		invalid("upper case in a U-label", "München.de"),
		invalid("not NFC", "mu\u0308nchen.de"),
		invalid("disallowed symbol", "✓.example"),
		invalid("emoji", "😀.example"),
		invalid("leading combining mark", "\u0301a.example"),
		invalid("hyphens in the third and fourth places", "ab--ü.example"),
		invalid("leading hyphen", "-ü.example"),
		invalid("ZWJ without a virama", "a\u200db"),
		invalid("ZWNJ between non-joining letters", "a\u200cb"),
		invalid("ZWNJ after a right-joining letter", "ا\u200cب"),
		invalid("middle dot not between l's", "a·b"),
		invalid("keraia at the end", "α͵"),
		invalid("geresh after Latin", "a׳"),
		invalid("katakana middle dot with Latin only", "a・b"),
		invalid("Arabic-Indic and extended digits", "٣۳"),
		invalid("tatweel is DISALLOWED", "بـب"),
		invalid("right-to-left label ending in a left-to-right letter", "אa"),
		invalid("left-to-right label in a Bidi name starting with a digit", "1a.אב"),
		invalid("Arabic-Indic and European digits in one label", "ب٣3"),
		invalid("A-label too long", strings.Repeat("ä", 60)),
		invalid("name too long in A-label form", strings.Repeat("ü.", 50)+"a"),
		invalid("empty label", "ü..de"),
		invalid("final ideographic full stop", "例え。"),
		invalid("invalid UTF-8", "m\xfcnchen.de"),
		invalid("space", "mün chen.de"),
	})
}
