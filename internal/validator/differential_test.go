package validator_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/testgen"
	"github.com/toolgate/toolgate/internal/validator"
)

// The differential test compares our verdicts with an independent
// implementation of JSON Schema 2020-12, santhosh-tekuri/jsonschema v6.0.3, on
// generated schemas and arguments (package testgen). The oracle reads
// numbers exactly (jsonschema.UnmarshalJSON keeps them as json.Number and
// compares them as big.Rat), so any disagreement is ours to explain: either
// DESIGN.md decided otherwise, and the case is one of the named exceptions
// below, or one side has a bug.
//
// Not generated, so not compared: nesting beyond the depth limits, trailing
// data, and exponents so large that the schema compiler refuses them; the
// rule tests cover those.
//
// Besides verdicts, every instance is also checked against the streaming
// contract (diffCheckSplit) and for UTF-8 findings.
//
// Reproduce one case with -differential.seed=N -differential.schemas=1.
var (
	diffSeed    = flag.Uint64("differential.seed", 1, "first seed of the differential test")
	diffSchemas = flag.Int("differential.schemas", 0, "schemas to generate (0: 3000, or 300 with -short)")
)

const (
	diffInstancesPerSchema = 8
	diffShards             = 8    // parallel subtests
	diffHazardChance       = 0.04 // instances that get a testgen.Hazard
	diffMaxReports         = 10   // failures printed in full, per shard
)

// diffException is a class of arguments on which DESIGN.md overrides the
// oracle's verdict. When applies holds, we must reject the arguments with a
// finding of keyword, whatever the oracle says.
type diffException struct {
	name    string
	design  string // the DESIGN.md rule
	applies func(instance []byte) bool
	keyword string
	hits    atomic.Int64
}

// diffExceptions lists every verdict that DESIGN.md decides against plain
// JSON Schema. They arise only from testgen.Hazard: Valid and Invalid
// never produce them.
var diffExceptions = []*diffException{
	{
		name:    "duplicateNames",
		design:  "§3: duplicate keys are VALIDATION with keyword json; encoding/json (the oracle's reader) keeps the last value",
		applies: diffHasDuplicateNames,
		keyword: "json",
	},
	{
		name:    "loneSurrogate",
		design:  "§3: lone surrogate escapes are VALIDATION with keyword json; encoding/json reads them as U+FFFD",
		applies: diffHasLoneSurrogate,
		keyword: "json",
	},
	{
		name:    "invalidUTF8",
		design:  "§3: invalid UTF-8 is VALIDATION with keyword json; encoding/json reads it as U+FFFD",
		applies: func(instance []byte) bool { return !utf8.Valid(instance) },
		keyword: "json",
	},
}

// diffSchemaRewrites turn our schema into the one the oracle must see to
// mean the same thing. Each is a DESIGN.md decision about schemas; none
// changes a verdict on arguments.
var diffSchemaRewrites = []struct {
	name    string
	design  string
	rewrite func(node map[string]any, root bool)
}{
	{
		name:   "additionalPropertiesSnakeCase",
		design: "§3: additional_properties is another spelling of additionalProperties; to JSON Schema it is an unknown keyword, ignored",
		rewrite: func(node map[string]any, _ bool) {
			if v, ok := node["additional_properties"]; ok {
				delete(node, "additional_properties")
				node["additionalProperties"] = v
			}
		},
	},
	{
		name:   "requiredRepeats",
		design: "§3: names may repeat in required (a repeat changes nothing); the 2020-12 metaschema makes required uniqueItems",
		rewrite: func(node map[string]any, _ bool) {
			if names, ok := node["required"].([]any); ok {
				var unique []any
				for _, name := range names {
					if !slices.Contains(unique, name) {
						unique = append(unique, name)
					}
				}
				node["required"] = unique
			}
		},
	},
	{
		name:   "implicitRootType",
		design: "§3: the root may omit type, which means object; to JSON Schema an untyped root accepts any value",
		rewrite: func(node map[string]any, root bool) {
			if _, ok := node["type"]; root && !ok {
				node["type"] = "object"
			}
		},
	},
}

func TestDifferential(t *testing.T) {
	t.Parallel()
	schemas := *diffSchemas
	if schemas <= 0 {
		schemas = 3000
		if testing.Short() {
			schemas = 300
		}
	}
	var checked, oracleValid atomic.Int64
	t.Run("shards", func(t *testing.T) {
		for shard := range min(diffShards, schemas) {
			t.Run(fmt.Sprint(shard), func(t *testing.T) {
				t.Parallel()
				reports := 0
				for i := shard; i < schemas; i += diffShards {
					seed := *diffSeed + uint64(i)
					n, v := diffSeedCase(t, seed, &reports)
					checked.Add(int64(n))
					oracleValid.Add(int64(v))
				}
			})
		}
	})
	var hits []string
	for _, ex := range diffExceptions {
		hits = append(hits, fmt.Sprintf("%s=%d", ex.name, ex.hits.Load()))
		if schemas >= 1000 {
			assert.Positive(t, ex.hits.Load(), "exception %s was never exercised", ex.name)
		}
	}
	t.Logf("%d schemas, %d instances (%d valid per the oracle); DESIGN exceptions applied: %s",
		schemas, checked.Load(), oracleValid.Load(), strings.Join(hits, " "))
	// Valid-leaning and invalid-leaning instances should both be common.
	if checked.Load() > 1000 {
		assert.InDelta(t, 0.5, float64(oracleValid.Load())/float64(checked.Load()), 0.3,
			"the generator's instances are too one-sided to be a good test")
	}
}

// diffSeedCase generates one schema from seed and checks it and its
// instances. It returns how many instances it checked and how many of them
// the oracle found valid.
func diffSeedCase(t *testing.T, seed uint64, reports *int) (checked, valid int) {
	r := rand.New(rand.NewPCG(seed, 0x70013a7e))
	node := testgen.NewSchema(r)
	schemaText := testgen.Encode(r, node.Doc())
	plain := testgen.Compact(node.Doc()) // for messages

	compiled := schema.Compile(schema.ToolInput, schemaText)
	if !assert.Empty(t, compiled.Errors, "seed %d: a generated schema must compile\nschema: %s\nas sent: %s", seed, plain, schemaText) {
		return 0, 0
	}
	oracle, err := diffOracle(schemaText)
	if !assert.NoError(t, err, "seed %d: the oracle refused a generated schema\nschema: %s\nas sent: %s", seed, plain, schemaText) {
		return 0, 0
	}

	for k := range diffInstancesPerSchema {
		instance := testgen.Instance(r, node)
		if r.Float64() < diffHazardChance {
			instance = testgen.Encode(r, testgen.Hazard(r, diffObject(r, node)))
		}
		ours := validator.Validate(compiled.Schema, instance, validator.Options{})
		diffCheckSplit(t, compiled.Schema, instance, ours, r, seed)
		for _, f := range ours.Findings {
			// Findings travel in proto string fields, which must be UTF-8.
			if !utf8.ValidString(f.InstancePath) || !utf8.ValidString(f.Message) {
				diffReport(t, reports, "seed %d instance %d: a finding is not UTF-8 (proto strings must be)\ninstance: %q\nfinding:  %s instance_path=%q message=%q",
					seed, k, instance, f.Keyword, f.InstancePath, f.Message)
			}
		}

		if ex := diffExceptionFor(instance); ex != nil {
			ex.hits.Add(1)
			assert.True(t, slices.ContainsFunc(ours.Findings, func(f schema.Finding) bool { return f.Keyword == ex.keyword }),
				"seed %d instance %d: DESIGN exception %s (%s): want a %q finding\nschema:   %s\ninstance: %q\nfindings: %s",
				seed, k, ex.name, ex.design, ex.keyword, plain, instance, diffFindings(ours.Findings))
			continue
		}

		oracleErr := diffOracleValidate(oracle, instance)
		checked++
		if oracleErr == nil {
			valid++
		}
		if ours.Valid() == (oracleErr == nil) {
			continue
		}
		diffReport(t, reports, "seed %d instance %d: verdicts differ\nschema:   %s\nas sent:  %s\ninstance: %s\nours:     valid=%v findings=%s\noracle:   valid=%v %v",
			seed, k, plain, schemaText, instance, ours.Valid(), diffFindings(ours.Findings), oracleErr == nil, oracleErr)
	}
	return checked, valid
}

// diffReport fails the test, printing the first diffMaxReports failures of
// a shard in full.
func diffReport(t *testing.T, reports *int, format string, args ...any) {
	t.Helper()
	if *reports++; *reports > diffMaxReports {
		t.Fail()
		return
	}
	t.Errorf(format, args...)
}

// diffObject returns a valid-leaning or invalid-leaning object for the root
// node (Invalid can return a non-object at the root).
func diffObject(r *rand.Rand, node *testgen.Node) testgen.Object {
	v := testgen.Valid(r, node)
	if r.IntN(2) == 0 {
		v = testgen.Invalid(r, node)
	}
	if o, ok := v.(testgen.Object); ok {
		return o
	}
	return testgen.Object{}
}

// diffCheckSplit checks the streaming contract (DESIGN.md §6) on the
// instance: fed in random pieces, a Validator must report the whole-document
// findings; with StopAtFirst, whole or in pieces, it must reach the same
// verdict at the earliest offset of those findings.
func diffCheckSplit(t *testing.T, s *schema.Schema, instance []byte, whole validator.Result, r *rand.Rand, seed uint64) {
	cuts := diffCuts(r, len(instance))
	got := diffFeed(s, validator.Options{}, instance, cuts)
	assert.Equal(t, fixtures.Stable(whole.Findings), fixtures.Stable(got.Findings),
		"seed %d: streamed in pieces %v, findings differ from the whole document\ninstance: %s\nwhole:    %s\nstreamed: %s",
		seed, cuts, instance, diffFindings(whole.Findings), diffFindings(got.Findings))

	stop := validator.Options{StopAtFirst: true}
	first := diffFeed(s, stop, instance, []int{len(instance)})
	firstCut := diffFeed(s, stop, instance, cuts)
	assert.Equal(t, fixtures.Stable(first.Findings), fixtures.Stable(firstCut.Findings),
		"seed %d: StopAtFirst streamed in pieces %v, findings differ from the whole document\ninstance: %s\nwhole:    %s\nstreamed: %s",
		seed, cuts, instance, diffFindings(first.Findings), diffFindings(firstCut.Findings))
	if !assert.Equal(t, whole.Valid(), first.Valid(), "seed %d: StopAtFirst changes the verdict\ninstance: %s", seed, instance) || whole.Valid() {
		return
	}
	if slices.ContainsFunc(whole.Findings, func(f schema.Finding) bool { return f.Keyword == "json" }) {
		return // past a syntax error, findings that wait for a value's end are never made
	}
	earliest := slices.MinFunc(whole.Findings, func(a, b schema.Finding) int { return cmp.Compare(a.Offset, b.Offset) })
	assert.Equal(t, earliest.Offset, first.Findings[0].Offset,
		"seed %d: StopAtFirst stops elsewhere than the earliest finding\ninstance: %s\nall:      %s\nfirst:    %s",
		seed, instance, diffFindings(whole.Findings), diffFindings(first.Findings))
}

// diffCheckFirstFindings checks that the findings StopAtFirst kept (stop)
// are exactly those a full validation (all) made at the same byte: a
// stream's verdict must not depend on how much else is checked.
func diffCheckFirstFindings(t *testing.T, all, stop validator.Result, context string) {
	t.Helper()
	if stop.Valid() || all.Truncated || stop.Truncated {
		return
	}
	var first []schema.Finding
	for _, f := range all.Findings {
		if f.Offset == stop.Findings[0].Offset {
			first = append(first, f)
		}
	}
	assert.ElementsMatch(t, fixtures.Stable(first), fixtures.Stable(stop.Findings),
		"%s\nStopAtFirst's findings are not the full validation's at the same byte\nfull: %s\nstop: %s",
		context, diffFindings(all.Findings), diffFindings(stop.Findings))
}

// diffCuts returns random piece lengths (1 to 8 bytes) that add up to n.
func diffCuts(r *rand.Rand, n int) []int {
	var cuts []int
	for n > 0 {
		c := 1 + r.IntN(min(n, 8))
		cuts = append(cuts, c)
		n -= c
	}
	return cuts
}

func diffFeed(s *schema.Schema, opts validator.Options, instance []byte, cuts []int) validator.Result {
	v := validator.New(s, opts)
	for _, c := range cuts {
		v.Write(instance[:c])
		instance = instance[c:]
	}
	return v.Close()
}

func diffExceptionFor(instance []byte) *diffException {
	for _, ex := range diffExceptions {
		if ex.applies(instance) {
			return ex
		}
	}
	return nil
}

// diffOracle compiles schemaText, rewritten by diffSchemaRewrites, with the
// oracle.
func diffOracle(schemaText []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaText))
	if err != nil {
		return nil, err
	}
	diffRewrite(doc, true)
	return oracleCompile(doc)
}

// diffRewrite applies diffSchemaRewrites at every schema position of doc.
func diffRewrite(doc any, root bool) {
	node, ok := doc.(map[string]any)
	if !ok {
		return
	}
	for _, rw := range diffSchemaRewrites {
		rw.rewrite(node, root)
	}
	if props, ok := node["properties"].(map[string]any); ok {
		for _, p := range props {
			diffRewrite(p, false)
		}
	}
	diffRewrite(node["items"], false)
	if branches, ok := node["oneOf"].([]any); ok {
		for _, b := range branches {
			diffRewrite(b, false)
		}
	}
}

// diffOracleValidate returns nil when the oracle finds instance valid.
func diffOracleValidate(oracle *jsonschema.Schema, instance []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(instance))
	if err != nil {
		return fmt.Errorf("not JSON to the oracle: %w", err)
	}
	return oracle.Validate(v)
}

func diffFindings(fs []schema.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %s %s schema=%q instance=%q @%d: %s", f.Code, f.Keyword, f.SchemaPath, f.InstancePath, f.Offset, f.Message)
	}
	return b.String()
}

// diffHasDuplicateNames reports whether some object in the JSON text names a
// member twice (after decoding escapes).
func diffHasDuplicateNames(instance []byte) bool {
	d := json.NewDecoder(bytes.NewReader(instance))
	d.UseNumber() // a number past float64's range is no error
	type level struct {
		names  map[string]bool
		object bool
		key    bool // the next string token is a name
	}
	var stack []level
	for {
		tok, err := d.Token()
		if err != nil {
			return false // io.EOF: no duplicates
		}
		top := len(stack) - 1
		isName := top >= 0 && stack[top].object && stack[top].key
		if top >= 0 && stack[top].object {
			stack[top].key = !stack[top].key
		}
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{':
				stack = append(stack, level{names: map[string]bool{}, object: true, key: true})
			case '[':
				stack = append(stack, level{})
			default:
				stack = stack[:top]
				if top > 0 && stack[top-1].object {
					stack[top-1].key = true
				}
			}
		case string:
			if isName {
				if stack[top].names[tok] {
					return true
				}
				stack[top].names[tok] = true
			}
		}
	}
}

// diffHasLoneSurrogate reports whether a string in the JSON text holds a \uD800–
// \uDFFF escape that is not a high surrogate followed by a low one.
func diffHasLoneSurrogate(instance []byte) bool {
	hex := func(i int) (rune, bool) {
		if i+6 > len(instance) || instance[i] != '\\' || instance[i+1] != 'u' {
			return 0, false
		}
		var u rune
		for _, c := range instance[i+2 : i+6] {
			switch {
			case c >= '0' && c <= '9':
				u = u<<4 | rune(c-'0')
			case c >= 'a' && c <= 'f':
				u = u<<4 | rune(c-'a'+10)
			case c >= 'A' && c <= 'F':
				u = u<<4 | rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		return u, true
	}
	inString := false
	for i := 0; i < len(instance); i++ {
		switch c := instance[i]; {
		case c == '"':
			inString = !inString
		case c == '\\' && inString:
			u, ok := hex(i)
			switch {
			case !ok:
				i++ // a two-byte escape
			case u >= 0xDC00 && u <= 0xDFFF:
				return true
			case u >= 0xD800 && u <= 0xDBFF:
				low, ok := hex(i + 6)
				if !ok || low < 0xDC00 || low > 0xDFFF {
					return true
				}
				i += 11
			default:
				i += 5
			}
		}
	}
	return false
}

func TestDifferentialExceptionPredicates(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text       string
		dup, loneS bool
	}{
		{`{"a":1,"b":{"a":2}}`, false, false},
		{`{"a":1,"\u0061":2}`, true, false},
		{`{"a":{"x":1,"x":2}}`, true, false},
		{`{"a":1e400,"a":2}`, true, false},
		{`{"a":[{"x":1},{"x":2}],"b":{}}`, false, false},
		{`{"a":"\ud83d\ude00"}`, false, false},
		{`{"a":"\ud83d"}`, false, true},
		{`{"a":"\ude00\ud83d"}`, false, true},
		{`{"a":"\\ud83d"}`, false, false},
		{`{"\uDC00":1}`, false, true},
	} {
		t.Run(c.text, func(t *testing.T) {
			require.True(t, json.Valid([]byte(c.text)))
			assert.Equal(t, c.dup, diffHasDuplicateNames([]byte(c.text)), "duplicates")
			assert.Equal(t, c.loneS, diffHasLoneSurrogate([]byte(c.text)), "lone surrogate")
		})
	}
}

// diffRegressions are minimal cases reduced from disagreements that
// TestDifferential found (found: the seed and -differential.seed range).
// Each is checked against the oracle, in every split into two pieces and one
// byte at a time, and for where StopAtFirst stops: first is the offset of
// the first byte that no valid document could follow (DESIGN.md §6), or -1
// for valid arguments.
var diffRegressions = []struct {
	name, found      string
	schema, instance string
	first            int64
}{
	{
		name:     "numbers inside composite enum choices size the digit buffer",
		found:    "seed 151",
		schema:   `{"type":"object","properties":{"x":{"type":"array","enum":[[1.23456]]}}}`,
		instance: `{"x":[1.23456]}`,
		first:    -1,
	},
	{
		name:     "oneOf fails at the byte its last branch failed, not at the end of the piece",
		found:    "seed 230 and others in 1..3000",
		schema:   `{"type":"object","properties":{"x":{"oneOf":[{"type":"string","enum":["ab"]}]}}}`,
		instance: `{"x":"acdef"}`,
		first:    7,
	},
	{
		name:     "a string enum inside a oneOf branch fails before the branch's array enum",
		found:    "seed 123333",
		schema:   `{"type":"object","properties":{"x":{"oneOf":[{"type":"array","enum":[["b"]],"items":{"type":"string","enum":["b"]}}]}}}`,
		instance: `{"x":["bcdefgh"]}`,
		first:    8,
	},
	{
		name:     "a string enum fails before the enclosing object enum",
		found:    "seed 102794",
		schema:   `{"type":"object","enum":[{"a":"b"}],"properties":{"a":{"type":"string","enum":["b"]}}}`,
		instance: `{"a":"bcdefgh"}`,
		first:    7,
	},
	{
		name:     "a oneOf fails before the enclosing object enum",
		found:    "seed 139298",
		schema:   `{"type":"object","enum":[{"a":"b"}],"properties":{"a":{"oneOf":[{"type":"string","enum":["b"]}]}}}`,
		instance: `{"a":"bcdefgh"}`,
		first:    7,
	},
	{
		name:     "an undeclared name fails before the enclosing object enum",
		found:    "seed 103332",
		schema:   `{"type":"object","properties":{"x":{"type":"object","enum":[{"a":1}],"properties":{"a":{"type":"integer"}},"additionalProperties":false}}}`,
		instance: `{"x":{"bcdefgh":1}}`,
		first:    7,
	},
	{
		name:     "a closed object without properties rejects a name at its opening quote",
		found:    "by hand, while reducing seed 103332",
		schema:   `{"type":"object","additionalProperties":false}`,
		instance: `{"abcdef":1}`,
		first:    1,
	},
	{
		name:     "a nested closed object without properties rejects a name at its opening quote",
		found:    "by hand",
		schema:   `{"type":"object","properties":{"x":{"type":"object","additionalProperties":false}}}`,
		instance: `{"x":{"abcdef":1}}`,
		first:    6,
	},
	{
		name:     "a finding's instance path stays UTF-8 when a name is not",
		found:    "seed 1..3000 (testgen.Hazard), checking that findings are UTF-8",
		schema:   `{"type":"object"}`,
		instance: "{\"k\xc3(\":true}",
		first:    4,
	},
	{
		name:     "just below a fractional minimum",
		found:    "by hand",
		schema:   `{"type":"object","properties":{"n":{"type":"number","minimum":0.1}}}`,
		instance: `{"n":0.09999999999999999999}`,
		first:    27,
	},
}

func TestDifferentialRegressions(t *testing.T) {
	t.Parallel()
	for _, c := range diffRegressions {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			compiled := schema.Compile(schema.ToolInput, []byte(c.schema))
			require.Empty(t, compiled.Errors)
			oracle, err := diffOracle([]byte(c.schema))
			require.NoError(t, err)
			diffCheckRegression(t, compiled.Schema, oracle, diffExceptionFor, []byte(c.instance), c.first)
		})
	}
}

// diffCheckRegression checks one regression case: the verdict against the
// oracle (unless exception says DESIGN.md decides it), and the findings
// and the StopAtFirst offset in every split into two pieces and one byte
// at a time.
func diffCheckRegression(t *testing.T, s *schema.Schema, oracle *jsonschema.Schema, exception func([]byte) *diffException, instance []byte, first int64) {
	t.Helper()
	whole := validator.Validate(s, instance, validator.Options{})
	if exception(instance) == nil {
		oracleErr := diffOracleValidate(oracle, instance)
		assert.Equal(t, oracleErr == nil, whole.Valid(), "oracle: %v\nours: %s", oracleErr, diffFindings(whole.Findings))
	}
	assert.Equal(t, first < 0, whole.Valid(), "ours: %s", diffFindings(whole.Findings))
	diffCheckFirstFindings(t, whole, validator.Validate(s, instance, validator.Options{StopAtFirst: true}), string(instance))
	for _, f := range whole.Findings {
		assert.True(t, utf8.ValidString(f.InstancePath) && utf8.ValidString(f.Message), "finding is not UTF-8: %q", f)
	}

	bytewise := make([]int, len(instance))
	for i := range bytewise {
		bytewise[i] = 1
	}
	splits := [][]int{{len(instance)}, bytewise}
	for cut := 1; cut < len(instance); cut++ {
		splits = append(splits, []int{cut, len(instance) - cut})
	}
	// One line per split that goes wrong, so a failure stays readable.
	var wrongFindings, wrongStops []string
	for _, cuts := range splits {
		got := diffFeed(s, validator.Options{}, instance, cuts)
		if !assert.ObjectsAreEqual(fixtures.Stable(whole.Findings), fixtures.Stable(got.Findings)) {
			wrongFindings = append(wrongFindings, fmt.Sprintf("\npieces %v:%s", cuts, diffFindings(got.Findings)))
		}
		stop := diffFeed(s, validator.Options{StopAtFirst: true}, instance, cuts)
		switch {
		case first < 0 && !stop.Valid(), first >= 0 && (stop.Valid() || stop.Findings[0].Offset != first):
			wrongStops = append(wrongStops, fmt.Sprintf("\npieces %v:%s", cuts, diffFindings(stop.Findings)))
		}
	}
	if len(wrongFindings) > 0 {
		assert.Fail(t, "streamed findings differ from the whole document's", "whole document:%s%s",
			diffFindings(whole.Findings), strings.Join(wrongFindings, ""))
	}
	if len(wrongStops) > 0 {
		assert.Fail(t, fmt.Sprintf("StopAtFirst must stop at byte %d (-1: valid)", first), "%s", strings.Join(wrongStops, ""))
	}
}
