package provider

import "strconv"

// call is the state of one tool call in a stream.
type call struct {
	base string // the provider key (block index, item id, ...)
	key  string // Event.Key: base, plus "#n" when base was used before
	gen  int    // how many calls used base before this one

	id, name string
	ended    bool // End was emitted

	text     int    // argument bytes so far
	sum      uint64 // FNV-1a of those bytes, to compare with a final copy
	sawDelta bool   // write was called, even with empty text

	// fallback is argument text known whole from the call's opening event
	// (Anthropic's content_block_start input), used at the end when no
	// argument text streamed. A placeholder fallback (the empty "{}" that
	// precedes deltas) is used only when no delta event arrived at all.
	fallback    string
	placeholder bool
}

// tracker is the provider-independent half of an Adapter: the calls of one
// stream, and the rules that keep every call's events in order (one Start
// before any Delta, at most one End, no event after End).
type tracker struct {
	p     Provider
	out   []Event          // events produced by the current Feed or Close
	calls map[string]*call // base key -> the latest call with that key
	open  []*call          // calls not yet ended, in the order they began
}

// begin opens a new call at base and emits its Start. A call already open
// at base is ended first — unless it is still waiting for its name (it was
// opened by an early delta) and its id does not contradict id: then it is
// that call, and begin only fills in what it lacks.
func (t *tracker) begin(base, id, name string) *call {
	prev := t.calls[base]
	if prev != nil && !prev.ended {
		if prev.name == "" && (id == "" || prev.id == "" || prev.id == id) {
			t.identify(prev, id, name)
			return prev
		}
		t.end(prev)
	}
	c := &call{base: base, key: base}
	if prev != nil {
		c.gen = prev.gen + 1
		c.key = base + "#" + strconv.Itoa(c.gen+1)
	}
	t.calls[base] = c
	t.open = append(t.open, c)
	c.id, c.name = id, name
	t.out = append(t.out, Event{Kind: Start, Key: c.key, CallID: id, ToolName: name})
	return c
}

// follow returns the call that a continuation event for base belongs to:
// the open call; a new nameless call when base was never used (the name may
// come later); or nil when base's call has ended — late events for an ended
// call are ignored.
func (t *tracker) follow(base string) *call {
	c := t.calls[base]
	switch {
	case c == nil:
		return t.begin(base, "", "")
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

// identify records an id and a name that arrived for c after its Start;
// the first non-empty value wins. A name that c lacked is emitted as a Name
// event, with the id known by then; an id that arrives after the name is
// dropped (Key, not CallID, identifies the call).
func (t *tracker) identify(c *call, id, name string) {
	if c.ended || c.name != "" {
		return
	}
	if c.id == "" {
		c.id = id
	}
	if name != "" {
		c.name = name
		t.out = append(t.out, Event{Kind: Name, Key: c.key, CallID: c.id, ToolName: name})
	}
}

// write appends argument text to c as a Delta.
func (t *tracker) write(c *call, frag string) {
	c.sawDelta = true
	if frag == "" || c.ended {
		return
	}
	if c.text == 0 {
		c.sum = fnvOffset
	}
	c.text += len(frag)
	c.sum = fnv1a(c.sum, frag)
	t.out = append(t.out, Event{Kind: Delta, Key: c.key, Fragment: frag})
}

// complete reconciles c with its whole argument text sent at the end
// (Responses ".done"): the whole text when nothing streamed, the missing tail
// when the streamed text is a prefix of it, and an error when they disagree.
func (t *tracker) complete(c *call, whole string) error {
	switch {
	case c.text == 0:
		t.write(c, whole)
	case len(whole) >= c.text && fnv1a(fnvOffset, whole[:c.text]) == c.sum:
		t.write(c, whole[c.text:])
	default:
		return t.errorf(c.key, "final arguments (%d bytes) disagree with the %d bytes streamed", len(whole), c.text)
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
	t.out = append(t.out, Event{Kind: End, Key: c.key})
	for i, o := range t.open {
		if o == c {
			t.open = append(t.open[:i], t.open[i+1:]...)
			break
		}
	}
}

// endAll ends, in the order they began, the open calls whose base key starts
// with prefix ("" ends them all).
func (t *tracker) endAll(prefix string) {
	for i := 0; i < len(t.open); {
		c := t.open[i]
		if len(c.base) >= len(prefix) && c.base[:len(prefix)] == prefix {
			t.end(c) // removes t.open[i]
			continue
		}
		i++
	}
}

// fnvOffset starts a 64-bit FNV-1a hash.
const fnvOffset = 14695981039346656037

// fnv1a continues the 64-bit FNV-1a hash h over s.
func fnv1a(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
