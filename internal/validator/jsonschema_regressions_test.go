package validator_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/testgen"
	"github.com/toolgate/toolgate/internal/validator"
)

// drupalConfig is the shape of SchemaStore's drupal-recipe "config"
// object (Apache-2.0): nine unanchored patternProperties whose one
// automaton passes pattern.DefaultMaxDFABytes.
const drupalConfig = `{"additionalProperties":false,"patternProperties":{"block.block.*":{"type":"object"},"core.entity_form_display.*.*.*":{"type":"object"},"core.entity_view_display.*.*.*":{"type":"object"},"contact.form.*":{"type":"object"},"editor.editor.*":{"type":"object"},"field.field.*.*.*":{"type":"object"},"field.storage.*.*":{"type":"object"},"workflows.workflow.*":{"type":"object"},"user.role.*":{"type":"object"}}}`

// jsRegressions are minimal cases reduced from what the JSON Schema
// differential and early rejection tests found (found: where), checked
// like diffRegressions: first is the first byte no valid document could
// follow, or -1 for valid arguments.
var jsRegressions = []struct {
	name, found      string
	schema, instance string
	first            int64
}{
	{
		name:     "a bare $ref branch is decided when its target is, not at the value's first byte",
		found:    "TestJSONSchemaDifferential seeds 334, 755, 1304: StopAtFirst stopped after the earliest finding",
		schema:   `{"oneOf":[{"$ref":"#/$defs/a"},{"type":"object"}],"$defs":{"a":{"type":"object","properties":{"x":true}}}}`,
		instance: `{"b":1}`,
		first:    6,
	},
	{
		name:     "a closed object refuses a name only required lists at its first impossible byte",
		found:    "TestEarlyRejectionIsExact seeds 1000023, 1000046",
		schema:   `{"additionalProperties":false,"properties":{"a":true},"required":["abc"]}`,
		instance: `{"abc":1}`,
		first:    3,
	},
	{
		name:     "a closed object refuses a name only dependentRequired lists at its first impossible byte",
		found:    "TestEarlyRejectionIsExact seed 1000042",
		schema:   `{"additionalProperties":false,"properties":{"a":true},"dependentRequired":{"a":["zz"]}}`,
		instance: `{"a":1,"zz":2}`,
		first:    8,
	},
	{
		name:     "patternProperties too big for one automaton are split into several (accepting)",
		found:    "a SchemaStore sweep: drupal-recipe's config schema was refused as past MaxDFABytes",
		schema:   drupalConfig,
		instance: `{"field.storage.node.body":{},"user.role.editor":{}}`,
		first:    -1,
	},
	{
		name:     "patternProperties split into several automata refuse a name none matches at its closing quote",
		found:    "a SchemaStore sweep: drupal-recipe's config schema was refused as past MaxDFABytes",
		schema:   drupalConfig,
		instance: `{"user.role.editor":{},"system.site":{}}`,
		first:    35,
	},
	{
		name:     "patternProperties split into several automata apply a matching pattern's schema to its value",
		found:    "a SchemaStore sweep: drupal-recipe's config schema was refused as past MaxDFABytes",
		schema:   drupalConfig,
		instance: `{"field.field.block.block.x":[]}`,
		first:    29,
	},
	{
		name:     "a number const with no negative choice refuses a minus sign",
		found:    "TestEarlyRejectionIsExact seed 1000031",
		schema:   `{"properties":{"n":{"const":100}}}`,
		instance: `{"n":-100}`,
		first:    5,
	},
	{
		name:     "-0 is zero, so a zero choice keeps a minus sign alive",
		found:    "by hand, beside seed 1000031",
		schema:   `{"properties":{"n":{"enum":[0,5]}}}`,
		instance: `{"n":-0}`,
		first:    -1,
	},
	{
		name:     "a minus sign and a digit no negative choice has",
		found:    "by hand, beside seed 1000031",
		schema:   `{"properties":{"n":{"enum":[0,5]}}}`,
		instance: `{"n":-5}`,
		first:    6,
	},
	{
		name:     "a bound held back to the number's end still decides before the number's type",
		found:    "TestJSONSchemaDifferential seed 405458: a full validation's anyOf failed at the type, StopAtFirst's at the bound",
		schema:   `{"$defs":{"n":{"type":"integer","minimum":0}},"properties":{"b":{"$ref":"#/$defs/n"}},"anyOf":[{"properties":{"b":{"$ref":"#/$defs/n"}}}]}`,
		instance: `{"b":-1.5}`,
		first:    6,
	},
	{
		name:     "a maxLength held back to the string's end still decides before the enum",
		found:    "by hand, beside seed 405458",
		schema:   `{"$defs":{"n":{"type":"string","maxLength":1,"enum":["a","abc"]}},"properties":{"b":{"$ref":"#/$defs/n"}},"anyOf":[{"properties":{"b":{"$ref":"#/$defs/n"}}}]}`,
		instance: `{"b":"ab"}`,
		first:    7,
	},
	{
		name:     "a name held back to its closing quote still decides before a propertyNames failure",
		found:    "TestJSONSchemaDifferential seed 1003269 of -jsdiff.seed 1000000",
		schema:   `{"type":"object","$defs":{"i":{"additionalProperties":false,"propertyNames":{"maxLength":1}}},"allOf":[{"$ref":"#/$defs/i"}],"anyOf":[{"$ref":"#/$defs/i"},{"type":"null"}]}`,
		instance: `{"ab":1}`,
		first:    1, // the opening quote: the closed object allows no name
	},
	{
		name:     "a maxLength held back decides before an anyOf that fails at the string's end",
		found:    "by hand, beside seed 1003269 (endString applies held-back violations first)",
		schema:   `{"$defs":{"s":{"maxLength":1,"anyOf":[{"enum":["abc"]}]}},"properties":{"s":{"$ref":"#/$defs/s"}},"oneOf":[{"properties":{"s":{"$ref":"#/$defs/s"}}},{"type":"null"}]}`,
		instance: `{"s":"ab"}`,
		first:    7,
	},
	{
		name:     "a failed else is decided by the later of the if and the else, not by whichever was learnt last",
		found:    "TestJSONSchemaDifferential seed 77004670 of -jsdiff.seed 77000000: the else was reported at its enum's byte, before the if had failed",
		schema:   `{"properties":{"a":{"$ref":"#/$defs/node","if":{"pattern":"^[a-z]+$"},"else":{"$ref":"#/$defs/node"}}},"$defs":{"node":{"enum":["é",""]}}}`,
		instance: `{"a":"ab1"}`,
		first:    6, // the $ref's enum; the else fails only once the if does, at the "1"
	},
	{
		name:     "a failed dependentSchemas is decided at its name's closing quote, even when its kid failed inside the name",
		found:    "TestJSONSchemaDifferential seed 91003941 of -jsdiff.seed 91000000: dependentSchemas reported at the name's first byte",
		schema:   `{"$ref":"#/$defs/t","dependentSchemas":{"id":{"$ref":"#/$defs/t"}},"$defs":{"t":{"additionalProperties":false,"properties":{"x":true}}}}`,
		instance: `{"id":1}`,
		first:    2, // the closed object refuses the "i"; the dependentSchemas fails only at the closing quote
	},
	{
		name:     "a then decided inside a string waits for the string's end, behind an earlier pattern held back to quote it whole",
		found:    "TestJSONSchemaDifferential seed 93009539 of -jsdiff.seed 93000000: the else took the then's byte, not the pattern's",
		schema:   `{"properties":{"s":{"$ref":"#/$defs/x","if":{"type":"number"},"else":{"$ref":"#/$defs/x"}}},"$defs":{"x":{"allOf":[{"if":{"maxLength":9},"then":{"maxLength":3}},{"pattern":"^[^,]{2}$"}]}}}`,
		instance: `{"s":"barx"}`,
		first:    8, // the "r": the pattern allows two characters; the then fails only at the "x"
	},
	{
		name:     "an evaluation whose kids' violation waits for the string's end does not pass before it",
		found:    "TestJSONSchemaDifferential seed 93012576 of -jsdiff.seed 93000000, against the first fix of seed 93009539",
		schema:   `{"properties":{"a":{"$ref":"#/$defs/x","oneOf":[{"$ref":"#/$defs/x"},{"const":"z"},{"type":"string"}]}},"$defs":{"x":{"if":{"type":"object"},"else":{"type":"integer"}}}}`,
		instance: `{"a":"z"}`,
		first:    5,
	},
	{
		name:     "a failed then is decided once the if has passed, at the value's end",
		found:    "by hand, beside seed 77004670",
		schema:   `{"properties":{"a":{"allOf":[{"$ref":"#/$defs/node"}],"if":{"type":"string"},"then":{"$ref":"#/$defs/node"}}},"$defs":{"node":{"enum":["é",""]}}}`,
		instance: `{"a":"ab"}`,
		first:    6,
	},
	{
		name:     "a pass/fail branch over a shared reporting evaluation fails at that evaluation's byte, not at a later one of its own",
		found:    "TestJSONSchemaDifferential seed 41005066 of -jsdiff.seed 41000000: a full validation put the oneOf at byte 13, a stream at 7",
		schema:   `{"$defs":{"item":{"allOf":[{"pattern":"^[0-9]{2,4}$"}]}},"additionalProperties":{"$ref":"#/$defs/item"},"oneOf":[{"additionalProperties":{"$ref":"#/$defs/item","pattern":"^\\w+$"}}]}`,
		instance: `{"id":"b\u000a\""}`,
		first:    7,
	},
	{
		name:     "the same inside a member name: a shared closed object refuses it before the branch's own names do",
		found:    "by hand, beside seed 41005066",
		schema:   `{"$defs":{"r":{"properties":{"a":true},"additionalProperties":false}},"allOf":[{"$ref":"#/$defs/r"}],"oneOf":[{"properties":{"ab":true},"additionalProperties":false,"allOf":[{"$ref":"#/$defs/r"}]}]}`,
		instance: `{"abc":1}`,
		first:    3,
	},
	{
		name:     "the same when the shared evaluation fails by its kids: its oneOf decides the branch at once",
		found:    "by hand, beside seed 41005066",
		schema:   `{"$defs":{"item":{"oneOf":[{"pattern":"^[0-9]"}]}},"additionalProperties":{"$ref":"#/$defs/item"},"oneOf":[{"additionalProperties":{"$ref":"#/$defs/item","pattern":"^\\w+$"}}]}`,
		instance: `{"id":"b\u000a\""}`,
		first:    7,
	},
	{
		name:     "a pass/fail evaluation upgraded to report at the first byte reports an else its failed anyOf made it skip",
		found:    "TestJSONSchemaDifferential seed 101005656 of -jsdiff.seed 101000000: the stream lacked the else a full validation reported",
		schema:   `{"allOf":[{"anyOf":[{"$ref":"#/$defs/tree"}]},{"allOf":[{"$ref":"#/$defs/tree"}]}],"$defs":{"tree":{"if":{"type":"string"},"then":{"additionalProperties":{}},"else":{"type":"boolean"},"anyOf":[{"type":"null"}]}}}`,
		instance: `{"abc":"foo"}`,
		first:    0,
	},
}

func TestJSONSchemaRegressions(t *testing.T) {
	t.Parallel()
	for _, c := range jsRegressions {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			compiled := schema.CompileWith(schema.JSONSchema, []byte(c.schema), schema.Options{})
			if isNoObjectRoot(compiled.Errors) {
				// Found before such roots were refused: still a test of
				// the engine, on the schema as a document schema.
				compiled = schema.CompileWith(schema.JSONSchema, []byte(c.schema), schema.Options{AnyDocument: true})
			}
			require.Empty(t, compiled.Errors)
			oracle, err := jsOracle([]byte(c.schema), testgen.Draft2020)
			require.NoError(t, err)
			diffCheckRegression(t, compiled.Schema, oracle, jsDiffExceptionFor, []byte(c.instance), c.first)
		})
	}
}

// TestTwoPartKeywordsAreDecidedByTheLaterPart checks the offset of a
// failed then, else or dependentSchemas against the bytes that decide it:
// the subschema's own failure and the if's verdict or the member name's
// closing quote, whichever comes later.
func TestTwoPartKeywordsAreDecidedByTheLaterPart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		schema, instance, keyword string
		at                        int64
	}{
		// The else's enum fails at the string's first byte (6), the if's
		// pattern at the "1".
		{`{"properties":{"a":{"if":{"pattern":"^[a-z]+$"},"else":{"enum":["é"]}}}}`, `{"a":"ab1"}`, "else", 8},
		// The same with the else's evaluation shared with a's own $ref,
		// which a full validation learns only at the string's end.
		{`{"properties":{"a":{"$ref":"#/$defs/e","if":{"pattern":"^[a-z]+$"},"else":{"$ref":"#/$defs/e"}}},"$defs":{"e":{"enum":["é"]}}}`, `{"a":"ab1"}`, "else", 8},
		// The if fails at the first byte, the else at the second.
		{`{"properties":{"a":{"if":{"pattern":"^[a-z]"},"else":{"enum":["1"]}}}}`, `{"a":"12"}`, "else", 7},
		// The then's enum fails at the first byte; the if passes only at
		// the string's end.
		{`{"properties":{"a":{"if":{"maxLength":3},"then":{"enum":["é"]}}}}`, `{"a":"ab"}`, "then", 8},
		{`{"properties":{"a":{"$ref":"#/$defs/e","if":{"maxLength":3},"then":{"$ref":"#/$defs/e"}}},"$defs":{"e":{"enum":["é"]}}}`, `{"a":"ab"}`, "then", 8},
		// The closed object refuses "id" at its "i"; the name is "id" only
		// at its closing quote.
		{`{"$ref":"#/$defs/t","dependentSchemas":{"id":{"$ref":"#/$defs/t"}},"$defs":{"t":{"additionalProperties":false,"properties":{"x":true}}}}`, `{"id":1}`, "dependentSchemas", 4},
		// The member comes first, the failure later.
		{`{"dependentSchemas":{"id":{"properties":{"x":{"enum":[1]}}}}}`, `{"id":1,"x":2}`, "dependentSchemas", 12},
	} {
		compiled := schema.CompileWith(schema.JSONSchema, []byte(tc.schema), schema.Options{})
		require.Empty(t, compiled.Errors)
		res := validator.Validate(compiled.Schema, []byte(tc.instance), validator.Options{})
		i := slices.IndexFunc(res.Findings, func(f schema.Finding) bool { return f.Keyword == tc.keyword })
		require.GreaterOrEqual(t, i, 0, "%s on %s: %s", tc.schema, tc.instance, diffFindings(res.Findings))
		assert.Equal(t, tc.at, res.Findings[i].Offset, "%s on %s", tc.schema, tc.instance)
	}
}

// TestUpgradedEvaluationReportsEveryViolation checks the findings of a
// subschema reached first under anyOf (pass/fail, so it keeps only its
// first violation) and then by the root's allOf (so it must report): every
// violation it made at the value's first byte is reported, in both modes.
// No object satisfies these roots, so they compile as document schemas
// (a tool's root would be refused).
func TestUpgradedEvaluationReportsEveryViolation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ schema, want string }{
		{`{"allOf":[{"anyOf":[{"$ref":"#/$defs/t"}]},{"$ref":"#/$defs/t"}],"$defs":{"t":{"enum":[1],"const":2}}}`, "enum const"},
		{`{"allOf":[{"anyOf":[{"$ref":"#/$defs/t"}]},{"$ref":"#/$defs/t"}],"$defs":{"t":{"if":{"type":"string"},"else":{"type":"boolean"},"anyOf":[{"type":"null"}]}}}`, "anyOf else"},
	} {
		compiled := schema.CompileWith(schema.JSONSchema, []byte(tc.schema), schema.Options{AnyDocument: true})
		require.Empty(t, compiled.Errors)
		for _, opts := range []validator.Options{{}, {StopAtFirst: true}} {
			res := validator.Validate(compiled.Schema, []byte(`{"a":1}`), opts)
			var got []string
			for _, f := range res.Findings {
				if strings.HasPrefix(f.SchemaPath, "/$defs/t/") {
					got = append(got, f.Keyword)
				}
			}
			assert.Equal(t, tc.want, strings.Join(got, " "), "%s, StopAtFirst %v: %s", tc.schema, opts.StopAtFirst, diffFindings(res.Findings))
		}
	}
}

// TestClosedObjectNamesOnlyDeclaredNames checks the message of a name a
// closed object refuses: the allowed names are those properties
// declares, not those required or dependentRequired also mention.
func TestClosedObjectNamesOnlyDeclaredNames(t *testing.T) {
	t.Parallel()
	compiled := schema.CompileWith(schema.JSONSchema,
		[]byte(`{"additionalProperties":false,"properties":{"b":true,"a":true},"required":["abc"],"dependentRequired":{"a":["zz"]}}`), schema.Options{})
	require.Empty(t, compiled.Errors)
	res := validator.Validate(compiled.Schema, []byte(`{"x":1}`), validator.Options{})
	require.Len(t, res.Findings, 2, "%s", diffFindings(res.Findings))
	assert.Equal(t, "additionalProperties", res.Findings[0].Keyword)
	assert.Contains(t, res.Findings[0].Message, `allowed properties are "a", "b".`)
}

// TestUnevaluatedMemberIsNamedByItsOwnName: a member whose value is an
// object or array fails unevaluatedProperties when that value ends; the
// finding names the member, not the last name inside its value (found by
// a review of real schemas: it named "y", or "").
func TestUnevaluatedMemberIsNamedByItsOwnName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ schema, instance, path string }{
		{`{"properties":{"a":true},"unevaluatedProperties":{"type":"object","required":["x"]}}`, `{"a":1,"cc":{"y":1}}`, ""},
		{`{"properties":{"a":true},"unevaluatedProperties":{"type":"object","required":["x"]}}`, `{"a":1,"cc":{}}`, ""},
		{`{"properties":{"a":true},"unevaluatedProperties":{"type":"array","minItems":3}}`, `{"a":1,"cc":[{"z":[1]}]}`, ""},
		{`{"properties":{"o":{"unevaluatedProperties":{"required":["x"]}}}}`, `{"o":{"cc":{"y":{"w":1}}}}`, "/o"},
		{`{"properties":{"a":true},"unevaluatedProperties":{"type":"string"}}`, `{"a":1,"cc":5}`, ""},
	} {
		compiled := schema.Compile(schema.JSONSchema, []byte(c.schema))
		require.Empty(t, compiled.Errors)
		for _, stop := range []bool{false, true} {
			res := validator.Validate(compiled.Schema, []byte(c.instance), validator.Options{StopAtFirst: stop})
			require.Len(t, res.Findings, 1, "%s", diffFindings(res.Findings))
			assert.Equal(t, "unevaluatedProperties", res.Findings[0].Keyword)
			assert.Equal(t, c.path, res.Findings[0].InstancePath)
			assert.Contains(t, res.Findings[0].Message, `has the property "cc", which no other keyword evaluates`, c.instance)
		}
	}
}

// TestSoleBranchReportsAtItsLeaf: when the value's first byte leaves one
// branch of an anyOf or oneOf (the others refuse its type: pydantic's and
// zod's optional fields are anyOf [X, {"type": "null"}]), that branch's
// own findings, at their paths, are the answer, not one summary at the
// value whose reasons say no path (found by a review of real generator
// output: "/o must match at least one of 2 anyOf branches (branch 0: must
// be an integer…)" gave no field to fix). Where two branches stay alive,
// the summary stays; the tool input profile keeps its oneOf finding.
func TestSoleBranchReportsAtItsLeaf(t *testing.T) {
	t.Parallel()
	sub := `{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}`
	optional := `{"$defs":{"Sub":` + sub + `},"properties":{"o":{"anyOf":[{"$ref":"#/$defs/Sub"},{"type":"null"}]},` +
		`"ol":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/Sub"}},{"type":"null"}]},` +
		`"s":{"oneOf":[{"type":"string","maxLength":2},{"type":"null"}]},` +
		`"pet":{"oneOf":[{"type":"object","properties":{"meows":{"type":"boolean"}},"required":["meows"]},{"type":"object","required":["barks"]}]}}}`
	compiled := schema.Compile(schema.JSONSchema, []byte(optional))
	require.Empty(t, compiled.Errors)
	for _, c := range []struct{ instance, keyword, path string }{
		{`{"o":{"x":"1"}}`, "type", "/o/x"},
		{`{"o":{}}`, "required", "/o"},
		{`{"ol":[{"x":1},{"x":"2"}]}`, "type", "/ol/1/x"},
		{`{"s":"long"}`, "maxLength", "/s"},
		{`{"pet":{"meows":"yes"}}`, "oneOf", "/pet"}, // both branches are objects
	} {
		for _, stop := range []bool{false, true} {
			res := validator.Validate(compiled.Schema, []byte(c.instance), validator.Options{StopAtFirst: stop})
			require.Len(t, res.Findings, 1, "%s: %s", c.instance, diffFindings(res.Findings))
			assert.Equal(t, c.keyword, res.Findings[0].Keyword, c.instance)
			assert.Equal(t, c.path, res.Findings[0].InstancePath, c.instance)
		}
	}
	for _, valid := range []string{`{"o":null}`, `{"o":{"x":1}}`, `{"ol":null}`, `{"s":"ab"}`, `{"s":null}`} {
		assert.True(t, validator.Validate(compiled.Schema, []byte(valid), validator.Options{}).Valid(), valid)
	}

	// A sole anyOf branch does not speak for the oneOf beside it, whose
	// two branches both lived past the first byte (found by
	// TestJSONSchemaDifferential seed 4528027833 while this was built).
	both := schema.Compile(schema.JSONSchema, []byte(`{"anyOf":[{"type":"object","maxProperties":3},{"type":"null"}],"oneOf":[{"required":["a"]},{"required":["b"]}]}`))
	require.Empty(t, both.Errors)
	res := validator.Validate(both.Schema, []byte(`{}`), validator.Options{})
	require.Len(t, res.Findings, 1, "%s", diffFindings(res.Findings))
	assert.Equal(t, "oneOf", res.Findings[0].Keyword)

	tool := schema.Compile(schema.ToolInput, []byte(`{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`))
	require.Empty(t, tool.Errors)
	res = validator.Validate(tool.Schema, []byte(`{"v":1.5}`), validator.Options{})
	require.Len(t, res.Findings, 1)
	assert.Equal(t, "oneOf", res.Findings[0].Keyword)
}
