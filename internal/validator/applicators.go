package validator

import (
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// This file holds the in-place applicators: allOf, anyOf, oneOf, not,
// if/then/else, the references and dependentSchemas. Their subschemas
// evaluate the same value as the node, as kids of its evaluation, and a
// kid's verdict is applied the moment it is known (onApplicator), so a
// value is rejected as soon as its branches decide.

// startInPlace starts e's in-place kids on its value, in the order
// kidIndex counts on.
func (v *Validator) startInPlace(e *eval) {
	n := e.node
	if !n.InPlace {
		return
	}
	fr := e.fr
	for _, s := range n.AllOf {
		v.attach(fr, s, e, relAnd, 0)
	}
	for _, r := range n.Refs {
		v.attach(fr, r.Target, e, relAnd, 0)
	}
	for i, b := range n.AnyOf {
		v.attach(fr, b.Node, e, relAnyOf, int32(i))
	}
	for i, b := range n.OneOf {
		v.attach(fr, b.Node, e, relOneOf, int32(i))
	}
	if n.Not != nil {
		v.attach(fr, n.Not, e, relNot, 0)
	}
	if n.If != nil {
		v.attach(fr, n.If, e, relIf, 0)
		if n.Then != nil {
			v.attach(fr, n.Then, e, relThen, 0)
		}
		if n.Else != nil {
			v.attach(fr, n.Else, e, relElse, 0)
		}
	}
	if v.frames[fr].kind == jsontok.Object {
		for i, d := range n.DependentSchemas {
			v.attach(fr, d.Schema, e, relDependent, int32(i))
		}
	}
}

// onApplicator applies one in-place kid's verdict to e.
func (v *Validator) onApplicator(e, k *eval, rel relation, arg int32) {
	n := e.node
	off := v.decidedAt(k)
	switch rel {
	case relAnyOf:
		if k.status == passed {
			e.anyPassed = true
		} else if e.anyFailed++; int(e.anyFailed) == len(n.AnyOf) {
			v.branchesFailed(e, "anyOf", off)
		}
	case relOneOf:
		if k.status == passed {
			e.onePassed += int32(len(n.OneOf[arg].Positions))
			if e.onePassed >= 2 && e.onePassed-int32(len(n.OneOf[arg].Positions)) < 2 {
				v.violateByKids(e, v.branchViolation(e, "oneOf", off))
			}
		} else if e.oneFailed++; int(e.oneFailed) == len(n.OneOf) {
			v.branchesFailed(e, "oneOf", off)
		}
	case relNot:
		if k.status == passed {
			v.violateByKids(e, violation{keyword: "not", node: n, off: off})
		}
	case relIf, relThen, relElse:
		v.checkConditional(e)
	case relDependent:
		v.checkDependent(e, int(arg), off)
	}
}

// branchesFailed fails e, every branch of its anyOf or oneOf (keyword)
// having failed by off. When one branch outlived the value's first byte
// and reported (see upgradeSoleBranches), its findings, at their own
// paths, are the explanation, and the applicator's summary is left out.
func (v *Validator) branchesFailed(e *eval, keyword string, off int64) {
	vio := v.branchViolation(e, keyword, off)
	if keyword == "anyOf" && e.soleAnyOf || keyword == "oneOf" && e.soleOneOf {
		v.decideHeld(e, vio)
		return
	}
	v.violateByKids(e, vio)
}

// upgradeSoleBranches makes a branch report, at the end of the first byte
// of frame fr's value, when it is the only branch of a reporting
// evaluation's anyOf or oneOf that the byte did not fail: the others
// refused the value's type (as {"type": "null"} beside an object, which
// is how pydantic, zod and TypeBox write an optional field), so the
// applicator fails exactly when that branch does, and the branch's own
// findings say where and why (/o/x must be an integer), which the
// applicator's one message at the value cannot.
//
// Only under the JSON Schema profile: the tool input profile's oneOf
// failures keep their one oneOf finding, as its fixtures state them
// ("oneOf: options[1] matches zero branches").
func (v *Validator) upgradeSoleBranches(fr int32) {
	if v.schema.Profile != schema.JSONSchema {
		return
	}
	for _, e := range v.frames[fr].evals {
		if !e.report || e.status != pending || len(e.node.AnyOf) < 2 && len(e.node.OneOf) < 2 {
			continue
		}
		for _, rel := range [...]relation{relAnyOf, relOneOf} {
			var left *eval
			alive := 0
			for _, k := range e.kids {
				if k.rel == rel && k.e.status != failed {
					alive++
					left = k.e
				}
			}
			if alive == 1 && left.status == pending && !left.report {
				v.upgrade(left)
				if rel == relAnyOf {
					e.soleAnyOf = true
				} else {
					e.soleOneOf = true
				}
			}
		}
	}
}

// violateByKids records a violation of e that its kids decided (anyOf,
// oneOf, not, then, else, dependentSchemas), postponing it to the end of
// the current string or number when e reports there (see postpones).
func (v *Validator) violateByKids(e *eval, vio violation) {
	if v.postpones(e) {
		v.decideHeld(e, vio) // only the finding waits
		v.postponed = append(v.postponed, queued{e: e, vio: vio})
		return
	}
	v.violate(e, vio)
}

// decidedAt is the offset at which a kid's verdict was made: its first
// violation, or the end of its value.
func (v *Validator) decidedAt(k *eval) int64 {
	if k.status == failed {
		return k.fail.off
	}
	return k.endOff
}

// kidStatus returns the verdict of e's in-place kid under rel (and arg),
// or pending when e has none (yet: startInPlace may still be attaching).
// It finds the kid by kidIndex, one step, with no search: a search cost
// every dependentSchemas entry of an object a pass over all its kids.
func (v *Validator) kidStatus(e *eval, rel relation, arg int32) (*eval, status) {
	v.steps++
	i := kidIndex(e.node, rel, arg)
	if i < 0 || i >= len(e.kids) {
		return nil, pending
	}
	k := e.kids[i].e
	return k, k.status
}

// kidIndex is where startInPlace puts the in-place kid of an evaluation of
// n under rel and arg in its kids, or -1 when n has no such subschema.
// startInPlace attaches one kid per subschema, always in the same order
// (allOf, the references, anyOf, oneOf, not, if, then, else,
// dependentSchemas), so the place is a sum of counts. Only the relations
// kidStatus is asked for have one: anyOf, oneOf, not, if, then, else and
// dependentSchemas.
func kidIndex(n *schema.Node, rel relation, arg int32) int {
	i := len(n.AllOf) + len(n.Refs)
	if rel == relAnyOf {
		return i + int(arg)
	}
	i += len(n.AnyOf)
	if rel == relOneOf {
		return i + int(arg)
	}
	i += len(n.OneOf)
	for _, part := range [...]struct {
		rel     relation
		present bool
	}{{relNot, n.Not != nil}, {relIf, n.If != nil}, {relThen, n.If != nil && n.Then != nil}, {relElse, n.If != nil && n.Else != nil}} {
		switch {
		case part.rel == rel && part.present:
			return i
		case part.rel == rel:
			return -1
		case part.present:
			i++
		}
	}
	return i + int(arg) // relDependent
}

// checkConditional applies if/then/else once the if kid and the branch it
// selects are decided. The violation is decided by the later of the two:
// the branch may fail before the if does (an else branch's enum at a
// string's first byte, the if's pattern at its third), and the two may be
// delivered in either order, so the offset is taken from both kids, never
// from whichever was delivered last.
func (v *Validator) checkConditional(e *eval) {
	cond, condSt := v.kidStatus(e, relIf, 0)
	var branch *eval
	var st status
	keyword := "then"
	switch condSt {
	case passed:
		branch, st = v.kidStatus(e, relThen, 0)
	case failed:
		branch, st = v.kidStatus(e, relElse, 0)
		keyword = "else"
	default:
		return
	}
	if branch != nil && st == failed && !e.conditionReported {
		e.conditionReported = true
		off := max(v.decidedAt(cond), v.decidedAt(branch))
		v.violateByKids(e, violation{keyword: keyword, node: e.node, off: off, reason: v.reason(e, branch, off)})
	}
}

// checkDependent applies dependentSchemas entry i once its kid is decided
// and the member it depends on is known to be present. Like a conditional
// it is decided by the later of the two: the kid may fail inside the very
// name that makes it apply (a closed object refusing "id" at its "i"),
// and be learnt only after that name's closing quote.
func (v *Validator) checkDependent(e *eval, i int, off int64) {
	d := e.node.DependentSchemas[i]
	k, st := v.kidStatus(e, relDependent, int32(i))
	if st != failed || !e.obj.hasSeen(d.Key) || e.obj.dependentReported(i) {
		return
	}
	off = max(off, e.obj.presentAt[i])
	e.obj.markDependentReported(i)
	v.violateByKids(e, violation{keyword: "dependentSchemas", spelled: d.Keyword, node: e.node, off: off, name: e.node.Keys[d.Key].Name, reason: v.reason(e, k, off)})
}

// branchViolation is a failed anyOf or oneOf of e, decided by the last
// branch to decide: the latest of the failures when none matched, the
// latest of the matches otherwise. Only a reporting evaluation explains
// it (which branches matched, why each failed): explanations are built
// only for findings.
func (v *Validator) branchViolation(e *eval, keyword string, off int64) violation {
	rel := relAnyOf
	if keyword == "oneOf" {
		rel = relOneOf
	}
	var failedAt, passedAt int64 = -1, -1
	for _, k := range e.kids {
		if k.rel != rel {
			continue
		}
		switch k.e.status {
		case passed:
			passedAt = max(passedAt, v.decidedAt(k.e))
		case failed:
			failedAt = max(failedAt, v.decidedAt(k.e))
		}
	}
	switch {
	case rel == relOneOf && e.onePassed > 1: // positions, not branches: a branch may stand for several
		off = passedAt
	case failedAt >= 0:
		off = failedAt
	}
	vio := violation{keyword: keyword, node: e.node, off: off, count: int64(e.onePassed)}
	if e.report && v.keeps(off) {
		vio.branches = v.outcome(e, rel, 1)
	}
	return vio
}

// outcome explains e's anyOf or oneOf branches, nested depth levels deep
// in a message: the positions that matched, and why each failed branch
// failed (for at most maxReasons+1 branches).
func (v *Validator) outcome(e *eval, rel relation, depth int) *branchOutcome {
	out := &branchOutcome{}
	branches := e.node.AnyOf
	if rel == relOneOf {
		branches = e.node.OneOf
	}
	for i, b := range branches {
		k, st := v.kidStatus(e, rel, int32(i))
		switch {
		case st == passed:
			out.matchedCount += len(b.Positions)
			out.matched = mergeSmallest(out.matched, b.Positions, shownPositions)
		case st == failed:
			if out.failed++; len(out.reasons) <= maxReasons {
				out.reasons = append(out.reasons, v.explain(k, depth))
				out.branchOf = append(out.branchOf, i)
			}
		}
	}
	return out
}

// explain returns the violation that failed k, with its own branches
// explained when it is an anyOf or oneOf and the message has room for
// another level.
func (v *Validator) explain(k *eval, depth int) violation {
	r := k.fail
	if r.branches == nil && depth < maxNesting && r.node == k.node {
		switch r.keyword {
		case "anyOf":
			r.branches = v.outcome(k, relAnyOf, depth+1)
		case "oneOf":
			r.branches = v.outcome(k, relOneOf, depth+1)
		}
	}
	return r
}

// shownPositions is how many matched positions a message quotes.
const shownPositions = 16

// mergeSmallest returns the n smallest of have and more, both ascending
// (a branch's Positions are), in ascending order: a message quotes only
// the first n of the positions that matched, so that explaining a oneOf
// costs what its distinct branches do, not its positions (a oneOf of 4,000
// positions alternating between two branches took 0.36 s a document when
// every position was gathered and sorted).
func mergeSmallest(have, more []int, n int) []int {
	out := make([]int, 0, min(n, len(have)+len(more)))
	i, j := 0, 0
	for len(out) < n && (i < len(have) || j < len(more)) {
		if j == len(more) || i < len(have) && have[i] < more[j] {
			out = append(out, have[i])
			i++
		} else {
			out = append(out, more[j])
			j++
		}
	}
	return out
}
