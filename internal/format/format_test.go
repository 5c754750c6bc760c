package format_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/format"
)

var dialects = []format.Dialect{format.Draft4, format.Draft6, format.Draft7, format.Draft2019, format.Draft2020}

// definedFormats lists, from the validation specification of each
// dialect, the formats it defines (regex apart: see TestRegexIsDelegated).
// Each dialect's list holds the one before it, so 2020-12's holds every
// format some dialect defines: the formats every dialect asserts.
var definedFormats = map[format.Dialect][]string{
	format.Draft4: {"date-time", "email", "hostname", "ipv4", "ipv6", "uri"},
	format.Draft6: {"date-time", "email", "hostname", "ipv4", "ipv6", "uri",
		"uri-reference", "uri-template", "json-pointer"},
	format.Draft7: {"date-time", "email", "hostname", "ipv4", "ipv6", "uri",
		"uri-reference", "uri-template", "json-pointer",
		"date", "time", "iri", "iri-reference", "idn-email", "idn-hostname", "relative-json-pointer"},
	format.Draft2019: {"date-time", "email", "hostname", "ipv4", "ipv6", "uri",
		"uri-reference", "uri-template", "json-pointer",
		"date", "time", "iri", "iri-reference", "idn-email", "idn-hostname", "relative-json-pointer",
		"duration", "uuid"},
}

func init() { definedFormats[format.Draft2020] = definedFormats[format.Draft2019] }

func TestLookup(t *testing.T) {
	t.Parallel()
	var all []string
	for _, names := range definedFormats {
		all = append(all, names...)
	}
	// Names no dialect defines: other drafts' and vocabularies' formats,
	// other spellings.
	all = append(all, "unknown", "", "color", "host-name", "ip-address", "utc-millisec", "int32",
		"Date-Time", "EMAIL", "uri ", "regex-pattern")
	slices.Sort(all)
	all = slices.Compact(all)

	var assertions format.Assertions
	for _, dialect := range dialects {
		for _, name := range all {
			t.Run(fmt.Sprintf("%s/%s", dialect, name), func(t *testing.T) {
				t.Parallel()
				check, ok := assertions.Lookup(dialect, name)
				want := slices.Contains(definedFormats[format.Draft2020], name) // some dialect defines it
				require.Equal(t, want, ok)
				assert.Equal(t, want, check != nil)
			})
		}
	}
	for _, dialect := range []format.Dialect{0, format.Draft2020 + 1, 255} {
		_, ok := assertions.Lookup(dialect, "date-time")
		assert.False(t, ok, "Lookup under %s", dialect)
	}
}

// TestDialectEditions checks the formats whose reading changes with the
// dialect: hostname (RFC 1034 before draft-07) and relative-json-pointer
// (index manipulation from 2020-12).
func TestDialectEditions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		format string
		value  string
		from   format.Dialect // valid from this dialect on, invalid before
		until  format.Dialect // and invalid after this one (0: none)
	}{
		{"hostname", "1host", format.Draft7, 0},
		{"hostname", "xn--X", format.Draft4, format.Draft6},
		{"hostname", "xn--a", format.Draft4, format.Draft6},
		{"relative-json-pointer", "0+1#", format.Draft2020, 0},
		{"relative-json-pointer", "1-2/name", format.Draft2020, 0},
	} {
		for _, dialect := range dialects {
			check, ok := format.Assertions{}.Lookup(dialect, tc.format)
			if !ok {
				continue
			}
			want := dialect >= tc.from && (tc.until == 0 || dialect <= tc.until)
			assert.Equal(t, want, check(tc.value), "%s %s %q", dialect, tc.format, tc.value)
		}
	}
}

func TestRegexIsDelegated(t *testing.T) {
	t.Parallel()
	for _, dialect := range dialects {
		_, ok := format.Assertions{}.Lookup(dialect, "regex")
		assert.False(t, ok, "%s: regex without a Regex checker must be unknown", dialect)
	}

	var asked []string
	assertions := format.Assertions{Regex: func(s string) bool {
		asked = append(asked, s)
		return s == "^a+$"
	}}
	for _, dialect := range dialects {
		check, ok := assertions.Lookup(dialect, "regex")
		require.True(t, ok, "%s: draft-07 defines regex, and every dialect asserts it", dialect)
		asked = nil
		assert.True(t, check("^a+$"))
		assert.False(t, check("(?i)a"))
		assert.Equal(t, []string{"^a+$", "(?i)a"}, asked, "the checker is the Regex function, fed the string unchanged")
	}
}

func TestDialectString(t *testing.T) {
	t.Parallel()
	var names []string
	for _, dialect := range dialects {
		names = append(names, dialect.String())
	}
	assert.Equal(t, []string{"draft-04", "draft-06", "draft-07", "2019-09", "2020-12"}, names)
	assert.Equal(t, "dialect(0)", format.Dialect(0).String())
	assert.Equal(t, "dialect(42)", format.Dialect(42).String())
}

// TestOlderDialectsAssertLaterFormats: a dialect older than a format
// asserts it as the format's first edition reads (draft-07 "uuid" is
// 2019-09's uuid), never as an unknown format.
func TestOlderDialectsAssertLaterFormats(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		dialect              format.Dialect
		format, valid, wrong string
	}{
		{format.Draft7, "uuid", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "f81d4fae7dec11d0a76500a0c91e6bf6"},
		{format.Draft4, "uuid", "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"},
		{format.Draft7, "duration", "P1W", "P1W2D"},
		{format.Draft4, "date", "2026-12-07", "2026-02-30"},
		{format.Draft6, "relative-json-pointer", "1/a", "0+1#"}, // draft-07's edition: no index manipulation
		{format.Draft4, "json-pointer", "/a~1b", "/a~2"},
	} {
		check, ok := format.Assertions{}.Lookup(tc.dialect, tc.format)
		require.True(t, ok, "%s %s", tc.dialect, tc.format)
		assert.True(t, check(tc.valid), "%s %s %q", tc.dialect, tc.format, tc.valid)
		assert.False(t, check(tc.wrong), "%s %s %q", tc.dialect, tc.format, tc.wrong)
	}
}
