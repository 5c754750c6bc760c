package validator

import (
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// frame is one open value of the document (or the member name being read,
// for propertyNames) and the evaluations running on it. Frames live on an
// explicit stack, never on Go's: input depth never grows the call stack.
type frame struct {
	kind      jsontok.Kind
	off       int64 // offset of the value's first byte
	pathDepth int   // the value's depth on the tracker's path
	isKey     bool  // a member name, evaluated by propertyNames
	evals     []*eval
	byNode    map[*schema.Node]*eval // evals by node, once there are many (kept for the next value)
	indexed   bool                   // byNode holds this value's evals
	index     int64                  // arrays: elements begun so far

	// What the evaluations of a string need from its text, decided at its
	// first byte, and what they share of it.
	excerpt    excerpt
	textRead   bool // the text is read, into excerpt too: something needed it at the first byte (see Begin)
	closing    bool // the string or number ended: its violations apply at once (see postpones)
	wantLength bool
	length     int64 // code points so far
	wantText   bool
	text       []byte

	// checksUnique is set for an array that some evaluation requires to
	// have unique elements; unique then holds their content hashes. The
	// map stays with the frame's slot, cleared when it pops, for the next
	// array at this depth (see keptUniqueHashes).
	checksUnique bool
	unique       map[uint64]struct{}

	// hasUnevaluated is set when an evaluation of the object or array has
	// unevaluatedProperties or unevaluatedItems: cover then holds, as bits
	// over evals, which evaluations cover the current member or element,
	// and bits the coverage of every recorded one (see unevaluated.go).
	hasUnevaluated bool
	cover, bits    []uint64
}

// smallFrame is how many evaluations a frame looks through before it
// indexes them by node.
const smallFrame = 8

// find returns the evaluation of node on the frame's value, or nil.
func (f *frame) find(node *schema.Node) *eval {
	if f.indexed {
		return f.byNode[node]
	}
	for _, e := range f.evals {
		if e.node == node {
			return e
		}
	}
	return nil
}

// add records a new evaluation.
func (f *frame) add(e *eval) {
	e.idx = int32(len(f.evals))
	f.evals = append(f.evals, e)
	f.hasUnevaluated = f.hasUnevaluated || e.node.UnevaluatedProperties != nil || e.node.UnevaluatedItems != nil
	switch {
	case f.indexed:
		f.byNode[e.node] = e
	case len(f.evals) > smallFrame:
		if f.byNode == nil {
			f.byNode = make(map[*schema.Node]*eval, 2*len(f.evals))
		}
		for _, x := range f.evals {
			f.byNode[x.node] = x
		}
		f.indexed = true
	}
}

// entry is one node to apply to the next value of a container.
type entry struct {
	node   *schema.Node
	parent *eval
	rel    relation
	arg    int32
}

// push opens a frame for a value of kind beginning at off and applies the
// pending entries to it (the root for the document itself).
func (v *Validator) push(kind jsontok.Kind, off int64, isKey bool, entries []entry) int32 {
	if len(v.frames) < cap(v.frames) {
		v.frames = v.frames[:len(v.frames)+1]
	} else {
		v.frames = append(v.frames, frame{})
	}
	fr := int32(len(v.frames) - 1)
	f := &v.frames[fr]
	// Field by field, keeping the buffers (pop cleared evals and byNode).
	f.kind, f.off, f.pathDepth, f.isKey, f.index = kind, off, len(v.track.levels), isKey, 0
	f.excerpt.reset()
	f.wantLength, f.length, f.wantText, f.text = false, 0, false, f.text[:0]
	f.hasUnevaluated, f.cover, f.bits = false, f.cover[:0], f.bits[:0]
	f.closing, f.textRead = false, isKey
	v.firstByte = true
	for _, en := range entries {
		v.attach(fr, en.node, en.parent, en.rel, en.arg)
		v.steps++
	}
	v.upgradeSoleBranches(fr)
	v.firstByte = false
	clear(v.unreported)
	v.unreported = v.unreported[:0]
	v.prepareText(fr)
	return fr
}

// pop closes the innermost frame and recycles its evaluations, which are
// all decided by now.
func (v *Validator) pop() {
	fr := v.top()
	f := &v.frames[fr]
	v.caps.drop(fr)
	v.state -= int64(len(f.evals))*evalStateBytes + int64(len(f.bits))*8
	for i, e := range f.evals { // a frame has few: cheaper than copy and clear calls
		v.state -= e.recordBytes()
		v.free = append(v.free, e)
		f.evals[i] = nil
	}
	if f.indexed {
		clear(f.byNode)
	}
	if f.checksUnique {
		f.checksUnique = false
		if len(f.unique) > keptUniqueHashes {
			f.unique = nil // one long array must not pin its hashes
		} else {
			clear(f.unique)
		}
	}
	f.evals, f.indexed = f.evals[:0], false
	v.frames = v.frames[:len(v.frames)-1]
}

// top returns the innermost frame's index, or -1 before the document.
func (v *Validator) top() int32 { return int32(len(v.frames) - 1) }

// prepareText decides what the evaluations of a string or number frame
// need from its text.
func (v *Validator) prepareText(fr int32) {
	f := &v.frames[fr]
	if f.kind != jsontok.String && f.kind != jsontok.Number {
		return
	}
	for _, e := range f.evals {
		if !e.listening() {
			continue
		}
		n := e.node
		if f.kind == jsontok.String {
			f.wantLength = f.wantLength || n.MinLength >= 0 || n.MaxLength >= 0
			f.wantText = f.wantText || n.Format != nil
		}
	}
}
