// Package jsondoc parses small JSON documents (schemas, enum choices) into an
// exact tree and prints their canonical form. Numbers keep their exact
// decimal value, member order is kept for reporting, and duplicate member
// names are rejected, so a schema means exactly one thing.
//
// The canonical form sorts object members by name (bytewise on their UTF-8),
// drops insignificant white space, prints strings with a minimal fixed set of
// escapes and numbers in decimal.AppendCanonical form. Two documents have the
// same canonical form exactly when they are the same JSON value, with one
// exception: a number whose exponent is beyond the exact range (see
// decimal.Decimal.InRange) keeps its spelling, so two spellings of such a
// number differ (and different such numbers still never share a form).
package jsondoc

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/decimal"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// Value is one JSON value.
type Value struct {
	// Kind is the value's kind; True and False are both booleans.
	Kind jsontok.Kind
	// Str is the decoded string of a String.
	Str string
	// Num is the exact value of a Number.
	Num decimal.Decimal
	// Raw is the number's text as written.
	Raw string
	// Members are an Object's members in document order.
	Members []Member
	// Items are an Array's elements.
	Items []*Value
	// Start and End are the offsets of the value's first and last byte in
	// the parsed text, so data[Start:End+1] is the value as written.
	Start, End int64
}

// Member is one name/value pair of an object.
type Member struct {
	Name  string
	Value *Value
}

// Get returns the value of the member called name, or nil.
func (v *Value) Get(name string) *Value {
	for _, m := range v.Members {
		if m.Name == name {
			return m.Value
		}
	}
	return nil
}

// IsBool reports whether v is true or false.
func (v *Value) IsBool() bool { return v.Kind == jsontok.True || v.Kind == jsontok.False }

// TypeName returns the JSON Schema type name of v's kind.
func (v *Value) TypeName() string {
	switch v.Kind {
	case jsontok.True, jsontok.False:
		return "boolean"
	case jsontok.Number:
		return "number"
	}
	return v.Kind.String()
}

// DuplicateError reports a member name that occurs twice in one object.
type DuplicateError struct {
	// Pointer is the RFC 6901 pointer of the object holding the duplicate.
	Pointer string
	// Name is the repeated member name.
	Name string
	// Offset is the byte offset of the second occurrence's closing quote.
	Offset int64
}

// Error implements error.
func (e *DuplicateError) Error() string {
	return fmt.Sprintf("duplicate member name %q in object at %q (byte %d)", e.Name, e.Pointer, e.Offset)
}

// Parse parses one JSON document. Nesting deeper than maxDepth (the
// tokenizer's default when <= 0) is an error. Errors are *jsontok.SyntaxError
// or *DuplicateError.
func Parse(data []byte, maxDepth int) (*Value, error) { return ParseUntil(data, maxDepth, nil) }

// ErrStopped is ParseUntil's and CanonicalUntil's error when they were
// told to give up.
var ErrStopped = errors.New("jsondoc: given up")

// parseChunk is how many bytes ParseUntil reads between two calls of its
// stopped: some 1–3 ms of work.
const parseChunk = 64 << 10

// ParseUntil is Parse, giving up once stopped (nil: never), which it calls
// before each parseChunk bytes, reports true: it then returns ErrStopped,
// so that a caller whose request ended does not read the rest of a large
// document.
func ParseUntil(data []byte, maxDepth int, stopped func() bool) (*Value, error) {
	v, dups, err := parse(data, maxDepth, stopped)
	if err == nil && len(dups) > 0 {
		return nil, dups[0]
	}
	return v, err
}

// Bounds on the repetitions ParseDuplicates returns: past them the rest
// are not recorded (their pointers, each up to the document's depth of
// names, could otherwise hold the document's size many times over).
const (
	maxDuplicates     = 100
	maxDuplicateBytes = 1 << 20 // pointers and names, all together
)

// ParseDuplicates parses one JSON document like Parse, but keeps going past
// duplicate member names: the tree holds every member as written, and the
// repetitions are returned (the first 100, within 1 MiB of pointers and
// names; a document has at least as many as are returned). It lets a
// caller judge a duplicate by where it is.
func ParseDuplicates(data []byte, maxDepth int) (*Value, []*DuplicateError, error) {
	return parse(data, maxDepth, nil)
}

// parse is ParseDuplicates, giving up as ParseUntil does.
func parse(data []byte, maxDepth int, stopped func() bool) (*Value, []*DuplicateError, error) {
	b := builder{}
	tok := jsontok.New(&b, maxDepth)
	for len(data) > 0 {
		n := len(data)
		if stopped != nil {
			if stopped() {
				return nil, nil, ErrStopped
			}
			n = min(n, parseChunk)
		}
		if err := tok.Feed(data[:n]); err != nil {
			return nil, nil, err
		}
		data = data[n:]
	}
	if err := tok.End(); err != nil {
		return nil, nil, err
	}
	return b.root, b.dups, nil
}

// builder assembles a tree from tokenizer events with an explicit stack.
type builder struct {
	root  *Value
	stack []*Value
	names []string          // pending member name per open object
	sets  []map[string]bool // member names per open object, once it is large
	text  strings.Builder
	dups  []*DuplicateError
	held  int // bytes of the recorded repetitions
}

// smallObject is how many members an object may have before its duplicate
// check moves from a scan to a set.
const smallObject = 16

// Begin implements jsontok.Handler.
func (b *builder) Begin(kind jsontok.Kind, off int64) {
	v := &Value{Kind: kind, Start: off}
	if n := len(b.stack); n == 0 {
		b.root = v
	} else if top := b.stack[n-1]; top.Kind == jsontok.Object {
		top.Members = append(top.Members, Member{Name: b.names[n-1], Value: v})
	} else {
		top.Items = append(top.Items, v)
	}
	b.stack = append(b.stack, v)
	b.names = append(b.names, "")
	b.sets = append(b.sets, nil)
	b.text.Reset()
}

// BeginKey implements jsontok.Handler.
func (b *builder) BeginKey(int64) { b.text.Reset() }

// Text implements jsontok.Handler.
func (b *builder) Text(p []byte, _ int64, _ bool) { b.text.Write(p) }

// Escape implements jsontok.Handler.
func (b *builder) Escape(int64) {}

// EscapeRange implements jsontok.Handler.
func (b *builder) EscapeRange(jsontok.CharRange, int64) {}

// Separator implements jsontok.Handler.
func (b *builder) Separator(int64) {}

// EndKey implements jsontok.Handler.
func (b *builder) EndKey(off int64) {
	n := len(b.stack)
	name := b.text.String()
	if b.seen(n-1, name) && len(b.dups) < maxDuplicates && b.held < maxDuplicateBytes {
		d := &DuplicateError{Pointer: b.pointer(n - 1), Name: name, Offset: off}
		b.held += len(d.Pointer) + len(d.Name)
		b.dups = append(b.dups, d)
	}
	b.names[n-1] = name
}

// seen records a member name of the object at stack depth i and reports
// whether the object already had it.
func (b *builder) seen(i int, name string) bool {
	members := b.stack[i].Members
	if len(members) < smallObject {
		return slices.ContainsFunc(members, func(m Member) bool { return m.Name == name })
	}
	set := b.sets[i]
	if set == nil {
		set = make(map[string]bool, 2*len(members))
		for _, m := range members {
			set[m.Name] = true
		}
		b.sets[i] = set
	}
	if set[name] {
		return true
	}
	set[name] = true
	return false
}

// End implements jsontok.Handler.
func (b *builder) End(kind jsontok.Kind, off int64) {
	n := len(b.stack)
	v := b.stack[n-1]
	v.End = off
	switch kind {
	case jsontok.String:
		v.Str = b.text.String()
	case jsontok.Number:
		v.End = off - 1 // a number ends at the byte after it
		v.Raw = b.text.String()
		v.Num, _ = decimal.Parse([]byte(v.Raw))
	}
	b.stack, b.names, b.sets = b.stack[:n-1], b.names[:n-1], b.sets[:n-1]
}

// pointer returns the pointer of the container at stack depth depth.
func (b *builder) pointer(depth int) string {
	var sb strings.Builder
	for i := range depth {
		sb.WriteByte('/')
		parent := b.stack[i]
		if parent.Kind == jsontok.Object {
			sb.WriteString(EscapePointerToken(b.names[i]))
		} else {
			fmt.Fprint(&sb, len(parent.Items)-1)
		}
	}
	return sb.String()
}

// EscapePointerToken escapes one RFC 6901 reference token.
func EscapePointerToken(s string) string {
	if strings.IndexByte(s, '~') < 0 && strings.IndexByte(s, '/') < 0 { // cheaper than ContainsAny on short names
		return s
	}
	return string(AppendPointerToken(make([]byte, 0, len(s)+8), []byte(s)))
}

// AppendPointerToken appends the RFC 6901 reference token of name to dst.
func AppendPointerToken(dst, name []byte) []byte {
	for _, c := range name {
		switch c {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
