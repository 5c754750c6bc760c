package schema

import "regexp"

// Pattern is a compiled regular expression for pattern and
// patternProperties: it must match somewhere in the string (an unanchored
// search).
type Pattern struct {
	// Source is the expression as the schema wrote it.
	Source string
	re     *regexp.Regexp
}

// MatchString reports whether the pattern matches somewhere in s.
func (p *Pattern) MatchString(s string) bool { return p.re.MatchString(s) }

// Match reports whether the pattern matches somewhere in b.
func (p *Pattern) Match(b []byte) bool { return p.re.Match(b) }

// String returns the pattern's source.
func (p *Pattern) String() string { return p.Source }
