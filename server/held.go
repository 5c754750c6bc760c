package server

import (
	"fmt"
	"sync"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
)

// heldSchemas counts the compiled schemas that open streams hold, within
// Options.MaxStreamSchemaBytes. A stream keeps each schema it binds (tools,
// its output, a call's own schema) until it ends, also once the store has
// evicted it, so the store's bound alone does not bound them: without
// this, streams binding large inline schemas could pin any amount of heap.
// A compiled schema is counted once (its Schema.Bytes) however many
// streams hold it, so streams that share their tools cost nothing more;
// one compiled again after the store evicted it is another schema on the
// heap, and counts again.
type heldSchemas struct {
	max int64

	mu      sync.Mutex
	bytes   int64
	streams map[*schema.Schema]int // how many streams hold each schema
}

func newHeldSchemas(max int64) *heldSchemas {
	return &heldSchemas{max: max, streams: map[*schema.Schema]int{}}
}

// total returns the bytes held now.
func (h *heldSchemas) total() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.bytes
}

// stream returns what one new stream holds: nothing yet.
func (h *heldSchemas) stream() *streamHolds {
	return &streamHolds{all: h, schemas: map[*schema.Schema]struct{}{}}
}

// streamHolds are the schemas one stream holds. It is used by the
// stream's goroutine only.
type streamHolds struct {
	all     *heldSchemas
	schemas map[*schema.Schema]struct{}
}

// hold counts b's schema as held by the stream until release. A binding
// without a schema (a handle this replica does not hold) and a schema the
// stream holds already cost nothing; a schema no stream holds yet that
// would take the total past the bound is an error saying so (the caller
// makes it RESOURCE_EXHAUSTED).
func (s *streamHolds) hold(b stream.Binding) error {
	sch := b.Schema
	if sch == nil {
		return nil
	}
	if _, ok := s.schemas[sch]; ok {
		return nil
	}
	h := s.all
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.streams[sch] == 0 {
		if h.bytes+sch.Bytes > h.max {
			return fmt.Errorf("the schemas open streams hold would take more than %d bytes (--max-stream-schema-bytes): %d are held, this one is %d",
				h.max, h.bytes, sch.Bytes)
		}
		h.bytes += sch.Bytes
	}
	h.streams[sch]++
	s.schemas[sch] = struct{}{}
	return nil
}

// release gives back everything the stream holds; call it once, when the
// stream ends.
func (s *streamHolds) release() {
	h := s.all
	h.mu.Lock()
	defer h.mu.Unlock()
	for sch := range s.schemas {
		if h.streams[sch]--; h.streams[sch] == 0 {
			h.bytes -= sch.Bytes
			delete(h.streams, sch)
		}
	}
	clear(s.schemas)
}
