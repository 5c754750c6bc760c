package validator_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// compile compiles a tool input schema that must be valid.
func compile(t testing.TB, src string) *schema.Schema {
	t.Helper()
	return compileFor(t, schema.ToolInput, src)
}

// compileFor compiles a schema that must be valid under profile.
func compileFor(t testing.TB, profile schema.Profile, src string) *schema.Schema {
	t.Helper()
	res := schema.Compile(profile, []byte(src))
	require.Empty(t, res.Errors, "schema %s", src)
	return res.Schema
}

// violation is the stable part of a finding.
type violation struct {
	Keyword, SchemaPath, InstancePath string
}

func stable(fs []schema.Finding) []violation {
	out := []violation{}
	for _, f := range fs {
		out = append(out, violation{f.Keyword, f.SchemaPath, f.InstancePath})
	}
	return out
}

// ruleCase checks one document: valid, or exactly the listed violations.
type ruleCase struct {
	name string
	doc  string
	want []violation // nil: valid
}

// runRules checks each case against the JSON Schema schemaSrc.
func runRules(t *testing.T, schemaSrc string, cases []ruleCase) {
	t.Helper()
	checkRules(t, compile(t, schemaSrc), cases)
}

// checkRules checks each case against s: its findings, its code, and that
// each message is a sentence whose offset lies in the document.
func checkRules(t *testing.T, s *schema.Schema, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := validator.Validate(s, []byte(tc.doc), validator.Options{})
			if tc.want == nil {
				assert.True(t, res.Valid(), "findings: %+v", res.Findings)
				assert.Equal(t, schema.CodeNone, res.Code())
				return
			}
			assert.Equal(t, tc.want, stable(res.Findings))
			assert.Equal(t, schema.CodeValidation, res.Code())
			for _, f := range res.Findings {
				assert.True(t, strings.HasSuffix(f.Message, "."), "message %q is a sentence", f.Message)
				assert.GreaterOrEqual(t, f.Offset, int64(0))
				assert.Less(t, f.Offset, int64(len(tc.doc))+1)
			}
		})
	}
}

func TestTypes(t *testing.T) {
	t.Parallel()
	runRules(t, `{"type":"object","properties":{
		"o":{"type":"object"},"a":{"type":"array","items":{"type":"string"}},"s":{"type":"string"},
		"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"}}}`, []ruleCase{
		{"each type accepts its kind", `{"o":{},"a":[],"s":"","i":3,"n":2.5,"b":false}`, nil},
		{"object rejects array", `{"o":[]}`, []violation{{"type", "/properties/o/type", "/o"}}},
		{"array rejects object", `{"a":{}}`, []violation{{"type", "/properties/a/type", "/a"}}},
		{"string rejects number", `{"s":1}`, []violation{{"type", "/properties/s/type", "/s"}}},
		{"number rejects string", `{"n":"1"}`, []violation{{"type", "/properties/n/type", "/n"}}},
		{"boolean rejects number", `{"b":0}`, []violation{{"type", "/properties/b/type", "/b"}}},
		{"null is no type of the profile", `{"s":null}`, []violation{{"type", "/properties/s/type", "/s"}}},
		{"integer accepts 1.0 and 1e2", `{"i":1.0,"n":1e2}`, nil},
		{"integer accepts 1e2", `{"i":1e2}`, nil},
		{"integer accepts -0.0e5", `{"i":-0.0e5}`, nil},
		{"integer accepts 12.5e1", `{"i":12.5e1}`, nil},
		{"integer rejects 1.5", `{"i":1.5}`, []violation{{"type", "/properties/i/type", "/i"}}},
		{"integer rejects 1e-1", `{"i":1e-1}`, []violation{{"type", "/properties/i/type", "/i"}}},
		{"integer accepts a huge one", `{"i":123456789012345678901234567890}`, nil},
		{"integer rejects 1.0000000000000000000001", `{"i":1.0000000000000000000001}`, []violation{{"type", "/properties/i/type", "/i"}}},
		{"integer accepts 1e999999999", `{"i":1e999999999}`, nil},
	})
}

func TestRootMustBeObject(t *testing.T) {
	t.Parallel()
	runRules(t, `{"properties":{"a":{"type":"string"}}}`, []ruleCase{
		{"object", `{"a":"x"}`, nil},
		{"array", `[]`, []violation{{"type", "/type", ""}}},
		{"string", `"x"`, []violation{{"type", "/type", ""}}},
		{"number", `1`, []violation{{"type", "/type", ""}}},
	})
}

// TestRootEnumOnly: the one enum-only node the tool input profile
// compiles is the root (below it, one is refused as untyped), and a root
// without type means object, enum or not: a value of another type is the
// root's type finding at /type, though the enum has a choice of that type
// ("x" here); an object outside the choices is the enum's finding.
func TestRootEnumOnly(t *testing.T) {
	t.Parallel()
	runRules(t, `{"enum":[{"a":1},"x"]}`, []ruleCase{
		{"a choice", `{"a":1.0}`, nil},
		{"another object", `{"a":2}`, []violation{{"enum", "/enum", ""}}},
		{"a string choice is no object", `"x"`, []violation{{"type", "/type", ""}}},
	})
}

func TestPropertiesRequiredAdditional(t *testing.T) {
	t.Parallel()
	runRules(t, `{"type":"object","properties":{
		"open":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]},
		"closed":{"type":"object","properties":{"path":{"type":"string"},"pattern":{"type":"string"}},"additionalProperties":false},
		"snake":{"type":"object","properties":{"a":{"type":"string"}},"additional_properties":false},
		"ghost":{"type":"object","required":["must"]}
	},"required":["open"]}`, []ruleCase{
		{"nested required present", `{"open":{"x":1}}`, nil},
		{"missing required at root", `{}`, []violation{{"required", "/required", ""}}},
		{"missing nested required", `{"open":{}}`, []violation{{"required", "/properties/open/required", "/open"}}},
		{"nested property validated", `{"open":{"x":"1"}}`, []violation{{"type", "/properties/open/properties/x/type", "/open/x"}}},
		{"open object allows extra keys of any kind", `{"open":{"x":1,"y":[{"z":null}]},"other":{"q":[1,"2"]}}`, nil},
		{"closed object allows declared keys", `{"open":{"x":1},"closed":{"path":"a","pattern":"b"}}`, nil},
		{"closed object rejects extra key", `{"open":{"x":1},"closed":{"pat":"a"}}`, []violation{{"additionalProperties", "/properties/closed/additionalProperties", "/closed"}}},
		{"closed object rejects longer key", `{"open":{"x":1},"closed":{"paths":"a"}}`, []violation{{"additionalProperties", "/properties/closed/additionalProperties", "/closed"}}},
		{"closed object rejects empty key", `{"open":{"x":1},"closed":{"":1}}`, []violation{{"additionalProperties", "/properties/closed/additionalProperties", "/closed"}}},
		{"additional_properties spelling is enforced, its path the spelling", `{"open":{"x":1},"snake":{"b":"x"}}`, []violation{{"additionalProperties", "/properties/snake/additional_properties", "/snake"}}},
		{"required name without a property schema accepts any value", `{"open":{"x":1},"ghost":{"must":[1,{"a":null}]}}`, nil},
		{"required name without a property schema must be present", `{"open":{"x":1},"ghost":{}}`, []violation{{"required", "/properties/ghost/required", "/ghost"}}},
		{"every violation is reported", `{"open":{"x":"s"},"closed":{"a":1,"b":2}}`, []violation{
			{"type", "/properties/open/properties/x/type", "/open/x"},
			{"additionalProperties", "/properties/closed/additionalProperties", "/closed"},
			{"additionalProperties", "/properties/closed/additionalProperties", "/closed"},
		}},
	})
}

func TestRequiredUndeclaredUnderClosedObject(t *testing.T) {
	t.Parallel()
	runRules(t, `{"type":"object","additionalProperties":false,"required":["ghost"]}`, []ruleCase{
		{"can never be satisfied when absent", `{}`, []violation{{"required", "/required", ""}}},
		{"nor when present", `{"ghost":1}`, []violation{{"additionalProperties", "/additionalProperties", ""}, {"required", "/required", ""}}},
	})
}

func TestEnum(t *testing.T) {
	t.Parallel()
	runRules(t, `{"type":"object","properties":{
		"s":{"type":"string","enum":["pending","in_progress","completed","a","ab","é"]},
		"n":{"type":"number","enum":[1,2.5,-3,1e30,123456789012345678901234567890]},
		"i":{"type":"integer","enum":[1]},
		"b":{"type":"boolean","enum":[true]},
		"o":{"type":"object","enum":[{"a":1,"b":[1,2]},{}]},
		"a":{"type":"array","items":{"type":"integer"},"enum":[[1,2],[{"x":"y"}],[]]},
		"none":{"type":"string","enum":[]},
		"narrow":{"type":"string","enum":["x",1,true]},
		"rep":{"type":"string","enum":["x","x"]}
	}}`, []ruleCase{
		{"strings compare exactly", `{"s":"in_progress"}`, nil},
		{"string case matters", `{"s":"Pending"}`, []violation{{"enum", "/properties/s/enum", "/s"}}},
		{"string prefix of a choice", `{"s":"pend"}`, []violation{{"enum", "/properties/s/enum", "/s"}}},
		{"string longer than a choice", `{"s":"abc"}`, []violation{{"enum", "/properties/s/enum", "/s"}}},
		{"short choice that prefixes another", `{"s":"a"}`, nil},
		{"escaped string equals its choice", `{"s":"\u00e9"}`, nil},
		{"escaped string equals ascii choice", `{"s":"\u0061\u0062"}`, nil},
		{"number by value: 1.0", `{"n":1.0}`, nil},
		{"number by value: 1e0", `{"n":1e0}`, nil},
		{"number by value: 25e-1", `{"n":25e-1}`, nil},
		{"number by value: 10E29", `{"n":10E29}`, nil},
		{"big number exactly", `{"n":123456789012345678901234567890}`, nil},
		{"big number off by one", `{"n":123456789012345678901234567891}`, []violation{{"enum", "/properties/n/enum", "/n"}}},
		{"number not a choice", `{"n":2}`, []violation{{"enum", "/properties/n/enum", "/n"}}},
		{"negative number", `{"n":-3.0}`, nil},
		{"sign matters", `{"n":3}`, []violation{{"enum", "/properties/n/enum", "/n"}}},
		{"integer enum with 1.0", `{"i":1.0}`, nil},
		{"booleans never equal numbers", `{"b":1}`, []violation{{"type", "/properties/b/type", "/b"}}},
		{"boolean choice", `{"b":true}`, nil},
		{"boolean not a choice", `{"b":false}`, []violation{{"enum", "/properties/b/enum", "/b"}}},
		{"object by content, key order ignored", `{"o":{"b":[1,2.0],"a":1}}`, nil},
		{"empty object choice", `{"o":{}}`, nil},
		{"object with other content", `{"o":{"a":1,"b":[2,1]}}`, []violation{{"enum", "/properties/o/enum", "/o"}}},
		{"object with extra key", `{"o":{"a":1,"b":[1,2],"c":0}}`, []violation{{"enum", "/properties/o/enum", "/o"}}},
		{"array by content", `{"a":[1,2]}`, nil},
		{"array with number spelling", `{"a":[1.0,20e-1]}`, nil},
		{"empty array choice", `{"a":[]}`, nil},
		{"array order matters", `{"a":[2,1]}`, []violation{{"enum", "/properties/a/enum", "/a"}}},
		{"array enum still checks items", `{"a":[{"x":"y"}]}`, []violation{{"type", "/properties/a/items/type", "/a/0"}}},
		{"empty enum rejects everything", `{"none":"x"}`, []violation{{"enum", "/properties/none/enum", "/none"}}},
		{"enum narrows the type: number choice on a string", `{"narrow":1}`, []violation{{"type", "/properties/narrow/type", "/narrow"}}},
		{"enum narrows the type: string choice", `{"narrow":"x"}`, nil},
		{"repeated choices change nothing", `{"rep":"x"}`, nil},
		{"repeated choices still reject", `{"rep":"y"}`, []violation{{"enum", "/properties/rep/enum", "/rep"}}},
	})
}

// TestRootEnum: seed 000's enum "works on object roots" and narrows the
// object type there as anywhere; "an empty enum rejects every supplied
// value", at the root too, and so does a root enum with no object
// choice: the schema compiles and every call is a VALIDATION finding at
// the enum, made at the document's first byte, whole and streamed.
func TestRootEnum(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema string
		cases        []ruleCase
		atFirstByte  bool // every call is refused at its '{'
	}{
		{"object choices", `{"type":"object","properties":{"a":{"type":"string"}},"enum":[{"a":"x"},{}]}`, []ruleCase{
			{"a choice", `{"a":"x"}`, nil},
			{"the empty choice", `{}`, nil},
			{"no choice", `{"a":"y"}`, []violation{{"enum", "/enum", ""}}},
			{"the enum narrows the properties", `{"a":1}`, []violation{{"type", "/properties/a/type", "/a"}, {"enum", "/enum", ""}}},
		}, false},
		{"empty", `{"type":"object","enum":[]}`, []ruleCase{
			{"empty object", `{}`, []violation{{"enum", "/enum", ""}}},
			{"any object", `{"a":1}`, []violation{{"enum", "/enum", ""}}},
		}, true},
		{"no object choice", `{"enum":[1,"x",[{}]]}`, []ruleCase{
			{"empty object", `{}`, []violation{{"enum", "/enum", ""}}},
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := compile(t, tc.schema)
			checkRules(t, s, tc.cases)
			for _, c := range tc.cases {
				v := validator.New(s, validator.Options{StopAtFirst: true})
				for i := range len(c.doc) {
					v.Write([]byte{c.doc[i]})
				}
				res := v.Close()
				if c.want == nil {
					assert.True(t, res.Valid(), "%s, one byte at a time: %+v", c.name, res.Findings)
					continue
				}
				assert.Equal(t, c.want[:1], stable(res.Findings[:1]), "%s, one byte at a time", c.name)
				if tc.atFirstByte {
					assert.Zero(t, res.Findings[0].Offset, "%s: refused at the first byte", c.name)
				}
			}
		})
	}
}

func TestMinimumIsInclusiveAndExact(t *testing.T) {
	t.Parallel()
	runRules(t, `{"type":"object","properties":{
		"f":{"type":"number","minimum":0.1},
		"big":{"type":"integer","minimum":9007199254740993},
		"neg":{"type":"number","minimum":-2.5},
		"i":{"type":"integer","minimum":0}
	}}`, []ruleCase{
		{"equal to the bound", `{"f":0.1}`, nil},
		{"equal with another spelling", `{"f":1e-1,"big":9007199254740993.0}`, nil},
		{"just below by 1e-20", `{"f":0.09999999999999999999}`, []violation{{"minimum", "/properties/f/minimum", "/f"}}},
		{"float64 would round this up", `{"big":9007199254740992}`, []violation{{"minimum", "/properties/big/minimum", "/big"}}},
		{"above a big bound", `{"big":9007199254740994}`, nil},
		{"huge values", `{"big":1e999999999,"f":123456789012345678901234567890.5}`, nil},
		{"tiny positive below", `{"f":1e-999999999}`, []violation{{"minimum", "/properties/f/minimum", "/f"}}},
		{"negative bound", `{"neg":-2.5}`, nil},
		{"below a negative bound", `{"neg":-2.50000000001}`, []violation{{"minimum", "/properties/neg/minimum", "/neg"}}},
		{"zero at zero", `{"i":0,"f":0.1}`, nil},
		{"negative zero at zero", `{"i":-0}`, nil},
		// minimum is decided at the 1 (no completion of -1 is >= 0), the
		// integer type only at the number's end: byte order.
		{"integer and minimum both reported", `{"i":-1.5}`, []violation{{"minimum", "/properties/i/minimum", "/i"}, {"type", "/properties/i/type", "/i"}}},
	})
}

func TestItems(t *testing.T) {
	t.Parallel()
	runRules(t, `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer","minimum":1}},"required":["id"]}}}}`, []ruleCase{
		{"every item valid", `{"l":[{"id":1},{"id":2}]}`, nil},
		{"empty array", `{"l":[]}`, nil},
		{"each bad item reported with its index", `{"l":[{"id":1},{"id":0},{}]}`, []violation{
			{"minimum", "/properties/l/items/properties/id/minimum", "/l/1/id"},
			{"required", "/properties/l/items/required", "/l/2"},
		}},
	})
}

func TestOneOf(t *testing.T) {
	t.Parallel()
	runRules(t, `{"type":"object","properties":{
		"v":{"oneOf":[{"type":"string"},{"type":"integer"}]},
		"overlap":{"oneOf":[{"type":"integer"},{"type":"number","minimum":0}]},
		"shape":{"oneOf":[
			{"type":"object","properties":{"kind":{"type":"string","enum":["file"]},"path":{"type":"string"}},"required":["kind","path"],"additionalProperties":false},
			{"type":"object","properties":{"kind":{"type":"string","enum":["url"]},"url":{"type":"string"}},"required":["kind","url"],"additionalProperties":false}
		]},
		"nested":{"type":"array","items":{"oneOf":[{"type":"boolean"},{"type":"array","items":{"oneOf":[{"type":"string"},{"type":"number","minimum":10}]}}]}}
	}}`, []ruleCase{
		{"first branch", `{"v":"x"}`, nil},
		{"second branch", `{"v":3}`, nil},
		{"no branch", `{"v":true}`, []violation{{"oneOf", "/properties/v/oneOf", "/v"}}},
		{"no branch: 1.5", `{"v":1.5}`, []violation{{"oneOf", "/properties/v/oneOf", "/v"}}},
		{"exactly one of overlapping branches", `{"overlap":-1}`, nil},
		{"two branches match", `{"overlap":5}`, []violation{{"oneOf", "/properties/overlap/oneOf", "/overlap"}}},
		{"object branches told apart by enum", `{"shape":{"kind":"url","url":"x"}}`, nil},
		{"object branch by required", `{"shape":{"kind":"file","path":"p"}}`, nil},
		{"object matching no branch", `{"shape":{"kind":"file","url":"x"}}`, []violation{{"oneOf", "/properties/shape/oneOf", "/shape"}}},
		{"nested oneOf", `{"nested":[true,["a",10,11.5],[]]}`, nil},
		{"nested oneOf failure", `{"nested":[true,["a",9]]}`, []violation{{"oneOf", "/properties/nested/items/oneOf", "/nested/1"}}},
	})
}

func TestArgumentsMustBeExactJSON(t *testing.T) {
	t.Parallel()
	runRules(t, `{"type":"object","properties":{"a":{"type":"string"},"o":{"type":"object"}}}`, []ruleCase{
		{"plain", `{"a":"x","o":{"k":1}}`, nil},
		{"duplicate key at root", `{"a":"x","a":"y"}`, []violation{{"json", "", ""}}},
		{"duplicate key spelled with an escape", `{"a":"x","\u0061":"y"}`, []violation{{"json", "", ""}}},
		{"duplicate key in unconstrained object", `{"o":{"k":1,"k":1}}`, []violation{{"json", "", "/o"}}},
		{"same key in sibling objects is fine", `{"o":{"k":{"k":1}},"a":"k"}`, nil},
		{"invalid UTF-8", "{\"a\":\"\xff\"}", []violation{{"json", "", "/a"}}},
		{"lone high surrogate", `{"a":"\ud800"}`, []violation{{"json", "", "/a"}}},
		{"lone low surrogate", `{"a":"\udc00"}`, []violation{{"json", "", "/a"}}},
		{"surrogate pair", `{"a":"\ud83d\ude00"}`, nil},
		{"trailing data", `{"a":"x"} {}`, []violation{{"json", "", ""}}},
		{"trailing garbage", `{"a":"x"}x`, []violation{{"json", "", ""}}},
		{"truncated", `{"a":"x"`, []violation{{"json", "", "/a"}}},
		{"truncated in a name", `{"ab":1,"ab`, []violation{{"json", "", ""}}},
		{"lone surrogate in a name", `{"ab":1,"ab\ud800":1}`, []violation{{"json", "", ""}}},
		{"invalid UTF-8 in a nested name", "{\"o\":{\"ab\":1,\"ab\xff\":1}}", []violation{{"json", "", "/o"}}},
		{"empty", ``, []violation{{"json", "", ""}}},
		{"not JSON", `{a:1}`, []violation{{"json", "", ""}}},
		// After a ',' no member or element has begun: the container is at fault.
		{"trailing comma in an object", `{"a":"x",}`, []violation{{"json", "", ""}}},
		{"trailing comma in an array", `{"o":{"k":[1,]}}`, []violation{{"json", "", "/o/k"}}},
		{"truncated after a comma", `{"o":{"k":1,`, []violation{{"json", "", "/o"}}},
		{"a value missing after its name", `{"o":{"k":}}`, []violation{{"json", "", "/o/k"}}},
	})
}

func TestDuplicateKeysInBigObjects(t *testing.T) {
	t.Parallel()
	s := compile(t, `{"type":"object"}`)
	key := func(i int) string { return "k" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + itoa(i) }
	var sb strings.Builder
	sb.WriteString("{")
	for i := range 1000 {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`"` + key(i) + `":1`)
	}
	valid := sb.String() + "}"
	res := validator.Validate(s, []byte(valid), validator.Options{})
	require.True(t, res.Valid(), "%+v", res.Findings)
	dup := sb.String() + `,"` + key(999) + `":2}`
	res = validator.Validate(s, []byte(dup), validator.Options{})
	require.Len(t, res.Findings, 1)
	assert.Equal(t, "json", res.Findings[0].Keyword)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	s := compile(t, `{"type":"object"}`)
	doc := `{"a":` + strings.Repeat("[", 9) + strings.Repeat("]", 9) + "}"
	assert.True(t, validator.Validate(s, []byte(doc), validator.Options{MaxDepth: 10}).Valid())
	deep := `{"a":` + strings.Repeat("[", 10) + strings.Repeat("]", 10) + "}"
	res := validator.Validate(s, []byte(deep), validator.Options{MaxDepth: 10})
	require.Len(t, res.Findings, 1)
	assert.Equal(t, "json", res.Findings[0].Keyword)
	assert.Equal(t, int64(len(`{"a":`)+9), res.Findings[0].Offset)
	// The default limit holds off a million-deep document without recursion.
	million := strings.Repeat("[", 1_000_000)
	res = validator.Validate(s, []byte(`{"a":`+million), validator.Options{})
	require.Len(t, res.Findings, 1)
	assert.Contains(t, res.Findings[0].Message, "nesting")
}

func TestFindingsCap(t *testing.T) {
	t.Parallel()
	s := compile(t, `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}}}`)
	doc := `{"l":[` + strings.TrimSuffix(strings.Repeat("1,", 10), ",") + `]}`
	res := validator.Validate(s, []byte(doc), validator.Options{MaxFindings: 3})
	assert.Len(t, res.Findings, 3)
	assert.True(t, res.Truncated)
	res = validator.Validate(s, []byte(doc), validator.Options{})
	assert.Len(t, res.Findings, 10)
	assert.False(t, res.Truncated)
}

func TestOffsetsAndMessages(t *testing.T) {
	t.Parallel()
	s := compile(t, `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{
		"status":{"type":"string","enum":["pending","in_progress","completed"]}}}}},"additionalProperties":false}`)
	doc := `{"items":[{"status":"done"}]}`
	res := validator.Validate(s, []byte(doc), validator.Options{})
	require.Len(t, res.Findings, 1)
	f := res.Findings[0]
	assert.Equal(t, `/items/0/status must be one of "pending", "in_progress", "completed"; got "done".`, f.Message)
	assert.Equal(t, int64(strings.Index(doc, "done")), f.Offset, "the first byte no choice can follow")

	doc = `{"items":[],"extra":1}`
	res = validator.Validate(s, []byte(doc), validator.Options{})
	require.Len(t, res.Findings, 1)
	assert.Equal(t, int64(strings.Index(doc, "extra")), res.Findings[0].Offset)
	assert.Equal(t, `The arguments object does not allow the property "extra"; allowed properties are "items".`, res.Findings[0].Message)

	doc = `{"items":[{"status":"pending","status":"completed"}]}`
	res = validator.Validate(s, []byte(doc), validator.Options{})
	require.Len(t, res.Findings, 1)
	assert.Equal(t, `/items/0 has the property "status" more than once; duplicate names are not allowed.`, res.Findings[0].Message)
	assert.Equal(t, "/items/0", res.Findings[0].InstancePath)
	assert.Equal(t, int64(strings.LastIndex(doc, `status"`)+len("status")), res.Findings[0].Offset, "at the second name's closing quote")
}

// TestEnumCaptureStaysBounded: once a value has outgrown every object or
// array choice, the rest of it is not recorded (the rejection stands, and
// memory does not grow with the value).
func TestEnumCaptureStaysBounded(t *testing.T) {
	s := compile(t, `{"type":"object","properties":{"a":{"type":"array","items":{"type":"array","items":{"type":"integer"},"enum":[[1]]},"enum":[[[1]],[]]}}}`)
	big := `{"a":[[1],[` + strings.TrimSuffix(strings.Repeat("1,", 100_000), ",") + `]]}`
	res := validator.Validate(s, []byte(big), validator.Options{})
	require.Len(t, res.Findings, 2)
	assert.Equal(t, "/properties/a/enum", res.Findings[0].SchemaPath, "the outer value dies first")
	assert.Equal(t, "/properties/a/items/enum", res.Findings[1].SchemaPath)
	doc := []byte(big)
	fresh := func() { // a new Validator, so no buffer is warm
		v := validator.New(s, validator.Options{})
		v.Write(doc)
		v.Close()
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fresh()
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(len(big)/4), "no buffer grows with the 200 KB value")
	assert.True(t, validator.Validate(s, []byte(`{"a":[[1]]}`), validator.Options{}).Valid())
	assert.True(t, validator.Validate(s, []byte(`{"a":[]}`), validator.Options{}).Valid())
}
