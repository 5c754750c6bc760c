package decimal

// Bound is one end of an interval of numbers.
type Bound struct {
	// Inf marks an unbounded end (-∞ for a low end, +∞ for a high one).
	Inf bool
	// Value is the end's value when not Inf.
	Value Decimal
	// Open excludes Value itself.
	Open bool
}

// Reachable returns the interval of every value that the number text read
// so far can still end up as, including the text as it stands when it is
// a complete number. It lets a bound reject a number at the first byte no
// completion can satisfy: "-5" is below 0 whatever follows, "5e3" is above
// 100 whatever follows, but "5" may still become 5e-9 or 5e9.
//
// The text must be a prefix of JSON number grammar. Before the exponent a
// non-zero mantissa can still reach any magnitude of its sign (a negative
// or positive exponent may follow), and all-zero digits may also stay
// zero. Once exponent digits arrive the mantissa is final and the exponent
// can only grow in magnitude: a "+" or unsigned exponent E gives at least
// m×10^E, a "-" exponent E at most m×10^-E.
func (a *Accumulator) Reachable() (lo, hi Bound) {
	zero := Bound{Value: Decimal{}}
	inf := Bound{Inf: true}
	if a.part != partExp || !a.expSign && !a.expSeen || a.lastNZ == 0 {
		switch {
		case a.part == partExp && a.lastNZ == 0: // 0e…: zero whatever follows
			return zero, zero
		case a.lastNZ == 0 && !a.neg:
			return zero, inf
		case a.lastNZ == 0:
			return inf, zero
		case !a.neg:
			return Bound{Value: Decimal{}, Open: true}, inf
		}
		return inf, Bound{Value: Decimal{}, Open: true}
	}
	// The mantissa is final; the exponent so far is E (saturated) with its
	// sign, and more digits only move it further from zero.
	end := a.Value()
	if a.expNeg {
		// Values from just above zero up to m×10^-E.
		if a.neg {
			return Bound{Value: end}, Bound{Value: Decimal{}, Open: true}
		}
		return Bound{Value: Decimal{}, Open: true}, Bound{Value: end}
	}
	if a.neg {
		return inf, Bound{Value: end}
	}
	return Bound{Value: end}, inf
}
