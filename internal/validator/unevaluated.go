package validator

import "github.com/toolgate/toolgate/internal/jsontok"

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
// failed.
type unevalRecord struct {
	name   excerpt // objects: the member's name
	index  int64   // arrays: the element's index
	reason violation
	cover  int // start of its coverage bits in the frame's bits
	// ownContains is set for an element the owner's own contains matched
	// (2020-12): the owner evaluated it.
	ownContains bool
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
	r := unevalRecord{reason: k.fail, cover: len(f.bits)}
	r.name.set(v.track.key())
	f.bits = append(f.bits, f.cover...)
	e.obj.uneval = append(e.obj.uneval, r)
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
			e.arr.uneval = append(e.arr.uneval, unevalRecord{index: f.index - 1, reason: e.arr.unevalReason, cover: len(f.bits),
				ownContains: e.arr.containsMatch && e.node.ContainsAnnotates})
			f.bits = append(f.bits, f.cover...)
		}
	}
}

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
	var records []unevalRecord
	keyword := "unevaluatedProperties"
	f := &v.frames[e.fr]
	switch f.kind {
	case jsontok.Object:
		records = e.obj.uneval
	case jsontok.Array:
		records, keyword = e.arr.uneval, "unevaluatedItems"
	}
	if len(records) == 0 {
		return
	}
	contrib := v.contributors(e)
	words := (len(f.evals) + 63) / 64
	for _, r := range records {
		if r.ownContains {
			continue
		}
		cover := f.bits[r.cover : r.cover+words]
		evaluated := false
		for i, w := range cover {
			if w&contrib[i] != 0 {
				evaluated = true
				break
			}
		}
		if evaluated {
			continue
		}
		vio := violation{keyword: keyword, node: e.node, off: e.endOff, excerpt: r.name, complete: true, count: r.index}
		if e.report && v.keeps(vio.off) {
			reason := r.reason
			vio.reason = &reason
		}
		v.violate(e, vio)
		if !e.report || v.full() {
			return
		}
	}
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
		_, cond := kidStatus(x, relIf, 0)
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
