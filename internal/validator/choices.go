package validator

import (
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// This file holds enum and const: a closed set of values (const is a set
// of one). Literals are decided at their first byte, strings and numbers
// are narrowed byte by byte (see matcher.go and numbers.go), and objects
// and arrays are captured in canonical form, bounded by the longest
// choice (see capture.go).

// choiceSets returns e's enum and const sets with their keywords, for the
// loops that treat both alike.
func choiceSets(n *schema.Node) [2]struct {
	keyword string
	set     *schema.Enum
} {
	return [2]struct {
		keyword string
		set     *schema.Enum
	}{{"enum", n.Enum}, {"const", n.Const}}
}

// startChoices checks enum and const at the value's first byte: what its
// kind alone decides, and the set-up of what its content decides.
func (v *Validator) startChoices(e *eval) {
	if e.node.Enum == nil && e.node.Const == nil {
		return
	}
	f := &v.frames[e.fr]
	for i, c := range choiceSets(e.node) {
		if c.set == nil {
			continue
		}
		if !choiceKindPossible(c.set, f.kind) {
			v.violate(e, violation{keyword: c.keyword, node: e.node, off: f.off, got: f.kind})
			continue
		}
		switch f.kind {
		case jsontok.String:
			e.str.choice[i].reset(c.set.Strings.Len())
			e.str.choiceOn[i], e.str.choiceFail[i] = true, -1
		case jsontok.Number:
			e.num.choice[i].reset(c.set)
			e.num.choiceOn[i], e.num.choiceFail[i] = true, -1
		case jsontok.Object, jsontok.Array:
			if e.capture < 0 {
				e.capture = v.caps.start(e, f.kind, f.pathDepth)
			}
		}
	}
}

// choiceKindPossible reports whether a value of kind can be one of set's
// choices, deciding literals outright.
func choiceKindPossible(set *schema.Enum, kind jsontok.Kind) bool {
	switch kind {
	case jsontok.String:
		return set.Strings.Len() > 0
	case jsontok.Number:
		return len(set.Numbers) > 0
	case jsontok.True:
		return set.True
	case jsontok.False:
		return set.False
	case jsontok.Null:
		return set.Null
	case jsontok.Object:
		return set.HasComposite('{')
	}
	return set.HasComposite('[')
}

// finishCapture compares a captured object or array with e's enum and
// const choices at the value's end.
func (v *Validator) finishCapture(e *eval, off int64) {
	canonical, ok := v.caps.finish(e.capture)
	e.capture = -1
	if !ok {
		return // outgrew every choice: rejected when it did
	}
	f := &v.frames[e.fr]
	for _, c := range choiceSets(e.node) {
		if c.set != nil && choiceKindPossible(c.set, f.kind) && (canonical == nil || !c.set.HasCanonical(canonical)) {
			v.violate(e, violation{keyword: c.keyword, node: e.node, off: off, got: f.kind})
		}
	}
}
