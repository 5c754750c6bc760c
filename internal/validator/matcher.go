package validator

// matcher narrows a sorted list of names to those that start with the bytes
// fed so far. Names sharing a prefix are contiguous in a sorted list, so the
// candidates are always one range [lo, hi), and the shortest candidate (the
// only one that can equal the prefix exactly) is at lo.
type matcher struct {
	lo, hi, pos int
	dead        bool // a byte already left no candidate
}

func (mt *matcher) reset(n int) { mt.lo, mt.hi, mt.pos, mt.dead = 0, n, 0, false }

// feed narrows the range by p and returns the index in p of the byte that
// left no candidate, or -1 while candidates remain (or had already run out).
// With no names at all, the first byte leaves none.
func (mt *matcher) feed(names []string, p []byte) int {
	if mt.dead {
		return -1
	}
	for i, b := range p {
		lo, hi, pos := mt.lo, mt.hi, mt.pos
		for lo < hi && (len(names[lo]) <= pos || names[lo][pos] < b) {
			lo++
		}
		end := lo
		for end < hi && names[end][pos] == b {
			end++
		}
		mt.lo, mt.hi, mt.pos = lo, end, pos+1
		if lo >= end {
			mt.dead = true
			return i
		}
	}
	return -1
}

// match returns the index of the name equal to everything fed, or -1.
func (mt *matcher) match(names []string) int {
	if mt.lo < mt.hi && len(names[mt.lo]) == mt.pos {
		return mt.lo
	}
	return -1
}
