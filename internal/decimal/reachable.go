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

// Reach names the case Reachable is in. Outside ReachByExponent the case
// alone decides Reachable's answer, so a caller that checked bounds
// against it need not check them again while the case stays the same:
// the digits of a mantissa, for one, never move it.
type Reach uint8

// The cases of Reachable.
const (
	ReachZero        Reach = iota // 0e…: zero whatever follows
	ReachNonNegative              // zero digits so far, no sign: zero or above
	ReachNonPositive              // zero digits so far after a '-'
	ReachPositive                 // a non-zero mantissa: any positive value
	ReachNegative                 // the same after a '-'
	ReachByExponent               // exponent digits: the answer moves with each
)

// Reach returns the case Reachable is in.
func (a *Accumulator) Reach() Reach {
	if a.part == partExp && (a.expSign || a.expSeen) && a.lastNZ != 0 {
		return ReachByExponent
	}
	switch {
	case a.part == partExp && a.lastNZ == 0:
		return ReachZero
	case a.lastNZ == 0 && !a.neg:
		return ReachNonNegative
	case a.lastNZ == 0:
		return ReachNonPositive
	case !a.neg:
		return ReachPositive
	}
	return ReachNegative
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
	openZero := Bound{Value: Decimal{}, Open: true}
	switch a.Reach() {
	case ReachZero:
		return zero, zero
	case ReachNonNegative:
		return zero, inf
	case ReachNonPositive:
		return inf, zero
	case ReachPositive:
		return openZero, inf
	case ReachNegative:
		return inf, openZero
	}
	// The mantissa is final; the exponent so far is E (saturated) with its
	// sign, and more digits only move it further from zero.
	end := a.Value()
	if a.expNeg {
		// Values from just above zero up to m×10^-E.
		if a.neg {
			return Bound{Value: end}, openZero
		}
		return openZero, Bound{Value: end}
	}
	if a.neg {
		return inf, Bound{Value: end}
	}
	return Bound{Value: end}, inf
}
