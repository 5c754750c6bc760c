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

// stream returns what one new stream holds: nothing yet, and at most
// maxSchemas distinct schemas (see streamHolds.max).
func (h *heldSchemas) stream(maxSchemas int) *streamHolds {
	return &streamHolds{all: h, max: maxSchemas, schemas: map[*schema.Schema]struct{}{}}
}

// streamSchemaCount is how many distinct schemas one stream may hold
// (streamHolds.max): one for each tool name it may bind and each call it
// may start (a call's own schema), and one output. A bind that gives a
// bound name, or the output, another schema holds one more, since calls
// already started keep the one they had: without a count, rebinding one
// name would hold any number of schemas, and compile each, past
// MaxToolsPerStream, up to what every stream may hold together
// (MaxStreamSchemaBytes).
func (o Options) streamSchemaCount() int {
	return o.MaxToolsPerStream + o.MaxCallsPerStream + 1
}

// streamHolds are the schemas one stream holds. It is used by the
// stream's goroutine only.
type streamHolds struct {
	all *heldSchemas
	// max bounds len(schemas): past it hold fails (Options.streamSchemaCount).
	max     int
	schemas map[*schema.Schema]struct{}
}

// hold counts b's schema as held by the stream until release. A binding
// without a schema (a handle this replica does not hold) and a schema the
// stream holds already cost nothing; a schema no stream holds yet that
// would take the total past the bound, or one more than the stream may
// hold (streamHolds.max), is an error saying so (the caller makes it
// RESOURCE_EXHAUSTED).
func (s *streamHolds) hold(b stream.Binding) error {
	sch := b.Schema
	if sch == nil {
		return nil
	}
	if _, ok := s.schemas[sch]; ok {
		return nil
	}
	if len(s.schemas) >= s.max {
		return fmt.Errorf("the stream holds %d schemas, as many as one stream may (--max-tools-per-stream plus --max-calls-per-stream, and one output); binding a tool name or the output to another schema holds one more for the stream's life", len(s.schemas))
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
