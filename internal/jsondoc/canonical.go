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
	switch v.Kind {
	case jsontok.Object:
		members := slices.Clone(v.Members)
		slices.SortFunc(members, func(a, b Member) int { return strings.Compare(a.Name, b.Name) })
		dst = append(dst, '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, []byte(m.Name))
			dst = append(dst, ':')
			dst = AppendCanonical(dst, m.Value)
		}
		return append(dst, '}')
	case jsontok.Array:
		dst = append(dst, '[')
		for i, item := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendCanonical(dst, item)
		}
		return append(dst, ']')
	case jsontok.String:
		return AppendString(dst, []byte(v.Str))
	case jsontok.Number:
		if !v.Num.InRange() {
			return append(dst, v.Raw...) // beyond exact range: kept as written
		}
		return v.Num.AppendCanonical(dst)
	}
	return append(dst, v.Kind.String()...)
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
