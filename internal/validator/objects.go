package validator

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/pattern"
	"github.com/toolgate/toolgate/internal/schema"
)

// This file holds the object keywords: properties, patternProperties,
// additionalProperties, propertyNames, required, dependentRequired,
// min/maxProperties, and the presence half of dependentSchemas. Member
// names are matched byte by byte against the node's sorted names, so a
// closed object rejects a name at its first byte no declared name can
// follow; a first piece that is a whole name is found in one hash lookup
// (schema.NameIndex).

// objState is one evaluation's progress through an object.
type objState struct {
	keys      matcher
	keySet    pattern.SetMatcher // the patternProperties, over the current name
	declared  matcher            // over Node.DeclaredNames, for a closed object that has them
	keyFailAt int64              // where the current name left every name and pattern of a closed object, or -1
	namesFail heldName           // a propertyNames violation waiting for the current name's end (see violatePropertyNames)
	seen      []uint64           // Keys seen, as bits: zero but for the words in touched (see see)
	touched   []int32            // the words of seen that hold a bit
	required  int                // required Keys seen
	count     int64              // members so far
	covers    bool               // some keyword of the node evaluates the current member
	dependent []uint64           // dependentSchemas entries already reported, as bits
	presentAt []int64            // per dependentSchemas entry, the closing quote of its member's name, or -1 (see markPresent)
	uneval    *unevalRecords     // made on first use (see recordsIn)
}

// reset clears the state for an object of a node that knows keys names,
// keeping its buffers, field by field (cheaper than assigning a whole
// literal, which the compiler builds aside and copies). The bits of
// seen are cleared word by word where the last object set them, and grown
// (once in the state's life) to keys: an object costs what its members
// do, not what its node knows (a node may know 100,000 names). It returns
// the words it cleared.
func (o *objState) reset(keys int) int {
	for _, w := range o.touched {
		o.seen[w] = 0
	}
	cleared := len(o.touched)
	if words := (keys + 63) / 64; len(o.seen) < words {
		o.seen = append(o.seen, make([]uint64, words-len(o.seen))...)
	}
	o.keys, o.declared, o.keyFailAt = matcher{}, matcher{}, -1 // keySet is Reset at each member name, keeping its cursors
	o.namesFail = heldName{off: -1}
	o.touched, o.required, o.count, o.covers = o.touched[:0], 0, 0, false
	o.dependent, o.presentAt = o.dependent[:0], o.presentAt[:0]
	o.uneval.reset()
	return cleared
}

func (o *objState) hasSeen(i int) bool { return o.seen[uint(i)/64]&(1<<(uint(i)%64)) != 0 }

// see marks Keys[i] seen, and reports whether it was not already.
func (o *objState) see(i int) bool {
	w, bit := uint(i)/64, uint64(1)<<(uint(i)%64)
	word := o.seen[w]
	if word&bit != 0 {
		return false
	}
	if word == 0 {
		o.touched = append(o.touched, int32(w))
	}
	o.seen[w] = word | bit
	return true
}

func (o *objState) dependentReported(i int) bool {
	return i/64 < len(o.dependent) && o.dependent[i/64]&(1<<(i%64)) != 0
}

// markPresent records that the member of dependentSchemas entry i is
// present from off on, unless it was already.
func (o *objState) markPresent(i int, off int64) {
	for len(o.presentAt) <= i {
		o.presentAt = append(o.presentAt, -1)
	}
	if o.presentAt[i] < 0 {
		o.presentAt[i] = off
	}
}

func (o *objState) markDependentReported(i int) {
	for len(o.dependent) <= i/64 {
		o.dependent = append(o.dependent, 0)
	}
	o.dependent[i/64] |= 1 << (i % 64)
}

func (v *Validator) startObject(e *eval) {
	if e.obj == nil {
		e.obj = &objState{}
	}
	v.steps += int64(e.obj.reset(len(e.node.Keys)))
}

// closed reports whether n refuses every member that no property or
// pattern covers.
func closed(n *schema.Node) bool { return n.Additional != nil && n.Additional.Never }

// moreMembers handles the promise of one more member, at the ',' after a
// member or the opening quote of the first one: an object at its
// maxProperties is refused there.
func (v *Validator) moreMembers(e *eval, off int64) {
	if n := e.node; n.MaxProperties >= 0 && e.obj.count == n.MaxProperties {
		v.violate(e, violation{keyword: "maxProperties", node: n, off: off})
	}
}

// beginMember handles the opening quote of a member name: the member
// count, and the propertyNames evaluation of the name, appended to names.
func (v *Validator) beginMember(e *eval, off int64, names []entry) []entry {
	n := e.node
	if e.obj.count == 0 {
		v.moreMembers(e, off) // no ',' came before it
	}
	e.obj.count++
	e.obj.keys.reset(n.KeyNames.Len())
	e.obj.declared.reset(n.DeclaredNames.Len())
	if pp := n.PatternProperties; pp != nil {
		e.obj.keySet.Reset(pp.Set)
	}
	e.obj.keyFailAt = -1
	if closed(n) && n.PatternProperties == nil && allowedNames(n).Len() == 0 {
		// No name at all is allowed: the opening quote is the first
		// impossible byte.
		e.obj.keyFailAt = off
		if vio := (violation{keyword: "additionalProperties", node: n, off: off}); v.defers(e) {
			v.decideHeld(e, vio) // the finding waits for the name (see defers)
		} else {
			v.violate(e, vio)
		}
	}
	if n.PropertyNames != nil {
		names = append(names, entry{node: n.PropertyNames, parent: e, rel: relPropertyNames})
	}
	return names
}

// heldName is a propertyNames violation found inside a member name,
// whose finding waits for the name's end, so that its reason quotes the
// name whole; off is -1 when none waits.
type heldName struct {
	off    int64
	reason *violation
}

// violatePropertyNames records that the name's propertyNames evaluation k
// failed. The violation quotes the name (a pass/fail e gives no reason,
// only the name): whole once it has ended, else up to the deciding byte,
// as k's own violation quotes it. In a full validation, a failure found
// before the name's closing quote decides e at once and waits for that
// quote to be reported (see defers).
func (v *Validator) violatePropertyNames(e, k *eval) {
	vio := violation{keyword: "propertyNames", node: e.node, off: k.fail.off, reason: v.reason(e, k, k.fail.off), complete: !v.inKey}
	switch {
	case !v.inKey:
		vio.excerpt.set(v.track.key())
	case k.fail.got == jsontok.String: // a keyword on the name's text: it quoted what decided it
		vio.excerpt = k.fail.excerpt
	}
	if v.inKey && v.defers(e) {
		e.obj.namesFail = heldName{off: vio.off, reason: vio.reason}
		v.decideHeld(e, vio)
		return
	}
	v.violate(e, vio)
}

// releaseNameFailure reports the propertyNames violation that waits for
// the current name (see violatePropertyNames), its reasons quoting what
// was read of the name: all of it when complete.
func (v *Validator) releaseNameFailure(e *eval, complete bool) {
	held := e.obj.namesFail
	e.obj.namesFail = heldName{off: -1}
	vio := violation{keyword: "propertyNames", node: e.node, off: held.off, reason: held.reason, complete: complete}
	vio.excerpt.set(v.track.key())
	if held.reason != nil {
		held.reason.quoteRead(jsontok.String, 0, &vio.excerpt, complete) // a name's propertyNames reasons are all about the name
	}
	v.violate(e, vio)
}

// memberNameText narrows e's names and patterns by a piece of the current
// member name. A closed object rejects the name at the first byte after
// which neither a declared name nor a pattern can match it.
func (v *Validator) memberNameText(e *eval, p []byte, off int64, raw bool) {
	n, o := e.node, e.obj
	iName := o.keys.feed(&n.KeyNames, p, &v.steps)
	nameDead := o.keys.dead
	if n.DeclaredNames != nil && closed(n) {
		// Names known only from required or the dependent keywords are
		// refused like any other undeclared name.
		iName = o.declared.feed(n.DeclaredNames, p, &v.steps)
		nameDead = o.declared.dead
	}
	iSet, setDead := -1, true
	if pp := n.PatternProperties; pp != nil {
		if !o.keySet.Dead() {
			iSet = o.keySet.Write(p)
		}
		setDead = o.keySet.Dead()
	}
	if !closed(n) || o.keyFailAt >= 0 || !nameDead || !setDead {
		return
	}
	// Both are dead, and the later death is in this piece (an earlier
	// one would have set keyFailAt already).
	i := max(iName, iSet)
	key := v.track.key() // holds p already: quote it up to the failing byte
	v.refuseName(e, byteOffset(off, i, raw), key[:len(key)-len(p)+upTo(i, p, raw)])
}

// refuseName decides that closed object e refuses the current member name
// at off, quoting name (what of it came before); a full validation's
// finding waits for the name's end (see defers).
func (v *Validator) refuseName(e *eval, off int64, name []byte) {
	e.obj.keyFailAt = off
	vio := violation{keyword: "additionalProperties", node: e.node, off: off}
	vio.excerpt.set(name)
	v.queueDecision(e, vio)
}

// memberNameEscape handles the news that the next character of the
// current member name is one of chars, known at off (see stringEscape): a
// closed object refuses the name there when no declared name and no
// pattern of patternProperties continues with such a character.
func (v *Validator) memberNameEscape(e *eval, chars jsontok.CharRange, off int64) {
	n, o := e.node, e.obj
	if !closed(n) || o.keyFailAt >= 0 {
		return
	}
	names := &o.keys
	if n.DeclaredNames != nil {
		names = &o.declared
	}
	if !names.growsInto(allowedNames(n), chars, &v.steps) && (n.PatternProperties == nil || !chars.Some(o.keySet.GrowsWithin)) {
		v.refuseName(e, off, v.track.key())
	}
}

// allowedNames returns the names a closed object n allows: its declared
// ones, which the names only required or the dependent keywords mention
// are not.
func allowedNames(n *schema.Node) *schema.NameIndex {
	if n.DeclaredNames != nil {
		return n.DeclaredNames
	}
	return &n.KeyNames
}

// violateKey reports a member name that a closed object does not allow.
func (v *Validator) violateKey(e *eval, off int64, name []byte, complete bool) {
	vio := violation{keyword: "additionalProperties", node: e.node, off: off, complete: complete}
	vio.excerpt.set(name)
	v.violate(e, vio)
}

// endMemberName handles the closing quote of a member name: it marks the
// name seen, and appends the subschemas that evaluate the member's value.
func (v *Validator) endMemberName(e *eval, off int64, entries []entry) []entry {
	n := e.node
	if e.obj.namesFail.off >= 0 {
		v.releaseNameFailure(e, true)
	}
	idx := e.obj.keys.match(&n.KeyNames)
	covered := false
	if idx >= 0 {
		k := &n.Keys[idx]
		if e.obj.see(idx) && k.Required {
			e.obj.required++
		}
		if k.Declared {
			covered = true
			if k.Schema != nil {
				entries = memberEntry(v, e, k.Schema, off, entries)
			}
		}
		if len(k.Dependents) > 0 {
			v.dependentPresent(e, idx, off)
		}
	}
	if pp := n.PatternProperties; pp != nil {
		m := e.obj.keySet.Matches()
		for j := m.Next(0); j >= 0; j = m.Next(j + 1) {
			covered = true
			entries = memberEntry(v, e, pp.Schemas[j], off, entries)
		}
	}
	switch {
	case covered:
	case closed(n):
		covered = true
		switch {
		case e.obj.keyFailAt < 0:
			// A proper prefix of a declared name, or a name only a pattern
			// could have covered: decided at the closing quote.
			v.violateKey(e, off, v.track.key(), true)
		case v.defers(e):
			v.violateKey(e, e.obj.keyFailAt, v.track.key(), true)
		}
	case n.Additional != nil:
		covered = true
		entries = append(entries, entry{node: n.Additional, parent: e, rel: relChild})
	case n.UnevaluatedProperties != nil:
		entries = append(entries, entry{node: n.UnevaluatedProperties, parent: e, rel: relUnevaluated})
	}
	e.obj.covers = covered || n.UnevaluatedProperties != nil
	e.obj.keyFailAt = -1
	return entries
}

// memberEntry appends to entries the evaluation of the current member's
// value by s, a subschema of properties or patternProperties, whose name
// ended at off. A false s refuses the member there instead (see
// refuseMember). It is small enough to inline, the refusal being rare: a
// member costs what it did before false subschemas were refused at its
// name (callgrind: 63 instructions more a document of four members).
func memberEntry(v *Validator, e *eval, s *schema.Node, off int64, entries []entry) []entry {
	if s.Never {
		v.refuseMember(e, s, off)
		return entries
	}
	return append(entries, entry{node: s, parent: e, rel: relChild})
}

// refuseMember refuses the current member of e's object, whose properties
// or patternProperties subschema s is false, at its name's closing quote
// at off: no value can follow that name, so the quote is the first
// impossible byte.
func (v *Validator) refuseMember(e *eval, s *schema.Node, off int64) {
	vio := violation{keyword: s.Keyword, node: s, off: off, never: true, about: currentMember}
	vio.where.prepend(v.track.key(), 0) // as a reason, it is about the member
	v.violate(e, vio)
}

// dependentPresent notes that the member Keys[idx] is present, from its
// name's closing quote at off, for the dependentSchemas entries that
// depend on it.
func (v *Validator) dependentPresent(e *eval, idx int, off int64) {
	for _, i := range e.node.Keys[idx].Dependents {
		e.obj.markPresent(i, off)
		v.checkDependent(e, i, off)
	}
}

// endDependentRequired checks the dependentRequired entries of the names
// the object holds (the bits of its touched words), each found by a
// binary search, not every entry: an object of one member costs what
// that member requires, however many entries the node has.
func (v *Validator) endDependentRequired(e *eval, off int64) {
	for _, w := range e.obj.touched {
		for word := e.obj.seen[w]; word != 0; word &= word - 1 {
			if !v.dependentRequired(e, int(w)*64+bits.TrailingZeros64(word), off) {
				return
			}
		}
	}
}

// dependentRequired checks the entries of the present member Keys[key],
// and reports whether to go on: false once e has failed and does not
// report, or the findings are full.
func (v *Validator) dependentRequired(e *eval, key int, off int64) bool {
	n := e.node
	d, _ := slices.BinarySearchFunc(n.DependentRequired, key, func(d schema.Dependency, key int) int { return cmp.Compare(d.Key, key) })
	for ; d < len(n.DependentRequired) && n.DependentRequired[d].Key == key; d++ {
		v.steps++
		for _, r := range n.DependentRequired[d].Requires {
			v.steps++
			if e.obj.hasSeen(r) {
				continue
			}
			vio := violation{keyword: "dependentRequired", spelled: n.DependentRequired[d].Keyword, node: n, off: off, name: n.Keys[key].Name}
			vio.excerpt.set([]byte(n.Keys[r].Name))
			v.violate(e, vio)
			if !e.report || v.full() {
				return false
			}
		}
	}
	return true
}

// endObject checks what only the whole object decides.
func (v *Validator) endObject(e *eval, off int64) {
	n := e.node
	if e.obj.required < len(n.Required) { // only a failure looks at each name
		for _, idx := range n.Required {
			if !e.obj.hasSeen(idx) {
				v.violate(e, violation{keyword: "required", node: n, off: off, name: n.Keys[idx].Name})
				if !e.report || v.full() {
					break
				}
			}
		}
	}
	for _, name := range n.RequiredForbidden {
		v.violate(e, violation{keyword: "required", node: n, off: off, name: name})
	}
	if len(n.DependentRequired) > 0 {
		v.endDependentRequired(e, off)
	}
	if n.MinProperties >= 0 && e.obj.count < n.MinProperties {
		v.violate(e, violation{keyword: "minProperties", node: n, off: off, count: e.obj.count})
	}
}
