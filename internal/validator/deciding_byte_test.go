package validator_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestEscapeDecidedAtTheFirstImpossibleByte: an escape adds one character, whichever
// it spells, so what no further character can satisfy is refused at its
// backslash, the first impossible byte, by a stream and by a full
// validation alike; a \u escape's hex digits then narrow the character,
// and an enum, a const, a pattern or a closed object's names that no
// character left continues are refused at that digit; what some
// character left could still satisfy waits for the next digit. Each
// value is the member "s" of the arguments, under the case's schema.
func TestEscapeDecidedAtTheFirstImpossibleByte(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, schema, keyword string
		doc                   string // the deciding byte is the one after the '@'
	}{
		{"maxLength reached", `{"type":"string","maxLength":3}`, "maxLength", `"abc@\n"`},
		{"maxLength reached, a surrogate pair", `{"type":"string","maxLength":1}`, "maxLength", `"a@\ud83d\ude00"`},
		{"maxLength one short", `{"type":"string","maxLength":4}`, "maxLength", `"abc\n@\t"`},
		{"enum completed", `{"enum":["ab","x"]}`, "enum", `"ab@\u0063"`},
		{"enum that could go on", `{"enum":["ab","abc"]}`, "enum", `"ab\u006@4"`},
		{"enum, a hex digit no choice continues", `{"enum":["ab","abc"]}`, "enum", `"ab\u00@7a"`},
		{"enum, a high surrogate's digit", `{"enum":["a😀"]}`, "enum", `"a\ud83@e\udd20"`},
		{"enum, a low surrogate's digit", `{"enum":["a😀"]}`, "enum", `"a\ud83d\ude@10"`},
		{"const, a hex digit", `{"const":"é"}`, "const", `"\u00@f8"`},
		{"const completed", `{"const":"ab"}`, "const", `"ab@\n"`},
		{"pattern that must end", `{"type":"string","pattern":"^ab$"}`, "pattern", `"ab@\t"`},
		{"pattern that could go on", `{"type":"string","pattern":"^[a-z]*$"}`, "pattern", `"ab\@""`},
		{"pattern, a hex digit no character fits", `{"type":"string","pattern":"^[a-z]*$"}`, "pattern", `"ab\u00@e9"`},
		{"pattern, the last digit decides", `{"type":"string","pattern":"^[a-z]*$"}`, "pattern", `"ab\u006@0"`},
		{"pattern unanchored at the end", `{"type":"string","pattern":"^x[0-9]"}`, "pattern", `"x\u0@1"`},
		{"pattern, a low surrogate's digit", `{"type":"string","pattern":"^😀$"}`, "pattern", `"\ud83d\ude@10"`},
		{"propertyNames pattern, a hex digit", `{"propertyNames":{"pattern":"^[a-z]+$"}}`, "propertyNames", `{"a\u00@41":1}`},
		{"closed object, declared name completed", `{"properties":{"a":{}},"additionalProperties":false}`,
			"additionalProperties", `{"a@\u0062":1}`},
		{"closed object, a hex digit no declared name continues", `{"properties":{"a":{},"ab":{}},"additionalProperties":false}`,
			"additionalProperties", `{"a\u00@7a":1}`},
		{"closed object, a pattern that must end", `{"patternProperties":{"^x$":{}},"additionalProperties":false}`,
			"additionalProperties", `{"x@\n":1}`},
		{"closed object, a pattern that could go on", `{"patternProperties":{"^x[a-z]$":{}},"additionalProperties":false}`,
			"additionalProperties", `{"x\@"":1}`},
		{"closed object, a hex digit no pattern continues", `{"patternProperties":{"^x[0-9]$":{}},"additionalProperties":false}`,
			"additionalProperties", `{"x\u00@41":1}`},
		{"closed object, a declared name or a pattern", `{"properties":{"xA":{}},"patternProperties":{"^x[0-9]$":{}},"additionalProperties":false}`,
			"additionalProperties", `{"x\u004@2":1}`},
		{"propertyNames maxLength", `{"propertyNames":{"maxLength":1}}`, "propertyNames", `{"a@\u0062":1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertDecidedAt(t, tc.schema, tc.keyword, tc.doc)
		})
	}
}

// TestPatternMatchingNothingDecidedAtTheOpeningQuote: a pattern that
// needs a lone surrogate, which no text holds, can match no string, so
// the opening quote, which makes the value a string, is the first
// impossible byte, anchored or not, empty string or not; and a full
// validation's message still quotes the whole value.
func TestPatternMatchingNothingDecidedAtTheOpeningQuote(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{`^\\uD83D`, `\\uD83D`, `[\\uDB00-\\uDFFF]x`} {
		assertDecidedAt(t, `{"type":"string","pattern":"`+expr+`"}`, "pattern", `@"abc"`)
		assertDecidedAt(t, `{"type":"string","pattern":"`+expr+`"}`, "pattern", `@""`)
	}
	s := compileFor(t, schema.JSONSchema, `{"properties":{"s":{"pattern":"\\uD83D"}}}`)
	res := validator.Validate(s, []byte(`{"s":"abc"}`), validator.Options{})
	require.Len(t, res.Findings, 1)
	assert.Contains(t, res.Findings[0].Message, `"abc"`)
	assert.True(t, validator.Validate(s, []byte(`{"s":5}`), validator.Options{}).Valid(), "a pattern says nothing of a number")
}

// TestIntegerDecidedAtTheExponent: a negative exponent's digits only make
// it more negative, so "integer" refuses a number at the exponent's byte
// after which no completion is an integer, in a stream and in a full
// validation alike.
func TestIntegerDecidedAtTheExponent(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, doc string }{
		{"at the sign", `1.5e@-3`},
		{"at the digit", `775.00E-0@1`},
		{"a multiple of ten, at the digit", `100e-00@3`},
		{"a fraction without exponent, at its end", `1.5@`},
		{"a positive exponent cannot decide", `1.25e+1@`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertDecidedAt(t, `{"type":"integer"}`, "type", tc.doc)
		})
	}
}

// TestEnumDecidedInTheExponent: once a number's digits are final, the
// enum or const choices with those digits each need one exponent, so the
// exponent's byte after which none of those can still come decides, in
// a stream and in a full validation alike.
func TestEnumDecidedInTheExponent(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, schema, keyword, doc string }{
		{"at the digit", `{"enum":[150,1500]}`, "enum", `1.5e@1`},
		{"at the sign", `{"enum":[150]}`, "enum", `1.5e@-2`},
		{"at a later digit", `{"enum":[1e20]}`, "enum", `1e2@1`},
		{"a first digit that could go on", `{"enum":[1.5e12]}`, "enum", `1.5e1@3`},
		{"after leading zeros", `{"enum":[150]}`, "enum", `1.5e0@3`},
		{"const, a negative exponent", `{"const":-0.25}`, "const", `-25e-@3`},
		{"digits that only begin a choice, at the e", `{"enum":[15.5]}`, "enum", `15@e1`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertDecidedAt(t, tc.schema, tc.keyword, tc.doc)
		})
	}
	// Choices with one set of digits and many exponents, given in no
	// order: every spelling of each is accepted, byte by byte and whole.
	s := compileFor(t, schema.JSONSchema, `{"properties":{"s":{"enum":[1e7,1,-1e-3,1e5,10,1e3,100,-0.01]}}}`)
	for _, value := range []string{"1e7", "10e6", "0.1e8", "1E+7", "1e0", "1", "10e-1", "1e1", "1e5", "100e3", "1e3", "1000e0", "1e2", "-1e-3", "-10e-4", "-0.001e0", "-1e-2", "-1.0e-2"} {
		doc := []byte(`{"s":` + value + `}`)
		at, first := firstRejection(s, doc)
		assert.Equal(t, -1, at, "%s is a choice, refused with %s", value, first.Message)
		assert.True(t, validator.Validate(s, doc, validator.Options{}).Valid(), value)
	}
}

// assertDecidedAt checks that the member "s" of the arguments, valueAt
// with an '@' before its deciding byte (or at its end: the byte after the
// number), is refused there by keyword of valueSchema, by a stream and by
// a full validation alike.
func assertDecidedAt(t *testing.T, valueSchema, keyword, valueAt string) {
	t.Helper()
	const member = `{"s":`
	at := len(member) + strings.IndexByte(valueAt, '@')
	doc := []byte(member + strings.Replace(valueAt, "@", "", 1) + "}")
	s := compileFor(t, schema.JSONSchema, `{"properties":{"s":`+valueSchema+`}}`)

	p, first := firstRejection(s, doc)
	assert.Equal(t, at, p, "the stream rejects %s at byte %d", doc, at)
	assert.Equal(t, keyword, first.Keyword)
	assert.Equal(t, int64(at), first.Offset)

	res := validator.Validate(s, doc, validator.Options{})
	require.NotEmpty(t, res.Findings, "%s is invalid", doc)
	assert.Equal(t, keyword, res.Findings[0].Keyword)
	assert.Equal(t, int64(at), res.Findings[0].Offset, "the full validation places it there too")
}

// TestNameFoundWholeKeepsTheDecidingByte: a member name or an enum string
// whose first piece is a whole name is found by one lookup
// (schema.NameIndex), and the names it begins stay candidates, so a
// longer name is still matched, and still refused at the first byte no
// name continues, wherever the pieces split. Each document is written in
// two pieces, at every split; the deciding byte is the one after the '@'
// (none: the document is valid).
func TestNameFoundWholeKeepsTheDecidingByte(t *testing.T) {
	t.Parallel()
	closed := `{"properties":{"content":{},"content_type":{},"contents":{},"path":{}},"additionalProperties":false}`
	enum := `{"properties":{"e":{"enum":["ab","abc","abd","b"]}}}`
	cases := []struct{ schema, keyword, doc string }{
		{closed, "", `{"content":1,"content_type":2,"contents":3,"path":4}`},
		{closed, "additionalProperties", `{"content_@x":1}`},
		{closed, "additionalProperties", `{"content@z":1}`},
		{closed, "additionalProperties", `{"contents@s":1}`},
		{closed, "additionalProperties", `{"cont@":1}`}, // a proper prefix: refused at its closing quote
		{closed, "additionalProperties", `{"path":1,"@x":2}`},
		{enum, "", `{"e":"abc"}`},
		{enum, "", `{"e":"ab"}`},
		{enum, "enum", `{"e":"ab@e"}`},
		{enum, "enum", `{"e":"abc@d"}`},
		{enum, "enum", `{"e":"a@"}`},
	}
	for _, tc := range cases {
		s := compileFor(t, schema.JSONSchema, tc.schema)
		at := strings.IndexByte(tc.doc, '@')
		doc := []byte(strings.Replace(tc.doc, "@", "", 1))
		for split := range len(doc) + 1 {
			for _, opts := range []validator.Options{{}, {StopAtFirst: true}} {
				v := validator.New(s, opts)
				v.Write(doc[:split])
				v.Write(doc[split:])
				res := v.Close()
				if tc.keyword == "" {
					assert.True(t, res.Valid(), "%s split at %d: %+v", doc, split, res.Findings)
					continue
				}
				if assert.NotEmpty(t, res.Findings, "%s split at %d", doc, split) {
					assert.Equal(t, tc.keyword, res.Findings[0].Keyword, "%s split at %d", doc, split)
					assert.Equal(t, int64(at), res.Findings[0].Offset, "%s split at %d", doc, split)
				}
			}
		}
	}
}

// TestEveryFalsePositionDecidedAtItsComma: in a full validation, each
// array position with the false schema, not only the first, is refused at
// the ',' that promises it, each in a finding about its element.
func TestEveryFalsePositionDecidedAtItsComma(t *testing.T) {
	t.Parallel()
	s := compileFor(t, schema.JSONSchema, `{"$schema":"http://json-schema.org/draft-06/schema#","properties":{"a":{"items":[{},false,{}],"additionalItems":false}}}`)
	doc := `{"a":[1,2,3,4,5]}`
	var got []violation
	var offsets []int64
	for _, f := range validator.Validate(s, []byte(doc), validator.Options{}).Findings {
		got = append(got, violation{f.Keyword, f.SchemaPath, f.InstancePath})
		offsets = append(offsets, f.Offset)
	}
	assert.Equal(t, []violation{
		{"items", "/properties/a/items/1", "/a/1"},
		{"additionalItems", "/properties/a/additionalItems", "/a/3"},
		{"additionalItems", "/properties/a/additionalItems", "/a/4"},
	}, got)
	commas := []int64{}
	for i, c := range doc {
		if c == ',' {
			commas = append(commas, int64(i))
		}
	}
	assert.Equal(t, []int64{commas[0], commas[2], commas[3]}, offsets, "each at the ',' before its element")
}

// TestFalseMemberOrElementDecidedEarly: a name whose properties or
// patternProperties schema is false admits no value, so the closing quote
// that ends the name is the first impossible byte; an array position whose
// prefixItems or items schema is false (draft-07: a false entry of the items
// array, or additionalItems) admits no element, so the ',' that promises
// it is (and the first byte of the first element). That holds for a
// stream and for a full validation alike; the finding is about the member
// or the element (its pointer), and the value after it makes no second
// one. A name that could still grow into another one waits for its quote.
func TestFalseMemberOrElementDecidedEarly(t *testing.T) {
	t.Parallel()
	const draft7 = `"$schema":"http://json-schema.org/draft-07/schema#",`
	tuple := `{"properties":{"a":{"prefixItems":[{},{}],"items":false}}}`
	for _, tc := range []struct{ schema, keyword, instancePath, doc string }{
		{`{"properties":{"a":false}}`, "properties", "/a", `{"a@":1}`},
		{`{"properties":{"a":false}}`, "properties", "/a", `{"a@"  :  {"x":[1,2]}}`},
		{`{"properties":{"a":false,"ab":{}}}`, "properties", "/a", `{"ab":1,"a@":1}`},
		{`{"patternProperties":{"^x":false}}`, "patternProperties", "/xyz", `{"xyz@":"v"}`},
		{`{"properties":{"o":{"properties":{"é":false}}}}`, "properties", "/o/é", `{"o":{"é@":null}}`},
		{`{"properties":{"a":false}}`, "", "", `{"ab":1,"b":2}`},
		{tuple, "items", "/a/2", `{"a":[1,2@,3]}`},
		{tuple, "items", "/a/2", `{"a":[1, {"b":[2]} @, "x"]}`},
		{tuple, "", "", `{"a":[1,2]}`},
		{`{"properties":{"a":{"items":false}}}`, "items", "/a/0", `{"a":[ @[1]]}`},
		{`{"properties":{"a":{"prefixItems":[{},false,{}]}}}`, "prefixItems", "/a/1", `{"a":[1@,2,3]}`},
		{`{"properties":{"a":{"items":{"prefixItems":[{}],"items":false}}}}`, "items", "/a/1/1", `{"a":[[1],[2@,3]]}`},
		{`{` + draft7 + `"properties":{"a":{"items":[{}],"additionalItems":false}}}`, "additionalItems", "/a/1", `{"a":[[1]@,2]}`},
		{`{` + draft7 + `"properties":{"a":{"items":[{},false]}}}`, "items", "/a/1", `{"a":[1@,2]}`},
	} {
		s := compileFor(t, schema.JSONSchema, tc.schema)
		at := strings.IndexByte(tc.doc, '@')
		doc := []byte(strings.Replace(tc.doc, "@", "", 1))
		res := validator.Validate(s, doc, validator.Options{})
		if tc.keyword == "" {
			assert.True(t, res.Valid(), "%s: %s", tc.doc, diffFindings(res.Findings))
			continue
		}
		p, first := firstRejection(s, doc)
		assert.Equal(t, at, p, "the stream rejects %s at byte %d", doc, at)
		assert.Equal(t, tc.keyword, first.Keyword)
		if assert.Len(t, res.Findings, 1, "%s: %s", doc, diffFindings(res.Findings)) {
			f := res.Findings[0]
			assert.Equal(t, tc.keyword, f.Keyword)
			assert.Equal(t, tc.instancePath, f.InstancePath)
			assert.Equal(t, int64(at), f.Offset, "the full validation places it there too")
			assert.Equal(t, tc.instancePath+` is not allowed here: the schema at "`+f.SchemaPath+`" is false.`, f.Message)
		}
	}
}
