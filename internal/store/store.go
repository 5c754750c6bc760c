package store

import "sync"

// Store maps handles to values of type V. It is bounded by a number of
// entries and by a total of caller-declared sizes in bytes; when a Put takes
// it over either bound it evicts least recently used entries until both
// hold again.
//
// A Store is safe for concurrent use by multiple goroutines. Every method
// takes one mutex for a constant amount of work (Get also has to reorder the
// recency list), so no call waits behind an expensive one. Values are
// returned as stored: share only values that are immutable or otherwise safe
// to use concurrently, such as compiled schemas.
//
// The zero Store is not usable; create one with New.
type Store[V any] struct {
	mu         sync.Mutex
	maxEntries int
	maxBytes   int64
	bytes      int64
	stats      Stats // Hits, Misses and Evictions; the sizes are computed
	entries    map[string]*entry[V]
	// lru is the sentinel of a circular doubly linked list of the entries:
	// lru.next is the most recently used, lru.prev the least.
	lru entry[V]
}

// entry is one stored value and its place in the recency list.
type entry[V any] struct {
	handle     string
	value      V
	size       int64
	prev, next *entry[V]
}

// New returns an empty Store that holds at most maxEntries entries whose
// sizes add up to at most maxBytes bytes. A bound that is zero or negative
// means no limit on that dimension.
func New[V any](maxEntries int, maxBytes int64) *Store[V] {
	s := &Store[V]{
		maxEntries: maxEntries,
		maxBytes:   maxBytes,
		entries:    make(map[string]*entry[V]),
	}
	s.lru.next = &s.lru
	s.lru.prev = &s.lru
	return s
}

// Get returns the value stored under handle and true, or the zero V and
// false when there is none. A hit marks the entry as the most recently used.
func (s *Store[V]) Get(handle string) (V, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[handle]
	if !ok {
		s.stats.Misses++
		var zero V
		return zero, false
	}
	s.stats.Hits++
	s.moveToFront(e)
	return e.value, true
}

// Put stores v under handle as the most recently used entry, replacing any
// value already there, and evicts least recently used entries until both
// bounds hold. size is v's cost in bytes as the caller reckons it; a
// negative size counts as 0.
//
// Put reports whether v was stored. It is not stored, and any older value
// under handle is removed, when size alone exceeds the byte bound: storing
// it would have to evict everything and still not fit.
func (s *Store[V]) Put(handle string, v V, size int64) bool {
	size = max(size, 0)
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.entries[handle]; ok {
		s.remove(old)
	}
	if s.maxBytes > 0 && size > s.maxBytes {
		return false
	}
	e := &entry[V]{handle: handle, value: v, size: size}
	s.entries[handle] = e
	s.bytes += size
	s.pushFront(e)
	for s.overBounds() {
		// The new entry is at the front and fits alone, so eviction stops
		// before it.
		s.remove(s.lru.prev)
		s.stats.Evictions++
	}
	return true
}

// Len returns the number of entries in the store.
func (s *Store[V]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// Bytes returns the sum of the sizes of the entries in the store.
func (s *Store[V]) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// Stats is a snapshot of a Store: its size and its counters since New.
type Stats struct {
	// Entries and Bytes are Len and Bytes.
	Entries int
	Bytes   int64
	// Hits and Misses count the Gets that found their handle and those
	// that did not.
	Hits, Misses uint64
	// Evictions counts the entries Put removed to keep within the bounds
	// (replacing a handle's value is not an eviction).
	Evictions uint64
}

// Stats returns a consistent snapshot of the store's size and counters.
func (s *Store[V]) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Entries, st.Bytes = len(s.entries), s.bytes
	return st
}

// overBounds reports whether the store holds more than either bound allows.
// The caller holds s.mu.
func (s *Store[V]) overBounds() bool {
	return (s.maxEntries > 0 && len(s.entries) > s.maxEntries) ||
		(s.maxBytes > 0 && s.bytes > s.maxBytes)
}

// remove deletes e from the map, the recency list and the byte total. The
// caller holds s.mu.
func (s *Store[V]) remove(e *entry[V]) {
	e.prev.next = e.next
	e.next.prev = e.prev
	e.prev, e.next = nil, nil
	delete(s.entries, e.handle)
	s.bytes -= e.size
}

// pushFront links e in as the most recently used entry. The caller holds
// s.mu.
func (s *Store[V]) pushFront(e *entry[V]) {
	e.prev = &s.lru
	e.next = s.lru.next
	s.lru.next.prev = e
	s.lru.next = e
}

// moveToFront makes e, which is in the list, the most recently used entry.
// The caller holds s.mu.
func (s *Store[V]) moveToFront(e *entry[V]) {
	if s.lru.next == e {
		return
	}
	e.prev.next = e.next
	e.next.prev = e.prev
	s.pushFront(e)
}
