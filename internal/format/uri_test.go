package format_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/format"
)

// uriAndReference are strings that are URIs, hence URI references and
// IRIs and IRI references too.
var uriAndReference = []formatCase{
	valid("RFC 3986 §1.1.2 ftp", "ftp://ftp.is.co.za/rfc/rfc1808.txt"),
	valid("RFC 3986 §1.1.2 ldap", "ldap://[2001:db8::7]/c=GB?objectClass?one"),
	valid("RFC 3986 §1.1.2 mailto", "mailto:John.Doe@example.com"),
	valid("RFC 3986 §1.1.2 telnet with port", "telnet://192.0.2.16:80/"),
	valid("RFC 3986 §1.1.2 urn", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2"),
	valid("scheme only", "about:"),
	valid("scheme characters", "a+b-c.d:x"),
	valid("upper-case scheme", "HTTP://EXAMPLE.COM/"),
	valid("userinfo", "https://user:pass@example.com/"),
	valid("empty port", "http://example.com:/"),
	valid("empty host", "file:///etc/hosts"),
	valid("IPvFuture", "http://[v7.a:b]/"),
	valid("IPv4 host", "http://192.0.2.1/"),
	valid("reg-name with sub-delims and pct-encoding", "http://a!$&'()*+,;=%41/"),
	valid("query and fragment with slash and question mark", "http://a/b?c/d?e#f/g?h"),
	valid("empty query and fragment", "http://a/?#"),
	valid("colon and at in the path", "http://a/b:c@d"),
	valid("double slash in the path", "http://a/b//c"),
	valid("pct-encoded upper and lower case", "http://a/%7e%7E"),
}

// notReferences are strings that are neither URI nor IRI references.
var notReferences = []formatCase{
	invalid("space", "http://a/b c"),
	invalid("backslash", `http://a/b\c`),
	invalid("lone percent", "http://a/%"),
	invalid("short percent", "http://a/%4"),
	invalid("non-hex percent", "http://a/%4g"),
	invalid("angle brackets", "http://a/<b>"),
	invalid("two fragments", "http://a/#b#c"),
	invalid("two at signs", "http://a@b@c/"),
	invalid("non-numeric port", "http://a:b/"),
	invalid("two ports", "http://a:1:2/"),
	invalid("unclosed IP literal", "http://[::1/"),
	invalid("junk after an IP literal", "http://[::1]x/"),
	invalid("bad IPv6 literal", "http://[1::2::3]/"),
	invalid("IPv6 zone", "http://[fe80::1%25eth0]/"),
	invalid("IPvFuture without a version", "http://[v.a]/"),
	invalid("IPvFuture without an address", "http://[v1.]/"),
	invalid("bracket in a path", "http://a/[b]"),
	invalid("scheme starting with a digit", "1a:b"),
	invalid("empty scheme", ":a"),
	invalid("colon in a first relative segment", "-a:b"),
	invalid("control character", "http://a/\x7f"),
	invalid("invalid UTF-8", "http://a/\xff"),
	invalid("bidirectional formatting character", "http://a/\u200e"),
}

// relativeReferences are URI (and IRI) references that are not URIs.
var relativeReferences = []formatCase{
	valid("empty", ""),
	valid("network-path", "//example.com/a"),
	valid("absolute path", "/a/b"),
	valid("relative path", "a/b"),
	valid("dot segments", "../a/./b"),
	valid("colon after the first segment", "a/b:c"),
	valid("colon after a dot segment", "./a:b"),
	valid("query only", "?a=b"),
	valid("fragment only", "#a"),
}

func TestURI(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft4, "uri", uriAndReference)
	checkFormat(t, format.Draft4, "uri", asInvalid(relativeReferences))
	checkFormat(t, format.Draft4, "uri", notReferences)
	checkFormat(t, format.Draft4, "uri", []formatCase{
		invalid("non-ASCII path", "http://a/é"),
		invalid("non-ASCII host", "http://é/"),
	})
}

func TestURIReference(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft6, "uri-reference", uriAndReference)
	checkFormat(t, format.Draft6, "uri-reference", relativeReferences)
	checkFormat(t, format.Draft6, "uri-reference", notReferences)
	checkFormat(t, format.Draft6, "uri-reference", []formatCase{
		invalid("colon in the first segment", "_a:b/c"),
		invalid("non-ASCII", "/é"),
	})
}

// iriOnly are IRIs that are not URIs.
var iriOnly = []formatCase{
	valid("non-ASCII path", "http://a/é"),
	valid("non-ASCII host", "http://例え.テスト/"),
	valid("non-ASCII userinfo, query and fragment", "http://ü@a/?ö#ä"),
	valid("supplementary plane", "http://a/𐍈"),
	valid("private use in the query", "http://a/?\ue000"),
	invalid("private use in the path", "http://a/\ue000"),
	invalid("private use in the fragment", "http://a/#\ue000"),
	invalid("noncharacter", "http://a/\ufdd0"),
	invalid("specials block", "http://a/\ufff0"),
	invalid("C1 control", "http://a/\u0085"),
	invalid("right-to-left override", "http://a/\u202e"),
	invalid("non-ASCII scheme", "é:a"),
	invalid("non-ASCII port", "http://a:١/"),
	invalid("non-ASCII in an IP literal", "http://[::é]/"),
}

func TestIRI(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft7, "iri", uriAndReference)
	checkFormat(t, format.Draft7, "iri", asInvalid(relativeReferences))
	checkFormat(t, format.Draft7, "iri", notReferences)
	checkFormat(t, format.Draft7, "iri", iriOnly)
}

func TestIRIReference(t *testing.T) {
	t.Parallel()
	checkFormat(t, format.Draft7, "iri-reference", uriAndReference)
	checkFormat(t, format.Draft7, "iri-reference", relativeReferences)
	checkFormat(t, format.Draft7, "iri-reference", notReferences)
	checkFormat(t, format.Draft7, "iri-reference", iriOnly)
	checkFormat(t, format.Draft7, "iri-reference", []formatCase{
		valid("relative non-ASCII path", "ü/ö"),
		invalid("colon in a first relative segment", "ü:ö"),
	})
}

// asInvalid returns cases with every verdict false, for strings that a
// stricter format refuses.
func asInvalid(cases []formatCase) []formatCase {
	out := make([]formatCase, len(cases))
	for i, tc := range cases {
		out[i] = invalid(tc.why, tc.value)
	}
	return out
}
