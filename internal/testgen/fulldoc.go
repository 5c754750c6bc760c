package testgen

import (
	"math/big"
	"strings"
)

// Doc returns the schema document as a JSON value (an Object, or a bool
// for a boolean root), for Compact or Encode, spelled for s.Dialect:
// prefixItems and items in 2020-12, an items array and additionalItems
// before; $defs, or definitions before 2019-09; dependentRequired and
// dependentSchemas, or dependencies before 2019-09; and before 2019-09,
// where $ref overrides its siblings, a reference beside other keywords is
// written as allOf: [{"$ref": …}]. Draft-04, which has no boolean
// schemas, no const and only boolean exclusive bounds, gets {} for true
// and {"not": {}} for false (but for additionalProperties and
// additionalItems, which take a boolean), a one-value enum for a const,
// and an exclusive bound as minimum or maximum with exclusiveMinimum or
// exclusiveMaximum true.
func (s *FullSchema) Doc() Object {
	o := s.node(s.Root).(Object)
	var head Object
	if s.WriteSchema {
		head = append(head, Member{"$schema", string(s.Dialect)})
	}
	if len(s.Defs) > 0 {
		defs := Object{}
		for _, d := range s.Defs {
			defs = append(defs, Member{d.Name, s.defDoc(d)})
		}
		name := "$defs"
		if s.Dialect.Legacy() {
			name = "definitions"
		}
		head = append(head, Member{name, defs})
	}
	return append(head, o...)
}

func (s *FullSchema) defDoc(d Def) any {
	v := s.node(d.Schema)
	if o, ok := v.(Object); ok && d.Anchor != "" {
		return append(Object{{"$anchor", d.Anchor}}, o...)
	}
	return v
}

// refText returns the reference to the Def called name.
func (s *FullSchema) refText(name string, byAnchor bool) string {
	d := s.Def(name)
	switch {
	case byAnchor && d != nil && d.Anchor != "":
		return "#" + d.Anchor
	case s.Dialect.Legacy():
		return "#/definitions/" + escapePointer(name)
	}
	return "#/$defs/" + escapePointer(name)
}

func escapePointer(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

// node returns the JSON value of n.
func (s *FullSchema) node(n *FullNode) any {
	if n == nil {
		return Object{}
	}
	if n.Bool != nil {
		switch {
		case s.Dialect != Draft4:
			return *n.Bool
		case *n.Bool:
			return Object{}
		}
		return Object{{"not", Object{}}}
	}
	var o Object
	add := func(name string, v any) { o = append(o, Member{name, v}) }
	if n.Types != nil {
		if n.TypeList {
			list := make([]any, len(n.Types))
			for i, t := range n.Types {
				list[i] = t
			}
			add("type", list)
		} else {
			add("type", n.Types[0])
		}
	}
	if n.Enum != nil {
		add("enum", Clone(n.Enum))
	}
	switch {
	case n.HasConst && s.Dialect == Draft4:
		if n.Enum != nil {
			panic("testgen: draft-04 has no const to write beside an enum")
		}
		add("enum", []any{Clone(n.Const)})
	case n.HasConst:
		add("const", Clone(n.Const))
	}
	o = append(o, s.numberBounds(n)...)
	counts := func(pairs ...any) {
		for i := 0; i < len(pairs); i += 2 {
			if c := pairs[i+1].(int); c >= 0 {
				add(pairs[i].(string), big.NewRat(int64(c), 1))
			}
		}
	}
	counts("minLength", n.MinLength, "maxLength", n.MaxLength)
	if n.Pattern != nil {
		add("pattern", n.Pattern.Source)
	}
	if n.Format != "" {
		add("format", n.Format)
	}
	s.arrayDoc(n, add)
	counts("minItems", n.MinItems, "maxItems", n.MaxItems, "minContains", n.MinContains, "maxContains", n.MaxContains)
	if n.UniqueItems {
		add("uniqueItems", true)
	}
	s.objectDoc(n, add)
	counts("minProperties", n.MinProperties, "maxProperties", n.MaxProperties)
	for _, a := range []struct {
		name string
		list []*FullNode
	}{{"allOf", n.AllOf}, {"anyOf", n.AnyOf}, {"oneOf", n.OneOf}} {
		if a.list != nil {
			add(a.name, s.list(a.list))
		}
	}
	for _, a := range []struct {
		name string
		x    *FullNode
	}{{"not", n.Not}, {"if", n.If}, {"then", n.Then}, {"else", n.Else},
		{"unevaluatedItems", n.UnevaluatedItems}, {"unevaluatedProperties", n.UnevaluatedProperties}} {
		if a.x != nil {
			add(a.name, s.node(a.x))
		}
	}
	o = append(o, Clone(n.Annotations).(Object)...)
	if n.Ref == "" {
		if o == nil {
			return Object{}
		}
		return o
	}
	ref := Member{"$ref", s.refText(n.Ref, n.ByAnchor)}
	switch {
	case len(o) == 0:
		return Object{ref}
	case s.Dialect.Legacy():
		for i, m := range o {
			if m.Name == "allOf" {
				o[i].Value = append([]any{Object{ref}}, m.Value.([]any)...)
				return o
			}
		}
		return append(Object{{"allOf", []any{Object{ref}}}}, o...)
	}
	return append(Object{ref}, o...)
}

// numberBounds returns the members of n's numeric bounds.
func (s *FullSchema) numberBounds(n *FullNode) Object {
	var o Object
	for _, b := range []struct {
		name      string
		x         *big.Rat
		exclusive bool
	}{{"minimum", n.Minimum, false}, {"maximum", n.Maximum, false}, {"exclusiveMinimum", n.ExclusiveMinimum, true},
		{"exclusiveMaximum", n.ExclusiveMaximum, true}, {"multipleOf", n.MultipleOf, false}} {
		switch {
		case b.x == nil:
		case b.exclusive && s.Dialect == Draft4:
			inclusive := draft4Inclusive[b.name]
			if _, both := o.Get(inclusive); both {
				panic("testgen: draft-04 has one " + inclusive + " for an inclusive and an exclusive bound")
			}
			o = append(o, Member{inclusive, new(big.Rat).Set(b.x)}, Member{b.name, true})
		default:
			o = append(o, Member{b.name, new(big.Rat).Set(b.x)})
		}
	}
	return o
}

// schemaOrBool returns the JSON value of n, as a boolean for a boolean
// schema in every dialect: for additionalProperties and additionalItems,
// which take one even in draft-04.
func (s *FullSchema) schemaOrBool(n *FullNode) any {
	if n.Bool != nil {
		return *n.Bool
	}
	return s.node(n)
}

func (s *FullSchema) list(nodes []*FullNode) []any {
	out := make([]any, len(nodes))
	for i, x := range nodes {
		out[i] = s.node(x)
	}
	return out
}

func (s *FullSchema) arrayDoc(n *FullNode, add func(string, any)) {
	switch {
	case len(n.PrefixItems) > 0 && s.Dialect == Draft2020:
		add("prefixItems", s.list(n.PrefixItems))
		if n.Items != nil {
			add("items", s.node(n.Items))
		}
	case len(n.PrefixItems) > 0:
		add("items", s.list(n.PrefixItems))
		if n.Items != nil {
			add("additionalItems", s.schemaOrBool(n.Items))
		}
	case n.Items != nil:
		add("items", s.node(n.Items))
	}
	if n.Contains != nil {
		add("contains", s.node(n.Contains))
	}
}

func (s *FullSchema) objectDoc(n *FullNode, add func(string, any)) {
	if n.Properties != nil {
		props := Object{}
		for _, p := range n.Properties {
			props = append(props, Member{p.Name, s.node(p.Schema)})
		}
		add("properties", props)
	}
	if n.PatternProperties != nil {
		pp := Object{}
		for _, p := range n.PatternProperties {
			if _, dup := pp.Get(p.Pattern.Source); !dup {
				pp = append(pp, Member{p.Pattern.Source, s.node(p.Schema)})
			}
		}
		add("patternProperties", pp)
	}
	if n.AdditionalProperties != nil {
		add("additionalProperties", s.schemaOrBool(n.AdditionalProperties))
	}
	if n.PropertyNames != nil {
		add("propertyNames", s.node(n.PropertyNames))
	}
	if n.Required != nil {
		add("required", strings2any(n.Required))
	}
	var required, schemas Object
	for _, d := range n.DependentRequired {
		required = append(required, Member{d.Name, strings2any(d.Requires)})
	}
	for _, d := range n.DependentSchemas {
		schemas = append(schemas, Member{d.Name, s.node(d.Schema)})
	}
	switch {
	case s.Dialect.Legacy() && len(required)+len(schemas) > 0:
		add("dependencies", append(required, schemas...))
	case !s.Dialect.Legacy():
		if required != nil {
			add("dependentRequired", required)
		}
		if schemas != nil {
			add("dependentSchemas", schemas)
		}
	}
}

func strings2any(list []string) []any {
	out := make([]any, len(list))
	for i, x := range list {
		out[i] = x
	}
	return out
}

// String returns the compact text of the schema document.
func (s *FullSchema) String() string { return string(Compact(s.Doc())) }
