package testgen

import (
	"math/big"
	"math/rand/v2"
	"slices"
)

// FullOptions configure NewFull. The zero value generates Draft 2020-12.
type FullOptions struct {
	// Dialect of the generated document. Default Draft2020.
	Dialect Dialect
}

// Bounds of generated full schemas.
const (
	fullMaxDepth = 4  // nesting of subschemas
	fullMaxNodes = 60 // subschemas per document, roughly
)

// defNames are the names Defs are drawn from: some need escaping in a
// JSON pointer (a/b is a~1b, ~x is ~0x).
var defNames = []string{"tree", "item", "a/b", "~x", "leaf", "node"}

// NewFull returns a random JSON Schema document of the full profile
// (DESIGN.md §8) in the chosen dialect. Its root accepts objects (and
// sometimes other types too), and its subschemas use every assertion and
// applicator keyword of the dialect: type names and lists with null, enum
// and const of any kind, every numeric bound with big and fractional
// numbers, string lengths and simple patterns, prefixItems, items,
// contains with its counts, uniqueItems, properties, patternProperties,
// additionalProperties as a schema or a boolean, propertyNames,
// dependentRequired, dependentSchemas, the property counts, allOf, anyOf,
// oneOf, not, if/then/else, $defs with $ref (also by $anchor, also
// recursive through properties and items), unevaluatedProperties,
// unevaluatedItems, boolean schemas, annotations and unknown keywords.
//
// Every document is legal JSON Schema, within toolgate's limits, with no
// reference cycle that consumes no input: the JSON Schema profile must
// compile it. Format is written only as an annotation.
func NewFull(r *rand.Rand, opts FullOptions) *FullSchema {
	d := opts.Dialect
	if d == "" {
		d = Draft2020
	}
	g := &fullGen{r: r, dialect: d, s: &FullSchema{Dialect: d, WriteSchema: d != Draft2020 || chance(r, 0.5)}}
	names := slices.Clone(defNames)
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	for _, name := range names[:r.IntN(4)] {
		def := Def{Name: name}
		if !d.Legacy() && chance(r, 0.3) {
			def.Anchor = "anchor_" + string(rune('a'+len(g.s.Defs)))
		}
		g.s.Defs = append(g.s.Defs, def)
	}
	for i := range g.s.Defs {
		g.inPlace = i // earlier Defs only, in place
		if chance(r, 0.4) {
			g.s.Defs[i].Schema = g.recursive(i)
		} else {
			g.s.Defs[i].Schema = g.node(2, "")
		}
	}
	g.inPlace = len(g.s.Defs)
	g.s.Root = g.root()
	return g.s
}

// recursive returns an object schema for Def i that refers to itself
// through a member or the elements of a member, as trees and lists do.
func (g *fullGen) recursive(i int) *FullNode {
	n := g.node(2, "object")
	self := blank()
	self.Ref = g.s.Defs[i].Name
	self.ByAnchor = g.s.Defs[i].Anchor != "" && chance(g.r, 0.5)
	if chance(g.r, 0.5) {
		list := blank()
		list.Types, list.Items = []string{"array"}, self
		if chance(g.r, 0.3) {
			list.MaxItems = 1 + g.r.IntN(3)
		}
		n.Properties = append(n.Properties, FullProp{"children", list})
	} else {
		n.Properties = append(n.Properties, FullProp{"next", self})
	}
	return n
}

// fullGen holds the state of one NewFull.
type fullGen struct {
	r       *rand.Rand
	dialect Dialect
	s       *FullSchema
	// inPlace is how many Defs (from the first) a reference in place may
	// name: all of them below a member or an element, only the earlier
	// ones in a Def's own in-place subschemas.
	inPlace int
	nodes   int
}

func (g *fullGen) since2019() bool { return !g.dialect.Legacy() }

// has reports whether the dialect defines keyword.
func (g *fullGen) has(keyword string) bool { return !g.dialect.lacks(keyword) }

// blank returns a node with every count absent.
func blank() *FullNode {
	return &FullNode{MinLength: -1, MaxLength: -1, MinContains: -1, MaxContains: -1,
		MinItems: -1, MaxItems: -1, MinProperties: -1, MaxProperties: -1}
}

func (g *fullGen) root() *FullNode {
	n := blank()
	g.nodes++
	g.object(n, 1)
	switch x := g.r.Float64(); {
	case x < 0.7:
		n.Types = []string{"object"}
	case x < 0.8:
		n.Types, n.TypeList = []string{"object", pick(g.r, []string{"null", "array", "string"})}, true
	}
	g.applicators(n, "object", 1)
	g.annotate(n)
	return n
}

// member generates a subschema of a member or an element: in place, it
// may refer to every Def.
func (g *fullGen) member(depth int, kind string) *FullNode {
	saved := g.inPlace
	g.inPlace = len(g.s.Defs)
	defer func() { g.inPlace = saved }()
	return g.sub(depth, kind)
}

// sub generates a subschema: sometimes a boolean schema or a reference.
func (g *fullGen) sub(depth int, kind string) *FullNode {
	switch {
	case chance(g.r, 0.06):
		b := chance(g.r, 0.6)
		return &FullNode{Bool: &b}
	case g.inPlace > 0 && chance(g.r, 0.12):
		n := blank()
		g.ref(n)
		return n
	}
	return g.node(depth, kind)
}

// ref makes n refer to one of the Defs it may reach in place.
func (g *fullGen) ref(n *FullNode) {
	def := g.s.Defs[g.r.IntN(g.inPlace)]
	n.Ref = def.Name
	n.ByAnchor = def.Anchor != "" && chance(g.r, 0.5)
}

var fullKinds = []string{"object", "array", "string", "string", "integer", "number", "boolean", "null", "any"}

// node generates a schema of kind ("" for any kind) at depth.
func (g *fullGen) node(depth int, kind string) *FullNode {
	r := g.r
	g.nodes++
	if kind == "" {
		kind = pick(r, fullKinds)
		if depth >= fullMaxDepth || g.nodes > fullMaxNodes {
			kind = pick(r, fullKinds[2:])
		}
	}
	n := blank()
	if kind != "any" {
		switch x := r.Float64(); {
		case x < 0.65:
			n.Types = []string{kind}
		case x < 0.75 && kind != "null":
			n.Types, n.TypeList = []string{kind, "null"}, true
		case x < 0.8:
			n.Types, n.TypeList = []string{kind}, true
		case x < 0.85:
			if other := pick(r, fullKinds[:8]); other != kind {
				n.Types, n.TypeList = []string{kind, other}, true
			}
		}
		if kind == "null" && n.Types == nil {
			n.Types = []string{"null"}
		}
	}
	switch kind {
	case "object":
		g.object(n, depth)
	case "array":
		g.array(n, depth)
	case "string":
		g.string(n)
	case "integer", "number":
		g.number(n, kind == "integer")
	case "any":
		g.string(n)
		g.number(n, false)
	}
	if kind != "null" && chance(r, 0.15) {
		g.choices(n, kind)
	}
	if depth < fullMaxDepth && g.nodes < fullMaxNodes {
		g.applicators(n, kind, depth)
	}
	if g.inPlace > 0 && chance(r, 0.08) {
		g.ref(n) // a reference beside other keywords
	}
	g.annotate(n)
	return n
}

func (g *fullGen) string(n *FullNode) {
	r := g.r
	if chance(r, 0.3) {
		n.MinLength = r.IntN(4)
	}
	if chance(r, 0.3) {
		n.MaxLength = max(n.MinLength, 0) + r.IntN(5)
		if chance(r, 0.1) {
			n.MaxLength = r.IntN(3) // possibly below minLength
		}
	}
	if chance(r, 0.25) {
		n.Pattern = pick(r, patterns)
	}
	if chance(r, 0.08) {
		n.Format = pick(r, []string{"email", "date-time", "uri", "ipv4", "uuid", "x-unknown"})
	}
}

// bounds are numbers near which arguments are generated: integers, short
// and long fractions, numbers past float64's exact range, tiny and huge.
var bounds = []string{
	"0", "1", "-1", "5", "-5", "10", "100", "0.1", "0.5", "-0.5", "2.5", "3.14159", "1e-7", "-1e-10",
	"9007199254740993", "123456789012345678901234567890", "-18446744073709551615", "1e21", "1e40",
	"12345678901234567890.123456789", "0.30000000000000000000000000001",
}

// multiples are multipleOf divisors: integers, fractions, big numbers.
var multiples = []string{"2", "3", "0.5", "0.01", "7.5", "1e-5", "1e20", "0.3", "123456789012345678901234567890", "1.5e-3"}

func (g *fullGen) number(n *FullNode, integral bool) {
	r := g.r
	base := Num(pick(r, bounds))
	if chance(r, 0.35) {
		n.Minimum = new(big.Rat).Set(base)
	} else if chance(r, 0.15) {
		n.ExclusiveMinimum = new(big.Rat).Set(base)
	}
	if chance(r, 0.35) || n.Minimum == nil && n.ExclusiveMinimum == nil && chance(r, 0.2) {
		top := add(base, Num(pick(r, []string{"0", "1", "0.5", "10", "1e-20", "1000", "1e30"})))
		if chance(r, 0.1) {
			top = Num(pick(r, bounds)) // possibly below the minimum
		}
		if chance(r, 0.7) {
			n.Maximum = top
		} else {
			n.ExclusiveMaximum = top
		}
	}
	if chance(r, 0.2) {
		n.MultipleOf = Num(pick(r, multiples))
	}
	if integral && chance(r, 0.1) {
		n.Minimum = Num(pick(r, []string{"0.5", "-2.5", "1e-7"})) // a fractional bound on an integer
		if g.dialect == Draft4 {
			n.ExclusiveMinimum = nil // one keyword holds both
		}
	}
}

func (g *fullGen) array(n *FullNode, depth int) {
	r := g.r
	if chance(r, 0.3) {
		for range 1 + r.IntN(3) {
			n.PrefixItems = append(n.PrefixItems, g.member(depth+1, ""))
		}
	}
	switch {
	case chance(r, 0.6):
		n.Items = g.member(depth+1, "")
	case len(n.PrefixItems) > 0 && chance(r, 0.4):
		f := false
		n.Items = &FullNode{Bool: &f} // a closed tuple
	}
	if g.has("contains") && chance(r, 0.2) {
		n.Contains = g.member(depth+1, "")
		if g.since2019() && chance(r, 0.4) {
			n.MinContains = r.IntN(3)
		}
		if g.since2019() && chance(r, 0.3) {
			n.MaxContains = max(n.MinContains, 0) + r.IntN(2)
		}
	}
	if chance(r, 0.25) {
		n.MinItems = r.IntN(3)
	}
	if chance(r, 0.25) {
		n.MaxItems = max(n.MinItems, 0) + r.IntN(4)
	}
	n.UniqueItems = chance(r, 0.2)
	if g.since2019() && chance(r, 0.12) {
		n.UnevaluatedItems = g.member(depth+1, "")
	}
}

func (g *fullGen) object(n *FullNode, depth int) {
	r := g.r
	for range r.IntN(5) {
		name := pick(r, namePool)
		if !slices.ContainsFunc(n.Properties, func(p FullProp) bool { return p.Name == name }) {
			n.Properties = append(n.Properties, FullProp{name, g.member(depth+1, "")})
		}
	}
	for _, p := range n.Properties {
		if chance(r, 0.35) {
			n.Required = append(n.Required, p.Name)
		}
	}
	if name := pick(r, namePool); chance(r, 0.1) && !slices.Contains(n.Required, name) {
		n.Required = append(n.Required, name) // possibly undeclared
	}
	if chance(r, 0.2) {
		for range 1 + r.IntN(2) {
			n.PatternProperties = append(n.PatternProperties, PatternProp{pick(r, patterns), g.member(depth+1, "")})
		}
	}
	if chance(r, 0.45) {
		switch x := r.Float64(); {
		case x < 0.6:
			f := false
			n.AdditionalProperties = &FullNode{Bool: &f}
		case x < 0.7:
			t := true
			n.AdditionalProperties = &FullNode{Bool: &t}
		default:
			n.AdditionalProperties = g.member(depth+1, "")
		}
	}
	if g.has("propertyNames") && chance(r, 0.15) {
		n.PropertyNames = g.propertyNames()
	}
	if chance(r, 0.15) {
		dep := Dependency{Name: g.someName(n)}
		for range 1 + r.IntN(2) {
			if name := g.someName(n); !slices.Contains(dep.Requires, name) {
				dep.Requires = append(dep.Requires, name)
			}
		}
		n.DependentRequired = append(n.DependentRequired, dep)
	}
	if chance(r, 0.12) {
		name := g.someName(n)
		if !slices.ContainsFunc(n.DependentRequired, func(d Dependency) bool { return d.Name == name }) {
			n.DependentSchemas = append(n.DependentSchemas, FullProp{name, g.sub(depth+1, "object")})
		}
	}
	if chance(r, 0.15) {
		n.MinProperties = r.IntN(3)
	}
	if chance(r, 0.15) {
		n.MaxProperties = max(n.MinProperties, 0) + r.IntN(3)
	}
	if g.since2019() && chance(r, 0.12) {
		if chance(r, 0.6) {
			f := false
			n.UnevaluatedProperties = &FullNode{Bool: &f}
		} else {
			n.UnevaluatedProperties = g.member(depth+1, "")
		}
	}
}

// someName returns a declared name of n, or any name.
func (g *fullGen) someName(n *FullNode) string {
	if len(n.Properties) > 0 && chance(g.r, 0.7) {
		return pick(g.r, n.Properties).Name
	}
	return pick(g.r, namePool)
}

// propertyNames returns a schema for member names.
func (g *fullGen) propertyNames() *FullNode {
	n := blank()
	switch g.r.IntN(5) {
	case 0:
		n.MaxLength = 1 + g.r.IntN(4)
	case 1:
		n.MinLength = 1 + g.r.IntN(2)
	case 2:
		n.Pattern = pick(g.r, patterns)
	case 3:
		n.Enum = []any{}
		for range 1 + g.r.IntN(4) {
			if name := pick(g.r, namePool); !slices.Contains(n.Enum, any(name)) {
				n.Enum = append(n.Enum, name)
			}
		}
	default:
		n.Types = []string{"string"}
		n.MaxLength = 2 + g.r.IntN(6)
	}
	return n
}

// choices gives n an enum or a const: mostly values n accepts, some near
// misses and values of other kinds.
func (g *fullGen) choices(n *FullNode, kind string) {
	r := g.r
	if chance(r, 0.25) {
		n.Const, n.HasConst = g.choice(n, kind), true
		return
	}
	if g.since2019() && chance(r, 0.03) {
		n.Enum = []any{} // the older drafts want at least one choice
		return
	}
	var enum []any
	for range 1 + r.IntN(4) {
		enum = append(enum, g.choice(n, kind))
	}
	if !g.since2019() {
		enum = uniqueValues(enum) // and no repeats
	}
	n.Enum = enum
}

func (g *fullGen) choice(n *FullNode, kind string) any {
	r := g.r
	switch {
	case chance(r, 0.7):
		return newFullValues(r, g.s).valid(n, fullMaxDepth)
	case chance(r, 0.5):
		return nearMiss(r, newFullValues(r, g.s).valid(n, fullMaxDepth))
	}
	return randValue(r, 2)
}

// applicators gives n in-place subschemas, at a rate that falls with
// depth.
func (g *fullGen) applicators(n *FullNode, kind string, depth int) {
	r := g.r
	p := 0.14 / float64(depth)
	branches := func(k string) []*FullNode {
		var out []*FullNode
		for range 1 + r.IntN(3) {
			bk := k
			if bk == "" {
				bk = pick(r, fullKinds)
			}
			out = append(out, g.sub(depth+1, bk))
		}
		return out
	}
	sameKind := kind
	if sameKind == "any" {
		sameKind = ""
	}
	if chance(r, p) {
		n.AllOf = branches(sameKind)
	}
	if chance(r, p) {
		n.AnyOf = branches(pick(r, []string{sameKind, ""}))
	}
	if chance(r, p) {
		n.OneOf = branches(pick(r, []string{sameKind, ""}))
	}
	if chance(r, p/2) {
		n.Not = g.sub(depth+1, "")
	}
	if g.has("if") && chance(r, p/1.5) {
		if kind == "object" && chance(r, 0.5) {
			n.If = g.discriminator(n)
		} else {
			n.If = g.sub(depth+1, sameKind)
		}
		if chance(r, 0.8) {
			n.Then = g.sub(depth+1, sameKind)
		}
		if chance(r, 0.6) {
			n.Else = g.sub(depth+1, sameKind)
		}
	}
}

// discriminator returns an if schema of the usual shape: a required
// member with a constant value.
func (g *fullGen) discriminator(n *FullNode) *FullNode {
	name := g.someName(n)
	c := blank()
	c.HasConst, c.Const = true, pick(g.r, []any{"add", "update", Num("1"), true, nil})
	d := blank()
	d.Properties = []FullProp{{name, c}}
	d.Required = []string{name}
	return d
}

// annotate adds annotations and, rarely, an unknown keyword.
func (g *fullGen) annotate(n *FullNode) {
	r := g.r
	if chance(r, 0.1) {
		n.Annotations = append(n.Annotations, Member{"description", pick(r, stringPool)})
	}
	if chance(r, 0.05) {
		n.Annotations = append(n.Annotations, Member{"title", pick(r, stringPool)})
	}
	if chance(r, 0.05) {
		n.Annotations = append(n.Annotations, Member{"default", randValue(r, 1)})
	}
	if chance(r, 0.03) {
		n.Annotations = append(n.Annotations, Member{"examples", []any{randValue(r, 1)}})
	}
	if chance(r, 0.02) {
		n.Annotations = append(n.Annotations, Member{"$comment", "generated"})
	}
	if chance(r, 0.03) {
		n.Annotations = append(n.Annotations, Member{pick(r, []string{"minimun", "x-extension", "nullable"}), randValue(r, 0)})
	}
}
