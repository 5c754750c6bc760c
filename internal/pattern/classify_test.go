package pattern_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/pattern"
)

// refusal is what Compile must answer for a refused expression.
type refusal struct {
	expr   string
	kind   pattern.Kind
	offset int    // Error.Offset
	says   string // a part of the message
}

// TestCompileRefusesECMA checks the kind, the offset and the message of
// every way an ECMA-262 pattern is refused, and that Valid agrees: only
// Malformed (and Limit) patterns are invalid for format "regex".
func TestCompileRefusesECMA(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("(", 1500) + "a" + strings.Repeat(")", 1500)
	for _, tc := range []refusal{
		// Legal ECMA-262 that no automaton runs.
		{`(?=a)b`, pattern.Unsupported, 0, "look-ahead (?=…) at offset 0"},
		{`a(?!b)`, pattern.Unsupported, 1, "negative look-ahead"},
		{`^a(?=b)`, pattern.Unsupported, 2, "look-ahead (?=…) at offset 2"},               // only right after the leading ^
		{`^(?=a)b(?!c)`, pattern.Unsupported, 7, "negative look-ahead (?!…) at offset 7"}, // the first one runs, this one does not
		{`^(?!a)b|c`, pattern.Unsupported, 1, "| at its top level"},
		{`^(?=(?!a)b)`, pattern.Unsupported, 4, "negative look-ahead (?!…) at offset 4"},
		{`^(?<=a)b`, pattern.Unsupported, 1, "look-behind (?<=…)"},
		{`(?<=a+)b`, pattern.Unsupported, 0, "look-behind (?<=…)"},
		{`x(?<!a)b`, pattern.Unsupported, 1, "negative look-behind"},
		{`(a)\1`, pattern.Unsupported, 3, `back-reference \1`},
		{`\1(a)`, pattern.Unsupported, 0, `back-reference \1`},
		{`(?<n>a)\k<n>`, pattern.Unsupported, 7, `back-reference \k<n>`},
		{`(?i:a)`, pattern.Unsupported, 0, "modifier group (?i:"},
		{`a(?-s:.)`, pattern.Unsupported, 1, "modifier group (?-s:"},
		{`(?ms-i:a)`, pattern.Unsupported, 0, "modifier group"},
		{`\p{Emoji}`, pattern.Unsupported, 0, `Unicode property \p{Emoji}`},
		{`[\p{XIDS}]`, pattern.Unsupported, 1, `\p{XIDS}`},
		{`\P{Bidi_M}`, pattern.Unsupported, 0, "do not provide exactly"},
		{`\p{scx=Latin}`, pattern.Unsupported, 0, "Script_Extensions"},
		{`\p{Script_Extensions=Grek}`, pattern.Unsupported, 0, "Script_Extensions"},
		{`\p{Changes_When_Lowercased}`, pattern.Unsupported, 0, "list the characters"},

		// Not ECMA-262 with the u flag, nor one of the forms Annex B adds
		// that toolgate reads (see TestAnnexBForms).
		{`\a`, pattern.Malformed, 0, `the escape \a`},
		{`x\A`, pattern.Malformed, 1, `the escape \A at offset 1; only punctuation may be escaped`},
		{`[\z]`, pattern.Malformed, 1, `the escape \z`},
		{"\\é", pattern.Malformed, 0, `the escape \é`},
		// A range with a property escape for an end: the u flag refuses
		// it, and without the u flag \p is p (V8 refuses [\p{L}-z] in
		// both modes, and reads [a-\p{L}] without u as a-p, {, L, }).
		{`[\p{L}-z]`, pattern.Malformed, 1, `the range \p{L}-z at offset 1 with a property escape for an end`},
		{`[\p{L}-\p{N}]`, pattern.Malformed, 1, `the range \p{L}-\p{N} at offset 1`},
		{`[\P{L}-z]`, pattern.Malformed, 1, `the range \P{L}-z at offset 1`},
		{`x[ba-\p{L}]`, pattern.Malformed, 3, `the range a-\p{L} at offset 3`},
		{`[\d-\p{L}]`, pattern.Malformed, 1, `the range \d-\p{L} at offset 1`},
		{`[^\p{Lu}-\w]`, pattern.Malformed, 2, `the range \p{Lu}-\w at offset 2`},
		{`[\p{L}--]`, pattern.Malformed, 1, `the range \p{L}-- at offset 1`},
		{`[\p{Emoji}-z]`, pattern.Malformed, 1, `the range \p{Emoji}-z`}, // malformed wins over unsupported
		{`(?P<name>x)`, pattern.Malformed, 0, "that is not (?:, (?<name>, a look-around or a modifier group"},
		{`(?#comment)a`, pattern.Malformed, 0, "that is not (?:, (?<name>, a look-around or a modifier group"},
		{`(?i)abc`, pattern.Malformed, 0, "inline flags (?i)"},
		{`(?ims)abc`, pattern.Malformed, 0, "inline flags (?ims) at offset 0; ECMA-262 has no global inline flags, and toolgate does not run the modifier groups that scope them; spell the cases out"},
		{`(?ii:a)`, pattern.Malformed, 3, "the flag i at offset 3 twice"},
		{`(?-:a)`, pattern.Malformed, 0, "empty modifier group"},
		{`(?i`, pattern.Malformed, 0, "without its :"},
		{`(?<n>a)(?<n>b)`, pattern.Malformed, 7, `second group named "n" at offset`},
		{`(?<n>(?<n>a))`, pattern.Malformed, 0, `around a group of the same name`},
		{`(?<n>a)|(?<n>b)(?<n>c)`, pattern.Malformed, 15, `second group named "n" at offset`},
		{`(?<1a>x)`, pattern.Malformed, 3, "in a group name"},
		{`(?<>x)`, pattern.Malformed, 0, "empty group name"},
		{`(?<a`, pattern.Malformed, 0, "without its closing >"},
		{`\k<n>`, pattern.Malformed, 0, `\k<n> at offset 0 to a group that does not exist`},
		{`\k`, pattern.Malformed, 0, `\k at offset 0 without a group name`},
		{`(a)\2`, pattern.Malformed, 3, `\2 at offset 3 to a group the pattern does not have (it has 1 capturing groups)`},
		{`(`, pattern.Malformed, 0, "that is never closed"},
		{`a(b`, pattern.Malformed, 1, "that is never closed"},
		{`)`, pattern.Malformed, 0, "unmatched )"},
		{`a)`, pattern.Malformed, 1, "unmatched )"},
		{`[a`, pattern.Malformed, 0, "a character class at offset 0 that is never closed"},
		{`x[z-a]`, pattern.Malformed, 2, "with its ends out of order"},
		{`[\B]`, pattern.Malformed, 1, `\B at offset 1 in a class`},
		{`[\1]`, pattern.Malformed, 1, "back-reference at offset 1 in a class"},
		{`*a`, pattern.Malformed, 0, "nothing to repeat"},
		{`a**`, pattern.Malformed, 2, "nothing to repeat"},
		{`a|+`, pattern.Malformed, 2, "nothing to repeat"},
		{`^*`, pattern.Malformed, 1, "after the assertion ^"},
		{`\b+`, pattern.Malformed, 2, `after the assertion \b`},
		{`(?=a)?`, pattern.Malformed, 5, "after the assertion"},
		{`{2}`, pattern.Malformed, 0, "a quantifier at offset 0 with nothing to repeat"},
		{`a{2}{3}`, pattern.Malformed, 4, "nothing to repeat"},
		{`a{2,1}`, pattern.Malformed, 0, "{2,1} at offset 0 with its numbers out of order"},
		{`a{99999999999999999999,1}`, pattern.Malformed, 0, "with its numbers out of order"},
		{`\c1`, pattern.Malformed, 0, `\c at offset 0 not followed by a letter`},
		{`\00`, pattern.Malformed, 0, `octal escape \00`},
		{`\x4`, pattern.Malformed, 0, "two hex digits"},
		{`\u12`, pattern.Malformed, 0, "four hex digits"},
		{`\u{}`, pattern.Malformed, 0, `\u{ at offset 0 not followed by hex digits`},
		{`\u{110000}`, pattern.Malformed, 0, "past U+10FFFF"},
		{`a\`, pattern.Malformed, 1, "at the end of the pattern"},
		{`\p`, pattern.Malformed, 0, `\p at offset 0 not followed by {Name}`},
		{`\pL`, pattern.Malformed, 0, `\p at offset 0 not followed by {Name}`},
		{`\p{Foo}`, pattern.Malformed, 0, `unknown Unicode property \p{Foo}`},
		{`\p{Latin}`, pattern.Malformed, 0, `write \p{Script=Latin}`},
		{`\p{sc=Foo}`, pattern.Malformed, 0, "Script value"},
		{`\p{gc=Latin}`, pattern.Malformed, 0, "General_Category value"},
		{`\p{L=x}`, pattern.Malformed, 0, "property names ECMA-262 allows with a value"},
		{`\p{letter}`, pattern.Malformed, 0, "unknown Unicode property"},
		{`\p{Hyphen}`, pattern.Malformed, 0, "unknown Unicode property"},
		{`\p{Lu }`, pattern.Malformed, 0, "letters, digits and _"},
		{`\p{RGI_Emoji}`, pattern.Malformed, 0, "unknown Unicode property"},
		{"a\xffb", pattern.Malformed, -1, "not valid UTF-8"},
		{`(?=a)(`, pattern.Malformed, 5, "that is never closed"}, // malformed wins over unsupported

		// Legal and runnable, but past the default Limits.
		{`a{99999999999}`, pattern.Limit, -1, "Limits.MaxProgram"},
		{`(?:a{1000}){20}`, pattern.Limit, -1, "Limits.MaxProgram"},
		{deep, pattern.Limit, -1, "Limits.MaxNesting"},
	} {
		t.Run(tc.expr[:min(len(tc.expr), 40)], func(t *testing.T) {
			t.Parallel()
			p, err := pattern.Compile(tc.expr, pattern.ECMA262, pattern.Limits{})
			assert.Nil(t, p)
			requireRefusal(t, tc, err)
			valid := pattern.Valid(tc.expr, pattern.Limits{})
			switch tc.kind {
			case pattern.Malformed:
				requireRefusal(t, tc, valid)
			case pattern.Unsupported:
				assert.NoError(t, valid, "legal ECMA-262 is a valid regex")
			case pattern.Limit:
				if tc.expr == deep {
					requireRefusal(t, tc, valid)
				} else {
					assert.NoError(t, valid, "a large count is a valid regex")
				}
			}
		})
	}
}

// TestCompileRefusesRE2 checks how RE2 syntax classifies
// regexp.Compile's errors: what RE2 leaves out by design is Unsupported, other errors Malformed,
// Go's size bounds Limit.
func TestCompileRefusesRE2(t *testing.T) {
	t.Parallel()
	for _, tc := range []refusal{
		{`^(?=.*\d)\w+$`, pattern.Unsupported, 1, "look-ahead"},
		{`a(?!b)`, pattern.Unsupported, 1, "negative look-ahead"},
		{`(?<=a)b`, pattern.Unsupported, 0, "look-behind"},
		{`(?<!x)y`, pattern.Unsupported, 0, "negative look-behind"},
		{`(?>ab)c`, pattern.Unsupported, 0, "an atomic group"},
		{`(a)\1`, pattern.Unsupported, 3, "a back-reference"},
		{`(?P<n>a)\k<n>`, pattern.Unsupported, 8, "a back-reference"},
		{`a++`, pattern.Unsupported, 1, "a possessive quantifier"},
		{`a{2}+`, pattern.Unsupported, 1, "a possessive quantifier"},
		{`([a-z`, pattern.Malformed, 1, "missing closing ]"},
		{`a{1001}`, pattern.Malformed, 1, "invalid repeat count"},
		{`\8`, pattern.Unsupported, 0, "a back-reference"},
		{`\q`, pattern.Malformed, 0, "invalid escape sequence"},
		{`(?P=n)`, pattern.Malformed, 0, "invalid or unsupported Perl syntax"},
		{`((a{100}){100}){100}`, pattern.Malformed, 3, "invalid repeat count"},
		{`*`, pattern.Malformed, 0, "missing argument to repetition operator"},
		{"a\xff", pattern.Malformed, 1, "invalid UTF-8"},
		{`a{1000}b{1000}c{1000}d{1000}e{1000}f{1000}g{1000}h{1000}i{1000}j{1000}k`, pattern.Limit, -1, "Limits.MaxProgram"},
	} {
		t.Run(tc.expr[:min(len(tc.expr), 40)], func(t *testing.T) {
			t.Parallel()
			p, err := pattern.Compile(tc.expr, pattern.RE2, pattern.Limits{})
			assert.Nil(t, p)
			requireRefusal(t, tc, err)
		})
	}
}

func requireRefusal(t *testing.T, tc refusal, err error) {
	t.Helper()
	var perr *pattern.Error
	require.ErrorAs(t, err, &perr)
	assert.Equal(t, tc.kind, perr.Kind, perr.Msg)
	assert.Equal(t, tc.offset, perr.Offset, perr.Msg)
	assert.Equal(t, 0, perr.Index)
	assert.Contains(t, perr.Msg, tc.says)
	assert.Equal(t, perr.Msg, perr.Error())
	assert.True(t, strings.HasSuffix(perr.Msg, "."), "one sentence: %s", perr.Msg)
	assert.NotContains(t, perr.Msg, ". ", "one sentence: %s", perr.Msg)
}

// TestAnnexBForms: forms the u flag refuses but ECMA-262 Annex B (every
// browser's grammar without the u flag) defines, which real schemas write
// (^\d{4}\-\d{2}$, [\w-\.]+@, ^{[a-z]+}$), are read as Annex B reads them.
// The verdicts are V8's without the u flag (node, new RegExp(p).test(t)).
func TestAnnexBForms(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		expr  string
		texts map[string]bool
	}{
		{`^\d{4}\-\d{2}$`, map[string]bool{"2026-12": true, "2026x12": false}},
		{`\:\@\ \"\#\%\&\,\;\<\=\>\_\~\!\'`, map[string]bool{`:@ "#%&,;<=>_~!'`: true, `:@`: false}},
		{`[\_\"\,\:]`, map[string]bool{"_": true, `"`: true, ",": true, ":": true, "a": false}},
		{`^[\w-\.]+@([\w-]+\.)+[\w-]{2,4}$`, map[string]bool{"a.b-c@x-y.org": true, "a@b": false}},
		{`^[\d-z]$`, map[string]bool{"-": true, "5": true, "z": true, "a": false}},
		{`^[a-\d]$`, map[string]bool{"a": true, "-": true, "7": true, "b": false}},
		{`^[\w-\d]$`, map[string]bool{"-": true, "_": true, "#": false}},
		{`^[\s-\S]$`, map[string]bool{"-": true, " ": true, "x": true}},
		{`^[\D-\W]$`, map[string]bool{"-": true, "x": true, "5": false}},
		{`^{[a-z]+}$`, map[string]bool{"{ab}": true, "ab": false}},
		{`^a{,2}$`, map[string]bool{"a{,2}": true, "aa": false}},
		{`^a{1$`, map[string]bool{"a{1": true, "a": false}},
		{`^x}$`, map[string]bool{"x}": true, "x": false}},
		{`^]$`, map[string]bool{"]": true}},
		{`[]]`, map[string]bool{"]": false, "": false}}, // the empty class, then ]
	} {
		p, err := pattern.Compile(c.expr, pattern.ECMA262, pattern.Limits{})
		require.NoError(t, err, c.expr)
		require.NoError(t, pattern.Valid(c.expr, pattern.Limits{}), c.expr)
		for text, want := range c.texts {
			assert.Equal(t, want, p.MatchString(text), "/%s/ on %q", c.expr, text)
		}
	}
}
