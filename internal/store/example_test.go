package store_test

import (
	"fmt"

	"github.com/toolgate/toolgate/internal/store"
)

func ExampleStore() {
	// At most 2 entries, at most 1 KiB in total.
	s := store.New[string](2, 1024)

	a := store.Handle("tool_input", []byte(`{"type":"object"}`))
	b := store.Handle("tool_input", []byte(`{"properties":{"x":{"type":"string"}},"type":"object"}`))
	c := store.Handle("output_bindable", []byte(`{"properties":{"x":{"type":"string"}},"type":"object"}`))

	s.Put(a, "schema A", 100)
	s.Put(b, "schema B", 200)
	s.Get(a)                  // a is now the most recently used
	s.Put(c, "schema C", 300) // evicts b, the least recently used

	_, okB := s.Get(b)
	v, okA := s.Get(a)
	fmt.Println(okB, v, okA, s.Len(), s.Bytes())
	fmt.Println(s.Put("big", "too big", 2048))
	// Output:
	// false schema A true 2 400
	// false
}
