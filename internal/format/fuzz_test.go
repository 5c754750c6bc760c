package format

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The fuzz targets feed arbitrary text to each parser-like checker. Beyond
// never panicking, each compares the checker with an independent reading
// where the standard library has one (time, net/netip, a regular
// expression transcribed from the ABNF) and otherwise with the relations
// the grammars imply: a URI is an IRI, an ASCII IRI is a URI, an ASCII
// idn-hostname is a hostname, and so on. Seeds are the suite's strings.

// addSuiteSeeds adds every string of the named suite files, all dialects.
func addSuiteSeeds(f *testing.F, files ...string) {
	f.Helper()
	for _, file := range files {
		paths, err := filepath.Glob(filepath.Join("testdata", "suite", "*", file))
		if err != nil || len(paths) == 0 {
			f.Fatalf("no suite file %s: %v", file, err)
		}
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			var groups []struct {
				Tests []struct{ Data any } `json:"tests"`
			}
			if err := json.Unmarshal(data, &groups); err != nil {
				f.Fatal(path, err)
			}
			for _, group := range groups {
				for _, tc := range group.Tests {
					if s, ok := tc.Data.(string); ok {
						f.Add(s)
					}
				}
			}
		}
	}
}

// durationABNF is RFC 3339 Appendix A's duration as a regular expression.
var durationABNF = regexp.MustCompile(`^P(?:[0-9]+W|(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)` +
	`(?:T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))?` +
	`|T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))$`)

// FuzzDateTime checks date-time, date, time and duration. Go's time.Parse
// reads RFC 3339 too, with a few liberties and omissions (below); where
// none of them is in play the two must agree.
func FuzzDateTime(f *testing.F) {
	addSuiteSeeds(f, "date-time.json", "date.json", "time.json", "duration.json")
	f.Fuzz(func(t *testing.T, s string) {
		dateTime := isDateTime(s)
		if dateTime != (len(s) > 11 && isDate(s[:10]) && (s[10] == 'T' || s[10] == 't') && isTime(s[11:])) {
			t.Fatalf("isDateTime(%q) = %v disagrees with its date and time", s, dateTime)
		}
		shape := len(s) >= 20 && s[4] == '-' && s[7] == '-' && s[10]|0x20 == 't' && s[13] == ':' && s[16] == ':'
		if dateTime && !shape {
			t.Fatalf("isDateTime(%q) without the fixed positions of RFC 3339", s)
		}
		// time.Parse also takes one-digit fields, a comma before the
		// fraction, no leap second and no lower-case "t" or "z".
		plain := shape && !strings.ContainsAny(s, ",tz") && s[17:19] != "60"
		_, err := time.Parse(time.RFC3339Nano, s)
		// time.Parse does not range-check the offset ("+24:00", "+10:60").
		want := err == nil && (s[len(s)-1] == 'Z' || (s[len(s)-5:len(s)-3] < "24" && s[len(s)-2:] < "60"))
		if plain && dateTime != want {
			t.Fatalf("isDateTime(%q) = %v, time.Parse: %v", s, dateTime, err)
		}
		if got, want := isDuration(s), durationABNF.MatchString(s); got != want {
			t.Fatalf("isDuration(%q) = %v, the ABNF says %v", s, got, want)
		}
	})
}

// FuzzIP checks ipv4 and ipv6 against net/netip, which also refuses
// leading zeros in IPv4 octets; a zone is netip's only extra.
func FuzzIP(f *testing.F) {
	addSuiteSeeds(f, "ipv4.json", "ipv6.json")
	f.Fuzz(func(t *testing.T, s string) {
		addr, err := netip.ParseAddr(s)
		if got, want := isIPv4(s), err == nil && addr.Is4(); got != want {
			t.Fatalf("isIPv4(%q) = %v, netip says %v", s, got, want)
		}
		if got, want := isIPv6(s), err == nil && addr.Is6() && addr.Zone() == "" && !strings.Contains(s, "%"); got != want {
			t.Fatalf("isIPv6(%q) = %v, netip says %v", s, got, want)
		}
		if isIPv4(s) && !isHostname(s) {
			t.Fatalf("IPv4 address %q is not a host name", s)
		}
	})
}

// FuzzURI checks the four URI and IRI formats against each other.
func FuzzURI(f *testing.F) {
	addSuiteSeeds(f, "uri.json", "uri-reference.json", "iri.json", "iri-reference.json")
	f.Fuzz(func(t *testing.T, s string) {
		uri, uriRef, iri, iriRef := isURI(s), isURIReference(s), isIRI(s), isIRIReference(s)
		if (uri && !uriRef) || (iri && !iriRef) || (uri && !iri) || (uriRef && !iriRef) {
			t.Fatalf("%q: uri %v, uri-reference %v, iri %v, iri-reference %v", s, uri, uriRef, iri, iriRef)
		}
		if isASCII(s) && (uri != iri || uriRef != iriRef) {
			t.Fatalf("ASCII %q: uri %v, iri %v, uri-reference %v, iri-reference %v", s, uri, iri, uriRef, iriRef)
		}
		if !utf8.ValidString(s) && iriRef {
			t.Fatalf("invalid UTF-8 %q is an IRI reference", s)
		}
	})
}

// FuzzHostname checks the host name formats: case does not matter, an
// ASCII idn-hostname is a hostname, and a hostname is an idn-hostname.
func FuzzHostname(f *testing.F) {
	addSuiteSeeds(f, "hostname.json", "idn-hostname.json")
	f.Fuzz(func(t *testing.T, s string) {
		host, idn := isHostname(s), isIDNHostname(s)
		if host && !idn {
			t.Fatalf("host name %q is not an idn-hostname", s)
		}
		if isASCII(s) && host != idn {
			t.Fatalf("ASCII %q: hostname %v, idn-hostname %v", s, host, idn)
		}
		if isASCII(s) && (host != isHostname(strings.ToLower(s)) || host != isHostname(strings.ToUpper(s))) {
			t.Fatalf("hostname(%q) = %v changes with ASCII case", s, host)
		}
		if isRFC1034Hostname(s) && !strings.Contains(strings.ToLower(s), "xn--") && !host {
			t.Fatalf("RFC 1034 name %q without A-labels is not an RFC 1123 host name", s)
		}
	})
}

// FuzzEmail checks email and idn-email: an address is an idn-email, and
// on ASCII the two agree.
func FuzzEmail(f *testing.F) {
	addSuiteSeeds(f, "email.json", "idn-email.json")
	f.Fuzz(func(t *testing.T, s string) {
		email, idn := isEmail(s), isIDNEmail(s)
		if (email && !idn) || (isASCII(s) && email != idn) {
			t.Fatalf("%q: email %v, idn-email %v", s, email, idn)
		}
	})
}

// FuzzURITemplate checks that templates concatenate (a template is a
// sequence of literals and expressions) and that one without braces is
// its own literals.
func FuzzURITemplate(f *testing.F) {
	addSuiteSeeds(f, "uri-template.json")
	f.Fuzz(func(t *testing.T, s string) {
		template := isURITemplate(s)
		if template && (!isURITemplate(s+"{x}") || !isURITemplate("{+y}"+s) || !isURITemplate(s+s)) {
			t.Fatalf("template %q does not concatenate", s)
		}
		if !strings.ContainsAny(s, "{}") && template != isTemplateLiterals(s) {
			t.Fatalf("%q: template %v, literals %v", s, template, isTemplateLiterals(s))
		}
	})
}

// FuzzJSONPointer checks that pointers concatenate and that a relative
// pointer is an integer and a pointer or "#".
func FuzzJSONPointer(f *testing.F) {
	addSuiteSeeds(f, "json-pointer.json", "relative-json-pointer.json")
	f.Fuzz(func(t *testing.T, s string) {
		pointer := isJSONPointer(s)
		if pointer && !isJSONPointer(s+s) {
			t.Fatalf("pointer %q does not concatenate", s)
		}
		for _, prefix := range []string{"0", "12"} {
			if s != "" && isDigit(s[0]) {
				break
			}
			if got, want := isRelativeJSONPointer(prefix+s), pointer || s == "#"; got != want {
				t.Fatalf("relative %q = %v, want %v", prefix+s, got, want)
			}
		}
		if isRelativeJSONPointer(s) && !isRelativeJSONPointerWithIndex(s) {
			t.Fatalf("%q is a draft-07 relative pointer but not a 2020-12 one", s)
		}
	})
}

// FuzzPunycode checks that whatever decodes encodes back to text that
// decodes to the same code points.
func FuzzPunycode(f *testing.F) {
	for _, sample := range punycodeSamples {
		f.Add(sample.punycode)
	}
	f.Add("ib9b")
	f.Add("bb00h")
	f.Fuzz(func(t *testing.T, s string) {
		var runes [maxLabel]rune
		n, ok := punycodeDecode(runes[:], s)
		if !ok {
			return
		}
		var encoded [1024]byte
		m, ok := punycodeEncode(encoded[:], runes[:n])
		if !ok {
			t.Fatalf("%q decodes to %U, which does not encode", s, runes[:n])
		}
		var again [maxLabel]rune
		k, ok := punycodeDecode(again[:], string(encoded[:m]))
		if !ok || string(again[:k]) != string(runes[:n]) {
			t.Fatalf("%q decodes to %U, encodes to %q, which decodes to %U", s, runes[:n], encoded[:m], again[:k])
		}
	})
}
