package format_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/format"
)

func TestEmail(t *testing.T) {
	t.Parallel()
	local64 := strings.Repeat("a", 64)
	cases := []formatCase{
		valid("plain", "user@example.com"),
		valid("every atext character", "!#$%&'*+-/=?^_`{|}~@example.com"),
		valid("dots between atoms", "first.middle.last@example.com"),
		valid("64-octet local part", local64+"@example.com"),
		valid("quoted string with space and at", `"john doe@home"@example.com`),
		valid("quoted pair", `"a\"b\\c"@example.com`),
		valid("empty quoted string", `""@example.com`),
		valid("single-label domain", "root@localhost"),
		valid("A-label domain", "user@xn--mnchen-3ya.de"),
		valid("IPv4 literal", "user@[192.0.2.1]"),
		valid("IPv6 literal", "user@[IPv6:2001:db8::1]"),
		valid("IPv6 tag in any case", "user@[ipv6:2001:db8::1]"),
		valid("IPv6 literal with six groups and an elision", "user@[IPv6:1:2:3:4:5:6::]"),
		valid("IPv6 literal, full", "user@[IPv6:1:2:3:4:5:6:7:8]"),
		// RFC 5321 §4.1.3: Snum = 1*3DIGIT, 0 through 255 (format ipv4
		// refuses these leading zeros).
		valid("IPv4 literal with leading zeros (Snum)", "user@[01.2.3.4]"),
		valid("IPv4 literal of three-digit Snums", "user@[001.002.003.000]"),
		valid("IPv4 literal with leading zeros in an IPv6 literal", "user@[IPv6:::ffff:01.2.3.4]"),
		valid("IPv4 literal with leading zeros in a full IPv6 literal", "user@[IPv6:1:2:3:4:5:6:010.0.0.1]"),
		invalid("65-octet local part", local64+"a@example.com"),
		invalid("no at", "user.example.com"),
		invalid("empty local part", "@example.com"),
		invalid("empty domain", "user@"),
		invalid("leading dot", ".user@example.com"),
		invalid("trailing dot", "user.@example.com"),
		invalid("double dot", "us..er@example.com"),
		invalid("unquoted space", "us er@example.com"),
		invalid("unquoted at", "us@er@example.com"),
		invalid("unclosed quote", `"user@example.com`),
		invalid("text after the closing quote", `"us"er@example.com`),
		invalid("control in quoted string", "\"a\x01b\"@example.com"),
		invalid("backslash ending a quoted string", `"a\"@example.com`),
		invalid("non-ASCII local part", "usér@example.com"),
		invalid("non-ASCII domain", "user@exämple.com"),
		invalid("domain label with underscore", "user@ex_ample.com"),
		invalid("domain ending in a dot", "user@example.com."),
		invalid("bad A-label", "user@xn--X.com"),
		invalid("IPv4 literal out of range", "user@[192.0.2.256]"),
		invalid("IPv4 literal with a four-digit Snum", "user@[192.0.2.0001]"),
		invalid("IPv4 literal with an empty Snum", "user@[192.0..1]"),
		invalid("IPv4 literal with three octets", "user@[192.0.2]"),
		invalid("IPv4 literal with five octets", "user@[192.0.2.1.5]"),
		invalid("IPv4 literal with leading zeros out of range", "user@[192.0.2.0256]"),
		invalid("IPv4 literal in an IPv6 literal out of range", "user@[IPv6:::ffff:1.2.3.256]"),
		invalid("IPv6 without its tag", "user@[2001:db8::1]"),
		invalid("IPv6 literal eliding a single group (RFC 5321 IPv6-comp)", "user@[IPv6:1:2:3:4:5:6:7::]"),
		invalid("general address literal", "user@[x400:c=us;a=;p=example]"),
		invalid("unclosed literal", "user@[192.0.2.1"),
		invalid("display name", "User <user@example.com>"),
		invalid("comment", "user(comment)@example.com"),
		invalid("two addresses", "a@example.com,b@example.com"),
		invalid("empty", ""),
	}
	for _, dialect := range []format.Dialect{format.Draft4, format.Draft7, format.Draft2020} {
		t.Run(dialect.String(), func(t *testing.T) {
			t.Parallel()
			checkFormat(t, dialect, "email", cases)
		})
	}
}

func TestIDNEmail(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft2020, "idn-email", []formatCase{
		valid("ASCII", "user@example.com"),
		valid("non-ASCII local part", "josé@example.com"),
		valid("non-ASCII quoted local part", `"josé garcía"@example.com`),
		valid("U-label domain", "user@münchen.de"),
		valid("A-label domain", "user@xn--mnchen-3ya.de"),
		valid("domain not in NFC", "user@mu\u0308nchen.de"),
		valid("Hangul", "실례@실례.테스트"),
		valid("IPv6 literal", "josé@[IPv6:::1]"),
		valid("IPv4 literal with leading zeros (Snum)", "josé@[01.2.3.4]"),
		valid("IPv4 literal with leading zeros in an IPv6 literal", "josé@[IPv6:::ffff:01.2.3.4]"),
		invalid("IPv4 literal with a four-digit Snum", "josé@[1.2.3.0004]"),
		valid("64 octets of non-ASCII", strings.Repeat("é", 32)+"@example.com"),
		invalid("65 octets of non-ASCII", strings.Repeat("é", 32)+"a@example.com"),
		invalid("disallowed code point in the domain", "user@exa✓mple.com"),
		invalid("upper-case U-label", "user@MÜNCHEN.de"),
		invalid("ideographic full stop in the domain", "user@münchen。de"),
		invalid("invalid UTF-8 in the local part", "us\xffer@example.com"),
		invalid("invalid UTF-8 in the quoted local part", "\"us\xffer\"@example.com"),
		invalid("invalid UTF-8 in the domain", "user@ex\xffample.com"),
		invalid("fullwidth at", "user＠example.com"),
		invalid("domain too long to normalize to a valid one", "user@"+strings.Repeat("e\u0301", 1400)),
		invalid("long domain already in NFC", "user@"+strings.Repeat("é", 254)),
		invalid("double dot", "jo..sé@example.com"),
	})
}
