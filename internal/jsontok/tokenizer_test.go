package jsontok_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/jsontok"
)

// recorder is a Handler that renders every call as one line, so that two
// event streams compare as strings. Raw Text pieces that continue each other
// (the next starts where the previous ended) are merged, which makes every
// split of the input render alike; decoded pieces stand for one whole escape
// and are kept as they are. It also checks the Text offset contract against
// the whole input: raw p[i] is doc[off+i], and a decoded piece's offset is the
// last byte of an escape.
type recorder struct {
	doc      []byte
	lines    []string
	raw      []byte // pending merged raw text
	rawOff   int64
	problems []string
	// skipText makes the recorder call SkipText on tok at the Begin of
	// every string and number, and a Text event inside one a problem.
	skipText bool
	tok      *jsontok.Tokenizer
	skipped  bool // inside a value whose text is skipped
}

func (r *recorder) flush() {
	if r.raw != nil {
		r.lines = append(r.lines, fmt.Sprintf("raw @%d %s", r.rawOff, strconv.Quote(string(r.raw))))
		r.raw = nil
	}
}

func (r *recorder) add(format string, args ...any) {
	r.flush()
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

func (r *recorder) Begin(kind jsontok.Kind, off int64) {
	r.add("begin %s @%d", kind, off)
	if r.skipText && (kind == jsontok.String || kind == jsontok.Number) {
		r.tok.SkipText()
		r.skipped = true
	}
}
func (r *recorder) BeginKey(off int64) { r.add("key @%d", off) }
func (r *recorder) EndKey(off int64)   { r.add("endkey @%d", off) }
func (r *recorder) Separator(int64)    {} // TestSeparators checks them
func (r *recorder) End(kind jsontok.Kind, off int64) {
	r.add("end %s @%d", kind, off)
	r.skipped = false
}

func (r *recorder) Escape(off int64) {
	if r.skipped {
		r.problems = append(r.problems, fmt.Sprintf("Escape at %d inside a value whose text is skipped", off))
	}
	if off < 0 || off >= int64(len(r.doc)) || r.doc[off] != '\\' {
		r.problems = append(r.problems, fmt.Sprintf("Escape at %d is not at a backslash", off))
	}
	r.add("escape @%d", off)
}

func (r *recorder) EscapeRange(chars jsontok.CharRange, off int64) {
	if r.skipped {
		r.problems = append(r.problems, fmt.Sprintf("EscapeRange at %d inside a value whose text is skipped", off))
	}
	if off < 0 || off >= int64(len(r.doc)) || !strings.ContainsRune("0123456789abcdefABCDEF", rune(r.doc[off])) {
		r.problems = append(r.problems, fmt.Sprintf("EscapeRange at %d is not at a hex digit", off))
	}
	if chars.Lo > chars.Hi {
		r.problems = append(r.problems, fmt.Sprintf("EscapeRange at %d is empty: %+v", off, chars))
	}
	if chars.Hi2 == 0 {
		r.add("range @%d %U-%U", off, chars.Lo, chars.Hi)
		return
	}
	r.add("range @%d %U-%U %U-%U", off, chars.Lo, chars.Hi, chars.Lo2, chars.Hi2)
}

func (r *recorder) Text(p []byte, off int64, raw bool) {
	if r.skipped {
		r.problems = append(r.problems, fmt.Sprintf("Text %q at %d inside a value whose text is skipped", p, off))
	}
	if len(p) == 0 {
		r.problems = append(r.problems, fmt.Sprintf("empty Text at %d", off))
	}
	if !raw {
		if off < 0 || off >= int64(len(r.doc)) || !strings.ContainsRune(`"\/bfnrt0123456789abcdefABCDEF`, rune(r.doc[off])) {
			r.problems = append(r.problems, fmt.Sprintf("decoded Text %q at %d is not at the last byte of an escape", p, off))
		}
		r.add("esc @%d %s", off, strconv.Quote(string(p)))
		return
	}
	if off < 0 || off+int64(len(p)) > int64(len(r.doc)) || !bytes.Equal(r.doc[off:off+int64(len(p))], p) {
		r.problems = append(r.problems, fmt.Sprintf("raw Text %q at %d does not match the input", p, off))
	}
	if r.raw != nil && r.rawOff+int64(len(r.raw)) == off {
		r.raw = append(r.raw, p...)
		return
	}
	r.flush()
	r.raw, r.rawOff = append([]byte{}, p...), off
}

func (r *recorder) String() string {
	r.flush()
	s := strings.Join(r.lines, "\n")
	for _, p := range r.problems {
		s += "\nPROBLEM: " + p
	}
	return s
}

// renderErr renders an error from Feed or End; anything other than a
// *SyntaxError is itself a failure and renders as such.
func renderErr(err error) string {
	var se *jsontok.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("error @%d: %s", se.Offset, se.Msg())
	}
	return fmt.Sprintf("NOT A *SyntaxError: %T %v", err, err)
}

// wantErr is how a test case spells the expected error.
func wantErr(off int64, msg string) string { return fmt.Sprintf("error @%d: %s", off, msg) }

// feed runs the tokenizer over doc cut at cuts (increasing offsets inside
// doc; nil feeds doc whole) and returns the rendered events followed by the
// final error, if any. Each piece is a fresh copy that is scribbled over after
// Feed returns, so a tokenizer that kept a reference to the caller's bytes
// shows up as a difference. It also checks that an error is sticky.
func feed(t testing.TB, doc []byte, maxDepth int, cuts []int) string {
	t.Helper()
	return feedRecorder(t, &recorder{doc: doc}, maxDepth, cuts)
}

// feedSkipping is feed with SkipText called for every string and number
// value: what it renders lacks those values' Text and Escape lines, and
// nothing else.
func feedSkipping(t testing.TB, doc []byte, maxDepth int, cuts []int) string {
	t.Helper()
	return feedRecorder(t, &recorder{doc: doc, skipText: true}, maxDepth, cuts)
}

// feedRecorder is feed with rec, made for doc, as the handler.
func feedRecorder(t testing.TB, rec *recorder, maxDepth int, cuts []int) string {
	t.Helper()
	doc := rec.doc
	tok := jsontok.New(rec, maxDepth)
	rec.tok = tok
	prev := 0
	var err error
	for _, cut := range append(cuts, len(doc)) {
		piece := append([]byte{}, doc[prev:cut]...)
		err = tok.Feed(piece)
		for i := range piece {
			piece[i] = 0xFF
		}
		prev = cut
		if err != nil {
			break
		}
	}
	if err == nil {
		if err = tok.End(); err == nil {
			// End after a complete document stays complete.
			if again := tok.End(); again != nil {
				t.Errorf("second End after success: %v", again)
			}
			if tok.Err() != nil {
				t.Errorf("Err after success: %v", tok.Err())
			}
			if tok.Offset() != int64(len(doc)) {
				t.Errorf("Offset after success: %d, want %d", tok.Offset(), len(doc))
			}
			return rec.String()
		}
	}
	// The tokenizer is dead: every later call returns the same error.
	if again := tok.Feed([]byte("[")); again != err {
		t.Errorf("Feed after error %v returned %v", err, again)
	}
	if again := tok.End(); again != err {
		t.Errorf("End after error %v returned %v", err, again)
	}
	if tok.Err() != err {
		t.Errorf("Err after error %v returned %v", err, tok.Err())
	}
	return rec.String() + "\n" + renderErr(err)
}

// lastLine returns the verdict line of a feed result: the error, or "" when
// the document was accepted.
func lastLine(out string) string {
	line := out[strings.LastIndexByte(out, '\n')+1:]
	if strings.HasPrefix(line, "error @") || strings.HasPrefix(line, "NOT A") {
		return line
	}
	return ""
}

// checkSplits feeds doc whole, one byte at a time, at every split point into
// two pieces, at every split into three pieces (short documents), with empty
// pieces in between, and in random multi-splits, and requires the same
// rendering every time; it checks SkipText too (checkSkipping). It returns
// the whole-document rendering.
func checkSplits(t testing.TB, doc []byte, maxDepth int, r *rand.Rand) string {
	t.Helper()
	whole := feed(t, doc, maxDepth, nil)
	checkSkipping(t, doc, maxDepth, whole, randomCuts(r, len(doc), 3))
	same := func(cuts []int) bool {
		t.Helper()
		got := feed(t, doc, maxDepth, cuts)
		if got != whole {
			assert.Equal(t, whole, got, "cuts %v", cuts)
			return false
		}
		return true
	}
	if !same(bytewiseCuts(len(doc))) {
		return whole
	}
	for i := 0; i <= len(doc); i++ {
		if !same([]int{i}) {
			return whole
		}
	}
	if len(doc) <= 48 {
		for i := 0; i <= len(doc); i++ {
			for j := i; j <= len(doc); j++ {
				if !same([]int{i, j}) {
					return whole
				}
			}
		}
	}
	for range 20 {
		if !same(randomCuts(r, len(doc), 4)) {
			return whole
		}
	}
	return whole
}

// bytewiseCuts cuts a document of n bytes into pieces of one byte.
func bytewiseCuts(n int) []int {
	cuts := make([]int, 0, max(n-1, 0))
	for i := 1; i < n; i++ {
		cuts = append(cuts, i)
	}
	return cuts
}

// randomCuts cuts a document of n bytes at random: at each offset with a
// chance of one in oneIn, and then again with the same chance (an empty
// piece).
func randomCuts(r *rand.Rand, n, oneIn int) []int {
	var cuts []int
	for i := 0; i <= n; i++ {
		for r.IntN(oneIn) == 0 {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// tokCase is one document and the verdict the tokenizer must reach: "" for
// acceptance, else the exact error (wantErr).
type tokCase struct {
	name string
	doc  string
	want string
}

const unexpectedEnd = "unexpected end of JSON input"

var validCases = []tokCase{
	// Every kind of value at the top level.
	{"empty object", `{}`, ""},
	{"empty array", `[]`, ""},
	{"empty string", `""`, ""},
	{"zero", `0`, ""},
	{"minus zero", `-0`, ""},
	{"integer", `123`, ""},
	{"negative fraction exponent", `-1.5e+10`, ""},
	{"capital E", `1E5`, ""},
	{"negative exponent", `1e-7`, ""},
	{"fraction", `0.5`, ""},
	{"zero exponent forms", `[0e0,0E+0,-0.0e-0,1.0E+2]`, ""},
	{"long integer", `123456789012345678901234567890`, ""},
	{"huge exponent", `1e999999999`, ""},
	{"tiny exponent", `-1e-999999999`, ""},
	{"huger exponent", `[1e99999999999999999999999,1e-99999999999999999999999]`, ""},
	{"true", `true`, ""},
	{"false", `false`, ""},
	{"null", `null`, ""},
	// White space.
	{"leading and trailing white space", " \t\n\r{} \n\t\r ", ""},
	{"white space everywhere", " { \"a\" : [ 1 , 2 ] , \"b\" : { } } ", ""},
	{"number then white space", "7 ", ""},
	// Containers.
	{"nested", `{"a":[1,{"b":null}],"c":"d","e":[[],{}],"f":[true,false]}`, ""},
	{"deep arrays", `[[[[[[[[]]]]]]]]`, ""},
	{"deep objects", `{"a":{"b":{"c":{"d":{}}}}}`, ""},
	{"empty name", `{"":""}`, ""},
	{"numbers in arrays", `[1,-2,3.5,4e1,0,-0]`, ""},
	{"numbers in objects", `{"a":1,"b":-0.5e-3,"c":0}`, ""},
	{"literals in containers", `[true,{"t":false,"n":null},null]`, ""},
	{"duplicate names are the caller's business", `{"a":1,"a":2}`, ""},
	// Escapes.
	{"every short escape", `"\"\\\/\b\f\n\r\t"`, ""},
	{"u0000", `"\u0000"`, ""},
	{"u escapes", `"\u0041\u00e9\u20AC\uFFFF\u007f"`, ""},
	{"surrogate pair", `"\uD83D\uDE00"`, ""},
	{"surrogate pair lower case", `"\ud83d\ude00"`, ""},
	{"last surrogate pair", `"\uDBFF\uDFFF"`, ""},
	{"first surrogate pair", `"\uD800\uDC00"`, ""},
	{"escapes in names", `{"a\nb":1,"\u00e9":2,"\uD83D\uDE00":3}`, ""},
	{"escape then plain text", `"ab\ncd\u0041ef"`, ""},
	{"only escapes", `"\n\t\u0041\uD83D\uDE00\\"`, ""},
	// Raw UTF-8 at every length and at the edges of the valid ranges.
	{"multi-byte UTF-8", "\"é€😀\"", ""},
	{"U+0080 and U+07FF", "\"\xC2\x80\xDF\xBF\"", ""},
	{"U+0800 and U+0FFF", "\"\xE0\xA0\x80\xE0\xBF\xBF\"", ""},
	{"U+D7FF and U+E000", "\"\xED\x9F\xBF\xEE\x80\x80\"", ""},
	{"U+FFFF", "\"\xEF\xBF\xBF\"", ""},
	{"U+10000", "\"\xF0\x90\x80\x80\"", ""},
	{"U+10FFFF", "\"\xF4\x8F\xBF\xBF\"", ""},
	{"U+40000", "\"\xF1\x80\x80\x80\"", ""},
	{"DEL is plain", "\"\x7F\"", ""},
	{"UTF-8 in a name", "{\"ключ\":\"значение\"}", ""},
}

var invalidCases = []tokCase{
	// Empty and incomplete documents.
	{"empty input", ``, wantErr(0, unexpectedEnd)},
	{"only white space", "  \n", wantErr(3, unexpectedEnd)},
	{"open array", `[`, wantErr(1, unexpectedEnd)},
	{"open object", `{`, wantErr(1, unexpectedEnd)},
	{"name without colon", `{"a"`, wantErr(4, unexpectedEnd)},
	{"name without value", `{"a":`, wantErr(5, unexpectedEnd)},
	{"open string", `"abc`, wantErr(4, unexpectedEnd)},
	{"open name", `{"ab`, wantErr(4, unexpectedEnd)},
	{"array after comma", `[1,`, wantErr(3, unexpectedEnd)},
	{"number in open array", `[1`, wantErr(2, unexpectedEnd)},
	{"open escape", `"\`, wantErr(2, unexpectedEnd)},
	{"open u escape", `"\u12`, wantErr(5, unexpectedEnd)},
	{"high surrogate at end", `"\uD800`, wantErr(7, unexpectedEnd)},
	{"high surrogate then backslash at end", `"\uD800\`, wantErr(8, unexpectedEnd)},
	// Trailing data.
	{"two objects", `{} {}`, wantErr(3, "invalid character '{' after top-level value")},
	{"object then letter", `{}x`, wantErr(2, "invalid character 'x' after top-level value")},
	{"extra closer", `[1]]`, wantErr(3, "invalid character ']' after top-level value")},
	{"string then NUL", "\"a\"\x00", wantErr(3, "invalid character 0x00 after top-level value")},
	{"two numbers", `1 2`, wantErr(2, "invalid character '2' after top-level value")},
	// Numbers.
	{"lone minus", `-`, wantErr(1, unexpectedEnd)},
	{"leading zero", `01`, wantErr(1, "invalid character '1' after top-level value")},
	{"two zeros", `00`, wantErr(1, "invalid character '0' after top-level value")},
	{"negative leading zero", `-01`, wantErr(2, "invalid character '1' after top-level value")},
	{"leading zero in array", `[01]`, wantErr(2, "invalid character '1' after array element")},
	{"no fraction digits", `1.`, wantErr(2, unexpectedEnd)},
	{"no fraction digits in array", `[1.]`, wantErr(3, "invalid character ']' in numeric literal")},
	{"no integer digits", `.5`, wantErr(0, "invalid character '.' looking for beginning of value")},
	{"no exponent digits", `1e`, wantErr(2, unexpectedEnd)},
	{"no exponent digits after sign", `1e+`, wantErr(3, unexpectedEnd)},
	{"no exponent digits in array", `[1e]`, wantErr(3, "invalid character ']' in numeric literal")},
	{"dot then exponent", `1.e5`, wantErr(2, "invalid character 'e' in numeric literal")},
	{"fraction after exponent", `1e5.0`, wantErr(3, "invalid character '.' after top-level value")},
	{"hex", `0x10`, wantErr(1, "invalid character 'x' after top-level value")},
	{"plus sign", `+1`, wantErr(0, "invalid character '+' looking for beginning of value")},
	{"minus letter", `-x`, wantErr(1, "invalid character 'x' in numeric literal")},
	{"minus Infinity", `-Infinity`, wantErr(1, "invalid character 'I' in numeric literal")},
	{"NaN", `NaN`, wantErr(0, "invalid character 'N' looking for beginning of value")},
	{"double minus", `--1`, wantErr(1, "invalid character '-' in numeric literal")},
	{"number then letter", `1x`, wantErr(1, "invalid character 'x' after top-level value")},
	{"exponent sign twice", `1e+-1`, wantErr(3, "invalid character '-' in numeric literal")},
	// Literals.
	{"tru", `tru`, wantErr(3, unexpectedEnd)},
	{"nul", `nul`, wantErr(3, unexpectedEnd)},
	{"fals in array", `[fals]`, wantErr(5, "invalid character ']' in literal false")},
	{"falsex", `falsex`, wantErr(5, "invalid character 'x' after top-level value")},
	{"nulll", `nulll`, wantErr(4, "invalid character 'l' after top-level value")},
	{"trUe", `trUe`, wantErr(2, "invalid character 'U' in literal true")},
	{"True", `True`, wantErr(0, "invalid character 'T' looking for beginning of value")},
	{"truex in array", `[truex]`, wantErr(5, "invalid character 'x' after array element")},
	// Structure.
	{"lone closer", `]`, wantErr(0, "invalid character ']' looking for beginning of value")},
	{"mismatched closer", `[}`, wantErr(1, "invalid character '}' looking for beginning of value")},
	{"mismatched object closer", `{]`, wantErr(1, "invalid character ']' looking for beginning of object key string")},
	{"mismatched after element", `[1}`, wantErr(2, "invalid character '}' after array element")},
	{"mismatched after member", `{"a":1]`, wantErr(6, "invalid character ']' after object key:value pair")},
	{"missing colon", `{"a" 1}`, wantErr(5, "invalid character '1' after object key")},
	{"missing comma in object", `{"a":1 "b":2}`, wantErr(7, "invalid character '\"' after object key:value pair")},
	{"missing comma in array", `[1 2]`, wantErr(3, "invalid character '2' after array element")},
	{"trailing comma in array", `[1,]`, wantErr(3, "invalid character ']' looking for beginning of value")},
	{"trailing comma in object", `{"a":1,}`, wantErr(7, "invalid character '}' looking for beginning of object key string")},
	{"leading comma", `{,}`, wantErr(1, "invalid character ',' looking for beginning of object key string")},
	{"number as name", `{1:2}`, wantErr(1, "invalid character '1' looking for beginning of object key string")},
	{"single quotes", `{'a':1}`, wantErr(1, "invalid character '\\'' looking for beginning of object key string")},
	{"vertical tab is not white space", "\v{}", wantErr(0, "invalid character 0x0B looking for beginning of value")},
	{"form feed is not white space", "[\f]", wantErr(1, "invalid character 0x0C looking for beginning of value")},
	{"BOM", "\xEF\xBB\xBF{}", wantErr(0, "invalid character 0xEF looking for beginning of value (a UTF-8 byte order mark begins with it; JSON text must not)")},
	{"0xEF later", "[\xEF\xBB\xBF]", wantErr(1, "invalid character 0xEF looking for beginning of value")},
	{"UTF-8 outside strings", "[\xC3\xA9]", wantErr(1, "invalid character 0xC3 looking for beginning of value")},
	{"colon in array", `[1:2]`, wantErr(2, "invalid character ':' after array element")},
	// Control characters in strings and names.
	{"raw NUL", "\"\x00\"", wantErr(1, "invalid control character 0x00 in string")},
	{"raw 0x1F", "\"a\x1F\"", wantErr(2, "invalid control character 0x1F in string")},
	{"raw newline", "\"a\nb\"", wantErr(2, "invalid control character 0x0A in string")},
	{"raw tab", "\"\t\"", wantErr(1, "invalid control character 0x09 in string")},
	{"control in name", "{\"a\x01\":1}", wantErr(3, "invalid control character 0x01 in string")},
	// Bad escapes.
	{"unknown escape", `"\x"`, wantErr(2, "invalid escape 'x' in string")},
	// Escapes met inside the word loop (eight bytes or more left in the
	// piece), which takes its own way through them, skipping text or not.
	{"unknown escape among words", `"abc\n\xdefghijklmnop"`, wantErr(7, "invalid escape 'x' in string")},
	{"bad hex digit among words", `"abcdefgh\u00G9ijklmnop"`, wantErr(13, "invalid character 'G' in \\u escape")},
	{"lone low surrogate among words", `"abcdefgh\uDC00ijklmnop"`, wantErr(12, "lone surrogate in string escape")},
	{"escaped single quote", `"\'"`, wantErr(2, "invalid escape '\\'' in string")},
	{"capital U escape", `"\U0041"`, wantErr(2, "invalid escape 'U' in string")},
	{"bad hex digit", `"\u12G4"`, wantErr(5, "invalid character 'G' in \\u escape")},
	{"short u escape", `"\u12"`, wantErr(5, "invalid character '\"' in \\u escape")},
	{"bad hex in low surrogate", `"\uD800\uDCx0"`, wantErr(11, "invalid character 'x' in \\u escape")},
	// Lone surrogate escapes.
	{"high alone", `"\uD800"`, wantErr(7, "lone surrogate in string escape")},
	{"high then text", `"\uD800x"`, wantErr(7, "lone surrogate in string escape")},
	{"low alone", `"\uDC00"`, wantErr(4, "lone surrogate in string escape")},
	{"last low alone", `"\uDFFF"`, wantErr(4, "lone surrogate in string escape")},
	{"low then high", `"\uDC00\uD800"`, wantErr(4, "lone surrogate in string escape")},
	{"high then non-surrogate escape", `"\uD800\u0041"`, wantErr(9, "lone surrogate in string escape")},
	{"high then high", `"\uD800\uDBFF"`, wantErr(10, "lone surrogate in string escape")},
	{"high then short escape", `"\uD800\n"`, wantErr(8, "lone surrogate in string escape")},
	{"high then raw non-ASCII", "\"\\uD800\xC3\xA9\"", wantErr(7, "lone surrogate in string escape")},
	{"lone surrogate in name", `{"\uDE00":1}`, wantErr(5, "lone surrogate in string escape")},
	// Invalid UTF-8.
	{"overlong NUL", "\"\xC0\x80\"", wantErr(1, "invalid UTF-8 in string")},
	{"overlong two-byte C1", "\"\xC1\xBF\"", wantErr(1, "invalid UTF-8 in string")},
	{"overlong three-byte", "\"\xE0\x80\x80\"", wantErr(2, "invalid UTF-8 in string")},
	{"overlong three-byte edge", "\"\xE0\x9F\xBF\"", wantErr(2, "invalid UTF-8 in string")},
	{"overlong four-byte", "\"\xF0\x80\x80\x80\"", wantErr(2, "invalid UTF-8 in string")},
	{"overlong four-byte edge", "\"\xF0\x8F\xBF\xBF\"", wantErr(2, "invalid UTF-8 in string")},
	{"encoded high surrogate", "\"\xED\xA0\x80\"", wantErr(2, "invalid UTF-8 in string")},
	{"encoded low surrogate", "\"\xED\xBF\xBF\"", wantErr(2, "invalid UTF-8 in string")},
	{"encoded surrogate pair", "\"\xED\xA0\xBD\xED\xB8\x80\"", wantErr(2, "invalid UTF-8 in string")},
	{"above U+10FFFF", "\"\xF4\x90\x80\x80\"", wantErr(2, "invalid UTF-8 in string")},
	{"F5 lead byte", "\"\xF5\x80\x80\x80\"", wantErr(1, "invalid UTF-8 in string")},
	{"FF byte", "\"\xFF\"", wantErr(1, "invalid UTF-8 in string")},
	{"lone continuation", "\"a\x80\"", wantErr(2, "invalid UTF-8 in string")},
	{"truncated two-byte before quote", "\"\xC3\"", wantErr(2, "invalid UTF-8 in string")},
	{"truncated three-byte before quote", "\"\xE2\x82\"", wantErr(3, "invalid UTF-8 in string")},
	{"truncated four-byte before ASCII", "\"\xF0\x9F\x98a\"", wantErr(4, "invalid UTF-8 in string")},
	{"truncated before escape", "\"\xC3\\n\"", wantErr(2, "invalid UTF-8 in string")},
	{"truncated two-byte at End", "\"\xC3", wantErr(2, unexpectedEnd)},
	{"truncated three-byte at End", "\"\xE2\x82", wantErr(3, unexpectedEnd)},
	{"truncated four-byte at End", "\"\xF0\x9F\x98", wantErr(4, unexpectedEnd)},
	{"invalid UTF-8 in name", "{\"\xC3\x28\":1}", wantErr(3, "invalid UTF-8 in string")},
	{"too many continuations", "\"\xC3\xA9\xA9\"", wantErr(3, "invalid UTF-8 in string")},
}

// allCases is the shared corpus: every named case.
func allCases() []tokCase { return append(append([]tokCase{}, validCases...), invalidCases...) }

func TestTokenizerVerdicts(t *testing.T) {
	t.Parallel()
	for _, tc := range allCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := feed(t, []byte(tc.doc), 0, nil)
			assert.NotContains(t, out, "PROBLEM")
			assert.Equal(t, tc.want, lastLine(out), "events:\n%s", out)
		})
	}
}

// withoutValueText drops, from a rendering of feed, the Text and Escape
// lines of string and number values: what feedSkipping renders for the same input.
func withoutValueText(out string) string {
	var kept []string
	inValue := false
	for line := range strings.SplitSeq(out, "\n") {
		switch {
		case strings.HasPrefix(line, "begin string ") || strings.HasPrefix(line, "begin number "):
			inValue = true
		case strings.HasPrefix(line, "end "):
			inValue = false
		case inValue && (strings.HasPrefix(line, "raw @") || strings.HasPrefix(line, "esc @") || strings.HasPrefix(line, "escape @") || strings.HasPrefix(line, "range @")):
			continue
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, "\n")
}

// checkSkipping requires that SkipText changes nothing but the values'
// Text and Escape events, whole, one byte at a time and at cuts: the same
// tokens at the same offsets, and the same error at the same byte. whole
// is feed's rendering of doc without SkipText.
func checkSkipping(t testing.TB, doc []byte, maxDepth int, whole string, cuts []int) {
	t.Helper()
	want := withoutValueText(whole)
	for _, c := range [][]int{nil, bytewiseCuts(len(doc)), cuts} {
		if got := feedSkipping(t, doc, maxDepth, c); got != want {
			t.Fatalf("doc %q\ncuts %v\nwithout SkipText (values' text dropped):\n%s\nwith SkipText:\n%s", doc, c, want, got)
		}
	}
}

// TestTokenizerEverySplit is STYLE habit 8 for the tokenizer: one byte at a
// time, every split point, every three-way split of short documents and
// random multi-splits all give the whole-document events and error. And
// a handler that reads no value's text (as the validator for a plain
// "type": "string"), calling SkipText, gets every other event and every
// error exactly as without it, through the escapes and word-at-a-time
// runs that skipping takes its own way through (see checkSplits).
func TestTokenizerEverySplit(t *testing.T) {
	t.Parallel()
	for i, tc := range allCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(i), 1))
			out := checkSplits(t, []byte(tc.doc), 0, r)
			assert.NotContains(t, out, "PROBLEM")
		})
	}
	t.Run("generated", func(t *testing.T) {
		t.Parallel()
		r := rand.New(rand.NewPCG(7, 7))
		for range 300 {
			doc := genDocOrMutant(r)
			out := checkSplits(t, doc, 8, r)
			if !assert.NotContains(t, out, "PROBLEM", "doc %q", doc) || t.Failed() {
				t.Logf("doc %q", doc)
				return
			}
		}
	})
}

// TestTokenizerEvents pins the exact events, and so the Text offset contract,
// on a few documents: raw text maps byte for byte to the input, an escape
// is announced at its backslash, a \u escape's hex digits narrow the
// character it spells, and its decoded text points at its last byte;
// numbers end at the byte after them.
func TestTokenizerEvents(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		doc  string
		want []string
	}{
		{"mixed", `{"k\u00e9":["a\nb",-1.5e3,true]}`, []string{
			"begin object @0",
			"key @1", `raw @2 "k"`, "escape @3",
			"range @5 U+0000-U+0FFF", "range @6 U+0000-U+00FF", "range @7 U+00E0-U+00EF", `esc @8 "é"`, "endkey @9",
			"begin array @11",
			"begin string @12", `raw @13 "a"`, "escape @14", `esc @15 "\n"`, `raw @16 "b"`, "end string @17",
			"begin number @19", `raw @19 "-1.5e3"`, "end number @25",
			"begin true @26", "end true @29",
			"end array @30",
			"end object @31",
		}},
		{"top-level number ends at End", ` 12 `, []string{"begin number @1", `raw @1 "12"`, "end number @3"}},
		{"top-level number ends at the end of input", `-0.5`, []string{"begin number @0", `raw @0 "-0.5"`, "end number @4"}},
		{"surrogate pair is one decoded piece at its last byte", `"x\uD83D\uDE00y"`, []string{
			"begin string @0", `raw @1 "x"`, "escape @2",
			"range @4 U+D000-U+D7FF U+10000-U+10FFFF", "range @5 U+10000-U+4FFFF", "range @6 U+1C000-U+1FFFF", "range @7 U+1F400-U+1F7FF",
			"range @10 U+1F400-U+1F7FF", "range @11 U+1F600-U+1F6FF", "range @12 U+1F600-U+1F60F",
			`esc @13 "😀"`, `raw @14 "y"`, "end string @15",
		}},
		{"u0000 decodes to a NUL byte", `"\u0000"`, []string{
			"begin string @0", "escape @1", "range @3 U+0000-U+0FFF", "range @4 U+0000-U+00FF", "range @5 U+0000-U+000F",
			`esc @6 "\x00"`, "end string @7",
		}},
		{"every short escape", `"\"\\\/\b\f\n\r\t"`, []string{
			"begin string @0", "escape @1", `esc @2 "\""`, "escape @3", `esc @4 "\\"`, "escape @5", `esc @6 "/"`,
			"escape @7", `esc @8 "\b"`, "escape @9", `esc @10 "\f"`, "escape @11", `esc @12 "\n"`,
			"escape @13", `esc @14 "\r"`, "escape @15", `esc @16 "\t"`, "end string @17",
		}},
		{"raw UTF-8 passes through", "[\"é\",null,false]", []string{
			"begin array @0", "begin string @1", `raw @2 "é"`, "end string @4",
			"begin null @6", "end null @9", "begin false @11", "end false @15", "end array @16",
		}},
		{"empty name and string", `{"":""}`, []string{"begin object @0", "key @1", "endkey @2", "begin string @4", "end string @5", "end object @6"}},
		{"number before closer", `[0]`, []string{"begin array @0", "begin number @1", `raw @1 "0"`, "end number @2", "end array @2"}},
		{"events before an error are delivered", `[1,"a\x"]`, []string{
			"begin array @0", "begin number @1", `raw @1 "1"`, "end number @2", "begin string @3", `raw @4 "a"`,
			"escape @5", `error @6: invalid escape 'x' in string`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(3, 3))
			out := checkSplits(t, []byte(tc.doc), 0, r)
			assert.Equal(t, strings.Join(tc.want, "\n"), out)
		})
	}
}

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	nest := func(n int, open, close string) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	cases := []struct {
		name     string
		maxDepth int
		doc      string
		want     string
	}{
		{"arrays exactly at the limit", 3, nest(3, "[", "]"), ""},
		{"arrays one past the limit", 3, nest(4, "[", "]"), wantErr(3, "nesting deeper than the limit of 3")},
		{"objects exactly at the limit", 2, `{"a":{"b":1}}`, ""},
		{"objects one past the limit", 2, `{"a":{"b":{}}}`, wantErr(10, "nesting deeper than the limit of 2")},
		{"mixed past the limit", 3, `{"a":[1,{"b":[]}]}`, wantErr(13, "nesting deeper than the limit of 3")},
		{"scalars do not count", 2, `[["x",1,true,null]]`, ""},
		{"siblings do not add up", 1, `[[],[]]`, wantErr(1, "nesting deeper than the limit of 1")},
		{"limit one", 1, `{"a":1,"b":[2]}`, wantErr(11, "nesting deeper than the limit of 1")},
		{"depth returns after closing", 2, `[[],[],{"a":[]}]`, wantErr(12, "nesting deeper than the limit of 2")},
		{"default exactly at the limit", 0, nest(jsontok.DefaultMaxDepth, "[", "]"), ""},
		{"default one past the limit", 0, nest(jsontok.DefaultMaxDepth+1, "[", "]"), wantErr(jsontok.DefaultMaxDepth, "nesting deeper than the limit of 128")},
		{"negative means default", -5, nest(jsontok.DefaultMaxDepth+1, "[", "]"), wantErr(jsontok.DefaultMaxDepth, "nesting deeper than the limit of 128")},
		{"limit checked before the bracket's event", 1, `[{}]`, wantErr(1, "nesting deeper than the limit of 1")},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(i), 9))
			out := checkSplits(t, []byte(tc.doc), tc.maxDepth, r)
			assert.Equal(t, tc.want, lastLine(out))
			if tc.want != "" {
				// The offending bracket gets no Begin event.
				off := tc.want[len("error @"):strings.IndexByte(tc.want, ':')]
				assert.NotContains(t, out, "@"+off+"\n")
			}
		})
	}
}

// counter is a Handler that only counts, for very large documents.
type counter struct{ begins, ends int }

func (c *counter) Begin(jsontok.Kind, int64)            { c.begins++ }
func (c *counter) BeginKey(int64)                       {}
func (c *counter) Text([]byte, int64, bool)             {}
func (c *counter) Escape(int64)                         {}
func (c *counter) EscapeRange(jsontok.CharRange, int64) {}
func (c *counter) EndKey(int64)                         {}
func (c *counter) Separator(int64)                      {}
func (c *counter) End(jsontok.Kind, int64)              { c.ends++ }
func feedChunks(tok *jsontok.Tokenizer, doc []byte, size int) error {
	for len(doc) > 0 {
		n := min(size, len(doc))
		if err := tok.Feed(doc[:n]); err != nil {
			return err
		}
		doc = doc[n:]
	}
	return tok.End()
}

// TestMillionDeep feeds 1,000,000 nested brackets. With the default limit it
// is rejected at bracket 129 without the tokenizer's stack growing; with a
// limit of 2,000,000 it is accepted, fast, and with goroutine stacks capped
// at 4 MiB, which a recursive tokenizer (tens of bytes of stack per level at
// the very least) could not stay under. Not parallel: it sets the process's
// maximum stack size and measures allocation.
func TestMillionDeep(t *testing.T) {
	const depth = 1_000_000
	open := bytes.Repeat([]byte{'['}, depth)
	doc := append(append([]byte{}, open...), bytes.Repeat([]byte{']'}, depth)...)

	old := debug.SetMaxStack(4 << 20)
	defer debug.SetMaxStack(old)

	t.Run("rejected by the default limit", func(t *testing.T) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c := &counter{}
		tok := jsontok.New(c, 0)
		err := tok.Feed(open)
		runtime.ReadMemStats(&after)
		assertTooDeep(t, jsontok.DefaultMaxDepth, "nesting deeper than the limit of 128", err)
		assert.Equal(t, jsontok.DefaultMaxDepth, c.begins)
		// The input is 1 MB; the tokenizer must not have allocated in
		// proportion to it.
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10))
	})
	t.Run("rejected when fed one byte at a time", func(t *testing.T) {
		tok := jsontok.New(&counter{}, 0)
		var err error
		for i := range open {
			if err = tok.Feed(open[i : i+1]); err != nil {
				break
			}
		}
		assertTooDeep(t, jsontok.DefaultMaxDepth, "nesting deeper than the limit of 128", err)
	})
	for _, size := range []int{len(doc), 4096, 1} {
		t.Run(fmt.Sprintf("accepted with a 2,000,000 limit in %d-byte pieces", size), func(t *testing.T) {
			// No recursion: the stack limit above would be hit long before
			// a million nested calls.
			c := &counter{}
			tok := jsontok.New(c, 2_000_000)
			require.NoError(t, feedChunks(tok, doc, size))
			assert.Equal(t, depth, c.begins)
			assert.Equal(t, depth, c.ends)
		})
	}
	t.Run("one past a 1,000,000 limit", func(t *testing.T) {
		c := &counter{}
		tok := jsontok.New(c, depth-1)
		err := feedChunks(tok, doc, 1<<16)
		assertTooDeep(t, depth-1, "nesting deeper than the limit of 999999", err)
	})
}

// assertTooDeep checks that err is the depth limit's SyntaxError.
func assertTooDeep(t *testing.T, off int64, msg string, err error) {
	t.Helper()
	var se *jsontok.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, off, se.Offset)
	assert.Equal(t, msg, se.Msg())
	assert.True(t, se.TooDeep)
}

// TestResetReuses checks that Reset revives a dead tokenizer and that a
// reused tokenizer allocates nothing for a valid document (DESIGN.md §6: no
// per-token allocation). Not parallel: AllocsPerRun refuses parallel tests.
func TestResetReuses(t *testing.T) {
	rec := &recorder{doc: []byte(`{"a":1}`)}
	tok := jsontok.New(rec, 0)
	require.Error(t, tok.Feed([]byte(`{"a":x`)))
	tok.Reset(rec, 0)
	rec.lines = nil
	require.NoError(t, tok.Feed(rec.doc))
	require.NoError(t, tok.End())
	assert.Equal(t, "begin object @0\nkey @1\nraw @2 \"a\"\nendkey @3\nbegin number @5\nraw @5 \"1\"\nend number @6\nend object @6", rec.String())

	doc := []byte(` {"name":"value \u00e9 \uD83D\uDE00 é","n":[1,-2.5e10,0],"t":true,"f":false,"z":null,"o":{"p":[[{}]]}} `)
	c := &counter{}
	tok = jsontok.New(c, 0)
	allocs := testing.AllocsPerRun(50, func() {
		tok.Reset(c, 0)
		if err := tok.Feed(doc[:17]); err != nil {
			panic(err)
		}
		if err := tok.Feed(doc[17:]); err != nil {
			panic(err)
		}
		if err := tok.End(); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)
}

// TestSyntaxErrorLivesInTheTokenizer checks that a reused tokenizer's
// syntax error allocates nothing, and that the error Feed returns is the
// one Err returns and keeps its description until the next Reset. Not
// parallel: AllocsPerRun refuses parallel tests.
func TestSyntaxErrorLivesInTheTokenizer(t *testing.T) {
	c := &counter{}
	tok := jsontok.New(c, 0)
	doc := []byte("{\"path\": \"a\nb\"}")
	var err error
	allocs := testing.AllocsPerRun(50, func() {
		tok.Reset(c, 0)
		err = tok.Feed(doc)
	})
	assert.Zero(t, allocs)
	var se *jsontok.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Same(t, se, tok.Err())
	assert.Equal(t, int64(11), se.Offset)
	assert.Equal(t, "invalid control character 0x0A in string at byte 11", err.Error())
	assert.Equal(t, err, tok.End(), "End reports the same error")
}

// TestErrorQuotesTheByte checks how a message shows the offending byte, for
// every byte that cannot begin a value: printable ASCII quoted as Go quotes
// a rune, anything else in hex.
func TestErrorQuotesTheByte(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		if strings.IndexByte(" \t\r\n{[\"-0123456789tfn]", byte(c)) >= 0 {
			continue
		}
		shown := fmt.Sprintf("0x%02X", c)
		if c >= 0x20 && c < 0x7F {
			shown = strconv.QuoteRune(rune(c))
		}
		tok := jsontok.New(&counter{}, 0)
		assert.Equal(t, wantErr(1, "invalid character "+shown+" looking for beginning of value"), renderErr(tok.Feed([]byte{'[', byte(c)})))
	}
}

func TestKindString(t *testing.T) {
	t.Parallel()
	for kind, want := range map[jsontok.Kind]string{
		jsontok.Object: "object", jsontok.Array: "array", jsontok.String: "string",
		jsontok.Number: "number", jsontok.True: "true", jsontok.False: "false", jsontok.Null: "null",
	} {
		assert.Equal(t, want, kind.String())
	}
	tok := jsontok.New(&counter{}, 0)
	require.NoError(t, tok.Feed([]byte(`[1, `)))
	assert.EqualError(t, tok.End(), "unexpected end of JSON input at byte 4")
}

// jsonDepth is encoding/json's fixed nesting limit; with the same limit the
// two agree on nesting.
const jsonDepth = 10000

// documentedDifference reports whether a tokenizer error is one that
// encoding/json.Valid does not make: it accepts invalid UTF-8 inside strings
// and lone surrogate escapes (it checks \u escapes only for four hex digits),
// both of which a validating gateway must refuse (DESIGN.md §3).
func documentedDifference(verdict string) bool {
	return strings.HasSuffix(verdict, ": invalid UTF-8 in string") ||
		strings.HasSuffix(verdict, ": lone surrogate in string escape")
}

// compareWithEncodingJSON checks one document against encoding/json: the same
// verdict unless the difference is documented, and for accepted documents the
// value rebuilt from the events equals encoding/json's decoding.
func compareWithEncodingJSON(t testing.TB, doc []byte) {
	t.Helper()
	tb := &treeBuilder{}
	tok := jsontok.New(tb, jsonDepth)
	err := tok.Feed(doc)
	if err == nil {
		err = tok.End()
	}
	verdict := ""
	if err != nil {
		verdict = renderErr(err)
	}
	if documentedDifference(verdict) {
		return
	}
	if !assert.Equal(t, json.Valid(doc), err == nil, "doc %q: tokenizer says %q", doc, verdict) {
		return
	}
	if err != nil {
		// Both reject, and at the same byte: encoding/json's Offset counts
		// the offending byte as read, ours is its index; at an early end
		// both are the input length.
		if jsonOffsetsComparable() {
			var se *jsontok.SyntaxError
			require.ErrorAs(t, err, &se)
			want := se.Offset + 1
			if se.Offset == int64(len(doc)) {
				want = se.Offset
			}
			assert.Equal(t, want, jsonErrorOffset(doc), "doc %q: tokenizer says %q", doc, verdict)
		}
		return
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var want any
	require.NoError(t, dec.Decode(&want), "doc %q", doc)
	assert.Equal(t, want, tb.root, "doc %q", doc)
}

func TestAgainstEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range allCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			compareWithEncodingJSON(t, []byte(tc.doc))
		})
	}
	t.Run("depth limits agree at 10000", func(t *testing.T) {
		t.Parallel()
		compareWithEncodingJSON(t, []byte(strings.Repeat("[", jsonDepth)+strings.Repeat("]", jsonDepth)))
		compareWithEncodingJSON(t, []byte(strings.Repeat("[", jsonDepth+1)+strings.Repeat("]", jsonDepth+1)))
		compareWithEncodingJSON(t, []byte(strings.Repeat(`{"a":`, jsonDepth)+"1"+strings.Repeat("}", jsonDepth)))
		compareWithEncodingJSON(t, []byte(strings.Repeat(`{"a":`, jsonDepth+1)+"1"+strings.Repeat("}", jsonDepth+1)))
	})
	t.Run("generated", func(t *testing.T) {
		t.Parallel()
		r := rand.New(rand.NewPCG(11, 11))
		for range 3000 {
			compareWithEncodingJSON(t, genDocOrMutant(r))
			if t.Failed() {
				return
			}
		}
	})
}

// jsonErrorOffset returns encoding/json's SyntaxError.Offset for doc, or -1.
func jsonErrorOffset(doc []byte) int64 {
	var raw json.RawMessage
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(doc, &raw), &se) {
		return se.Offset
	}
	return -1
}

// jsonOffsetsComparable reports whether encoding/json counts error offsets
// the way its v1 scanner does (as checked on two inputs), so that the
// offsets can be compared; GOEXPERIMENT=jsonv2 may count differently.
func jsonOffsetsComparable() bool {
	return jsonErrorOffset([]byte("[1}")) == 3 && jsonErrorOffset([]byte("[1")) == 2
}

// TestEncodingJSONDifferences lists, as executable cases, every kind of input
// that encoding/json.Valid accepts and the tokenizer refuses.
func TestEncodingJSONDifferences(t *testing.T) {
	t.Parallel()
	cases := []tokCase{
		{"invalid UTF-8 byte", "\"\xFF\"", wantErr(1, "invalid UTF-8 in string")},
		{"overlong encoding", "\"\xC0\x80\"", wantErr(1, "invalid UTF-8 in string")},
		{"surrogate encoded in UTF-8", "\"\xED\xA0\x80\"", wantErr(2, "invalid UTF-8 in string")},
		{"above U+10FFFF", "\"\xF4\x90\x80\x80\"", wantErr(2, "invalid UTF-8 in string")},
		{"truncated sequence", "[\"\xE2\x82\"]", wantErr(4, "invalid UTF-8 in string")},
		{"invalid UTF-8 in a name", "{\"\x80\":1}", wantErr(2, "invalid UTF-8 in string")},
		{"lone high surrogate escape", `"\uD800"`, wantErr(7, "lone surrogate in string escape")},
		{"lone low surrogate escape", `"\uDC00"`, wantErr(4, "lone surrogate in string escape")},
		{"high surrogate then non-low escape", `"\uD800\u0041"`, wantErr(9, "lone surrogate in string escape")},
		{"high surrogate then text", `["\uD83Dx"]`, wantErr(8, "lone surrogate in string escape")},
		{"a nesting limit other than 10000", strings.Repeat("[", 200) + strings.Repeat("]", 200), wantErr(128, "nesting deeper than the limit of 128")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.True(t, json.Valid([]byte(tc.doc)), "encoding/json.Valid accepts it")
			assert.Equal(t, tc.want, lastLine(feed(t, []byte(tc.doc), 0, nil)))
		})
	}
}

// treeBuilder is a Handler that rebuilds the value the way encoding/json
// decodes into any with UseNumber: map[string]any (later duplicates win),
// []any, string, json.Number, bool and nil.
type treeBuilder struct {
	root   any
	frames []frame
	text   []byte
}

type frame struct {
	obj map[string]any
	arr []any
	key string
}

func (b *treeBuilder) Begin(kind jsontok.Kind, _ int64) {
	b.text = b.text[:0]
	switch kind {
	case jsontok.Object:
		b.frames = append(b.frames, frame{obj: map[string]any{}})
	case jsontok.Array:
		b.frames = append(b.frames, frame{arr: []any{}})
	}
}

func (b *treeBuilder) BeginKey(int64)                       { b.text = b.text[:0] }
func (b *treeBuilder) Text(p []byte, _ int64, _ bool)       { b.text = append(b.text, p...) }
func (b *treeBuilder) Escape(int64)                         {}
func (b *treeBuilder) EscapeRange(jsontok.CharRange, int64) {}
func (b *treeBuilder) EndKey(int64)                         { b.frames[len(b.frames)-1].key = string(b.text) }
func (b *treeBuilder) Separator(int64)                      {}

func (b *treeBuilder) End(kind jsontok.Kind, _ int64) {
	var v any
	switch kind {
	case jsontok.Object, jsontok.Array:
		f := b.frames[len(b.frames)-1]
		b.frames = b.frames[:len(b.frames)-1]
		if kind == jsontok.Object {
			v = f.obj
		} else {
			v = f.arr
		}
	case jsontok.String:
		v = string(b.text)
	case jsontok.Number:
		v = json.Number(b.text)
	case jsontok.True:
		v = true
	case jsontok.False:
		v = false
	}
	if len(b.frames) == 0 {
		b.root = v
		return
	}
	f := &b.frames[len(b.frames)-1]
	if f.obj != nil {
		f.obj[f.key] = v
	} else {
		f.arr = append(f.arr, v)
	}
}

// genDocOrMutant returns a genDoc document, or half of the time a mutant
// of one (most often not JSON).
func genDocOrMutant(r *rand.Rand) []byte {
	doc := genDoc(r)
	if r.IntN(2) == 0 {
		doc = mutate(r, doc)
	}
	return doc
}

// genDoc returns a random valid JSON document with random white space, every
// escape, raw multi-byte UTF-8 and every number form.
func genDoc(r *rand.Rand) []byte {
	var b []byte
	ws := func() {
		for r.IntN(3) == 0 {
			b = append(b, " \t\n\r"[r.IntN(4)])
		}
	}
	ws()
	b = genValue(r, b, 0, ws)
	ws()
	return b
}

func genValue(r *rand.Rand, b []byte, depth int, ws func()) []byte {
	k := r.IntN(10)
	if depth > 4 {
		k = 2 + r.IntN(8)
	}
	switch k {
	case 0:
		b = append(b, '{')
		for i := range r.IntN(4) {
			if i > 0 {
				b = append(b, ',')
			}
			ws()
			b = genString(r, b)
			ws()
			b = append(b, ':')
			ws()
			b = genValue(r, b, depth+1, ws)
			ws()
		}
		return append(b, '}')
	case 1:
		b = append(b, '[')
		for i := range r.IntN(4) {
			if i > 0 {
				b = append(b, ',')
			}
			ws()
			b = genValue(r, b, depth+1, ws)
			ws()
		}
		return append(b, ']')
	case 2, 3, 4:
		return genString(r, b)
	case 5, 6, 7:
		return genNumber(r, b)
	}
	return append(b, []string{"true", "false", "null"}[r.IntN(3)]...)
}

func genString(r *rand.Rand, b []byte) []byte {
	b = append(b, '"')
	for range r.IntN(6) {
		switch r.IntN(8) {
		case 0:
			b = append(b, []string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`}[r.IntN(8)]...)
		case 1:
			c := r.IntN(0xD800)
			b = fmt.Appendf(b, `\u%04x`, c)
		case 2:
			c := 0x10000 + r.IntN(0x100000)
			hi, lo := 0xD800+(c-0x10000)>>10, 0xDC00+(c-0x10000)&0x3FF
			b = fmt.Appendf(b, `\u%04X\u%04x`, hi, lo)
		case 3:
			b = append(b, []string{"é", "€", "😀", "\u07ff", "\u0800", "\ufffd", "\U0010ffff", "\ue000"}[r.IntN(8)]...)
		case 4:
			b = append(b, `\u0000`...)
		default:
			for range 1 + r.IntN(5) {
				b = append(b, byte(' '+r.IntN(95)))
				if b[len(b)-1] == '"' || b[len(b)-1] == '\\' {
					b[len(b)-1] = 'q'
				}
			}
		}
	}
	return append(b, '"')
}

func genNumber(r *rand.Rand, b []byte) []byte {
	if r.IntN(3) == 0 {
		b = append(b, '-')
	}
	if r.IntN(4) == 0 {
		b = append(b, '0')
	} else {
		b = append(b, byte('1'+r.IntN(9)))
		for range r.IntN(25) {
			b = append(b, byte('0'+r.IntN(10)))
		}
	}
	if r.IntN(2) == 0 {
		b = append(b, '.')
		for range 1 + r.IntN(20) {
			b = append(b, byte('0'+r.IntN(10)))
		}
	}
	if r.IntN(2) == 0 {
		b = append(b, "eE"[r.IntN(2)])
		if r.IntN(2) == 0 {
			b = append(b, "+-"[r.IntN(2)])
		}
		for range 1 + r.IntN(12) {
			b = append(b, byte('0'+r.IntN(10)))
		}
	}
	return b
}

// mutate damages doc in one random way, mostly making it invalid.
func mutate(r *rand.Rand, doc []byte) []byte {
	doc = append([]byte{}, doc...)
	interesting := []byte("{}[]\",:\\u0eE.-+ \x00\x1f\x7f\x80\xbf\xc0\xc3\xe2\xed\xf0\xf4\xf5\xffDd")
	switch {
	case len(doc) == 0:
		return []byte{interesting[r.IntN(len(interesting))]}
	case r.IntN(4) == 0:
		return doc[:r.IntN(len(doc))]
	case r.IntN(3) == 0:
		i := r.IntN(len(doc))
		return append(doc[:i], doc[i+1:]...)
	case r.IntN(2) == 0:
		doc[r.IntN(len(doc))] = interesting[r.IntN(len(interesting))]
		return doc
	}
	i := r.IntN(len(doc) + 1)
	return append(doc[:i], append([]byte{interesting[r.IntN(len(interesting))]}, doc[i:]...)...)
}

// separators records the offsets of Separator events.
type separators struct {
	counter
	at []int64
}

func (s *separators) Separator(off int64) { s.at = append(s.at, off) }

// TestSeparators checks that every ',' between members or elements, and
// nothing else, is reported at its offset, however the document is split.
func TestSeparators(t *testing.T) {
	t.Parallel()
	doc := []byte(`{"a,":[1 ,"," , {}], "b":{"c":[]} ,"d":null}`)
	var want []int64
	for _, off := range []int{9, 14, 19, 34} {
		require.Equal(t, byte(','), doc[off])
		want = append(want, int64(off))
	}
	for _, size := range []int{len(doc), 7, 1} {
		s := &separators{}
		require.NoError(t, feedChunks(jsontok.New(s, 0), doc, size))
		assert.Equal(t, want, s.at, "pieces of %d bytes", size)
	}
}
