package validator_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestEscapeDecidedAtItsBackslash: an escape adds one character, whichever
// it spells, so what no further character can satisfy is refused at its
// backslash, the first impossible byte, by a stream and by a full
// validation alike; what some character could still satisfy waits for the
// character, at the escape's last byte. Each value is the member "s" of
// the arguments, under the case's schema.
func TestEscapeDecidedAtItsBackslash(t *testing.T) {
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
		{"const completed", `{"const":"ab"}`, "const", `"ab@\n"`},
		{"pattern that must end", `{"type":"string","pattern":"^ab$"}`, "pattern", `"ab@\t"`},
		{"pattern that could go on", `{"type":"string","pattern":"^[a-z]*$"}`, "pattern", `"ab\@""`},
		{"closed object, declared name completed", `{"properties":{"a":{}},"additionalProperties":false}`,
			"additionalProperties", `{"a@\u0062":1}`},
		{"closed object, a pattern that must end", `{"patternProperties":{"^x$":{}},"additionalProperties":false}`,
			"additionalProperties", `{"x@\n":1}`},
		{"closed object, a pattern that could go on", `{"patternProperties":{"^x[a-z]$":{}},"additionalProperties":false}`,
			"additionalProperties", `{"x\@"":1}`},
		{"propertyNames maxLength", `{"propertyNames":{"maxLength":1}}`, "propertyNames", `{"a@\u0062":1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			const member = `{"s":`
			at := len(member) + strings.IndexByte(tc.doc, '@')
			doc := []byte(member + strings.Replace(tc.doc, "@", "", 1) + "}")
			s := compileFor(t, schema.JSONSchema, `{"properties":{"s":`+tc.schema+`}}`)

			p, first := firstRejection(s, doc)
			assert.Equal(t, at, p, "the stream rejects %s at byte %d", doc, at)
			assert.Equal(t, tc.keyword, first.Keyword)
			assert.Equal(t, int64(at), first.Offset)

			res := validator.Validate(s, doc, validator.Options{})
			require.NotEmpty(t, res.Findings, "%s is invalid", doc)
			assert.Equal(t, tc.keyword, res.Findings[0].Keyword)
			assert.Equal(t, int64(at), res.Findings[0].Offset, "the full validation places it there too")
		})
	}
}
