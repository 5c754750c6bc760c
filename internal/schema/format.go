package schema

import (
	"github.com/toolgate/toolgate/internal/format"
	"github.com/toolgate/toolgate/internal/pattern"
)

// formats asserts the standard formats (package format); regex is an
// ECMA-262 regular expression, as pattern takes it.
var formats = format.Assertions{Regex: func(s string) bool { return pattern.Valid(s, pattern.Limits{}) == nil }}

// formatDialects maps the profile's dialects to package format's.
var formatDialects = map[Dialect]format.Dialect{
	Draft2020: format.Draft2020, Draft2019: format.Draft2019, Draft7: format.Draft7, Draft6: format.Draft6, Draft4: format.Draft4,
}

// lookupFormat returns the checker of a standard format of dialect d.
func lookupFormat(d Dialect, name string) (func(string) bool, bool) {
	check, ok := formats.Lookup(formatDialects[d], name)
	return check, ok
}
