package jsondoc

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontok"
)

// Canonical returns the canonical JSON text of v.
func Canonical(v *Value) []byte { return AppendCanonical(nil, v) }

// AppendCanonical appends the canonical JSON text of v to dst.
func AppendCanonical(dst []byte, v *Value) []byte {
	w := canonicalWriter{dst: dst}
	w.value(v)
	return w.dst
}

// AppendReadable appends the canonical JSON text of v with its numbers
// written as a reader writes them (decimal.Decimal.AppendPlain: 0.5 and
// 12.25, not 5e-1 and 1.225e1), for a message that quotes the value: it
// is JSON, of the same value as the canonical text, but not canonical.
func AppendReadable(dst []byte, v *Value) []byte {
	w := canonicalWriter{dst: dst, plain: true}
	w.value(v)
	return w.dst
}

// AppendCanonicalOmitting is AppendCanonical with each value below v
// that omit holds written as {}, an empty object, in its place.
func AppendCanonicalOmitting(dst []byte, v *Value, omit map[*Value]bool) []byte {
	w := canonicalWriter{dst: dst, omit: omit, root: v}
	w.value(v)
	return w.dst
}

// CanonicalUntil is Canonical, giving up once stopped reports true: it
// then returns ErrStopped. It calls stopped before the first value, before
// each value that follows canonicalChunk bytes or more written since the
// last call, and before sorting an object of more than canonicalSortLook
// members, so that a compile whose request ended does not write the rest
// of a large schema (some 10–30 ms a MiB).
func CanonicalUntil(v *Value, stopped func() bool) ([]byte, error) {
	w := canonicalWriter{stopped: stopped, lookedAt: -canonicalChunk} // look before the first value
	if w.value(v); w.gaveUp {
		return nil, ErrStopped
	}
	return w.dst, nil
}

// canonicalChunk is how many bytes CanonicalUntil writes between two
// calls of its stopped, as ParseUntil reads parseChunk.
const canonicalChunk = parseChunk

// canonicalSortLook is the most members CanonicalUntil sorts without
// calling stopped first: sorting 130,000 names takes some 20 ms.
const canonicalSortLook = 1024

// canonicalWriter writes canonical JSON text into dst.
type canonicalWriter struct {
	dst      []byte
	stopped  func() bool // nil: never stops
	lookedAt int         // len(dst) at the last call of stopped
	gaveUp   bool
	omit     map[*Value]bool // values below root written as {}
	root     *Value
	plain    bool // numbers in fixed notation where a reader expects it (see AppendReadable)
}

// look calls stopped when canonicalChunk bytes have been written since the
// last call, or when force is set.
func (w *canonicalWriter) look(force bool) {
	if w.stopped == nil || w.gaveUp || (!force && len(w.dst)-w.lookedAt < canonicalChunk) {
		return
	}
	w.lookedAt, w.gaveUp = len(w.dst), w.stopped()
}

func (w *canonicalWriter) value(v *Value) {
	w.look(false)
	if w.gaveUp {
		return
	}
	if w.omit != nil && v != w.root && w.omit[v] {
		w.dst = append(w.dst, "{}"...)
		return
	}
	switch v.Kind {
	case jsontok.Object:
		if len(v.Members) > canonicalSortLook {
			if w.look(true); w.gaveUp {
				return
			}
		}
		members := slices.Clone(v.Members)
		slices.SortFunc(members, func(a, b Member) int { return strings.Compare(a.Name, b.Name) })
		w.dst = append(w.dst, '{')
		for i, m := range members {
			if w.gaveUp {
				return
			}
			if i > 0 {
				w.dst = append(w.dst, ',')
			}
			w.dst = AppendString(w.dst, []byte(m.Name))
			w.dst = append(w.dst, ':')
			w.value(m.Value)
		}
		w.dst = append(w.dst, '}')
	case jsontok.Array:
		w.dst = append(w.dst, '[')
		for i, item := range v.Items {
			if w.gaveUp {
				return
			}
			if i > 0 {
				w.dst = append(w.dst, ',')
			}
			w.value(item)
		}
		w.dst = append(w.dst, ']')
	case jsontok.String:
		w.dst = AppendString(w.dst, []byte(v.Str))
	case jsontok.Number:
		if !v.Num.InRange() {
			w.dst = append(w.dst, v.Raw...) // beyond exact range: kept as written
		} else if w.plain {
			w.dst = v.Num.AppendPlain(w.dst)
		} else {
			w.dst = v.Num.AppendCanonical(w.dst)
		}
	default:
		w.dst = append(w.dst, v.Kind.String()...)
	}
}

// AppendString appends s as a canonical JSON string, quotes included.
func AppendString(dst, s []byte) []byte {
	dst = append(dst, '"')
	dst = AppendStringBody(dst, s)
	return append(dst, '"')
}

// AppendStringBody appends the canonical escaped form of the decoded string
// bytes s, without quotes. It escapes only '"', '\\' and control bytes, so
// it can be applied to a string piece by piece.
func AppendStringBody(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
