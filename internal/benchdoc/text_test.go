package benchdoc

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAppendEscaped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, plain, ascii string
	}{
		{"", "", ""},
		{`a"b\c`, `a\"b\\c`, `a\"b\\c`},
		{"\n\t\r\x01\x1f", `\n\t\r\u0001\u001f`, `\n\t\r\u0001\u001f`},
		{"é—", "é—", `\u00e9\u2014`},
		{"🚀", "🚀", `\ud83d\ude80`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.plain, string(appendEscaped(nil, tc.in, false)))
			assert.Equal(t, tc.ascii, string(appendEscaped(nil, tc.in, true)))
		})
	}
}

// TestAppendEscapedRoundTrips is a property test: encoding/json decodes
// what appendEscaped writes back to the original text, in both modes.
func TestAppendEscapedRoundTrips(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("a \"\\\n\t\r\x00\x1f\x7féß—€\u2028😀\U0010ffff")
	for range 2000 {
		var sb strings.Builder
		for range r.IntN(20) {
			sb.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		in := sb.String()
		for _, ascii := range []bool{false, true} {
			enc := appendEscaped(nil, in, ascii)
			var out string
			require.NoError(t, json.Unmarshal([]byte(`"`+string(enc)+`"`), &out), "%q ascii=%v: %s", in, ascii, enc)
			require.Equal(t, in, out, "ascii=%v: %s", ascii, enc)
			if ascii {
				for _, c := range enc {
					require.Less(t, c, byte(utf8.RuneSelf), "%q: %s", in, enc)
				}
			}
		}
	}
}
