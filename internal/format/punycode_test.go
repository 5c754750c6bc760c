package format

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// punycodeSamples are the sample strings of RFC 3492 §7.1 (the Unicode
// side as code points, the Punycode side as the RFC prints it, whose
// upper-case letters are case annotations an encoder need not repeat).
var punycodeSamples = []struct{ name, unicode, punycode string }{
	{"(A) Arabic (Egyptian)", "\u0644\u064a\u0647\u0645\u0627\u0628\u062a\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064a\u061f", "egbpdaj6bu4bxfgehfvwxn"},
	{"(B) Chinese (simplified)", "\u4ed6\u4eec\u4e3a\u4ec0\u4e48\u4e0d\u8bf4\u4e2d\u6587", "ihqwcrb4cv8a8dqg056pqjye"},
	{"(C) Chinese (traditional)", "\u4ed6\u5011\u7232\u4ec0\u9ebd\u4e0d\u8aaa\u4e2d\u6587", "ihqwctvzc91f659drss3x8bo0yb"},
	{"(D) Czech", "Pro\u010dprost\u011bnemluv\u00ed\u010desky", "Proprostnemluvesky-uyb24dma41a"},
	{"(E) Hebrew", "\u05dc\u05de\u05d4\u05d4\u05dd\u05e4\u05e9\u05d5\u05d8\u05dc\u05d0\u05de\u05d3\u05d1\u05e8\u05d9\u05dd\u05e2\u05d1\u05e8\u05d9\u05ea", "4dbcagdahymbxekheh6e0a7fei0b"},
	{"(F) Hindi (Devanagari)", "\u092f\u0939\u0932\u094b\u0917\u0939\u093f\u0928\u094d\u0926\u0940\u0915\u094d\u092f\u094b\u0902\u0928\u0939\u0940\u0902\u092c\u094b\u0932\u0938\u0915\u0924\u0947\u0939\u0948\u0902", "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"},
	{"(G) Japanese (kanji and hiragana)", "\u306a\u305c\u307f\u3093\u306a\u65e5\u672c\u8a9e\u3092\u8a71\u3057\u3066\u304f\u308c\u306a\u3044\u306e\u304b", "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"},
	{"(I) Russian (Cyrillic)", "\u043f\u043e\u0447\u0435\u043c\u0443\u0436\u0435\u043e\u043d\u0438\u043d\u0435\u0433\u043e\u0432\u043e\u0440\u044f\u0442\u043f\u043e\u0440\u0443\u0441\u0441\u043a\u0438", "b1abfaaepdrnnbgefbaDotcwatmq2g4l"},
	{"(J) Spanish", "Porqu\u00e9nopuedensimplementehablarenEspa\u00f1ol", "PorqunopuedensimplementehablarenEspaol-fmd56a"},
	{"(K) Vietnamese", "T\u1ea1isaoh\u1ecdkh\u00f4ngth\u1ec3ch\u1ec9n\u00f3iti\u1ebfngVi\u1ec7t", "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"},
	{"(L)", "3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"},
	{"(M)", "安室奈美恵-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
	{"(N)", "Hello-Another-Way-それぞれの場所", "Hello-Another-Way--fc4qua05auwb3674vfr0b"},
	{"(O)", "ひとつ屋根の下2", "2-u9tlzr9756bt3uc0v"},
	{"(P)", "MajiでKoiする5秒前", "MajiKoi5-783gue6qz075azm5e"},
	{"(Q)", "パフィーdeルンバ", "de-jg4avhby1noc0d"},
	{"(R)", "そのスピードで", "d9juau41awczczp"},
	{"(S) ASCII only", "-> $1.00 <-", "-> $1.00 <--"},
}

func TestPunycodeSamples(t *testing.T) {
	t.Parallel()
	for _, sample := range punycodeSamples {
		t.Run(sample.name, func(t *testing.T) {
			t.Parallel()
			runes := make([]rune, 64)
			n, ok := punycodeDecode(runes, sample.punycode)
			require.True(t, ok)
			assert.Equal(t, sample.unicode, string(runes[:n]), "decode")

			encoded := make([]byte, 64)
			m, ok := punycodeEncode(encoded, []rune(sample.unicode))
			require.True(t, ok)
			assert.True(t, strings.EqualFold(sample.punycode, string(encoded[:m])), "encode: %s", encoded[:m])
		})
	}
}

func TestPunycodeDecodeErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ why, input string }{
		{"a byte that is no digit", "a-b!"},
		{"a digit sequence cut short", "a-9"},
		{"a value past U+10FFFF (U+126ECE)", "bb00h"},
		{"a surrogate (U+D800)", "ib9b"},
		{"a surrogate after a basic code point", "a-rc4g"},
		{"an integer overflow", "a-999999999999999999999999"},
		{"non-ASCII basic code points", "ü-tda"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			t.Parallel()
			_, ok := punycodeDecode(make([]rune, 64), tc.input)
			assert.False(t, ok, "%q", tc.input)
		})
	}
	// The two surrogate inputs are exactly what an encoder makes of
	// U+D800, so their failure is the scalar check, not the syntax.
	encoded := make([]byte, 8)
	n, ok := punycodeEncode(encoded, []rune{0xD800})
	require.True(t, ok)
	assert.Equal(t, "ib9b", string(encoded[:n]))

	// A destination too small for the code points is an error, not a
	// partial answer.
	_, ok = punycodeDecode(make([]rune, 5), "3B-ww4c5e180e575a65lsy2b")
	assert.False(t, ok)
	_, ok = punycodeEncode(make([]byte, 10), []rune("3年B組金八先生"))
	assert.False(t, ok)
}

// TestPunycodeRoundTrip is a property test: any code points encode and
// decode back to themselves.
func TestPunycodeRoundTrip(t *testing.T) {
	t.Parallel()
	random := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		runes := make([]rune, random.IntN(20))
		for i := range runes {
			switch random.IntN(3) {
			case 0:
				runes[i] = rune(random.IntN(0x80))
			case 1:
				runes[i] = rune(0x80 + random.IntN(0x800))
			default:
				for runes[i] = rune(random.IntN(utf8.MaxRune + 1)); !utf8.ValidRune(runes[i]); {
					runes[i] = rune(random.IntN(utf8.MaxRune + 1))
				}
			}
		}
		encoded := make([]byte, 256)
		n, ok := punycodeEncode(encoded, runes)
		require.True(t, ok, "encode %U", runes)
		decoded := make([]rune, len(runes))
		m, ok := punycodeDecode(decoded, string(encoded[:n]))
		require.True(t, ok, "decode %q of %U", encoded[:n], runes)
		require.Equal(t, runes, decoded[:m], "round trip through %q", encoded[:n])
	}
}
