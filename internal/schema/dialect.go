package schema

import (
	"embed"
	"strings"
)

// Dialect is a JSON Schema draft: which keywords exist and what they mean.
type Dialect uint8

// The dialects the JSON Schema profile enforces.
const (
	// Draft2020 is JSON Schema Draft 2020-12, the dialect of a schema
	// without $schema (as MCP 2025-11-25 makes it for inputSchema).
	Draft2020 Dialect = iota + 1
	// Draft2019 is JSON Schema Draft 2019-09.
	Draft2019
	// Draft7 is JSON Schema draft-07.
	Draft7
	// Draft6 is JSON Schema draft-06: draft-07 without if/then/else and
	// the annotations draft-07 added.
	Draft6
	// Draft4 is JSON Schema draft-04: draft-06 without const, contains,
	// propertyNames, examples and boolean schemas, with id for $id, and
	// exclusiveMaximum and exclusiveMinimum as booleans that make maximum
	// and minimum exclusive.
	Draft4
)

// String returns the dialect's usual name.
func (d Dialect) String() string {
	switch d {
	case Draft2020:
		return "2020-12"
	case Draft2019:
		return "2019-09"
	case Draft7:
		return "draft-07"
	case Draft6:
		return "draft-06"
	case Draft4:
		return "draft-04"
	}
	return "unknown"
}

// dialectInfo describes one dialect.
type dialectInfo struct {
	dialect Dialect
	// metaURI is the dialect's meta-schema, as $schema names it (without
	// the empty fragment).
	metaURI string
	// vocabularies are the dialect's standard vocabularies, by URI, with
	// the keywords each one defines. Draft-07 has none: every keyword is
	// always active.
	vocabularies map[string][]string
	// keywords lists every keyword the dialect defines, active or not.
	keywords map[string]bool
}

var dialects = func() map[Dialect]*dialectInfo {
	d2020 := &dialectInfo{dialect: Draft2020, metaURI: "https://json-schema.org/draft/2020-12/schema",
		vocabularies: map[string][]string{
			"https://json-schema.org/draft/2020-12/vocab/core": {"$schema", "$id", "$ref", "$anchor", "$dynamicRef",
				"$dynamicAnchor", "$vocabulary", "$comment", "$defs"},
			"https://json-schema.org/draft/2020-12/vocab/applicator": {"prefixItems", "items", "contains",
				"additionalProperties", "properties", "patternProperties", "dependentSchemas", "propertyNames",
				"if", "then", "else", "allOf", "anyOf", "oneOf", "not"},
			"https://json-schema.org/draft/2020-12/vocab/unevaluated": {"unevaluatedItems", "unevaluatedProperties"},
			"https://json-schema.org/draft/2020-12/vocab/validation": {"type", "const", "enum", "multipleOf",
				"maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
				"maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties",
				"minProperties", "required", "dependentRequired"},
			"https://json-schema.org/draft/2020-12/vocab/meta-data": {"title", "description", "default",
				"deprecated", "readOnly", "writeOnly", "examples"},
			"https://json-schema.org/draft/2020-12/vocab/format-annotation": {"format"},
			"https://json-schema.org/draft/2020-12/vocab/format-assertion":  {"format"},
			"https://json-schema.org/draft/2020-12/vocab/content":           {"contentEncoding", "contentMediaType", "contentSchema"},
		}}
	d2019 := &dialectInfo{dialect: Draft2019, metaURI: "https://json-schema.org/draft/2019-09/schema",
		vocabularies: map[string][]string{
			"https://json-schema.org/draft/2019-09/vocab/core": {"$schema", "$id", "$ref", "$anchor", "$recursiveRef",
				"$recursiveAnchor", "$vocabulary", "$comment", "$defs"},
			"https://json-schema.org/draft/2019-09/vocab/applicator": {"additionalItems", "unevaluatedItems", "items",
				"contains", "additionalProperties", "unevaluatedProperties", "properties", "patternProperties",
				"dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not"},
			"https://json-schema.org/draft/2019-09/vocab/validation": {"type", "const", "enum", "multipleOf",
				"maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
				"maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties",
				"minProperties", "required", "dependentRequired"},
			"https://json-schema.org/draft/2019-09/vocab/meta-data": {"title", "description", "default",
				"deprecated", "readOnly", "writeOnly", "examples"},
			"https://json-schema.org/draft/2019-09/vocab/format":  {"format"},
			"https://json-schema.org/draft/2019-09/vocab/content": {"contentEncoding", "contentMediaType", "contentSchema"},
		}}
	d7 := &dialectInfo{dialect: Draft7, metaURI: "http://json-schema.org/draft-07/schema"}
	d7.keywords = setOf("$schema", "$id", "$ref", "$comment", "definitions", "title", "description", "default",
		"readOnly", "writeOnly", "examples", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
		"exclusiveMinimum", "maxLength", "minLength", "pattern", "additionalItems", "items", "maxItems",
		"minItems", "uniqueItems", "contains", "maxProperties", "minProperties", "required",
		"additionalProperties", "properties", "patternProperties", "dependencies", "propertyNames", "const",
		"enum", "type", "format", "contentMediaType", "contentEncoding", "if", "then", "else", "allOf", "anyOf",
		"oneOf", "not")
	d6 := &dialectInfo{dialect: Draft6, metaURI: "http://json-schema.org/draft-06/schema",
		keywords: without(d7.keywords, "$comment", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "if", "then", "else")}
	d4 := &dialectInfo{dialect: Draft4, metaURI: "http://json-schema.org/draft-04/schema",
		keywords: without(d6.keywords, "$id", "const", "contains", "propertyNames", "examples")}
	d4.keywords["id"] = true
	for _, d := range []*dialectInfo{d2020, d2019} {
		// dependencies was split into dependentRequired and
		// dependentSchemas; the newer meta-schemas still describe it, and
		// real schemas still use it, so it keeps its draft-07 meaning.
		d.keywords = map[string]bool{"dependencies": true}
		for _, kws := range d.vocabularies {
			for _, k := range kws {
				d.keywords[k] = true
			}
		}
	}
	return map[Dialect]*dialectInfo{Draft2020: d2020, Draft2019: d2019, Draft7: d7, Draft6: d6, Draft4: d4}
}()

// without returns a copy of set without the names drop.
func without(set map[string]bool, drop ...string) map[string]bool {
	out := make(map[string]bool, len(set))
	for k := range set {
		out[k] = true
	}
	for _, k := range drop {
		delete(out, k)
	}
	return out
}

// legacy reports whether d is draft-07 or older: $ref overrides its
// siblings, definitions holds subschemas, an identifier with a fragment
// is an anchor, and there are no vocabularies.
func (d Dialect) legacy() bool { return d == Draft7 || d == Draft6 || d == Draft4 }

// idKeyword is the keyword that identifies a schema resource in d.
func (d Dialect) idKeyword() string {
	if d == Draft4 {
		return "id"
	}
	return "$id"
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// dialectByMetaURI returns the dialect whose meta-schema is uri (with or
// without an empty fragment). The scheme of json-schema.org does not
// matter: real schemas write https://json-schema.org/draft-07/schema# and
// http://json-schema.org/draft/2020-12/schema, which other validators
// (santhosh-tekuri/jsonschema among them) read as those dialects, and which
// name no other document.
func dialectByMetaURI(uri string) (Dialect, bool) {
	uri = withoutScheme(strings.TrimSuffix(uri, "#"))
	for d, info := range dialects {
		if withoutScheme(info.metaURI) == uri {
			return d, true
		}
	}
	return 0, false
}

// withoutScheme returns a json-schema.org URI without its http or https
// scheme, and any other URI as it is.
func withoutScheme(uri string) string {
	for _, scheme := range []string{"https://", "http://"} {
		if rest, ok := strings.CutPrefix(uri, scheme); ok && strings.HasPrefix(rest, "json-schema.org/") {
			return "//" + rest
		}
	}
	return uri
}

// metaschemaFS holds the official meta-schemas (see metaschemas/LICENSE),
// so that no $schema or $ref to them needs the network.
//
//go:embed metaschemas
var metaschemaFS embed.FS

// builtinDocuments maps the URI of every embedded meta-schema document to
// its file.
var builtinDocuments = map[string]string{
	"https://json-schema.org/draft/2020-12/schema":                 "metaschemas/draft2020-12/schema.json",
	"https://json-schema.org/draft/2020-12/meta/core":              "metaschemas/draft2020-12/meta/core.json",
	"https://json-schema.org/draft/2020-12/meta/applicator":        "metaschemas/draft2020-12/meta/applicator.json",
	"https://json-schema.org/draft/2020-12/meta/unevaluated":       "metaschemas/draft2020-12/meta/unevaluated.json",
	"https://json-schema.org/draft/2020-12/meta/validation":        "metaschemas/draft2020-12/meta/validation.json",
	"https://json-schema.org/draft/2020-12/meta/meta-data":         "metaschemas/draft2020-12/meta/meta-data.json",
	"https://json-schema.org/draft/2020-12/meta/format-annotation": "metaschemas/draft2020-12/meta/format-annotation.json",
	"https://json-schema.org/draft/2020-12/meta/format-assertion":  "metaschemas/draft2020-12/meta/format-assertion.json",
	"https://json-schema.org/draft/2020-12/meta/content":           "metaschemas/draft2020-12/meta/content.json",
	"https://json-schema.org/draft/2019-09/schema":                 "metaschemas/draft2019-09/schema.json",
	"https://json-schema.org/draft/2019-09/meta/core":              "metaschemas/draft2019-09/meta/core.json",
	"https://json-schema.org/draft/2019-09/meta/applicator":        "metaschemas/draft2019-09/meta/applicator.json",
	"https://json-schema.org/draft/2019-09/meta/validation":        "metaschemas/draft2019-09/meta/validation.json",
	"https://json-schema.org/draft/2019-09/meta/meta-data":         "metaschemas/draft2019-09/meta/meta-data.json",
	"https://json-schema.org/draft/2019-09/meta/format":            "metaschemas/draft2019-09/meta/format.json",
	"https://json-schema.org/draft/2019-09/meta/content":           "metaschemas/draft2019-09/meta/content.json",
	"http://json-schema.org/draft-07/schema":                       "metaschemas/draft-07/schema.json",
	"http://json-schema.org/draft-06/schema":                       "metaschemas/draft-06/schema.json",
	"http://json-schema.org/draft-04/schema":                       "metaschemas/draft-04/schema.json",
}

// vocabulary is the set of keywords a schema resource's meta-schema
// activates, and whether format is an assertion.
type vocabulary struct {
	dialect Dialect
	metaURI string          // the meta-schema that decides it
	active  map[string]bool // nil: every keyword of the dialect
	// standard lists the URIs of the dialect's vocabularies that active
	// holds the keywords of, sorted (nil when active is).
	standard []string
	format   bool // format asserts (format-assertion vocabulary)
}

// isActive reports whether keyword kw is in effect. dependencies, which no
// vocabulary of the newer dialects lists, follows the applicator and
// validation vocabularies it was split into.
func (v *vocabulary) isActive(kw string) bool {
	if !dialects[v.dialect].keywords[kw] {
		return false
	}
	if kw == "dependencies" && v.active != nil {
		return v.active["dependentSchemas"] && v.active["dependentRequired"]
	}
	return v.active == nil || v.active[kw]
}
