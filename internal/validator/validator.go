package validator

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

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
	// MaxPointer bounds the JSON pointers of a finding, in bytes: a longer
	// one is cut to its longest ancestor that fits (schema.CutPointer), and
	// never built whole, so a finding under a member name of a megabyte
	// costs what one under a short name does. Default DefaultMaxPointer.
	MaxPointer int
	// MaxState bounds the state validating one document holds at once, in
	// bytes as State counts them: a schema may apply up to its Width
	// subschemas to every open value, and unevaluatedProperties and
	// unevaluatedItems keep a record per member or element, so nested or
	// long arguments multiply them. Past it the document is rejected with
	// keyword "limit" at that byte and read no further. Default
	// DefaultMaxState.
	MaxState int64
	// Output says the document is a model's structured output (an answer),
	// not a tool call's arguments: messages call it "the output", as they
	// do every document of the bindable output profile.
	Output bool
}

// Defaults of Options.
const (
	DefaultMaxPointer = 64 << 10
	DefaultMaxState   = 16 << 20
)

func (o Options) withDefaults() Options {
	if o.MaxDepth <= 0 {
		o.MaxDepth = jsontok.DefaultMaxDepth
	}
	if o.MaxFindings <= 0 {
		o.MaxFindings = DefaultMaxFindings
	}
	if o.MaxPointer <= 0 {
		o.MaxPointer = DefaultMaxPointer
	}
	if o.MaxState <= 0 {
		o.MaxState = DefaultMaxState
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
	schema    *schema.Schema
	opts      Options
	tok       jsontok.Tokenizer
	track     tracker
	num       decimal.Accumulator
	caps      captures
	frames    []frame
	free      []*eval
	postponed []queued // see postpones
	cutQuotes []*eval  // see noteCut
	// firstByte is set while push evaluates a value's first byte; the
	// violations its pass/fail evaluations make meanwhile wait in
	// unreported, in case one is upgraded to report (see upgrade).
	firstByte  bool
	unreported []unreportedViolation

	// Scratch state of the token being handled.
	inKey         bool    // the current text is a member name
	keyAt         int64   // the current member name's opening quote
	skipping      bool    // the current scalar is trivial: no frame (see events.trivial)
	keyFrame      bool    // a propertyNames frame is open for it
	entries       []entry // the next element's subschemas
	early         []queued
	memberEntries []entry       // the next member value's subschemas
	hashing       int           // open arrays that need unique elements
	hashes        []contentHash // by frame, while hashing
	contrib       []uint64
	walk          []*eval

	steps     int64 // evaluation steps taken (see Steps)
	state     int64 // bytes of state held (see State)
	at        int64 // the offset of the event being handled
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
	v.caps.reset()
	for len(v.frames) > 0 {
		v.pop()
	}
	clear(v.postponed)
	v.postponed = v.postponed[:0]
	clear(v.cutQuotes)
	v.cutQuotes = v.cutQuotes[:0]
	v.inKey, v.keyFrame, v.skipping, v.hashing, v.steps, v.state = false, false, false, 0, 0, 0
	v.findings, v.truncated, v.haltAt, v.halted, v.closed = v.findings[:0], false, -1, false, false
}

// Write feeds the next piece of the document. Pieces may split the document
// anywhere, even inside a UTF-8 character or an escape sequence. Write only
// reads p (the server hands it a request's string in place), which the
// conformance suite checks on read-only memory.
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

// Steps reports the evaluation steps taken on the current document: one
// per evaluation per token it handled, one per probe of a search among
// names or enum choices, and one per in-place kid looked up, per
// dependentRequired name checked, per word of an object's member bits
// cleared and per enum capture looked at when one outgrows its choices. Tests use it to show that the work per argument
// byte is bounded by the schema's Width and grows at most with the
// logarithm of its names and choices.
func (v *Validator) Steps() int64 { return v.steps }

// State reports the bytes of state the current document holds now, as
// MaxState counts them: an estimate of each open evaluation (one per
// subschema applied to an open value) and of each record unevaluated*
// keeps, with the member names it quotes. It does not count the buffers
// whose size a schema bounds (enum captures, an automaton's cursors) or the
// document does (uniqueItems hashes).
func (v *Validator) State() int64 { return v.state }

// stateBytes of one evaluation (with the larger of the states it keeps per
// kind of value), of one unevaluated record and of the reason kept with
// one (for the first Options.MaxFindings records of an evaluation).
const (
	evalStateBytes   = int64(unsafe.Sizeof(eval{}) + unsafe.Sizeof(objState{}))
	recordStateBytes = int64(unsafe.Sizeof(unevalRecord{}))
	reasonStateBytes = int64(unsafe.Sizeof(violation{}))
)

// grow counts n more bytes of state, and past MaxState rejects the
// document at the current byte and halts it. Small enough to inline.
func (v *Validator) grow(n int64) {
	v.state += n
	if v.state > v.opts.MaxState && !v.halted {
		v.overState()
	}
}

// overState rejects the document at the current byte, with keyword
// "limit", and halts it.
func (v *Validator) overState() {
	off := v.at
	w := v.words()
	v.add(off, func() schema.Finding {
		path, _ := v.track.path(len(v.track.levels), v.opts.MaxPointer)
		return schema.Finding{Code: schema.CodeValidation, Keyword: "limit", InstancePath: path, Offset: off,
			Message: fmt.Sprintf("Checking the %s against this schema needs more than the limit of %d bytes of state at byte %d: the schema applies many subschemas to each value, and the %s %s members enough to multiply them. %s refused, unchecked past this byte.",
				w.name, v.opts.MaxState, off, w.name, w.nests, w.is)}
	})
	v.halted = true
	v.tok.Halt()
}

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

// keptFreeEvals is how many recycled evaluations a pooled validator keeps
// (some 2.7 MB): one document that opened many (up to MaxState of them)
// must not pin them in the pool for the next, ordinary one.
const keptFreeEvals = 4096

func put(v *Validator) {
	v.Reset()
	if len(v.free) > keptFreeEvals {
		clear(v.free[keptFreeEvals:])
		v.free = slices.Clip(v.free[:keptFreeEvals])
	}
	v.schema = nil
	pool.Put(v)
}

func (v *Validator) syntax(err error) {
	v.flushHeldBack()
	off := v.tok.Offset()
	se, ok := err.(*jsontok.SyntaxError)
	if ok {
		off = se.Offset
	}
	v.add(off, func() schema.Finding {
		// The path and the message are written into one buffer and
		// become one string, cut in two: one allocation for both.
		var buf [320]byte
		depth := len(v.track.levels)
		if v.inKey || ok && se.AfterSeparator {
			depth-- // a broken name, or none after a ',', names no member or element: the path is their container's
		}
		text, _ := v.track.appendPath(buf[:0], depth, v.opts.MaxPointer)
		pathEnd := len(text)
		text = append(append(text, v.words().is...), " not valid JSON: "...)
		if ok {
			text = se.AppendMsg(text)
		} else { // the tokenizer makes no other error; keep its text all the same
			text = append(text, err.Error()...)
		}
		text = append(strconv.AppendInt(append(text, " at byte "...), off, 10), '.')
		both := string(text)
		return schema.Finding{Code: schema.CodeValidation, Keyword: "json", InstancePath: both[:pathEnd],
			Message: both[pathEnd:], Offset: off}
	})
}

// flushHeldBack reports the violations a full validation holds back until
// a name or value ends (to quote it whole), when the document breaks off
// before that end: a stream stopping at the same byte must report the same.
func (v *Validator) flushHeldBack() {
	if v.inKey {
		v.applyNameHeldBack(false)
	}
	for fr := range v.frames {
		f := &v.frames[fr]
		switch {
		case f.kind == jsontok.String || f.kind == jsontok.Number:
			v.applyHeldBack(int32(fr), false)
		case f.kind == jsontok.Object && v.inKey:
			for _, e := range f.evals {
				if !v.defers(e) || e.ownDone || e.dead {
					continue
				}
				if e.obj.namesFail.off >= 0 {
					v.releaseNameFailure(e, false)
				}
				if e.obj.keyFailAt >= 0 {
					v.violateKey(e, e.obj.keyFailAt, v.track.key(), false)
					e.obj.keyFailAt = -1
				}
			}
		}
	}
}

// docWords are the words messages name the document with: tool call
// arguments, or a model's structured output.
type docWords struct {
	name  string // after "the": "arguments" (its root object is "the arguments object")
	is    string // to begin a sentence: "The arguments are"
	nests string // its verb: "nest or repeat"
}

var (
	argumentsWords = docWords{name: "arguments", is: "The arguments are", nests: "nest or repeat"}
	outputWords    = docWords{name: "output", is: "The output is", nests: "nests or repeats"}
)

// words returns the words for this document: the output's when
// Options.Output says so, or for every document of the bindable output
// profile.
func (v *Validator) words() *docWords {
	if v.opts.Output || v.schema.Profile == schema.OutputBindable {
		return &outputWords
	}
	return &argumentsWords
}

// report records a violation of a reporting evaluation.
func (v *Validator) report(vio *violation, pathDepth int) {
	v.add(vio.off, func() schema.Finding {
		path, cut := v.pathOf(vio, pathDepth)
		return vio.finding(path, cut, v.words(), v.opts.MaxPointer)
	})
}

// pathOf renders the pointer of what vio is about (see part), for a
// violation of the value pathDepth levels deep, and reports whether it
// was cut.
func (v *Validator) pathOf(vio *violation, pathDepth int) (string, bool) {
	switch vio.about {
	case currentMember: // the member's level holds its name from the opening quote on
		return v.track.path(pathDepth+1, v.opts.MaxPointer)
	case promisedElement: // the element has no level of its own yet
		return v.track.promisedPath(pathDepth, v.opts.MaxPointer)
	}
	return v.track.path(pathDepth, v.opts.MaxPointer)
}

// full reports whether no more findings can be kept.
func (v *Validator) full() bool { return v.truncated }

// keeps reports whether a finding made at off would be kept: what add
// decides, without changing anything.
func (v *Validator) keeps(off int64) bool {
	if v.opts.StopAtFirst && v.haltAt >= 0 {
		switch {
		case off < v.haltAt:
			return true
		case off > v.haltAt:
			return false
		}
	}
	return len(v.findings) < v.opts.MaxFindings
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
	f.InstancePath = validUTF8(f.InstancePath)
	v.findings = append(v.findings, f)
}

// validUTF8 returns s with each invalid byte sequence replaced: proto
// strings must be UTF-8, and a path or a quote may end inside a character
// the document broke off in. A syntax error's message is ASCII and needs
// no check. Paths are short and nearly always ASCII: a byte loop finds
// that for less than utf8.ValidString's setup costs (a 5-byte path: 48
// instructions against 132, callgrind).
func validUTF8(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			if utf8.ValidString(s[i:]) {
				return s
			}
			return strings.ToValidUTF8(s, "\uFFFD")
		}
	}
	return s
}

// stopped reports whether events at off are past the verdict; the first
// such event halts the tokenizer, so nothing after it is read. Every event
// asks it first, so it also notes off as the event's offset (see grow).
func (v *Validator) stopped(off int64) bool {
	v.at = off
	if v.haltAt >= 0 && off > v.haltAt && !v.halted {
		v.halted = true
		v.tok.Halt()
	}
	return v.halted
}
