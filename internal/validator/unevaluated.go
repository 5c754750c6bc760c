package validator

import (
	"slices"

	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// This file holds unevaluatedProperties and unevaluatedItems. A member
// (or element) is evaluated when a keyword of the node, or of a passing
// in-place subschema of it, evaluates it; which subschemas pass is known
// only at the value's end. So the unevaluated subschema runs on every
// member its own node does not cover, and when it fails the member is
// recorded with the set of evaluations on the value that covered it (as
// bits over the frame's evaluations). At the end, the record is a
// violation unless one of those evaluations passed and is reached from
// the owner through passing in-place kids.

// unevalRecord is a member or element on which the unevaluated subschema
// failed. A wide object or long array may have one per member or element,
// kept until it closes, so a record is small: its name, coverage and
// reason live in unevalRecords' shared buffers.
type unevalRecord struct {
	// at is, for arrays, the element's index; for objects, the end of the
	// member's name in unevalRecords.names (it begins where the previous
	// record's ends).
	at    int64
	cover int // start of its coverage bits in the frame's bits
	// never is set when the unevaluated subschema is false: the message
	// then needs no reason beyond that.
	never bool
	// ownContains is set for an element the owner's own contains matched
	// (2020-12): the owner evaluated it.
	ownContains bool
}

// unevalRecords are one evaluation's records on its object or array.
type unevalRecords struct {
	list  []unevalRecord
	names []byte // objects: the names, as appendExcerptOf keeps them
	// reasons holds why the subschema failed, for the first
	// Options.MaxFindings records: findings are capped there, so a later
	// record is reported only when earlier ones turned out evaluated, and
	// then (unless its subschema is false) explained without its reason.
	reasons []violation
}

// reset clears the records, keeping their buffers; nil has none.
func (u *unevalRecords) reset() {
	if u != nil {
		u.list, u.names, u.reasons = u.list[:0], u.names[:0], u.reasons[:0]
	}
}

// recordsIn returns *p, made on first use: most objects and arrays meet
// no unevaluated keyword, and the state reset for each stays a pointer
// wide (three slices cost the tool input profile 1% more instructions a
// call, callgrind on benchloop -doc small).
func recordsIn(p **unevalRecords) *unevalRecords {
	if *p == nil {
		*p = &unevalRecords{}
	}
	return *p
}

// add records a failure of the unevaluated subschema for reason.
func (u *unevalRecords) add(v *Validator, r unevalRecord, reason *violation) {
	r.never = reason.never
	if len(u.list) < v.opts.MaxFindings {
		u.reasons = append(u.reasons, *reason)
		v.grow(reasonStateBytes)
	}
	u.list = append(u.list, r)
	v.grow(recordStateBytes)
}

// addMember records a failure on the member named name, whose coverage
// is at cover.
func (u *unevalRecords) addMember(v *Validator, name []byte, cover int, reason *violation) {
	n := len(u.names)
	u.names = appendExcerptOf(u.names, name)
	v.grow(int64(len(u.names) - n))
	u.add(v, unevalRecord{at: int64(len(u.names)), cover: cover}, reason)
}

// bytes is what the records count toward Validator.State; nil has none.
func (u *unevalRecords) bytes() int64 {
	if u == nil {
		return 0
	}
	return int64(len(u.list))*recordStateBytes + int64(len(u.names)) + int64(len(u.reasons))*reasonStateBytes
}

// recordBytes is what e's unevaluated records count toward State.
func (e *eval) recordBytes() int64 {
	var n int64
	if e.obj != nil {
		n += e.obj.uneval.bytes()
	}
	if e.arr != nil {
		n += e.arr.uneval.bytes()
	}
	return n
}

// reason returns why the subschema of record i failed, or nil when that
// is no longer known.
func (u *unevalRecords) reason(i int, node *schema.Node) *violation {
	switch {
	case i < len(u.reasons):
		reason := u.reasons[i]
		return &reason
	case u.list[i].never:
		return &violation{keyword: node.Keyword, node: node, never: true}
	}
	return nil
}

// onUnevaluated records a failed unevaluated subschema on the current
// member (at once) or element (when it ends, once contains has decided).
func (v *Validator) onUnevaluated(e, k *eval, _ int32) {
	if k.status != failed {
		return
	}
	f := &v.frames[e.fr]
	if f.kind == jsontok.Array {
		e.arr.unevalFailed, e.arr.unevalReason = true, k.fail
		return
	}
	// A member whose value is an object or array fails when that value
	// ends: the name is the one at e's object's level, not the innermost.
	recordsIn(&e.obj.uneval).addMember(v, v.track.keyAt(f.pathDepth), v.recordCover(f), &k.fail)
}

// noteMemberCoverage records which evaluations of object frame fr cover
// the member whose name just ended. Only an object frame where some
// evaluation has unevaluatedProperties (f.hasUnevaluated) needs it.
func (v *Validator) noteMemberCoverage(f *frame) {
	f.cover = resetBits(f.cover, len(f.evals))
	for _, e := range f.evals {
		if e.listening() && e.obj.covers {
			f.cover[e.idx/64] |= 1 << (e.idx % 64)
		}
	}
}

// noteElementCoverage records, at the end of an element of array frame
// fr, which evaluations covered it, and the unevaluatedItems failures on
// it.
func (v *Validator) noteElementCoverage(fr int32) {
	f := &v.frames[fr]
	if !f.hasUnevaluated {
		return
	}
	f.cover = resetBits(f.cover, len(f.evals))
	for _, e := range f.evals {
		if e.dead {
			continue // its type is wrong: it evaluated nothing
		}
		if e.arr.covers || e.arr.containsMatch && e.node.ContainsAnnotates {
			f.cover[e.idx/64] |= 1 << (e.idx % 64)
		}
	}
	for _, e := range f.evals {
		if !e.dead && e.arr.unevalFailed {
			e.arr.unevalFailed = false
			r := unevalRecord{at: f.index - 1, cover: v.recordCover(f), ownContains: e.arr.containsMatch && e.node.ContainsAnnotates}
			recordsIn(&e.arr.uneval).add(v, r, &e.arr.unevalReason)
		}
	}
}

// recordCover returns where f.bits holds the coverage in f.cover,
// appending it unless the latest recorded coverage is the same: the
// members or elements of a long run share their coverage.
func (v *Validator) recordCover(f *frame) int {
	n := len(f.cover)
	if last := len(f.bits) - n; last >= 0 && slices.Equal(f.bits[last:], f.cover) {
		return last
	}
	f.bits = append(f.bits, f.cover...)
	v.grow(int64(n) * 8)
	return len(f.bits) - n
}

// resetBits returns b cleared to hold n bits.
func resetBits(b []uint64, n int) []uint64 {
	b = b[:0]
	for range (n + 63) / 64 {
		b = append(b, 0)
	}
	return b
}

// settleUnevaluated checks e's unevaluated records once every in-place
// kid is decided.
func (v *Validator) settleUnevaluated(e *eval) {
	var records *unevalRecords
	keyword, node := "unevaluatedProperties", e.node.UnevaluatedProperties
	f := &v.frames[e.fr]
	switch f.kind {
	case jsontok.Object:
		records = e.obj.uneval
	case jsontok.Array:
		records, keyword, node = e.arr.uneval, "unevaluatedItems", e.node.UnevaluatedItems
	}
	if records == nil || len(records.list) == 0 {
		return
	}
	contrib := v.contributors(e)
	words := (len(f.evals) + 63) / 64
	var nameStart int64
	for i, r := range records.list {
		var name []byte
		if f.kind == jsontok.Object {
			name, nameStart = records.names[nameStart:r.at], r.at
		}
		if r.ownContains || anyBit(f.bits[r.cover:r.cover+words], contrib) {
			continue // evaluated
		}
		vio := violation{keyword: keyword, node: e.node, off: e.endOff, complete: true}
		if f.kind == jsontok.Object {
			vio.excerpt.set(name)
		} else {
			vio.count = r.at
		}
		if e.report && v.keeps(vio.off) {
			vio.reason = records.reason(i, node)
		}
		v.violate(e, vio)
		if !e.report || v.full() {
			return
		}
	}
}

// anyBit reports whether a and b share a set bit.
func anyBit(a, b []uint64) bool {
	for i, w := range a {
		if w&b[i] != 0 {
			return true
		}
	}
	return false
}

// contributors returns, as bits over e's frame, the evaluations whose
// annotations reach e: those reached from e through in-place kids that
// passed and whose annotations the applicator keeps (never under not; then
// only when if passed, else only when it failed; dependentSchemas only
// when the member is present).
func (v *Validator) contributors(e *eval) []uint64 {
	f := &v.frames[e.fr]
	v.contrib = resetBits(v.contrib, len(f.evals))
	stack := append(v.walk[:0], e)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		_, cond := v.kidStatus(x, relIf, 0)
		for _, k := range x.kids {
			if k.e.status != passed || v.contrib[k.e.idx/64]&(1<<(k.e.idx%64)) != 0 {
				continue
			}
			switch k.rel {
			case relNot:
				continue
			case relThen:
				if cond != passed {
					continue
				}
			case relElse:
				if cond != failed {
					continue
				}
			case relDependent:
				if !x.obj.hasSeen(x.node.DependentSchemas[k.arg].Key) {
					continue
				}
			}
			v.contrib[k.e.idx/64] |= 1 << (k.e.idx % 64)
			stack = append(stack, k.e)
		}
	}
	v.walk = stack
	return v.contrib
}
