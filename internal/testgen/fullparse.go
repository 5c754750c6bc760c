package testgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// ParseFull reads a JSON Schema document into a FullSchema, so that
// arguments can be generated for schemas written by hand (real MCP tools).
// The dialect comes from $schema (2020-12 when absent); Defs come from
// $defs or definitions at the root; a $ref must name one of them, by
// pointer or anchor (before 2019-09 its siblings are dropped, as those
// drafts ignore them). Draft-04's boolean exclusiveMinimum and
// exclusiveMaximum make its minimum and maximum exclusive. Keywords the
// tree has no field for, or the dialect does not define, are kept as
// Annotations. It fails on what it cannot read: a keyword value of the
// wrong shape, a reference elsewhere, a pattern RE2 refuses.
func ParseFull(schemaJSON []byte) (*FullSchema, error) {
	d := json.NewDecoder(bytes.NewReader(schemaJSON))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return nil, err
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("testgen: the root schema is not an object")
	}
	s := &FullSchema{Dialect: Draft2020}
	if uri, ok := root["$schema"].(string); ok {
		s.WriteSchema = true
		for _, d := range Dialects {
			if strings.TrimSuffix(uri, "#") == strings.TrimSuffix(string(d), "#") {
				s.Dialect = d
			}
		}
		if strings.TrimSuffix(uri, "#") != strings.TrimSuffix(string(s.Dialect), "#") {
			return nil, fmt.Errorf("testgen: unknown $schema %q", uri)
		}
	}
	p := &fullParser{s: s}
	defsName := "$defs"
	if s.Dialect.Legacy() {
		defsName = "definitions"
	}
	if defs, ok := root[defsName].(map[string]any); ok {
		for _, name := range sortedKeys(defs) {
			def := Def{Name: name}
			if obj, ok := defs[name].(map[string]any); ok && !s.Dialect.lacks("$anchor") {
				def.Anchor, _ = obj["$anchor"].(string)
			}
			s.Defs = append(s.Defs, def)
		}
		for i, def := range s.Defs {
			n, err := p.node(defs[def.Name], "/"+defsName+"/"+escapePointer(def.Name))
			if err != nil {
				return nil, err
			}
			s.Defs[i].Schema = n
		}
	}
	var err error
	s.Root, err = p.node(root, "")
	return s, err
}

// fullParser reads the schemas of one document.
type fullParser struct {
	s *FullSchema
}

// handledKeywords are the members node reads itself; every other member
// is an annotation.
var handledKeywords = setOf("type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"multipleOf", "minLength", "maxLength", "pattern", "format", "prefixItems", "items", "additionalItems", "contains",
	"minContains", "maxContains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems", "properties",
	"patternProperties", "additionalProperties", "propertyNames", "required", "dependentRequired", "dependentSchemas",
	"dependencies", "minProperties", "maxProperties", "unevaluatedProperties", "allOf", "anyOf", "oneOf", "not", "if",
	"then", "else", "$ref", "$schema", "$defs", "definitions", "$anchor")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func (p *fullParser) node(doc any, path string) (*FullNode, error) {
	if b, ok := doc.(bool); ok {
		return &FullNode{Bool: &b}, nil
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("testgen: the schema at %q is not an object or a boolean", path)
	}
	n := blank()
	if _, ok := m["$ref"]; ok && p.s.Dialect.Legacy() {
		m = map[string]any{"$ref": m["$ref"]}
	}
	if p.s.Dialect == Draft4 {
		m = draft4Bounds(m)
	}
	for _, k := range sortedKeys(m) {
		if err := p.keyword(n, m, k, path+"/"+escapePointer(k)); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// keyword reads member k of the schema object m into n.
func (p *fullParser) keyword(n *FullNode, m map[string]any, k, path string) error {
	v := m[k]
	if !handledKeywords[k] || p.s.Dialect.lacks(k) {
		n.Annotations = append(n.Annotations, Member{k, FromJSON(v)})
		return nil
	}
	var err error
	ok := true
	switch k {
	case "type":
		switch t := v.(type) {
		case string:
			n.Types = []string{t}
		case []any:
			n.Types, n.TypeList = []string{}, true
			for _, x := range t {
				name, isStr := x.(string)
				ok = ok && isStr
				n.Types = append(n.Types, name)
			}
		default:
			ok = false
		}
	case "enum":
		var list []any
		if list, ok = v.([]any); ok {
			n.Enum = []any{}
			for _, x := range list {
				n.Enum = append(n.Enum, FromJSON(x))
			}
		}
	case "const":
		n.Const, n.HasConst = FromJSON(v), true
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		var x *big.Rat
		if x, ok = number(v); ok {
			*map[string]**big.Rat{"minimum": &n.Minimum, "maximum": &n.Maximum, "exclusiveMinimum": &n.ExclusiveMinimum,
				"exclusiveMaximum": &n.ExclusiveMaximum, "multipleOf": &n.MultipleOf}[k] = x
		}
	case "minLength", "maxLength", "minContains", "maxContains", "minItems", "maxItems", "minProperties", "maxProperties":
		var c int
		if c, ok = countOf(v); ok {
			*map[string]*int{"minLength": &n.MinLength, "maxLength": &n.MaxLength, "minContains": &n.MinContains,
				"maxContains": &n.MaxContains, "minItems": &n.MinItems, "maxItems": &n.MaxItems,
				"minProperties": &n.MinProperties, "maxProperties": &n.MaxProperties}[k] = c
		}
	case "pattern":
		var src string
		if src, ok = v.(string); ok {
			n.Pattern, err = patternFor(src)
		}
	case "format":
		n.Format, ok = v.(string)
	case "uniqueItems":
		n.UniqueItems, ok = v.(bool)
	case "required":
		n.Required, ok = stringList(v)
	case "$ref":
		var ref string
		if ref, ok = v.(string); ok {
			err = p.ref(n, ref, path)
		}
	case "$schema", "$defs", "definitions", "$anchor":
		// Read with the document's Defs.
	default:
		err = p.subschemas(n, m, k, path)
	}
	if err == nil && !ok {
		err = fmt.Errorf("testgen: keyword %q at %q has a value of the wrong shape", k, path)
	}
	return err
}

// subschemas reads the keywords whose values are schemas.
func (p *fullParser) subschemas(n *FullNode, m map[string]any, k, path string) error {
	v := m[k]
	one := func(dst **FullNode) (err error) { *dst, err = p.node(v, path); return err }
	switch k {
	case "items":
		if list, isList := v.([]any); isList && p.s.Dialect != Draft2020 {
			var err error
			n.PrefixItems, err = p.list(list, path)
			return err
		}
		return one(&n.Items)
	case "additionalItems":
		if _, tuple := m["items"].([]any); !tuple {
			n.Annotations = append(n.Annotations, Member{k, FromJSON(v)}) // meaningless without an items array
			return nil
		}
		return one(&n.Items)
	case "prefixItems", "allOf", "anyOf", "oneOf":
		list, isList := v.([]any)
		if !isList {
			return fmt.Errorf("testgen: %q at %q is not an array", k, path)
		}
		nodes, err := p.list(list, path)
		*map[string]*[]*FullNode{"prefixItems": &n.PrefixItems, "allOf": &n.AllOf, "anyOf": &n.AnyOf, "oneOf": &n.OneOf}[k] = nodes
		return err
	case "properties", "dependentSchemas", "patternProperties", "dependencies", "dependentRequired":
		return p.named(n, k, v, path)
	}
	return one(map[string]**FullNode{"contains": &n.Contains, "unevaluatedItems": &n.UnevaluatedItems,
		"additionalProperties": &n.AdditionalProperties, "propertyNames": &n.PropertyNames,
		"unevaluatedProperties": &n.UnevaluatedProperties, "not": &n.Not, "if": &n.If, "then": &n.Then, "else": &n.Else}[k])
}

// draft4Bounds returns the schema object m with each bound spelled as in
// later drafts: minimum with exclusiveMinimum true becomes an
// exclusiveMinimum of its value, and a false exclusiveMinimum goes (the
// same for maximum).
func draft4Bounds(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	for exclusive, inclusive := range draft4Inclusive {
		flag, isBool := m[exclusive].(bool)
		if !isBool {
			continue // absent, or of the wrong shape: read as it is
		}
		delete(out, exclusive)
		if bound, ok := m[inclusive]; ok && flag {
			delete(out, inclusive)
			out[exclusive] = bound
		}
	}
	return out
}

func (p *fullParser) list(list []any, path string) ([]*FullNode, error) {
	out := make([]*FullNode, len(list))
	for i, x := range list {
		var err error
		if out[i], err = p.node(x, path+"/"+strconv.Itoa(i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// named reads the keywords whose values map names to schemas (or, for
// the dependencies, to lists of names).
func (p *fullParser) named(n *FullNode, k string, v any, path string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("testgen: %q at %q is not an object", k, path)
	}
	for _, name := range sortedKeys(m) {
		sub := path + "/" + escapePointer(name)
		if list, isList := stringList(m[name]); isList && (k == "dependencies" || k == "dependentRequired") {
			n.DependentRequired = append(n.DependentRequired, Dependency{name, list})
			continue
		}
		s, err := p.node(m[name], sub)
		if err != nil {
			return err
		}
		switch k {
		case "properties":
			n.Properties = append(n.Properties, FullProp{name, s})
		case "patternProperties":
			pat, err := patternFor(name)
			if err != nil {
				return err
			}
			n.PatternProperties = append(n.PatternProperties, PatternProp{pat, s})
		default:
			n.DependentSchemas = append(n.DependentSchemas, FullProp{name, s})
		}
	}
	if k == "properties" && n.Properties == nil {
		n.Properties = []FullProp{}
	}
	return nil
}

// ref reads a reference to one of the document's Defs.
func (p *fullParser) ref(n *FullNode, ref, path string) error {
	for _, d := range p.s.Defs {
		switch ref {
		case "#/$defs/" + escapePointer(d.Name), "#/definitions/" + escapePointer(d.Name):
			n.Ref = d.Name
			return nil
		case "#" + d.Anchor:
			if d.Anchor != "" {
				n.Ref, n.ByAnchor = d.Name, true
				return nil
			}
		}
	}
	return fmt.Errorf("testgen: the reference %q at %q names no definition of the document", ref, path)
}

// patternFor returns the generator's own pattern of that source, with
// its samples, or compiles a new one.
func patternFor(source string) (*Pattern, error) {
	for _, p := range patterns {
		if p.Source == source {
			return p, nil
		}
	}
	return NewPattern(source)
}

func number(v any) (*big.Rat, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(num))
}

func countOf(v any) (int, bool) {
	x, ok := number(v)
	if !ok || !x.IsInt() || x.Sign() < 0 || !x.Num().IsInt64() {
		return 0, false
	}
	return int(x.Num().Int64()), true
}

func stringList(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := []string{}
	for _, x := range list {
		s, isStr := x.(string)
		if !isStr {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
