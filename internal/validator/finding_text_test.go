package validator_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/hostile"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestPointersAreCut: a finding's pointers longer than Options.MaxPointer
// are cut to their longest ancestor that fits, and its message then names
// a value inside that ancestor, never the ancestor itself.
func TestPointersAreCut(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.JSONSchema, []byte(`{"type":"object","properties":{"abc":{"type":"object","properties":{"defgh":{"type":"array","items":{"type":"string"}}}}}}`))
	require.Empty(t, res.Errors)
	doc := []byte(`{"abc":{"defgh":[1]}}`)
	const full, fullSchema = "/abc/defgh/0", "/properties/abc/properties/defgh/items/type"
	for _, tc := range []struct {
		max                     int
		instance, schema, about string
	}{
		{0, full, fullSchema, "/abc/defgh/0 must be a string"},
		{12, full, "/properties", "/abc/defgh/0 must be a string"},
		{11, "/abc/defgh", "/properties", "A value inside /abc/defgh must be a string"},
		{9, "/abc", "", "A value inside /abc must be a string"},
		{3, "", "", "A value inside the arguments object must be a string"},
	} {
		r := validator.Validate(res.Schema, doc, validator.Options{MaxPointer: tc.max})
		require.Len(t, r.Findings, 1)
		f := r.Findings[0]
		assert.Equal(t, tc.instance, f.InstancePath, "MaxPointer %d", tc.max)
		assert.Equal(t, tc.schema, f.SchemaPath, "MaxPointer %d", tc.max)
		assert.True(t, strings.HasPrefix(f.Message, tc.about+"; got a number"), "MaxPointer %d: %s", tc.max, f.Message)
		if tc.max > 0 {
			assert.Equal(t, schema.CutPointer(full, tc.max), f.InstancePath, "the cut is schema.CutPointer's")
			assert.Equal(t, schema.CutPointer(fullSchema, tc.max), f.SchemaPath, "the cut is schema.CutPointer's")
		}
	}
}

// TestFindingTextIsBounded: what a finding quotes of the schema or the
// document (member names, pointers, patterns, numbers) is cut before it is
// formatted, so 100 findings under a name of a megabyte, or about a bound
// of a million digits, allocate a few megabytes, not the hundreds they
// took (790 MB, 385 MB and 239 MB for the first three).
func TestFindingTextIsBounded(t *testing.T) {
	name := strings.Repeat("n", 1_000_000)
	items := func(item string) string { return `[` + strings.TrimSuffix(strings.Repeat(item+",", 100), ",") + `]` }
	for _, tc := range []struct {
		name, schema, doc string
		says              string
	}{
		{"a member name of a megabyte", `{"type":"object","properties":{"` + name + `":{"type":"array","items":{"type":"string"}}}}`,
			`{"` + name + `":` + items("1") + `}`, "A value inside the arguments object must be a string"},
		{"a bound of a million digits", `{"type":"object","properties":{"a":{"type":"array","items":{"exclusiveMinimum":0.` + strings.Repeat("7", 1e6) + `}}}}`,
			`{"a":` + items("0.5") + `}`, "must be greater than 7." + strings.Repeat("7", 39) + "…e-1; got 0.5"},
		{"a closed object's name of a megabyte", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"` + name + `":true},"additionalProperties":false}}}}`,
			`{"a":` + items(`{"x":1}`) + `}`, `allowed properties are "nnnn`},
		{"a required name of a megabyte", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","required":["` + name + `"]}}}}`,
			`{"a":` + items(`{}`) + `}`, `is missing the required property "nnn`},
		{"a duplicate name of a megabyte", `{"type":"object"}`,
			`{"a":` + items(`{"`+name[:10_000]+`":1,"`+name[:10_000]+`":2}`) + `}`, `has the property "nnn`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := schema.Compile(schema.JSONSchema, []byte(tc.schema))
			require.Empty(t, res.Errors)
			doc := []byte(tc.doc)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r := validator.Validate(res.Schema, doc, validator.Options{})
			runtime.ReadMemStats(&after)
			require.Len(t, r.Findings, 100)
			for _, f := range r.Findings {
				assert.Contains(t, f.Message, tc.says)
				assert.Regexp(t, `(^A value inside|…)`, f.Message, "the quote, or the pointer, is cut, and says so")
				assert.LessOrEqual(t, len(f.Message)+len(f.InstancePath)+len(f.SchemaPath), 3*validator.DefaultMaxPointer)
			}
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(32<<20), "allocated while validating")
		})
	}
	t.Run("the hostile shape long-pointers", func(t *testing.T) {
		shape, ok := hostile.Lookup("long-pointers")
		require.True(t, ok)
		req := shape.Generate()
		res := schema.Compile(schema.ToolInput, req.Schema)
		require.Empty(t, res.Errors)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := validator.Validate(res.Schema, req.Arguments, validator.Options{})
		runtime.ReadMemStats(&after)
		require.Len(t, r.Findings, 100)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(32<<20), "it allocated 790 MB")
	})
}

// TestFindingPathsAreUTF8: a path cut inside a character, or holding a
// name's invalid bytes, has each invalid sequence replaced by U+FFFD
// wherever it falls; a valid one, ASCII or not, comes back as it is.
func TestFindingPathsAreUTF8(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                  "",
		"/path":             "/path",
		"/caf\u00e9/0":      "/caf\u00e9/0",
		"/\u65e5\u672c":     "/\u65e5\u672c",
		"/caf\xc3":          "/caf\ufffd",
		"\xff/a":            "\ufffd/a",
		"/a/\u00e9\xe6\x97": "/a/\u00e9\ufffd",
		"/\x80\x80/b":       "/\ufffd/b",
	} {
		assert.Equal(t, want, validator.ValidUTF8(in), "%q", in)
	}
}

// TestSaturatedCountsQuoteTheSchema: a count too large for int64 is
// enforced as math.MaxInt64, but a message about it quotes the schema's
// own number, never 9223372036854775807 in its place.
func TestSaturatedCountsQuoteTheSchema(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		profile schema.Profile
		schema  string
		doc     string
		keyword string
		says    string
	}{
		{"minLength", schema.JSONSchema, `{"properties":{"s":{"minLength":1e20}}}`, `{"s":"a"}`,
			"minLength", "/s must be at least 100000000000000000000 characters long"},
		{"minLength, bindable", schema.OutputBindable, `{"type":"object","properties":{"s":{"type":"string","minLength":99999999999999999999}}}`, `{"s":"a"}`,
			"minLength", "/s must be at least 99999999999999999999 characters long"},
		{"minLength just past int64", schema.JSONSchema, `{"properties":{"s":{"minLength":9223372036854775808}}}`, `{"s":"a"}`,
			"minLength", "/s must be at least 9223372036854775808 characters long"},
		{"minLength of int64's largest, exact", schema.JSONSchema, `{"properties":{"s":{"minLength":9223372036854775807}}}`, `{"s":"a"}`,
			"minLength", "/s must be at least 9223372036854775807 characters long"},
		{"minItems", schema.JSONSchema, `{"properties":{"a":{"minItems":1e30}}}`, `{"a":[1]}`,
			"minItems", "/a must have at least 1e30 items; got 1"},
		{"minProperties", schema.JSONSchema, `{"minProperties":12345678901234567890123}`, `{"a":1}`,
			"minProperties", "must have at least 1.2345678901234567890123e22 properties; got 1"},
		{"minContains", schema.JSONSchema, `{"properties":{"a":{"contains":{"type":"integer"},"minContains":2e19}}}`, `{"a":[1]}`,
			"minContains", "/a must have at least 20000000000000000000 items matching contains; got 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			compiled := schema.Compile(tc.profile, []byte(tc.schema))
			require.Empty(t, compiled.Errors)
			res := validator.Validate(compiled.Schema, []byte(tc.doc), validator.Options{})
			require.Len(t, res.Findings, 1)
			assert.Equal(t, tc.keyword, res.Findings[0].Keyword)
			assert.Contains(t, res.Findings[0].Message, tc.says)
		})
	}
}

// TestFindingNumbersAndCounts: a message writes the schema's numbers as
// JavaScript writes them (0.1, not 1e-1), and a count of one in the
// singular.
func TestFindingNumbersAndCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ schema, doc, says string }{
		{`{"exclusiveMinimum":0.1}`, `0.05`, "must be greater than 0.1; got 0.05"},
		{`{"maximum":12.5}`, `13`, "must be at most 12.5; got 13"},
		{`{"minimum":-0.00025}`, `-1`, "must be at least -0.00025; got -1"},
		{`{"multipleOf":1e-9}`, `1e-10`, "must be a multiple of 1e-9; got 1e-10"},
		{`{"maximum":1e300}`, `1e301`, "must be at most 1e300; got 1e301"},
		{`{"minLength":1}`, `""`, "must be at least 1 character long"},
		{`{"maxLength":2}`, `"abc"`, "must be at most 2 characters long"},
		{`{"minProperties":1}`, `{}`, "must have at least 1 property; got 0"},
		{`{"maxProperties":0}`, `{"a":1}`, "must have at most 0 properties; got more"},
		{`{"minItems":1}`, `[]`, "must have at least 1 item; got 0"},
		{`{"contains":{"type":"string"},"minContains":2}`, `["a"]`, "must have at least 2 items matching contains; got 1"},
		{`{"contains":{"type":"string"},"maxContains":1}`, `["a","b"]`, "must have at most 1 item matching contains; got more"},
	} {
		findings := memberFindings(t, schema.JSONSchema, tc.schema, tc.doc)
		require.NotEmpty(t, findings, "%s on %s", tc.schema, tc.doc)
		assert.Contains(t, findings[0].Message, tc.says, "%s on %s", tc.schema, tc.doc)
	}
}

// memberFindings validates {"v": doc} against an object whose property v
// has valueSchema, compiled under profile, and returns the findings.
func memberFindings(t *testing.T, profile schema.Profile, valueSchema, doc string) []schema.Finding {
	t.Helper()
	s := compileFor(t, profile, `{"properties":{"v":`+valueSchema+`}}`)
	return validator.Validate(s, []byte(`{"v":`+doc+`}`), validator.Options{}).Findings
}

// TestEnumChoicesReadAsWritten: an enum's (or a const's) choices are
// quoted as JSON with their numbers written as the other messages write
// them (TestFindingNumbersAndCounts): the model is told 0.5, not the
// canonical 5e-1 it would not recognise from the tool's description.
// Objects keep their members sorted, as the canonical text has them.
func TestEnumChoicesReadAsWritten(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		profile     schema.Profile
		schema, doc string
		says        string
	}{
		{schema.ToolInput, `{"type":"number","enum":[0.5,1.5,2.25,100,1e3,0.001,-0,1e-7,1.5e300]}`, `7`,
			"/v must be one of 0.5, 1.5, 2.25, 100, 1000, 0.001, 0, 1e-7, 1.5e300; got 7."},
		{schema.ToolInput, `{"type":"object","enum":[{"b":[0.1],"a":2.5}]}`, `{}`,
			`/v must be one of {"a":2.5,"b":[0.1]}; got an object.`},
		{schema.OutputBindable, `{"enum":[0.25,"x",true]}`, `1`, `/v must be one of 0.25, "x", true; got 1.`},
		{schema.JSONSchema, `{"const":0.1}`, `1`, "/v must be 0.1; got 1."},
		{schema.JSONSchema, `{"enum":[1e400,12.5]}`, `1`, "/v must be one of 1e400, 12.5; got 1."},
	} {
		findings := memberFindings(t, tc.profile, tc.schema, tc.doc)
		if assert.Len(t, findings, 1, "%s on %s", tc.schema, tc.doc) {
			assert.Equal(t, tc.says, findings[0].Message, "%s on %s", tc.schema, tc.doc)
		}
	}
}

// TestRootFindingsNameTheDocument: a finding about the root calls it "the
// arguments object" (or "the output object") when it is one, and "the
// arguments" ("the output") when the document is something else.
func TestRootFindingsNameTheDocument(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		profile     schema.Profile
		schema, doc string
		wantMessage string
	}{
		{schema.ToolInput, `{"type":"object"}`, `[1]`, "The arguments must be an object; got an array."},
		{schema.JSONSchema, `{"properties":{"a":true}}`, `null`, "The arguments must be an object; got null."},
		{schema.OutputBindable, `{"type":"object","properties":{"a":{"type":"string"}}}`, `"x"`, "The output must be an object; got a string."},
		{schema.JSONSchema, `{"enum":[{"a":1}]}`, `{"a":2}`, `The arguments object must be one of {"a":1}; got an object.`},
		{schema.JSONSchema, `{"minProperties":2}`, `{"a":2}`, "The arguments object must have at least 2 properties; got 1."},
	} {
		res := schema.Compile(tc.profile, []byte(tc.schema))
		require.Empty(t, res.Errors, tc.schema)
		got := validator.Validate(res.Schema, []byte(tc.doc), validator.Options{})
		if assert.Len(t, got.Findings, 1, "%s on %s", tc.schema, tc.doc) {
			assert.Equal(t, tc.wantMessage, got.Findings[0].Message, "%s on %s", tc.schema, tc.doc)
		}
	}
}

// TestReasonsQuoteTheWholeValue: a full validation quotes a name or a
// string whole, also where a propertyNames, anyOf, oneOf or else
// violation explains itself by a reason decided before the name or value
// ended; a validation that stops at the first deciding byte quotes it up
// to that byte, as a stream does, since the rest has not been read.
func TestReasonsQuoteTheWholeValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		schema, doc     string
		whole, deciding string // the quote in a full validation, and at the deciding byte
	}{
		{`{"propertyNames":{"maxLength":2}}`, `{"abcdef":1}`, `got "abcdef".`, `got "abc…".`},
		{`{"propertyNames":{"enum":["a","b"]}}`, `{"c":1}`, `got "c".`, `got "c…".`},
		{`{"propertyNames":{"pattern":"^[a-z]+$"}}`, `{"ab1cd":1}`, `got "ab1cd".`, `got "ab1…".`},
		{`{"propertyNames":{"anyOf":[{"maxLength":2},{"pattern":"^x"}]}}`, `{"abcd":1}`,
			`(branch 0: must be at most 2 characters long; got "abcd"; branch 1: must match the pattern "^x"; got "abcd").`,
			`(branch 0: must be at most 2 characters long; got "abc…"; branch 1: must match the pattern "^x"; got "a…").`},
		{`{"properties":{"s":{"anyOf":[{"maxLength":2},{"pattern":"^x"}]}}}`, `{"s":"abcd"}`,
			`(branch 0: must be at most 2 characters long; got "abcd"; branch 1: must match the pattern "^x"; got "abcd").`,
			`(branch 0: must be at most 2 characters long; got "abc…"; branch 1: must match the pattern "^x"; got "a…").`},
		{`{"properties":{"s":{"if":{"maxLength":2},"else":{"pattern":"^x"}}}}`, `{"s":"abcd"}`,
			`must match the pattern "^x"; got "abcd".`, `must match the pattern "^x"; got "a…".`},
		// No branch reads the text: it is named by its type, not quoted.
		{`{"properties":{"n":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}`, `{"n":"5"}`,
			`(branch 0: must be an integer; got a string; branch 1: must be null; got a string).`,
			`(branch 0: must be an integer; got a string; branch 1: must be null; got a string).`},
		{`{"properties":{"n":{"anyOf":[{"type":"integer"},{"maxLength":1},{"pattern":"^x"}]}}}`, `{"n":"55"}`,
			`(branch 0: must be an integer; got "55"; branch 1: must be at most 1 character long; got "55"; branch 2: must match the pattern "^x"; got "55").`,
			`(branch 0: must be an integer; got a string; branch 1: must be at most 1 character long; got "55…"; branch 2: must match the pattern "^x"; got "5…").`},
	} {
		s := compileFor(t, schema.JSONSchema, tc.schema)
		for _, want := range []struct {
			opts  validator.Options
			quote string
		}{{validator.Options{}, tc.whole}, {validator.Options{StopAtFirst: true}, tc.deciding}} {
			assertOneFindingEnds(t, s, tc.doc, want.opts, want.quote)
		}
	}
}

// TestBrokenNameKeepsItsQuote: a document that breaks off inside a name
// that propertyNames refused still reports the refusal, quoting what was
// read of the name, and a value's reasons quote what was read of it.
func TestBrokenNameKeepsItsQuote(t *testing.T) {
	t.Parallel()
	s := compileFor(t, schema.JSONSchema, `{"propertyNames":{"maxLength":2}}`)
	got := validator.Validate(s, []byte(`{"abcdef`), validator.Options{})
	require.Len(t, got.Findings, 2)
	assert.Equal(t, "propertyNames", got.Findings[0].Keyword)
	assert.True(t, strings.HasSuffix(got.Findings[0].Message, `got "abcdef…".`), got.Findings[0].Message)
	assert.Equal(t, "json", got.Findings[1].Keyword)

	s = compileFor(t, schema.JSONSchema, `{"properties":{"s":{"anyOf":[{"maxLength":2},{"pattern":"^x"}]}}}`)
	got = validator.Validate(s, []byte(`{"s":"abcdef`), validator.Options{})
	require.Len(t, got.Findings, 2)
	assert.True(t, strings.HasSuffix(got.Findings[0].Message, `got "abcdef…"; branch 1: must match the pattern "^x"; got "abcdef…").`), got.Findings[0].Message)
}

// TestMessageWording: messages a model reads name what went wrong in
// plain words, for the cases that once read wrong: a propertyNames
// failure in a branch (which gives no reason) names the property, a
// streamed number bound quotes the number up to its deciding byte with
// "…", an empty enum says it allows nothing, and types read "null" and
// "a number" (which includes the integers).
func TestMessageWording(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		schema, doc string
		stop        bool
		want        string
	}{
		{`{"anyOf":[{"propertyNames":{"maxLength":2}},{"required":["q"]}]}`, `{"abcdef":1}`, true,
			`(branch 0: has the property name "abc…", which propertyNames does not allow; branch 1: is missing the required property "q").`},
		{`{"anyOf":[{"propertyNames":{"maxLength":2}},{"required":["q"]}]}`, `{"abcdef":1}`, false,
			`(branch 0: has the property name "abcdef", which propertyNames does not allow; branch 1: is missing the required property "q").`},
		{`{"oneOf":[{"propertyNames":{"minLength":9}},{"required":["q"]}]}`, `{"abcdef":1}`, false,
			`(branch 0: has the property name "abcdef", which propertyNames does not allow; branch 1: is missing the required property "q").`},
		{`{"properties":{"n":{"minimum":10}}}`, `{"n":-5}`, true, `/n must be at least 10; got -….`},
		{`{"properties":{"n":{"minimum":10}}}`, `{"n":-5}`, false, `/n must be at least 10; got -5.`},
		{`{"properties":{"n":{"maximum":10}}}`, `{"n":1e400}`, true, `/n must be at most 10; got 1e4….`},
		{`{"properties":{"n":{"enum":[]}}}`, `{"n":1}`, false, `/n cannot have any value: its enum is empty; got a number.`},
		{`{"properties":{"n":{"type":"null"}}}`, `{"n":1}`, false, `/n must be null; got a number.`},
		{`{"properties":{"n":{"type":["number","null"]}}}`, `{"n":"x"}`, false, `/n must be a number or null; got a string.`},
		{`{"properties":{"n":{"type":["integer","string"]}}}`, `{"n":null}`, false, `/n must be a string or integer; got null.`},
	} {
		assertOneFindingEnds(t, compileFor(t, schema.JSONSchema, tc.schema), tc.doc, validator.Options{StopAtFirst: tc.stop}, tc.want)
	}
}

// assertOneFindingEnds checks that doc under s makes one finding, whose
// message ends with want.
func assertOneFindingEnds(t *testing.T, s *schema.Schema, doc string, opts validator.Options, want string) {
	t.Helper()
	got := validator.Validate(s, []byte(doc), opts)
	if assert.Len(t, got.Findings, 1, "%s", doc) {
		assert.True(t, strings.HasSuffix(got.Findings[0].Message, want), "%s, StopAtFirst %v: %q should end %q", doc, opts.StopAtFirst, got.Findings[0].Message, want)
	}
}

// TestBranchReasonsNameTheirValues: a branch's (or a then's, an else's)
// reason about a value inside the one the branch evaluated leads with that
// value's pointer, escaped, in a stream as in a full validation, so that a
// model can tell which member of a discriminated union to fix; tokens that
// do not fit the pointer a violation keeps read "…". A stream quotes a
// value up to its deciding byte (see TestBranchReasonsQuoteWholeValues).
func TestBranchReasonsNameTheirValues(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("m", 40)
	for _, tc := range []struct{ schema, doc, want string }{
		{`{"properties":{"pet":{"oneOf":[{"properties":{"kind":{"const":"cat"}}},{"properties":{"kind":{"const":"dog"}}}]}}}`, `{"pet":{"kind":"cow"}}`,
			`(branch 0: /pet/kind must be "cat"; got "cow"; branch 1: /pet/kind must be "dog"; got "cow").`},
		{`{"anyOf":[{"properties":{"a":{"items":{"type":"string"}}}},{"required":["q"]}]}`, `{"a":["x",1]}`,
			`(branch 0: /a/1 must be a string; got a number; branch 1: is missing the required property "q").`},
		{`{"properties":{"x":{"if":{"type":"object"},"then":{"properties":{"b~/c":{"type":"integer"}}}}}}`, `{"x":{"b~/c":"s"}}`,
			`but /x/b~0~1c must be an integer; got a string.`},
		{`{"anyOf":[{"properties":{"x":false}},{"required":["q"]}]}`, `{"x":1}`,
			`(branch 0: /x is not allowed here: the schema at "/anyOf/0/properties/x" is false; branch 1: is missing the required property "q").`},
		{`{"anyOf":[{"properties":{"a":{"prefixItems":[{}],"items":false}}},{"required":["q"]}]}`, `{"a":[1,2]}`,
			`(branch 0: /a/1 is not allowed here: the schema at "/anyOf/0/properties/a/items" is false; branch 1: is missing the required property "q").`},
		{`{"anyOf":[{"properties":{"n":{"properties":{"` + long + `":{"type":"string"}}}}},{"required":["q"]}]}`, `{"n":{"` + long + `":1}}`,
			`(branch 0: /n/… must be a string; got a number; branch 1: is missing the required property "q").`},
		{`{"anyOf":[{"properties":{"a":{"oneOf":[{"properties":{"b":{"type":"null"}}},{"properties":{"b":{"type":"string"}}}]}}},{"required":["q"]}]}`, `{"a":{"b":1}}`,
			`(branch 0: /a must match exactly one of 2 oneOf branches; it matched none; branch 1: is missing the required property "q").`},
	} {
		s := compileFor(t, schema.JSONSchema, tc.schema)
		for _, opts := range []validator.Options{{}, {StopAtFirst: true}} {
			want := tc.want
			if opts.StopAtFirst {
				want = strings.ReplaceAll(want, `"cow"`, `"c…"`) // decided at the "c" of "cow" by its second branch
				want = strings.Replace(want, `"c…"`, `"co…"`, 1)
			}
			assertOneFindingEnds(t, s, tc.doc, opts, want)
		}
	}
}

// TestBranchReasonsQuoteWholeValues: in a full validation, a reason that
// quotes a string or a number quotes it whole, however early its branch
// failed inside it: the branch's failure is kept, and explained only once
// the applicator is decided, which may be inside the same value (the
// last branch failing there), at its end, or on a later member. A stream
// (StopAtFirst) decides, and quotes, up to the deciding byte. Every
// message is the same at every split of the document.
func TestBranchReasonsQuoteWholeValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ schema, doc, want, stop string }{
		// A discriminated union: every branch fails at the tag's first byte.
		{`{"anyOf":[{"properties":{"kind":{"const":"circle"}}},{"properties":{"kind":{"enum":["square","box"]}}}]}`, `{"kind":"triangle"}`,
			`(branch 0: /kind must be "circle"; got "triangle"; branch 1: /kind must be one of "square", "box"; got "triangle").`,
			`(branch 0: /kind must be "circle"; got "t…"; branch 1: /kind must be one of "square", "box"; got "t…").`},
		// Decided inside the value, by its last branch, two levels down.
		{`{"oneOf":[{"properties":{"a":{"properties":{"b":{"const":"x"}}}}},{"properties":{"a":{"properties":{"b":{"maxLength":2}}}}}]}`, `{"a":{"b":"abcdef"}}`,
			`(branch 0: /a/b must be "x"; got "abcdef"; branch 1: /a/b must be at most 2 characters long; got "abcdef").`,
			`(branch 0: /a/b must be "x"; got "a…"; branch 1: /a/b must be at most 2 characters long; got "abc…").`},
		// Decided at the value's end, by a bound only the whole number decides.
		{`{"properties":{"n":{"anyOf":[{"enum":[1,2]},{"maximum":3}]}}}`, `{"n":12345}`,
			`(branch 0: must be one of 1, 2; got 12345; branch 1: must be at most 3; got 12345).`,
			`(branch 0: must be one of 1, 2; got 12…; branch 1: must be at most 3; got 12345).`},
		// Decided on a later member: each reason quotes its own value.
		{`{"anyOf":[{"properties":{"x":{"maxLength":2}}},{"properties":{"y":{"const":"q"}}}]}`, `{"x":"abcdef","y":"zzz"}`,
			`(branch 0: /x must be at most 2 characters long; got "abcdef"; branch 1: /y must be "q"; got "zzz").`,
			`(branch 0: /x must be at most 2 characters long; got "abc…"; branch 1: /y must be "q"; got "z…").`},
		// A reason under a then and under a dependentSchemas entry.
		{`{"if":{"required":["k"]},"then":{"properties":{"v":{"pattern":"^[0-9]+$"}}}}`, `{"k":1,"v":"12ab34"}`,
			`but /v must match the pattern "^[0-9]+$"; got "12ab34".`, ""},
		{`{"dependentSchemas":{"k":{"properties":{"v":{"const":"yes"}}}}}`, `{"v":"yeah","k":1}`,
			`but /v must be "yes"; got "yeah".`, ""},
		// Member names: a closed branch and a propertyNames branch refuse
		// the name inside it, and the applicator is decided there too.
		{`{"anyOf":[{"properties":{"a":{}},"additionalProperties":false},{"propertyNames":{"maxLength":2}}]}`, `{"zzzz":1}`,
			`(branch 0: does not allow the property "zzzz"; allowed properties are "a"; branch 1: has the property name "zzzz", which propertyNames does not allow).`,
			`(branch 0: does not allow the property "z…"; allowed properties are "a"; branch 1: has the property name "zzz…", which propertyNames does not allow).`},
		{`{"oneOf":[{"properties":{"o":{"additionalProperties":false,"properties":{"id":{}}}}},{"required":["q"]}]}`, `{"o":{"ix":1}}`,
			`(branch 0: /o does not allow the property "ix"; allowed properties are "id"; branch 1: is missing the required property "q").`,
			`(branch 0: /o does not allow the property "ix…"; allowed properties are "id"; branch 1: is missing the required property "q").`},
		{`{"anyOf":[{"propertyNames":{"pattern":"^[a-z]+$"}},{"required":["q"]}]}`, `{"ab-cd":1}`,
			`(branch 0: has the property name "ab-cd", which propertyNames does not allow; branch 1: is missing the required property "q").`,
			`(branch 0: has the property name "ab-…", which propertyNames does not allow; branch 1: is missing the required property "q").`},
		// A long value is quoted as every message quotes one: its first 48 bytes.
		{`{"anyOf":[{"properties":{"s":{"const":"x"}}},{"required":["q"]}]}`, `{"s":"` + strings.Repeat("y", 60) + `"}`,
			`(branch 0: /s must be "x"; got "` + strings.Repeat("y", 48) + `…"; branch 1: is missing the required property "q").`,
			`(branch 0: /s must be "x"; got "y…"; branch 1: is missing the required property "q").`},
	} {
		s := compileFor(t, schema.JSONSchema, tc.schema)
		assertOneFindingEnds(t, s, tc.doc, validator.Options{}, tc.want)
		if tc.stop != "" {
			assertOneFindingEnds(t, s, tc.doc, validator.Options{StopAtFirst: true}, tc.stop)
		}
		whole := validator.Validate(s, []byte(tc.doc), validator.Options{})
		for _, opts := range []validator.Options{{}, {StopAtFirst: true}} {
			if opts.StopAtFirst {
				whole = validator.Validate(s, []byte(tc.doc), opts)
			}
			v := validator.New(s, opts)
			for i := range len(tc.doc) {
				v.Write([]byte{tc.doc[i]})
			}
			assert.Equal(t, whole.Findings, v.Close().Findings, "%s byte by byte, StopAtFirst %v", tc.doc, opts.StopAtFirst)
		}
	}
}

// TestOneOfMatchedPositions: a oneOf that more than one branch matched,
// explained in a later finding (a then's), names the positions that
// matched, ascending, the first 16 of them and how many more: positions of
// one distinct branch interleave with another's ("a", "b", "a", …) and
// still come out in order. A oneOf's own finding names the positions that
// decided it; an anyOf that matched none names each failed branch's
// positions the same way.
func TestOneOfMatchedPositions(t *testing.T) {
	t.Parallel()
	alternate := func(n int, a, b string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = a
			if i%2 == 1 {
				parts[i] = b
			}
		}
		return strings.Join(parts, ",")
	}
	const object, nullable = `{"type":"object"}`, `{"type":["object","null"]}`
	for _, tc := range []struct{ schema, doc, says string }{
		{`{"if":{"required":["x"]},"then":{"oneOf":[` + alternate(5, object, nullable) + `]}}`, `{"x":1}`,
			"must match exactly one of 5 oneOf branches; it matched branches 0 and 1 and 2 and 3 and 4."},
		{`{"if":{"required":["x"]},"then":{"oneOf":[` + alternate(40, object, nullable) + `]}}`, `{"x":1}`,
			"it matched branches 0 and 1 and 2 and 3 and 4 and 5 and 6 and 7 and 8 and 9 and 10 and 11 and 12 and 13 and 14 and 15 and 24 more."},
		{`{"oneOf":[` + alternate(40, object, nullable) + `]}`, `{}`,
			"it matched branches 0 and 2 and 4 and 6 and 8 and 10 and 12 and 14 and 16 and 18 and 20 and 22 and 24 and 26 and 28 and 30 and 4 more."},
		{`{"properties":{"a":{"anyOf":[` + alternate(40, `{"type":"array"}`, `{"type":"string"}`) + `]}}}`, `{"a":1}`,
			"(branch 0 and 2 and 4 and 6 and 8 and 10 and 12 and 14 and 16 and 18 and 20 and 22 and 24 and 26 and 28 and 30 and 4 more: must be an array"},
	} {
		res := schema.Compile(schema.JSONSchema, []byte(tc.schema))
		require.Empty(t, res.Errors, tc.schema)
		got := validator.Validate(res.Schema, []byte(tc.doc), validator.Options{})
		require.Len(t, got.Findings, 1, tc.schema)
		assert.Contains(t, got.Findings[0].Message, tc.says, tc.schema)
	}
}

// TestEnumCompositeKinds: an array or an object that an enum has no
// choice of its kind for is refused at its first byte, and one it has a
// choice of that kind for is not refused there, for every mix of kinds
// and in any order the schema lists them (Enum.HasComposite reads the
// sorted choices' ends rather than scanning them).
func TestEnumCompositeKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		enum            string
		arrays, objects bool
	}{
		{`[1, "a", null]`, false, false},
		{`[[1]]`, true, false},
		{`[{}]`, false, true},
		{`[{"b":1}, [2], "x", {"a":[]}, [], 3]`, true, true},
		{`[{"z":1}, {"a":1}, {"y":2}]`, false, true},
		{`[[3], [1], [[]], [5]]`, true, false},
	} {
		s := compileFor(t, schema.JSONSchema, `{"properties":{"p":{"enum":`+tc.enum+`}}}`)
		for _, v := range []struct {
			doc  string
			kind bool
		}{{`{"p":[9]}`, tc.arrays}, {`{"p":{"q":9}}`, tc.objects}} {
			r := validator.Validate(s, []byte(v.doc), validator.Options{StopAtFirst: true})
			require.Len(t, r.Findings, 1, "%s on %s", tc.enum, v.doc)
			atFirstByte := r.Findings[0].Offset == 5
			assert.Equal(t, !v.kind, atFirstByte, "%s on %s: refused at the value's first byte (%d) iff no choice is of its kind", tc.enum, v.doc, r.Findings[0].Offset)
		}
	}
}

// TestMessagesQuoteAsJSON: a message quotes what the model sent, and the
// schema's names, as JSON strings, the notation the model writes: control
// characters as \u00XX, never Go's \x00, \a or \v.
func TestMessagesQuoteAsJSON(t *testing.T) {
	t.Parallel()
	compiled := schema.Compile(schema.JSONSchema, []byte(`{"properties":{"a":{"enum":["x"]},"b":{"maxLength":1},"c":{"required":["\u0007bell"]}}}`))
	require.Empty(t, compiled.Errors)
	for doc, want := range map[string]string{
		`{"a":"\u0000\u0007\u000b\u007f"}`: `/a must be one of "x"; got "\u0000\u0007\u000b\u007f".`,
		`{"b":"\u0000\u0007\u000b\u007f"}`: `/b must be at most 1 character long; got "\u0000\u0007\u000b\u007f".`,
		`{"c":{}}`:                         `/c is missing the required property "\u0007bell".`,
	} {
		res := validator.Validate(compiled.Schema, []byte(doc), validator.Options{})
		require.Len(t, res.Findings, 1, doc)
		assert.Equal(t, want, res.Findings[0].Message, doc)
	}
}
