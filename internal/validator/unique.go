package validator

import (
	"encoding/binary"
	"hash/maphash"

	"github.com/toolgate/toolgate/internal/jsontok"
)

// This file holds uniqueItems. Elements are compared by content hashes
// computed as they stream, never by keeping them: strings by their decoded
// bytes, numbers by their exact value (significant digits, sign and
// exponent, so 1, 1.0 and 10e-1 hash alike), objects by an order-free sum
// over their members, arrays in order. Hashes are keyed with a random seed
// per process, like duplicate member names: a collision can only make a
// valid array look repetitive — toolgate then rejects, it never accepts.

// contentHash is the hash state of one value.
type contentHash struct {
	on      bool
	h       maphash.Hash // strings: the bytes; numbers: the significant digits
	key     maphash.Hash // objects: the current member name
	keySum  uint64
	acc     uint64 // objects: sum of member hashes; arrays: running hash
	started bool   // numbers: a non-zero digit was read
	zeros   int64  // numbers: zeros read since the last non-zero digit
	inExp   bool
	sum     uint64 // the value's hash once it ended
}

// hashBegin starts hashing the value of frame fr when an array that needs
// unique elements is open.
func (v *Validator) hashBegin(fr int32) {
	f := &v.frames[fr]
	if v.hashing == 0 {
		f.hash.on = false
		return
	}
	f.hash.on, f.hash.acc, f.hash.started, f.hash.zeros, f.hash.inExp = true, uint64(f.kind), false, 0, false
	f.hash.h.SetSeed(v.track.seed)
	f.hash.h.Reset()
}

// hashText feeds a piece of the current string, or of the current member
// name when the innermost object is hashed.
func (v *Validator) hashText(p []byte) {
	if v.hashing == 0 {
		return
	}
	if v.inKey {
		if f := v.hashedObject(); f != nil {
			f.hash.key.Write(p)
		}
		return
	}
	if f := &v.frames[v.top()]; f.hash.on {
		f.hash.h.Write(p)
	}
}

// hashedObject returns the innermost object's frame while a member name
// is read, when it is hashed, or nil.
func (v *Validator) hashedObject() *frame {
	fr := v.top()
	if v.keyFrame {
		fr--
	}
	if f := &v.frames[fr]; f.hash.on {
		return f
	}
	return nil
}

func (v *Validator) hashBeginKey() {
	if v.hashing == 0 {
		return
	}
	if f := v.hashedObject(); f != nil {
		f.hash.key.SetSeed(v.track.seed)
		f.hash.key.Reset()
	}
}

func (v *Validator) hashEndKey() {
	if v.hashing == 0 {
		return
	}
	if f := v.hashedObject(); f != nil {
		f.hash.keySum = f.hash.key.Sum64()
	}
}

// hashNumberText feeds a piece of the current number: its significant
// digits, without leading zeros and with trailing zeros written only once a
// non-zero digit follows them.
func (v *Validator) hashNumberText(p []byte) {
	if v.hashing == 0 {
		return
	}
	f := &v.frames[v.top()]
	if !f.hash.on {
		return
	}
	hs := &f.hash
	for _, c := range p {
		switch {
		case c == 'e' || c == 'E':
			hs.inExp = true
		case hs.inExp || c < '0' || c > '9':
		case c == '0':
			if hs.started {
				hs.zeros++
			}
		default:
			for ; hs.zeros > 0; hs.zeros-- {
				hs.h.WriteByte('0')
			}
			hs.started = true
			hs.h.WriteByte(c)
		}
	}
}

// hashEnd finishes the hash of frame fr's value, adds it to its
// container's, and rejects a repeated element of an array that requires
// unique ones.
func (v *Validator) hashEnd(fr int32, off int64) {
	f := &v.frames[fr]
	if !f.hash.on || f.isKey {
		return
	}
	hs := &f.hash
	switch f.kind {
	case jsontok.String:
		hs.sum = v.mix(hs.h.Sum64(), 's')
	case jsontok.Number:
		d := v.num.Value()
		sign := uint64(1)
		if d.Neg {
			sign = 2
		}
		hs.sum = v.mix(v.mix(hs.h.Sum64(), uint64(d.Exp)), sign)
	case jsontok.Object, jsontok.Array:
		hs.sum = v.mix(hs.acc, uint64(f.index)|uint64(f.kind)<<56)
	default:
		hs.sum = v.mix(uint64(f.kind), 'l')
	}
	if f.unique != nil {
		v.hashing--
	}
	if fr == 0 || f.isKey {
		return
	}
	parent := &v.frames[fr-1]
	if !parent.hash.on {
		return
	}
	if parent.kind == jsontok.Object {
		parent.hash.acc += v.mix(parent.hash.keySum, hs.sum)
		parent.index++
		return
	}
	parent.hash.acc = v.mix(parent.hash.acc, hs.sum)
	if parent.unique == nil {
		return
	}
	if _, dup := parent.unique[hs.sum]; !dup {
		parent.unique[hs.sum] = struct{}{}
		return
	}
	for _, e := range parent.evals {
		if e.listening() && e.node.UniqueItems {
			v.violate(e, violation{keyword: "uniqueItems", node: e.node, off: off, count: parent.index - 1})
		}
	}
}

// mix combines two hashes under the process's seed.
func (v *Validator) mix(a, b uint64) uint64 {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], a)
	binary.LittleEndian.PutUint64(buf[8:], b)
	return maphash.Bytes(v.track.seed, buf[:])
}
