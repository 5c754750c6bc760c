package testgen

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"unicode/utf8"
)

// Instance returns the JSON text of arguments for n: valid-leaning or
// invalid-leaning with equal chance, written in a random style (Encode).
func Instance(r *rand.Rand, n *Node) []byte {
	if chance(r, 0.5) {
		return Encode(r, Valid(r, n))
	}
	return Encode(r, Invalid(r, n))
}

// InstanceJSON is Instance for a schema given as text; it fails when Parse
// cannot read the schema.
func InstanceJSON(r *rand.Rand, schemaJSON []byte) ([]byte, error) {
	n, err := Parse(schemaJSON)
	if err != nil {
		return nil, err
	}
	return Instance(r, n), nil
}

// Valid returns a value built to satisfy n. It is valid-leaning, not valid
// by construction: a oneOf value may also match a second branch, an enum
// choice may break the node's other keywords, and an empty enum or a
// required name that additionalProperties forbids cannot be satisfied.
func Valid(r *rand.Rand, n *Node) any {
	switch {
	case len(n.Enum) > 0:
		return Clone(pick(r, n.Enum))
	case n.OneOf != nil:
		return Valid(r, pick(r, n.OneOf))
	}
	switch n.Type {
	case "", "object":
		return validObject(r, n)
	case "array":
		a := make([]any, r.IntN(4))
		for i := range a {
			if n.Items != nil {
				a[i] = Valid(r, n.Items)
			} else {
				a[i] = randValue(r, 1)
			}
		}
		return a
	case "string":
		return randString(r)
	case "integer", "number":
		return atLeast(r, n)
	}
	return r.IntN(2) == 0
}

func validObject(r *rand.Rand, n *Node) Object {
	o := Object{}
	for _, p := range n.Properties {
		if slices.Contains(n.Required, p.Name) || chance(r, 0.6) {
			o = addMember(o, p.Name, Valid(r, p.Schema))
		}
	}
	for _, name := range n.Required {
		o = addMember(o, name, randValue(r, 1)) // named only in required: any value
	}
	if !n.Closed() && chance(r, 0.3) {
		o = addMember(o, undeclared(r, n), randValue(r, 1))
	}
	if chance(r, 0.5) {
		r.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
	}
	return o
}

// atLeast returns a number of n's type at or above its minimum, often at it.
func atLeast(r *rand.Rand, n *Node) *big.Rat {
	integral := n.Type == "integer"
	if n.Minimum == nil {
		return randNumber(r, integral)
	}
	x := new(big.Rat).Set(n.Minimum)
	switch r.IntN(5) {
	case 0:
		x = add(x, pow10(-20)) // just above
	case 1:
		x = add(x, big.NewRat(int64(r.IntN(1000)), 1))
	case 2:
		x = add(x, big.NewRat(1, 2))
	}
	if integral {
		x = ceil(x)
	}
	return x
}

// undeclared returns a member name that n does not declare: often a prefix
// or an extension of a declared name, so that name matching is exercised.
func undeclared(r *rand.Rand, n *Node) string {
	for {
		name := pick(r, namePool)
		if len(n.Properties) > 0 && chance(r, 0.5) {
			name = nearMiss(r, pick(r, n.Properties).Name).(string)
		}
		if n.Property(name) == nil {
			return name
		}
	}
}

// Invalid returns a value built to break n in one place: a wrong type, a
// missing required member, an undeclared member under additionalProperties
// false, an enum near-miss, a number just below the minimum or with a
// fraction where an integer is required, or any of these deeper down. It is
// invalid-leaning, not invalid by construction: a near-miss may be another
// choice, an undeclared member may be allowed, and so on.
func Invalid(r *rand.Rand, n *Node) any {
	if chance(r, 0.1) {
		return wrongType(r, n)
	}
	if n.OneOf != nil {
		return Invalid(r, pick(r, n.OneOf))
	}
	if len(n.Enum) > 0 {
		if chance(r, 0.6) {
			return nearMiss(r, pick(r, n.Enum))
		}
		plain := *n
		plain.Enum = nil
		return Valid(r, &plain) // satisfies everything but (probably) the enum
	}
	switch n.Type {
	case "", "object":
		return invalidObject(r, n)
	case "array":
		if n.Items == nil {
			return wrongType(r, n)
		}
		a := Valid(r, n).([]any)
		bad := Invalid(r, n.Items)
		if len(a) == 0 || chance(r, 0.3) {
			return append(a, bad)
		}
		a[r.IntN(len(a))] = bad
		return a
	case "integer", "number":
		return invalidNumber(r, n)
	}
	return wrongType(r, n)
}

func invalidObject(r *rand.Rand, n *Node) any {
	o := validObject(r, n)
	var present []int // members with a declared schema
	for i, m := range o {
		if n.Property(m.Name) != nil {
			present = append(present, i)
		}
	}
	switch r.IntN(4) {
	case 0:
		if len(n.Required) > 0 {
			name := pick(r, n.Required)
			return slices.DeleteFunc(o, func(m Member) bool { return m.Name == name })
		}
	case 1:
		return addMember(o, undeclared(r, n), randValue(r, 1))
	}
	if len(present) == 0 {
		return addMember(o, undeclared(r, n), randValue(r, 1))
	}
	i := pick(r, present)
	o[i].Value = Invalid(r, n.Property(o[i].Name))
	return o
}

func invalidNumber(r *rand.Rand, n *Node) any {
	switch r.IntN(3) {
	case 0:
		if n.Minimum != nil {
			below := pow10(-20) // 0.1 becomes 0.09999999999999999999
			if chance(r, 0.5) {
				below = big.NewRat(1, 1)
			}
			return new(big.Rat).Sub(n.Minimum, below)
		}
	case 1:
		if n.Type == "integer" {
			return add(atLeast(r, n), big.NewRat(1, 2)) // 1.5
		}
	}
	return wrongType(r, n)
}

// wrongType returns a value whose JSON kind n's type does not accept (a
// fraction counts as a wrong type for integer).
func wrongType(r *rand.Rand, n *Node) any {
	want := n.Type
	if want == "" && n.OneOf == nil {
		want = "object" // a root that leaves its type implicit
	}
	for {
		v := randValue(r, 1)
		switch k := kindOf(v); {
		case want == "integer" && k == "number":
			if !v.(*big.Rat).IsInt() {
				return v
			}
		case k != want:
			return v
		}
	}
}

// nearMiss returns a value close to v but different: a string with a rune
// dropped, added or changed; a number off by 10^-20, 1 or 0.5; a flipped
// boolean; a container with one element or member changed, added or dropped.
func nearMiss(r *rand.Rand, v any) any {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return !v
	case string:
		switch {
		case v != "" && chance(r, 0.4):
			_, size := utf8.DecodeLastRuneInString(v)
			return v[:len(v)-size] // a proper prefix
		case chance(r, 0.5):
			return v + pick(r, []string{"x", "b", "é", "\x00", v})
		}
		return pick(r, []string{"A", "É", " "}) + v
	case *big.Rat:
		d := pick(r, []*big.Rat{pow10(-20), big.NewRat(1, 1), big.NewRat(1, 2)})
		if chance(r, 0.5) {
			d.Neg(d)
		}
		return add(v, d)
	case []any:
		a := Clone(v).([]any)
		switch {
		case len(a) > 0 && chance(r, 0.5):
			i := r.IntN(len(a))
			a[i] = nearMiss(r, a[i])
		case len(a) > 0 && chance(r, 0.5):
			a = a[:len(a)-1]
		default:
			a = append(a, randValue(r, 0))
		}
		return a
	}
	o := Clone(v).(Object)
	switch {
	case len(o) > 0 && chance(r, 0.5):
		i := r.IntN(len(o))
		o[i].Value = nearMiss(r, o[i].Value)
	case len(o) > 0 && chance(r, 0.5):
		o = o[:len(o)-1]
	default:
		o = addMember(o, pick(r, namePool), randValue(r, 0))
	}
	return o
}

// Hazard returns a copy of the object v with one flaw that DESIGN.md §3
// makes a "json" finding while ordinary JSON decoders accept it: a member
// name repeated in some object, a lone UTF-16 surrogate escape (\ud800
// without its pair, or \udc00 alone) in a string or name, or a byte that is
// not UTF-8 written raw. Valid and Invalid never produce these.
func Hazard(r *rand.Rand, v Object) Object {
	var root any = Clone(v)
	slot := pick(r, objectSlots(&root, nil))
	o := (*slot).(Object)
	flaw := r.IntN(3)
	if flaw == 0 && len(o) > 0 {
		o = append(o, Member{pick(r, o).Name, randValue(r, 0)})
		*slot = o
		return root.(Object)
	}
	bad := pick(r, []string{"\xed\xa0\x80", "\xed\xb0\x80", "\xed\xa0\x80x"}) // lone surrogates
	if flaw == 2 {
		bad = pick(r, []string{"\xff", "\xc3(", "\xe6\x97", "\xf0\x9f\x98"}) // invalid UTF-8
	}
	if len(o) > 0 && chance(r, 0.5) {
		o[r.IntN(len(o))].Value = pick(r, stringPool) + bad
	} else {
		o = append(o, Member{"k" + bad, true})
	}
	*slot = o
	return root.(Object)
}

// objectSlots returns the places that hold an object in the tree at p,
// p first if it holds one.
func objectSlots(p *any, acc []*any) []*any {
	switch x := (*p).(type) {
	case Object:
		acc = append(acc, p)
		for i := range x {
			acc = objectSlots(&x[i].Value, acc)
		}
	case []any:
		for i := range x {
			acc = objectSlots(&x[i], acc)
		}
	}
	return acc
}

// Mutate returns a copy of v with one change at a place drawn uniformly
// from all its values: a value replaced by a near miss (nearMiss) or by
// any value, or a container given one element or member more or fewer.
// It knows no schema; a document and its mutation share their text up to
// the change when both are written with Compact, which is what tests of
// early rejection need.
func Mutate(r *rand.Rand, v any) any {
	var root any = Clone(v)
	var slots []*any
	var collect func(p *any)
	collect = func(p *any) {
		slots = append(slots, p)
		switch x := (*p).(type) {
		case []any:
			for i := range x {
				collect(&x[i])
			}
		case Object:
			for i := range x {
				collect(&x[i].Value)
			}
		}
	}
	collect(&root)
	slot := pick(r, slots)
	switch x := (*slot).(type) {
	case []any:
		if len(x) > 0 && chance(r, 0.3) {
			*slot = x[:len(x)-1]
			return root
		}
		if chance(r, 0.4) {
			*slot = append(x, randValue(r, 1))
			return root
		}
	case Object:
		if len(x) > 0 && chance(r, 0.3) {
			*slot = x[:len(x)-1]
			return root
		}
		if chance(r, 0.4) {
			*slot = addMember(x, pick(r, namePool), randValue(r, 1))
			return root
		}
	}
	if chance(r, 0.7) {
		*slot = nearMiss(r, *slot)
	} else {
		*slot = randValue(r, 1)
	}
	return root
}
