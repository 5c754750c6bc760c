package validator

import (
	"bytes"

	"github.com/toolgate/toolgate/internal/decimal"
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// This file holds the number keywords: minimum, maximum, their exclusive
// forms, multipleOf, integer, and the number choices of enum and const.
// The number's value is read once per value (Validator.num); each
// evaluation prunes its own choices digit by digit (and, once the digits
// are final, exponent by exponent) and rejects a bound, or "integer", as
// soon as no completion of the digits can satisfy it.

// numState is one evaluation's progress through a number.
type numState struct {
	choice     [2]numMatcher // enum and const choices still possible
	choiceOn   [2]bool
	choiceFail [2]int64 // where the value left every choice, or -1
	boundFail  [4]boundFailure
	intFail    int64 // where a negative exponent left no integer, or -1
	residue    decimal.Residue
}

// boundFailure records where a bound keyword was decided violated (off -1:
// not yet).
type boundFailure struct {
	keyword string
	off     int64
}

// hasBounds reports whether n has a bound that the digits may decide
// before the number ends.
func hasBounds(n *schema.Node) bool {
	return n.Minimum != nil || n.Maximum != nil || n.ExclusiveMinimum != nil || n.ExclusiveMaximum != nil
}

// integerOnly reports whether n allows integers but no other number.
func integerOnly(n *schema.Node) bool { return n.Types&schema.TypeNumber == 0 }

func (v *Validator) startNumber(e *eval) {
	e.num.choiceOn, e.num.choiceFail, e.num.intFail = [2]bool{}, [2]int64{-1, -1}, -1
	for i, k := range [...]string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		e.num.boundFail[i] = boundFailure{k, -1}
	}
	if e.node.MultipleOf != nil {
		e.num.residue.Reset(*e.node.MultipleOf)
	}
}

// numberText handles a piece of a number for every evaluation of frame
// fr. The shared value is fed byte by byte only when some evaluation
// watches its bounds digit by digit, an integer-only one may meet an
// exponent (the only part that can rule an integer out), or an enum or
// const waits on the exponent.
func (v *Validator) numberText(fr int32, p []byte, off int64) {
	f := &v.frames[fr]
	before := f.excerpt.len()
	f.excerpt.write(p)
	stepwise, integers, exponents := false, false, false
	for _, e := range f.evals {
		if !e.listening() {
			continue
		}
		v.steps++
		v.numberChoicesText(e, p, off, before)
		if e.node.MultipleOf != nil {
			e.num.residue.Write(p)
		}
		stepwise = stepwise || hasBounds(e.node)
		integers = integers || integerOnly(e.node) && e.num.intFail < 0
		exponents = exponents || e.num.choicesInExponent()
	}
	integers = integers && (v.num.InExponent() || bytes.ContainsAny(p, "eE"))
	if !stepwise && !integers && !exponents {
		v.num.Write(p)
		return
	}
	var lo, hi decimal.Bound
	// The bounds are checked again only when what the number can reach
	// may have moved: a mantissa's digits after the first do not move it,
	// so "12.5" costs one check, not four, until its exponent. checked
	// starts as ReachByExponent, which is always checked: nothing is yet.
	checked := decimal.ReachByExponent
	for i := range p {
		v.num.Write(p[i : i+1])
		check := false
		if stepwise {
			if r := v.num.Reach(); r != checked || r == decimal.ReachByExponent {
				lo, hi = v.num.Reachable()
				checked, check = r, true
			}
		}
		for _, e := range f.evals {
			if !e.listening() {
				continue
			}
			if check && hasBounds(e.node) {
				v.steps++
				v.checkBounds(e, &lo, &hi, off+int64(i), before+i+1)
			}
			if integers && integerOnly(e.node) && e.num.intFail < 0 && !v.num.CanBeInteger() {
				e.num.intFail = off + int64(i)
				v.violateEarly(e, "type", e.num.intFail, before+i+1)
			}
			if exponents && v.num.InExponent() {
				v.numberChoicesExponent(e, off+int64(i), before+i+1)
			}
		}
	}
}

// checkBounds rejects e's number when no value in [lo, hi] (the values
// its digits can still reach) satisfies a bound.
func (v *Validator) checkBounds(e *eval, lo, hi *decimal.Bound, off int64, quoted int) {
	n := e.node
	checks := [4]bool{
		n.Minimum != nil && below(hi, n.Minimum, false),
		n.Maximum != nil && above(lo, n.Maximum, false),
		n.ExclusiveMinimum != nil && below(hi, n.ExclusiveMinimum, true),
		n.ExclusiveMaximum != nil && above(lo, n.ExclusiveMaximum, true),
	}
	for i, violated := range checks {
		if b := &e.num.boundFail[i]; violated && b.off < 0 {
			b.off = off
			v.violateEarly(e, b.keyword, off, quoted)
		}
	}
}

// below reports whether every value up to hi is below m (or at most m, when
// m itself is excluded).
func below(hi *decimal.Bound, m *decimal.Decimal, exclusive bool) bool {
	if hi.Inf {
		return false
	}
	c := decimal.Compare(&hi.Value, m)
	return c < 0 || c == 0 && (hi.Open || exclusive)
}

// above reports whether every value from lo on is above m (or at least m,
// when m itself is excluded).
func above(lo *decimal.Bound, m *decimal.Decimal, exclusive bool) bool {
	if lo.Inf {
		return false
	}
	c := decimal.Compare(&lo.Value, m)
	return c > 0 || c == 0 && (lo.Open || exclusive)
}

// numberChoicesText prunes e's enum and const number choices.
func (v *Validator) numberChoicesText(e *eval, p []byte, off int64, before int) {
	for i, c := range choiceSets(e.node) {
		if !e.num.choiceOn[i] || e.num.choiceFail[i] >= 0 {
			continue
		}
		if j := e.num.choice[i].feed(c.set, p, &v.steps); j >= 0 {
			e.num.choiceFail[i] = off + int64(j)
			v.violateEarly(e, c.keyword, e.num.choiceFail[i], before+j+1)
		}
	}
}

// waitsOnExponent reports whether choice set i (enum, const) waits on
// the number's exponent: its digits equal some choices', and the exponent
// is being read.
func (n *numState) waitsOnExponent(i int) bool {
	m := &n.choice[i]
	return n.choiceOn[i] && n.choiceFail[i] < 0 && m.inExp && m.tlo < m.thi
}

// choicesInExponent reports whether the enum or the const waits on the
// number's exponent.
func (n *numState) choicesInExponent() bool { return n.waitsOnExponent(0) || n.waitsOnExponent(1) }

// numberChoicesExponent refuses e's number, at off, by an enum or const
// whose choices with the number's digits all need an exponent that the
// exponent read so far can no longer become (v.num has read the number
// up to off).
func (v *Validator) numberChoicesExponent(e *eval, off int64, quoted int) {
	for i, c := range choiceSets(e.node) {
		if !e.num.waitsOnExponent(i) {
			continue
		}
		v.steps++
		if !e.num.choice[i].exponentFits(c.set, &v.num, &v.steps) {
			e.num.choiceFail[i] = off
			v.violateEarly(e, c.keyword, off, quoted)
		}
	}
}

// endNumber checks what only the whole number decides.
func (v *Validator) endNumber(e *eval, off int64) {
	n := e.node
	d := v.num.Value()
	f := &v.frames[e.fr]
	vio := violation{node: n, off: off, got: jsontok.Number, excerpt: f.excerpt, complete: true}
	if integerOnly(n) && e.num.intFail < 0 && !d.IsInteger() {
		vio.keyword = "type"
		v.violate(e, vio)
	}
	exact := [4]bool{
		n.Minimum != nil && decimal.Compare(&d, n.Minimum) < 0,
		n.Maximum != nil && decimal.Compare(&d, n.Maximum) > 0,
		n.ExclusiveMinimum != nil && decimal.Compare(&d, n.ExclusiveMinimum) <= 0,
		n.ExclusiveMaximum != nil && decimal.Compare(&d, n.ExclusiveMaximum) >= 0,
	}
	for i, violated := range exact {
		if violated && e.num.boundFail[i].off < 0 {
			vio.keyword = e.num.boundFail[i].keyword
			v.violate(e, vio)
		}
	}
	if n.MultipleOf != nil && !e.num.residue.Multiple(d) {
		vio.keyword = "multipleOf"
		v.violate(e, vio)
	}
	for i, c := range choiceSets(n) {
		if e.num.choiceOn[i] && e.num.choiceFail[i] < 0 && !c.set.HasNumber(d) {
			vio.keyword = c.keyword // the digits fit a choice, the exponent or length did not
			v.violate(e, vio)
		}
	}
}

// numMatcher prunes number choices digit by digit. A choice is still
// possible while the number's significant digits so far (D) are a prefix
// of the choice's, or equal the choice's followed only by zeros: the
// choices of the number's sign whose digits start with D form one range of
// Enum.NumberDigits, found by binary search per digit. Once the exponent
// begins the digits are final, and the choices equal to them form a run
// ordered by exponent, which each byte of the exponent narrows
// (exponentFits); the decimal point is compared when the number ends.
type numMatcher struct {
	lo, hi   int  // choices whose digits start with D
	pos      int  // len(D)
	tail     bool // some choice's digits equal D without its trailing zeros
	started  bool // a non-zero digit was read
	signSeen bool
	inExp    bool
	dead     bool
	// lo, hi and pos at the last non-zero digit (its choices equal to D
	// come first); from the exponent on, [tlo, thi) is only the run of
	// choices equal to D.
	tlo, thi, tpos int
}

func (m *numMatcher) reset(set *schema.Enum) {
	*m = numMatcher{hi: len(set.NumberDigits)}
}

// feed reads a piece of number text and returns the index in p of the
// byte after which no choice is possible, or -1. Each probe of the binary
// searches is counted in *steps.
func (m *numMatcher) feed(set *schema.Enum, p []byte, steps *int64) int {
	if m.dead || m.inExp {
		return -1
	}
	for i, c := range p {
		switch {
		case c == '-' && !m.signSeen:
			m.signSeen = true
			m.lo = m.positives(set, steps)
			if m.lo >= m.hi && !set.HasZero { // no negative choice, and -0 is not one either
				m.dead = true
				return i
			}
			continue
		case c == '.':
			continue
		case c == 'e' || c == 'E':
			m.inExp = true
			if !m.started && !set.HasZero || m.started && !m.tail {
				m.dead = true
				return i
			}
			if m.started { // zero stays zero whatever the exponent
				m.thi = m.runEnd(set, steps)
			}
			return -1
		}
		if !m.signSeen {
			m.signSeen = true
			m.hi = m.positives(set, steps)
		}
		if c == '0' && !m.started {
			if !set.HasZero && m.lo >= m.hi {
				m.dead = true
				return i
			}
			continue
		}
		m.narrow(set, c, steps)
		if c != '0' {
			m.started = true
			m.tail = m.lo < m.hi && len(set.Numbers[set.NumberDigits[m.lo]].Digits) == m.pos
			m.tlo, m.thi, m.tpos = m.lo, m.hi, m.pos
		}
		if m.lo >= m.hi && !m.tail {
			m.dead = true
			return i
		}
	}
	return -1
}

// runEnd returns the end of the run of choices equal to D: in [tlo, thi)
// they come first, before the longer ones.
func (m *numMatcher) runEnd(set *schema.Enum, steps *int64) int {
	first, end := m.tlo, m.thi
	for first < end {
		*steps++
		mid := int(uint(first+end) >> 1)
		if len(set.Numbers[set.NumberDigits[mid]].Digits) > m.tpos {
			end = mid
		} else {
			first = mid + 1
		}
	}
	return first
}

// exponentFits reports whether a choice of the run has an exponent that
// the exponent a has read can still become: one binary search over the
// run per range of decimal.Accumulator.ExpRanges that meets the run's
// exponents, so at most one per order of magnitude they span.
func (m *numMatcher) exponentFits(set *schema.Enum, a *decimal.Accumulator, steps *int64) bool {
	exp := func(i int) int64 { return set.Numbers[set.NumberDigits[i]].Exp }
	least, most := exp(m.tlo), exp(m.thi-1)
	fits := false
	a.ExpRanges(func(lo, hi int64) bool {
		if hi < least || lo > most {
			return true // no choice of the run there
		}
		first, end := m.tlo, m.thi // the first choice with an exponent from lo on
		for first < end {
			*steps++
			mid := int(uint(first+end) >> 1)
			if exp(mid) >= lo {
				end = mid
			} else {
				first = mid + 1
			}
		}
		fits = first < m.thi && exp(first) <= hi
		return !fits
	})
	return fits
}

// positives returns the index in NumberDigits of the first negative
// choice.
func (m *numMatcher) positives(set *schema.Enum, steps *int64) int {
	lo, hi := 0, len(set.NumberDigits)
	for lo < hi {
		*steps++
		mid := int(uint(lo+hi) >> 1)
		if set.Numbers[set.NumberDigits[mid]].Neg {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// narrow keeps the choices whose digits continue D with c.
func (m *numMatcher) narrow(set *schema.Enum, c byte, steps *int64) {
	digits := func(i int) []byte { return set.Numbers[set.NumberDigits[i]].Digits }
	first, end := m.lo, m.hi
	for first < end {
		*steps++
		mid := int(uint(first+end) >> 1)
		if d := digits(mid); len(d) > m.pos && d[m.pos] >= c {
			end = mid
		} else {
			first = mid + 1
		}
	}
	end = m.hi
	for l := first; l < end; {
		*steps++
		mid := int(uint(l+end) >> 1)
		if digits(mid)[m.pos] > c {
			end = mid
		} else {
			l = mid + 1
		}
	}
	m.lo, m.hi, m.pos = first, end, m.pos+1
}
