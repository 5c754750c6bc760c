package decimal

// CanEqual reports whether some continuation of the number text read so far
// could equal d: the sign, the significant digits and (once exponent digits
// arrive) the exponent still agree with d. It is the tests' reference, one
// value at a time: TestCanEqualAgainstSearch checks it against a search of
// continuations, and TestExpRangesAgainstCanEqual checks ExpRanges, which
// the validator uses, against it. a must have read at least one byte:
// before any, every number is possible.
func (a *Accumulator) CanEqual(d Decimal) bool {
	if a.lastNZ == 0 {
		// Only zeros so far: zero still matches, and until the exponent a
		// non-zero digit of the right sign may still come.
		return d.IsZero() || a.part != partExp && a.neg == d.Neg
	}
	if d.IsZero() || a.neg != d.Neg || a.lastNZ > int64(len(d.Digits)) {
		return false
	}
	for i, c := range a.digits {
		want := byte('0')
		if i < len(d.Digits) {
			want = d.Digits[i]
		}
		if c != want {
			return false
		}
	}
	if a.part != partExp {
		return true
	}
	if a.lastNZ != int64(len(d.Digits)) {
		return false // the significant digits are final once the exponent starts
	}
	target := d.Exp - a.dp // the exponent the text must end up with
	if !a.expSign && !a.expSeen {
		return true // either sign may still come
	}
	if a.expNeg {
		target = -target
	}
	if target < 0 {
		return false
	}
	if a.exp == 0 {
		return true // no exponent digits yet, or only zeros
	}
	for target > a.exp {
		target /= 10
	}
	return target == a.exp
}
