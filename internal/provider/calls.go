package provider

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"hash"
	"slices"
	"strings"
	"sync"
)

// call is the state of one tool call, or of one message output (output
// set), in a stream.
type call struct {
	base string // the provider key (block index, item id, ...)
	key  string // Event.Key (see claim)
	// group is base up to its last "/" ("choice0/", and
	// "completion1/choice0/" for a Chat completion after "[DONE]"), for
	// cut, endGroup and endCalls.
	group string

	// The call's places in the tracker's list of active calls and in its
	// group's, while it is active.
	inAll, inGroup link

	id, name   string
	renamed    bool // a Conflict was emitted
	unreadable bool // an Unreadable was emitted
	ended      bool // End (TextEnd) was emitted

	output  bool   // a message output: Text, Refusal and TextEnd events
	refused bool   // a Refusal was emitted
	cut     string // the provider stopped the output early, for this reason (see Event.Cut)
	part    int    // Responses: the content part the text counters are for
	// parts holds, for a Responses message, the text counters of the
	// content parts before part, for the item's final copy (see
	// reconcileParts).
	parts []partText

	text     int       // argument bytes so far (of an output: of its current part)
	sum      hash.Hash // keyed SHA-256 of those bytes, when the provider sends a final copy
	final    []byte    // sum's digest once the call ended, for a copy that comes later
	sawDelta bool      // write was called, even with empty text

	// fallback is argument text known whole from the call's opening event
	// (Anthropic's content_block_start input), used at the end when no
	// argument text streamed. A placeholder fallback (the empty "{}" that
	// precedes deltas) is used only when no delta event arrived at all.
	fallback    string
	placeholder bool
}

// tracker is the provider-independent half of an Adapter: the calls of one
// stream, and the rules that keep every call's events in order (one Start
// before any Delta, at most one Name, at most one End, no event after End)
// and that fail closed when the provider contradicts itself about a call's
// tool.
type tracker struct {
	p      Provider
	strict strictReader     // reads each event as a strict client would (decode)
	out    []Event          // events produced by the current Feed or Close
	name   string           // the current event's name, or "" (see FeedNamed)
	calls  map[string]*call // base key -> the latest call with that key
	active list             // calls not yet ended, in the order they began
	groups map[string]*list // the same, by group
	// work counts bookkeeping steps whose number depends on the stream:
	// calls visited by endAll, endGroup and endCalls, keys tried by claim,
	// Gemini candidate lookups. Every step is O(1), and a test holds work
	// linear in the events.
	work int
	// finalCopies is set for providers that repeat a call's whole text at
	// its end (Responses), which complete compares with what streamed.
	finalCopies bool
	// maxName is the longest call id, tool name or provider key kept whole
	// (see Adapter.LimitNames).
	maxName int
	// maxPlaces is the most choices, candidates or output items the
	// provider's half keeps state for (see Adapter.LimitPlaces).
	maxPlaces int
	// keys holds every Event.Key given out, so that no key is ever given
	// twice (see claim).
	keys Keys
}

// clip returns s, or a copy of its first maxName+1 bytes when it is
// longer than maxName: a call id or tool name is never kept whole past the
// limit, and a consumer that bounds names at it still sees it is too long.
func (t *tracker) clip(s string) string {
	if len(s) <= t.maxName {
		return s
	}
	return strings.Clone(s[:t.maxName+1])
}

// checkKey refuses a provider key (a Responses item id) longer than
// maxName: keys tell calls apart, so one cannot be clipped.
func (t *tracker) checkKey(what, key string) error {
	if len(key) > t.maxName {
		return t.errorf("", "%s is %d bytes, longer than the limit of %d", what, len(key), t.maxName)
	}
	return nil
}

// begin opens a new call at base and emits its Start. A call already open
// at base is ended first — unless it is still waiting for its name (it was
// opened by an early delta) and its id does not contradict id: then it is
// that call, and begin only fills in what it lacks. Providers whose events
// come in sequence (a new call after the last) use begin; providers that key
// every event of a call use open.
func (t *tracker) begin(base, id, name string) *call {
	prev := t.calls[base]
	if prev != nil && !prev.ended {
		if prev.name == "" && (id == "" || prev.id == "" || prev.id == id) {
			t.identify(prev, id, name)
			return prev
		}
		t.end(prev)
	}
	return t.create(base, id, name)
}

// open returns the call open at base, after identify has recorded id and
// name for it (a second, different name is a Conflict), or begins one. It is
// for providers that name a call by its key in every event (an Anthropic or
// Bedrock block index, a Responses item id, a Cohere index): a second
// opening event for a key still open is the same call, not a new one.
func (t *tracker) open(base, id, name string) *call {
	if c := t.find(base); c != nil {
		t.identify(c, id, name)
		return c
	}
	return t.create(base, id, name)
}

// create makes a call at base and emits its Start.
func (t *tracker) create(base, id, name string) *call {
	id, name = t.clip(id), t.clip(name)
	c := t.track(base, base)
	c.id, c.name = id, name
	t.out = append(t.out, Event{Kind: Start, Key: c.key, CallID: id, ToolName: name})
	return c
}

// track makes a call at base with a key claimed from want, active and in
// its group, and emits nothing.
func (t *tracker) track(base, want string) *call {
	c := &call{base: base, key: t.claim(want)}
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		c.group = base[:i+1]
	}
	t.calls[base] = c
	t.active.push(c, all)
	g := t.groups[c.group]
	if g == nil {
		if t.groups == nil {
			t.groups = map[string]*list{}
		}
		g = &list{}
		t.groups[c.group] = g
	}
	g.push(c, grouped)
	return c
}

// output returns the output open at base, or begins one for the
// provider's choice, candidate, message or item index n, with the key
// "output/<n>" ("output/<n>#2", ... when n was used before). An output has
// no Start: its first Text or Refusal begins it, so an output the provider
// opens but never writes to does not exist.
func (t *tracker) output(base string, n int) *call {
	if c := t.find(base); c != nil {
		return c
	}
	c := t.track(base, numbered("output/", n))
	c.output = true
	return c
}

// claim returns want as a key never given out in this stream, or, when it
// was, want with the first free "#2", "#3", ... suffix: a provider key used
// by a second call, an output index used again (a second response in one
// stream), or a provider key that spells another's key ("output/0" as a
// Responses item id) all get keys of their own.
func (t *tracker) claim(want string) string {
	key, tries := t.keys.Claim(want)
	t.work += tries
	return key
}

// refuse emits a Refusal for output c (once; the first piece of the
// refusal text, which may be empty, is its Fragment).
func (t *tracker) refuse(c *call, text string) {
	if c.ended || c.refused {
		return
	}
	c.refused = true
	t.out = append(t.out, Event{Kind: Refusal, Key: c.key, Fragment: text})
}

// partText is what streamed of one content part of an output: its length
// and keyed hash.
type partText struct {
	n    int // the part's content index
	text int
	sum  []byte // nil when no text streamed
}

// streamed returns what streamed of content part n of c (a call has part
// 0 only): its text counters, kept in parts for a part before the
// current one.
func (c *call) streamed(n int) partText {
	if n == c.part {
		p := partText{n: n, text: c.text, sum: c.final}
		if c.sum != nil {
			p.sum = c.sum.Sum(nil)
		}
		return p
	}
	if i, ok := slices.BinarySearchFunc(c.parts, n, func(p partText, n int) int { return cmp.Compare(p.n, n) }); ok {
		return c.parts[i]
	}
	return partText{n: n}
}

// is reports whether text (nil for none) is what streamed of the part.
func (p partText) is(text *string) bool {
	s := *ptrOr(text)
	return len(s) == p.text && (p.text == 0 || bytes.Equal(textHash(s), p.sum))
}

// lacks reports whether texts, the final copy of c's content parts, has no
// part for text that streamed.
func (c *call) lacks(texts []*string) bool {
	if c.text > 0 && c.part >= len(texts) {
		return true
	}
	return len(c.parts) > 0 && c.parts[len(c.parts)-1].n >= len(texts)
}

// sameText reports whether texts, a final copy that came after c ended,
// is exactly what streamed: no part longer, shorter or other.
func (c *call) sameText(texts []*string) bool {
	if c.lacks(texts) {
		return false
	}
	for n, s := range texts {
		if !c.streamed(n).is(s) {
			return false
		}
	}
	return true
}

// part moves output c's counters to content part n, for complete: a
// Responses message may have several output_text parts, each repeated at
// its end. A part before the current one cannot be written again; what
// streamed of it is kept for the item's final copy.
func (t *tracker) part(c *call, n int) error {
	switch {
	case n == c.part:
		return nil
	case n < c.part:
		return t.errorf(c.key, "text for content part %d after part %d", n, c.part)
	}
	if c.text > 0 {
		c.parts = append(c.parts, partText{n: c.part, text: c.text, sum: c.sum.Sum(nil)})
	}
	c.part, c.text, c.sum = n, 0, nil
	return nil
}

// reconcileParts checks output c against the final copy of its content
// parts (texts[i] the text of part i, nil for a part that is not text),
// as complete does for one part: a part that streamed must be the final
// copy's, or a prefix of it (the missing tail is written); a part that
// did not stream is written whole, in order. Text that streamed for a part
// the copy lacks disagrees with it.
func (t *tracker) reconcileParts(c *call, texts []*string) error {
	for n := range min(c.part, len(texts)) {
		if p := c.streamed(n); !p.is(texts[n]) {
			return t.errorf(c.key, "final text of content part %d (%d bytes) disagrees with the %d bytes streamed", n, len(*ptrOr(texts[n])), p.text)
		}
	}
	if c.lacks(texts) {
		return t.errorf(c.key, "final copy has %d content parts, fewer than streamed", len(texts))
	}
	for n := c.part; n < len(texts); n++ {
		if texts[n] == nil {
			if n == c.part && c.text > 0 {
				return t.errorf(c.key, "final copy's content part %d is not text, but %d bytes of text streamed for it", n, c.text)
			}
			continue
		}
		if err := t.part(c, n); err != nil {
			return err
		}
		if err := t.complete(c, *texts[n]); err != nil {
			return err
		}
	}
	return nil
}

// follow returns the call that a continuation event for base belongs to:
// the open call; a new nameless call when base was never used (the name may
// come later); or nil when base's call has ended — late events for an ended
// call are ignored.
func (t *tracker) follow(base string) *call {
	c := t.calls[base]
	switch {
	case c == nil:
		return t.create(base, "", "")
	case c.ended:
		return nil
	}
	return c
}

// find returns the open call at base, or nil.
func (t *tracker) find(base string) *call {
	if c := t.calls[base]; c != nil && !c.ended {
		return c
	}
	return nil
}

// identify records an id and a name that arrived for c after its Start. The
// first non-empty id wins; an id that arrives after the name is dropped
// (Key, not CallID, identifies the call). A name that c lacked is emitted as
// a Name event, with the id known by then. An empty name, or the same name
// again, says nothing new; a different non-empty name is a Conflict (once
// per call): the provider's events name two tools, so whichever one a
// client dispatches, the call cannot be validated against it.
func (t *tracker) identify(c *call, id, name string) {
	if c.ended {
		return
	}
	id, name = t.clip(id), t.clip(name)
	switch {
	case c.name == "":
		if c.id == "" {
			c.id = id
		}
		if name != "" {
			c.name = name
			t.out = append(t.out, Event{Kind: Name, Key: c.key, CallID: c.id, ToolName: name})
		}
	case name != "" && name != c.name && !c.renamed:
		c.renamed = true
		t.out = append(t.out, Event{Kind: Conflict, Key: c.key, ToolName: name})
	}
}

// unreadable emits, once, the Unreadable of call c, whose input is not
// JSON arguments (a custom tool's free text): why says so, for the model,
// and name is the tool the provider names, which c takes when it has none
// yet (so that begin ends c, not continues it, when another call comes at
// its key). The call's events go on as before; its consumer refuses it.
func (t *tracker) unreadable(c *call, name, why string) {
	if c.ended || c.unreadable {
		return
	}
	c.unreadable = true
	if c.name == "" {
		c.name = t.clip(name)
	}
	t.out = append(t.out, Event{Kind: Unreadable, Key: c.key, CallID: c.id, ToolName: c.name, Fragment: why})
}

// write appends text to c: argument text as a Delta, or an output's
// message text as a Text.
func (t *tracker) write(c *call, frag string) {
	c.sawDelta = true
	if frag == "" || c.ended {
		return
	}
	if t.finalCopies {
		if c.sum == nil {
			c.sum = newTextHash()
		}
		c.sum.Write([]byte(frag))
	}
	c.text += len(frag)
	kind := Delta
	if c.output {
		kind = Text
	}
	t.out = append(t.out, Event{Kind: kind, Key: c.key, Fragment: frag})
}

// complete reconciles c with its whole argument text sent at the end
// (Responses ".done"): the whole text when nothing streamed, the missing tail
// when the streamed text is a prefix of it, and an error when they disagree.
// The prefix is compared through a keyed SHA-256 of the streamed bytes, so
// no final copy can be made to look like a different stream.
func (t *tracker) complete(c *call, whole string) error {
	switch {
	case c.text == 0:
		t.write(c, whole)
	case len(whole) >= c.text && bytes.Equal(textHash(whole[:c.text]), c.sum.Sum(nil)):
		t.write(c, whole[c.text:])
	default:
		what := "arguments"
		if c.output {
			what = "text"
		}
		return t.errorf(c.key, "final %s (%d bytes) disagree with the %d bytes streamed", what, len(whole), c.text)
	}
	return nil
}

// finish reconciles c with its final arguments, when given, and ends it.
func (t *tracker) finish(c *call, whole *string) error {
	var err error
	if whole != nil {
		err = t.complete(c, *whole)
	}
	t.end(c)
	return err
}

// end emits c's End, after its fallback text if that is still due. Ending
// an ended call does nothing.
func (t *tracker) end(c *call) {
	if c.ended {
		return
	}
	if c.text == 0 && c.fallback != "" && !(c.placeholder && c.sawDelta) {
		t.write(c, c.fallback)
	}
	c.ended = true
	if c.sum != nil {
		c.final = c.sum.Sum(nil)
	}
	c.sum = nil
	kind := End
	if c.output {
		kind = TextEnd
	}
	t.out = append(t.out, Event{Kind: kind, Key: c.key, Cut: c.cut})
	t.active.remove(c, all)
	g := t.groups[c.group]
	g.remove(c, grouped)
	if g.head == nil {
		delete(t.groups, c.group)
	}
}

// cut marks the open outputs of group ("" for every group) as stopped by
// the provider, for reason, before the model finished them.
func (t *tracker) cut(group, reason string) {
	if reason == "" {
		reason = "no finish reason given" // Event.Cut "" is no cut
	}
	l, at := &t.active, all
	if group != "" {
		if l, at = t.groups[group], grouped; l == nil {
			return
		}
	}
	for c := l.head; c != nil; c = at(c).next {
		t.work++
		if c.output {
			c.cut = reason
		}
	}
}

// abort ends a stream the provider stopped (an error event, a failed or
// incomplete response): every open output is cut for reason, and every
// open call ends.
func (t *tracker) abort(reason string) {
	t.cut("", reason)
	t.endAll()
}

// endAll ends the open calls in the order they began.
func (t *tracker) endAll() {
	for c := t.active.head; c != nil; c = t.active.head {
		t.work++
		t.end(c)
	}
}

// endGroup ends, in the order they began, the open calls of group: those
// whose base, up to its last "/", is group ("choice0/").
func (t *tracker) endGroup(group string) {
	g := t.groups[group]
	for g != nil && g.head != nil {
		t.work++
		t.end(g.head) // may delete g from t.groups; g stays valid here
	}
}

// endCalls ends, in the order they began, the open calls of group (see
// endGroup), and leaves its output open.
func (t *tracker) endCalls(group string) {
	g := t.groups[group]
	if g == nil {
		return
	}
	for c := g.head; c != nil; {
		t.work++
		next := grouped(c).next
		if !c.output {
			t.end(c) // may delete g from t.groups; g and next stay valid here
		}
		c = next
	}
}

// list is a doubly linked list of calls, threaded through one of their
// links (see all and grouped), so that a call leaves it in O(1).
type list struct{ head, tail *call }

// link is a call's place in one list.
type link struct{ prev, next *call }

// all and grouped select the link of a call that a list uses.
func all(c *call) *link     { return &c.inAll }
func grouped(c *call) *link { return &c.inGroup }

// push appends c.
func (l *list) push(c *call, at func(*call) *link) {
	*at(c) = link{prev: l.tail}
	if l.tail != nil {
		at(l.tail).next = c
	} else {
		l.head = c
	}
	l.tail = c
}

// remove takes c out of l.
func (l *list) remove(c *call, at func(*call) *link) {
	lk := at(c)
	if lk.prev != nil {
		at(lk.prev).next = lk.next
	} else {
		l.head = lk.next
	}
	if lk.next != nil {
		at(lk.next).prev = lk.prev
	} else {
		l.tail = lk.prev
	}
	*lk = link{}
}

// hashKey keys the text hashes of this process, drawn once from crypto/rand.
var hashKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k) // never fails on supported platforms
	return k
})

// newTextHash returns a keyed SHA-256 state (the key, then the text).
func newTextHash() hash.Hash {
	h := sha256.New()
	h.Write(hashKey())
	return h
}

// textHash returns the keyed SHA-256 of s.
func textHash(s string) []byte {
	h := newTextHash()
	h.Write([]byte(s))
	return h.Sum(nil)
}
