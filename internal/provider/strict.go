package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// encoding/json reads an event more loosely than the clients that act on
// the same stream (the provider SDKs in Python and TypeScript, a Go client
// using a strict decoder): it matches a member name to a field ignoring
// case ("Arguments", and "partial_jſon" with U+017F, fill the field of
// "arguments" and "partial_json"), fills one struct from every copy of a
// repeated member, and reads a lone surrogate escape as U+FFFD. Each lets
// toolgate check other arguments, or another tool, than the client runs
// (DESIGN.md §3: a gateway that lets a backend see a different value than
// it checked is a hole). So an event encoding/json decoded is read again
// by toolgate's own tokenizer, which refuses a repeated member name and a lone surrogate, and
// each member name of an object that becomes a struct must be spelled as
// its field is, or name no field at all: such an event is refused whole.

// strictEventDepth bounds the nesting of one event as encoding/json
// bounds it (10,000), so that the strict reading refuses nothing the
// loose one accepted for its depth.
const strictEventDepth = 10_000

// checkStrict reports why event, to be decoded into a value of type t,
// would be read differently by a strict client, or nil.
func checkStrict(event []byte, t reflect.Type) error {
	var r strictReader
	return r.check(event, t)
}

// check is checkStrict, reusing r's buffers: it reads the event once with
// toolgate's tokenizer, keeping nothing but the member names of the
// objects open at each point.
func (r *strictReader) check(event []byte, t reflect.Type) error {
	r.root, r.frames, r.names, r.spans, r.inKey, r.next, r.err, r.members = t, r.frames[:0], r.names[:0], r.spans[:0], false, nil, nil, 0
	if r.tok == nil {
		r.tok = jsontok.New(r, strictEventDepth)
	} else {
		r.tok.Reset(r, strictEventDepth)
	}
	err := r.tok.Feed(event)
	if err == nil {
		err = r.tok.End()
	}
	switch {
	case r.err != nil:
		return r.err
	case err != nil: // what encoding/json reads as U+FFFD or lets pass
		return fmt.Errorf("invalid JSON: %v", err)
	}
	return nil
}

// strictReader is check's jsontok.Handler: it refuses a member name
// an object repeats, and one that spells a field of the struct the object
// decodes into in another case. Values decoded by their own UnmarshalJSON,
// raw messages and values no field takes are checked for repeated names
// only.
type strictReader struct {
	tok    *jsontok.Tokenizer
	root   reflect.Type
	frames []strictFrame
	names  []byte     // the names of the open objects' members, end to end
	spans  [][2]int32 // each one's place in names, object by object
	key    []byte     // the name being read
	inKey  bool
	next   reflect.Type // the type of the value a member name just ended
	err    error
	steps  int // name comparisons and set operations, over every event
	// members counts the members of the event's top-level object, for
	// an adapter whose events are one payload in one member (Bedrock's).
	members int
}

// strictFrame is one open value.
type strictFrame struct {
	kind   jsontok.Kind
	fields *structFieldSet     // nil: no struct takes it
	elem   reflect.Type        // an array's element type, or nil
	spans  int                 // where this object's names begin in spans
	set    map[string]struct{} // its names, once it has strictSmallObject
	name   int                 // its name's span in its parent object, or -1
	index  int                 // its index in its parent array
	items  int                 // an array's elements so far
}

// Begin implements jsontok.Handler.
func (r *strictReader) Begin(kind jsontok.Kind, _ int64) {
	if r.err != nil {
		return
	}
	t := r.root
	f := strictFrame{kind: kind, spans: len(r.spans), name: -1}
	if n := len(r.frames); n > 0 {
		parent := &r.frames[n-1]
		if parent.kind == jsontok.Object {
			t, f.name = r.next, len(r.spans)-1
		} else {
			t, f.index = parent.elem, parent.items
			parent.items++
		}
	}
	if t = decodedType(t); t != nil {
		switch {
		case kind == jsontok.Object && t.Kind() == reflect.Struct:
			f.fields = jsonFields(t)
		case kind == jsontok.Array && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
			f.elem = t.Elem()
		}
	}
	r.frames = append(r.frames, f)
}

// decodedType is t without pointers, or nil where encoding/json hands the
// value to the type's own decoder.
func decodedType(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	return t
}

// BeginKey implements jsontok.Handler.
func (r *strictReader) BeginKey(int64) { r.key, r.inKey = r.key[:0], true }

// Text implements jsontok.Handler.
func (r *strictReader) Text(p []byte, _ int64, _ bool) {
	if r.inKey {
		r.key = append(r.key, p...)
	}
}

// Escape implements jsontok.Handler.
func (r *strictReader) Escape(int64) {}

// EscapeRange implements jsontok.Handler.
func (r *strictReader) EscapeRange(jsontok.CharRange, int64) {}

// Separator implements jsontok.Handler.
func (r *strictReader) Separator(int64) {}

// EndKey implements jsontok.Handler.
func (r *strictReader) EndKey(int64) {
	r.inKey = false
	if r.err != nil {
		return
	}
	f := &r.frames[len(r.frames)-1]
	if r.repeated(f) {
		r.err = fmt.Errorf("the member %s appears twice in the object at %s, which clients read differently", quoteName(string(r.key)), quoteName(r.pointer()))
		return
	}
	if len(r.frames) == 1 {
		r.members++
	}
	r.spans = append(r.spans, [2]int32{int32(len(r.names)), int32(len(r.names) + len(r.key))})
	r.names = append(r.names, r.key...)
	r.next = nil
	if f.fields == nil {
		return
	}
	if t, ok := f.fields.types[string(r.key)]; ok {
		r.next = t
		return
	}
	for _, name := range f.fields.names {
		if bytes.EqualFold(name, r.key) {
			r.err = fmt.Errorf("the member %s at %s is spelled like the field %q in another case, which clients read differently", quoteName(string(r.key)), quoteName(r.pointer()), name)
			return
		}
	}
}

// strictSmallObject is how many names an object may have before repeated
// looks them up in a set instead of comparing each: past it, comparing
// would cost the square of the names (an event of 100,000 members).
const strictSmallObject = 16

// repeated reports whether the object of frame f already has the name
// just read, and records it in f's set once it has one. Each name costs
// steps a bounded number of comparisons or set operations.
func (r *strictReader) repeated(f *strictFrame) bool {
	names := r.spans[f.spans:]
	if len(names) < strictSmallObject {
		for _, sp := range names {
			r.steps++
			if bytes.Equal(r.names[sp[0]:sp[1]], r.key) {
				return true
			}
		}
		return false
	}
	if f.set == nil {
		f.set = make(map[string]struct{}, 2*len(names))
		for _, sp := range names {
			f.set[string(r.names[sp[0]:sp[1]])] = struct{}{}
		}
		r.steps += len(names)
	}
	r.steps++
	if _, ok := f.set[string(r.key)]; ok {
		return true
	}
	f.set[string(r.key)] = struct{}{}
	return false
}

// End implements jsontok.Handler.
func (r *strictReader) End(jsontok.Kind, int64) {
	if r.err != nil {
		return
	}
	f := r.frames[len(r.frames)-1]
	if f.kind == jsontok.Object {
		if len(r.spans) > f.spans {
			r.names = r.names[:r.spans[f.spans][0]]
		}
		r.spans = r.spans[:f.spans]
	}
	r.frames = r.frames[:len(r.frames)-1]
}

// pointer returns the JSON pointer of the innermost open value.
func (r *strictReader) pointer() string {
	var p []byte
	for _, f := range r.frames[1:] {
		if p = append(p, '/'); f.name >= 0 {
			sp := r.spans[f.name]
			p = jsondoc.AppendPointerToken(p, r.names[sp[0]:sp[1]])
		} else {
			p = strconv.AppendInt(p, int64(f.index), 10)
		}
	}
	return string(p)
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// structFieldSet is what encoding/json decodes into one struct type: each
// member name with its field's type.
type structFieldSet struct {
	types map[string]reflect.Type
	names [][]byte
}

// structFields caches jsonFields by type.
var structFields sync.Map // reflect.Type → *structFieldSet

// jsonFields returns the member names encoding/json decodes into struct
// type t (the fields of embedded structs included), with their types.
func jsonFields(t reflect.Type) *structFieldSet {
	if f, ok := structFields.Load(t); ok {
		return f.(*structFieldSet)
	}
	set := &structFieldSet{types: map[string]reflect.Type{}}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous && f.Tag.Get("json") == "" {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		set.types[name] = f.Type
		set.names = append(set.names, []byte(name))
	}
	structFields.Store(t, set)
	return set
}
