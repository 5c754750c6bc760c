package store

import (
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// op is one step of a table test: a Put (when get is false) or a Get.
type op struct {
	get    bool
	handle string
	value  int
	size   int64
	// want is Put's result, or whether Get found the handle.
	want bool
}

func put(handle string, value int, size int64, stored bool) op {
	return op{handle: handle, value: value, size: size, want: stored}
}

func get(handle string, value int, found bool) op {
	return op{get: true, handle: handle, value: value, want: found}
}

func TestStore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		maxEntries int
		maxBytes   int64
		ops        []op
		// wantOrder lists the remaining handles, most recently used first.
		wantOrder []string
		wantBytes int64
	}{
		{
			name:       "empty",
			maxEntries: 2, maxBytes: 10,
			ops:       []op{get("a", 0, false)},
			wantOrder: []string{},
		},
		{
			name:       "put then get",
			maxEntries: 2, maxBytes: 10,
			ops:       []op{put("a", 1, 3, true), get("a", 1, true), get("b", 0, false)},
			wantOrder: []string{"a"},
			wantBytes: 3,
		},
		{
			name:       "count bound evicts least recently put",
			maxEntries: 2, maxBytes: 100,
			ops: []op{
				put("a", 1, 1, true), put("b", 2, 1, true), put("c", 3, 1, true),
				get("a", 0, false), get("b", 2, true), get("c", 3, true),
			},
			wantOrder: []string{"c", "b"},
			wantBytes: 2,
		},
		{
			name:       "get refreshes recency",
			maxEntries: 2, maxBytes: 100,
			ops: []op{
				put("a", 1, 1, true), put("b", 2, 1, true), get("a", 1, true),
				put("c", 3, 1, true), get("b", 0, false),
			},
			wantOrder: []string{"c", "a"},
			wantBytes: 2,
		},
		{
			name:       "missed get does not change order",
			maxEntries: 2, maxBytes: 100,
			ops: []op{
				put("a", 1, 1, true), put("b", 2, 1, true), get("x", 0, false),
				put("c", 3, 1, true),
			},
			wantOrder: []string{"c", "b"},
			wantBytes: 2,
		},
		{
			name:       "put of existing handle replaces and refreshes",
			maxEntries: 2, maxBytes: 100,
			ops: []op{
				put("a", 1, 1, true), put("b", 2, 1, true), put("a", 10, 5, true),
				put("c", 3, 1, true), get("a", 10, true), get("b", 0, false),
			},
			wantOrder: []string{"a", "c"},
			wantBytes: 6,
		},
		{
			name:       "byte bound evicts least recently used",
			maxEntries: 10, maxBytes: 10,
			ops: []op{
				put("a", 1, 4, true), put("b", 2, 4, true), get("a", 1, true),
				put("c", 3, 4, true), get("b", 0, false),
			},
			wantOrder: []string{"c", "a"},
			wantBytes: 8,
		},
		{
			name:       "one put can evict several entries",
			maxEntries: 10, maxBytes: 10,
			ops: []op{
				put("a", 1, 3, true), put("b", 2, 3, true), put("c", 3, 3, true),
				put("d", 4, 9, true),
			},
			wantOrder: []string{"d"},
			wantBytes: 9,
		},
		{
			name:       "entry of exactly max bytes is stored",
			maxEntries: 10, maxBytes: 10,
			ops:       []op{put("a", 1, 3, true), put("b", 2, 10, true)},
			wantOrder: []string{"b"},
			wantBytes: 10,
		},
		{
			name:       "entry larger than max bytes is not stored",
			maxEntries: 10, maxBytes: 10,
			ops:       []op{put("a", 1, 3, true), put("b", 2, 11, false), get("b", 0, false)},
			wantOrder: []string{"a"},
			wantBytes: 3,
		},
		{
			name:       "oversized put removes the older value",
			maxEntries: 10, maxBytes: 10,
			ops:       []op{put("a", 1, 3, true), put("b", 2, 3, true), put("a", 10, 11, false), get("a", 0, false)},
			wantOrder: []string{"b"},
			wantBytes: 3,
		},
		{
			name:       "zero size entries are bounded by count",
			maxEntries: 2, maxBytes: 1,
			ops:       []op{put("a", 1, 0, true), put("b", 2, 0, true), put("c", 3, 0, true)},
			wantOrder: []string{"c", "b"},
		},
		{
			name:       "negative size counts as zero",
			maxEntries: 2, maxBytes: 1,
			ops:       []op{put("a", 1, 1, true), put("b", 2, -5, true)},
			wantOrder: []string{"b", "a"},
			wantBytes: 1,
		},
		{
			name:       "zero bounds mean no limit",
			maxEntries: 0, maxBytes: 0,
			ops:       []op{put("a", 1, 1<<40, true), put("b", 2, 1<<40, true), put("c", 3, 1<<40, true)},
			wantOrder: []string{"c", "b", "a"},
			wantBytes: 3 << 40,
		},
		{
			name:       "negative count bound means no count limit",
			maxEntries: -1, maxBytes: 3,
			ops:       []op{put("a", 1, 1, true), put("b", 2, 1, true), put("c", 3, 1, true), put("d", 4, 1, true)},
			wantOrder: []string{"d", "c", "b"},
			wantBytes: 3,
		},
		{
			name:       "single entry store",
			maxEntries: 1, maxBytes: 10,
			ops:       []op{put("a", 1, 1, true), put("b", 2, 1, true), get("a", 0, false), get("b", 2, true)},
			wantOrder: []string{"b"},
			wantBytes: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New[int](tt.maxEntries, tt.maxBytes)
			for i, o := range tt.ops {
				if o.get {
					v, ok := s.Get(o.handle)
					assert.Equal(t, o.want, ok, "op %d: Get(%q) found", i, o.handle)
					assert.Equal(t, o.value, v, "op %d: Get(%q) value", i, o.handle)
				} else {
					assert.Equal(t, o.want, s.Put(o.handle, o.value, o.size), "op %d: Put(%q) stored", i, o.handle)
				}
				checkInvariants(t, s)
			}
			assert.Equal(t, tt.wantOrder, order(s), "recency order")
			assert.Equal(t, len(tt.wantOrder), s.Len(), "Len")
			assert.Equal(t, tt.wantBytes, s.Bytes(), "Bytes")
		})
	}
}

// TestStoreEvictionOrder fills a store, touches entries in a known order and
// checks that evictions follow exactly least-recently-used order.
func TestStoreEvictionOrder(t *testing.T) {
	t.Parallel()
	const n = 8
	s := New[int](n, 0)
	for i := range n {
		require.True(t, s.Put(strconv.Itoa(i), i, 1))
	}
	// Touch the even handles, oldest first: recency is now (least recent
	// first) 1 3 5 7 0 2 4 6.
	for i := 0; i < n; i += 2 {
		_, ok := s.Get(strconv.Itoa(i))
		require.True(t, ok)
	}
	wantEvicted := []int{1, 3, 5, 7, 0, 2, 4, 6}
	for k, victim := range wantEvicted {
		require.True(t, s.Put(fmt.Sprintf("new%d", k), -1, 1))
		_, ok := s.Get(strconv.Itoa(victim))
		assert.False(t, ok, "put %d should have evicted %d", k, victim)
		// The survivors are untouched by the check above (a miss does not
		// change recency), so the next victim is the next in line.
		assert.Equal(t, n, s.Len())
		checkInvariants(t, s)
	}
	assert.Equal(t, Stats{Entries: n, Bytes: n, Hits: n / 2, Misses: n, Evictions: n}, s.Stats(),
		"four touches hit, eight checks for a victim miss, eight puts evict one each")
}

// TestStoreStats counts hits, misses and evictions; replacing a value and
// refusing one too large for the store are not evictions.
func TestStoreStats(t *testing.T) {
	t.Parallel()
	s := New[int](2, 10)
	assert.Equal(t, Stats{}, s.Stats())
	s.Put("a", 1, 4)
	s.Put("a", 2, 5) // replaces
	s.Put("b", 3, 5)
	assert.False(t, s.Put("huge", 4, 11)) // refused
	s.Get("a")
	s.Get("a")
	s.Get("zz")
	assert.Equal(t, Stats{Entries: 2, Bytes: 10, Hits: 2, Misses: 1}, s.Stats())
	s.Put("c", 5, 5) // a third entry: evicts b, the least recently used
	assert.Equal(t, Stats{Entries: 2, Bytes: 10, Hits: 2, Misses: 1, Evictions: 1}, s.Stats())
	s.Put("d", 6, 10) // needs the whole byte bound: evicts a and c
	assert.Equal(t, Stats{Entries: 1, Bytes: 10, Hits: 2, Misses: 1, Evictions: 3}, s.Stats())
}

// TestStoreConcurrent hammers one store from many goroutines; run it with
// -race. Afterwards the bounds and the internal bookkeeping must hold.
func TestStoreConcurrent(t *testing.T) {
	t.Parallel()
	const (
		goroutines = 8
		ops        = 2000
		keys       = 64
		maxEntries = 16
		maxBytes   = 100
	)
	s := New[string](maxEntries, maxBytes)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range ops {
				k := strconv.Itoa((g*31 + i*7) % keys)
				switch i % 4 {
				case 0:
					s.Put(k, k, int64(i%13))
				case 1:
					_ = s.Len()
					_ = s.Bytes()
				default:
					if v, ok := s.Get(k); ok && v != k {
						t.Errorf("Get(%q) = %q, want the value stored under it", k, v)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	st := s.Stats()
	assert.Equal(t, uint64(goroutines*ops/2), st.Hits+st.Misses, "every Get is a hit or a miss")
	assert.LessOrEqual(t, s.Len(), maxEntries)
	assert.LessOrEqual(t, s.Bytes(), int64(maxBytes))
	checkInvariants(t, s)
}

// checkInvariants verifies that the map, the recency list and the byte total
// agree and that both bounds hold.
func checkInvariants[V any](t *testing.T, s *Store[V]) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int
	var bytes int64
	for e := s.lru.next; e != &s.lru; e = e.next {
		require.Same(t, e, e.next.prev, "list links")
		require.Same(t, e, s.entries[e.handle], "list entry %q is the mapped entry", e.handle)
		n++
		bytes += e.size
		require.LessOrEqual(t, n, len(s.entries), "list longer than map (cycle?)")
	}
	require.Equal(t, len(s.entries), n, "list and map sizes")
	require.Equal(t, bytes, s.bytes, "byte total")
	if s.maxEntries > 0 {
		require.LessOrEqual(t, n, s.maxEntries, "count bound")
	}
	if s.maxBytes > 0 {
		require.LessOrEqual(t, bytes, s.maxBytes, "byte bound")
	}
}

// order returns the handles in recency order, most recently used first.
func order[V any](s *Store[V]) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []string{}
	for e := s.lru.next; e != &s.lru; e = e.next {
		out = append(out, e.handle)
	}
	return out
}

func BenchmarkGet(b *testing.B) {
	const n = 1024
	s := New[*int](n, 0)
	handles := make([]string, n)
	for i := range handles {
		handles[i] = Handle("tool_input", []byte(strconv.Itoa(i)))
		v := i
		s.Put(handles[i], &v, 1)
	}
	b.Run("hit", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, ok := s.Get(handles[i%n]); !ok {
				b.Fatal("miss")
			}
			i++
		}
	})
	b.Run("miss", func(b *testing.B) {
		missing := Handle("tool_input", []byte("missing"))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := s.Get(missing); ok {
				b.Fatal("hit")
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, ok := s.Get(handles[i%n]); !ok {
					b.Fatal("miss")
				}
				i++
			}
		})
	})
}
