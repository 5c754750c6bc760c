package schema

import (
	"fmt"
	"regexp"
	"regexp/syntax"
)

// Pattern is a compiled regular expression for pattern and
// patternProperties: it must match somewhere in the string (an unanchored
// search).
type Pattern struct {
	// Source is the expression as the schema wrote it.
	Source string
	re     *regexp.Regexp
	insts  int // instructions of its compiled program, for Schema.Bytes
}

// newPattern wraps a compiled expression.
func newPattern(source string, re *regexp.Regexp) *Pattern {
	p := &Pattern{Source: source, re: re}
	if parsed, err := syntax.Parse(source, syntax.Perl); err == nil {
		if prog, err := syntax.Compile(parsed.Simplify()); err == nil {
			p.insts = len(prog.Inst)
		}
	}
	return p
}

// MatchString reports whether the pattern matches somewhere in s.
func (p *Pattern) MatchString(s string) bool { return p.re.MatchString(s) }

// Match reports whether the pattern matches somewhere in b.
func (p *Pattern) Match(b []byte) bool { return p.re.Match(b) }

// String returns the pattern's source.
func (p *Pattern) String() string { return p.Source }

// patternError is a pattern that cannot be compiled: malformed, or
// unsupported (legal, but not with the same meaning on RE2).
type patternError struct {
	unsupported bool
	msg         string
}

// compileECMA compiles a JSON Schema pattern (ECMA-262 syntax).
func compileECMA(source string) (*Pattern, *patternError) {
	re, err := regexp.Compile(source)
	if err == nil {
		return newPattern(source, re), nil
	}
	if construct := unsupportedRegexp(source, err); construct != "" {
		return nil, &patternError{true, fmt.Sprintf("The pattern uses %s, which Go's RE2 engine cannot run (it guarantees linear time); rewrite the pattern without it.", construct)}
	}
	return nil, &patternError{false, fmt.Sprintf("The pattern is not a valid regular expression: %s.", err)}
}
