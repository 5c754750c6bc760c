package validator

import (
	"encoding/binary"
	"hash/maphash"

	"github.com/toolgate/toolgate/internal/jsontok"
)

// This file holds uniqueItems. Elements are compared by content hashes
// computed as they stream, never by keeping them: strings by their decoded
// bytes, numbers by their exact value (significant digits, sign and
// exponent, so 1, 1.0 and 10e-1 hash alike; the exponent modulo a 60-bit
// prime drawn for each process, so exponents of any length count), objects
// by an order-free sum over their members, arrays in order. Hashes are
// keyed with a random seed per process, like duplicate member names, so
// no document can aim at a collision: two digit strings collide by a
// 2^-64 chance, two exponents by one below their length in digits over
// 10^16 (they collide when the secret prime divides their difference),
// and a collision would be a wrong verdict either way — a valid array
// rejected, or, under not, oneOf or if, an invalid one accepted.

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

// hashAt returns the hash state of frame fr's value.
func (v *Validator) hashAt(fr int32) *contentHash {
	for int(fr) >= len(v.hashes) {
		v.hashes = append(v.hashes, contentHash{})
	}
	return &v.hashes[fr]
}

// The hash methods below are guards small enough to inline: most
// documents hash nothing (v.hashing is 0), and then a value or a name costs
// one comparison. Their ...Slow twins do the work.

// hashBegin starts hashing the value of frame fr when an array that needs
// unique elements is open, and otherwise clears what an earlier value left
// in the frame's slot.
func (v *Validator) hashBegin(fr int32) {
	if v.hashing > 0 {
		v.hashBeginSlow(fr)
	} else if int(fr) < len(v.hashes) {
		v.hashes[fr].on = false
	}
}

func (v *Validator) hashBeginSlow(fr int32) {
	hs := v.hashAt(fr)
	hs.on, hs.acc, hs.started, hs.zeros, hs.inExp = true, uint64(v.frames[fr].kind), false, 0, false
	hs.h.SetSeed(v.track.seed)
	hs.h.Reset()
}

// hashText feeds a piece of the current string, or of the current member
// name when the innermost object is hashed.
func (v *Validator) hashText(p []byte) {
	if v.hashing > 0 {
		v.hashTextSlow(p)
	}
}

func (v *Validator) hashTextSlow(p []byte) {
	if v.inKey {
		if hs := v.hashedObject(); hs != nil {
			hs.key.Write(p)
		}
		return
	}
	if hs := v.hashAt(v.top()); hs.on {
		hs.h.Write(p)
	}
}

// hashedObject returns the hash state of the innermost object while a
// member name is read, when it is hashed, or nil.
func (v *Validator) hashedObject() *contentHash {
	if hs := v.hashAt(v.nameObject()); hs.on {
		return hs
	}
	return nil
}

// hashBeginKey starts the hash of a member name of a hashed object.
func (v *Validator) hashBeginKey() {
	if v.hashing > 0 {
		v.hashBeginKeySlow()
	}
}

func (v *Validator) hashBeginKeySlow() {
	if hs := v.hashedObject(); hs != nil {
		hs.key.SetSeed(v.track.seed)
		hs.key.Reset()
	}
}

// hashEndKey ends the hash of a member name of a hashed object.
func (v *Validator) hashEndKey() {
	if v.hashing > 0 {
		v.hashEndKeySlow()
	}
}

func (v *Validator) hashEndKeySlow() {
	if hs := v.hashedObject(); hs != nil {
		hs.keySum = hs.key.Sum64()
	}
}

// hashNumberText feeds a piece of the current number: its significant
// digits, without leading zeros and with trailing zeros written only once a
// non-zero digit follows them.
func (v *Validator) hashNumberText(p []byte) {
	if v.hashing > 0 {
		v.hashNumberTextSlow(p)
	}
}

func (v *Validator) hashNumberTextSlow(p []byte) {
	hs := v.hashAt(v.top())
	if !hs.on {
		return
	}
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
// unique ones. Only a value inside an array that needs unique elements, or
// that array itself, has a hash: a value begun while v.hashing was 0 had
// its slot cleared by hashBegin, and one begun inside such an array ends
// before it.
func (v *Validator) hashEnd(fr int32, off int64) {
	if v.hashing > 0 || v.frames[fr].checksUnique {
		v.hashEndSlow(fr, off)
	}
}

func (v *Validator) hashEndSlow(fr int32, off int64) {
	f := &v.frames[fr]
	if f.checksUnique {
		v.hashing--
	}
	if int(fr) >= len(v.hashes) || !v.hashes[fr].on || f.isKey {
		return
	}
	hs := &v.hashes[fr]
	switch f.kind {
	case jsontok.String:
		hs.sum = v.mix(hs.h.Sum64(), 's')
	case jsontok.Number:
		sign := uint64(1)
		if v.num.Value().Neg {
			sign = 2
		}
		// The exponent modulo a prime, not Value's Exp: that saturates,
		// and 1e999999999999999999 is not 1e9999999999999999999.
		hs.sum = v.mix(v.mix(hs.h.Sum64(), v.num.ExpModulo()), sign)
	case jsontok.Object, jsontok.Array:
		hs.sum = v.mix(hs.acc, uint64(f.index)|uint64(f.kind)<<56)
	default:
		hs.sum = v.mix(uint64(f.kind), 'l')
	}
	if fr == 0 {
		return
	}
	parent, ph := &v.frames[fr-1], &v.hashes[fr-1]
	if !ph.on {
		return
	}
	if parent.kind == jsontok.Object {
		ph.acc += v.mix(ph.keySum, hs.sum)
		parent.index++
		return
	}
	ph.acc = v.mix(ph.acc, hs.sum)
	if !parent.checksUnique {
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

// keptUniqueHashes is how many content hashes an array's map may have
// held for a frame to keep it for the next array at its depth: many
// small sibling arrays share one map, and one long array does not pin
// its map after it closes.
const keptUniqueHashes = 1024

// mix combines two hashes under the process's seed.
func (v *Validator) mix(a, b uint64) uint64 {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], a)
	binary.LittleEndian.PutUint64(buf[8:], b)
	return maphash.Bytes(v.track.seed, buf[:])
}
