package testgen

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"unicode/utf8"
)

// invalid returns a value meant to break n in one place (see
// FullInvalid).
func (g *fullValues) invalid(n *FullNode, budget int) any {
	r := g.r
	switch {
	case n == nil || n.Bool != nil || budget < -2:
		return randValue(r, 1) // true accepts everything, false nothing
	case chance(r, 0.08):
		return g.wrongKind(n)
	case n.HasConst && chance(r, 0.6):
		return nearMiss(r, n.Const)
	case len(n.Enum) > 0 && chance(r, 0.6):
		return nearMiss(r, pick(r, n.Enum))
	case n.Ref != "" && chance(r, 0.3):
		return g.invalid(g.target(n), budget-1)
	case len(n.AllOf) > 0 && chance(r, 0.25):
		return g.invalid(pick(r, n.AllOf), budget-1)
	case len(n.AnyOf) > 0 && chance(r, 0.2):
		return g.invalid(pick(r, n.AnyOf), budget-1)
	case len(n.OneOf) > 1 && chance(r, 0.2):
		return g.valid(pick(r, n.OneOf), budget-1) // may match a second branch too
	case len(n.OneOf) > 0 && chance(r, 0.2):
		return g.invalid(pick(r, n.OneOf), budget-1)
	case n.Not != nil && chance(r, 0.3):
		return g.valid(n.Not, budget-1)
	case n.Then != nil && chance(r, 0.2):
		return g.invalid(n.Then, budget-1)
	case n.Else != nil && chance(r, 0.2):
		return g.invalid(n.Else, budget-1)
	}
	group := g.group(n, 2)
	switch kind := g.kind(group); kind {
	case "object":
		return g.invalidObject(n, group, budget)
	case "array":
		return g.invalidArray(n, group, budget)
	case "string":
		return g.invalidString(group)
	case "integer", "number":
		return g.invalidNumber(group, kind == "integer")
	}
	return g.wrongKind(n)
}

// wrongKind returns a value of a kind n's type does not allow (a fraction
// for integer), or any value when n has no type.
func (g *fullValues) wrongKind(n *FullNode) any {
	for range 20 {
		v := randValue(g.r, 1)
		k := kindOf(v)
		if n.Types == nil {
			return v
		}
		allowed := slices.Contains(n.Types, k) || k == "number" && slices.Contains(n.Types, "integer") && v.(*big.Rat).IsInt()
		if !allowed {
			return v
		}
	}
	return nil
}

func (g *fullValues) invalidString(group []*FullNode) any {
	r := g.r
	lo, hi := lengths(group)
	s := g.validString(group)
	var pats []*Pattern
	for _, x := range group {
		if x.Pattern != nil {
			pats = append(pats, x.Pattern)
		}
	}
	switch {
	case hi >= 0 && chance(r, 0.4):
		return runesOf(r, hi+1)
	case lo > 0 && chance(r, 0.4):
		return runesOf(r, lo-1)
	case len(pats) > 0 && len(pats[0].Misses) > 0 && chance(r, 0.6):
		return pick(r, pats[0].Misses) // the first pattern's: every pattern must match
	}
	return nearMiss(r, s)
}

func (g *fullValues) invalidNumber(group []*FullNode, integral bool) any {
	r := g.r
	nr := rangeOf(group)
	switch {
	case nr.lo != nil && chance(r, 0.4):
		if nr.loOpen && chance(r, 0.5) {
			return new(big.Rat).Set(nr.lo) // at an exclusive bound
		}
		return new(big.Rat).Sub(nr.lo, pick(r, []*big.Rat{tiny, big.NewRat(1, 1)}))
	case nr.hi != nil && chance(r, 0.4):
		if nr.hiOpen && chance(r, 0.5) {
			return new(big.Rat).Set(nr.hi)
		}
		return add(nr.hi, pick(r, []*big.Rat{tiny, big.NewRat(1, 1)}))
	case nr.multiple != nil && chance(r, 0.5):
		x := g.validNumber(group, integral)
		return add(x, new(big.Rat).Quo(nr.multiple, big.NewRat(2, 1))) // halfway between multiples
	case integral:
		return add(g.validNumber(group, true), big.NewRat(1, 2))
	}
	return nearMiss(r, g.validNumber(group, integral))
}

func (g *fullValues) invalidArray(n *FullNode, group []*FullNode, budget int) any {
	r := g.r
	sh := shapeOf(group)
	a := g.validArray(group, budget)
	switch {
	case sh.max >= 0 && chance(r, 0.3):
		for len(a) <= sh.max {
			a = append(a, g.element(sh, len(a), budget))
		}
		return a
	case sh.min > 0 && chance(r, 0.3):
		return a[:min(len(a), sh.min-1)]
	case sh.closed && chance(r, 0.4): // one element past a closed tuple
		for len(a) <= len(sh.prefix) {
			a = append(a, g.element(sh, len(a), budget))
		}
		return a
	case sh.unique && len(a) > 0 && chance(r, 0.5):
		return append(a, Clone(pick(r, a)))
	case sh.contains != nil && chance(r, 0.4):
		if sh.maxC >= 0 && chance(r, 0.5) {
			for range sh.maxC + 1 {
				a = append(a, g.valid(sh.contains, budget-1))
			}
			return a
		}
		return slices.DeleteFunc(a, func(v any) bool { return chance(r, 0.7) })
	case len(a) > 0:
		i := r.IntN(len(a))
		a[i] = g.invalid(sh.elementSchema(i), budget-1)
		return a
	}
	return append(a, g.wrongKind(n))
}

// elementSchema returns the schema of element i, or nil.
func (sh arrayShape) elementSchema(i int) *FullNode {
	if i < len(sh.prefix) {
		return sh.prefix[i]
	}
	return sh.items
}

// element returns a valid-leaning element i.
func (g *fullValues) element(sh arrayShape, i int, budget int) any {
	if s := sh.elementSchema(i); s != nil {
		return g.valid(s, budget-1)
	}
	return randValue(g.r, 1)
}

func (g *fullValues) invalidObject(n *FullNode, group []*FullNode, budget int) any {
	r := g.r
	sh := objectShapeOf(group)
	o := g.validObject(group, budget)
	var required []string
	var deps []Dependency
	var nameSchemas []*FullNode
	for _, x := range group {
		required = append(required, x.Required...)
		deps = append(deps, x.DependentRequired...)
		if x.PropertyNames != nil {
			nameSchemas = append(nameSchemas, x.PropertyNames)
		}
	}
	drop := func(name string) Object {
		return slices.DeleteFunc(o, func(m Member) bool { return m.Name == name })
	}
	switch x := r.IntN(8); {
	case x == 0 && len(required) > 0:
		return drop(pick(r, required))
	case x == 1:
		return addMember(o, undeclaredFull(r, group), randValue(r, 1))
	case x == 2 && len(nameSchemas) > 0:
		return addMember(o, badName(r, pick(r, nameSchemas)), randValue(r, 1))
	case x == 3 && len(deps) > 0:
		d := pick(r, deps)
		o = drop(pick(r, d.Requires))
		return addMember(o, d.Name, g.memberValue(sh, d.Name, budget))
	case x == 4 && sh.max >= 0:
		for len(o) <= sh.max {
			before := len(o)
			o = addMember(o, pick(r, namePool), randValue(r, 0))
			if len(o) == before && chance(r, 0.1) {
				break
			}
		}
		return o
	case x == 5 && sh.min > 0:
		return o[:min(len(o), sh.min-1)]
	}
	if len(o) == 0 {
		return addMember(o, undeclaredFull(r, group), g.wrongKind(n))
	}
	i := r.IntN(len(o))
	o[i].Value = g.invalid(sh.schemaFor(o[i].Name), budget-1)
	return o
}

// undeclaredFull returns a name no properties of the group declares:
// often a near miss of a declared one.
func undeclaredFull(r *rand.Rand, group []*FullNode) string {
	declared := func(name string) bool {
		for _, x := range group {
			if slices.ContainsFunc(x.Properties, func(p FullProp) bool { return p.Name == name }) {
				return true
			}
		}
		return false
	}
	for {
		name := pick(r, namePool)
		if x := pick(r, group); len(x.Properties) > 0 && chance(r, 0.5) {
			name = nearMiss(r, pick(r, x.Properties).Name).(string)
		}
		if !declared(name) {
			return name
		}
	}
}

// badName returns a name the propertyNames schema p refuses, when it
// refuses any.
func badName(r *rand.Rand, p *FullNode) string {
	candidates := []string{"zzz", "", "a_much_longer_name", "é", "A1"}
	if p.MaxLength >= 0 {
		candidates = append(candidates, runesOf(r, p.MaxLength+1))
	}
	if p.Pattern != nil {
		candidates = append(candidates, p.Pattern.Misses...)
	}
	r.Shuffle(len(candidates), func(i, j int) { candidates[i], candidates[j] = candidates[j], candidates[i] })
	for _, c := range candidates {
		if !namePasses(p, c) && utf8.ValidString(c) {
			return c
		}
	}
	return candidates[0]
}
