package validator

import (
	"hash/maphash"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsondoc"
)

// smallObject is how many member names an object may have before duplicate
// detection moves from a linear scan to a hash set.
const smallObject = 16

// level is one open container of the document, as the path tracker sees it.
type level struct {
	object    bool
	hasKey    bool  // object: a member name has begun
	index     int64 // array: index of the current element, -1 before the first
	keyStart  int   // object: start of the current member name in keys
	hashStart int   // object: start of this object's name hashes in hashes
	serial    uint64
}

// tracker follows the position in the document independently of any schema:
// it knows the current instance path (rendered only when a finding needs it)
// and detects duplicate member names in every object.
type tracker struct {
	levels []level
	keys   []byte   // current member names of all open objects, concatenated
	hashes []uint64 // member name hashes of all open objects
	big    map[uint64]struct{}
	seed   maphash.Seed
	serial uint64
}

func (t *tracker) reset() {
	t.levels, t.keys, t.hashes = t.levels[:0], t.keys[:0], t.hashes[:0]
	if len(t.big) > 0 {
		clear(t.big)
	}
	t.serial = 0
}

// beginValue notes that a value starts in the current container.
func (t *tracker) beginValue() {
	if n := len(t.levels); n > 0 && !t.levels[n-1].object {
		t.levels[n-1].index++
	}
}

func (t *tracker) push(object bool) {
	t.serial++
	t.levels = append(t.levels, level{object: object, index: -1, keyStart: len(t.keys), hashStart: len(t.hashes), serial: t.serial})
}

func (t *tracker) pop() {
	l := t.levels[len(t.levels)-1]
	t.levels = t.levels[:len(t.levels)-1]
	t.keys, t.hashes = t.keys[:l.keyStart], t.hashes[:l.hashStart]
}

func (t *tracker) beginKey() {
	l := &t.levels[len(t.levels)-1]
	l.hasKey = true
	t.keys = t.keys[:l.keyStart]
}

func (t *tracker) keyText(p []byte) { t.keys = append(t.keys, p...) }

// key returns the current member name of the innermost object.
func (t *tracker) key() []byte { return t.keys[t.levels[len(t.levels)-1].keyStart:] }

// keyAt returns the current member name of the object at level i, which
// values inside that member may have nested below.
func (t *tracker) keyAt(i int) []byte {
	end := len(t.keys)
	if i+1 < len(t.levels) {
		end = t.levels[i+1].keyStart
	}
	return t.keys[t.levels[i].keyStart:end]
}

// endKey records the finished member name and reports whether the object
// already had it.
func (t *tracker) endKey() (duplicate bool) {
	l := &t.levels[len(t.levels)-1]
	h := maphash.Bytes(t.seed, t.key())
	seen := t.hashes[l.hashStart:]
	if len(seen) < smallObject {
		for _, s := range seen {
			if s == h {
				return true
			}
		}
		t.hashes = append(t.hashes, h)
		if len(seen)+1 == smallObject {
			for _, s := range t.hashes[l.hashStart:] {
				t.bigAdd(l.serial, s)
			}
		}
		return false
	}
	return !t.bigAdd(l.serial, h)
}

// bigAdd adds a name hash of object serial to the shared set and reports
// whether it was new.
func (t *tracker) bigAdd(serial, h uint64) bool {
	if t.big == nil {
		t.big = map[uint64]struct{}{}
	}
	k := h ^ (serial * 0x9E3779B97F4A7C15)
	if _, ok := t.big[k]; ok {
		return false
	}
	t.big[k] = struct{}{}
	return true
}

// path renders the RFC 6901 pointer of the value depth levels deep on the
// current path (len(levels) for the member being read, one less for the
// innermost container itself), or its longest ancestor of at most max
// bytes, and reports whether it was cut.
func (t *tracker) path(depth, max int) (string, bool) {
	var buf [128]byte
	p, cut := t.appendPath(buf[:0], depth, max)
	return string(p), cut
}

// prependMember puts the token of the current member or element of the
// container at level depth before p.
func (v *Validator) prependMember(p *pointerTail, depth int) {
	if l := &v.track.levels[depth]; l.object {
		p.prepend(v.track.keyAt(depth), 0)
	} else {
		p.prepend(nil, l.index)
	}
}

// promisedPath is the pointer of the element that a ',' after the
// current element of the array at level depth promises: path(depth+1,
// max) with that array one element further on.
func (t *tracker) promisedPath(depth, max int) (string, bool) {
	l := &t.levels[depth]
	l.index++
	p, cut := t.path(depth+1, max)
	l.index--
	return p, cut
}

// appendPath appends path(depth, max) to p, token by token: a token that
// would take the pointer past max bytes ends it before it is escaped, and
// cut reports that.
func (t *tracker) appendPath(p []byte, depth, max int) (_ []byte, cut bool) {
	start := len(p)
	for i := range depth {
		l := t.levels[i]
		if l.object && !l.hasKey || !l.object && l.index < 0 {
			break // between members: the path ends at the container
		}
		mark := len(p)
		p = append(p, '/')
		if !l.object {
			p = strconv.AppendInt(p, l.index, 10)
		} else {
			end := len(t.keys)
			if i+1 < len(t.levels) {
				end = t.levels[i+1].keyStart
			}
			name := t.keys[l.keyStart:end]
			if len(p)-start+len(name) > max { // escaping only lengthens it
				return p[:mark], true
			}
			p = jsondoc.AppendPointerToken(p, name)
		}
		if len(p)-start > max {
			return p[:mark], true
		}
	}
	return p, false
}
