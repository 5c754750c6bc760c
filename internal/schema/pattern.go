package schema

import (
	"errors"

	"github.com/toolgate/toolgate/internal/pattern"
)

// Pattern is a compiled regular expression for pattern: it must match
// somewhere in the string (an unanchored search). Validators match it
// while the string streams (pattern.Matcher), so a string is rejected at
// the first byte no completion can match.
type Pattern struct {
	// Source is the expression as the schema wrote it.
	Source string
	// Compiled is its automaton.
	Compiled *pattern.Pattern
}

// MatchString reports whether the pattern matches somewhere in s.
func (p *Pattern) MatchString(s string) bool { return p.Compiled.MatchString(s) }

// String returns the pattern's source.
func (p *Pattern) String() string { return p.Source }

// patternFinding turns a pattern compile error into a finding at path
// under keyword kw: malformed (not a regular expression) is VALIDATION;
// unsupported (legal, but not with the same meaning on RE2) is
// UNSUPPORTED_CAPABILITY; an automaton past the limits is
// UNSUPPORTED_CAPABILITY with keyword "limit".
func patternFinding(err error, path, kw string) Finding {
	f := Finding{Code: CodeValidation, Keyword: kw, SchemaPath: path, Message: err.Error(), Offset: -1}
	var pe *pattern.Error
	if errors.As(err, &pe) {
		switch pe.Kind {
		case pattern.Unsupported:
			f.Code = CodeUnsupported
		case pattern.Limit:
			f.Code, f.Keyword = CodeUnsupported, "limit"
		}
	}
	return f
}

// compilePatternOf compiles one expression in syntax syn.
func compilePatternOf(source string, syn pattern.Syntax) (*Pattern, error) {
	p, err := pattern.Compile(source, syn, pattern.Limits{})
	if err != nil {
		return nil, err
	}
	return &Pattern{Source: source, Compiled: p}, nil
}
