package validator

import (
	"cmp"
	"slices"

	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// status is where an evaluation stands.
type status uint8

const (
	pending status = iota // more input may still decide it
	passed                // the value satisfies the node, whatever follows
	failed                // the value cannot satisfy the node, whatever follows
)

// relation says how a kid evaluation's verdict bears on its parent's.
type relation uint8

const (
	relAnd           relation = iota // must match, in place: allOf, $ref
	relAnyOf                         // one branch of anyOf (arg: branch)
	relOneOf                         // one branch of oneOf (arg: branch)
	relNot                           // not
	relIf                            // if
	relThen                          // then
	relElse                          // else
	relDependent                     // dependentSchemas (arg: entry)
	relChild                         // must match, on a member or element: properties, items, ...
	relContains                      // contains, on one element
	relPropertyNames                 // propertyNames, on one member name
	relUnevaluated                   // unevaluatedProperties/Items, on one member or element (arg: record)
)

// inPlace reports whether a kid under r evaluates the same value as its
// parent (as opposed to a member, element or name of it).
func (r relation) inPlace() bool { return r <= relDependent }

// sub is one subscription to an evaluation's verdict.
type sub struct {
	parent *eval
	rel    relation
	arg    int32
}

// kid is one in-place evaluation an evaluation waits for.
type kid struct {
	e   *eval
	rel relation
	arg int32
}

// eval is the evaluation of one schema node on one value of the document.
// A value is evaluated at most once per node (however many applicators
// reach the node), so the evaluations of one value are bounded by the
// compiled schema's Width.
//
// An evaluation either reports (it is on the root's chain of "must match"
// relations: every violation becomes a finding) or runs pass/fail (under
// anyOf, oneOf, not, if, contains, ...: it stops at its first violation and
// keeps it, to explain its parent's verdict; during its value's first byte
// it goes on, since it may yet be upgraded to report, see mayReport).
type eval struct {
	node   *schema.Node
	fr     int32 // index of its value's frame in Validator.frames
	idx    int32 // position among its frame's evaluations
	status status
	report bool
	dead   bool // the value's type is wrong: no keyword applies any more
	// ownDone is set once the node's own keywords have seen the whole
	// value; endOff is then the value's last byte. settled is set once the
	// keywords that need every kid's verdict have been checked.
	ownDone, settled bool
	endOff           int64
	// pendingKids counts in-place kid subscriptions not yet decided: they
	// keep e from settling as passed.
	pendingKids int32
	fail        violation // the first violation (pass/fail evaluations)
	// unreported is 1 + the index in Validator.unreported of the latest
	// violation e made as a pass/fail evaluation while its value's first
	// byte was handled, or 0 (see upgrade).
	unreported int32
	subs       []sub
	kids       []kid

	anyFailed, oneFailed int32 // branches decided failed
	anyPassed            bool
	onePassed            int32 // oneOf positions decided passed
	conditionReported    bool  // then or else already failed e
	// soleAnyOf and soleOneOf are set when one branch of e's anyOf or
	// oneOf outlived the value's first byte and reports for e (see
	// upgradeSoleBranches).
	soleAnyOf, soleOneOf bool

	// The state of the keywords of the value's kind. The object, array
	// and number states are allocated the first time this evaluation (which
	// is recycled) meets such a value, and kept.
	str     strState
	num     *numState
	obj     *objState
	arr     *arrState
	capture int32 // index of its enum/const capture in Validator.caps, or -1
}

// listening reports whether e still takes the value's events: it is
// undecided, or it reports and has more violations to find.
func (e *eval) listening() bool {
	return e.status == pending && !e.ownDone || e.report && !e.dead && !e.ownDone
}

// newEval returns a cleared evaluation of node, from the free list.
func (v *Validator) newEval(node *schema.Node, fr int32, report bool) *eval {
	var e *eval
	if n := len(v.free); n > 0 {
		e, v.free = v.free[n-1], v.free[:n-1]
	} else {
		e = &eval{}
	}
	v.grow(evalStateBytes)
	// Field by field: the kind states are reset by start, for the kind met.
	e.node, e.fr, e.report, e.capture = node, fr, report, -1
	e.status, e.dead, e.ownDone, e.settled, e.endOff, e.pendingKids, e.unreported = pending, false, false, false, 0, 0, 0
	e.subs, e.kids = e.subs[:0], e.kids[:0]
	e.anyFailed, e.oneFailed, e.anyPassed, e.onePassed, e.conditionReported = 0, 0, false, 0, false
	e.soleAnyOf, e.soleOneOf = false, false
	return e
}

// attach applies node to the value of frame fr on behalf of parent (nil
// for the root) under rel, evaluating the node on the value unless the
// value already has that evaluation. A reporting parent's "must match"
// kids report too.
func (v *Validator) attach(fr int32, node *schema.Node, parent *eval, rel relation, arg int32) {
	report := parent == nil || parent.report && (rel == relAnd || rel == relChild)
	f := &v.frames[fr]
	e := f.find(node)
	fresh := e == nil
	if fresh {
		e = v.newEval(node, fr, report)
		f.add(e)
	} else if report && !e.report {
		v.upgrade(e)
	}
	if parent != nil {
		e.subs = append(e.subs, sub{parent, rel, arg})
		if rel.inPlace() {
			parent.kids = append(parent.kids, kid{e, rel, arg})
			parent.pendingKids++
		}
	}
	if fresh {
		v.start(e)
	} else if e.status != pending && parent != nil {
		v.deliver(e, sub{parent, rel, arg})
	}
}

// upgrade makes a pass/fail evaluation report, with its must-match kids:
// another parent that reports reached the same node on the same value.
// This happens while the value's first byte is handled, so the violations
// it already made are those Validator.unreported holds for it (a wrong
// enum and const, a failed anyOf and else, all at that byte): they are
// reported now, in the order they were made.
func (v *Validator) upgrade(e *eval) {
	e.report = true
	if e.status == failed {
		var chain [8]int32
		at := chain[:0]
		for i := e.unreported; i > 0; i = v.unreported[i-1].prev {
			at = append(at, i-1)
		}
		for _, i := range slices.Backward(at) {
			vio := v.unreported[i].vio
			v.reportViolation(e, &vio)
		}
	}
	for _, k := range e.kids {
		if k.rel == relAnd && !k.e.report {
			v.upgrade(k.e)
		}
	}
}

// start evaluates e's node at the first byte of its value.
func (v *Validator) start(e *eval) {
	f := &v.frames[e.fr]
	n := e.node
	switch {
	case n.Never:
		e.dead = true
		v.violate(e, violation{keyword: n.Keyword, node: n, off: f.off, got: f.kind, never: true})
		return
	case !typeAllows(n.Types, f.kind):
		e.dead = true
		v.violate(e, violation{keyword: "type", node: n, off: f.off, got: f.kind})
		return
	}
	switch f.kind {
	case jsontok.String:
		v.startString(e)
	case jsontok.Number:
		if e.num == nil {
			e.num = &numState{}
		}
		v.startNumber(e)
	case jsontok.Object:
		v.startObject(e)
	case jsontok.Array:
		v.startArray(e)
	}
	v.startChoices(e)
	v.startInPlace(e)
	if !v.needsContent(e) {
		e.ownDone, e.endOff = true, f.off
		v.settle(e)
	}
}

// needsContent reports whether e's node checks anything past the value's
// first byte.
func (v *Validator) needsContent(e *eval) bool {
	if e.capture >= 0 {
		return true
	}
	return e.node.Checks&kindType(v.frames[e.fr].kind) != 0
}

// kindType is the type bit of a value kind, as Node.Checks and
// Node.Trivial use them (TypeNumber for every number).
func kindType(kind jsontok.Kind) schema.Types {
	switch kind {
	case jsontok.Object:
		return schema.TypeObject
	case jsontok.Array:
		return schema.TypeArray
	case jsontok.String:
		return schema.TypeString
	case jsontok.Number:
		return schema.TypeNumber
	case jsontok.True, jsontok.False:
		return schema.TypeBoolean
	}
	return schema.TypeNull
}

// typeAllows reports whether a value of kind can satisfy types. Integer is
// checked again when the number is complete.
func typeAllows(types schema.Types, kind jsontok.Kind) bool {
	switch kind {
	case jsontok.Object:
		return types&schema.TypeObject != 0
	case jsontok.Array:
		return types&schema.TypeArray != 0
	case jsontok.String:
		return types&schema.TypeString != 0
	case jsontok.Number:
		return types&(schema.TypeNumber|schema.TypeInteger) != 0
	case jsontok.True, jsontok.False:
		return types&schema.TypeBoolean != 0
	}
	return types&schema.TypeNull != 0
}

// violate records a violation of e: a finding when e reports, else e's
// first violation. The first violation decides e.
func (v *Validator) violate(e *eval, vio violation) {
	v.noteFailure(e, vio)
	switch {
	case e.report:
		v.reportViolation(e, &vio)
	case v.mayReport(e):
		v.unreported = append(v.unreported, unreportedViolation{vio: vio, prev: e.unreported})
		e.unreported = int32(len(v.unreported))
	}
	v.decide(e, failed)
}

// unreportedViolation is a violation a pass/fail evaluation made while its
// value's first byte was handled, kept in case the evaluation is upgraded
// to report; prev links to the evaluation's previous one (1 + its index,
// or 0).
type unreportedViolation struct {
	vio  violation
	prev int32
}

// decideHeld fails e by a violation whose finding waits for the end of
// the name or value it was found in (see defers): e's parents learn of it
// at once, in byte order with every other verdict, as in a stream, so a
// keyword over a held evaluation and another one is decided by whichever
// failed first. The finding itself is made when the value ends.
func (v *Validator) decideHeld(e *eval, vio violation) {
	v.noteFailure(e, vio)
	v.decide(e, failed)
}

// noteFailure makes vio e's failure when it is e's first violation.
func (v *Validator) noteFailure(e *eval, vio violation) {
	if e.status == pending || vio.off < e.fail.off {
		// Checks of one piece may report out of byte order (see add).
		e.fail = vio
		v.noteCut(e)
	}
}

// queued is a violation of e waiting to be applied in byte order with
// others: found inside a piece of text, waiting for the piece's other
// checks (queue), or held until the end of the current string or number
// (applyHeldBack).
type queued struct {
	e   *eval
	vio violation
	// held marks a violation whose finding waits for the end of its name
	// or value (see defers): applied, it only decides e (decideHeld).
	held bool
}

// queue holds a violation found while a piece of text is checked. Each
// check scans the whole piece, so a later byte may be found before an
// earlier one; applying the violations in byte order once the piece is
// done makes every verdict (and the offset that decides it) the same
// however the document is split.
func (v *Validator) queue(e *eval, vio violation) {
	v.early = append(v.early, queued{e: e, vio: vio})
}

// queueDecision queues a violation found inside a name or value: like
// queue, unless e defers it (see defers), when it only decides e
// (decideHeld) and its finding waits for the value's end.
func (v *Validator) queueDecision(e *eval, vio violation) {
	v.early = append(v.early, queued{e: e, vio: vio, held: v.defers(e)})
}

// applyQueued applies the queued violations in byte order, keeping the
// order of those at one byte.
func (v *Validator) applyQueued() {
	q := v.early
	if len(q) == 0 {
		return
	}
	if len(q) > 1 {
		slices.SortStableFunc(q, func(a, b queued) int { return cmp.Compare(a.vio.off, b.vio.off) })
	}
	for i := range q {
		if q[i].held {
			v.decideHeld(q[i].e, q[i].vio)
		} else {
			v.violate(q[i].e, q[i].vio)
		}
	}
	clear(q)
	v.early = q[:0]
}

// reportViolation turns a violation of a reporting evaluation into a
// finding at the instance path of e's value.
func (v *Validator) reportViolation(e *eval, vio *violation) {
	v.report(vio, v.frames[e.fr].pathDepth)
}

// decide settles e's verdict and tells its subscribers.
func (v *Validator) decide(e *eval, st status) {
	if e.status != pending {
		return
	}
	e.status = st
	for _, s := range e.subs {
		v.deliver(e, s)
	}
}

// deliver gives kid e's verdict to one subscriber. A pass/fail parent
// that failed already needs no more verdicts, unless its value's first
// byte is being handled: it may still be upgraded to report then, and
// must have made every violation a reporting evaluation would have.
func (v *Validator) deliver(e *eval, s sub) {
	p := s.parent
	if s.rel.inPlace() {
		p.pendingKids--
	}
	if p.status == pending || v.mayReport(p) {
		v.onKid(p, e, s.rel, s.arg)
	}
	v.settle(p)
}

// mayReport reports whether e reports its violations, or still may: a
// pass/fail evaluation of the value whose first byte is being handled can
// be upgraded (see upgrade).
func (v *Validator) mayReport(e *eval) bool {
	return e.report || v.firstByte && e.fr == v.top()
}

// onKid applies a kid's verdict to e as soon as it is known, rejecting e
// early when the verdict alone decides it.
func (v *Validator) onKid(e, k *eval, rel relation, arg int32) {
	switch rel {
	case relAnd, relChild:
		if k.status == failed {
			v.kidFailed(e, k, rel)
		}
	case relAnyOf, relOneOf, relNot, relIf, relThen, relElse, relDependent:
		v.onApplicator(e, k, rel, arg)
	case relContains:
		v.onContains(e, k)
	case relPropertyNames:
		if k.status == failed {
			v.violatePropertyNames(e, k)
		}
	case relUnevaluated:
		v.onUnevaluated(e, k, arg)
	}
}

// kidFailed fails e because a kid it must match failed, under rel. A
// reporting kid made its own findings; the kid's violation is e's reason,
// should a pass/fail parent need one, and a kid on a member or element
// puts that value's token before the pointer the reason is about.
func (v *Validator) kidFailed(e, k *eval, rel relation) {
	if e.status == pending || k.fail.off < e.fail.off {
		e.fail = k.fail
		if rel == relChild {
			v.prependMember(&e.fail.where, v.frames[e.fr].pathDepth)
		}
		v.noteCut(e)
	}
	v.decide(e, failed)
}

// reason returns why kid k failed, for a violation of e at off; nil
// unless that violation becomes a finding that is kept (only kept findings
// are explained, so explaining costs nothing once the cap is reached). A
// pass/fail evaluation upgraded to report (see upgrade) reports the
// violations it made before without reasons, as it reports their branches.
func (v *Validator) reason(e, k *eval, off int64) *violation {
	if !e.report || !v.keeps(off) {
		return nil
	}
	r := v.explain(k, 1)
	return &r
}

// settle decides e once its own keywords have seen the whole value and
// every in-place kid is decided: the keywords that need everything (the
// exact count of oneOf, unevaluated*, dependentSchemas) are checked here.
// e is decided at the latest of those moments, which endOff becomes: a
// node whose own keywords are done at the value's first byte (a bare
// $ref) passes only when its kids do.
//
// A reporting evaluation is settled even after it failed, so that a full
// validation reports these violations too.
func (v *Validator) settle(e *eval) {
	if e.settled || !e.ownDone || e.pendingKids > 0 || e.status != pending && !e.report {
		return
	}
	e.settled = true
	for _, k := range e.kids {
		e.endOff = max(e.endOff, v.decidedAt(k.e))
	}
	if e.node.UnevaluatedProperties != nil || e.node.UnevaluatedItems != nil {
		v.settleUnevaluated(e)
	}
	v.decide(e, passed)
}
