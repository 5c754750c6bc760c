package jsontok

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHexRangeIsExact checks hexRange against brute force: for every
// prefix of one to four hex digits of a \u escape (alone, or the low half
// after a sample of high surrogates), its intervals hold every character
// that some completion of the digits spells, and nothing else.
func TestHexRangeIsExact(t *testing.T) {
	t.Parallel()
	// spelled calls fn with each character the escape of unit spells (after
	// high, for a low half); a lone surrogate spells none.
	spelled := func(unit, high rune, fn func(rune)) {
		switch {
		case high != 0:
			if unit >= 0xDC00 && unit <= 0xDFFF {
				fn(0x10000 + (high-0xD800)<<10 + (unit - 0xDC00))
			}
		case unit >= 0xD800 && unit <= 0xDBFF:
			for low := rune(0xDC00); low <= 0xDFFF; low++ {
				fn(0x10000 + (unit-0xD800)<<10 + (low - 0xDC00))
			}
		case unit < 0xDC00 || unit > 0xDFFF:
			fn(unit)
		}
	}
	in := func(c rune, r CharRange) bool {
		return r.Lo <= c && c <= r.Hi || r.Hi2 != 0 && r.Lo2 <= c && c <= r.Hi2
	}
	size := func(r CharRange) int64 {
		n := int64(r.Hi - r.Lo + 1)
		if r.Hi2 != 0 {
			n += int64(r.Hi2 - r.Lo2 + 1)
		}
		return n
	}
	twice := 0
	for _, high := range []rune{0, 0xD800, 0xD83D, 0xDBFF} {
		for n := 1; n <= 4; n++ {
			if high != 0 && n == 4 {
				continue // the character itself: Text, not a range
			}
			width := rune(1) << (4 * (4 - n))
			for v := rune(0); v < 1<<(4*n); v++ {
				chars, ok := hexRange(v, n, high)
				var count int64
				for unit := v * width; unit < (v+1)*width; unit++ {
					spelled(unit, high, func(c rune) {
						count++
						if !in(c, chars) {
							t.Fatalf("%d digits %X after %X: %U is spelled but not in %+v", n, v, high, c, chars)
						}
					})
				}
				require.Equal(t, count > 0, ok, "%d digits %X after %X", n, v, high)
				if ok {
					require.Equal(t, count, size(chars), "%d digits %X after %X: %+v holds more than is spelled", n, v, high, chars)
					require.True(t, chars.Hi2 == 0 || chars.Lo <= chars.Hi && chars.Hi < chars.Lo2 && chars.Lo2 <= chars.Hi2,
						"the second interval lies above the first: %+v", chars)
				}
				if chars.Hi2 != 0 {
					twice++
				}
			}
		}
	}
	require.Equal(t, 1, twice, "only \\uD needs two intervals")
}
