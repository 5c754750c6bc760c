package schema

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/internal/decimal"
)

// finish sorts and de-duplicates the choices, indexes the string ones
// (strs), and builds the digit order that lets a validator prune number
// choices digit by digit.
func (e *Enum) finish(strs []string) {
	slices.Sort(strs)
	e.Strings = IndexNames(slices.Compact(strs))
	slices.Sort(e.Composite)
	e.Composite = slices.Compact(e.Composite)
	slices.SortFunc(e.Numbers, decimal.Decimal.Cmp)
	e.Numbers = slices.CompactFunc(e.Numbers, func(a, b decimal.Decimal) bool { return a.Cmp(b) == 0 })
	e.NumberDigits = e.NumberDigits[:0]
	for i, d := range e.Numbers {
		if d.IsZero() {
			e.HasZero = true
			continue
		}
		e.NumberDigits = append(e.NumberDigits, i)
	}
	slices.SortFunc(e.NumberDigits, func(a, b int) int {
		x, y := e.Numbers[a], e.Numbers[b]
		if x.Neg != y.Neg {
			if x.Neg {
				return 1 // positive choices first
			}
			return -1
		}
		if c := bytes.Compare(x.Digits, y.Digits); c != 0 {
			return c
		}
		return cmp.Compare(x.Exp, y.Exp)
	})
}

// HasComposite reports whether an object (open '{') or array ('[') choice
// exists. Composite is sorted, so its array choices ('[' is 0x5B) come
// before its object choices ('{' is 0x7B): the first choice says whether
// there is an array, the last whether there is an object, with no scan (a
// value checked against an enum of 20,000 arrays and one object scanned
// them all at its first byte, 44 times the cost of an enum of ten).
func (e *Enum) HasComposite(open byte) bool {
	n := len(e.Composite)
	switch {
	case n == 0:
		return false
	case open == '[':
		return e.Composite[0][0] == '['
	case open == '{':
		return e.Composite[n-1][0] == '{'
	}
	return false
}

// admitsNoObject reports whether e is an enum (or const) none of whose
// choices is an object; nil, no enum, admits objects.
func (e *Enum) admitsNoObject() bool {
	return e != nil && !e.HasComposite('{')
}

// noObjectChoice is the finding on a root enum or const (keyword kw) none
// of whose choices is an object: a tool with that schema refuses every
// call.
func noObjectChoice(kw string) string { return noObjectRoot("no choice of this " + kw + " is one") }

// noObjectRoot is the finding on a root schema that accepts no object, for
// the reason why: tool arguments are always one object, so every call
// would be refused.
func noObjectRoot(why string) string {
	return "The root schema must accept a JSON object: tool arguments are always one object, and " + why + ", so every call would be refused."
}

// HasNumber reports whether some number choice equals d exactly.
func (e *Enum) HasNumber(d decimal.Decimal) bool {
	// sort.Search, not slices.BinarySearchFunc: its comparison takes both
	// six-word operands by value.
	i := sort.Search(len(e.Numbers), func(m int) bool { return decimal.Compare(&e.Numbers[m], &d) >= 0 })
	return i < len(e.Numbers) && e.Numbers[i].Equal(d)
}

// HasCanonical reports whether canonical is the canonical text of an
// object or array choice.
func (e *Enum) HasCanonical(canonical []byte) bool {
	_, found := slices.BinarySearchFunc(e.Composite, canonical, func(c string, t []byte) int {
		return strings.Compare(c, string(t))
	})
	return found
}
