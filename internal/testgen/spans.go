package testgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Span is where one value lies in a JSON text: bytes [Start, End).
type Span struct {
	Start, End int
}

// ValueSpans returns where every value of the JSON text lies, by its RFC
// 6901 pointer ("" for the whole document). It fails on text that is not
// one JSON value, and on an object that names a member twice (the pointer
// would be ambiguous).
func ValueSpans(text []byte) (map[string]Span, error) {
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	spans := map[string]Span{}
	type level struct {
		ptr    string
		object bool
		index  int
		key    bool   // the next string is a name
		name   string // the last name read
		start  int
	}
	var stack []level
	prev := 0
	start := func() int {
		i := prev
		for i < len(text) && bytes.IndexByte([]byte(" \t\r\n,:"), text[i]) >= 0 {
			i++
		}
		return i
	}
	record := func(ptr string, s Span) error {
		if _, dup := spans[ptr]; dup {
			return fmt.Errorf("testgen: the pointer %q names two values", ptr)
		}
		spans[ptr] = s
		return nil
	}
	// childPtr returns the pointer of the value that starts now.
	childPtr := func() string {
		if len(stack) == 0 {
			return ""
		}
		top := &stack[len(stack)-1]
		if top.object {
			return top.ptr + "/" + escapePointer(top.name)
		}
		top.index++
		return top.ptr + "/" + strconv.Itoa(top.index-1)
	}
	for {
		s := start()
		tok, err := d.Token()
		if err != nil {
			if len(stack) == 0 && len(spans) > 0 {
				return spans, nil // the end of the document
			}
			return nil, fmt.Errorf("testgen: not one JSON value: %w", err)
		}
		prev = int(d.InputOffset())
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].key {
			if name, ok := tok.(string); ok {
				stack[n-1].name, stack[n-1].key = name, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, level{ptr: childPtr(), object: tok == json.Delim('{'), key: true, start: s})
			continue
		case json.Delim('}'), json.Delim(']'):
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if err := record(top.ptr, Span{top.start, prev}); err != nil {
				return nil, err
			}
		default:
			if err := record(childPtr(), Span{s, prev}); err != nil {
				return nil, err
			}
		}
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].key = true
		}
		if len(stack) == 0 && d.More() {
			return nil, fmt.Errorf("testgen: trailing data after the document")
		}
	}
}
