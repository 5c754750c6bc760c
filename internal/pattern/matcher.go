package pattern

// A Matcher runs a Pattern over a text that arrives in pieces: a small
// value to embed in the caller's state and reuse with Reset. Write costs a
// constant number of table lookups per byte and allocates nothing; any
// split of the text, including inside a UTF-8 sequence, gives the same
// answers. The zero Matcher is dead (it matches nothing) until Reset.
//
// The text must be valid UTF-8 once complete. A byte that no valid UTF-8
// continues makes the matcher dead, unless the pattern has already matched
// (then it stays matched: the text contains a match whatever follows).
type Matcher struct {
	d     *dfa
	state uint32
	node  int32 // position inside a multi-byte character, 0 between characters
}

// Reset starts the matcher over an empty text for p.
func (m *Matcher) Reset(p *Pattern) { m.d, m.state, m.node = p.d, p.d.start, 0 }

// Write feeds the next bytes of the text. It returns the index in b of the
// first byte after which no continuation of the text can match (so the
// text is rejected there), or -1 if there is none. Once the matcher is
// dead, every later non-empty Write returns 0.
func (m *Matcher) Write(b []byte) int {
	if m.d == nil {
		return deadWrite(len(b))
	}
	var i int
	m.state, m.node, i = m.d.run(m.state, m.node, b)
	return i
}

// WriteString is Write for a string.
func (m *Matcher) WriteString(s string) int {
	if m.d == nil {
		return deadWrite(len(s))
	}
	var i int
	m.state, m.node, i = m.d.runString(m.state, m.node, s)
	return i
}

// Matched reports whether the text written so far matches, as if it ended
// here.
func (m *Matcher) Matched() bool { return m.d != nil && !m.d.matches(m.state, m.node).Empty() }

// Dead reports whether no continuation of the text can match.
func (m *Matcher) Dead() bool { return m.d == nil || m.state == 0 }

// Done reports whether the verdict can no longer change: the matcher is
// dead, or the text already contains a match whatever follows (for an
// unanchored pattern, from the end of the character that completes a
// match). A caller may stop writing once Done.
func (m *Matcher) Done() bool { return m.d == nil || m.state < m.d.sinks }

// A SetMatcher runs a Set over a text that arrives in pieces, as Matcher
// does for a Pattern: a constant number of table lookups per byte however
// many expressions the set has, no allocation, the same answers for any
// split. The zero SetMatcher is dead until Reset.
type SetMatcher struct {
	d     *dfa
	state uint32
	node  int32
}

// Reset starts the matcher over an empty text for s.
func (m *SetMatcher) Reset(s *Set) { m.d, m.state, m.node = s.d, s.d.start, 0 }

// Write feeds the next bytes of the text. It returns the index in b of the
// first byte after which no expression of the set can match any
// continuation of the text, or -1 if there is none (some expression has
// matched already, or still can). Once the matcher is dead, every later
// non-empty Write returns 0.
func (m *SetMatcher) Write(b []byte) int {
	if m.d == nil {
		return deadWrite(len(b))
	}
	var i int
	m.state, m.node, i = m.d.run(m.state, m.node, b)
	return i
}

// WriteString is Write for a string.
func (m *SetMatcher) WriteString(s string) int {
	if m.d == nil {
		return deadWrite(len(s))
	}
	var i int
	m.state, m.node, i = m.d.runString(m.state, m.node, s)
	return i
}

// Matches returns the expressions that match the text written so far, as
// if it ended here. The Bits share the Set's memory; nothing is allocated.
func (m *SetMatcher) Matches() Bits {
	if m.d == nil {
		return Bits{}
	}
	return m.d.matches(m.state, m.node)
}

// Dead reports whether no expression can match any continuation of the
// text.
func (m *SetMatcher) Dead() bool { return m.d == nil || m.state == 0 }

// Done reports whether Matches can no longer change whatever follows: no
// expression that has not matched yet can still match (known at the end of
// each character).
func (m *SetMatcher) Done() bool { return m.d == nil || m.state < m.d.sinks }

func deadWrite(n int) int {
	if n > 0 {
		return 0
	}
	return -1
}
