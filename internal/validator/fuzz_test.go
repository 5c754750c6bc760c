package validator_test

import (
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// fuzzSchemas exercise every kind of frame: closed objects, string and
// number enums, composite enums, oneOf (nested), items, minimum, and the
// output profile's lengths, pattern and nullable types.
var fuzzSchemas = []struct {
	profile schema.Profile
	src     string
}{
	{schema.ToolInput, `{"type":"object","properties":{"action":{"type":"string","enum":["add","update","a"]},"n":{"type":"integer","minimum":0.5},
		"e":{"type":"number","enum":[1,2.5,-3e2]},"o":{"oneOf":[{"type":"string"},{"type":"array","items":{"oneOf":[{"type":"boolean"},{"type":"number","minimum":10}]}}]},
		"c":{"type":"object","enum":[{"a":[1,"x"]},{}],"properties":{"a":{"type":"array","items":{"type":"string"}}}}},"required":["action"],"additionalProperties":false}`},
	{schema.ToolInput, `{"type":"object"}`},
	{schema.ToolInput, `{"type":"object","additionalProperties":false,"required":["ghost"]}`},
	{schema.OutputBindable, `{"type":"object","required":["s"],"properties":{"s":{"type":["string","null"],"minLength":2,"maxLength":4,"pattern":"^[a-z]+\\d?$"},
		"m":{"type":"number","minimum":0,"maximum":1},"t":{"type":"array","items":{"type":"string","enum":["x","yy"]}}}}`},
}

// FuzzValidate feeds arbitrary bytes to the validator: it never panics, a
// split gives the findings of the whole document, the streaming verdict is
// the full verdict's first byte, and every finding is well formed.
func FuzzValidate(f *testing.F) {
	for _, seed := range []string{
		`{"action":"add","n":1,"e":-300,"o":[true,10.5],"c":{"a":[1,"x"]}}`,
		`{"action":"updatx","zz":1,"n":0.49999999999999999}`, `{"action":"a","action":"a"}`, `{"o":"\ud83d\ude00"}`,
		`{"s":null,"m":1.0,"t":["yy"]}`, `{"s":"abcde"}`, `{"s":"AB1"}`, `{"ghost":1}`, `{"a":[[[[]]]]} `, `{"a":"\xff"}`,
		`{`, `[]`, `{"a":1}x`, `{"a":"\ud800"}`, `{"e":1e999999999}`, `{"c":{"a":["x",1]}}`,
	} {
		for i := range fuzzSchemas {
			f.Add(uint8(i), []byte(seed), uint16(len(seed)/2))
		}
	}
	compiled := make([]*schema.Schema, len(fuzzSchemas))
	for i, s := range fuzzSchemas {
		res := schema.Compile(s.profile, []byte(s.src))
		if len(res.Errors) > 0 {
			f.Fatalf("schema %d: %+v", i, res.Errors)
		}
		compiled[i] = res.Schema
	}
	f.Fuzz(func(t *testing.T, which uint8, doc []byte, cut uint16) {
		s := compiled[int(which)%len(compiled)]
		opts := validator.Options{MaxDepth: 16, MaxFindings: 1000}
		full := validator.Validate(s, doc, opts)
		at := int(cut) % (len(doc) + 1)

		v := validator.New(s, opts)
		v.Write(doc[:at])
		v.Write(doc[at:])
		split := v.Close()
		if !reflect.DeepEqual(fixtures.Stable(full.Findings), fixtures.Stable(split.Findings)) {
			t.Fatalf("split at %d of %q:\nwhole %+v\nsplit %+v", at, doc, full.Findings, split.Findings)
		}

		opts.StopAtFirst = true
		stop := validator.New(s, opts)
		stop.Write(doc[:at])
		stop.Write(doc[at:])
		first := stop.Close()
		if full.Valid() != first.Valid() {
			t.Fatalf("%q: full valid %v, streaming valid %v", doc, full.Valid(), first.Valid())
		}
		var atFirst []schema.Finding
		for _, fd := range full.Findings {
			if fd.Offset == full.Findings[0].Offset {
				atFirst = append(atFirst, fd)
			}
		}
		if !reflect.DeepEqual(fixtures.Stable(atFirst), fixtures.Stable(first.Findings)) {
			t.Fatalf("%q: streaming %+v, full validation's first byte %+v", doc, first.Findings, atFirst)
		}
		for _, fd := range full.Findings {
			if fd.Code != schema.CodeValidation || fd.Keyword == "" || fd.Offset < 0 || fd.Offset > int64(len(doc)) ||
				!utf8.ValidString(fd.Message) || !utf8.ValidString(fd.InstancePath) {
				t.Fatalf("%q: malformed finding %+v", doc, fd)
			}
		}
	})
}
