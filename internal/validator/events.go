package validator

import (
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontok"
)

// events adapts a Validator to jsontok.Handler without exporting the
// handler methods. Each token goes to the evaluations of the value it
// belongs to, and to the path tracker, the enum captures and the content
// hashes, which follow the document independently of any schema.
type events Validator

// Begin implements jsontok.Handler.
func (h *events) Begin(kind jsontok.Kind, off int64) {
	v := (*Validator)(h)
	if v.stopped(off) {
		return
	}
	v.track.beginValue()
	v.caps.begin(v, kind, off)
	if len(v.early) > 0 {
		v.applyQueued()
	}
	var entries []entry
	switch parent := v.top(); {
	case parent < 0:
		v.entries = append(v.entries[:0], entry{node: v.schema.Root})
		entries = v.entries
	case v.frames[parent].kind == jsontok.Array:
		v.entries = v.elementEntries(parent, off, v.entries[:0])
		entries = v.entries
	default:
		entries = v.memberEntries
	}
	if v.trivial(kind, entries) {
		// Every subschema accepts the value at its first byte and none is
		// told about it: no frame, no evaluation, no text.
		v.skipping = true
		if kind == jsontok.String || kind == jsontok.Number {
			v.tok.SkipText()
		}
		return
	}
	if kind == jsontok.Number {
		v.num.Reset(v.schema.MaxDigits + 1)
	}
	fr := v.push(kind, off, false, entries)
	if len(v.early) > 0 { // its evaluations' start decided it (startString)
		v.applyQueued()
	}
	v.hashBegin(fr)
	switch kind {
	case jsontok.Object, jsontok.Array:
		v.track.push(kind == jsontok.Object)
	case jsontok.String, jsontok.Number:
		if v.readsText(fr) {
			v.frames[fr].textRead = true
		} else {
			v.tok.SkipText()
		}
	default:
		v.endValue(kind, off) // a literal is whole at its first byte
	}
}

// trivial reports whether a scalar value of kind needs nothing beyond its
// first byte: it is a member or element, every subschema applied to it
// accepts it there and is a plain "must match" (so its passing changes
// nothing for its parent), and no capture or content hash follows it.
func (v *Validator) trivial(kind jsontok.Kind, entries []entry) bool {
	if kind == jsontok.Object || kind == jsontok.Array || v.top() < 0 || v.caps.live > 0 || v.hashing > 0 {
		return false
	}
	t := kindType(kind)
	for _, en := range entries {
		if en.rel != relChild || en.node.Trivial&t == 0 {
			return false
		}
	}
	return true
}

// readsText reports whether anything needs the text of the string or
// number of frame fr: an evaluation still listening, an enum capture or a
// content hash.
func (v *Validator) readsText(fr int32) bool {
	if v.caps.live > 0 || v.hashing > 0 {
		return true
	}
	for _, e := range v.frames[fr].evals {
		if e.listening() {
			return true
		}
	}
	return false
}

// BeginKey implements jsontok.Handler.
func (h *events) BeginKey(off int64) {
	v := (*Validator)(h)
	if v.stopped(off) {
		return
	}
	v.track.beginKey()
	v.inKey, v.keyAt = true, off
	v.caps.beginKey(v, off)
	if len(v.early) > 0 {
		v.applyQueued()
	}
	v.hashBeginKey()
	obj := v.top()
	var names []entry
	for _, e := range v.frames[obj].evals {
		if e.listening() {
			v.steps++
			names = v.beginMember(e, off, names)
		}
	}
	if len(names) > 0 {
		v.push(jsontok.String, off, true, names)
	}
	v.keyFrame = len(names) > 0
}

// Separator implements jsontok.Handler: a ',' promises one more member or
// element, which a container at its maxProperties or maxItems refuses, and
// an array whose next position has the false schema.
func (h *events) Separator(off int64) {
	v := (*Validator)(h)
	f := &v.frames[v.top()]
	for i, e := range f.evals {
		if f.kind == jsontok.Object && e.node.MaxProperties < 0 || f.kind == jsontok.Array && e.node.MaxItems < 0 && e.node.FalseItem < 0 {
			continue // the common case: no count to check, so nothing else to do
		}
		v.countedSeparator(f.evals[i:], f.kind == jsontok.Object, f.index, off)
		return
	}
}

// countedSeparator checks the evaluations of a container, from the first
// that bounds its count, at a ','.
func (v *Validator) countedSeparator(evals []*eval, object bool, index, off int64) {
	if v.stopped(off) {
		return
	}
	if len(v.early) > 0 {
		v.applyQueued()
	}
	for _, e := range evals {
		if !e.listening() {
			continue
		}
		v.steps++
		if object {
			v.moreMembers(e, off)
		} else {
			v.moreElements(e, index, off)
		}
	}
}

// Text implements jsontok.Handler.
func (h *events) Text(p []byte, off int64, raw bool) {
	v := (*Validator)(h)
	if v.stopped(off) {
		return
	}
	v.caps.text(v, p, off, raw, v.inKey)
	v.textEvals(p, off, raw)
	if len(v.early) > 0 {
		v.applyQueued()
	}
}

// Escape implements jsontok.Handler: the current name or string gains one
// more character at off, not yet known. What no further character can
// satisfy (a maxLength reached, an enum, a const or a name that the text
// already completes, a pattern that needs the text to end) is refused at
// that backslash, the first impossible byte, not at the escape's last.
func (h *events) Escape(off int64) { (*Validator)(h).escape(anyChar, true, off) }

// EscapeRange implements jsontok.Handler: the coming character is one of
// chars. An enum, a const, a pattern or a closed object's names that no
// such character continues are refused at this hex digit.
func (h *events) EscapeRange(chars jsontok.CharRange, off int64) {
	(*Validator)(h).escape(chars, false, off)
}

// anyChar is what an escape's backslash says of the character it begins.
var anyChar = jsontok.CharRange{Lo: 0, Hi: utf8.MaxRune}

// escape hands the news of a coming character, one of chars, known at
// off (an escape's backslash, or a hex digit after it), to the
// evaluations of the current name or string.
func (v *Validator) escape(chars jsontok.CharRange, backslash bool, off int64) {
	if v.stopped(off) {
		return
	}
	fr := v.top()
	if v.inKey {
		if v.keyFrame {
			v.stringEscape(fr, chars, backslash, off)
		}
		for _, e := range v.frames[v.nameObject()].evals {
			if e.listening() {
				v.steps++
				v.memberNameEscape(e, chars, off)
			}
		}
	} else if v.frames[fr].kind == jsontok.String {
		v.stringEscape(fr, chars, backslash, off)
	}
	if len(v.early) > 0 {
		v.applyQueued()
	}
}

// nameObject returns the frame of the object whose member name is being
// read: the innermost, or the one below it when the name's propertyNames
// evaluations have a frame of their own (keyFrame).
func (v *Validator) nameObject() int32 {
	if v.keyFrame {
		return v.top() - 1
	}
	return v.top()
}

// textEvals hands a piece of text to the evaluations that read it.
func (v *Validator) textEvals(p []byte, off int64, raw bool) {
	fr := v.top()
	if v.inKey {
		v.track.keyText(p)
		v.hashText(p)
		if v.keyFrame {
			v.stringText(fr, p, off, raw)
		}
		for _, e := range v.frames[v.nameObject()].evals {
			if e.listening() {
				v.steps++
				v.memberNameText(e, p, off, raw)
			}
		}
		return
	}
	if v.frames[fr].kind == jsontok.Number {
		v.hashNumberText(p)
		v.numberText(fr, p, off)
		return
	}
	v.hashText(p)
	v.stringText(fr, p, off, raw)
}

// EndKey implements jsontok.Handler.
func (h *events) EndKey(off int64) {
	v := (*Validator)(h)
	if v.stopped(off) {
		return
	}
	v.caps.endKey(v, off)
	if len(v.early) > 0 {
		v.applyQueued()
	}
	v.inKey = false
	obj := v.top()
	if v.keyFrame {
		v.endValue(jsontok.String, off)
		obj = v.top()
		v.keyFrame = false
	}
	if len(v.cutQuotes) > 0 || len(v.postponed) > 0 {
		v.applyNameHeldBack(true)
	}
	if v.track.endKey() { // a duplicate name, whatever the schema says
		v.report(&violation{keyword: "json", off: off, name: briefBytes(v.track.key())}, len(v.track.levels)-1)
	}
	v.hashEndKey()
	entries := v.memberEntries[:0]
	for _, e := range v.frames[obj].evals {
		if e.listening() {
			v.steps++
			entries = v.endMemberName(e, off, entries)
		}
	}
	v.memberEntries = entries
	if f := &v.frames[obj]; f.hasUnevaluated {
		v.noteMemberCoverage(f)
	}
}

// End implements jsontok.Handler.
func (h *events) End(kind jsontok.Kind, off int64) {
	v := (*Validator)(h)
	if v.stopped(off) {
		return
	}
	if v.skipping {
		v.skipping = false // a trivial scalar (see trivial)
		return
	}
	v.caps.end(v, kind, off)
	if len(v.early) > 0 {
		v.applyQueued()
	}
	if kind == jsontok.True || kind == jsontok.False || kind == jsontok.Null {
		return // ended at its first byte
	}
	v.endValue(kind, off)
	if kind == jsontok.Object || kind == jsontok.Array {
		v.track.pop()
	}
}

// endValue finishes every evaluation of the innermost value, which ends
// at off, tells the enclosing container about it, and closes its frame.
func (v *Validator) endValue(kind jsontok.Kind, off int64) {
	fr := v.top()
	f := &v.frames[fr]
	if kind == jsontok.String || kind == jsontok.Number {
		v.applyHeldBack(fr, true) // earlier bytes first: the first violation decides
	}
	for i := 0; i < len(f.evals); i++ { // evals may not grow here; f.evals is stable
		e := f.evals[i]
		if e.dead || e.ownDone {
			continue
		}
		v.steps++
		switch kind {
		case jsontok.String:
			v.endString(e, off)
		case jsontok.Number:
			v.endNumber(e, off)
		case jsontok.Object:
			v.endObject(e, off)
		case jsontok.Array:
			v.endArray(e, off)
		}
		if e.capture >= 0 {
			v.finishCapture(e, off)
		}
		e.ownDone, e.endOff = true, off
		v.settle(e)
	}
	if !f.isKey && fr > 0 && v.frames[fr-1].kind == jsontok.Array {
		v.noteElementCoverage(fr - 1)
	}
	v.hashEnd(fr, off)
	v.pop()
}
