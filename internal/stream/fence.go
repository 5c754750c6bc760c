package stream

import "bytes"

// fence lets an output's document sit inside one Markdown code fence —
// "```" or "```json" (any case, spaces or a CR allowed around the info
// string) on a line of its own before the document, "```" after it,
// nothing but white space outside — when the bind asks to strip one. It
// reads the output's text byte by byte and says what each byte is (see
// fenceAction); the fence's bytes never reach the validator, and offsets
// still count from the first byte of the text.
//
// Without a fence (the first byte that is not white space is not a
// backtick) every byte is the document's, as when stripping is off, so a
// preamble is still the validator's "json" finding at its first byte.
type fence struct {
	state   fenceState
	ticks   int    // backticks read of the fence being read
	info    []byte // the opening fence's info string, up to maxInfo bytes
	skipped int64  // bytes of the opening fence, skipped before the document
	// The document's lexical state, to tell a closing backtick from one in
	// a string.
	inString, escaped bool
}

type fenceState uint8

const (
	fenceLead    fenceState = iota // only white space so far
	fenceOpening                   // in the opening fence's line
	fenceBody                      // in the fenced document
	fenceClosing                   // in or after the closing fence
	fencePlain                     // no fence: the whole text is the document
)

// fenceAction is what one byte of the text is.
type fenceAction uint8

const (
	passByte fenceAction = iota // the document's
	skipByte                    // the fence's
	closeDoc                    // the closing fence's first backtick: the document ends before it
	badByte                     // no document in one fence can go on from here
)

// maxInfo bounds the info string of an opening fence, each run of white
// space in it counted as one byte.
const maxInfo = 16

// step classifies the next byte of the text.
func (f *fence) step(b byte) fenceAction {
	switch f.state {
	case fenceLead:
		switch {
		case isSpace(b):
			return passByte
		case b == '`':
			f.state, f.ticks = fenceOpening, 1
			return f.skip()
		}
		f.state = fencePlain
		return passByte
	case fenceOpening:
		switch {
		case f.ticks < 3 && b == '`':
			f.ticks++
			return f.skip()
		case f.ticks < 3:
			return badByte
		case b == '\n':
			if info := bytes.TrimRight(bytes.TrimSpace(f.info), "\r"); len(info) > 0 && !bytes.EqualFold(info, []byte("json")) {
				return badByte
			}
			f.state = fenceBody
			return f.skip()
		case isSpace(b) && len(f.info) > 0 && isSpace(f.info[len(f.info)-1]):
			// A run of white space is kept as its first byte: it is
			// trimmed or splits the info string all the same, and white
			// space around "json", however long, is no reason to refuse.
			return f.skip()
		case b == '`' || len(f.info) == maxInfo:
			return badByte
		}
		f.info = append(f.info, b)
		return f.skip()
	case fenceBody:
		return f.body(b)
	case fenceClosing:
		switch {
		case f.ticks < 3 && b == '`':
			f.ticks++
			return skipByte
		case f.ticks == 3 && isSpace(b):
			return skipByte
		}
		return badByte
	}
	return passByte
}

// body follows the fenced document's strings, so that only a backtick
// outside them ends it.
func (f *fence) body(b byte) fenceAction {
	switch {
	case f.escaped:
		f.escaped = false
	case f.inString && b == '\\':
		f.escaped = true
	case b == '"':
		f.inString = !f.inString
	case b == '`' && !f.inString:
		f.state, f.ticks = fenceClosing, 1
		return closeDoc
	}
	return passByte
}

func (f *fence) skip() fenceAction {
	f.skipped++
	return skipByte
}

// endProblem says what is wrong with the fence when the text ends in
// state, or "" when nothing is: the document (if any) has the verdict.
func (f *fence) endProblem() string {
	switch {
	case f.state == fenceOpening:
		return "The answer ends inside its opening code fence, before any JSON document."
	case f.state == fenceBody:
		return "The answer's code fence is not closed after the JSON document."
	case f.state == fenceClosing && f.ticks < 3:
		return "The answer's closing code fence is incomplete."
	}
	return ""
}

// badMessage explains a badByte in state.
func (f *fence) badMessage() string {
	switch f.state {
	case fenceOpening:
		return "The answer's code fence is not an opening ``` or ```json line, so no JSON document can follow it."
	case fenceClosing:
		return "The answer goes on after its closing code fence; only white space may follow the JSON document."
	}
	return "The answer is not one JSON document in one code fence."
}

// isSpace reports JSON white space.
func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
