package validator_test

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// The bounds tests feed hostile schemas and documents (the shapes of issue
// 9's findings, built here rather than committed as megabytes) and check
// the validator's work counter, not the clock: the steps per argument byte
// must stay within a constant of the compiled schema — its Width and the
// logarithm of its names and choices — however many choices, names or
// branches it has, and a validation must not allocate in proportion to
// the document.

// boundCase is one hostile schema and document.
type boundCase struct {
	name    string
	profile schema.Profile
	schema  string
	doc     string
	valid   bool
	// choices is the largest name or choice table one byte searches.
	choices int
	// memberHashes is set when the document has many members in one
	// object: duplicate names are detected with a keyed hash per member,
	// the one memory that grows with the document (DESIGN.md §3).
	memberHashes bool
	// magnitudes is set for an enum of numbers that share their digits:
	// each byte of an argument's exponent searches them once per order
	// of magnitude their exponents span (decimal.Accumulator.ExpRanges).
	magnitudes int
}

// hostileScale divides the hostile sizes under the race detector, which
// makes compiling a million enum choices take minutes; the steps per byte,
// which the test bounds, do not depend on it.
var hostileScale = func() int {
	if raceEnabled {
		return 10
	}
	return 1
}()

func hostileCases() []boundCase {
	repeat := func(n int, f func(i int) string) string {
		n = max(n/hostileScale, 1)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = f(i)
		}
		return strings.Join(parts, ",")
	}
	identical := repeat(10_000, func(int) string { return `{"type":"string"}` })
	strCount := 400_000 / hostileScale
	strChoices := repeat(400_000, func(i int) string { return fmt.Sprintf(`"c%06d"`, i) })
	numChoices := repeat(1_000_000, func(i int) string { return fmt.Sprintf("%d.%d", i, i%7) })
	names := repeat(100_000, func(i int) string { return fmt.Sprintf(`"name%06d":{"type":"integer"}`, i) })
	required := repeat(10_000, func(i int) string { return fmt.Sprintf(`"r%05d"`, i) })
	bigNumber := "1" + strings.Repeat("0123456789", 1_000)
	powers := repeat(10_000, func(i int) string { return fmt.Sprintf("1e%d", i*97) })
	dependencies := repeat(20_000, func(i int) string { return fmt.Sprintf(`"k%05d":["x"]`, i) })
	dependentSchemas := strings.Join(func() []string { // not scaled: the width, not the size, makes it hostile
		entries := make([]string, 998)
		for i := range entries {
			entries[i] = fmt.Sprintf(`"k%05d":{"required":["k%05d"]}`, i, i)
		}
		return entries
	}(), ",")
	return []boundCase{
		{
			name:    "oneOf of 10,000 identical branches against 2 MB of escapes",
			profile: schema.ToolInput,
			schema:  `{"type":"object","properties":{"s":{"oneOf":[` + identical + `]}}}`,
			doc:     `{"s":"` + strings.Repeat(`\n`, 1<<20) + `"}`,
			valid:   false, // every branch matches
			choices: 1,
		},
		{
			name:    "enum of 400,000 strings against 100,000 items",
			profile: schema.ToolInput,
			schema:  `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","enum":[` + strChoices + `]}}}}`,
			doc:     `{"a":[` + repeat(100_000, func(i int) string { return fmt.Sprintf(`"c%06d"`, (i*7919)%strCount) }) + `]}`,
			valid:   true,
			choices: 400_000,
		},
		{
			name:    "numeric enum of a million choices against a 10 KB number",
			profile: schema.ToolInput,
			schema:  `{"type":"object","properties":{"n":{"type":"number","enum":[` + numChoices + `]}}}`,
			doc:     `{"n":` + bigNumber + `}`,
			valid:   false,
			choices: 1_000_000,
		},
		{
			name:    "numeric enum of a million choices against 10 KB of numbers",
			profile: schema.ToolInput,
			schema:  `{"type":"object","properties":{"l":{"type":"array","items":{"type":"number","enum":[` + numChoices + `]}}}}`,
			doc:     `{"l":[` + repeat(1_000, func(i int) string { return fmt.Sprintf("%d.%d", i*97, (i*97)%7) }) + `]}`,
			valid:   true,
			choices: 1_000_000,
		},
		{
			name:       "enum of 10,000 powers of ten against 10,000 exponents",
			profile:    schema.JSONSchema,
			schema:     `{"type":"object","properties":{"l":{"type":"array","items":{"enum":[` + powers + `]}}}}`,
			doc:        `{"l":[` + repeat(10_000, func(i int) string { return fmt.Sprintf("1e%d", (i*7919)%(10_000/hostileScale)*97) }) + `,1e98]}`,
			valid:      false, // 1e98 is no power of 97's; the rest are choices
			choices:    10_000,
			magnitudes: 7,
		},
		{
			name:    "100,000 declared names against 20,000 members",
			profile: schema.ToolInput,
			schema:  `{"type":"object","properties":{` + names + `},"additionalProperties":false}`,
			doc:     `{` + repeat(20_000, func(i int) string { return fmt.Sprintf(`"name%06d":%d`, i*5%(100_000/hostileScale), i) }) + `}`,
			valid:   true,
			choices: 100_000,

			memberHashes: true,
		},
		{
			name:    "10,000 required names against 100,000 empty objects",
			profile: schema.ToolInput,
			schema:  `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","required":[` + required + `]}}}}`,
			doc:     `{"l":[` + strings.TrimSuffix(strings.Repeat("{},", 100_000), ",") + `]}`,
			valid:   false,
			choices: 1,
		},
		{
			name:    "100,000 declared names against 100,000 empty objects",
			profile: schema.ToolInput,
			schema:  `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{` + names + `}}}}}`,
			doc:     `{"l":[` + strings.TrimSuffix(strings.Repeat("{},", 100_000), ",") + `]}`,
			valid:   true,
			choices: 100_000,
		},
		{
			name:    "20,000 dependentRequired entries against 50,000 objects of two members",
			profile: schema.JSONSchema,
			schema:  `{"properties":{"l":{"items":{"dependentRequired":{` + dependencies + `}}}}}`,
			doc:     `{"l":[` + repeat(50_000, func(i int) string { return fmt.Sprintf(`{"k%05d":1,"x":2}`, i%(20_000/hostileScale)) }) + `]}`,
			valid:   true,
			choices: 20_001,
		},
		{
			name:    "998 dependentSchemas entries against 2,000 objects",
			profile: schema.JSONSchema,
			schema:  `{"properties":{"l":{"items":{"dependentSchemas":{` + dependentSchemas + `}}}}}`,
			doc:     `{"l":[` + repeat(2_000, func(i int) string { return fmt.Sprintf(`{"k%05d":1}`, i%998) }) + `]}`,
			valid:   true,
			choices: 998,
		},
		{
			name:    "15 nested oneOf levels of branches that behave alike",
			profile: schema.ToolInput,
			schema:  `{"type":"object","properties":{"v":` + nestedAlike(15) + `}}`,
			doc:     `{"v":` + strings.Repeat("[", 15) + `"x"` + strings.Repeat("]", 15) + `}`,
			valid:   false, // two branches match at every level
			choices: 1,
		},
		{
			name:    "a oneOf of two references, 30 levels deep",
			profile: schema.JSONSchema,
			schema:  billionLaughs(30),
			doc:     `{"v":[` + strings.TrimSuffix(strings.Repeat(`"x",1,`, 20_000), ",") + `]}`,
			valid:   false,
			choices: 1,
		},
	}
}

// TestCapturedBytesCostOneComparison: every level of nested arrays opens
// k enum captures that die within a few bytes and one that lives (a choice
// as long as the string inside): a captured byte is compared with the
// first capture to outgrow its choices, not with every capture of every
// level, so the steps per byte (which count each capture looked at) do not
// grow with k or with the depth. Looking at every capture cost 62 µs a
// byte at k = 800 and depth 100.
func TestCapturedBytesCostOneComparison(t *testing.T) {
	steps := func(res *schema.Result, depth, n int) int64 {
		doc := `{"a":` + strings.Repeat("[", depth) + `"` + strings.Repeat("x", n) + `"` + strings.Repeat("]", depth) + `}`
		v := validator.New(res.Schema, validator.Options{})
		v.Write([]byte(doc))
		assert.False(t, v.Close().Valid())
		return v.Steps()
	}
	for _, k := range []int{50, 400} {
		res := schema.Compile(schema.JSONSchema, []byte(capturesAtEveryLevel(k, 40_000)))
		require.Empty(t, res.Errors)
		for _, depth := range []int{5, 60} {
			// What 20,000 more captured bytes cost, the structure's
			// steps (k × depth captures opened and dropped) taken away.
			perByte := float64(steps(res, depth, 40_000)-steps(res, depth, 20_000)) / 20_000
			t.Logf("k=%d depth=%d width=%d steps per captured byte=%.3f", k, depth, res.Schema.Width, perByte)
			assert.Less(t, perByte, 0.01, "k=%d depth=%d", k, depth)
		}
	}
}

// capturesAtEveryLevel is a recursive anyOf of k enums of small arrays,
// one enum whose choice is an array of a string of n bytes, and a branch
// that recurses into array items.
func capturesAtEveryLevel(k, n int) string {
	branches := make([]string, 0, k+2)
	for i := range k {
		branches = append(branches, fmt.Sprintf(`{"enum":[[%d]]}`, i))
	}
	branches = append(branches, `{"enum":[["`+strings.Repeat("y", n)+`"]]}`, `{"type":"array","items":{"$ref":"#/$defs/x"}}`)
	return `{"$defs":{"x":{"anyOf":[` + strings.Join(branches, ",") + `]}},"type":"object","properties":{"a":{"$ref":"#/$defs/x"}}}`
}

// billionLaughs returns the JSON Schema "billion laughs": level i is a
// oneOf of two references to level i+1 (distinct definitions, so nothing
// is merged as identical), levels deep; the last level accepts strings
// and integers. Evaluated naively it costs 2^levels per value.
func billionLaughs(levels int) string {
	var defs []string
	for i := range levels {
		for _, side := range []string{"a", "b"} {
			defs = append(defs, fmt.Sprintf(`"%s%d":{"oneOf":[{"$ref":"#/$defs/a%d"},{"$ref":"#/$defs/b%d"}]}`, side, i, i+1, i+1))
		}
	}
	defs = append(defs, fmt.Sprintf(`"a%d":{"type":"string"}`, levels), fmt.Sprintf(`"b%d":{"type":"integer"}`, levels))
	return `{"$defs":{` + strings.Join(defs, ",") + `},"type":"object","properties":{"v":{"type":"array","items":{"$ref":"#/$defs/a0"}}}}`
}

// nestedAlike returns levels of oneOf whose two branches are written out
// and differ only in their annotations, so they behave alike: naively
// 2^levels evaluations of the innermost value, one with shared branches.
func nestedAlike(levels int) string {
	inner := `{"type":"string"}`
	for range levels {
		inner = fmt.Sprintf(`{"oneOf":[{"type":"array","items":%s},{"type":"array","description":"the other","items":%s}]}`, inner, inner)
	}
	return inner
}

func TestWorkPerByteIsBounded(t *testing.T) {
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			res := schema.Compile(tc.profile, []byte(tc.schema))
			require.Empty(t, res.Errors)
			s := res.Schema
			doc := []byte(tc.doc)
			for _, stream := range []bool{false, true} {
				v := validator.New(s, validator.Options{StopAtFirst: stream})
				v.Write(doc) // a first document sizes the validator's buffers
				v.Close()
				v.Reset()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				v.Write(doc)
				r := v.Close()
				runtime.ReadMemStats(&after)
				if !stream {
					assert.Equal(t, tc.valid, r.Valid(), "%+v", r.Findings)
				}
				perByte := float64(v.Steps()) / float64(len(doc))
				// Per byte: a few steps per evaluation of the value, and two
				// binary searches (each log2 of the table) for a name or choice.
				search := math.Ceil(math.Log2(float64(tc.choices) + 1))
				bound := 4*float64(s.Width) + float64(2+tc.magnitudes)*search + 4
				t.Logf("stream=%v width=%d steps/byte=%.2f bound=%.0f alloc=%d B for %d B", stream, s.Width, perByte, bound, after.TotalAlloc-before.TotalAlloc, len(doc))
				assert.LessOrEqual(t, perByte, bound, "steps per byte")
				// A reused validator allocates nothing that grows with the
				// document but the member-name hashes (findings aside).
				allowed := uint64(len(doc)/8 + 64<<10)
				if !stream {
					allowed += validator.DefaultMaxFindings * 4 << 10 // formatted findings
				}
				if tc.memberHashes {
					allowed += uint64(4 * len(doc))
				}
				assert.Less(t, after.TotalAlloc-before.TotalAlloc, allowed, "allocation in proportion to the document")
			}
		})
	}
}

// TestWidthLimit: what still multiplies (distinct subschemas applying to
// one value) is measured when compiling and refused past the bound, with
// the measured figure.
func TestWidthLimit(t *testing.T) {
	t.Parallel()
	// 12 levels of a oneOf whose two branches are written out (not
	// referenced) and differ: each level doubles the distinct subschemas
	// that apply to the innermost value.
	inner := `{"type":"string"}`
	for range 12 {
		inner = fmt.Sprintf(`{"oneOf":[{"type":"array","items":%s},{"type":"array","minItems":0,"items":%s}]}`, inner, inner)
	}
	doc := `{"type":"object","properties":{"v":` + inner + `}}`
	res := schema.CompileWith(schema.JSONSchema, []byte(doc), schema.Options{Limits: schema.Limits{MaxBytes: 8 << 20}})
	require.Len(t, res.Errors, 1)
	f := res.Errors[0]
	assert.Equal(t, schema.CodeUnsupported, f.Code)
	assert.Equal(t, "limit", f.Keyword)
	var width int
	_, err := fmt.Sscanf(f.Message, "Up to %d subschemas", &width)
	require.NoError(t, err, "the message gives the measured figure: %s", f.Message)
	assert.GreaterOrEqual(t, width, 1<<12)
	assert.Contains(t, f.Message, fmt.Sprintf("past the limit of %d", schema.DefaultMaxWidth))
	// The same levels through references share their subschemas: accepted.
	res = schema.Compile(schema.JSONSchema, []byte(billionLaughs(30)))
	require.Empty(t, res.Errors)
	// Per level: a, b and the four reference branches between levels.
	assert.LessOrEqual(t, res.Schema.Width, 6*30+2, "linear in the levels, not 2^30")
	// The limit is configurable.
	res = schema.CompileWith(schema.JSONSchema, []byte(billionLaughs(30)), schema.Options{Limits: schema.Limits{MaxWidth: 10}})
	require.Len(t, res.Errors, 1)
	assert.Equal(t, "limit", res.Errors[0].Keyword)
}

// allocatedBy returns the bytes a fresh validator of s allocates to
// validate doc, and the result. Fresh, since a reused one keeps the
// buffers a first document grew: what grows with the document shows only
// the first time.
func allocatedBy(s *schema.Schema, doc []byte) (uint64, validator.Result) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v := validator.New(s, validator.Options{})
	v.Write(doc)
	r := v.Close()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, r
}

// TestUnevaluatedRecordsStaySmall: unevaluatedItems and
// unevaluatedProperties keep a record of every element or member they
// failed on until the array or object closes (only then is it known which
// subschemas passed and evaluated it). A record holds its index, or its
// name packed among the others, and where its coverage bits are, shared
// by a run of records alike; only the first Options.MaxFindings keep
// their reason. So a record costs tens of bytes, a few times over while
// its slice grows, not the kilobyte a copy of its violation cost.
func TestUnevaluatedRecordsStaySmall(t *testing.T) {
	const draft = `"$schema":"https://json-schema.org/draft/2020-12/schema"`
	n := 200_000 / hostileScale
	cases := []struct {
		name, schema string
		doc          func(i int) string
		open, close  string
		memberHashes bool
	}{
		{
			name:   "an array of 200,000 elements under unevaluatedItems: false",
			schema: `{` + draft + `,"properties":{"a":{"prefixItems":[{"type":"integer"}],"unevaluatedItems":false}}}`,
			doc:    func(int) string { return "0" },
			open:   `{"a":[`, close: `]}`,
		},
		{
			name:   "an array of 200,000 elements under unevaluatedItems and anyOf",
			schema: `{` + draft + `,"properties":{"a":{"prefixItems":[{}],"anyOf":[{"prefixItems":[{},{}]},{"contains":{"type":"string"}}],"unevaluatedItems":{"type":"string"}}}}`,
			doc:    func(i int) string { return fmt.Sprint(i % 10) },
			open:   `{"a":[`, close: `]}`,
		},
		{
			name:   "an object of 200,000 members under unevaluatedProperties: false",
			schema: `{` + draft + `,"properties":{"a":{}},"patternProperties":{"^p":{}},"anyOf":[{"properties":{"b":{}}},{"patternProperties":{"^q":{}}}],"unevaluatedProperties":false}`,
			doc:    func(i int) string { return fmt.Sprintf(`"k%06d":0`, i) },
			open:   `{`, close: `}`,

			memberHashes: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := schema.Compile(schema.JSONSchema, []byte(tc.schema))
			require.Empty(t, res.Errors)
			parts := make([]string, n)
			for i := range parts {
				parts[i] = tc.doc(i)
			}
			doc := []byte(tc.open + strings.Join(parts, ",") + tc.close)
			alloc, r := allocatedBy(res.Schema, doc)
			require.False(t, r.Valid())
			assert.Len(t, r.Findings, validator.DefaultMaxFindings)
			// A record per element or member: 256 bytes each covers the
			// record, its name and its slices' growth.
			allowed := uint64(256*n + 64<<10)
			if tc.memberHashes {
				allowed += uint64(4 * len(doc)) // as in TestWorkPerByteIsBounded
			}
			t.Logf("alloc=%d B (%d per record) for %d B", alloc, alloc/uint64(n), len(doc))
			assert.Less(t, alloc, allowed, "allocation per record")
		})
	}
}

// TestUnevaluatedRecordsPastTheCap: a record past the first
// Options.MaxFindings keeps no reason, yet it is reported when the
// records before it turn out evaluated (here by the passing anyOf
// branch). Its finding is the same but for the message, which, unless
// the subschema is false, no longer quotes why the member failed it.
func TestUnevaluatedRecordsPastTheCap(t *testing.T) {
	t.Parallel()
	const head = `{"$schema":"https://json-schema.org/draft/2020-12/schema","anyOf":[{"patternProperties":{"^a":{}}}],"unevaluatedProperties":`
	members := make([]string, validator.DefaultMaxFindings+1)
	for i := range members {
		members[i] = fmt.Sprintf(`"a%d":0`, i)
	}
	doc := `{` + strings.Join(members, ",") + `,"b":0}`
	for _, tc := range []struct{ unevaluated, message string }{
		{`false`, `The arguments object does not allow the property "b", which no other keyword of the schema evaluates.`},
		{`{"type":"string"}`, `The arguments object has the property "b", which no other keyword evaluates and which does not match unevaluatedProperties: it does not.`},
	} {
		t.Run(tc.unevaluated, func(t *testing.T) {
			t.Parallel()
			res := schema.Compile(schema.JSONSchema, []byte(head+tc.unevaluated+`}`))
			require.Empty(t, res.Errors)
			r := validator.Validate(res.Schema, []byte(doc), validator.Options{})
			require.Len(t, r.Findings, 1)
			f := r.Findings[0]
			assert.Equal(t, "unevaluatedProperties", f.Keyword)
			assert.Equal(t, "/unevaluatedProperties", f.SchemaPath)
			assert.Equal(t, "", f.InstancePath)
			assert.Equal(t, int64(len(doc)-1), f.Offset)
			assert.Equal(t, tc.message, f.Message)
		})
	}
}

// nestedUniqueSchema requires every element of "a" to be an array of
// unique items.
const nestedUniqueSchema = `{"properties":{"a":{"items":{"uniqueItems":true}}}}`

// TestNestedUniqueArraysShareTheirHashes: the content hashes of an array
// that needs unique items are kept in a map of its frame's slot, which
// the next array at that depth reuses, so 100,000 sibling arrays
// allocate one map, not one each.
func TestNestedUniqueArraysShareTheirHashes(t *testing.T) {
	res := schema.Compile(schema.JSONSchema, []byte(nestedUniqueSchema))
	require.Empty(t, res.Errors)
	parts := make([]string, 100_000/hostileScale)
	for i := range parts {
		parts[i] = fmt.Sprintf("[%d,%d]", 2*i, 2*i+1)
	}
	doc := []byte(`{"a":[` + strings.Join(parts, ",") + `]}`)
	alloc, r := allocatedBy(res.Schema, doc)
	require.True(t, r.Valid(), "%+v", r.Findings)
	t.Logf("alloc=%d B for %d B", alloc, len(doc))
	// As in TestWorkPerByteIsBounded: nothing that grows with the document.
	assert.Less(t, alloc, uint64(len(doc)/8+64<<10), "allocation in proportion to the document")
}

// TestReusedUniqueHashesStartEmpty: a map a frame's slot kept holds
// nothing of the array before, and one that grew past keptUniqueHashes
// is dropped, not reused.
func TestReusedUniqueHashesStartEmpty(t *testing.T) {
	t.Parallel()
	res := schema.Compile(schema.JSONSchema, []byte(nestedUniqueSchema))
	require.Empty(t, res.Errors)
	long := make([]string, 2000)
	for i := range long {
		long[i] = fmt.Sprint(i)
	}
	for _, tc := range []struct {
		name, doc string
		path      string // of the one finding, or "" for a valid document
		index     int
	}{
		{name: "a sibling with the same items", doc: `{"a":[[1,2],[1,2]]}`},
		{name: "a sibling with an item of the one before", doc: `{"a":[[1,2],[3,1]]}`},
		{name: "a sibling after a long array", doc: `{"a":[[` + strings.Join(long, ",") + `],[0,1]]}`},
		{name: "a repeat in the second sibling", doc: `{"a":[[1,2],[3,3]]}`, path: "/a/1", index: 1},
		{name: "a repeat in the third sibling", doc: `{"a":[[1,2],[3,4],[5,6,5]]}`, path: "/a/2", index: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := validator.New(res.Schema, validator.Options{})
			for range 2 { // the second document reuses the first's maps
				v.Write([]byte(tc.doc))
				r := v.Close()
				v.Reset()
				if tc.path == "" {
					assert.True(t, r.Valid(), "%+v", r.Findings)
					continue
				}
				require.Len(t, r.Findings, 1)
				f := r.Findings[0]
				assert.Equal(t, "uniqueItems", f.Keyword)
				assert.Equal(t, tc.path, f.InstancePath)
				assert.Equal(t, fmt.Sprintf("%s must have unique items; the item at index %d repeats an earlier one.", tc.path, tc.index), f.Message)
				assert.Equal(t, int64(len(tc.doc)-3), f.Offset, "the byte that ends the repeat")
			}
		})
	}
}

// TestBranchExplanationIsBounded: explaining a oneOf that more than one
// branch matched, in a later finding (a then's, a dependentSchemas
// entry's), costs what its distinct branches do, not its positions: a
// oneOf of 4,000 positions alternating between two branches compiles to
// two, and its explanation gathered and sorted all 4,000 positions for
// each of a document's 100 findings (0.36 s a 1.6 KB document; 53 s at
// the 1 MiB schema limit). Allocation is the measure: each finding copied
// every position. Not parallel: it measures the process's allocation.
func TestBranchExplanationIsBounded(t *testing.T) {
	alternating := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = `{"type":"object"}`
			if i%2 == 1 {
				parts[i] = `{"type":["object","null"]}`
			}
		}
		return strings.Join(parts, ",")
	}
	doc := []byte(`{"a":[` + strings.TrimSuffix(strings.Repeat(`{"x":1},`, 200), ",") + `]}`)
	for _, tc := range []struct{ name, schema string }{
		{"then", `{"properties":{"a":{"items":{"if":{"required":["x"]},"then":{"oneOf":[%s]}}}}}`},
		{"dependentSchemas", `{"properties":{"a":{"items":{"dependentSchemas":{"x":{"oneOf":[%s]}}}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alloc := func(n int) uint64 {
				s := compileFor(t, schema.JSONSchema, fmt.Sprintf(tc.schema, alternating(n)))
				require.LessOrEqual(t, s.Width, 8, "two distinct branches")
				a, r := allocatedBy(s, doc)
				require.Len(t, r.Findings, validator.DefaultMaxFindings)
				return a
			}
			small, large := alloc(20), alloc(4_000)
			t.Logf("20 positions: %d B, 4,000 positions: %d B", small, large)
			assert.Less(t, large, 2*small+64<<10, "a finding's explanation grows with the oneOf's positions")
		})
	}
}
