package validator_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/testgen"
)

// The generator schemas test runs the schemas of
// testdata/mcp-tools/generators through the JSON Schema profile: what the
// schema generators behind real tools write (the GitHub MCP server's
// snapshots not in testdata/mcp-tools, invopop/jsonschema's fixtures, and
// the expected outputs in the tests of pydantic, zod-to-json-schema and
// zod 4's toJSONSchema; see testdata/mcp-tools/PROVENANCE.md). A schema
// must compile, or be refused as generatorRefusals says, with every
// finding of that code; one that compiles must reach the oracle's verdict,
// whole and streamed, on generated and mutated arguments.
//
// The folder is below testdata/mcp-tools, not in it, so that the README's
// MCP report and the toolset tests keep to the 70 tools they describe.

// generatorRefusal is how the JSON Schema profile refuses one generator
// schema, and why DESIGN.md says so.
type generatorRefusal struct {
	code    schema.Code
	keyword string // the keyword of the first finding
	why     string
}

var (
	refusedRootNotObject = generatorRefusal{schema.CodeUnsupported, "$ref", "§3, §8: the root accepts no object (its $ref is an array, a string, an enum, ...)"}
	refusedRemoteRef     = generatorRefusal{schema.CodeUnsupported, "$ref", "§8: a $ref to a document the request does not supply (the test gives a base path or $id it never serves)"}
	refusedGoUnicode     = generatorRefusal{schema.CodeUnsupported, "pattern", "§8: a pattern with \\p{Extended_Pictographic}, which Go's Unicode tables lack (zod's emoji)"}
	refusedDangling      = generatorRefusal{schema.CodeValidation, "$ref", "§8: a $ref that resolves nowhere (the fixture is cut from a larger document)"}
	refusedBooleanBounds = generatorRefusal{schema.CodeValidation, "exclusiveMinimum", "§8: fails its dialect's meta-schema: a draft-04 boolean exclusiveMinimum (zod-to-json-schema's OpenAPI 3.0 and 2019-09 targets)"}
	refusedTupleItems    = generatorRefusal{schema.CodeValidation, "items", "§8: fails the 2020-12 meta-schema: an items array (zod-to-json-schema's draft-07 tuples without $schema)"}
)

// generatorRefusals lists the generator schemas the JSON Schema profile
// refuses, by "file/name".
var generatorRefusals = map[string]generatorRefusal{
	"invopop-jsonschema.json/array_type":                 refusedRootNotObject,
	"invopop-jsonschema.json/compact_date":               refusedRootNotObject,
	"invopop-jsonschema.json/lookup":                     refusedRemoteRef,
	"invopop-jsonschema.json/lookup_expanded":            refusedRemoteRef,
	"invopop-jsonschema.json/oneof":                      refusedRemoteRef,
	"invopop-jsonschema.json/oneof_ref":                  refusedDangling,
	"invopop-jsonschema.json/yaml_inline":                refusedDangling,
	"pydantic.json/test_json_schema.py:152":              refusedRemoteRef,
	"pydantic.json/test_json_schema.py:3557":             {schema.CodeValidation, "type", "§8: fails the meta-schema: a custom type name \"other\" (the test's own json_schema_extra)"},
	"pydantic.json/test_json_schema.py:5520":             refusedRootNotObject,
	"pydantic.json/test_json_schema.py:5529":             refusedRootNotObject,
	"zod-to-json-schema.json/allParsers.test.ts:11":      refusedGoUnicode,
	"zod-to-json-schema.json/allParsers.test.ts:341":     refusedBooleanBounds,
	"zod-to-json-schema.json/allParsers.test.ts:674":     {schema.CodeValidation, "items", refusedTupleItems.why + "; also boolean exclusiveMinimum"},
	"zod-to-json-schema.json/openApiMode.test.ts:129":    refusedBooleanBounds,
	"zod-to-json-schema.json/openApiMode.test.ts:197":    refusedBooleanBounds,
	"zod-to-json-schema.json/openApiMode.test.ts:258":    refusedBooleanBounds,
	"zod-to-json-schema.json/openApiMode.test.ts:352":    refusedBooleanBounds,
	"zod-to-json-schema.json/parseDef.test.ts:32":        refusedTupleItems,
	"zod-to-json-schema.json/references.test.ts:218":     refusedRemoteRef,
	"zod-to-json-schema.json/references.test.ts:247":     refusedDangling,
	"zod-to-json-schema.json/references.test.ts:277":     refusedDangling,
	"zod-to-json-schema.json/references.test.ts:711":     refusedRemoteRef,
	"zod-to-json-schema.json/references.test.ts:745":     refusedRemoteRef,
	"zod-to-json-schema.json/references.test.ts:785":     refusedRemoteRef,
	"zod-to-json-schema.json/zodToJsonSchema.test.ts:95": refusedRootNotObject,
	"zod-v4.json/to-json-schema.test.ts:1123":            {schema.CodeValidation, "required", "§8: fails the meta-schema: required lists numbers (the test's own override)"},
	"zod-v4.json/to-json-schema.test.ts:2989":            refusedRemoteRef,
	"zod-v4.json/to-json-schema.test.ts:3116":            refusedRootNotObject,
}

// The oracle reads pattern with Go's regexp, which has no look-around, so
// it cannot compile the patterns toolgate now runs with look-aheads right
// after their leading ^ (pydantic's Decimal, ^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$).
// It is given their meaning instead: ^(?=A)(?!B)R is the pattern ^(?:R),
// with {"pattern": "^(?:A)"} and {"not": {"type": "string", "pattern":
// "^(?:B)"}} beside it in allOf (as a look-ahead at the start tests
// whether A matches from there). The split is scanned here, not by
// internal/pattern, which is what the oracle checks.
// lookAheadsAsAllOf rewrites node's pattern ^L1…LkR, if it has
// look-aheads Li, as described above.
func lookAheadsAsAllOf(node map[string]any, _ testgen.Dialect) {
	p, ok := node["pattern"].(string)
	if !ok || !strings.HasPrefix(p, "^") {
		return
	}
	i := 1
	var all []any
	for strings.HasPrefix(p[i:], "(?=") || strings.HasPrefix(p[i:], "(?!") {
		end := ecmaGroupEnd(p, i, false)
		if end < 0 {
			return
		}
		sub := map[string]any{"pattern": "^(?:" + p[i+3:end-1] + ")"}
		if p[i+2] == '!' {
			sub = map[string]any{"not": map[string]any{"type": "string", "pattern": sub["pattern"]}}
		}
		all = append(all, sub)
		i = end
	}
	if len(all) == 0 || ecmaGroupEnd("("+p[i:]+")", 0, true) < 0 {
		return // no look-ahead, or the rest has a | of its own: not one toolgate runs
	}
	node["pattern"] = "^(?:" + p[i:] + ")"
	prev, _ := node["allOf"].([]any)
	node["allOf"] = append(prev, all...)
}

// ecmaGroupEnd returns the index just after the ) that closes the group
// opened at p[open], skipping escapes and classes, or -1 if it is never
// closed or, with noBar, holds a | at its own level.
func ecmaGroupEnd(p string, open int, noBar bool) int {
	depth := 0
	for j := open; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case '[':
			for j++; j < len(p) && p[j] != ']'; j++ {
				if p[j] == '\\' {
					j++
				}
			}
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j + 1
			}
		case '|':
			if depth == 1 && noBar {
				return -1
			}
		}
	}
	return -1
}

// readGeneratorTools reads every tool of testdata/mcp-tools/generators.
func readGeneratorTools(t *testing.T) []realTool {
	tools := readToolLists(t, filepath.Join(fixtures.Testdata(t, "mcp-tools"), "generators", "*.json"))
	require.Len(t, tools, 358, "the schemas PROVENANCE.md lists")
	return tools
}

// legacyDialect names the dialect of a schema testgen cannot read (a $ref
// by JSON pointer into properties, to "#", or by a relative $id): what
// jsOracle needs of it is only whether it is older than 2019-09.
func legacyDialect(doc json.RawMessage) testgen.Dialect {
	var root struct {
		Schema string `json:"$schema"`
	}
	_ = json.Unmarshal(doc, &root)
	for _, d := range testgen.Dialects {
		if d.Legacy() && strings.Contains(root.Schema, strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(string(d), "http://"), "https://"), "#")) {
			return d
		}
	}
	return testgen.Draft2020
}

// TestLookAheadsAsAllOf checks the oracle's rewrite of look-aheads, and
// that toolgate and the oracle then agree on pydantic's Decimal pattern
// and zod 4's z.email() on texts each side of them.
func TestLookAheadsAsAllOf(t *testing.T) {
	t.Parallel()
	node := map[string]any{"pattern": `^(?!^[-+.]*$)(?=[^)]|\()[+-]?\d*$`, "allOf": []any{map[string]any{"minLength": 1.0}}}
	lookAheadsAsAllOf(node, testgen.Draft2020)
	assert.Equal(t, map[string]any{
		"pattern": `^(?:[+-]?\d*$)`,
		"allOf": []any{
			map[string]any{"minLength": 1.0},
			map[string]any{"not": map[string]any{"type": "string", "pattern": `^(?:^[-+.]*$)`}},
			map[string]any{"pattern": `^(?:[^)]|\()`},
		},
	}, node)
	for _, p := range []string{`^(?!a)b|c`, `^a(?!b)`, `^(?=a`, `(?=a)b`} {
		node := map[string]any{"pattern": p}
		lookAheadsAsAllOf(node, testgen.Draft2020)
		assert.Equal(t, map[string]any{"pattern": p}, node, "%s is left as it is", p)
	}

	const (
		decimal = `^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$`
		email   = `^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$`
	)
	doc := []byte(`{"type":"object","properties":{"d":{"type":["string","number"],"pattern":"` + decimal + `"},"e":{"type":"string","pattern":"` + email + `"}}}`)
	res := schema.CompileWith(schema.JSONSchema, fixtures.ReadOnly(t, doc)[0], schema.Options{})
	require.Empty(t, res.Errors, "%s", diffFindings(res.Errors))
	var compared, valid atomic.Int64
	compare := newRealToolComparer(t, res.Schema, realTool{file: "lookahead", name: "decimal-email", schema: doc}, testgen.Draft2020, &compared, &valid)
	for _, tc := range []struct {
		args string
		want bool
	}{
		{`{"d":"1.5"}`, true}, {`{"d":"-0.5"}`, true}, {`{"d":"+.5"}`, true}, {`{"d":2}`, true},
		{`{"d":"+."}`, false}, {`{"d":""}`, false}, {`{"d":"-"}`, false}, {`{"d":"1.2.3"}`, false},
		{`{"e":"john.doe@example.com"}`, true}, {`{"e":"o'neil+x@a-b.example.org"}`, true},
		{`{"e":".john@example.com"}`, false}, {`{"e":"john..doe@example.com"}`, false},
		{`{"e":"john.@example.com"}`, false}, {`{"e":"john@example"}`, false},
	} {
		assert.Equal(t, tc.want, compare.check([]byte(tc.args), "fixed"), "%s", tc.args)
	}
	assert.EqualValues(t, 14, compared.Load())
}

func TestJSONSchemaGeneratorSchemas(t *testing.T) {
	t.Parallel()
	var compared, validCount, refused, unread atomic.Int64
	t.Cleanup(func() {
		n, valid := compared.Load(), validCount.Load()
		t.Logf("%d refused as listed, %d compared on fixed arguments only (testgen cannot read them), %d arguments compared with the oracle, %d of them valid",
			refused.Load(), unread.Load(), n, valid)
		if n > 0 {
			assert.InDelta(t, 0.5, float64(valid)/float64(n), 0.35, "the arguments are too one-sided to be a good test")
		}
	})
	seen := map[string]bool{}
	for _, tool := range readGeneratorTools(t) {
		key := tool.file + "/" + tool.name
		require.False(t, seen[key], "two schemas named %s", key)
		seen[key] = true
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			res := schema.CompileWith(schema.JSONSchema, fixtures.ReadOnly(t, tool.schema)[0], schema.Options{})
			if want, listed := generatorRefusals[key]; listed {
				refused.Add(1)
				require.NotEmpty(t, res.Errors, "listed as refused (%s) but compiles", want.why)
				assert.Equal(t, want.keyword, res.Errors[0].Keyword, "%s%s", want.why, diffFindings(res.Errors))
				for _, f := range res.Errors {
					assert.Equal(t, want.code, f.Code, "%s: every finding is %s%s", want.why, want.code, diffFindings(res.Errors))
				}
				return
			}
			require.Empty(t, res.Errors, "%s", diffFindings(res.Errors))
			gen, err := testgen.ParseFull(tool.schema)
			if err != nil {
				// Fixed arguments only: the oracle still judges them.
				unread.Add(1)
				compare := newRealToolComparer(t, res.Schema, tool, legacyDialect(tool.schema), &compared, &validCount)
				for _, args := range []string{`{}`, `{"a":1}`, `{"name":"x","children":[]}`, `{"a":{"a":{}}}`} {
					compare.check([]byte(args), "fixed")
				}
				return
			}
			compare := newRealToolComparer(t, res.Schema, tool, gen.Dialect, &compared, &validCount)
			for range sweepSize(20, 6) { // generated and mutated arguments per schema
				compare.check(testgen.FullInstance(compare.r, gen), "generated")
				compare.check(testgen.Compact(testgen.Mutate(compare.r, testgen.FullValid(compare.r, gen))), "mutated")
			}
		})
	}
	// Every listed refusal names a schema of the folder.
	for key := range generatorRefusals {
		assert.True(t, seen[key], "generatorRefusals lists %s, which the folder does not hold", key)
	}
}
