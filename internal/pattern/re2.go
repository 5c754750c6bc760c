package pattern

import (
	"errors"
	"regexp/syntax"
	"strings"
)

// parseRE2 parses expr as Go's regexp.Compile does (Perl flags), and
// classifies a refusal: a construct that RE2 leaves out by design
// (look-around, back-references, atomic groups, possessive quantifiers)
// is Unsupported, anything else it rejects is Malformed, and Go's own
// size and nesting bounds are Limit.
func parseRE2(expr string, lim Limits) (*syntax.Regexp, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, classifyRE2(expr, err)
	}
	if h := height(re); h > lim.MaxNesting {
		return nil, limitError("it nests %d levels deep, more than %d (Limits.MaxNesting)", h, lim.MaxNesting)
	}
	return re, nil
}

// re2Missing are the constructs of other regexp dialects that RE2 does not
// have, found by the text that introduces them.
var re2Missing = []struct{ text, name string }{
	{"(?<=", "look-behind"}, {"(?<!", "negative look-behind"},
	{"(?=", "look-ahead"}, {"(?!", "negative look-ahead"}, {"(?>", "an atomic group"},
}

var re2Possessive = []string{"++", "*+", "?+", "}+"}

func classifyRE2(expr string, err error) *Error {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return malformedAt(-1, "The pattern is not a valid regular expression: %s.", err)
	}
	offset := strings.Index(expr, se.Expr)
	unsupported := func(name string) *Error {
		return unsupportedAt(offset, "The pattern uses %s, which Go's RE2 engine cannot run (it guarantees linear time); rewrite the pattern without it.", name)
	}
	for _, c := range re2Missing {
		if i := strings.Index(expr, c.text); i >= 0 {
			offset = i
			return unsupported(c.name)
		}
	}
	switch se.Code {
	case syntax.ErrInvalidEscape:
		if len(se.Expr) >= 2 && (se.Expr[1] >= '1' && se.Expr[1] <= '9' || se.Expr[1] == 'k') {
			return unsupported("a back-reference")
		}
	case syntax.ErrInvalidRepeatOp:
		for _, q := range re2Possessive {
			if strings.Contains(expr, q) {
				return unsupported("a possessive quantifier")
			}
		}
	case syntax.ErrLarge:
		return limitError("Go's regexp parser refuses it as too large")
	case syntax.ErrNestingDepth:
		return limitError("Go's regexp parser refuses it as nested too deeply")
	}
	return malformedAt(offset, "The pattern is not a valid regular expression: %s.", err)
}

// height is the depth of the syntax tree.
func height(re *syntax.Regexp) int {
	h := 0
	for _, sub := range re.Sub {
		h = max(h, height(sub))
	}
	return h + 1
}
