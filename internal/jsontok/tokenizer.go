// Package jsontok is a push tokenizer for JSON: it is fed bytes in pieces of
// any size and reports tokens, with byte offsets, to a Handler as soon as they
// are known. It checks the whole grammar of RFC 8259 plus what a validating
// gateway needs: valid UTF-8, no lone surrogate escapes, no trailing data and a
// nesting limit. It never recurses, so input depth never grows the stack.
//
// # Contract
//
// Feed consumes every byte it is given: a token cut by the end of a piece is
// kept as a small amount of state (an escape, a UTF-8 sequence, a literal) and
// completed by the next Feed. "Need more input" is therefore not an error:
// only End decides that the document is incomplete. Feeding a document in one
// piece or in any split produces the same Handler calls, except that string and
// number text may arrive in more, smaller Text calls.
//
// The byte slices passed to Handler.Text are owned by the tokenizer (or the
// caller of Feed) and are valid only during the call.
//
// After the first error the tokenizer is dead: every later Feed or End returns
// the same error. Reset makes it reusable without allocating.
//
// # Fast paths
//
// Plain string bytes are scanned eight at a time (a word holds no quote,
// backslash, control byte or non-ASCII byte), and complete escapes and
// UTF-8 sequences are decoded in place rather than through the state
// machine, which only takes over for a token cut by the end of a piece.
// The escapes that text is mostly made of (\uXXXX, and two-byte ones in
// text no handler reads) are handled inside the word loop, so a run after
// one goes on being scanned by words. A handler that needs nothing of a
// string's or number's text calls SkipText from Begin: the value is still
// checked byte for byte, but no Text or Escape event is made for it. A
// handler that has its verdict calls Halt: Feed then stops at once and
// consumes nothing more.
package jsontok

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// Kind is the kind of a JSON value.
type Kind uint8

// The kinds of JSON values. Literals are told apart at their first byte.
const (
	Object Kind = iota + 1
	Array
	String
	Number
	True
	False
	Null
)

var kindNames = [...]string{"", "object", "array", "string", "number", "true", "false", "null"}

// String returns the JSON name of the kind.
func (k Kind) String() string { return kindNames[k] }

// Handler receives tokens. Offsets count bytes from the start of the document.
type Handler interface {
	// Begin is called at the first byte of every value, at offset off.
	Begin(kind Kind, off int64)
	// BeginKey is called at the opening quote of an object member's name.
	BeginKey(off int64)
	// Text delivers the next piece of the current name or string (decoded:
	// escapes resolved, always valid UTF-8 once complete) or the raw text of
	// the current number. When raw is true, p[i] came from input offset
	// off+i; when false, p was decoded from an escape sequence whose last byte
	// is at off.
	Text(p []byte, off int64, raw bool)
	// Escape is called at the backslash that begins an escape sequence in
	// the current name or string, unless its text is skipped (SkipText):
	// whatever the sequence turns out to be, the name or string gains one
	// more character there (a surrogate pair is one character, and one
	// call), which Text delivers at the sequence's last byte. A handler
	// that no further character can satisfy knows it at off.
	Escape(off int64)
	// EscapeRange is called, after Escape, at each hex digit of a \u
	// escape that does not complete its character (the first three, and
	// for a surrogate pair also the high half's last and the low half's
	// first three): the character is one of chars, exactly the characters
	// the digits so far can still spell.
	EscapeRange(chars CharRange, off int64)
	// EndKey is called at the closing quote of a member name.
	EndKey(off int64)
	// Separator is called at the ',' after a member or an element: one
	// more is promised.
	Separator(off int64)
	// End is called when the current value is complete: at the closing quote,
	// bracket or last literal byte, or, for a number, at the first byte after
	// it (or the end of the document), which is then off.
	End(kind Kind, off int64)
}

// CharRange is the set of characters an unfinished \u escape can still
// spell: the interval [Lo, Hi], and [Lo2, Hi2] too when Hi2 is not 0. The
// second is only ever needed after \uD, which begins both U+D000–U+D7FF
// and every surrogate pair (U+10000–U+10FFFF); it lies above the first,
// so it never ends at U+0000 and a CharRange of one interval leaves it
// zero.
type CharRange struct{ Lo, Hi, Lo2, Hi2 rune }

// Some reports whether f holds for one of c's intervals, the first tried
// first: the one place that knows a CharRange may have a second.
func (c CharRange) Some(f func(lo, hi rune) bool) bool {
	return f(c.Lo, c.Hi) || c.Hi2 != 0 && f(c.Lo2, c.Hi2)
}

// SyntaxError reports input that is not acceptable JSON.
type SyntaxError struct {
	// Offset is the byte offset of the offending byte, or the document
	// length when the input ended too soon.
	Offset int64
	// TooDeep is set when the problem is nesting past the depth limit.
	TooDeep bool
	// AfterSeparator is set when the problem came after a ',', before the
	// next member name of an object or element of an array began.
	AfterSeparator bool
	// The description is head, then the offending byte quoted when hasByte,
	// then tail: kept in parts, so that making the error costs no
	// formatting and reporting it costs one append.
	head, tail string
	b          byte
	hasByte    bool
}

// Msg describes the problem in lower case, without the offset.
func (e *SyntaxError) Msg() string { return string(e.AppendMsg(nil)) }

// AppendMsg appends Msg to dst.
func (e *SyntaxError) AppendMsg(dst []byte) []byte {
	dst = append(dst, e.head...)
	if e.hasByte {
		dst = appendQuotedByte(dst, e.b)
	}
	return append(dst, e.tail...)
}

// Error implements error.
func (e *SyntaxError) Error() string {
	var buf [128]byte
	return string(strconv.AppendInt(append(e.AppendMsg(buf[:0]), " at byte "...), e.Offset, 10))
}

// DefaultMaxDepth is the nesting limit used when none is given.
const DefaultMaxDepth = 128

type state uint8

const (
	stValue        state = iota // a value must follow
	stValueOrEnd                // after '[': a value or ']'
	stKeyOrEnd                  // after '{': a name or '}'
	stKey                       // after ',' in an object: a name
	stColon                     // after a name: ':'
	stAfterValue                // after a value in a container: ',' or the closer
	stDone                      // after the top-level value: only white space
	stString                    // inside a string or name
	stEscape                    // after a backslash
	stUnicode                   // inside \uXXXX
	stLowBackslash              // after a high surrogate escape: '\' must follow
	stLowU                      // then 'u'
	stLowHex                    // then four hex digits
	stNumStart                  // at the first byte of a number
	stNumMinus                  // after '-'
	stNumZero                   // after a leading '0'
	stNumInt                    // in integer digits
	stNumDot                    // after '.'
	stNumFrac                   // in fraction digits
	stNumE                      // after 'e'
	stNumESign                  // after the exponent sign
	stNumExp                    // in exponent digits
	stLiteral                   // inside true, false or null
	stError
)

// Tokenizer is a push JSON tokenizer. The zero value is not ready: use New or
// Reset.
type Tokenizer struct {
	h        Handler
	maxDepth int
	state    state
	inKey    bool         // the current string is a member name
	skip     bool         // the current string or number makes no Text events
	halted   bool         // Halt was called
	stack    []bool       // open containers: true for objects
	off      int64        // offset of the first byte of the current piece
	err      *SyntaxError // nil, or &failure once the document broke (state stError)
	failure  SyntaxError

	hexN    uint8 // hex digits read in the current \u escape
	hexVal  rune  // their value
	high    rune  // pending high surrogate
	utfNeed uint8 // continuation bytes still expected
	utfLo   byte  // bounds of the next continuation byte
	utfHi   byte
	lit     string // remaining bytes of the current literal
	litKind Kind
	scratch [utf8.UTFMax]byte
}

// New returns a tokenizer that reports to h and rejects nesting deeper than
// maxDepth (DefaultMaxDepth when maxDepth <= 0).
func New(h Handler, maxDepth int) *Tokenizer {
	t := &Tokenizer{}
	t.Reset(h, maxDepth)
	return t
}

// Reset prepares t for a new document, keeping its buffers.
func (t *Tokenizer) Reset(h Handler, maxDepth int) {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	// Zeroed in place, then filled: a literal would be built aside and
	// copied (47 instructions against 29, callgrind).
	stack := t.stack[:0]
	*t = Tokenizer{}
	t.h, t.maxDepth, t.stack = h, maxDepth, stack
}

// Offset returns the number of bytes consumed so far.
func (t *Tokenizer) Offset() int64 { return t.off }

// SkipText, called from Handler.Begin for a string or a number, makes the
// value's text arrive as no Text (nor Escape) event: the handler needs
// nothing of it. The value is checked as always.
func (t *Tokenizer) SkipText() { t.skip = true }

// Halt stops the tokenizer: the current Feed returns once the handler
// call in progress returns, and every later Feed and End returns nil
// without reading anything. It is for a handler that has its verdict.
func (t *Tokenizer) Halt() { t.halted = true }

// Err returns the error that stopped the tokenizer, or nil. Like the errors
// Feed and End return, it is a *SyntaxError that lives inside t: it holds
// until the next Reset, so a caller that keeps it past that copies it.
func (t *Tokenizer) Err() error {
	if t.err == nil {
		return nil
	}
	return t.err
}

// fail stops the tokenizer with a syntax error described by msg.
func (t *Tokenizer) fail(off int64, msg string) error {
	return t.failOn(SyntaxError{Offset: off, head: msg})
}

// failByte stops the tokenizer with a syntax error at the byte c, described
// as head, c quoted, tail.
func (t *Tokenizer) failByte(off int64, head string, c byte, tail string) error {
	return t.failOn(SyntaxError{Offset: off, head: head, b: c, hasByte: true, tail: tail})
}

// failOn stops the tokenizer with e, kept in t.failure: a broken document
// costs no allocation. t.err could be derived from t.state, but checking the
// state instead changed the string scanner's code for the worse (+0.9%
// instructions on benchloop -doc medium), so the pointer stays.
func (t *Tokenizer) failOn(e SyntaxError) error {
	e.AfterSeparator = t.state == stKey || t.state == stValue && len(t.stack) > 0 && !t.stack[len(t.stack)-1]
	t.failure = e
	t.state, t.err = stError, &t.failure
	return t.err
}

// End reports that the document is complete. It finishes a pending top-level
// number and fails when the document is empty or incomplete.
func (t *Tokenizer) End() error {
	if t.err != nil || t.halted {
		return t.Err()
	}
	switch t.state {
	case stNumZero, stNumInt, stNumFrac, stNumExp:
		if len(t.stack) == 0 {
			t.h.End(Number, t.off)
			t.state = stDone
		}
	}
	if t.state != stDone {
		return t.fail(t.off, "unexpected end of JSON input")
	}
	return nil
}

// Feed consumes the next piece of the document.
func (t *Tokenizer) Feed(p []byte) error {
	if t.err != nil || t.halted {
		return t.Err()
	}
	i := 0
	for i < len(p) && !t.halted {
		var err error
		switch {
		case t.state == stString: // most bytes of most documents: no detour through step
			i, err = t.stringRun(p, i)
		case t.state <= stDone: // between tokens: the structural bytes, one call each
			i, err = t.structural(p, i)
		default:
			i, err = t.step(p, i)
		}
		if err != nil {
			return err
		}
	}
	t.off += int64(len(p))
	return nil
}

// step consumes at least one byte of p starting at i, inside a number,
// an escape or a literal (Feed runs string text and structural bytes
// itself), and returns the index of the next unconsumed byte.
func (t *Tokenizer) step(p []byte, i int) (int, error) {
	switch t.state {
	case stNumStart, stNumMinus, stNumZero, stNumInt, stNumDot, stNumFrac, stNumE, stNumESign, stNumExp:
		return t.number(p, i)
	}
	c := p[i]
	off := t.off + int64(i)
	switch t.state {
	case stEscape:
		return i + 1, t.escape(c, off)
	case stUnicode, stLowHex:
		return i + 1, t.hex(c, off)
	case stLowBackslash:
		if c != '\\' {
			return i, t.fail(off, "lone surrogate in string escape")
		}
		t.state = stLowU
		return i + 1, nil
	case stLowU:
		if c != 'u' {
			return i, t.fail(off, "lone surrogate in string escape")
		}
		t.state, t.hexN, t.hexVal = stLowHex, 0, 0
		return i + 1, nil
	case stLiteral:
		if c != t.lit[0] {
			return i, t.failByte(off, "invalid character ", c, literalTail[t.litKind])
		}
		t.lit = t.lit[1:]
		if t.lit == "" {
			t.h.End(t.litKind, off)
			t.afterValue()
		}
		return i + 1, nil
	}
	return i, t.err
}

// structural consumes the bytes of p from i between two tokens (the
// states up to stDone): a run of space and the structural byte after it,
// or the first byte of a number, which it leaves to number so that Text
// carries the whole number text. It returns the index of the next
// unconsumed byte.
func (t *Tokenizer) structural(p []byte, i int) (int, error) {
	c := p[i]
	if isSpace(c) {
		if i = skipSpace(p, i); i == len(p) {
			return i, nil
		}
		c = p[i]
	}
	off := t.off + int64(i)
	switch t.state {
	case stDone:
		return i, t.failByte(off, "invalid character ", c, " after top-level value")
	case stColon:
		if c != ':' {
			return i, t.failByte(off, "invalid character ", c, " after object key")
		}
		t.state = stValue
		return i + 1, nil
	case stAfterValue:
		return i + 1, t.afterValueByte(c, off)
	case stKeyOrEnd, stKey:
		if c == '"' {
			t.skip = false
			t.h.BeginKey(off)
			t.state, t.inKey = stString, true
			return i + 1, nil
		}
		if c == '}' && t.state == stKeyOrEnd {
			return i + 1, t.closeContainer(true, off)
		}
		return i, t.failByte(off, "invalid character ", c, " looking for beginning of object key string")
	}
	switch {
	case c == ']' && t.state == stValueOrEnd:
		return i + 1, t.closeContainer(false, off)
	case c == '-' || c >= '0' && c <= '9':
		t.skip = false
		t.h.Begin(Number, off)
		t.state = stNumStart
		return i, nil
	}
	return i + 1, t.beginValue(c, off)
}

func (t *Tokenizer) afterValueByte(c byte, off int64) error {
	isObject := t.stack[len(t.stack)-1]
	switch {
	case c == ',':
		t.state = stValue
		if isObject {
			t.state = stKey
		}
		t.h.Separator(off)
	case c == '}' && isObject, c == ']' && !isObject:
		return t.closeContainer(isObject, off)
	case isObject:
		return t.failByte(off, "invalid character ", c, " after object key:value pair")
	default:
		return t.failByte(off, "invalid character ", c, " after array element")
	}
	return nil
}

func (t *Tokenizer) beginValue(c byte, off int64) error {
	switch c {
	case '{', '[':
		if len(t.stack) >= t.maxDepth {
			return t.failOn(SyntaxError{Offset: off, TooDeep: true, head: "nesting deeper than the limit of ", tail: strconv.Itoa(t.maxDepth)})
		}
		isObject := c == '{'
		t.stack = append(t.stack, isObject)
		if isObject {
			t.h.Begin(Object, off)
			t.state = stKeyOrEnd
		} else {
			t.h.Begin(Array, off)
			t.state = stValueOrEnd
		}
	case '"':
		t.skip = false
		t.h.Begin(String, off)
		t.state, t.inKey = stString, false
	case 't':
		t.beginLiteral(True, "rue", off)
	case 'f':
		t.beginLiteral(False, "alse", off)
	case 'n':
		t.beginLiteral(Null, "ull", off)
	default:
		if off == 0 && c == 0xEF {
			return t.failByte(off, "invalid character ", c, " looking for beginning of value (a UTF-8 byte order mark begins with it; JSON text must not)")
		}
		return t.failByte(off, "invalid character ", c, " looking for beginning of value")
	}
	return nil
}

func (t *Tokenizer) beginLiteral(kind Kind, rest string, off int64) {
	t.h.Begin(kind, off)
	t.state, t.lit, t.litKind = stLiteral, rest, kind
}

func (t *Tokenizer) closeContainer(isObject bool, off int64) error {
	t.stack = t.stack[:len(t.stack)-1]
	if isObject {
		t.h.End(Object, off)
	} else {
		t.h.End(Array, off)
	}
	t.afterValue()
	return nil
}

// afterValue sets the state that follows a complete value.
func (t *Tokenizer) afterValue() {
	if len(t.stack) == 0 {
		t.state = stDone
	} else {
		t.state = stAfterValue
	}
}

// stringRun consumes string bytes from p[i:], delivering plain runs in one
// Text call each, until the string ends, an escape is cut by the end of p
// or p runs out. Complete escapes and UTF-8 sequences are handled here
// (see the package's fast paths); what is cut, or wrong, goes to the
// state machine, which makes the same calls and the same errors.
func (t *Tokenizer) stringRun(p []byte, i int) (int, error) {
	start := i
	// Read once: while it is set no event is made, so nothing can clear it;
	// a handler that set it during the run would only miss a fast path.
	skip := t.skip
	for i < len(p) {
		if t.utfNeed > 0 {
			c := p[i]
			if c < t.utfLo || c > t.utfHi {
				t.flushText(p, start, i)
				return i, t.fail(t.off+int64(i), "invalid UTF-8 in string")
			}
			t.utfNeed--
			t.utfLo, t.utfHi = 0x80, 0xBF
			i++
			continue
		}
		for i+8 <= len(p) {
			m := special8(binary.LittleEndian.Uint64(p[i:]))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) / 8 // the first special byte
			// The common escapes, as below, without leaving this loop.
			// Written out twice: a method shared by both places does not
			// inline, and cost 9% more instructions on benchloop -doc
			// escapes.
			if p[i] == '\\' && i+1 < len(p) {
				switch e := p[i+1]; {
				case skip && unescaped[e] != 0:
					i += 2
					continue
				case e == 'u':
					if n := t.unicodeInPlace(p, i, start); n > 0 {
						i += n
						start = i
						continue
					}
				}
			}
			break
		}
		if i == len(p) {
			break
		}
		c := p[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			if c == '\\' && i+1 < len(p) {
				var n int
				switch e := p[i+1]; {
				case skip && unescaped[e] != 0:
					i += 2 // nobody reads the text: the escape needs no decoding
					continue
				case e == 'u':
					n = t.unicodeInPlace(p, i, start)
				default:
					n = t.escapeInPlace(p, i, start)
				}
				if n > 0 {
					i += n
					start = i
					continue
				}
			}
			t.flushText(p, start, i)
			return t.stringSpecial(p, i)
		}
		if r, n := utf8.DecodeRune(p[i:]); r != utf8.RuneError || n > 1 {
			i += n // a whole, valid sequence
			continue
		}
		if !t.utfStart(c) {
			t.flushText(p, start, i)
			return i, t.fail(t.off+int64(i), "invalid UTF-8 in string")
		}
		i++
	}
	t.flushText(p, start, i)
	return i, nil
}

// special8 returns the high bits of the bytes of w (little-endian) that
// need more than copying inside a string: a quote, a backslash, a control
// byte or a non-ASCII byte. The lowest bit set is always the first such
// byte (the borrow tricks can only mark bytes above a true one), so
// 0 means eight plain bytes.
func special8(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote := w ^ (ones * '"')
	backslash := w ^ (ones * '\\')
	return (w | (w - ones*0x20) | (quote-ones)&^quote | (backslash-ones)&^backslash) & highs
}

// escapeInPlace handles the two-byte escape at p[i] (p holds its second
// byte): it delivers the run before it (from start) and the decoded byte,
// and returns 2. It returns 0 for a wrong escape, which the state machine
// then handles (with its error); unicodeInPlace handles \u, and an escape
// cut by the end of p goes to the state machine too.
func (t *Tokenizer) escapeInPlace(p []byte, i, start int) int {
	b := unescaped[p[i+1]]
	if b == 0 {
		return 0
	}
	t.flushText(p, start, i)
	if !t.skip {
		t.h.Escape(t.off + int64(i))
		t.scratch[0] = b
		t.h.Text(t.scratch[:1], t.off+int64(i+1), false)
	}
	return 2
}

// unicodeInPlace handles a complete, valid \uXXXX escape (or surrogate
// pair of them) at p[i], like escapeInPlace.
func (t *Tokenizer) unicodeInPlace(p []byte, i, start int) int {
	if i+6 > len(p) {
		return 0
	}
	unit, ok := hex4(p[i+2:])
	r, n, low := unit, 6, rune(0)
	switch {
	case !ok:
		return 0
	case unit >= 0xDC00 && unit <= 0xDFFF:
		return 0 // a lone low surrogate: an error
	case unit >= 0xD800 && unit <= 0xDBFF:
		if i+12 > len(p) || p[i+6] != '\\' || p[i+7] != 'u' {
			return 0
		}
		if low, ok = hex4(p[i+8:]); !ok || low < 0xDC00 || low > 0xDFFF {
			return 0
		}
		r, n = 0x10000+(unit-0xD800)<<10+(low-0xDC00), 12
	}
	t.flushText(p, start, i)
	if !t.skip {
		t.deliverUnicode(t.off+int64(i), unit, low, r, n)
	}
	return n
}

// deliverUnicode makes the events of a whole \uXXXX escape (n bytes, a
// pair's when low is set) at offset at, which spells r: Escape, the
// narrowing of its digits, and the character. Kept out of unicodeInPlace,
// whose code text that nobody reads runs through.
func (t *Tokenizer) deliverUnicode(at int64, unit, low, r rune, n int) {
	t.h.Escape(at)
	if n == 12 {
		t.narrow(unit, 4, 0, at+2)
		t.narrow(low, 3, unit, at+8)
	} else {
		t.narrow(unit, 3, 0, at+2)
	}
	w := utf8.EncodeRune(t.scratch[:], r)
	t.h.Text(t.scratch[:w], at+int64(n-1), false)
}

// narrow calls EscapeRange for the first digits (1 to upTo) of unit, the
// complete value of a \u escape's four hex digits whose first is at off
// (high is the high surrogate before it, for a pair's low half).
func (t *Tokenizer) narrow(unit rune, upTo int, high rune, off int64) {
	for n := 1; n <= upTo; n++ {
		if chars, ok := hexRange(unit>>(4*(4-n)), n, high); ok {
			t.h.EscapeRange(chars, off+int64(n-1))
		}
	}
}

// hexRange returns the characters that a \u escape can still spell once n
// of its hex digits, of value v, are read; high is the high surrogate
// before it when it is a pair's low half, else 0. ok is false when it can
// spell none (a lone low surrogate, or a low half out of range: errors the
// tokenizer makes at the digit that decides them, see surrogateFails).
// Four digits of a high surrogate
// spell the 1,024 characters of its pair.
func hexRange(v rune, n int, high rune) (chars CharRange, ok bool) {
	shift := 4 * (4 - n)
	a, b := v<<shift, v<<shift|(1<<shift-1)
	if high != 0 {
		a, b = max(a, 0xDC00), min(b, 0xDFFF)
		base := 0x10000 + (high-0xD800)<<10 - 0xDC00
		return CharRange{Lo: base + a, Hi: base + b}, a <= b
	}
	if b < 0xD800 || a > 0xDFFF {
		return CharRange{Lo: a, Hi: b}, true
	}
	// One digit or more align [a, b] inside U+D000–U+DFFF: what lies below
	// the surrogates, then the pairs of the high ones. Low ones spell none.
	var pairs CharRange
	if a <= 0xDBFF {
		pairs = CharRange{Lo: 0x10000 + (max(a, 0xD800)-0xD800)<<10, Hi: 0x10000 + (min(b, 0xDBFF)-0xD800)<<10 + 0x3FF}
	}
	switch {
	case a < 0xD800:
		return CharRange{Lo: a, Hi: 0xD7FF, Lo2: pairs.Lo, Hi2: pairs.Hi}, true
	case a <= 0xDBFF:
		return pairs, true
	}
	return CharRange{}, false
}

// hex4 reads the four hex digits that q starts with (len(q) >= 4); ok is
// false when one is not a hex digit. Four table lookups and one test, small
// enough to inline: a \uXXXX escape is most of the bytes of text written
// with every non-ASCII character escaped.
func hex4(q []byte) (r rune, ok bool) {
	a, b, c, d := hexDigit[q[0]], hexDigit[q[1]], hexDigit[q[2]], hexDigit[q[3]]
	return rune(a)<<12 | rune(b)<<8 | rune(c)<<4 | rune(d), a|b|c|d >= 0
}

func (t *Tokenizer) flushText(p []byte, start, end int) {
	if end > start && !t.skip {
		t.h.Text(p[start:end], t.off+int64(start), true)
	}
}

// stringSpecial handles a quote, backslash or control byte at p[i]. A
// closing quote takes the byte right after it too when that byte is the
// usual one — a member name's ':', a ',' or a closer after a string in a
// container — which saves it a trip through Feed and structural. Handing
// every such byte to structural instead, once or in a loop there, was
// measured and costs more: 1% on the http_request calls, 1.3% on small
// (callgrind), for the call and its general checks.
func (t *Tokenizer) stringSpecial(p []byte, i int) (int, error) {
	c, off := p[i], t.off+int64(i)
	switch c {
	case '"':
		if t.inKey {
			t.h.EndKey(off)
			t.state = stColon
			if i+1 < len(p) && p[i+1] == ':' && !t.halted { // the usual `name":`, in the same step
				t.state = stValue
				return i + 2, nil
			}
		} else {
			t.h.End(String, off)
			t.afterValue()
			if i+1 < len(p) && t.state == stAfterValue && !t.halted {
				if next := p[i+1]; next == ',' || next == '}' || next == ']' {
					return i + 2, t.afterValueByte(next, off+1) // the usual `",` or `"}`, in the same step
				}
			}
		}
	case '\\':
		t.state = stEscape
		if !t.skip {
			t.h.Escape(off)
		}
	default:
		return i, t.failByte(off, "invalid control character ", c, " in string")
	}
	return i + 1, nil
}

// utfStart checks the first byte of a multi-byte UTF-8 sequence and sets the
// bounds for the continuation bytes (rejecting overlong forms, surrogates and
// code points above U+10FFFF).
func (t *Tokenizer) utfStart(c byte) bool {
	t.utfLo, t.utfHi = 0x80, 0xBF
	switch {
	case c >= 0xC2 && c <= 0xDF:
		t.utfNeed = 1
	case c == 0xE0:
		t.utfNeed, t.utfLo = 2, 0xA0
	case c == 0xED:
		t.utfNeed, t.utfHi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		t.utfNeed = 2
	case c == 0xF0:
		t.utfNeed, t.utfLo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		t.utfNeed = 3
	case c == 0xF4:
		t.utfNeed, t.utfHi = 3, 0x8F
	default:
		return false
	}
	return true
}

func (t *Tokenizer) escape(c byte, off int64) error {
	b := unescaped[c]
	switch {
	case c == 'u':
		t.state, t.hexN, t.hexVal = stUnicode, 0, 0
		return nil
	case b == 0:
		return t.failByte(off, "invalid escape ", c, " in string")
	}
	if !t.skip {
		t.scratch[0] = b
		t.h.Text(t.scratch[:1], off, false)
	}
	t.state = stString
	return nil
}

func (t *Tokenizer) hex(c byte, off int64) error {
	v := hexDigit[c]
	if v < 0 {
		return t.failByte(off, "invalid character ", c, " in \\u escape")
	}
	t.hexVal = t.hexVal<<4 | rune(v)
	if t.hexN++; t.hexN < 4 {
		if surrogateFails(t.hexVal, t.hexN, t.state == stLowHex) {
			return t.fail(off, "lone surrogate in string escape")
		}
		if !t.skip {
			var high rune
			if t.state == stLowHex {
				high = t.high
			}
			if chars, ok := hexRange(t.hexVal, int(t.hexN), high); ok {
				t.h.EscapeRange(chars, off)
			}
		}
		return nil
	}
	r := t.hexVal
	if t.state == stLowHex {
		if r < 0xDC00 || r > 0xDFFF {
			return t.fail(off, "lone surrogate in string escape")
		}
		r = 0x10000 + (t.high-0xD800)<<10 + (r - 0xDC00)
	} else {
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			t.high, t.state = r, stLowBackslash
			if !t.skip {
				if chars, ok := hexRange(r, 4, 0); ok {
					t.h.EscapeRange(chars, off)
				}
			}
			return nil
		case r >= 0xDC00 && r <= 0xDFFF:
			return t.fail(off, "lone surrogate in string escape")
		}
	}
	if !t.skip {
		n := utf8.EncodeRune(t.scratch[:], r)
		t.h.Text(t.scratch[:n], off, false)
	}
	t.state = stString
	return nil
}

// surrogateFails reports whether the first n < 4 hex digits of an escape,
// of value v, already spell a lone surrogate, so that the escape is
// refused at the digit that decides it: a low half (DC00–DFFF) where no
// high one came before (DC–DF as the first two digits), or, after a high
// half (low set), anything but a low one (a first digit other than D, a
// second one below C).
func surrogateFails(v rune, n uint8, low bool) bool {
	if low {
		lo := v << (4 * (4 - n))
		hi := lo | (1<<(4*(4-n)) - 1)
		return hi < 0xDC00 || lo > 0xDFFF
	}
	return n == 2 && v&^3 == 0xDC
}

// number consumes number bytes from p[i:], delivering them in one Text call,
// and ends the number at the first byte that cannot continue it.
func (t *Tokenizer) number(p []byte, i int) (int, error) {
	start := i
	for ; i < len(p); i++ {
		c := p[i]
		next, ok := numberNext(t.state, c)
		if !ok {
			break
		}
		t.state = next
	}
	if i > start && !t.skip {
		t.h.Text(p[start:i], t.off+int64(start), true)
	}
	if i == len(p) {
		return i, nil
	}
	off := t.off + int64(i)
	switch t.state {
	case stNumZero, stNumInt, stNumFrac, stNumExp:
		t.h.End(Number, off)
		t.afterValue()
		return i, nil // the delimiter is consumed by the next step
	}
	return i, t.failByte(off, "invalid character ", p[i], " in numeric literal")
}

// numberNext is the number grammar's transition function.
func numberNext(s state, c byte) (state, bool) {
	digit := c >= '0' && c <= '9'
	switch s {
	case stNumStart:
		switch {
		case c == '-':
			return stNumMinus, true
		case c == '0':
			return stNumZero, true
		case digit:
			return stNumInt, true
		}
	case stNumMinus:
		if c == '0' {
			return stNumZero, true
		}
		if digit {
			return stNumInt, true
		}
	case stNumZero, stNumInt:
		switch {
		case digit && s == stNumInt:
			return stNumInt, true
		case c == '.':
			return stNumDot, true
		case c == 'e' || c == 'E':
			return stNumE, true
		}
	case stNumDot, stNumFrac:
		if digit {
			return stNumFrac, true
		}
		if s == stNumFrac && (c == 'e' || c == 'E') {
			return stNumE, true
		}
	case stNumE:
		if c == '+' || c == '-' {
			return stNumESign, true
		}
		if digit {
			return stNumExp, true
		}
	case stNumESign, stNumExp:
		if digit {
			return stNumExp, true
		}
	}
	return s, false
}

// isSpace reports whether c is JSON whitespace. Every structural byte goes
// through it, and none is space: one comparison rejects all bytes above
// ' '.
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

func skipSpace(p []byte, i int) int {
	for i < len(p) && isSpace(p[i]) {
		i++
	}
	return i
}

// appendQuotedByte appends c as encoding/json's messages show a byte: a
// printable ASCII byte quoted as strconv.QuoteRune quotes it, any other in
// hex.
func appendQuotedByte(dst []byte, c byte) []byte {
	switch {
	case c == '\'' || c == '\\':
		return append(dst, '\'', '\\', c, '\'')
	case c >= 0x20 && c < 0x7F:
		return append(dst, '\'', c, '\'')
	}
	const hex = "0123456789ABCDEF"
	return append(dst, '0', 'x', hex[c>>4], hex[c&15])
}

// literalTail ends the message for a literal broken off by a wrong byte.
var literalTail = map[Kind]string{True: " in literal true", False: " in literal false", Null: " in literal null"}

// unescaped maps the byte after a backslash to the byte its two-byte
// escape stands for, and every other byte (u included) to 0.
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hexDigit maps each hex digit to its value and every other byte to -1.
var hexDigit = func() (t [256]int8) {
	for c := range t {
		switch {
		case c >= '0' && c <= '9':
			t[c] = int8(c - '0')
		case c >= 'a' && c <= 'f':
			t[c] = int8(c-'a') + 10
		case c >= 'A' && c <= 'F':
			t[c] = int8(c-'A') + 10
		default:
			t[c] = -1
		}
	}
	return t
}()

// plain marks the ASCII bytes that stand for themselves inside a string.
var plain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
