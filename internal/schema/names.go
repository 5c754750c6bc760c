package schema

import (
	"hash/maphash"
	"strings"
)

// NameIndex is a sorted list of distinct names (an object's member names,
// or an enum's string choices) with a hash table that finds a whole name
// in one lookup. A validator narrows the list byte by byte (binary search
// per byte, to reject at the first byte no name continues), but most
// member names arrive in one piece: Whole then answers with one hash of
// the piece instead of a search per byte. The zero value, and a nil
// *NameIndex, are an empty list.
type NameIndex struct {
	names []string
	// prefix has bit i set when names[i] begins the name after it: sorted
	// bytewise, the names that start with names[i] are the ones from i on,
	// names[i] first, and without the bit names[i] is the only one. It
	// could be read off the names at each lookup, but that compare costs
	// a found name about 40 instructions more (callgrind, -doc small).
	prefix []uint64
	// slots holds 1 + the index of a name at its hash (open addressing,
	// linear probing), 0 where none. Its length is a power of two, at
	// least twice the names', so a probe always meets an empty slot and
	// meets few full ones. An index of up to smallIndex names has none.
	slots []int32
}

// smallIndex is how many names Whole compares one by one instead of
// hashing: a compare that the lengths decide costs a few instructions,
// and the seeded hash alone more than a handful of compares. Callgrind on
// benchloop -doc small (the edit_file schema's three member names): a
// lookup took 156 instructions by hash and takes 91 by compares, and the
// document 8,530 instructions in all, 8,359 now. The bound is a
// constant, so the work per name does not grow with the schema.
const smallIndex = 8

// nameSeed keys the tables' hashes. It is random per process, so the
// names of a schema cannot be chosen to collide and make a lookup scan.
var nameSeed = maphash.MakeSeed()

// IndexNames indexes names, which must be sorted bytewise without repeats.
// The index keeps names, not a copy.
func IndexNames(names []string) NameIndex {
	if len(names) == 0 {
		return NameIndex{names: names}
	}
	x := NameIndex{names: names, prefix: make([]uint64, (len(names)+63)/64)}
	for i := range len(names) - 1 {
		if strings.HasPrefix(names[i+1], names[i]) {
			x.prefix[uint(i)/64] |= 1 << (uint(i) % 64)
		}
	}
	if len(names) <= smallIndex {
		return x
	}
	size := 2
	for size < 2*len(names) {
		size *= 2
	}
	x.slots = make([]int32, size)
	mask := uint64(size - 1)
	for i, name := range names {
		s := maphash.String(nameSeed, name) & mask
		for x.slots[s] != 0 {
			s = (s + 1) & mask
		}
		x.slots[s] = int32(i + 1)
	}
	return x
}

// tableBytes estimates the heap that the index's tables hold (the names
// themselves are counted where they are kept).
func (x *NameIndex) tableBytes() int64 {
	if x == nil {
		return 0
	}
	return 8*int64(len(x.prefix)) + 4*int64(len(x.slots))
}

// Names returns the sorted names.
func (x *NameIndex) Names() []string {
	if x == nil {
		return nil
	}
	return x.names
}

// Len returns how many names there are.
func (x *NameIndex) Len() int { return len(x.Names()) }

// Whole reports whether p is one of the names, and if it is, returns the
// range [i, end) of the names that start with p: names[i] is p.
func (x *NameIndex) Whole(p []byte) (i, end int, ok bool) {
	if x == nil {
		return 0, 0, false
	}
	if len(x.slots) == 0 { // up to smallIndex names
		for i, name := range x.names {
			if name == string(p) {
				return i, x.startingWith(i), true
			}
		}
		return 0, 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for s := maphash.Bytes(nameSeed, p) & mask; ; s = (s + 1) & mask {
		k := x.slots[s]
		if k == 0 {
			return 0, 0, false
		}
		if i := int(k - 1); x.names[i] == string(p) {
			return i, x.startingWith(i), true
		}
	}
}

// startingWith returns one past the last name that starts with names[i].
func (x *NameIndex) startingWith(i int) int {
	if x.prefix[uint(i)/64]&(1<<(uint(i)%64)) == 0 {
		return i + 1 // the usual case: no name continues it
	}
	return x.prefixEnd(i)
}

// prefixEnd returns one past the last name that starts with names[i],
// when names[i+1] does.
func (x *NameIndex) prefixEnd(i int) int {
	// Those names are a run from i on: search for the first that is not.
	p := x.names[i]
	lo, hi := i+2, len(x.names) // names[i+1] starts with p
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if strings.HasPrefix(x.names[mid], p) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
