package schema

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// This file holds how the JSON Schema profile compiles each keyword. The
// meta-schema check has already refused values of the wrong shape, so a
// wrong shape here is ignored rather than reported twice (it can still
// happen under a custom meta-schema that does not check it).

// jsKeywords is the JSON Schema profile's keyword table. A keyword with
// no compile function changes nothing about validation: core keywords
// resolved elsewhere and annotations. Which dialects define a keyword is
// dialectInfo.keywords' to say.
var jsKeywords map[string]jsKeyword

func init() {
	jsKeywords = map[string]jsKeyword{
		"type":     {compile: jsType},
		"enum":     {compile: jsEnum},
		"const":    {compile: jsConst},
		"format":   {compile: jsFormat},
		"pattern":  {compile: jsPattern},
		"required": {compile: jsRequired},

		"multipleOf": {compile: jsNumber}, "maximum": {compile: jsNumber}, "minimum": {compile: jsNumber},
		"exclusiveMaximum": {compile: jsNumber}, "exclusiveMinimum": {compile: jsNumber},

		"maxLength": {compile: jsCount}, "minLength": {compile: jsCount},
		"maxItems": {compile: jsCount}, "minItems": {compile: jsCount},
		"maxProperties": {compile: jsCount}, "minProperties": {compile: jsCount},
		"minContains": {compile: jsCount}, "maxContains": {compile: jsCount},
		"uniqueItems": {compile: jsUniqueItems},

		"properties":            {compile: jsProperties},
		"patternProperties":     {compile: jsPatternProperties},
		"additionalProperties":  {compile: jsSingle},
		"propertyNames":         {compile: jsSingle},
		"unevaluatedProperties": {compile: jsSingle},
		"dependentRequired":     {compile: jsDependentRequired},
		"dependentSchemas":      {compile: jsDependentSchemas},
		"dependencies":          {compile: jsDependencies},

		"prefixItems":      {compile: jsPrefixItems},
		"items":            {compile: jsItems},
		"additionalItems":  {compile: jsAdditionalItems},
		"contains":         {compile: jsSingle},
		"unevaluatedItems": {compile: jsSingle},

		"allOf": {compile: jsAllOf}, "anyOf": {compile: jsBranches}, "oneOf": {compile: jsBranches},
		"not": {compile: jsSingle}, "if": {compile: jsSingle}, "then": {compile: jsSingle}, "else": {compile: jsSingle},

		"$ref":          {compile: jsRef},
		"$dynamicRef":   {compile: jsRef},
		"$recursiveRef": {compile: jsRef},

		// Core keywords handled when indexing, and annotations.
		"$schema": {}, "$id": {}, "id": {}, "$anchor": {}, "$dynamicAnchor": {},
		"$recursiveAnchor": {}, "$vocabulary": {}, "$comment": {},
		"$defs": {}, "definitions": {},
		"title": {}, "description": {}, "default": {}, "examples": {}, "deprecated": {},
		"readOnly": {}, "writeOnly": {}, "contentEncoding": {}, "contentMediaType": {},
		"contentSchema": {},
	}
}

func jsType(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	var t Types
	switch v.Kind {
	case jsontok.String:
		t = typeByName(v.Str)
	case jsontok.Array:
		for _, item := range v.Items {
			if item.Kind == jsontok.String {
				t |= typeByName(item.Str)
			}
		}
	default:
		return
	}
	if t&TypeNumber != 0 {
		t |= TypeInteger // every integer is a number
	}
	s.n.Types = t
}

func jsEnum(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind == jsontok.Array {
		s.n.Enum = c.enum(v.Items, s.child(kw), "enum")
	}
}

func jsConst(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	s.n.Const = c.enum([]*jsondoc.Value{v}, s.child(kw), "const")
}

func jsNumber(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind != jsontok.Number {
		return
	}
	d := c.number(v, s.child(kw), kw)
	switch kw {
	case "multipleOf":
		if d != nil && (d.Neg || d.IsZero()) {
			return
		}
		if max := c.opts.Limits.MaxMultipleOfDigits; d != nil && d.N > int64(max) {
			c.limit(s.child(kw), "multipleOf has %d significant digits, past the limit of %d (Limits.MaxMultipleOfDigits): "+
				"checking a multiple of it would cost work per digit of every number that grows with them; round it.", d.N, max)
			return
		}
		s.n.MultipleOf = d
	case "maximum":
		if s.draft4Exclusive("exclusiveMaximum") {
			s.n.ExclusiveMaximum = d
		} else {
			s.n.Maximum = d
		}
	case "minimum":
		if s.draft4Exclusive("exclusiveMinimum") {
			s.n.ExclusiveMinimum = d
		} else {
			s.n.Minimum = d
		}
	case "exclusiveMaximum":
		s.n.ExclusiveMaximum = d
	case "exclusiveMinimum":
		s.n.ExclusiveMinimum = d
	}
}

// draft4Exclusive reports whether s is a draft-04 schema whose boolean
// kw (exclusiveMaximum or exclusiveMinimum) is true, making its maximum
// or minimum exclusive. In the other dialects kw is a number of its own;
// in draft-04 a number there fails the meta-schema.
func (s *nodeScope) draft4Exclusive(kw string) bool {
	v := s.loc.v.Get(kw)
	return s.vocab.dialect == Draft4 && v != nil && v.Kind == jsontok.True
}

func jsCount(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	n := s.n
	k, ok := count(n, kw, v)
	if !ok {
		return
	}
	switch kw {
	case "maxLength":
		n.MaxLength = k
	case "minLength":
		n.MinLength = k
	case "maxItems":
		n.MaxItems = k
	case "minItems":
		n.MinItems = k
	case "maxProperties":
		n.MaxProperties = k
	case "minProperties":
		n.MinProperties = k
	case "minContains":
		n.MinContains = k
	case "maxContains":
		n.MaxContains = k
	}
}

func jsUniqueItems(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	s.n.UniqueItems = v.Kind == jsontok.True
}

func jsPattern(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind == jsontok.String {
		s.n.Pattern = c.pattern(s.child(kw), kw, v.Str)
	}
}

func jsFormat(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind != jsontok.String || !c.opts.FormatAssertion && !s.vocab.format {
		return // an annotation
	}
	check, ok := lookupFormat(s.vocab.dialect, v.Str)
	if !ok {
		c.unsupported(s.child(kw), kw, "The format %q is not one toolgate can assert; with format assertion on, every format must be a standard one of JSON Schema (one some dialect defines, such as date-time, email, uri or uuid).", v.Str)
		return
	}
	s.n.Format = &Format{Name: v.Str, Check: check}
}

func jsRequired(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind != jsontok.Array {
		return
	}
	for _, item := range v.Items {
		if item.Kind == jsontok.String {
			s.keys = append(s.keys, Key{Name: item.Str, Required: true})
		}
	}
}

func jsDependentRequired(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind != jsontok.Object {
		return
	}
	for _, m := range untilEnded(c.stop, v.Members) {
		if m.Value.Kind == jsontok.Array {
			dependentRequired(s, kw, m.Name, m.Value)
		}
	}
}

// dependentRequired adds one dependentRequired entry, written under kw:
// when name is present, every string of list must be too.
func dependentRequired(s *nodeScope, kw, name string, list *jsondoc.Value) {
	d := dependency{name: name}
	s.keys = append(s.keys, Key{Name: name})
	for _, item := range list.Items {
		if item.Kind == jsontok.String {
			d.requires = append(d.requires, item.Str)
			s.keys = append(s.keys, Key{Name: item.Str})
		}
	}
	s.depNames = append(s.depNames, d)
	s.n.DependentRequired = append(s.n.DependentRequired, Dependency{Keyword: kw})
}

func jsDependentSchemas(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind != jsontok.Object {
		return
	}
	for _, m := range untilEnded(c.stop, v.Members) {
		dependentSchema(c, s, kw, m)
	}
}

// dependentSchema adds one dependentSchemas entry.
func dependentSchema(c *jsCompiler, s *nodeScope, kw string, m jsondoc.Member) {
	sub := c.sub(s, kw, "/"+jsondoc.EscapePointerToken(m.Name), m.Value)
	s.keys = append(s.keys, Key{Name: m.Name})
	s.depSchemaNames = append(s.depSchemaNames, m.Name)
	s.n.DependentSchemas = append(s.n.DependentSchemas, DependentSchema{Schema: sub, Keyword: kw})
}

// jsDependencies is draft-07's dependencies (kept in the newer dialects,
// whose meta-schemas still describe it): a list of names is
// dependentRequired, a schema is dependentSchemas.
func jsDependencies(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind != jsontok.Object {
		return
	}
	for _, m := range untilEnded(c.stop, v.Members) {
		if m.Value.Kind == jsontok.Array {
			dependentRequired(s, kw, m.Name, m.Value)
		} else {
			dependentSchema(c, s, kw, m)
		}
	}
}

func jsProperties(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind != jsontok.Object {
		return
	}
	for _, m := range untilEnded(c.stop, v.Members) {
		sub := c.sub(s, kw, "/"+jsondoc.EscapePointerToken(m.Name), m.Value)
		s.keys = append(s.keys, Key{Name: m.Name, Schema: sub, Declared: true})
	}
}

func jsPatternProperties(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind != jsontok.Object || len(v.Members) == 0 {
		return
	}
	pp := &PatternProperties{}
	var exprs []string
	failed := false
	for _, m := range untilEnded(c.stop, v.Members) {
		suffix := "/" + jsondoc.EscapePointerToken(m.Name)
		p := c.pattern(s.child(kw)+suffix, kw, m.Name)
		failed = failed || p == nil
		pp.Patterns = append(pp.Patterns, p)
		pp.Schemas = append(pp.Schemas, c.sub(s, kw, suffix, m.Value))
		exprs = append(exprs, m.Name)
	}
	if failed {
		return // each refused pattern has its finding
	}
	if pp.Set = c.regexpSet(s.child(kw), kw, exprs); pp.Set == nil {
		return
	}
	s.n.PatternProperties = pp
}

// jsSingle compiles a keyword whose value is one subschema.
func jsSingle(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	sub := c.sub(s, kw, "", v)
	n := s.n
	switch kw {
	case "additionalProperties":
		n.Additional, n.AdditionalKeyword = sub, kw
	case "propertyNames":
		n.PropertyNames = sub
	case "unevaluatedProperties":
		n.UnevaluatedProperties = sub
	case "contains":
		n.Contains, n.ContainsAnnotates = sub, s.vocab.dialect == Draft2020
	case "unevaluatedItems":
		n.UnevaluatedItems = sub
	case "not":
		n.Not = sub
	case "if":
		n.If = sub
	case "then":
		n.Then = sub
	case "else":
		n.Else = sub
	}
}

// subArray compiles a keyword whose value is an array of subschemas.
func (c *jsCompiler) subArray(s *nodeScope, kw string, v *jsondoc.Value) []*Node {
	if v.Kind != jsontok.Array {
		return nil
	}
	out := make([]*Node, len(v.Items))
	for i, item := range v.Items {
		if c.spare != nil {
			out[i] = c.spare // past the limit: no index to format
			continue
		}
		out[i] = c.sub(s, kw, "/"+strconv.Itoa(i), item)
	}
	return out
}

func jsPrefixItems(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	s.n.PrefixItems, s.n.PrefixKeyword = c.subArray(s, kw, v), kw
}

// jsItems compiles items: one schema for every element (after
// prefixItems), or, before 2020-12, an array of schemas by position.
func jsItems(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind == jsontok.Array {
		if s.vocab.dialect != Draft2020 {
			s.n.PrefixItems, s.n.PrefixKeyword = c.subArray(s, kw, v), kw
		}
		return
	}
	s.n.Items, s.n.ItemsKeyword = c.sub(s, kw, "", v), kw
}

// jsAdditionalItems applies to the elements after an array-form items,
// and means nothing otherwise.
func jsAdditionalItems(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if items := s.loc.v.Get("items"); items != nil && items.Kind == jsontok.Array {
		s.n.Items, s.n.ItemsKeyword = c.sub(s, kw, "", v), kw
	}
}

func jsAllOf(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	s.n.AllOf = c.subArray(s, kw, v)
}

// jsBranches compiles anyOf and oneOf: branches that behave alike (the
// same text in the same resource and context) share one evaluation.
func jsBranches(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	nodes := c.subArray(s, kw, v)
	if nodes == nil || c.spare != nil {
		return // past the limit, the branches are not told apart
	}
	keys := make([]string, len(nodes))
	base := ""
	if s.pos != nil {
		base = s.pos.base
	}
	for i, item := range v.Items {
		keys[i] = base + "\x00" + s.ctx.key + "\x00" + behaviourKey(item)
	}
	if kw == "anyOf" {
		s.n.AnyOf, s.n.AnyOfCount = distinctBranches(nodes, keys), len(nodes)
	} else {
		s.n.OneOf, s.n.OneOfCount = distinctBranches(nodes, keys), len(nodes)
	}
}

// jsRef compiles $ref, $dynamicRef and $recursiveRef.
func jsRef(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value) {
	if v.Kind == jsontok.String {
		c.ref(s, kw, v)
	}
}

// ref resolves one reference and compiles its target in the current
// dynamic context.
func (c *jsCompiler) ref(s *nodeScope, kw string, v *jsondoc.Value) {
	path := s.child(kw)
	if c.refs++; c.refs > c.opts.Limits.MaxRefs {
		if c.refs == c.opts.Limits.MaxRefs+1 {
			c.limit(path, "The schema has more than %d references, past the limit.", c.opts.Limits.MaxRefs)
		}
		return
	}
	base := defaultBase
	if s.pos != nil {
		base = s.pos.base
	}
	ref := v.Str
	if kw == "$recursiveRef" && ref != "#" {
		// Draft 2019-09 §8.2.4.2.1 defines the keyword for "#" alone and
		// leaves every other value to the implementation: legal, and
		// nothing toolgate can honour as the schema's author meant it.
		c.errorf(CodeUnsupported, path, kw, "The reference %q cannot be followed: $recursiveRef is defined only for \"#\"; use $ref for any other target.", v.Str)
		return
	}
	uri, err := resolveURI(base, ref)
	if err != nil {
		c.malformed(path, kw, "The reference %q cannot be resolved: %v.", v.Str, err)
		return
	}
	target, rerr := c.reg.lookup(uri, s.vocab.dialect)
	if rerr != nil {
		c.errorf(rerr.code, path, kw, "The reference %q cannot be followed: %s.", v.Str, rerr.msg)
		return
	}
	target = c.dynamicTarget(s, kw, uri, target)
	if rerr := c.checkTarget(target); rerr != nil {
		c.errorf(rerr.code, path, kw, "The reference %q cannot be followed: %s.", v.Str, rerr.msg)
		return
	}
	s.n.Refs = append(s.n.Refs, Ref{Keyword: kw, Target: c.node(target, kw, s.ctx)})
}

// dynamicTarget returns what a dynamic reference resolves to in the
// current context: the outermost resource's $dynamicAnchor of the same
// name, when the initial target declares that dynamic anchor itself
// (2020-12); the outermost resource with $recursiveAnchor, when the
// initial target has one (2019-09). A plain $ref is returned unchanged.
func (c *jsCompiler) dynamicTarget(s *nodeScope, kw, uri string, target location) location {
	switch kw {
	case "$dynamicRef":
		_, frag, _ := strings.Cut(uri, "#")
		if frag == "" || strings.HasPrefix(frag, "/") {
			return target
		}
		if anchor, err := url.PathUnescape(frag); err == nil { // as resolve reads it
			frag = anchor
		}
		a := target.v.Get("$dynamicAnchor")
		if a == nil || a.Kind != jsontok.String || a.Str != frag {
			return target
		}
		if l, ok := s.ctx.anchors[frag]; ok {
			return l
		}
	case "$recursiveRef":
		a := target.v.Get("$recursiveAnchor")
		if a != nil && a.Kind == jsontok.True && s.ctx.recursive != nil {
			return *s.ctx.recursive
		}
	}
	return target
}
