package validator

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/internal/decimal"
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// DefaultMaxFindings is the findings cap used when Options.MaxFindings is 0.
const DefaultMaxFindings = 100

// Options configure a Validator. The zero value is ready to use.
type Options struct {
	// MaxDepth limits the nesting of the arguments; deeper input is a
	// "json" finding. Default jsontok.DefaultMaxDepth (128).
	MaxDepth int
	// MaxFindings caps the findings kept; Result.Truncated reports more.
	// Default DefaultMaxFindings (100).
	MaxFindings int
	// StopAtFirst stops at the first byte that produced a finding, keeping
	// every finding made at that byte: the verdict a stream needs as soon as
	// it is known. Otherwise every violation in the document is reported.
	StopAtFirst bool
}

func (o Options) withDefaults() Options {
	if o.MaxDepth <= 0 {
		o.MaxDepth = jsontok.DefaultMaxDepth
	}
	if o.MaxFindings <= 0 {
		o.MaxFindings = DefaultMaxFindings
	}
	return o
}

// Result is a validation verdict.
type Result struct {
	// Findings lists the violations in the order they were detected (which
	// is byte order); empty when the arguments are valid.
	Findings []schema.Finding
	// Truncated reports that more findings existed than MaxFindings.
	Truncated bool
}

// Valid reports whether the arguments satisfy the schema.
func (r Result) Valid() bool { return len(r.Findings) == 0 }

// Code is CodeNone for valid arguments and CodeValidation otherwise.
func (r Result) Code() schema.Code { return schema.Summarize(r.Findings) }

// Validator validates one document at a time against a compiled schema, fed
// in pieces with Write and finished with Close. It is not safe for
// concurrent use; Reset makes it ready for the next document without
// allocating.
type Validator struct {
	schema   *schema.Schema
	opts     Options
	tok      jsontok.Tokenizer
	track    tracker
	num      decimal.Accumulator
	textKind jsontok.Kind // what the current Text belongs to: String, Number, or 0 for a name
	root     machine
	free     []*machine

	findings  []schema.Finding
	truncated bool
	haltAt    int64 // StopAtFirst: offset of the first finding, or -1
	halted    bool
	closed    bool
}

// New returns a Validator for s.
func New(s *schema.Schema, opts Options) *Validator {
	v := &Validator{schema: s, opts: opts.withDefaults()}
	v.track.seed = maphash.MakeSeed()
	v.Reset()
	return v
}

// Reset prepares v for a new document.
func (v *Validator) Reset() {
	v.tok.Reset((*events)(v), v.opts.MaxDepth)
	v.track.reset()
	v.root.reset(v, v.schema.Root, false)
	v.findings, v.truncated, v.haltAt, v.halted, v.closed = v.findings[:0], false, -1, false, false
}

// Write feeds the next piece of the document. Pieces may split the document
// anywhere, even inside a UTF-8 character or an escape sequence.
func (v *Validator) Write(p []byte) {
	if v.halted || v.closed || v.tok.Err() != nil {
		return
	}
	if err := v.tok.Feed(p); err != nil {
		v.syntax(err)
	}
}

// Rejected reports whether the document can no longer be valid, whatever
// follows.
func (v *Validator) Rejected() bool { return len(v.findings) > 0 || v.truncated }

// Close ends the document and returns the verdict. The Result's slices are
// owned by v until the next Reset.
func (v *Validator) Close() Result {
	if !v.closed && !v.halted && v.tok.Err() == nil {
		if err := v.tok.End(); err != nil {
			v.syntax(err)
		}
	}
	v.closed = true
	return v.Result()
}

// Result returns the findings so far, in byte order.
func (v *Validator) Result() Result {
	slices.SortStableFunc(v.findings, func(a, b schema.Finding) int { return cmp.Compare(a.Offset, b.Offset) })
	return Result{Findings: v.findings, Truncated: v.truncated}
}

// Validate checks a whole document (a convenience over a pooled Validator).
// The findings are copied, so the Result is the caller's.
func Validate(s *schema.Schema, doc []byte, opts Options) Result {
	v := get(s, opts)
	v.Write(doc)
	r := v.Close()
	r.Findings = append([]schema.Finding(nil), r.Findings...)
	put(v)
	return r
}

var pool sync.Pool

func get(s *schema.Schema, opts Options) *Validator {
	if v, ok := pool.Get().(*Validator); ok {
		v.schema, v.opts = s, opts.withDefaults()
		v.Reset()
		return v
	}
	return New(s, opts)
}

func put(v *Validator) {
	v.schema = nil
	v.root.root = nil
	pool.Put(v)
}

func (v *Validator) syntax(err error) {
	v.root.flushPending()
	off := v.tok.Offset()
	msg := err.Error()
	if se, ok := err.(*jsontok.SyntaxError); ok {
		off, msg = se.Offset, se.Msg+fmt.Sprintf(" at byte %d", se.Offset)
	}
	v.add(off, func() schema.Finding {
		return schema.Finding{Code: schema.CodeValidation, Keyword: "json", InstancePath: v.track.path(len(v.track.levels)),
			Message: "The arguments are not valid JSON: " + msg + ".", Offset: off}
	})
}

// rootName names the document in messages: tool arguments, or a model's
// structured output.
func (v *Validator) rootName() string {
	if v.schema.Profile == schema.OutputBindable {
		return "The output object"
	}
	return "The arguments object"
}

// report records a violation of the root machine.
func (v *Validator) report(vio *violation, pathDepth int) {
	v.add(vio.off, func() schema.Finding { return vio.finding(v.track.path(pathDepth), v.rootName()) })
}

// add records a finding made at off, formatting it only if it is kept.
//
// Independent checks of one Text piece (a name, an enum capture, a string's
// choices) each scan the whole piece, so within one event a later byte may
// be reported before an earlier one. Under StopAtFirst only the findings of
// the earliest byte are kept; otherwise Result sorts the findings by offset.
func (v *Validator) add(off int64, format func() schema.Finding) {
	if v.opts.StopAtFirst {
		switch {
		case v.haltAt < 0 || off < v.haltAt:
			v.haltAt, v.findings, v.truncated = off, v.findings[:0], false
		case off > v.haltAt:
			return
		}
	}
	if len(v.findings) >= v.opts.MaxFindings {
		v.truncated = true
		return
	}
	f := format()
	f.InstancePath = strings.ToValidUTF8(f.InstancePath, "\uFFFD")
	f.Message = strings.ToValidUTF8(f.Message, "\uFFFD")
	v.findings = append(v.findings, f)
}

// machine returns a pass/fail machine for a oneOf branch.
func (v *Validator) machine(branch *schema.Node) *machine {
	var m *machine
	if n := len(v.free); n > 0 {
		m, v.free = v.free[n-1], v.free[:n-1]
	} else {
		m = &machine{}
	}
	m.reset(v, branch, true)
	return m
}

func (v *Validator) release(m *machine) {
	for _, k := range m.kids {
		v.release(k)
	}
	m.kids = m.kids[:0]
	v.free = append(v.free, m)
}

// stopped reports whether events at off are past the verdict.
func (v *Validator) stopped(off int64) bool {
	if v.haltAt >= 0 && off > v.haltAt {
		v.halted = true
	}
	return v.halted
}

// events adapts a Validator to jsontok.Handler without exporting the
// handler methods.
type events Validator

// Begin implements jsontok.Handler.
func (e *events) Begin(kind jsontok.Kind, off int64) {
	v := (*Validator)(e)
	if v.stopped(off) {
		return
	}
	v.track.beginValue()
	switch kind {
	case jsontok.String:
		v.textKind = jsontok.String
	case jsontok.Number:
		v.textKind = jsontok.Number
		v.num.Reset(v.schema.MaxDigits + 1)
	}
	v.root.begin(kind, off)
	if isContainer(kind) {
		v.track.push(kind == jsontok.Object)
	}
}

// BeginKey implements jsontok.Handler.
func (e *events) BeginKey(off int64) {
	v := (*Validator)(e)
	if v.stopped(off) {
		return
	}
	v.textKind = 0
	v.track.beginKey()
	v.root.beginKey(off)
}

// Text implements jsontok.Handler.
func (e *events) Text(p []byte, off int64, raw bool) {
	v := (*Validator)(e)
	if v.stopped(off) {
		return
	}
	switch v.textKind {
	case 0:
		v.track.keyText(p)
	case jsontok.Number:
		v.num.Write(p)
	}
	v.root.text(p, off, raw, v.textKind == 0)
}

// EndKey implements jsontok.Handler.
func (e *events) EndKey(off int64) {
	v := (*Validator)(e)
	if v.stopped(off) {
		return
	}
	if v.track.endKey() { // a duplicate name, whatever the schema says
		v.report(&violation{keyword: "json", off: off, name: string(v.track.key())}, len(v.track.levels)-1)
	}
	v.root.endKey(off)
}

// End implements jsontok.Handler.
func (e *events) End(kind jsontok.Kind, off int64) {
	v := (*Validator)(e)
	if v.stopped(off) {
		return
	}
	v.root.end(kind, off)
	if isContainer(kind) {
		v.track.pop()
	}
}
