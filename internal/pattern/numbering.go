package pattern

import "encoding/binary"

// numbering gives distinct keys the numbers 0, 1, 2, … in the order they
// are first seen: the classes of a partition, the sinks, bitsets and
// live-class sets of an automaton, the merged nodes of its UTF-8 trie.
type numbering map[string]int32

// number returns key's number, and whether key was new. A known key costs
// no allocation.
func (n numbering) number(key []byte) (id int32, fresh bool) {
	if id, ok := n[string(key)]; ok {
		return id, false
	}
	id = int32(len(n))
	n[string(key)] = id
	return id, true
}

// appendWords appends the words of a bitset to key, for number.
func appendWords(key []byte, s []uint64) []byte {
	for _, w := range s {
		key = binary.LittleEndian.AppendUint64(key, w)
	}
	return key
}
