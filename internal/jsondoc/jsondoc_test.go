package jsondoc_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/decimal"
	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// describe renders a tree with member order, kinds and both number forms, so
// that a table can state what Parse built.
func describe(v *jsondoc.Value) string {
	switch v.Kind {
	case jsontok.Object:
		parts := make([]string, 0, len(v.Members))
		for _, m := range v.Members {
			parts = append(parts, strconv.Quote(m.Name)+":"+describe(m.Value))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case jsontok.Array:
		parts := make([]string, 0, len(v.Items))
		for _, item := range v.Items {
			parts = append(parts, describe(item))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case jsontok.String:
		return strconv.Quote(v.Str)
	case jsontok.Number:
		return fmt.Sprintf("num(%s=%s)", v.Raw, v.Num)
	}
	return v.Kind.String()
}

func TestParse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, doc, want string
	}{
		{"scalars", `[true,false,null,"s",1]`, `[true,false,null,"s",num(1=1)]`},
		{"member order is kept", `{"b":1,"a":2,"c":3}`, `{"b":num(1=1),"a":num(2=2),"c":num(3=3)}`},
		{"white space is dropped", " { \"a\" : [ 1 , 2 ] } \n", `{"a":[num(1=1),num(2=2)]}`},
		{"escapes are decoded", `{"k\u00e9\n":"\"\\\/\b\f\n\r\t\u0000\uD83D\uDE00"}`, `{"ké\n":"\"\\/\b\f\n\r\t\x00😀"}`},
		{"numbers keep raw text and exact value", `[1.0,-0,1e2,0.1000000000000000000000000001,9007199254740993]`,
			`[num(1.0=1),num(-0=0),num(1e2=100),num(0.1000000000000000000000000001=1.000000000000000000000000001e-1),num(9007199254740993=9007199254740993)]`},
		{"huge and tiny exponents", `[1e999999999,-1e-999999999]`, `[num(1e999999999=1e999999999),num(-1e-999999999=-1e-999999999)]`},
		{"top-level number", ` 12.50 `, `num(12.50=1.25e1)`},
		{"top-level string", `"x"`, `"x"`},
		{"nested", `{"a":{"b":[{"c":[]}]},"d":{}}`, `{"a":{"b":[{"c":[]}]},"d":{}}`},
		{"empty name", `{"":""}`, `{"":""}`},
		{"same name in different objects", `{"a":{"a":1},"b":{"a":2}}`, `{"a":{"a":num(1=1)},"b":{"a":num(2=2)}}`},
		{"string after number member", `{"n":1,"s":"t"}`, `{"n":num(1=1),"s":"t"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, err := jsondoc.Parse([]byte(tc.doc), 0)
			require.NoError(t, err)
			assert.Equal(t, tc.want, describe(v))
		})
	}
}

func TestValueAccessors(t *testing.T) {
	t.Parallel()
	v, err := jsondoc.Parse([]byte(`{"t":true,"f":false,"n":null,"num":-2.5,"s":"x","a":[],"o":{}}`), 0)
	require.NoError(t, err)
	cases := []struct {
		name     string
		typeName string
		isBool   bool
	}{
		{"t", "boolean", true}, {"f", "boolean", true}, {"n", "null", false}, {"num", "number", false},
		{"s", "string", false}, {"a", "array", false}, {"o", "object", false},
	}
	for _, tc := range cases {
		m := v.Get(tc.name)
		require.NotNil(t, m, tc.name)
		assert.Equal(t, tc.typeName, m.TypeName(), tc.name)
		assert.Equal(t, tc.isBool, m.IsBool(), tc.name)
	}
	assert.Nil(t, v.Get("missing"))
	assert.Nil(t, v.Get("T"))
	want, _ := decimal.Parse([]byte("-2.5"))
	assert.True(t, v.Get("num").Num.Equal(want))
	assert.Equal(t, "-2.5", v.Get("num").Raw)
	assert.Equal(t, "object", v.TypeName())
}

func TestParseDuplicates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		doc  string
		want jsondoc.DuplicateError
	}{
		{"at the root", `{"a":1,"a":2}`, jsondoc.DuplicateError{Pointer: "", Name: "a", Offset: 9}},
		{"same value twice", `{"a":1,"a":1}`, jsondoc.DuplicateError{Pointer: "", Name: "a", Offset: 9}},
		{"spelled differently", `{"a":1,"\u0061":2}`, jsondoc.DuplicateError{Pointer: "", Name: "a", Offset: 14}},
		{"empty name", `{"":1,"":2}`, jsondoc.DuplicateError{Pointer: "", Name: "", Offset: 7}},
		{"the first duplicate is reported", `{"a":1,"b":1,"b":2,"a":2}`, jsondoc.DuplicateError{Pointer: "", Name: "b", Offset: 15}},
		{"in an array element", `[{"a":1,"a":1}]`, jsondoc.DuplicateError{Pointer: "/0", Name: "a", Offset: 10}},
		{"pointer through arrays", `{"x":[{"b":1},{"a/~":1,"a/~":2}]}`, jsondoc.DuplicateError{Pointer: "/x/1", Name: "a/~", Offset: 27}},
		{"pointer escapes", `{"p/q":{"r~s":{"z":1,"z":2}}}`, jsondoc.DuplicateError{Pointer: "/p~1q/r~0s", Name: "z", Offset: 23}},
		{"pointer through nested arrays", `{"a":[[],[{"k":0,"k":0}]]}`, jsondoc.DuplicateError{Pointer: "/a/1/0", Name: "k", Offset: 19}},
		{"after a complete sibling", `{"a":{"x":1},"b":{"y":1,"y":[]}}`, jsondoc.DuplicateError{Pointer: "/b", Name: "y", Offset: 26}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, err := jsondoc.Parse([]byte(tc.doc), 0)
			assert.Nil(t, v)
			var dup *jsondoc.DuplicateError
			require.ErrorAs(t, err, &dup)
			assert.Equal(t, tc.want, *dup)
			assert.Equal(t, fmt.Sprintf("duplicate member name %q in object at %q (byte %d)", tc.want.Name, tc.want.Pointer, tc.want.Offset), err.Error())
		})
	}
	t.Run("incomplete document with a duplicate is still an error", func(t *testing.T) {
		t.Parallel()
		v, err := jsondoc.Parse([]byte(`{"a":1,"a":2`), 0)
		assert.Nil(t, v)
		assert.Error(t, err)
	})
}

func TestParseSyntaxErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		doc  string
		off  int64
		msg  string
	}{
		{"empty", ``, 0, "unexpected end of JSON input"},
		{"trailing data", `{} {}`, 3, "invalid character '{' after top-level value"},
		{"invalid UTF-8", "[\"\xED\xA0\x80\"]", 3, "invalid UTF-8 in string"},
		{"lone surrogate", `["\uD800"]`, 8, "lone surrogate in string escape"},
		{"incomplete", `{"a":[1,2`, 9, "unexpected end of JSON input"},
		{"bad number", `[01]`, 2, "invalid character '1' after array element"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, err := jsondoc.Parse([]byte(tc.doc), 0)
			assert.Nil(t, v)
			var se *jsontok.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.off, se.Offset)
			assert.Equal(t, tc.msg, se.Msg())
			assert.False(t, se.TooDeep)
		})
	}
}

func TestParseDepth(t *testing.T) {
	t.Parallel()
	nest := func(n int) string { return strings.Repeat(`{"a":[`, n) + strings.Repeat(`]}`, n) }
	cases := []struct {
		name     string
		doc      string
		maxDepth int
		wantOff  int64 // -1: accepted
	}{
		{"exactly at the limit", nest(2), 4, -1},
		{"one past the limit", nest(2) + "", 3, 11},
		{"arrays at the limit", "[[[]]]", 3, -1},
		{"arrays past the limit", "[[[[]]]]", 3, 3},
		{"default limit", strings.Repeat("[", jsontok.DefaultMaxDepth) + strings.Repeat("]", jsontok.DefaultMaxDepth), 0, -1},
		{"past the default limit", strings.Repeat("[", jsontok.DefaultMaxDepth+1) + strings.Repeat("]", jsontok.DefaultMaxDepth+1), 0, jsontok.DefaultMaxDepth},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, err := jsondoc.Parse([]byte(tc.doc), tc.maxDepth)
			if tc.wantOff < 0 {
				require.NoError(t, err)
				assert.NotNil(t, v)
				return
			}
			assert.Nil(t, v)
			var se *jsontok.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.wantOff, se.Offset)
			assert.Contains(t, se.Msg(), "nesting deeper than the limit")
			assert.True(t, se.TooDeep)
		})
	}
}

func canonical(t testing.TB, doc string) string {
	t.Helper()
	v, err := jsondoc.Parse([]byte(doc), 0)
	require.NoError(t, err, "doc %q", doc)
	return string(jsondoc.Canonical(v))
}

func TestCanonical(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, doc, want string
	}{
		{"keys sorted", `{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{"keys sorted bytewise on UTF-8", `{"é":1,"z":2,"Z":3,"":4,"aa":5,"a":6,"b":7}`, `{"":4,"Z":3,"a":6,"aa":5,"b":7,"z":2,"é":1}`},
		{"keys sorted on decoded names", `{"\u0062":1,"a\"":2,"a":3}`, `{"a":3,"a\"":2,"b":1}`},
		{"nested objects sorted, arrays kept", `{"b":{"d":1,"c":2},"a":[{"y":1,"x":2},3,2]}`, `{"a":[{"x":2,"y":1},3,2],"b":{"c":2,"d":1}}`},
		{"white space dropped", " { \"a\" : [ 1 , 2 ] , \"b\" : { } } \n", `{"a":[1,2],"b":{}}`},
		{"number spellings", `[1.0,1e2,-0,1.5,0.001,1E21,100e-2,-2.50,1e20]`, `[1,100,0,1.5e0,1e-3,1e21,1,-2.5e0,100000000000000000000]`},
		{"huge numbers", `[1e999999999,-1e-999999999]`, `[1e999999999,-1e-999999999]`},
		{"short escapes", `"\"\\\/\b\f\n\r\t"`, `"\"\\/\u0008\u000c\n\u000d\t"`},
		{"u escapes of ASCII and beyond", `"\u0041\u00e9\u2028\u007f\uD83D\uDE00"`, "\"Aé\u2028\x7f😀\""},
		{"control characters", `"\u0000\u001f\u0001"`, `"\u0000\u001f\u0001"`},
		{"raw UTF-8 kept", "\"é€😀\"", "\"é€😀\""},
		{"literals", `[true,false,null]`, `[true,false,null]`},
		{"escaped names", `{"a\nb":1}`, `{"a\nb":1}`},
		{"empty containers", `[{},[],""]`, `[{},[],""]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := canonical(t, tc.doc)
			assert.Equal(t, tc.want, got)
			assert.True(t, json.Valid([]byte(got)), "canonical text is JSON")
			assert.Equal(t, got, canonical(t, got), "canonical text is a fixed point")
			v, err := jsondoc.Parse([]byte(tc.doc), 0)
			require.NoError(t, err)
			assert.Equal(t, "prefix"+got, string(jsondoc.AppendCanonical([]byte("prefix"), v)))
		})
	}
}

// TestAppendCanonicalOmitting: the values omit holds are written as {}
// wherever they sit below the root, objects and arrays alike, and the root
// itself is written whole even when omit holds it.
// TestAppendReadable: the canonical text with numbers in the fixed
// notation a reader expects, still JSON of the same value.
func TestAppendReadable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, doc, want string }{
		{"number spellings", `[1.0,1e2,-0,1.5,0.001,1E21,100e-2,-2.50,1e20,1e-7]`, `[1,100,0,1.5,0.001,1e21,1,-2.5,100000000000000000000,1e-7]`},
		{"huge numbers as written", `[1e999999999,-1e-999999999]`, `[1e999999999,-1e-999999999]`},
		{"members sorted, strings canonical", `{"b":[0.25],"a":"\u0041\n"}`, `{"a":"A\n","b":[0.25]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, err := jsondoc.Parse([]byte(tc.doc), 0)
			require.NoError(t, err)
			got := string(jsondoc.AppendReadable([]byte("prefix"), v))
			assert.Equal(t, "prefix"+tc.want, got)
			assert.True(t, json.Valid([]byte(tc.want)), "readable text is JSON")
			assert.Equal(t, canonical(t, tc.doc), canonical(t, tc.want), "of the same value")
		})
	}
}

func TestAppendCanonicalOmitting(t *testing.T) {
	t.Parallel()
	v, err := jsondoc.Parse([]byte(`{"b":{"x":[1,{"y":2}]},"a":[3,{"z":4}]}`), 0)
	require.NoError(t, err)
	inner := v.Get("b").Get("x").Items[1]
	item := v.Get("a").Items[1]
	omit := map[*jsondoc.Value]bool{inner: true, item: true, v: true}
	assert.Equal(t, `{"a":[3,{}],"b":{"x":[1,{}]}}`, string(jsondoc.AppendCanonicalOmitting(nil, v, omit)))
	assert.Equal(t, `{"y":2}`, string(jsondoc.AppendCanonicalOmitting(nil, inner, omit)))
	assert.Equal(t, string(jsondoc.Canonical(v)), string(jsondoc.AppendCanonicalOmitting(nil, v, nil)))
}

// TestCanonicalSameValue: spellings of one value share their canonical text.
func TestCanonicalSameValue(t *testing.T) {
	t.Parallel()
	groups := [][]string{
		{`{"a":1,"b":[1,2]}`, " {\"b\" : [1.0, 2e0],\n\"a\": 10e-1 }", `{"\u0062":[1,2],"a":1}`},
		{`"é"`, `"\u00e9"`, `"\u00E9"`},
		{`0`, `-0`, `0.0e10`, `-0.000`},
		{`"/"`, `"\/"`, `"\u002f"`},
		{`["\uD83D\uDE00"]`, "[\"😀\"]", `["\ud83d\ude00"]`},
		{`{"x":{"q":[],"p":null},"w":true}`, `{"w":true,"x":{"p":null,"q":[]}}`},
		{`[0.1]`, `[1e-1]`, `[0.10]`, `[10E-2]`},
		{`1000000000000000000000`, `1e21`, `10e20`},
		{`"\n"`, `"\u000a"`, `"\u000A"`},
	}
	for i, group := range groups {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			want := canonical(t, group[0])
			for _, doc := range group[1:] {
				assert.Equal(t, want, canonical(t, doc), "doc %q", doc)
			}
		})
	}
}

// oracleKey is an independent canonical form built from encoding/json's
// decoding: numbers become exact rationals, strings Go-quoted, object keys
// sorted. Two documents are the same JSON value exactly when their keys match.
func oracleKey(t testing.TB, doc []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v), "doc %q", doc)
	var sb strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			sb.WriteString("{")
			for _, k := range keys {
				sb.WriteString(strconv.Quote(k) + ":")
				walk(v[k])
				sb.WriteString(",")
			}
			sb.WriteString("}")
		case []any:
			sb.WriteString("[")
			for _, item := range v {
				walk(item)
				sb.WriteString(",")
			}
			sb.WriteString("]")
		case string:
			sb.WriteString(strconv.Quote(v))
		case json.Number:
			r, ok := new(big.Rat).SetString(string(v))
			require.True(t, ok, "number %s", v)
			sb.WriteString("n" + r.RatString())
		default:
			fmt.Fprint(&sb, v)
		}
	}
	walk(v)
	return sb.String()
}

// genDoc returns a random document whose parts come from small sets (keys,
// strings, numbers in several spellings), so that distinct documents often
// share a value.
func genDoc(r *rand.Rand, depth int) string {
	switch k := r.IntN(9); {
	case k == 0 && depth < 3:
		names := []string{"a", "b", `\u0061`, "", "a\\n", "é", `\u00e9`, "ab"}
		var parts []string
		seen := map[string]bool{}
		for range r.IntN(4) {
			name := names[r.IntN(len(names))]
			decoded := canonicalName(name)
			if seen[decoded] {
				continue
			}
			seen[decoded] = true
			parts = append(parts, `"`+name+`":`+genDoc(r, depth+1))
		}
		r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		return "{" + strings.Join(parts, ",") + "}"
	case k == 1 && depth < 3:
		var parts []string
		for range r.IntN(3) {
			parts = append(parts, genDoc(r, depth+1))
		}
		return "[" + strings.Join(parts, " , ") + "]"
	case k <= 3:
		return []string{`""`, `"a"`, `"\u0061"`, `"a\u0000"`, `"\n"`, `"\\n"`, `"1"`, `"null"`, `"é"`, `"e\u0301"`, `"\u001f"`, `"\"a\""`}[r.IntN(12)]
	case k <= 6:
		return []string{"0", "-0", "1", "1.0", "10e-1", "0.1", "1e-1", "-1", "1.5", "15e-1", "100", "1e2", "1e21", "1e20", "0.10000000000000000001", "9007199254740993", "9007199254740992"}[r.IntN(17)]
	}
	return []string{"true", "false", "null"}[r.IntN(3)]
}

// canonicalName decodes a member name as written between quotes.
func canonicalName(name string) string {
	var s string
	if err := json.Unmarshal([]byte(`"`+name+`"`), &s); err != nil {
		panic(err)
	}
	return s
}

// TestCanonicalInjective checks, over every pair of a corpus of near misses
// and random documents, that two documents share canonical text exactly when
// they are the same JSON value (by an independent oracle), and that the
// canonical text is that same value.
func TestCanonicalInjective(t *testing.T) {
	t.Parallel()
	corpus := []string{
		`1`, `"1"`, `[1]`, `{"1":1}`, `true`, `"true"`, `null`, `"null"`, `[]`, `{}`, `""`, `[""]`, `[[]]`, `[{}]`,
		`{"":{}}`, `{"":[]}`, `{"a":1,"b":2}`, `{"a\":1,\"b":2}`, `["a","b"]`, `["a,b"]`, `["a\",\"b"]`, `"a\u0000"`,
		`"a"`, `[1,2]`, `[2,1]`, `[1,[2]]`, `[[1],2]`, `0.1`, `0.10000000000000000001`, `1e21`, `1e20`,
		`100000000000000000000`, `-1`, `1.5`, `15`, `"\n"`, `"\\n"`, `"\u0008"`, `"\\u0008"`, `{"a":null}`,
		`{"a":"null"}`, `{"b":1}`, `{"a":1}`, `{"a":[]}`, `{"a":{}}`, `" "`, `"  "`, `"é"`, `"e\u0301"`,
		`{"a":{"b":1}}`, `{"a":{"b":"1"}}`, `{"a.b":1}`, `{"a":[{"b":1}]}`, `[true,false]`, `[false,true]`,
		`"\"\""`, `"\\\""`, `1.5e0`, `"1.5e0"`, `-0.5`, `0.5`, `"\/"`, `"/"`, `9007199254740993`, `9007199254740992`,
		`{"a":1,"b":{"c":[1,2,{"d":null}]}}`, `{"b":{"c":[1,2,{"d":null}]},"a":1.0}`,
	}
	r := rand.New(rand.NewPCG(4, 4))
	for range 400 {
		corpus = append(corpus, genDoc(r, 0))
	}
	type entry struct{ doc, canon, oracle string }
	var entries []entry
	for _, doc := range corpus {
		v, err := jsondoc.Parse([]byte(doc), 0)
		require.NoError(t, err, "doc %q", doc)
		canon := string(jsondoc.Canonical(v))
		e := entry{doc, canon, oracleKey(t, []byte(doc))}
		require.Equal(t, e.oracle, oracleKey(t, []byte(canon)), "canonical %s of %s is another value", canon, doc)
		entries = append(entries, e)
	}
	for _, a := range entries {
		for _, b := range entries {
			if (a.canon == b.canon) != (a.oracle == b.oracle) {
				t.Fatalf("%s and %s: canonical %s and %s, but the oracle says same value = %v", a.doc, b.doc, a.canon, b.canon, a.oracle == b.oracle)
			}
		}
	}
}

// TestCanonicalSaturatedExponents: numbers whose exponent passes the exact
// range keep their spelling in the canonical form, so different values never
// share it (a saturated exponent must not merge them). Two spellings of one
// such value may differ; schemas may not hold such numbers anyway.
func TestCanonicalSaturatedExponents(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		a, b string
		same bool
	}{
		{"different values", `[1e1099511627776]`, `[1e1099511627777]`, false},
		{"different large values", `[1e99999999999999]`, `[1e99999999999998]`, false},
		{"different tiny values", `[1e-1099511627776]`, `[1e-1099511627777]`, false},
		{"same spelling", `[1e1099511627777]`, ` [ 1e1099511627777 ] `, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ca, cb := canonical(t, tc.a), canonical(t, tc.b)
			assert.Equal(t, tc.same, ca == cb, "%s -> %s, %s -> %s", tc.a, ca, tc.b, cb)
		})
	}
}

func TestEscapePointerToken(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"": "", "a": "a", "a/b": "a~1b", "a~b": "a~0b", "~1": "~01", "/~": "~1~0", "~/~/": "~0~1~0~1", "é": "é",
	} {
		assert.Equal(t, want, jsondoc.EscapePointerToken(in), "token %q", in)
	}
}

// TestAppendStringBodyPieces: the string body escaper gives the same text
// applied piece by piece (even inside multi-byte UTF-8) as applied whole, and
// its output decodes back to the input.
func TestAppendStringBodyPieces(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(6, 6))
	inputs := []string{"", "plain", "a\"b\\c", "\x00\x01\x1f\x7f", "é€😀\u2028", "\n\t\r\b\f", "\u0000x\u0000"}
	for range 200 {
		var b []byte
		for range r.IntN(20) {
			b = append(b, []string{"a", "\"", "\\", "\n", "\x00", "\x1f", "é", "😀", "/", "\x7f"}[r.IntN(10)]...)
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		whole := jsondoc.AppendStringBody(nil, []byte(in))
		var pieces []byte
		start := 0
		for i := 0; i <= len(in); i++ {
			if r.IntN(3) == 0 || i == len(in) {
				pieces = jsondoc.AppendStringBody(pieces, []byte(in[start:i]))
				start = i
			}
		}
		require.Equal(t, string(whole), string(pieces), "input %q", in)
		quoted := jsondoc.AppendString(nil, []byte(in))
		require.Equal(t, `"`+string(whole)+`"`, string(quoted))
		var back string
		require.NoError(t, json.Unmarshal(quoted, &back), "text %s", quoted)
		require.Equal(t, in, back)
	}
}

// TestParseManyMembers: duplicate detection must not make Parse quadratic
// in an object's member count, or one large schema (CompileSchema accepts
// megabytes) costs minutes. 40,000 members take milliseconds when linear;
// the bound leaves a wide margin for the race detector and a loaded machine.
func TestParseManyMembers(t *testing.T) {
	t.Parallel()
	const n = 40_000
	var sb strings.Builder
	sb.WriteString("{")
	for i := range n {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `"k%d":%d`, i, i)
	}
	sb.WriteString(`,"k0":0}`)
	v, err := jsondoc.Parse([]byte(sb.String()), 0)
	assert.Nil(t, v)
	var dup *jsondoc.DuplicateError
	require.ErrorAs(t, err, &dup)
	assert.Equal(t, "k0", dup.Name)
}

// BenchmarkParseMembers parses objects of growing size: ns/op per member
// stays flat when duplicate detection is linear.
func BenchmarkParseMembers(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		var sb strings.Builder
		sb.WriteString("{")
		for i := range n {
			if i > 0 {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, `"k%d":%d`, i, i)
		}
		sb.WriteString("}")
		doc := []byte(sb.String())
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := jsondoc.Parse(doc, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/member")
		})
	}
}
