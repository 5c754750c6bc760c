package server

import (
	"fmt"
	"sync"

	"github.com/toolgate/toolgate/internal/stream"
)

// heldSchemas counts the compiled schemas that open streams hold, within
// Options.MaxStreamSchemaBytes. A stream keeps each schema it binds (tools,
// its output, a call's own schema) until it ends, also once the store has
// evicted it, so the store's bound alone does not bound them: without
// this, streams binding large inline schemas could pin any amount of heap.
// A schema is counted once (by handle, its Schema.Bytes) however many
// streams hold it, so streams that share their tools cost nothing more.
type heldSchemas struct {
	max int64

	mu      sync.Mutex
	bytes   int64
	holders map[string]*heldSchema // handle -> the schema and its streams
}

// heldSchema is one held schema's size and how many streams hold it.
type heldSchema struct {
	bytes   int64
	streams int
}

func newHeldSchemas(max int64) *heldSchemas {
	return &heldSchemas{max: max, holders: map[string]*heldSchema{}}
}

// total returns the bytes held now.
func (h *heldSchemas) total() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.bytes
}

// stream returns what one new stream holds: nothing yet.
func (h *heldSchemas) stream() *streamHolds {
	return &streamHolds{all: h, handles: map[string]struct{}{}}
}

// streamHolds are the schemas one stream holds. It is used by the
// stream's goroutine only.
type streamHolds struct {
	all     *heldSchemas
	handles map[string]struct{}
}

// hold counts b's schema as held by the stream until release. A binding
// without a schema (a handle this replica does not hold) and a schema the
// stream holds already cost nothing; a schema no stream holds yet that
// would take the total past the bound is an error saying so (the caller
// makes it RESOURCE_EXHAUSTED).
func (s *streamHolds) hold(b stream.Binding) error {
	if b.Schema == nil {
		return nil
	}
	if _, ok := s.handles[b.Handle]; ok {
		return nil
	}
	h := s.all
	h.mu.Lock()
	defer h.mu.Unlock()
	held, ok := h.holders[b.Handle]
	if !ok {
		if h.bytes+b.Schema.Bytes > h.max {
			return fmt.Errorf("the schemas open streams hold would take more than %d bytes (--max-stream-schema-bytes): %d are held, this one is %d",
				h.max, h.bytes, b.Schema.Bytes)
		}
		held = &heldSchema{bytes: b.Schema.Bytes}
		h.holders[b.Handle] = held
		h.bytes += held.bytes
	}
	held.streams++
	s.handles[b.Handle] = struct{}{}
	return nil
}

// release gives back everything the stream holds; call it once, when the
// stream ends.
func (s *streamHolds) release() {
	h := s.all
	h.mu.Lock()
	defer h.mu.Unlock()
	for handle := range s.handles {
		held := h.holders[handle]
		if held.streams--; held.streams == 0 {
			h.bytes -= held.bytes
			delete(h.holders, handle)
		}
	}
	clear(s.handles)
}
