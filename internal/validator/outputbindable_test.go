package validator_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// TestOutputBindableEnforcement checks every enforced keyword of the
// bindable output profile, valid and invalid.
func TestOutputBindableEnforcement(t *testing.T) {
	t.Parallel()
	s := compileFor(t, schema.OutputBindable, `{"type":"object","required":["id","note"],"properties":{
		"id":{"type":["string","null"]},
		"note":{"type":["string","null"],"minLength":2,"maxLength":5},
		"code":{"type":"string","pattern":"\\d{3}"},
		"score":{"type":"number","minimum":0,"maximum":1},
		"count":{"type":["integer","null"],"minimum":1},
		"level":{"type":"string","enum":["low","high"]},
		"tags":{"type":"array","items":{"type":"string","enum":["a","b"]}},
		"flag":{"type":"boolean"},
		"loose":{"type":"string","format":"email","const":"x"}
	}}`)
	checkRules(t, s, []ruleCase{
		{"required keys present, null where allowed", `{"id":null,"note":null}`, nil},
		{"required + nullable key omitted", `{"note":"ok"}`, []violation{{"required", "/required", ""}}},
		{"null where the type does not allow it", `{"id":"1","note":"ok","flag":null}`, []violation{{"type", "/properties/flag/type", "/flag"}}},
		{"minLength in code points", `{"id":"1","note":"é😀"}`, nil},
		{"below minLength", `{"id":"1","note":"é"}`, []violation{{"minLength", "/properties/note/minLength", "/note"}}},
		{"maxLength in code points", `{"id":"1","note":"ééééé"}`, nil},
		{"above maxLength", `{"id":"1","note":"abcdef"}`, []violation{{"maxLength", "/properties/note/maxLength", "/note"}}},
		{"pattern is an unanchored search", `{"id":"1","note":null,"code":"order 123 shipped"}`, nil},
		{"pattern not found", `{"id":"1","note":null,"code":"order 12"}`, []violation{{"pattern", "/properties/code/pattern", "/code"}}},
		{"pattern sees escapes decoded", `{"id":"1","note":null,"code":"\u0031\u0032\u0033"}`, nil},
		{"inclusive bounds", `{"id":"1","note":null,"score":0,"count":1}`, nil},
		{"inclusive maximum", `{"id":"1","note":null,"score":1.000}`, nil},
		{"above maximum, exactly", `{"id":"1","note":null,"score":1.0000000000000000000001}`, []violation{{"maximum", "/properties/score/maximum", "/score"}}},
		{"below minimum", `{"id":"1","note":null,"score":-0.0001}`, []violation{{"minimum", "/properties/score/minimum", "/score"}}},
		{"nullable integer", `{"id":"1","note":null,"count":null}`, nil},
		{"integer, not a fraction", `{"id":"1","note":null,"count":2.5}`, []violation{{"type", "/properties/count/type", "/count"}}},
		{"closed enum", `{"id":"1","note":null,"level":"medium"}`, []violation{{"enum", "/properties/level/enum", "/level"}}},
		{"items enum", `{"id":"1","note":null,"tags":["a","b","a"]}`, nil},
		{"items enum violated", `{"id":"1","note":null,"tags":["a","c"]}`, []violation{{"enum", "/properties/tags/items/enum", "/tags/1"}}},
		{"ignored keywords are not enforced", `{"id":"1","note":null,"loose":"not an email","extra":1}`, nil},
	})
}

// TestOutputBindableEnumOnly: an enum without type is typed by its
// choices for the profile's rules, but a value is checked against the
// enum alone: one of another type is the enum's finding, at the enum the
// schema has (it has no type to point at), and its message names the
// closed set.
func TestOutputBindableEnumOnly(t *testing.T) {
	t.Parallel()
	s := compileFor(t, schema.OutputBindable, `{"type":"object","properties":{
		"level":{"enum":["low","high"]},
		"maybe":{"enum":["a",null]},
		"picks":{"type":"array","items":{"enum":[1,2]}}
	}}`)
	for _, tc := range []struct {
		name, doc string
		want      []violation // nil: valid
		message   string
		offset    int64 // the deciding byte
	}{
		{"its choices", `{"level":"low","maybe":null,"picks":[1,2.0]}`, nil, "", 0},
		{"another string", `{"level":"medium"}`, []violation{{"enum", "/properties/level/enum", "/level"}}, `/level must be one of "low", "high"; got "medium".`, 10},
		{"a number", `{"level":1}`, []violation{{"enum", "/properties/level/enum", "/level"}}, `/level must be one of "low", "high"; got a number.`, 9},
		{"null", `{"level":null}`, []violation{{"enum", "/properties/level/enum", "/level"}}, `/level must be one of "low", "high"; got null.`, 9},
		{"an array", `{"level":["low"]}`, []violation{{"enum", "/properties/level/enum", "/level"}}, `/level must be one of "low", "high"; got an array.`, 9},
		{"a boolean where null is a choice", `{"maybe":true}`, []violation{{"enum", "/properties/maybe/enum", "/maybe"}}, `/maybe must be one of "a", null; got true.`, 9},
		{"an item of another type", `{"picks":[1,"2"]}`, []violation{{"enum", "/properties/picks/items/enum", "/picks/1"}}, `/picks/1 must be one of 1, 2; got a string.`, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := validator.Validate(s, []byte(tc.doc), validator.Options{})
			if tc.want == nil {
				assert.True(t, res.Valid(), "findings: %+v", res.Findings)
				return
			}
			assert.Equal(t, tc.want, stable(res.Findings))
			assert.Equal(t, schema.CodeValidation, res.Code())
			if assert.Len(t, res.Findings, 1) {
				assert.Equal(t, tc.message, res.Findings[0].Message)
				assert.Equal(t, tc.offset, res.Findings[0].Offset)
			}
		})
	}
}

// TestOutputBindablePatternIsECMA262: a bindable pattern means what
// ECMA-262 (JSON Schema's dialect) says, where Go's RE2 syntax would say
// otherwise: \u escapes, "." that excludes \r, \s that holds U+00A0.
func TestOutputBindablePatternIsECMA262(t *testing.T) {
	t.Parallel()
	s := compileFor(t, schema.OutputBindable, `{"type":"object","properties":{
		"u":{"type":"string","pattern":"^\\u0041$"},
		"dot":{"type":"string","pattern":"^a.b$"},
		"space":{"type":"string","pattern":"^\\s$"}
	}}`)
	checkRules(t, s, []ruleCase{
		{"\\u0041 is A", `{"u":"A"}`, nil},
		{"\\u0041 is not B", `{"u":"B"}`, []violation{{"pattern", "/properties/u/pattern", "/u"}}},
		{". takes a tab", `{"dot":"a\tb"}`, nil},
		{". does not take \\r", `{"dot":"a\rb"}`, []violation{{"pattern", "/properties/dot/pattern", "/dot"}}},
		{"\\s takes U+00A0", `{"space":"\u00a0"}`, nil},
		{"\\s takes U+FEFF", `{"space":"\ufeff"}`, nil},
		{"\\s does not take x", `{"space":"x"}`, []violation{{"pattern", "/properties/space/pattern", "/space"}}},
	})
}

// TestOutputBindableStreamsEarly: maxLength is rejected at the first code
// point past the limit, whatever the split.
func TestOutputBindableStreamsEarly(t *testing.T) {
	t.Parallel()
	s := compileFor(t, schema.OutputBindable, `{"type":"object","properties":{"note":{"type":"string","maxLength":3}}}`)
	doc := []byte(`{"note":"abcdefgh"}`)
	want := int64(strings.Index(string(doc), "d"))
	for cut := 1; cut < len(doc); cut++ {
		v := validator.New(s, validator.Options{StopAtFirst: true})
		v.Write(doc[:cut])
		if int64(cut) > want {
			require.True(t, v.Rejected(), "rejected once byte %d arrived (cut %d)", want, cut)
		} else {
			require.False(t, v.Rejected(), "cut %d", cut)
		}
		v.Write(doc[cut:])
		res := v.Close()
		require.Len(t, res.Findings, 1)
		assert.Equal(t, want, res.Findings[0].Offset)
	}
}

// outputCase is one entry of a testdata/output/<name>.cases.json file.
type outputCase struct {
	Output json.RawMessage `json:"output"`
	Valid  bool            `json:"valid"`
	Why    string          `json:"why"`
}

// TestSeedOutputSchemas compiles the seed's return-intake schema and a
// receipt schema under the bindable output profile and checks realistic
// model outputs against them.
func TestSeedOutputSchemas(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"return_intake", "receipt"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := fixtures.Testdata(t, "output")
			s := compileFor(t, schema.OutputBindable, string(readFile(t, filepath.Join(dir, name+".json"))))
			var cases []outputCase
			require.NoError(t, json.Unmarshal(readFile(t, filepath.Join(dir, name+".cases.json")), &cases))
			require.GreaterOrEqual(t, len(cases), 8)
			valid := 0
			for _, c := range cases {
				res := validator.Validate(s, c.Output, validator.Options{})
				assert.Equal(t, c.Valid, res.Valid(), "%s (%s): %+v", c.Output, c.Why, res.Findings)
				if c.Valid {
					valid++
				}
			}
			assert.Positive(t, valid)
			assert.Less(t, valid, len(cases))
		})
	}
}
