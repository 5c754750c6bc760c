package validator

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONQuote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                   `""`,
		"plain":              `"plain"`,
		`a "b" \c`:           `"a \"b\" \\c"`,
		"\x00\a\v\x7f":       `"\u0000\u0007\u000b\u007f"`,
		"line\nfeed\r\ttab":  `"line\nfeed\r\ttab"`,
		"\b\f":               `"\u0008\u000c"`,
		"café ☕ 𝄞":           `"café ☕ 𝄞"`,
		"cut \xe2\x98":       `"cut \ufffd\ufffd"`,
		"\xff":               `"\ufffd"`,
		"\u2028 stays as is": "\"\u2028 stays as is\"",
	} {
		assert.Equal(t, want, jsonQuote(in), "%q", in)
	}
}

// TestJSONQuoteIsJSON: the quote of any valid UTF-8 text is a JSON string
// that decodes to the text, with no raw control character in it.
func TestJSONQuoteIsJSON(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	alphabet := []rune{0, 1, 7, 8, 9, 10, 11, 12, 13, 31, ' ', '"', '\\', '/', 'a', 0x7f, 0x80, 0xe9, 0x2028, 0xfffd, 0x1d11e}
	for range 2000 {
		text := make([]rune, r.IntN(12))
		for i := range text {
			text[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(text)
		q := jsonQuote(s)
		var back string
		require.NoError(t, json.Unmarshal([]byte(q), &back), "%q -> %s", s, q)
		assert.Equal(t, s, back)
		assert.True(t, utf8.ValidString(q))
		for i := 0; i < len(q); i++ {
			assert.False(t, q[i] < 0x20 || q[i] == 0x7f, "raw control byte in %q", q)
		}
	}
}
