package validator

import (
	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// captures record the canonical text of objects and arrays that an enum
// or const with object or array choices evaluates, so the value can be
// compared when it ends. The text is bounded: a value whose canonical text
// is already longer than every choice is rejected at that byte, and once
// every open capture is rejected nothing more is written, so the buffer
// never outgrows the longest choice.
type captures struct {
	buf       []byte
	recs      []capture
	live      int  // captures not yet rejected
	needComma bool // the next element needs a separating comma
	// limits orders the live captures by the length of buf at which each
	// outgrows its choices, smallest first, so that a captured byte costs
	// one comparison however many captures are open (width × depth). An
	// entry whose capture has ended, died or been dropped is skipped when
	// it comes first.
	limits captureLimits
	made   uint64 // captures started, naming each (capture.id)
}

type capture struct {
	e      *eval
	id     uint64
	start  int
	maxLen int
	dead   bool // rejected: it outgrew every choice
	done   bool // its value ended
}

// captureLimit is an entry of captures.limits: the capture at recs[i],
// if its id is still id, outgrows its choices past len(buf) == limit.
type captureLimit struct {
	limit int
	i     int
	id    uint64
}

// captureLimits is a min-heap by limit.
type captureLimits []captureLimit

// push adds x.
func (h *captureLimits) push(x captureLimit) {
	*h = append(*h, x)
	a := *h
	for i := len(a) - 1; i > 0; {
		parent := (i - 1) / 2
		if a[parent].limit <= a[i].limit {
			break
		}
		a[parent], a[i] = a[i], a[parent]
		i = parent
	}
}

// pop removes the first entry.
func (h *captureLimits) pop() {
	a := *h
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		least := i
		for _, kid := range [2]int{2*i + 1, 2*i + 2} {
			if kid < n && a[kid].limit < a[least].limit {
				least = kid
			}
		}
		if least == i {
			break
		}
		a[least], a[i] = a[i], a[least]
		i = least
	}
	*h = a
}

func (c *captures) reset() {
	c.buf, c.recs, c.live, c.needComma, c.limits = c.buf[:0], c.recs[:0], 0, false, c.limits[:0]
}

// start begins capturing the container just opened for e and returns the
// capture's index. A live enclosing capture has already written the
// opening byte; otherwise the buffer starts afresh with it.
func (c *captures) start(e *eval, kind jsontok.Kind, _ int) int32 {
	start := len(c.buf) - 1
	if c.live == 0 {
		c.buf, c.needComma, c.limits = c.buf[:0], false, c.limits[:0] // every entry is stale
		c.open(kind)
		start = 0
	}
	maxLen := 0
	for _, s := range choiceSets(e.node) {
		if s.set != nil {
			maxLen = max(maxLen, s.set.MaxComposite)
		}
	}
	c.made++
	c.recs = append(c.recs, capture{e: e, id: c.made, start: start, maxLen: maxLen})
	c.limits.push(captureLimit{limit: start + maxLen, i: len(c.recs) - 1, id: c.made})
	c.live++
	return int32(len(c.recs) - 1)
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

// The event methods below (begin, beginKey, text, end) are guards small
// enough to inline: most values are captured by nothing, and then an event
// costs one comparison. Their ...Slow twins do the work.

func (c *captures) begin(v *Validator, kind jsontok.Kind, off int64) {
	if c.live > 0 {
		c.beginSlow(v, kind, off)
	}
}

func (c *captures) beginSlow(v *Validator, kind jsontok.Kind, off int64) {
	c.open(kind)
	c.check(v, off)
}

func (c *captures) beginKey(v *Validator, off int64) {
	if c.live > 0 {
		c.beginKeySlow(v, off)
	}
}

func (c *captures) beginKeySlow(v *Validator, off int64) {
	c.comma()
	c.buf = append(c.buf, '"')
	c.check(v, off)
}

func (c *captures) endKey(v *Validator, off int64) {
	if c.live > 0 {
		c.buf = append(c.buf, '"', ':')
		c.check(v, off)
	}
}

func (c *captures) text(v *Validator, p []byte, off int64, raw bool, inKey bool) {
	if c.live > 0 {
		c.textSlow(v, p, off, raw, inKey)
	}
}

func (c *captures) textSlow(v *Validator, p []byte, off int64, raw bool, inKey bool) {
	if !inKey && v.frames[v.top()].kind == jsontok.Number {
		return
	}
	for i := range p {
		c.buf = jsondoc.AppendStringBody(c.buf, p[i:i+1])
		c.check(v, byteOffset(off, i, raw))
		if c.live == 0 {
			return
		}
	}
}

func (c *captures) end(v *Validator, kind jsontok.Kind, off int64) {
	if c.live > 0 {
		c.endSlow(v, kind, off)
	}
}

func (c *captures) endSlow(v *Validator, kind jsontok.Kind, off int64) {
	switch kind {
	case jsontok.Object:
		c.buf = append(c.buf, '}')
	case jsontok.Array:
		c.buf = append(c.buf, ']')
	case jsontok.String:
		c.buf = append(c.buf, '"')
	case jsontok.Number:
		c.buf = v.num.Value().AppendCanonical(c.buf)
	}
	c.needComma = true
	c.check(v, off)
}

// check rejects every live capture whose text outgrew its longest choice.
func (c *captures) check(v *Validator, off int64) {
	for len(c.limits) > 0 {
		top := c.limits[0]
		if top.i >= len(c.recs) || c.recs[top.i].id != top.id || c.recs[top.i].dead || c.recs[top.i].done {
			c.limits.pop() // stale
			v.steps++
			continue
		}
		if len(c.buf) <= top.limit {
			return
		}
		c.limits.pop()
		v.steps++
		r := &c.recs[top.i]
		r.dead = true
		c.live--
		f := &v.frames[r.e.fr]
		for _, s := range choiceSets(r.e.node) {
			if s.set != nil && choiceKindPossible(s.set, f.kind) {
				v.queue(r.e, violation{keyword: s.keyword, node: r.e.node, off: off, got: f.kind})
			}
		}
	}
}

// finish ends capture i (its value ended) and returns the canonical text
// of the value, or ok false when the capture was rejected already. The
// text is nil when the captured value is not one canonical document
// (which no choice is).
func (c *captures) finish(i int32) (canonical []byte, ok bool) {
	r := &c.recs[i]
	if r.dead {
		return nil, false
	}
	r.done = true
	c.live--
	doc, err := jsondoc.Parse(c.buf[r.start:], 0)
	if err != nil {
		return nil, true
	}
	return jsondoc.Canonical(doc), true
}

// drop forgets the captures of the frame fr, which is closing.
func (c *captures) drop(fr int32) {
	for len(c.recs) > 0 && c.recs[len(c.recs)-1].e.fr >= fr {
		c.recs = c.recs[:len(c.recs)-1]
	}
}

func byteOffset(off int64, i int, raw bool) int64 {
	if raw {
		return off + int64(i)
	}
	return off
}
