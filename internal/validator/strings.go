package validator

import (
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/pattern"
)

// This file holds the string keywords: minLength, maxLength, pattern,
// format, and the string choices of enum and const. The length is counted
// once per value (frame.length) and shared; each evaluation narrows its
// own choices.

// strState is one evaluation's progress through a string.
type strState struct {
	choice     [2]matcher // enum and const choices still possible
	choiceOn   [2]bool
	choiceFail [2]int64        // where the value left every choice, or -1
	maxFail    int64           // where maxLength was exceeded, or -1
	pat        pattern.Matcher // the pattern, matched as the string streams
	patFail    int64           // where no completion could match the pattern any more, or -1
}

// startString prepares e's string state.
func (v *Validator) startString(e *eval) {
	e.str.choiceOn, e.str.choiceFail, e.str.maxFail, e.str.patFail = [2]bool{}, [2]int64{-1, -1}, -1, -1
	if p := e.node.Pattern; p != nil {
		e.str.pat.Reset(p.Compiled)
		if e.str.pat.Dead() { // no text can match (a lone surrogate): the opening quote decides
			e.str.patFail = v.frames[e.fr].off
			v.violateEarly(e, "pattern", e.str.patFail, 0)
		}
	}
}

// stringText handles a piece of a string (or of a member name evaluated
// by propertyNames) for every evaluation of frame fr.
func (v *Validator) stringText(fr int32, p []byte, off int64, raw bool) {
	f := &v.frames[fr]
	before := f.excerpt.len()
	f.excerpt.write(p)
	lengthBefore := f.length
	if f.wantLength {
		for _, c := range p {
			if c&0xC0 != 0x80 {
				f.length++
			}
		}
	}
	if f.wantText {
		f.text = append(f.text, p...)
	}
	for _, e := range f.evals {
		if !e.listening() {
			continue
		}
		v.steps++
		v.stringChoicesText(e, p, off, raw, before)
		if n := e.node.MaxLength; n >= 0 && e.str.maxFail < 0 && f.length > n {
			i := crossing(p, n-lengthBefore)
			e.str.maxFail = byteOffset(off, i, raw)
			v.violateEarly(e, "maxLength", e.str.maxFail, before+upTo(i, p, raw))
		}
		if e.node.Pattern != nil && e.str.patFail < 0 && !e.str.pat.Done() {
			if i := e.str.pat.Write(p); i >= 0 {
				e.str.patFail = byteOffset(off, i, raw)
				v.violateEarly(e, "pattern", e.str.patFail, before+upTo(i, p, raw))
			}
		}
	}
}

// stringEscape handles the news that the next character of a string (or
// of a member name evaluated by propertyNames) is one of chars, known at
// off, for every evaluation of frame fr: at an escape's backslash any
// character, then fewer at each hex digit of a \u escape. The keywords
// that text decides fail here if no such character can follow, in the
// order stringText checks them, and quote the value up to the escape.
// Length is decided at the backslash alone (the character counts one
// whichever it is); enum, const and pattern at the backslash and at every
// digit.
func (v *Validator) stringEscape(fr int32, chars jsontok.CharRange, backslash bool, off int64) {
	f := &v.frames[fr]
	quoted := f.excerpt.len()
	for _, e := range f.evals {
		if !e.listening() {
			continue
		}
		v.steps++
		n := e.node
		for i, c := range choiceSets(n) {
			if e.str.choiceOn[i] && e.str.choiceFail[i] < 0 && !e.str.choice[i].growsInto(&c.set.Strings, chars, &v.steps) {
				e.str.choiceFail[i] = off
				v.violateEarly(e, c.keyword, off, quoted)
			}
		}
		if backslash && n.MaxLength >= 0 && e.str.maxFail < 0 && f.length >= n.MaxLength {
			e.str.maxFail = off
			v.violateEarly(e, "maxLength", off, quoted)
		}
		if n.Pattern != nil && e.str.patFail < 0 && !chars.Some(e.str.pat.GrowsWithin) {
			e.str.patFail = off
			v.violateEarly(e, "pattern", off, quoted)
		}
	}
}

// crossing returns the index in p of the code point that makes the
// count pass limit, given that limit more code points fit.
func crossing(p []byte, limit int64) int {
	for i, c := range p {
		if c&0xC0 == 0x80 {
			continue
		}
		if limit == 0 {
			return i
		}
		limit--
	}
	return len(p) - 1
}

// stringChoicesText narrows e's enum and const string choices.
func (v *Validator) stringChoicesText(e *eval, p []byte, off int64, raw bool, before int) {
	for i, c := range choiceSets(e.node) {
		if !e.str.choiceOn[i] || e.str.choiceFail[i] >= 0 {
			continue
		}
		if j := e.str.choice[i].feed(&c.set.Strings, p, &v.steps); j >= 0 {
			e.str.choiceFail[i] = byteOffset(off, j, raw)
			v.violateEarly(e, c.keyword, e.str.choiceFail[i], before+upTo(j, p, raw))
		}
	}
}

// upTo is how many bytes of a Text piece p lead up to and include p[i]: an
// escape's decoded bytes are one input byte.
func upTo(i int, p []byte, raw bool) int {
	if raw {
		return i + 1
	}
	return len(p)
}

// violateEarly reports a violation of the current string or number found
// before it ended, when e reports at once (streams and pass/fail
// evaluations); a full validation's reporting evaluation is decided by it
// all the same, but reports it at the value's end, with the whole value
// quoted (see applyHeldBack and decideHeld). The message quotes the value
// up to the deciding byte, the same in any split.
//
// The violation waits in Validator.early until the whole piece has been
// checked (see queue), so that violations are applied in byte order.
func (v *Validator) violateEarly(e *eval, keyword string, off int64, quoted int) {
	f := &v.frames[e.fr]
	vio := violation{keyword: keyword, node: e.node, off: off, got: f.kind, excerpt: f.excerpt}
	vio.excerpt.truncate(quoted)
	v.queueDecision(e, vio)
}

// defers reports whether the finding of a violation found inside a name or
// value waits for its end, so that the message quotes it whole: only for a
// full validation's reporting evaluations. The violation decides the
// evaluation at once all the same (decideHeld).
func (v *Validator) defers(e *eval) bool { return !v.opts.StopAtFirst && e.report }

// endString checks what only the whole string decides.
func (v *Validator) endString(e *eval, off int64) {
	f := &v.frames[e.fr]
	n := e.node
	vio := violation{node: n, off: off, got: jsontok.String, excerpt: f.excerpt, complete: true}
	for i, c := range choiceSets(n) {
		if e.str.choiceOn[i] && e.str.choiceFail[i] < 0 && e.str.choice[i].match(&c.set.Strings) < 0 {
			vio.keyword = c.keyword // a proper prefix of a choice: decided at the closing quote
			v.violate(e, vio)
		}
	}
	if n.MinLength >= 0 && f.length < n.MinLength {
		vio.keyword = "minLength"
		v.violate(e, vio)
	}
	if n.Pattern != nil && e.str.patFail < 0 && !e.str.pat.Matched() {
		vio.keyword = "pattern"
		v.violate(e, vio)
	}
	if n.Format != nil && !n.Format.Check(string(f.text)) {
		vio.keyword = "format"
		v.violate(e, vio)
	}
}

// postpones reports whether the finding of a violation of e, made now,
// waits for the end of the current member name, string or number: in a
// full validation, when e is a reporting evaluation of that open value or
// of a container around it. The violations its pass/fail kids decide (a
// then, an else, a oneOf) explain themselves with their kids' failures,
// and a kid that failed inside the open value quoted it up to its
// deciding byte; held to the value's end, the explanation quotes it whole
// (see applyHeldBack), as e's own keywords' findings there do (defers),
// and all of them are made in byte order. Like those, the violation
// decides e at once (decideHeld).
func (v *Validator) postpones(e *eval) bool {
	if !v.defers(e) {
		return false
	}
	if v.inKey {
		return true // until the name's closing quote (applyNameHeldBack)
	}
	f := &v.frames[v.top()]
	return (f.kind == jsontok.String || f.kind == jsontok.Number) && !f.closing
}

// noteCut remembers e, in a full validation, when its failure quotes the
// open member name, string or number up to the byte that decided it. The
// failure may become a reason in a message made after the name or value
// has ended (a oneOf whose last branch fails later, at the value's end or
// on another member), and applyHeldBack or applyNameHeldBack makes it
// quote the whole name or value first. Only the failures found inside it
// are remembered, each as often as it is recorded, so the work stays
// that of finding them.
func (v *Validator) noteCut(e *eval) {
	r := &e.fail
	if v.opts.StopAtFirst || r.complete || len(v.frames) == 0 {
		return
	}
	if v.inKey {
		if r.off >= v.keyAt && (r.got == jsontok.String || r.aboutName()) {
			v.cutQuotes = append(v.cutQuotes, e)
		}
		return
	}
	if f := &v.frames[v.top()]; (r.got == jsontok.String || r.got == jsontok.Number) && f.kind == r.got && !f.closing && r.off >= f.off {
		v.cutQuotes = append(v.cutQuotes, e)
	}
}

// applyNameHeldBack makes the failures found inside the current member
// name, and the violations held back for its end (see postpones), quote
// what was read of it, all of it when complete, and applies the held ones
// in byte order.
func (v *Validator) applyNameHeldBack(complete bool) {
	var name excerpt
	name.set(v.track.key())
	quote := func(r *violation) { r.quoteName(v.keyAt, &name, complete) }
	v.requoteCut(quote)
	v.queuePostponed(quote)
	v.applyQueued()
}

// requoteCut has quote requote the failures noteCut remembered, when
// quote is not nil (nothing was read of the value to quote), and forgets
// them.
func (v *Validator) requoteCut(quote func(*violation)) {
	if quote != nil {
		for _, e := range v.cutQuotes {
			quote(&e.fail)
		}
	}
	clear(v.cutQuotes)
	v.cutQuotes = v.cutQuotes[:0]
}

// queuePostponed has quote requote the postponed violations (see
// postpones), when quote is not nil, and queues them to be applied.
func (v *Validator) queuePostponed(quote func(*violation)) {
	if len(v.postponed) == 0 {
		return
	}
	for i := range v.postponed {
		if quote != nil {
			quote(&v.postponed[i].vio)
		}
	}
	v.early = append(v.early, v.postponed...)
	clear(v.postponed)
	v.postponed = v.postponed[:0]
}

// applyHeldBack applies what the evaluations of frame fr, the current
// string or number, held back until its end: the violations their own
// keywords found before it ended (see defers), quoted whole when complete,
// and the postponed ones (see postpones). They join the queue of the
// current piece (see queue), so that all of them apply in byte order
// across the frame's evaluations, not one evaluation after another: a
// keyword over two of them is decided by the one that failed first. From
// here on the frame's violations apply at once. A StopAtFirst validation
// holds nothing back.
func (v *Validator) applyHeldBack(fr int32, complete bool) {
	if v.opts.StopAtFirst {
		return
	}
	f := &v.frames[fr]
	f.closing = true
	if f.isKey {
		// A name's propertyNames frame: what its failures decided waits
		// for the name's end (applyNameHeldBack).
		return
	}
	var quote func(*violation) // nil when nothing was read of the value: a reason says "a string"
	if f.textRead {
		quote = func(r *violation) { r.quoteRead(f.kind, f.off, &f.excerpt, complete) }
	}
	v.requoteCut(quote)
	for _, e := range f.evals {
		if e.dead || e.ownDone || !v.defers(e) {
			continue
		}
		eachHeldBack(e, f.kind, func(keyword string, at int64) {
			v.queue(e, violation{keyword: keyword, node: e.node, off: at, got: f.kind, excerpt: f.excerpt, complete: complete})
		})
	}
	v.queuePostponed(quote)
	v.applyQueued()
}

// eachHeldBack calls fn with the keyword and offset of each violation
// that e holds back in the current string or number (see defers).
func eachHeldBack(e *eval, kind jsontok.Kind, fn func(keyword string, at int64)) {
	report := func(keyword string, at int64) {
		if at >= 0 {
			fn(keyword, at)
		}
	}
	switch kind {
	case jsontok.String:
		report("enum", e.str.choiceFail[0])
		report("const", e.str.choiceFail[1])
		report("maxLength", e.str.maxFail)
		report("pattern", e.str.patFail)
	case jsontok.Number:
		report("enum", e.num.choiceFail[0])
		report("const", e.num.choiceFail[1])
		for _, b := range e.num.boundFail {
			report(b.keyword, b.off)
		}
		report("type", e.num.intFail)
	}
}
