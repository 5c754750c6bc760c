package pattern

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Kind classifies why a pattern was refused.
type Kind uint8

const (
	// Malformed: the expression is not a regular expression of its syntax
	// (a schema error: toolgate answers VALIDATION).
	Malformed Kind = iota + 1
	// Unsupported: the expression is legal but cannot be run with the same
	// meaning in linear time, such as look-behind, look-ahead but right
	// after a leading ^ (of Compile's expression), and back-references
	// (toolgate answers UNSUPPORTED_CAPABILITY).
	Unsupported
	// Limit: the expression is legal and runnable, but its program or its
	// automaton would be larger than Limits allow.
	Limit
)

// String returns "malformed", "unsupported" or "limit".
func (k Kind) String() string {
	switch k {
	case Malformed:
		return "malformed"
	case Unsupported:
		return "unsupported"
	case Limit:
		return "limit"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Error is the error of Compile, CompileSet and Valid.
type Error struct {
	Kind Kind
	// Index is the position of the refused expression in the slice given
	// to CompileSet (0 for Compile and Valid), or -1 when the set as a whole
	// is past a limit.
	Index int
	// Offset is the byte offset in the expression of the construct the
	// message is about (for RE2 syntax, the first occurrence of the text
	// Go's parser names), or -1 when the message is about the whole
	// expression.
	Offset int
	// Msg is one sentence fit for a user: what construct, where, and what
	// to do instead.
	Msg string
	// Shared marks a Limit error of the Budget (Limits.Budget), not of
	// the expression's own limits: what compiles shared it spent, so the
	// expression may compile with a budget of its own.
	Shared bool
	// steps marks a Limit error past Limits.MaxCompileSteps, bytes one
	// past Limits.MaxDFABytes.
	steps, bytes bool
}

// Error returns Msg.
func (e *Error) Error() string { return e.Msg }

func malformedAt(offset int, format string, args ...any) *Error {
	return &Error{Kind: Malformed, Offset: offset, Msg: fmt.Sprintf(format, args...)}
}

func unsupportedAt(offset int, format string, args ...any) *Error {
	return &Error{Kind: Unsupported, Offset: offset, Msg: fmt.Sprintf(format, args...)}
}

func limitError(format string, args ...any) *Error {
	return &Error{Kind: Limit, Offset: -1, Msg: "The pattern cannot be enforced: " + fmt.Sprintf(format, args...) + "."}
}

// bytesError is a Limit error past Limits.MaxDFABytes.
func bytesError(format string, args ...any) *Error {
	e := limitError(format, args...)
	e.bytes = true
	return e
}

// stepsError is a Limit error past Limits.MaxCompileSteps.
func stepsError(format string, args ...any) *Error {
	e := limitError(format, args...)
	e.steps = true
	return e
}

// maxQuoted is how many bytes of an expression a message quotes.
const maxQuoted = 48

// quoteExpr quotes expr for a message, cut after maxQuoted bytes (at a
// character boundary) with "…" to mark the cut.
func quoteExpr(expr string) string {
	if len(expr) <= maxQuoted {
		return strconv.Quote(expr)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(expr[cut]) {
		cut--
	}
	q := strconv.Quote(expr[:cut])
	return q[:len(q)-1] + `…"`
}
