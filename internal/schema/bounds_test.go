package schema_test

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/schema"
)

// untypedProperties returns a tool input schema of at least size bytes
// whose every property is untyped ({}), one finding each.
func untypedProperties(size int) []byte {
	doc := []byte(`{"type":"object","properties":{`)
	for i := 0; len(doc) < size; i++ {
		if i > 0 {
			doc = append(doc, ',')
		}
		doc = append(doc, `"p`...)
		doc = strconv.AppendInt(doc, int64(i), 10)
		doc = append(doc, `":{}`...)
	}
	return append(doc, "}}"...)
}

// anyOfEmpties returns {"anyOf":[{},{},...]} of at most size bytes.
func anyOfEmpties(size int) []byte {
	doc := []byte(`{"anyOf":[{}`)
	for len(doc)+len(`,{}]}`) <= size {
		doc = append(doc, ",{}"...)
	}
	return append(doc, "]}"...)
}

// BenchmarkCompileManyFindings compiles a 4 MiB tool input schema of
// some 320,000 untyped properties, each a finding.
func BenchmarkCompileManyFindings(b *testing.B) {
	doc := untypedProperties(4 << 20)
	b.ReportAllocs()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		schema.Compile(schema.ToolInput, doc)
	}
}

// BenchmarkCompilePastMaxNodes compiles a 1 MiB JSON Schema of some
// 350,000 anyOf branches, 3.5 times the default node limit.
func BenchmarkCompilePastMaxNodes(b *testing.B) {
	doc := anyOfEmpties(schema.DefaultMaxBytes)
	b.ReportAllocs()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		schema.Compile(schema.JSONSchema, doc)
	}
}

// properties returns an object schema with n properties, property i's
// schema given by prop(i), in the order written.
func properties(n int, prop func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":%s`, i, prop(i))
	}
	b.WriteString("}}")
	return []byte(b.String())
}

// TestMaxFindings: a compile keeps Options.MaxFindings errors and as many
// warnings, the first ones in document order, and counts the rest; the
// result's code is the one every finding together gives, even when the
// first unsupported error comes after the cap is full of malformed ones.
func TestMaxFindings(t *testing.T) {
	t.Parallel()
	untyped := func(int) string { return `{}` }
	malformedThenUntyped := func(i int) string {
		if i < 150 {
			return `{"type":"string","description":1}` // VALIDATION
		}
		return `{}` // UNSUPPORTED_CAPABILITY
	}
	var b strings.Builder
	b.WriteString(`{"type":"object"`)
	for i := range 250 {
		fmt.Fprintf(&b, `,"x%d":1`, i)
	}
	unknownKeywords := []byte(b.String() + "}")
	for _, tc := range []struct {
		name        string
		profile     schema.Profile
		doc         []byte
		maxFindings int // 0: the default
		errors      int // kept
		warnings    int // kept
		compiles    bool
	}{
		{"untyped properties", schema.ToolInput, properties(250, untyped), 0, schema.DefaultMaxFindings, 0, false},
		{"untyped properties, a cap of 7", schema.ToolInput, properties(250, untyped), 7, 7, 0, false},
		{"under the cap", schema.ToolInput, properties(60, untyped), 0, 60, 0, false},
		{"malformed, then unsupported", schema.ToolInput, properties(160, malformedThenUntyped), 0, schema.DefaultMaxFindings, 0, false},
		{"unresolved references", schema.JSONSchema, properties(250, func(int) string { return `{"$ref":"#/nowhere"}` }), 0, schema.DefaultMaxFindings, 0, false},
		{"unknown keywords", schema.JSONSchema, unknownKeywords, 0, 0, schema.DefaultMaxFindings, true},
		{"ignored keywords", schema.OutputBindable, properties(250, func(int) string { return `{"type":"string","title":"t"}` }), 10, 0, 10, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			all := schema.CompileWith(tc.profile, tc.doc, schema.Options{MaxFindings: 1 << 30})
			res := schema.CompileWith(tc.profile, tc.doc, schema.Options{MaxFindings: tc.maxFindings})
			require.Len(t, res.Errors, tc.errors)
			require.Len(t, res.Warnings, tc.warnings)
			assert.Equal(t, len(all.Errors), len(res.Errors)+res.ErrorsOmitted, "every error kept or counted")
			assert.Equal(t, len(all.Warnings), len(res.Warnings)+res.WarningsOmitted, "every warning kept or counted")
			assert.Equal(t, all.Code(), res.Code(), "the cap never changes the code")
			assert.Equal(t, tc.compiles, res.Schema != nil)
			// The kept ones are the first, but for an unsupported error
			// that takes the last place.
			for i, f := range res.Errors[:max(len(res.Errors)-1, 0)] {
				assert.Equal(t, all.Errors[i], f)
			}
			assert.Equal(t, all.Warnings[:len(res.Warnings)], res.Warnings)
		})
	}

	t.Run("the first unsupported error is kept", func(t *testing.T) {
		t.Parallel()
		res := schema.Compile(schema.ToolInput, properties(160, malformedThenUntyped))
		require.Len(t, res.Errors, schema.DefaultMaxFindings)
		assert.Equal(t, 160-schema.DefaultMaxFindings, res.ErrorsOmitted)
		for _, f := range res.Errors[:len(res.Errors)-1] {
			assert.Equal(t, schema.CodeValidation, f.Code, f.SchemaPath)
		}
		last := res.Errors[len(res.Errors)-1]
		assert.Equal(t, schema.CodeUnsupported, last.Code)
		assert.Equal(t, "/properties/p150", last.SchemaPath, "the first unsupported one")
		assert.Equal(t, schema.CodeUnsupported, res.Code())
	})
}

// TestMaxNodesStopsBuilding: a JSON Schema past Limits.MaxNodes is
// refused with one finding, at the first node past it, and the compiler
// builds no node after that one: compiling 66,000 anyOf branches under a
// limit of 1,000 allocates much less than under a limit one node short of
// them (both refuse the schema; the old compiler built every node either
// way, so the two cost nearly the same).
func TestMaxNodesStopsBuilding(t *testing.T) {
	doc := anyOfEmpties(200_000)
	branches := strings.Count(string(doc), "{}")
	compile := func(maxNodes int) (*schema.Result, uint64) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res := schema.CompileWith(schema.JSONSchema, doc, schema.Options{Limits: schema.Limits{MaxNodes: maxNodes}})
		runtime.ReadMemStats(&after)
		return res, after.TotalAlloc - before.TotalAlloc
	}
	compile(1000) // compiles and caches the meta-schema
	for _, maxNodes := range []int{1000, branches} {
		res, _ := compile(maxNodes)
		require.Len(t, res.Errors, 1, "%v", res.Errors)
		f := res.Errors[0]
		assert.Equal(t, "limit", f.Keyword)
		assert.Equal(t, fmt.Sprintf("/anyOf/%d", maxNodes-1), f.SchemaPath, "the root and %d branches are within it", maxNodes-1)
		assert.Contains(t, f.Message, fmt.Sprintf("more than %d subschemas", maxNodes))
		assert.Equal(t, schema.CodeUnsupported, res.Code())
		assert.Nil(t, res.Schema)
	}
	_, few := compile(1000)
	_, all := compile(branches)
	t.Logf("%d branches: %d bytes under a limit of 1000, %d under a limit of %d: %.0f bytes per node built",
		branches, few, all, branches, float64(all-few)/float64(branches-1000))
	// 0.33 of it now; 0.88 when every node was built (192 bytes per node
	// more under the higher limit: the keywords of the nodes within it).
	assert.Less(t, float64(few)/float64(all), 0.5, "the nodes past the limit are not built")
}

// TestWidthMeasureBudget: measuring Schema.Width explores the sets an
// entry (the subschemas a parent applies to one member or element) leads
// to once, however many parents share it. In SchemaStore's renovate
// schema thousands of sets share the definitions of its options: 2.7
// million steps, refused, where each entry explored once takes 63,000.
// Here 20 objects share the definition of 100 options, each of 200
// subschemas: 2.4 million steps before, some 130,000 once. A schema whose
// entries truly combine in exponentially many ways is still refused at
// the budget.
func TestWidthMeasureBudget(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range 20 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"o%d":{"allOf":[{"$ref":"#/$defs/options"},{"minProperties":%d}]}`, i, i)
	}
	b.WriteString(`},"$defs":{"options":{"properties":{`)
	for i := range 100 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"allOf":[`, i)
		for j := range 200 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"maxLength":%d}`, 1000*i+j)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`}}}}`)
	res := schema.Compile(schema.JSONSchema, []byte(b.String()))
	require.Empty(t, res.Errors, "%v", res.Errors)
	assert.Equal(t, 201, res.Schema.Width, "an option and its 200 allOf branches")

	// Members s and a of n<j> lead to n<j+1>, and a also to n0: from {n0}
	// the sets reachable are every subset of the 16 definitions.
	const k = 16
	b.Reset()
	b.WriteString(`{"$ref":"#/$defs/n0","$defs":{`)
	for j := range k {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"n%d":{"properties":{"s":{"$ref":"#/$defs/n%d"},"a":{"allOf":[{"$ref":"#/$defs/n%d"},{"$ref":"#/$defs/n0"}]}}}`, j, (j+1)%k, (j+1)%k)
	}
	b.WriteString(`}}`)
	res = schema.Compile(schema.JSONSchema, []byte(b.String()))
	require.Len(t, res.Errors, 1)
	assert.Equal(t, schema.CodeUnsupported, res.Errors[0].Code)
	assert.Equal(t, "limit", res.Errors[0].Keyword)
	assert.Contains(t, res.Errors[0].Message, "combine in more ways than toolgate measures")
}

// BenchmarkCompileWide compiles a schema of 20,000 string properties in
// each profile, with parsing the same document as the baseline: what a
// compile costs beyond the parse is its own, and grows with the number of
// nodes (the width measure, the key tables, the canonical form). Compare
// the profiles' ns/op with parse's in the same run.
func BenchmarkCompileWide(b *testing.B) {
	doc := wideSchema(20_000)
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if _, err := jsondoc.Parse(doc, schema.DefaultMaxDepth); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, profile := range []schema.Profile{schema.ToolInput, schema.OutputBindable, schema.JSONSchema} {
		b.Run(profile.String(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if res := schema.Compile(profile, doc); res.Schema == nil {
					b.Fatal(res.Errors)
				}
			}
		})
	}
}

// longNameAbove is a schema of about size bytes: one property whose name
// is half of it, holding size/16 small subschemas, each of whose paths
// repeats the name.
func longNameAbove(size int, sub string) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"` + strings.Repeat("n", size/2) + `":{"type":"object","properties":{`)
	for i := range size / 16 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"%d":%s`, i, sub)
	}
	b.WriteString(`}}}}`)
	return []byte(b.String())
}

// TestPathBytesAreBounded: every node holds its path whole, so a long
// member name above many subschemas cost memory by the square of the
// schema (a 111 KB schema peaked at 371 MB). The nodes' paths together are
// bounded by 64 times the schema and 1 MiB; past it the schema is refused
// (keyword "limit") and no further node is built, in every profile.
func TestPathBytesAreBounded(t *testing.T) {
	for _, c := range []struct {
		profile schema.Profile
		sub     string
	}{{schema.JSONSchema, `{}`}, {schema.ToolInput, `{"type":"string"}`}} {
		for _, size := range []int{50_000, 200_000} {
			doc := longNameAbove(size, c.sub)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res := schema.Compile(c.profile, doc)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%s, %d bytes: allocated %d bytes (%.0f× the schema)", c.profile, len(doc), alloc, float64(alloc)/float64(len(doc)))
			require.NotEmpty(t, res.Errors, "%s %d", c.profile, size)
			f := res.Errors[len(res.Errors)-1]
			assert.Equal(t, "limit", f.Keyword)
			assert.Contains(t, f.Message, "JSON pointers of more than")
			assert.Less(t, alloc, uint64(300*len(doc)+16<<20), "%s %d", c.profile, size)
		}
	}
	// A wide schema of short names is far within it.
	res := schema.Compile(schema.ToolInput, longNameAbove(400, `{"type":"string"}`))
	assert.Empty(t, res.Errors)
}

// dynamicAnchors is a schema whose one resource declares k dynamic
// anchors (in $defs, never referenced) beside k plain properties.
func dynamicAnchors(k int) []byte {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i := range k {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"d%d":{"$dynamicAnchor":"a%d"}`, i, i)
	}
	b.WriteString(`},"properties":{`)
	for i := range k {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"%d":{}`, i)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// BenchmarkCompileDynamicAnchors compiles schemas of k dynamic anchors and
// k subschemas in one resource: every subschema enters the resource, and
// entering once walked every anchor, so 4 times the schema cost 16 times
// the work (0.16 s for k = 2,000, 3.4 s for 8,000). Compare ns/op per byte
// across k in one run: linear work keeps it level.
func BenchmarkCompileDynamicAnchors(b *testing.B) {
	for _, k := range []int{2_000, 8_000} {
		doc := dynamicAnchors(k)
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if res := schema.Compile(schema.JSONSchema, doc); res.Schema == nil {
					b.Fatal(res.Errors)
				}
			}
		})
	}
}

// sharedLongNames is a schema whose $defs/a and $defs/b each declare
// names of length bytes sharing one prefix, and refs properties each
// referring to both beside a property of its own (so each makes a set of
// its own, whose names merge those of a and b). With own false the
// properties refer to a alone beside a keyword that applies to the value
// itself (minLength): their sets share a's members.
func sharedLongNames(names, length, refs int, own bool) []byte {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	prefix := strings.Repeat("p", length-7)
	for d, def := range []string{"a", "b"} {
		if d > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"%s":{"properties":{`, def)
		for i := range names {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"%s%s%06d":{}`, prefix, def, i)
		}
		b.WriteString(`}}`)
	}
	b.WriteString(`},"properties":{`)
	for i := range refs {
		if i > 0 {
			b.WriteString(",")
		}
		if own {
			fmt.Fprintf(&b, `"q%d":{"allOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/b"}],"properties":{"x":{"minLength":%d}}}`, i, i)
		} else {
			fmt.Fprintf(&b, `"q%d":{"$ref":"#/$defs/a","minLength":%d}`, i, i)
		}
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// TestWidthMeasureChargesNameBytes: measuring the width merges the member
// names of a set's nodes, and names of kilobytes sharing a prefix make
// each comparison cost their length. The budget counts those bytes, so
// 3,000 sets that each merge two definitions' 160 names of 1.5 KB are
// refused for the budget (sorting and searching such names under 10,000
// sets took 3.2 s), while the same sets of 20-byte names measure within
// it. Sets that add no member of their own to a definition's build its
// members once, whatever their names: they measure too.
func TestWidthMeasureChargesNameBytes(t *testing.T) {
	t.Parallel()
	doc := sharedLongNames(160, 1500, 3_000, true)
	require.Less(t, len(doc), schema.DefaultMaxBytes)
	res := schema.Compile(schema.JSONSchema, doc)
	require.Len(t, res.Errors, 1, "%v", res.Errors)
	assert.Equal(t, "limit", res.Errors[0].Keyword)
	assert.Contains(t, res.Errors[0].Message, "combine in more ways than toolgate measures")

	res = schema.Compile(schema.JSONSchema, sharedLongNames(160, 20, 3_000, true))
	require.Empty(t, res.Errors)
	assert.Equal(t, 5, res.Schema.Width, "q<i>, its allOf's two $refs, a and b")

	res = schema.Compile(schema.JSONSchema, sharedLongNames(160, 1500, 3_000, false))
	require.Empty(t, res.Errors)
	assert.Equal(t, 2, res.Schema.Width, "q<i> and a")
}

// dynamicScopeLevels returns a JSON Schema of the given levels, each an
// anyOf of two $refs to the next: one through a resource declaring the
// given number of $dynamicAnchors, one through a resource declaring none.
// Every path down is a different dynamic scope, so 2^levels contexts
// each hold the anchors of the levels its path took.
func dynamicScopeLevels(levels, anchors int) []byte {
	var defs []string
	for i := range levels {
		defs = append(defs, fmt.Sprintf(`"L%d":{"$id":"http://x/L%d","anyOf":[{"$ref":"http://x/P%d"},{"$ref":"http://x/Q%d"}]}`, i, i, i, i))
		var an []string
		for j := range anchors {
			an = append(an, fmt.Sprintf(`"a%d_%d":{"$dynamicAnchor":"a%d_%d"}`, i, j, i, j))
		}
		defs = append(defs, fmt.Sprintf(`"P%d":{"$id":"http://x/P%d","$ref":"http://x/L%d","$defs":{%s}}`, i, i, i+1, strings.Join(an, ",")),
			fmt.Sprintf(`"Q%d":{"$id":"http://x/Q%d","$ref":"http://x/L%d"}`, i, i, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"L%d":{"$id":"http://x/L%d","type":"object"}`, levels, levels))
	return []byte(`{"$id":"http://x/root","$ref":"http://x/L0","$defs":{` + strings.Join(defs, ",") + `}}`)
}

// TestDynamicScopesAreBounded: the dynamic anchors bound into the
// contexts a JSON Schema compiles in count against Limits.MaxNodes. The
// 0.97 MB schema of 11 levels of 2,300 anchors took 30 s and 15 GB of
// allocation before (and was refused only after, for its width); it is
// refused at the budget now, having allocated a small part of that. A
// smaller one compiles under the default and is refused under a lower
// limit, by the same finding.
func TestDynamicScopesAreBounded(t *testing.T) {
	doc := dynamicScopeLevels(11, 2300)
	require.Less(t, len(doc), schema.DefaultMaxBytes)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := schema.Compile(schema.JSONSchema, doc)
	runtime.ReadMemStats(&after)
	require.Len(t, res.Errors, 1, "%v", res.Errors)
	f := res.Errors[0]
	assert.Equal(t, "limit", f.Keyword)
	assert.Equal(t, schema.CodeUnsupported, f.Code)
	assert.Contains(t, f.Message, fmt.Sprintf("bind more than %d dynamic anchors", schema.DefaultMaxNodes))
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<30), "allocated past the budget")

	small := dynamicScopeLevels(4, 200)
	res = schema.Compile(schema.JSONSchema, small)
	require.Empty(t, res.Errors)
	res = schema.CompileWith(schema.JSONSchema, small, schema.Options{Limits: schema.Limits{MaxNodes: 1000}})
	require.Len(t, res.Errors, 1, "%v", res.Errors)
	assert.Contains(t, res.Errors[0].Message, "bind more than 1000 dynamic anchors")
}

// TestSubsetDepthLimit: a subset profile's schema may nest
// schema.DefaultMaxDepth levels of JSON; a deeper one is valid JSON and
// valid JSON Schema past the profile's limit, so it is refused as the JSON
// Schema profile refuses one past its own (UNSUPPORTED_CAPABILITY, keyword
// "limit", the same message), not as malformed JSON, however the depth is
// reached (a deep examples or default value too).
func TestSubsetDepthLimit(t *testing.T) {
	t.Parallel()
	// chain(n) nests 2n+1 levels: n object schemas, each in the last
	// one's properties, around a string schema. A value under a property
	// of the root is 3 levels deep.
	chain := func(n int) string {
		return strings.Repeat(`{"type":"object","properties":{"a":`, n) + `{"type":"string"}` + strings.Repeat(`}}`, n)
	}
	// nested(n) is an array value n levels deep.
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name    string
		profile schema.Profile
		schema  string
		tooDeep bool
	}{
		{"tool input at the limit", schema.ToolInput, `{"type":"object","properties":{"a":{"type":"array","enum":[` + nested(60) + `]}}}`, false},
		{"tool input past it", schema.ToolInput, chain(32), true},
		{"tool input, far past it", schema.ToolInput, chain(500), true},
		{"tool input, a deep default", schema.ToolInput, `{"type":"object","properties":{"a":{"type":"array","default":` + nested(62) + `}}}`, true},
		{"bindable at the limit", schema.OutputBindable, `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"examples":` + nested(61) + `}}}`, false},
		{"bindable past it", schema.OutputBindable, chain(32), true},
		{"bindable, a deep examples value", schema.OutputBindable, `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"examples":` + nested(62) + `}}}`, true},
		{"bindable, a deep default value", schema.OutputBindable, `{"type":"object","properties":{"a":{"type":"string","default":` + nested(62) + `}}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := schema.Compile(tc.profile, []byte(tc.schema))
			if !tc.tooDeep {
				assert.Empty(t, res.Errors)
				assert.NotNil(t, res.Schema)
				return
			}
			assert.Nil(t, res.Schema)
			assert.Equal(t, []fixtures.SchemaFinding{fixtures.Unsupported("limit", "")}, fixtures.SchemaFindings(res.Errors))
			assert.Equal(t, schema.CodeUnsupported, res.Code())
			js := schema.CompileWith(schema.JSONSchema, []byte(tc.schema), schema.Options{Limits: schema.Limits{MaxDepth: schema.DefaultMaxDepth}})
			require.Len(t, js.Errors, 1)
			assert.Equal(t, js.Errors[0], res.Errors[0], "as the JSON Schema profile says it")
			assert.Equal(t, "The schema nests deeper than the limit of 64.", res.Errors[0].Message)
		})
	}
}
