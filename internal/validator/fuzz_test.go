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
// split gives the findings of the whole document, messages included, the
// streaming verdict is the full verdict's first byte, and every finding is
// well formed.
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
		checkValidation(t, compiled[int(which)%len(compiled)], doc, int(cut)%(len(doc)+1))
	})
}

// checkValidation validates doc against s whole, split at at, and streaming
// (stop at the first violation): the split finds what the whole document
// does, word for word, the streaming verdict is the full verdict's first
// byte, and every finding is well formed.
func checkValidation(t *testing.T, s *schema.Schema, doc []byte, at int) {
	t.Helper()
	opts := validator.Options{MaxDepth: 16, MaxFindings: 1000}
	full := validator.Validate(s, doc, opts)

	v := validator.New(s, opts)
	v.Write(doc[:at])
	v.Write(doc[at:])
	split := v.Close()
	if !reflect.DeepEqual(full.Findings, split.Findings) {
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
}

// jsonSchemaFuzzSeeds pair a schema with an instance. They reach every
// keyword family of the JSON Schema profile: references (local, anchored,
// recursive, dynamic), applicators, unevaluated*, dependencies, contains,
// uniqueItems, patterns, formats and the spellings of draft-07, draft-06
// and draft-04.
var jsonSchemaFuzzSeeds = [][2]string{
	{`{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"},"v":{"type":"integer","multipleOf":3}}}},"$ref":"#/$defs/n"}`,
		`{"v":3,"next":{"v":6,"next":{"v":7}}}`},
	{`{"type":"object","properties":{"a":{"type":"string","pattern":"^[a-z]+\\d{2,}$","minLength":3,"format":"email"}},"patternProperties":{"^x-":{"type":"boolean"}},"additionalProperties":false}`,
		`{"a":"ab12","x-y":true,"z":1}`},
	{`{"allOf":[{"properties":{"a":true}}],"anyOf":[{"required":["a"]},{"required":["b"]}],"unevaluatedProperties":false}`,
		`{"a":1,"b":2}`},
	{`{"oneOf":[{"type":"array","prefixItems":[{"const":1}],"items":false},{"type":"array","contains":{"const":2},"minContains":2,"uniqueItems":true}]}`,
		`[1,2,2,{"a":[1]},{"a":[1.0]}]`},
	{`{"if":{"properties":{"k":{"const":"n"}}},"then":{"properties":{"v":{"type":"number","exclusiveMaximum":10}}},"else":{"properties":{"v":{"type":"string","maxLength":2}}}}`,
		`{"k":"n","v":10}`},
	{`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"$id":"#a","type":"integer"}},"items":[{"$ref":"#a"}],"additionalItems":{"type":"string"},"dependencies":{"x":["y"],"z":{"minProperties":3}}}`,
		`[1,"s",2]`},
	{`{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true,"type":"object","additionalProperties":{"$recursiveRef":"#"},"dependentRequired":{"a":["b"]},"dependentSchemas":{"c":{"maxProperties":1}}}`,
		`{"a":{"b":{}},"c":{}}`},
	{`{"$dynamicAnchor":"t","$defs":{"l":{"$dynamicAnchor":"t","type":"array","items":{"$dynamicRef":"#t"}}},"anyOf":[{"$ref":"#/$defs/l"},{"type":"null"}]}`,
		`[[null,[]],null]`},
	{`{"propertyNames":{"maxLength":2,"enum":["a","bb"]},"minProperties":1,"not":{"required":["bb"]}}`,
		`{"a":1,"ccc":2}`},
	{`{"enum":[{"a":[1,2]},[null],1.5e3,"s"],"const":1500}`, `1500.0`},
	{`{"type":["integer","string"],"minimum":-1e400,"maximum":1e-400,"maxLength":0}`, `-1e401`},
	{`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`, `{}`},
	{`{"contentMediaType":"application/json","contentEncoding":"base64","format":"date-time","unknown":{"type":"null"}}`, `"2026-12-01T11:00:00Z"`},
	{`{"$schema":"http://json-schema.org/draft-06/schema#","$id":"http://x.example/s","properties":{"c":{"const":[1],"contains":{"type":"integer"}},"if":{"minimum":1}},"propertyNames":{"maxLength":3},"examples":[{}]}`,
		`{"c":[1],"if":0}`},
	{`{"$schema":"http://json-schema.org/draft-04/schema#","id":"http://x.example/r","definitions":{"p":{"id":"#p","type":"number","minimum":0,"exclusiveMinimum":true,"maximum":10,"exclusiveMaximum":false}},"properties":{"a":{"$ref":"#p"},"b":{"enum":[1,"x"],"not":{}}},"additionalProperties":false,"dependencies":{"a":["b"]}}`,
		`{"a":0,"b":1}`},
	{`true`, `{}`}, {`false`, `{}`}, {`{"$ref":"http://unknown.example/x"}`, `1`}, {`{"type":"object",}`, `{}`},
}

// FuzzJSONSchema compiles arbitrary schema documents under the JSON Schema
// profile and validates an arbitrary instance against each one that
// compiles. Compiling never panics and is deterministic, a finding is
// typed, and validation keeps FuzzValidate's invariants: a split changes
// nothing, and the streaming verdict is the full verdict's first byte.
func FuzzJSONSchema(f *testing.F) {
	for _, seed := range jsonSchemaFuzzSeeds {
		f.Add([]byte(seed[0]), []byte(seed[1]), uint16(len(seed[1])/2), false)
		f.Add([]byte(seed[0]), []byte(seed[1]), uint16(len(seed[1])/3), true)
	}
	f.Fuzz(func(t *testing.T, src, doc []byte, cut uint16, formats bool) {
		// Small limits keep each case cheap; they are the same code paths
		// as the defaults.
		opts := schema.Options{AnyDocument: true, FormatAssertion: formats,
			Limits: schema.Limits{MaxBytes: 16 << 10, MaxDepth: 32, MaxNodes: 2000, MaxRefs: 200}}
		res := schema.CompileWith(schema.JSONSchema, src, opts)
		if (res.Schema != nil) != (len(res.Errors) == 0) {
			t.Fatalf("%q: Schema %v with errors %+v", src, res.Schema != nil, res.Errors)
		}
		for _, fd := range res.Errors {
			if (fd.Code != schema.CodeUnsupported && fd.Code != schema.CodeValidation) || fd.Keyword == "" ||
				fd.Message == "" || !utf8.ValidString(fd.Message) || !utf8.ValidString(fd.SchemaPath) {
				t.Fatalf("%q: malformed compile finding %+v", src, fd)
			}
		}
		again := schema.CompileWith(schema.JSONSchema, src, opts)
		if !reflect.DeepEqual(fixtures.Stable(again.Errors), fixtures.Stable(res.Errors)) || string(again.Key) != string(res.Key) {
			t.Fatalf("two compilations of %q differ:\n%+v\n%+v", src, res.Errors, again.Errors)
		}
		if res.Schema == nil {
			return
		}
		checkValidation(t, res.Schema, doc, int(cut)%(len(doc)+1))
	})
}
