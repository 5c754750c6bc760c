package validator

import "github.com/toolgate/toolgate/internal/schema"

// This file holds the array keywords: prefixItems, items (and the older
// dialects' array form and additionalItems), contains with min/maxContains,
// min/maxItems and uniqueItems.

// arrState is one evaluation's progress through an array.
type arrState struct {
	contains      int64 // elements that matched contains
	covers        bool  // some keyword of the node evaluates the current element
	containsMatch bool  // the current element matched contains
	unevalFailed  bool  // unevaluatedItems failed on the current element
	unevalReason  violation
	uneval        *unevalRecords // made on first use (see recordsIn)
}

// reset clears the state, keeping its buffers.
func (a *arrState) reset() {
	a.uneval.reset()
	*a = arrState{uneval: a.uneval}
}

func (v *Validator) startArray(e *eval) {
	if e.arr == nil {
		e.arr = &arrState{}
	}
	e.arr.reset()
	if f := &v.frames[e.fr]; e.node.UniqueItems && !f.checksUnique {
		f.checksUnique = true
		if f.unique == nil {
			f.unique = map[uint64]struct{}{}
		}
		v.hashing++
	}
}

// elementEntries appends, for every listening evaluation of the array
// frame fr, the subschemas that evaluate its next element.
func (v *Validator) elementEntries(fr int32, off int64, entries []entry) []entry {
	f := &v.frames[fr]
	i := f.index
	f.index++
	for _, e := range f.evals {
		if !e.listening() {
			continue
		}
		v.steps++
		n := e.node
		if i == 0 {
			v.moreElements(e, 0, off) // no ',' came before it
		}
		covered := true
		switch s := elementSchema(n, i); {
		case s == nil:
			covered = false
		case i > 0 && s.Never:
			// Refused at the ',' before it (see moreElements).
		default:
			entries = append(entries, entry{node: s, parent: e, rel: relChild})
		}
		if n.Contains != nil {
			entries = append(entries, entry{node: n.Contains, parent: e, rel: relContains})
		}
		if !covered && n.UnevaluatedItems != nil {
			entries = append(entries, entry{node: n.UnevaluatedItems, parent: e, rel: relUnevaluated})
		}
		e.arr.covers = covered || n.UnevaluatedItems != nil
		e.arr.containsMatch, e.arr.unevalFailed = false, false
	}
	return entries
}

// elementSchema is the subschema of prefixItems or items that evaluates
// element i of an array under n, or nil.
func elementSchema(n *schema.Node, i int64) *schema.Node {
	if i < int64(len(n.PrefixItems)) {
		return n.PrefixItems[i]
	}
	return n.Items
}

// moreElements handles the promise of element i, at the ',' before it or
// the first byte of the first one: an array at its maxItems is refused
// there, and so is one whose position i has the false schema, at the ','
// (the first element's own evaluation refuses it at its first byte), in a
// finding about that element. No position before FalseItem has it.
func (v *Validator) moreElements(e *eval, i, off int64) {
	n := e.node
	if n.MaxItems >= 0 && i == n.MaxItems {
		v.violate(e, violation{keyword: "maxItems", node: n, off: off})
	}
	if i == 0 || n.FalseItem < 0 || i < n.FalseItem {
		return
	}
	if s := elementSchema(n, i); s != nil && s.Never {
		vio := violation{keyword: s.Keyword, node: s, off: off, never: true, about: promisedElement}
		vio.where.prepend(nil, i) // as a reason, it is about the element
		v.violate(e, vio)
	}
}

// onContains counts an element that matched contains, rejecting the array
// as soon as it has more than maxContains.
func (v *Validator) onContains(e, k *eval) {
	if k.status != passed {
		return
	}
	e.arr.containsMatch = true
	e.arr.contains++
	if n := e.node; n.MaxContains >= 0 && e.arr.contains == n.MaxContains+1 {
		v.violate(e, violation{keyword: "maxContains", node: n, off: k.endOff})
	}
}

// endArray checks what only the whole array decides.
func (v *Validator) endArray(e *eval, off int64) {
	n := e.node
	count := v.frames[e.fr].index
	if n.MinItems >= 0 && count < n.MinItems {
		v.violate(e, violation{keyword: "minItems", node: n, off: off, count: count})
	}
	if n.Contains != nil && e.arr.contains < n.MinContains {
		keyword := "contains"
		if n.MinContains != 1 {
			keyword = "minContains"
		}
		v.violate(e, violation{keyword: keyword, node: n, off: off, count: e.arr.contains})
	}
}
