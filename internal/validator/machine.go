package validator

import (
	"slices"

	"github.com/toolgate/toolgate/internal/decimal"
	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

type frameKind uint8

const (
	frameObject frameKind = iota // an object with a schema
	frameArray                   // an array with a schema
	frameSkip                    // a container no schema constrains
	frameOneOf                   // a value checked against oneOf branches
)

// frame is one open container (or oneOf value) on a machine's stack.
type frame struct {
	kind  frameKind
	node  *schema.Node
	depth int32 // frameSkip, frameOneOf: containers open inside the value
	// frameObject: the key matcher over node.KeyNames, and the member.
	keys      matcher
	keyFailAt int64        // offset where the current name stopped matching a closed set, or -1
	member    *schema.Node // schema of the current member's value (nil: any)
	seenAt    int          // start of this object's seen-name bits in machine.seen
	capture   int          // index of this value's enum capture in machine.caps, or -1
	reported  bool         // frameOneOf: the failure was already reported
	pathDepth int          // document depth of the value (for its instance path)
}

// scalar is the state of the string or number being read.
type scalar struct {
	node      *schema.Node // nil: any value
	kind      jsontok.Kind
	enum      matcher // string enum choices still possible
	enumOn    bool
	numEnumOn bool // a number under an enum of numbers
	// num is that number fed byte by byte: the Validator's accumulator
	// takes whole pieces, but the first digit no choice can follow must be
	// found per byte. Only numbers under numeric enums pay for this.
	num       decimal.Accumulator
	enumFail  int64 // offset where the value left every enum choice, or -1
	length    int64 // code points so far
	lengthOn  bool
	maxFail   int64 // offset where maxLength was exceeded, or -1
	text      []byte
	keepText  bool // the whole string is needed (pattern)
	excerpt   excerpt
	excerptOn bool
}

// machine validates one value against one schema node. The root machine
// reports findings; machines for oneOf branches run in pass/fail mode and only
// remember their first violation.
type machine struct {
	v        *Validator
	root     *schema.Node
	passFail bool
	failed   bool
	failure  violation
	frames   []frame
	seen     []uint64
	sc       scalar
	kids     []*machine // branches of the innermost oneOf frame
	caps     captures
}

func (m *machine) reset(v *Validator, root *schema.Node, passFail bool) {
	m.v, m.root, m.passFail, m.failed = v, root, passFail, false
	m.frames, m.seen, m.kids = m.frames[:0], m.seen[:0], m.kids[:0]
	m.sc.node = nil
	m.caps.reset()
}

// violate records a violation of the value pathDepth levels deep in the
// document: reported at once (or, under StopAtFirst, as the stream's
// verdict), or remembered as a oneOf branch's failure.
func (m *machine) violate(vio violation, pathDepth int) {
	if m.passFail {
		// Keep the earliest failure: checks of one piece may report out of
		// byte order (see Validator.add).
		if !m.failed || vio.off < m.failure.off {
			m.failed, m.failure = true, vio
		}
		return
	}
	m.v.report(&vio, pathDepth)
}

// defers reports whether a violation found inside a name or value waits for
// its end, so that the message quotes it whole: only in a full validation's
// root machine. Streams (StopAtFirst) and oneOf branches report at the
// deciding byte, quoting the value up to it.
func (m *machine) defers() bool { return !m.v.opts.StopAtFirst && !m.passFail }

// valueDepth is the path depth of the scalar or name being read, or of a
// value at its first byte.
func (m *machine) valueDepth() int { return len(m.v.track.levels) }

// containerDepth is the path depth of the innermost open container.
func (m *machine) containerDepth() int { return len(m.v.track.levels) - 1 }

func (m *machine) top() *frame {
	if len(m.frames) == 0 {
		return nil
	}
	return &m.frames[len(m.frames)-1]
}

// begin handles the first byte of a value.
func (m *machine) begin(kind jsontok.Kind, off int64) {
	if m.failed {
		return
	}
	m.caps.begin(m, kind, off)
	node := m.root
	if f := m.top(); f != nil {
		switch f.kind {
		case frameSkip:
			if isContainer(kind) {
				f.depth++
			}
			return
		case frameOneOf:
			if isContainer(kind) {
				f.depth++
			}
			m.forward(func(k *machine) { k.begin(kind, off) })
			return
		case frameObject:
			node = f.member
		case frameArray:
			node = f.node.Items
		}
	}
	m.beginValue(node, kind, off)
}

func isContainer(kind jsontok.Kind) bool { return kind == jsontok.Object || kind == jsontok.Array }

func (m *machine) beginValue(node *schema.Node, kind jsontok.Kind, off int64) {
	if node != nil && node.OneOf != nil {
		m.beginOneOf(node, kind, off)
		return
	}
	if node != nil && !typeAllows(node.Types, kind) {
		m.violate(violation{keyword: "type", node: node, off: off, got: kind}, m.valueDepth())
		node = nil
	}
	if node != nil && node.Enum != nil && !m.enumBegin(node, kind, off) {
		m.violate(violation{keyword: "enum", node: node, off: off, got: kind}, m.valueDepth())
	}
	depth := m.valueDepth()
	switch {
	case isContainer(kind) && node == nil:
		m.frames = append(m.frames, frame{kind: frameSkip, depth: 1, capture: -1})
	case kind == jsontok.Object:
		m.beginObject(node, depth)
	case kind == jsontok.Array:
		m.frames = append(m.frames, frame{kind: frameArray, node: node, capture: -1, pathDepth: depth})
	case kind == jsontok.String || kind == jsontok.Number:
		m.beginScalar(node, kind)
	default:
		m.sc.node = nil
	}
	if isContainer(kind) && node != nil && node.Enum != nil && len(node.Enum.Composite) > 0 {
		m.top().capture = m.caps.start(node, kind, depth)
	}
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

// enumBegin reports whether a value of kind can still be an enum choice,
// deciding literals outright.
func (m *machine) enumBegin(node *schema.Node, kind jsontok.Kind, off int64) bool {
	e := node.Enum
	switch kind {
	case jsontok.String:
		return len(e.Strings) > 0
	case jsontok.Number:
		return len(e.Numbers) > 0
	case jsontok.True:
		return e.True
	case jsontok.False:
		return e.False
	case jsontok.Null:
		return e.Null
	}
	open := byte('{')
	if kind == jsontok.Array {
		open = '['
	}
	return slices.ContainsFunc(e.Composite, func(c string) bool { return c[0] == open })
}

func (m *machine) beginObject(node *schema.Node, pathDepth int) {
	f := frame{kind: frameObject, node: node, seenAt: len(m.seen), capture: -1, keyFailAt: -1, pathDepth: pathDepth}
	for range (len(node.Keys) + 63) / 64 {
		m.seen = append(m.seen, 0)
	}
	m.frames = append(m.frames, f)
}

func (m *machine) beginScalar(node *schema.Node, kind jsontok.Kind) {
	sc := &m.sc
	sc.node, sc.kind = node, kind
	sc.enumOn, sc.numEnumOn, sc.enumFail, sc.maxFail = false, false, -1, -1
	sc.lengthOn, sc.keepText, sc.excerptOn = false, false, false
	if node == nil {
		return
	}
	if kind == jsontok.String {
		sc.enumOn = node.Enum != nil && len(node.Enum.Strings) > 0
		if sc.enumOn {
			sc.enum.reset(len(node.Enum.Strings))
		}
		sc.lengthOn = node.MinLength >= 0 || node.MaxLength >= 0
		sc.length = 0
		sc.keepText = node.Pattern != nil
		sc.text = sc.text[:0]
		sc.excerptOn = node.Enum != nil || sc.lengthOn || sc.keepText
	} else {
		sc.excerptOn = node.Enum != nil || node.Minimum != nil || node.Maximum != nil || node.Types&schema.TypeNumber == 0
		sc.numEnumOn = node.Enum != nil && len(node.Enum.Numbers) > 0
		if sc.numEnumOn {
			sc.num.Reset(m.v.schema.MaxDigits + 1)
		}
	}
	sc.excerpt.reset()
}

// beginKey handles the opening quote of a member name.
func (m *machine) beginKey(off int64) {
	if m.failed {
		return
	}
	m.caps.beginKey(m, off)
	f := m.top()
	switch f.kind {
	case frameOneOf:
		m.forward(func(k *machine) { k.beginKey(off) })
	case frameObject:
		f.keys.reset(len(f.node.KeyNames))
		f.keyFailAt = -1
	}
}

// text handles a piece of the current name, string or number.
func (m *machine) text(p []byte, off int64, raw bool, inKey bool) {
	if m.failed {
		return
	}
	m.caps.text(m, p, off, raw, inKey)
	f := m.top()
	if f != nil && f.kind == frameOneOf {
		m.forward(func(k *machine) { k.text(p, off, raw, inKey) })
		return
	}
	if inKey {
		if f.kind == frameObject {
			m.keyText(f, p, off, raw)
		}
		return
	}
	if f != nil && f.kind == frameSkip || m.sc.node == nil {
		return
	}
	m.scalarText(p, off, raw)
}

func byteOffset(off int64, i int, raw bool) int64 {
	if raw {
		return off + int64(i)
	}
	return off
}

func (m *machine) keyText(f *frame, p []byte, off int64, raw bool) {
	if f.keyFailAt >= 0 || !f.node.ClosedProperties {
		f.keys.feed(f.node.KeyNames, p)
		return
	}
	if i := f.keys.feed(f.node.KeyNames, p); i >= 0 {
		f.keyFailAt = byteOffset(off, i, raw)
		if !m.defers() {
			key := m.v.track.key() // holds p already: quote it up to the failing byte
			m.violateKey(f, f.keyFailAt, key[:len(key)-len(p)+upTo(i, p, raw)], false)
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

// violateKey reports a member name that a closed object does not allow.
func (m *machine) violateKey(f *frame, off int64, name []byte, complete bool) {
	vio := violation{keyword: "additionalProperties", node: f.node, off: off, got: jsontok.String, complete: complete}
	vio.excerpt.set(name)
	m.violate(vio, m.containerDepth())
}

func (m *machine) scalarText(p []byte, off int64, raw bool) {
	sc := &m.sc
	before := sc.excerpt.len()
	if sc.excerptOn {
		sc.excerpt.write(p)
	}
	if sc.kind != jsontok.String {
		if sc.numEnumOn && sc.enumFail < 0 {
			m.numberEnumText(p, off, before)
		}
		return
	}
	if sc.enumOn && sc.enumFail < 0 {
		if i := sc.enum.feed(sc.node.Enum.Strings, p); i >= 0 {
			sc.enumFail = byteOffset(off, i, raw)
			m.violateEarly("enum", sc.enumFail, before+upTo(i, p, raw))
		}
	}
	if sc.lengthOn {
		m.countLength(p, off, raw, before)
	}
	if sc.keepText {
		sc.text = append(sc.text, p...)
	}
}

// numberEnumText rejects a number at the first byte after which it can
// equal no enum choice.
func (m *machine) numberEnumText(p []byte, off int64, before int) {
	sc := &m.sc
	for i := range p {
		sc.num.Write(p[i : i+1])
		if !slices.ContainsFunc(sc.node.Enum.Numbers, sc.num.CanEqual) {
			sc.enumFail = off + int64(i)
			m.violateEarly("enum", sc.enumFail, before+i+1)
			return
		}
	}
}

// violateEarly reports a violation of the current scalar found before it
// ended, when the machine reports at once (streams and oneOf branches);
// otherwise endScalar reports it with the whole value. The message quotes
// the value up to the deciding byte, the same in any split.
func (m *machine) violateEarly(keyword string, off int64, quoted int) {
	if m.defers() {
		return
	}
	vio := violation{keyword: keyword, node: m.sc.node, off: off, got: m.sc.kind, excerpt: m.sc.excerpt}
	vio.excerpt.truncate(quoted)
	m.violate(vio, m.valueDepth())
}

// countLength counts code points (UTF-8 lead bytes) and notices the first one
// past maxLength.
func (m *machine) countLength(p []byte, off int64, raw bool, before int) {
	sc := &m.sc
	for i, c := range p {
		if c&0xC0 == 0x80 {
			continue
		}
		sc.length++
		if sc.node.MaxLength >= 0 && sc.length == sc.node.MaxLength+1 {
			sc.maxFail = byteOffset(off, i, raw)
			m.violateEarly("maxLength", sc.maxFail, before+upTo(i, p, raw))
		}
	}
}

// endKey handles the closing quote of a member name.
func (m *machine) endKey(off int64) {
	if m.failed {
		return
	}
	m.caps.endKey(m, off)
	f := m.top()
	switch f.kind {
	case frameOneOf:
		m.forward(func(k *machine) { k.endKey(off) })
		return
	case frameSkip:
		return
	}
	idx := f.keys.match(f.node.KeyNames)
	f.member = nil
	if idx >= 0 {
		m.seen[f.seenAt+idx/64] |= 1 << (idx % 64)
		f.member = f.node.Keys[idx].Schema
	}
	if !f.node.ClosedProperties || idx >= 0 {
		return
	}
	switch {
	case f.keyFailAt < 0:
		m.violateKey(f, off, m.v.track.key(), true) // a proper prefix of a declared name
	case m.defers():
		m.violateKey(f, f.keyFailAt, m.v.track.key(), true)
	}
	f.keyFailAt = -1
}

// flushPending reports the violations a full validation holds back until a
// name or value ends (to quote it whole), when the document breaks off before
// that end: a stream stopping at the same byte must report the same.
func (m *machine) flushPending() {
	if !m.defers() {
		return
	}
	if f := m.top(); f != nil && f.kind == frameObject && f.keyFailAt >= 0 {
		m.violateKey(f, f.keyFailAt, m.v.track.key(), false)
		f.keyFailAt = -1
	}
	if m.sc.node != nil {
		m.reportHeldBack(false)
		m.sc.node = nil
	}
}

// reportHeldBack reports, when the machine defers, the violations found
// inside the current string or number before it ended: at its end
// (complete), or when the document broke off first.
func (m *machine) reportHeldBack(complete bool) {
	sc := &m.sc
	if !m.defers() {
		return
	}
	if sc.enumFail >= 0 {
		m.violate(violation{keyword: "enum", node: sc.node, off: sc.enumFail, got: sc.kind, excerpt: sc.excerpt, complete: complete}, m.valueDepth())
	}
	if sc.maxFail >= 0 {
		m.violate(violation{keyword: "maxLength", node: sc.node, off: sc.maxFail, got: sc.kind, excerpt: sc.excerpt, complete: complete}, m.valueDepth())
	}
}

// end handles the end of a value.
func (m *machine) end(kind jsontok.Kind, off int64) {
	if m.failed {
		return
	}
	m.caps.end(m, kind, off)
	f := m.top()
	switch {
	case f != nil && f.kind == frameSkip:
		if isContainer(kind) {
			if f.depth--; f.depth == 0 {
				m.frames = m.frames[:len(m.frames)-1]
			}
		}
	case f != nil && f.kind == frameOneOf:
		m.forward(func(k *machine) { k.end(kind, off) })
		if isContainer(kind) {
			f.depth--
		}
		if f.depth == 0 {
			m.endOneOf(f, off)
		}
	case isContainer(kind):
		m.endContainer(f, off)
	case kind == jsontok.String || kind == jsontok.Number:
		if m.sc.node != nil {
			m.endScalar(off)
			m.sc.node = nil
		}
	}
}

func (m *machine) endContainer(f *frame, off int64) {
	if f.kind == frameObject {
		for _, idx := range f.node.Required {
			if m.seen[f.seenAt+idx/64]&(1<<(idx%64)) == 0 {
				m.violate(violation{keyword: "required", node: f.node, off: off, name: f.node.Keys[idx].Name}, f.pathDepth)
			}
		}
		for _, name := range f.node.RequiredForbidden {
			m.violate(violation{keyword: "required", node: f.node, off: off, name: name}, f.pathDepth)
		}
		m.seen = m.seen[:f.seenAt]
	}
	if f.capture >= 0 {
		if !m.caps.finish(f.capture) {
			m.violate(violation{keyword: "enum", node: f.node, off: off, got: kindOfFrame(f)}, f.pathDepth)
		}
	}
	m.frames = m.frames[:len(m.frames)-1]
}

func kindOfFrame(f *frame) jsontok.Kind {
	if f.kind == frameArray {
		return jsontok.Array
	}
	return jsontok.Object
}

func (m *machine) endScalar(off int64) {
	sc := &m.sc
	node := sc.node
	if sc.kind == jsontok.Number {
		m.endNumber(node, off)
		return
	}
	if sc.enumOn && sc.enumFail < 0 && sc.enum.match(node.Enum.Strings) < 0 {
		// A proper prefix of a choice: decided at the closing quote.
		m.violate(violation{keyword: "enum", node: node, off: off, got: jsontok.String, excerpt: sc.excerpt, complete: true}, m.valueDepth())
	}
	m.reportHeldBack(true)
	if node.MinLength >= 0 && sc.length < node.MinLength {
		m.violate(violation{keyword: "minLength", node: node, off: off, got: jsontok.String, excerpt: sc.excerpt, complete: true}, m.valueDepth())
	}
	if node.Pattern != nil && !node.Pattern.Match(sc.text) {
		m.violate(violation{keyword: "pattern", node: node, off: off, got: jsontok.String, excerpt: sc.excerpt, complete: true}, m.valueDepth())
	}
}

func (m *machine) endNumber(node *schema.Node, off int64) {
	d := m.v.num.Value()
	vio := violation{node: node, off: off, got: jsontok.Number, excerpt: m.sc.excerpt, complete: true}
	if node.Types&schema.TypeNumber == 0 && !d.IsInteger() {
		vio.keyword = "type"
		m.violate(vio, m.valueDepth())
	}
	if node.Minimum != nil && d.Cmp(*node.Minimum) < 0 {
		vio.keyword = "minimum"
		m.violate(vio, m.valueDepth())
	}
	if node.Maximum != nil && d.Cmp(*node.Maximum) > 0 {
		vio.keyword = "maximum"
		m.violate(vio, m.valueDepth())
	}
	if m.sc.numEnumOn && m.sc.enumFail < 0 && !slices.ContainsFunc(node.Enum.Numbers, d.Equal) {
		vio.keyword = "enum" // the digits fit a choice, the exponent or length did not
		m.violate(vio, m.valueDepth())
	}
	m.reportHeldBack(true)
}

// beginOneOf starts one pass/fail machine per branch on the value.
func (m *machine) beginOneOf(node *schema.Node, kind jsontok.Kind, off int64) {
	f := frame{kind: frameOneOf, node: node, capture: -1, pathDepth: m.valueDepth()}
	if isContainer(kind) {
		f.depth = 1
	}
	m.frames = append(m.frames, f)
	m.kids = m.kids[:0]
	for _, branch := range node.OneOf {
		k := m.v.machine(branch)
		m.kids = append(m.kids, k)
		k.begin(kind, off)
	}
	m.checkBranches(m.top())
	if !isContainer(kind) {
		m.sc.node = nil
	}
}

// forward passes one event to every live branch of the innermost oneOf and
// rejects the value as soon as no branch is left, at the byte where the last
// branch failed.
func (m *machine) forward(event func(*machine)) {
	for _, k := range m.kids {
		if !k.failed {
			event(k)
		}
	}
	m.checkBranches(m.top())
}

func (m *machine) checkBranches(f *frame) {
	if f.reported {
		return
	}
	for _, k := range m.kids {
		if !k.failed {
			return
		}
	}
	f.reported = true
	m.violate(m.oneOfViolation(f, -1, nil), f.pathDepth)
}

func (m *machine) oneOfViolation(f *frame, off int64, matched []int) violation {
	o := &oneOfOutcome{matched: matched}
	if matched == nil { // rejected where the last branch failed
		for _, k := range m.kids {
			o.reasons = append(o.reasons, k.failure)
			off = max(off, k.failure.off)
		}
	}
	return violation{keyword: "oneOf", node: f.node, off: off, oneOf: o}
}

// endOneOf decides a oneOf value: exactly one branch must have matched.
func (m *machine) endOneOf(f *frame, off int64) {
	var matched []int
	count := 0
	for _, k := range m.kids {
		if !k.failed {
			count++
		}
	}
	if count > 1 && !f.reported {
		for i, k := range m.kids {
			if !k.failed {
				matched = append(matched, i)
			}
		}
		m.violate(m.oneOfViolation(f, off, matched), f.pathDepth)
	}
	for _, k := range m.kids {
		m.v.release(k)
	}
	m.kids = m.kids[:0]
	m.frames = m.frames[:len(m.frames)-1]
}

// captures record the canonical text of values under an enum with object or
// array choices, so the value can be compared when it ends. The text is
// bounded: a value whose canonical text is already longer than every choice
// is rejected at that byte.
type captures struct {
	buf       []byte
	recs      []capture
	needComma bool // the next element needs a separating comma
}

type capture struct {
	node      *schema.Node
	kind      jsontok.Kind
	start     int
	dead      bool
	pathDepth int
}

func (c *captures) reset() {
	c.buf, c.recs, c.needComma = c.buf[:0], c.recs[:0], false
}

// start begins capturing the container just opened and returns the
// capture's index. A live enclosing capture has already written the opening
// byte; otherwise the buffer starts afresh with it.
func (c *captures) start(node *schema.Node, kind jsontok.Kind, pathDepth int) int {
	start := len(c.buf) - 1
	if !c.active() {
		c.buf, c.needComma = c.buf[:0], false
		c.open(kind)
		start = 0
	}
	c.recs = append(c.recs, capture{node: node, kind: kind, start: start, pathDepth: pathDepth})
	return len(c.recs) - 1
}

// active reports whether a live capture needs the events: once every
// capture of a value has outgrown its choices, nothing more is written, so
// the buffer stays bounded by the longest choice.
func (c *captures) active() bool {
	for i := range c.recs {
		if !c.recs[i].dead {
			return true
		}
	}
	return false
}

func (c *captures) comma() {
	if c.needComma {
		c.buf = append(c.buf, ',')
	}
	c.needComma = false
}

func (c *captures) open(kind jsontok.Kind) {
	c.comma()
	switch kind {
	case jsontok.Object:
		c.buf = append(c.buf, '{')
	case jsontok.Array:
		c.buf = append(c.buf, '[')
	case jsontok.String:
		c.buf = append(c.buf, '"')
	case jsontok.True, jsontok.False, jsontok.Null:
		c.buf = append(c.buf, kind.String()...)
		c.needComma = true
	}
}

func (c *captures) begin(m *machine, kind jsontok.Kind, off int64) {
	if c.active() {
		c.open(kind)
		c.check(m, off)
	}
}

func (c *captures) beginKey(m *machine, off int64) {
	if c.active() {
		c.comma()
		c.buf = append(c.buf, '"')
		c.check(m, off)
	}
}

func (c *captures) endKey(m *machine, off int64) {
	if c.active() {
		c.buf = append(c.buf, '"', ':')
		c.check(m, off)
	}
}

func (c *captures) text(m *machine, p []byte, off int64, raw bool, inKey bool) {
	if !c.active() || !inKey && m.v.textKind == jsontok.Number {
		return
	}
	for i := range p {
		c.buf = jsondoc.AppendStringBody(c.buf, p[i:i+1])
		c.check(m, byteOffset(off, i, raw))
	}
}

func (c *captures) end(m *machine, kind jsontok.Kind, off int64) {
	if !c.active() {
		return
	}
	switch kind {
	case jsontok.Object:
		c.buf = append(c.buf, '}')
	case jsontok.Array:
		c.buf = append(c.buf, ']')
	case jsontok.String:
		c.buf = append(c.buf, '"')
	case jsontok.Number:
		c.buf = m.v.num.Value().AppendCanonical(c.buf)
	}
	c.needComma = true
	c.check(m, off)
}

// check rejects every live capture whose text outgrew its longest choice.
func (c *captures) check(m *machine, off int64) {
	for i := range c.recs {
		r := &c.recs[i]
		if !r.dead && len(c.buf)-r.start > r.node.Enum.MaxComposite {
			r.dead = true
			m.violate(violation{keyword: "enum", node: r.node, off: off, got: r.kind}, r.pathDepth)
		}
	}
}

// finish ends capture i (the innermost) and reports whether its value is one
// of the choices. A capture that was already rejected reports true: its
// violation was made when it died.
func (c *captures) finish(i int) bool {
	r := c.recs[i]
	c.recs = c.recs[:i]
	if r.dead {
		return true
	}
	v, err := jsondoc.Parse(c.buf[r.start:], 0)
	if err != nil {
		return false
	}
	_, found := slices.BinarySearch(r.node.Enum.Composite, string(jsondoc.Canonical(v)))
	return found
}
