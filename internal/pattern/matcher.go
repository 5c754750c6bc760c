package pattern

import "slices"

// A Matcher runs a Pattern over a text that arrives in pieces: a small
// value to embed in the caller's state and reuse with Reset. Write costs a
// constant number of table lookups per byte and allocates nothing; any
// split of the text, including inside a UTF-8 sequence, gives the same
// answers. The zero Matcher is dead (it matches nothing) until Reset.
//
// The text must be valid UTF-8 once complete. A byte that no valid UTF-8
// continues makes the matcher dead, unless the pattern has already matched
// (then it stays matched: the text contains a match whatever follows).
type Matcher struct{ c cursor }

// Reset starts the matcher over an empty text for p.
func (m *Matcher) Reset(p *Pattern) { m.c.reset(p.d) }

// Write feeds the next bytes of the text. It returns the index in b of the
// first byte after which no continuation of the text can match (so the
// text is rejected there), or -1 if there is none. Once the matcher is
// dead, every later non-empty Write returns 0.
func (m *Matcher) Write(b []byte) int { return write(&m.c, b) }

// WriteString is Write for a string.
func (m *Matcher) WriteString(s string) int { return write(&m.c, s) }

// Matched reports whether the text written so far matches, as if it ended
// here.
func (m *Matcher) Matched() bool { return !m.c.matches().Empty() }

// Dead reports whether no continuation of the text can match.
func (m *Matcher) Dead() bool { return m.c.dead() }

// Grows reports whether one more character, whichever it is, can follow
// the text with a match still possible: false when the matcher is dead or
// the text must end here to match (^ab$ after "ab"). A caller that knows
// a character is coming but not yet which (a JSON escape, at its
// backslash) can reject the text there. Inside a character it reports
// true.
func (m *Matcher) Grows() bool { return m.c.grows() }

// GrowsWithin reports whether one more character in [lo, hi], whichever
// it is, can follow the text with a match still possible: Grows for a
// character known to be in that range (a JSON \u escape's digits narrow
// it one by one), which must hold a character, not only surrogates. It
// costs one binary search over the ranges of the current state. Inside a
// character it reports true. For an automaton too large to keep the
// ranges (see Limits) it answers as Grows.
func (m *Matcher) GrowsWithin(lo, hi rune) bool { return m.c.growsWithin(lo, hi) }

// Done reports whether the verdict can no longer change: the matcher is
// dead, or the text already contains a match whatever follows (known at
// the end of the character that completes a match). A caller may stop
// writing once Done.
func (m *Matcher) Done() bool { return m.c.done() }

// A SetMatcher runs a Set over a text that arrives in pieces, as Matcher
// does for a Pattern: a constant number of table lookups per byte however
// many expressions the set has (for each of its Parts), no allocation, the
// same answers for any split. A set of several Parts allocates a cursor
// for each, and the Bits of Matches, the first time a matcher is Reset to
// it and asked; Reset keeps them. The zero SetMatcher is dead until Reset.
type SetMatcher struct {
	c    cursor   // the set's first automaton
	more []cursor // the automata of its other Parts, if any
	set  *Set
	bits bitset // Matches of a set of several Parts
}

// Reset starts the matcher over an empty text for s.
func (m *SetMatcher) Reset(s *Set) {
	m.set = s
	m.c.reset(s.parts[0].d)
	m.more = m.more[:0]
	for _, p := range s.parts[1:] {
		m.more = append(m.more, cursor{d: p.d, state: p.d.start})
	}
	if len(s.parts) > 1 && len(m.bits) != bitsetWords(len(s.exprs)) {
		m.bits = newBitset(len(s.exprs))
	}
}

// Write feeds the next bytes of the text. It returns the index in b of the
// first byte after which no expression of the set can match any
// continuation of the text, or -1 if there is none (some expression has
// matched already, or still can). Once the matcher is dead, every later
// non-empty Write returns 0.
func (m *SetMatcher) Write(b []byte) int { return writeSet(m, b) }

// WriteString is Write for a string.
func (m *SetMatcher) WriteString(s string) int { return writeSet(m, s) }

// writeSet writes b to every part: the set dies where its last live part
// does.
func writeSet[T []byte | string](m *SetMatcher, b T) int {
	i := write(&m.c, b)
	for k := range m.more {
		if j := write(&m.more[k], b); j < 0 || i < 0 {
			i = -1
		} else {
			i = max(i, j)
		}
	}
	return i
}

// Matches returns the expressions that match the text written so far, as
// if it ended here. The Bits share the Set's memory (the matcher's, for a
// set of several Parts, until its next Write or Reset); nothing is
// allocated.
func (m *SetMatcher) Matches() Bits {
	if len(m.more) == 0 {
		return m.c.matches()
	}
	clear(m.bits)
	m.set.parts[0].merge(m.bits, m.c.matches())
	for k := range m.more {
		m.set.parts[k+1].merge(m.bits, m.more[k].matches())
	}
	return Bits{w: m.bits, n: len(m.set.exprs)}
}

// Dead reports whether no expression can match any continuation of the
// text.
func (m *SetMatcher) Dead() bool {
	return m.c.dead() && !slices.ContainsFunc(m.more, func(c cursor) bool { return !c.dead() })
}

// Grows reports whether one more character, whichever it is, can follow
// the text with some expression of the set still able to match, as
// Matcher.Grows does for one pattern.
func (m *SetMatcher) Grows() bool {
	return m.c.grows() || slices.ContainsFunc(m.more, func(c cursor) bool { return c.grows() })
}

// GrowsWithin reports whether one more character in [lo, hi] can follow
// the text with some expression of the set still able to match, as
// Matcher.GrowsWithin does for one pattern.
func (m *SetMatcher) GrowsWithin(lo, hi rune) bool {
	return m.c.growsWithin(lo, hi) || slices.ContainsFunc(m.more, func(c cursor) bool { return c.growsWithin(lo, hi) })
}

// Done reports whether Matches can no longer change whatever follows: no
// expression that has not matched yet can still match (known at the end of
// each character).
func (m *SetMatcher) Done() bool {
	return m.c.done() && !slices.ContainsFunc(m.more, func(c cursor) bool { return !c.done() })
}

// cursor is where a matcher is in its automaton; a nil dfa is dead.
type cursor struct {
	d     *dfa
	state uint32
	node  int32 // position inside a multi-byte character, 0 between characters
}

func (c *cursor) reset(d *dfa) { *c = cursor{d: d, state: d.start} }

func write[T []byte | string](c *cursor, b T) int {
	if c.d == nil {
		if len(b) > 0 {
			return 0
		}
		return -1
	}
	var i int
	c.state, c.node, i = run(c.d, c.state, c.node, b)
	return i
}

func (c *cursor) matches() Bits {
	if c.d == nil {
		return Bits{}
	}
	return c.d.matches(c.state, c.node)
}

func (c *cursor) dead() bool { return c.d == nil || c.state == 0 }

func (c *cursor) grows() bool { return c.d != nil && (c.node != 0 || c.d.grows(c.state)) }

func (c *cursor) growsWithin(lo, hi rune) bool {
	return c.d != nil && (c.node != 0 || c.d.growsWithin(c.state, lo, hi))
}

func (c *cursor) done() bool { return c.d == nil || c.state < c.d.sinks }
