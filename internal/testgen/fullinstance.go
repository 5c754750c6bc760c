package testgen

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"unicode/utf8"
)

// FullInstance returns the JSON text of arguments for s: valid-leaning or
// invalid-leaning with equal chance, written in a random style (Encode).
func FullInstance(r *rand.Rand, s *FullSchema) []byte {
	if chance(r, 0.5) {
		return Encode(r, FullValid(r, s))
	}
	return Encode(r, FullInvalid(r, s))
}

// FullValid returns a value built to satisfy s's root, often at the
// boundaries its keywords allow (a string of exactly maxLength code
// points, a number at an inclusive bound or just inside an exclusive one,
// an array of exactly maxItems elements). It only leans valid: keywords
// in different subschemas can contradict each other, and the generator
// satisfies the in-place applicators only as far as it can merge them
// (all of allOf and the reference, one branch of anyOf and oneOf, the
// branch of if it aims for); an oracle decides.
//
// At the root it leans to an object, as tool arguments are one.
func FullValid(r *rand.Rand, s *FullSchema) any {
	g := newFullValues(r, s)
	if chance(r, 0.9) {
		return g.validObject(g.group(s.Root, 3), fullBudget)
	}
	return g.valid(s.Root, fullBudget)
}

// FullInvalid returns a value built to break s's root in one place,
// usually just past a boundary: a wrong type, an enum or const near miss,
// a string one code point too long or short or missing its pattern, a
// number just outside a bound or off a multiple or fractional for an
// integer, an array with one element too many or too few, a repeated
// element, one contains match too many or too few, an object missing a
// required or dependent member, with an undeclared member, a name
// propertyNames refuses, one member too many or too few; or any of these
// deeper down. Like FullValid it only leans.
func FullInvalid(r *rand.Rand, s *FullSchema) any {
	g := newFullValues(r, s)
	if chance(r, 0.6) {
		return g.invalidObject(s.Root, g.group(s.Root, 2), fullBudget)
	}
	return g.invalid(s.Root, fullBudget)
}

// fullBudget bounds the nesting of generated values (references into
// recursive Defs included).
const fullBudget = 6

// fullValues builds values for the nodes of one FullSchema.
type fullValues struct {
	r    *rand.Rand
	s    *FullSchema
	made int // values built so far, against fullMaxValues
}

// fullMaxValues bounds the values of one generated document, so that
// recursive schemas do not make it huge.
const fullMaxValues = 150

func newFullValues(r *rand.Rand, s *FullSchema) *fullValues { return &fullValues{r: r, s: s} }

// target resolves a reference: the Def's schema, or nil.
func (g *fullValues) target(n *FullNode) *FullNode {
	if d := g.s.Def(n.Ref); d != nil {
		return d.Schema
	}
	return nil
}

// group returns n with the in-place subschemas the value will aim to
// satisfy too: allOf, the reference, one anyOf and one oneOf branch, and
// the if/then (or else) pair, flattened a few levels.
func (g *fullValues) group(n *FullNode, depth int) []*FullNode {
	if n == nil || n.Bool != nil {
		return nil
	}
	out := []*FullNode{n}
	if depth == 0 {
		return out
	}
	var subs []*FullNode
	subs = append(subs, n.AllOf...)
	if n.Ref != "" {
		subs = append(subs, g.target(n))
	}
	if len(n.AnyOf) > 0 {
		subs = append(subs, pick(g.r, n.AnyOf))
	}
	if len(n.OneOf) > 0 {
		subs = append(subs, pick(g.r, n.OneOf))
	}
	switch {
	case n.If != nil && n.Then != nil && chance(g.r, 0.6):
		subs = append(subs, n.If, n.Then)
	case n.Else != nil:
		subs = append(subs, n.Else)
	}
	for _, x := range subs {
		out = append(out, g.group(x, depth-1)...)
	}
	return out
}

// valid returns a value meant to satisfy n.
func (g *fullValues) valid(n *FullNode, budget int) any {
	g.made++
	switch {
	case n == nil || n.Bool != nil:
		return randValue(g.r, 1)
	case budget < -2 || g.made > fullMaxValues:
		return randValue(g.r, 0) // past the budget: give up on deep required members
	}
	group := g.group(n, 3)
	for _, x := range group {
		switch {
		case x.HasConst:
			return Clone(x.Const)
		case len(x.Enum) > 0 && chance(g.r, 0.9):
			return Clone(pick(g.r, x.Enum))
		}
	}
	return g.validKind(group, g.kind(group), budget)
}

// kind picks the JSON kind of a value for a group: one every typed node
// allows, else one the keywords suggest.
func (g *fullValues) kind(group []*FullNode) string {
	allowed := []string{"object", "array", "string", "integer", "number", "boolean", "null"}
	for _, x := range group {
		if x.Types == nil {
			continue
		}
		types := slices.Clone(x.Types)
		if slices.Contains(types, "number") {
			types = append(types, "integer")
		}
		narrowed := slices.DeleteFunc(slices.Clone(allowed), func(k string) bool { return !slices.Contains(types, k) })
		if len(narrowed) == 0 {
			break // contradictory types: keep what the earlier nodes allow
		}
		allowed = narrowed
	}
	var suggested []string
	for _, x := range group {
		suggested = append(suggested, suggestedKinds(x)...)
	}
	suggested = slices.DeleteFunc(suggested, func(k string) bool { return !slices.Contains(allowed, k) })
	if len(suggested) > 0 && chance(g.r, 0.85) {
		return pick(g.r, suggested)
	}
	return pick(g.r, allowed)
}

// suggestedKinds are the kinds n's keywords constrain.
func suggestedKinds(n *FullNode) []string {
	var out []string
	if n.Properties != nil || n.Required != nil || n.PatternProperties != nil || n.AdditionalProperties != nil ||
		n.MinProperties >= 0 || n.MaxProperties >= 0 || n.PropertyNames != nil {
		out = append(out, "object")
	}
	if n.Items != nil || n.PrefixItems != nil || n.Contains != nil || n.MinItems >= 0 || n.MaxItems >= 0 {
		out = append(out, "array")
	}
	if n.MinLength >= 0 || n.MaxLength >= 0 || n.Pattern != nil {
		out = append(out, "string")
	}
	if n.Minimum != nil || n.Maximum != nil || n.ExclusiveMinimum != nil || n.ExclusiveMaximum != nil || n.MultipleOf != nil {
		out = append(out, "number")
	}
	return out
}

func (g *fullValues) validKind(group []*FullNode, kind string, budget int) any {
	switch kind {
	case "object":
		return g.validObject(group, budget)
	case "array":
		return g.validArray(group, budget)
	case "string":
		return g.validString(group)
	case "integer", "number":
		return g.validNumber(group, kind == "integer")
	case "boolean":
		return chance(g.r, 0.5)
	}
	return nil
}

// lengths combines the string lengths of a group: the tightest bounds.
func lengths(group []*FullNode) (lo, hi int) {
	lo, hi = 0, -1
	for _, x := range group {
		lo = max(lo, x.MinLength)
		if x.MaxLength >= 0 && (hi < 0 || x.MaxLength < hi) {
			hi = x.MaxLength
		}
	}
	return lo, hi
}

func (g *fullValues) validString(group []*FullNode) string {
	lo, hi := lengths(group)
	fits := func(s string) bool {
		n := utf8.RuneCountInString(s)
		return n >= lo && (hi < 0 || n <= hi)
	}
	var pats []*Pattern
	for _, x := range group {
		if x.Pattern != nil {
			pats = append(pats, x.Pattern)
		}
	}
	var samples []string
	if len(pats) > 0 {
		samples = slices.Clone(pick(g.r, pats).Samples)
	}
	if len(samples) > 0 {
		g.r.Shuffle(len(samples), func(i, j int) { samples[i], samples[j] = samples[j], samples[i] })
		for _, s := range samples {
			if fits(s) && !slices.ContainsFunc(pats, func(p *Pattern) bool { return !p.Match(s) }) {
				return s
			}
		}
		return samples[0]
	}
	size := lo + g.r.IntN(4)
	switch {
	case hi >= 0 && chance(g.r, 0.5):
		size = hi // at the upper bound
	case chance(g.r, 0.3):
		size = lo // at the lower bound
	}
	if hi >= 0 {
		size = min(size, hi)
	}
	if s := randString(g.r); utf8.RuneCountInString(s) == size {
		return s
	}
	return runesOf(g.r, size)
}

// runesOf returns a string of exactly n code points, some not ASCII.
func runesOf(r *rand.Rand, n int) string {
	chars := []string{"a", "b", "z", "é", "日", "😀", "\n", `"`, "\\", "/", "\u0301"}
	var b []byte
	for range n {
		b = append(b, pick(r, chars)...)
	}
	return string(b)
}

// numberRange combines the bounds of a group: the tightest of each.
type numberRange struct {
	lo, hi         *big.Rat
	loOpen, hiOpen bool
	multiple       *big.Rat
}

func rangeOf(group []*FullNode) numberRange {
	var nr numberRange
	tighten := func(x *big.Rat, open, upper bool) {
		if x == nil {
			return
		}
		cur, curOpen := nr.lo, nr.loOpen
		if upper {
			cur, curOpen = nr.hi, nr.hiOpen
		}
		c := 0
		if cur != nil {
			c = x.Cmp(cur)
		}
		if upper {
			c = -c
		}
		if cur == nil || c > 0 || c == 0 && open && !curOpen {
			if upper {
				nr.hi, nr.hiOpen = x, open
			} else {
				nr.lo, nr.loOpen = x, open
			}
		}
	}
	for _, x := range group {
		tighten(x.Minimum, false, false)
		tighten(x.ExclusiveMinimum, true, false)
		tighten(x.Maximum, false, true)
		tighten(x.ExclusiveMaximum, true, true)
		if x.MultipleOf != nil && nr.multiple == nil {
			nr.multiple = x.MultipleOf
		}
	}
	return nr
}

// tiny is the step used just inside and just outside bounds.
var tiny = Num("1e-20")

func (g *fullValues) validNumber(group []*FullNode, integral bool) *big.Rat {
	nr := rangeOf(group)
	step := tiny
	if integral {
		step = big.NewRat(1, 1)
	}
	if nr.multiple != nil {
		step = nr.multiple
		if integral && !step.IsInt() {
			step = new(big.Rat).Mul(step, new(big.Rat).SetInt(step.Denom())) // an integral multiple
		}
	}
	var x *big.Rat
	switch {
	case nr.lo != nil && (nr.hi == nil || chance(g.r, 0.5)):
		x = g.onGrid(nr.lo, step, nr.multiple != nil || integral, false)
		if nr.loOpen && x.Cmp(nr.lo) == 0 {
			x = add(x, step)
		}
	case nr.hi != nil:
		x = g.onGrid(nr.hi, step, nr.multiple != nil || integral, true)
		if nr.hiOpen && x.Cmp(nr.hi) == 0 {
			x = new(big.Rat).Sub(x, step)
		}
	default:
		x = randNumber(g.r, integral)
		if nr.multiple != nil {
			x = new(big.Rat).Mul(step, big.NewRat(int64(g.r.IntN(21)-10), 1))
		}
	}
	return x
}

// onGrid returns a value at bound b: b itself, or, on a grid of step, the
// nearest multiple inside (up for a lower bound, down for an upper one),
// sometimes a few steps further inside.
func (g *fullValues) onGrid(b, step *big.Rat, grid, upper bool) *big.Rat {
	x := new(big.Rat).Set(b)
	if grid {
		q := new(big.Rat).Quo(b, step)
		k := ceil(q)
		if upper {
			k = new(big.Rat).Neg(ceil(new(big.Rat).Neg(q)))
		}
		x = new(big.Rat).Mul(k, step)
	}
	if chance(g.r, 0.3) {
		d := new(big.Rat).Mul(step, big.NewRat(int64(1+g.r.IntN(3)), 1))
		if upper {
			d.Neg(d)
		}
		x = add(x, d)
	}
	return x
}

// arrayShape combines the array keywords of a group.
type arrayShape struct {
	prefix               []*FullNode
	items                *FullNode
	closed               bool // no element past the prefix
	contains             *FullNode
	minC, maxC, min, max int
	unique               bool
}

func shapeOf(group []*FullNode) arrayShape {
	sh := arrayShape{minC: 0, maxC: -1, min: 0, max: -1}
	for _, x := range group {
		if sh.prefix == nil {
			sh.prefix = x.PrefixItems
		}
		if sh.items == nil && x.Items != nil {
			sh.items = x.Items
			sh.closed = x.Items.Bool != nil && !*x.Items.Bool
		}
		if x.UnevaluatedItems != nil && x.UnevaluatedItems.Bool != nil && !*x.UnevaluatedItems.Bool && x.Items == nil {
			sh.closed = true
		}
		if sh.contains == nil && x.Contains != nil {
			sh.contains = x.Contains
			sh.minC, sh.maxC = 1, x.MaxContains
			if x.MinContains >= 0 {
				sh.minC = x.MinContains
			}
		}
		sh.min = max(sh.min, x.MinItems)
		if x.MaxItems >= 0 && (sh.max < 0 || x.MaxItems < sh.max) {
			sh.max = x.MaxItems
		}
		sh.unique = sh.unique || x.UniqueItems
	}
	return sh
}

func (g *fullValues) validArray(group []*FullNode, budget int) []any {
	sh := shapeOf(group)
	size := sh.min + g.r.IntN(3)
	switch {
	case budget <= 0:
		size = sh.min
	case sh.max >= 0 && chance(g.r, 0.4):
		size = sh.max
	}
	if sh.max >= 0 {
		size = min(size, sh.max)
	}
	if sh.closed {
		size = min(size, len(sh.prefix))
	}
	out := make([]any, 0, size)
	for i := range size {
		var v any
		switch {
		case i < len(sh.prefix):
			v = g.valid(sh.prefix[i], budget-1)
		case sh.items != nil:
			v = g.valid(sh.items, budget-1)
		default:
			v = randValue(g.r, 1)
		}
		out = append(out, v)
	}
	if sh.contains != nil {
		want := sh.minC
		if sh.maxC > want && chance(g.r, 0.5) {
			want = sh.maxC
		}
		for i := range want {
			v := g.valid(sh.contains, budget-1)
			switch pos := len(sh.prefix) + i; {
			case pos < len(out):
				out[pos] = v
			case !sh.closed && (sh.max < 0 || len(out) < sh.max):
				out = append(out, v)
			}
		}
	}
	if sh.unique {
		out = uniqueValues(out)
	}
	return out
}

// uniqueValues drops elements equal (as JSON values) to an earlier one.
func uniqueValues(a []any) []any {
	var out []any
	for _, v := range a {
		if !slices.ContainsFunc(out, func(w any) bool { return Equal(v, w) }) {
			out = append(out, v)
		}
	}
	return out
}

// Equal reports whether two values are equal as JSON Schema compares
// them: numbers by value, objects whatever their member order.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case *big.Rat:
		b, ok := b.(*big.Rat)
		return ok && a.Cmp(b) == 0
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !Equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case Object:
		b, ok := b.(Object)
		if !ok || len(a) != len(b) {
			return false
		}
		for _, m := range a {
			w, ok := b.Get(m.Name)
			if !ok || !Equal(m.Value, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

// objectShape collects the object keywords of a group.
type objectShape struct {
	group  []*FullNode
	closed bool // only declared or pattern-matched names
	min    int
	max    int
}

func objectShapeOf(group []*FullNode) objectShape {
	sh := objectShape{group: group, max: -1}
	for _, x := range group {
		if isFalse(x.AdditionalProperties) || isFalse(x.UnevaluatedProperties) && x.AdditionalProperties == nil {
			sh.closed = true
		}
		sh.min = max(sh.min, x.MinProperties)
		if x.MaxProperties >= 0 && (sh.max < 0 || x.MaxProperties < sh.max) {
			sh.max = x.MaxProperties
		}
	}
	return sh
}

func isFalse(n *FullNode) bool { return n != nil && n.Bool != nil && !*n.Bool }

// schemaFor returns the schema of the group's first node that says
// something about the member name, or nil.
func (sh objectShape) schemaFor(name string) *FullNode {
	for _, x := range sh.group {
		for _, p := range x.Properties {
			if p.Name == name {
				return p.Schema
			}
		}
		for _, p := range x.PatternProperties {
			if p.Pattern.Match(name) {
				return p.Schema
			}
		}
	}
	for _, x := range sh.group {
		if x.AdditionalProperties != nil {
			return x.AdditionalProperties
		}
	}
	return nil
}

// nameAllowed reports whether every propertyNames of the group accepts
// name, as far as the generator's propertyNames schemas go.
func (sh objectShape) nameAllowed(name string) bool {
	for _, x := range sh.group {
		if p := x.PropertyNames; p != nil && !namePasses(p, name) {
			return false
		}
	}
	return true
}

// namePasses checks a name against a propertyNames schema of the shapes
// propertyNames generates (a boolean, lengths, a pattern, an enum).
func namePasses(p *FullNode, name string) bool {
	if p.Bool != nil {
		return *p.Bool
	}
	n := utf8.RuneCountInString(name)
	switch {
	case p.MinLength >= 0 && n < p.MinLength, p.MaxLength >= 0 && n > p.MaxLength:
		return false
	case p.Pattern != nil && !p.Pattern.Match(name):
		return false
	case p.Enum != nil && !slices.Contains(p.Enum, any(name)):
		return false
	}
	return true
}

func (g *fullValues) validObject(group []*FullNode, budget int) Object {
	r := g.r
	sh := objectShapeOf(group)
	o := Object{}
	var required []string
	put := func(name string) {
		if _, ok := o.Get(name); ok || !sh.nameAllowed(name) || isFalse(sh.schemaFor(name)) && !slices.Contains(required, name) {
			return
		}
		o = append(o, Member{name, g.memberValue(sh, name, budget)})
	}
	for _, x := range group {
		required = append(required, x.Required...)
	}
	for _, name := range required {
		put(name)
	}
	if budget > 0 {
		for _, x := range group {
			for _, p := range x.Properties {
				if chance(r, 0.6) {
					put(p.Name)
				}
			}
			for _, p := range x.PatternProperties {
				if len(p.Pattern.Samples) > 0 && chance(r, 0.4) {
					put(pick(r, p.Pattern.Samples))
				}
			}
		}
		if !sh.closed && chance(r, 0.3) {
			put(pick(r, namePool))
		}
	}
	for _, x := range group {
		for _, p := range x.Properties {
			if len(o) < sh.min {
				put(p.Name) // declared names first, in case the object is closed
			}
		}
	}
	for !sh.closed && len(o) < sh.min {
		before := len(o)
		put(pick(r, namePool))
		if len(o) == before && chance(r, 0.2) {
			break
		}
	}
	g.addDependencies(sh, &o, budget)
	if sh.max >= 0 && len(o) > sh.max {
		// Keep the required members, which come first, and drop the others.
		o = o[:max(sh.max, min(len(o), len(required)))]
	}
	if chance(r, 0.5) {
		r.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
	}
	return o
}

// addDependencies adds the members that the present ones depend on.
func (g *fullValues) addDependencies(sh objectShape, o *Object, budget int) {
	for _, x := range sh.group {
		for _, d := range x.DependentRequired {
			if _, ok := o.Get(d.Name); !ok {
				continue
			}
			for _, name := range d.Requires {
				if _, ok := o.Get(name); !ok && sh.nameAllowed(name) {
					*o = append(*o, Member{name, g.memberValue(sh, name, budget)})
				}
			}
		}
		for _, d := range x.DependentSchemas {
			if _, ok := o.Get(d.Name); !ok || d.Schema == nil || d.Schema.Bool != nil {
				continue
			}
			extra := g.validObject(g.group(d.Schema, 2), budget-1)
			for _, m := range extra {
				if _, ok := o.Get(m.Name); !ok && sh.nameAllowed(m.Name) {
					*o = append(*o, m)
				}
			}
		}
	}
}

func (g *fullValues) memberValue(sh objectShape, name string, budget int) any {
	if s := sh.schemaFor(name); s != nil {
		return g.valid(s, budget-1)
	}
	return randValue(g.r, 1)
}
