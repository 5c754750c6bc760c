package validator_test

import (
	"bytes"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgate/toolgate/internal/testgen"
)

// This file holds how the JSON Schema profile's tests consult the
// oracle, santhosh-tekuri/jsonschema v6.0.3: the DESIGN.md decisions it
// does not share, on arguments and on schemas.

// jsDiffExceptions are the classes of arguments on which DESIGN.md
// overrides JSON Schema, beyond the subset's (diffExceptions): when one
// applies we must reject with a finding of its keyword, whatever the
// oracle says.
var jsDiffExceptions = append(slices.Clone(diffExceptions), &diffException{
	name:    "argumentsNotAnObject",
	design:  "§3 and §8: tool arguments are always one JSON object, so a root that also allows other types still refuses them; the oracle applies the schema as written",
	applies: func(instance []byte) bool { return !bytes.HasPrefix(bytes.TrimLeft(instance, " \t\r\n"), []byte("{")) },
	keyword: "type",
})

// jsDiffOracleRewrites turn a schema into the one the oracle must see to
// mean what DESIGN.md makes it mean. Each applies at every subschema.
var jsDiffOracleRewrites = []struct {
	name    string
	design  string
	rewrite func(node map[string]any, d testgen.Dialect)
}{
	{
		name:   "formatIsAnAnnotation",
		design: "§8: format is an annotation unless format assertion is asked for, in every dialect; the oracle asserts it before 2019-09, as those drafts left it to implementations",
		rewrite: func(node map[string]any, d testgen.Dialect) {
			if d.Legacy() {
				delete(node, "format")
			}
		},
	},
	{
		name:    "lookAheadsAsAllOf",
		design:  "§8: look-aheads right after a pattern's leading ^ run, and the oracle's Go regexp cannot parse them",
		rewrite: lookAheadsAsAllOf,
	},
}

func jsDiffExceptionFor(instance []byte) *diffException {
	for _, ex := range jsDiffExceptions {
		if ex.applies(instance) {
			return ex
		}
	}
	return nil
}

// jsOracle compiles schemaText with the oracle, rewritten by
// jsDiffOracleRewrites for dialect d.
func jsOracle(schemaText []byte, d testgen.Dialect) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaText))
	if err != nil {
		return nil, err
	}
	jsWalkSchemas(doc, func(node map[string]any) {
		for _, rw := range jsDiffOracleRewrites {
			rw.rewrite(node, d)
		}
	})
	return oracleCompile(doc)
}

// oracleCompile compiles doc, a schema document decoded by
// jsonschema.UnmarshalJSON, with santhosh-tekuri/jsonschema (Draft 2020-12
// unless doc names its dialect): the one compile setup of the oracle and
// of BenchmarkCompare's santhosh.
func oracleCompile(doc any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("schema.json")
}

// jsSchemaKeywords lists where subschemas sit in every dialect: keywords
// holding one schema, an array of schemas, or an object of them.
var (
	jsOneSchema   = []string{"additionalProperties", "additionalItems", "items", "contains", "propertyNames", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	jsSchemaList  = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
	jsSchemaNamed = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)

// jsWalkSchemas calls visit on every schema object in doc (a document
// decoded by jsonschema.UnmarshalJSON or encoding/json), the root first.
func jsWalkSchemas(doc any, visit func(map[string]any)) {
	node, ok := doc.(map[string]any)
	if !ok {
		return
	}
	visit(node)
	for _, kw := range jsOneSchema {
		jsWalkSchemas(node[kw], visit)
	}
	for _, kw := range jsSchemaList {
		if list, ok := node[kw].([]any); ok {
			for _, x := range list {
				jsWalkSchemas(x, visit)
			}
		}
	}
	for _, kw := range jsSchemaNamed {
		if named, ok := node[kw].(map[string]any); ok {
			for _, x := range named {
				jsWalkSchemas(x, visit)
			}
		}
	}
}
