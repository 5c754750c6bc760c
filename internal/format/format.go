package format

import "strconv"

// Checker reports whether a decoded JSON string satisfies one format. It
// is safe for concurrent use, never panics, runs in time linear in the
// length of its argument and does not allocate (but for the two NFC
// cases the package doc names). Text that is not valid UTF-8 never
// satisfies a format.
type Checker func(string) bool

// Dialect is a JSON Schema dialect, which decides the set of formats
// defined and, for a few formats, how they read (see the package doc).
// The zero value is no dialect: Lookup finds nothing under it.
type Dialect uint8

// The dialects, oldest first; each defines every format of the one
// before it (draft-07 adds date, time, iri, iri-reference, idn-email,
// idn-hostname, relative-json-pointer and regex; 2019-09 adds duration
// and uuid).
const (
	Draft4 Dialect = iota + 1
	Draft6
	Draft7
	Draft2019
	Draft2020
)

// String names the dialect as its meta-schema does ("draft-07",
// "2020-12"); an unknown value reads "dialect(N)".
func (d Dialect) String() string {
	switch d {
	case Draft4:
		return "draft-04"
	case Draft6:
		return "draft-06"
	case Draft7:
		return "draft-07"
	case Draft2019:
		return "2019-09"
	case Draft2020:
		return "2020-12"
	}
	return "dialect(" + strconv.Itoa(int(d)) + ")"
}

// Assertions finds the checker of each standard format. The zero value
// is ready to use and knows every format but regex.
type Assertions struct {
	// Regex checks the regex format (an ECMA-262 regular expression).
	// This package does not parse regular expressions itself: whoever
	// owns the pattern dialect sets this. Nil leaves regex unknown, so
	// that a schema asserting it is refused rather than waved through.
	Regex Checker
}

// Lookup returns the checker for the format called name (exact,
// case-sensitive) as dialect d reads it: d's own edition where d defines
// the format, and otherwise the first dialect's that does, so that a
// format a later dialect added is asserted in an earlier one too (draft-07
// "uuid" is RFC 4122's UUID, as zod-to-json-schema and the MCP TypeScript
// SDK write it, not an unknown format). ok is false when no dialect defines
// name, when d is not one of the dialects above, and for regex while
// a.Regex is nil; under format assertion the caller refuses such a schema
// (DESIGN.md §8). Formats apply to strings only: the caller lets every
// other JSON type pass without calling the checker.
func (a Assertions) Lookup(d Dialect, name string) (check Checker, ok bool) {
	if d < Draft4 || d > Draft2020 {
		return nil, false
	}
	if name == "regex" {
		return a.Regex, a.Regex != nil
	}
	editions := formats[name]
	if len(editions) == 0 {
		return nil, false
	}
	for i := len(editions) - 1; i > 0; i-- {
		if editions[i].since <= d {
			return editions[i].check, true
		}
	}
	return editions[0].check, true
}

// edition is how a format reads from one dialect on, until a later
// edition of the same format takes over.
type edition struct {
	since Dialect
	check Checker
}

// formats holds every format some dialect defines, each with its
// editions oldest first. regex (draft-07's) is missing: Assertions.Regex
// supplies it.
var formats = map[string][]edition{
	"date-time":             {{Draft4, isDateTime}},
	"email":                 {{Draft4, isEmail}},
	"hostname":              {{Draft4, isRFC1034Hostname}, {Draft7, isHostname}},
	"ipv4":                  {{Draft4, isIPv4}},
	"ipv6":                  {{Draft4, isIPv6}},
	"uri":                   {{Draft4, isURI}},
	"uri-reference":         {{Draft6, isURIReference}},
	"uri-template":          {{Draft6, isURITemplate}},
	"json-pointer":          {{Draft6, isJSONPointer}},
	"date":                  {{Draft7, isDate}},
	"time":                  {{Draft7, isTime}},
	"iri":                   {{Draft7, isIRI}},
	"iri-reference":         {{Draft7, isIRIReference}},
	"idn-email":             {{Draft7, isIDNEmail}},
	"idn-hostname":          {{Draft7, isIDNHostname}},
	"relative-json-pointer": {{Draft7, isRelativeJSONPointer}, {Draft2020, isRelativeJSONPointerWithIndex}},
	"duration":              {{Draft2019, isDuration}},
	"uuid":                  {{Draft2019, isUUID}},
}
