package testgen

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// tokenTails returns the ways to finish the token the prefix ends in
// ("" alone when it ends between tokens). A string's tails end with its
// closing quote; a number's leave it complete, to be ended by whatever
// follows.
func (st *scanState) tokenTails(d *Dictionary) []string {
	switch {
	case st.inString:
		return st.stringTails(d)
	case st.number != nil:
		return numberTails(st.number, d.Numbers)
	case st.literal != "":
		return []string{st.literal}
	}
	return []string{""}
}

// stringTails finishes a string or a name: into each dictionary string
// its content begins, with each dictionary string appended, with a few
// characters of every width, or at once. An escape sequence begun is
// finished into the character each of those needs, and into each
// character of the dictionary's strings (and of a few more), the string
// ending there: whatever an escape spells, some keyword may want just
// that one character (a pattern's [a-z]).
func (st *scanState) stringTails(d *Dictionary) []string {
	var out []string
	if len(st.escape) > 0 {
		for _, w := range d.Strings {
			if !strings.HasPrefix(w, string(st.decoded)) || len(w) == len(st.decoded) {
				continue
			}
			c, size := utf8.DecodeRuneInString(w[len(st.decoded):])
			if rest, ok := escapeFor(st.escape, c); ok {
				out = append(out, rest+escapeContent(w[len(st.decoded)+size:])+`"`)
			}
		}
		for _, c := range escapeProbes(d) {
			if rest, ok := escapeFor(st.escape, c); ok {
				out = append(out, rest+`"`)
			}
		}
	}
	lead := st.pendingLead()
	for _, w := range d.Strings {
		// A UTF-8 sequence begun is finished by w's own bytes.
		if len(st.escape) == 0 && strings.HasPrefix(w, string(st.decoded)) {
			out = append(out, escapeContent(w[len(st.decoded):])+`"`)
		}
		out = append(out, lead+escapeContent(w)+`"`) // what an unanchored pattern matches at the end
	}
	for _, t := range []string{"", "a", "é", "😀", "0", `\u00e9`, "aaaaaaaaaaaaaaaaaaaaaaaa", "x y"} {
		out = append(out, lead+t+`"`)
	}
	return uniqueStrings(out)
}

// maxEscapeProbes bounds the characters an escape begun is finished into
// besides the dictionary's continuations.
const maxEscapeProbes = 48

// escapeProbes returns the characters of the dictionary's strings, then a
// few common ones, each once, at most maxEscapeProbes.
func escapeProbes(d *Dictionary) []rune {
	var out []rune
	seen := map[rune]bool{}
	add := func(s string) {
		for _, c := range s {
			if len(out) < maxEscapeProbes && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	for _, w := range d.Strings {
		add(w)
	}
	add("az_AZ09- \n\"\\é😀")
	return out
}

// escapeFor returns the rest of the escape sequence begun (a backslash
// and what followed it) that makes it spell c, if one can.
func escapeFor(begun []byte, c rune) (string, bool) {
	var whole []string
	if i := strings.IndexRune("\"\\/\b\f\n\r\t", c); i >= 0 {
		whole = append(whole, `\`+`"\/bfnrt`[i:i+1])
	}
	if c > 0xFFFF {
		high, low := utf16.EncodeRune(c)
		whole = append(whole, fmt.Sprintf(`\u%04x\u%04x`, high, low))
	} else {
		whole = append(whole, fmt.Sprintf(`\u%04x`, c))
	}
	for _, w := range whole {
		if len(w) >= len(begun) && strings.EqualFold(w[:len(begun)], string(begun)) {
			return w[len(begun):], true
		}
	}
	return "", false
}

// pendingLead returns what must come first to finish an escape sequence
// or a UTF-8 sequence the prefix broke off in.
func (st *scanState) pendingLead() string {
	if len(st.escape) > 0 {
		for _, c := range []rune{'A', '\n', 'é', '😀', '0'} {
			if rest, ok := escapeFor(st.escape, c); ok {
				return rest
			}
		}
		// A lone surrogate begun: finish the sequence; the result is not
		// acceptable JSON to the tokenizer under test.
		switch n := len(st.escape); {
		case n == 7:
			return "n"
		case n < 6:
			return strings.Repeat("0", 6-n)
		default:
			return strings.Repeat("0", 12-n)
		}
	}
	// A UTF-8 sequence begun: finish it with the least continuation bytes
	// that make it valid.
	d := st.decoded
	start := len(d)
	for start > 0 && len(d)-start < 3 && d[start-1]&0xC0 == 0x80 {
		start--
	}
	if start == 0 || d[start-1] < 0xC0 {
		return ""
	}
	seq := d[start-1:]
	if utf8.FullRune(seq) {
		return ""
	}
	for _, b := range []byte{0x80, 0x90, 0xA0, 0xBF} {
		fill := slices.Clone(seq)
		for !utf8.FullRune(fill) {
			fill = append(fill, b)
		}
		if utf8.Valid(fill) {
			return string(fill[len(seq):])
		}
	}
	return ""
}

// escapeContent writes s as the inside of a JSON string: quotes,
// backslashes and control characters escaped, every other byte as it is
// (so that it may finish a UTF-8 sequence begun before it).
func escapeContent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xF])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// numberTails finishes number text t: with digits, a fraction and
// exponents that make it far larger or smaller, and into each of nums its
// digits can still reach.
func numberTails(t []byte, nums []*big.Rat) []string {
	p := parseNumber(t)
	var out []string
	switch {
	case len(p.int) == 0:
		out = []string{"0", "1", "5", "9", "0.5", "1e-400", "1e400", "0.0", "12", "0e5"}
	case p.exp != nil && len(p.exp) == 0 && p.expSign == 0:
		out = []string{"0", "1", "-1", "+1", "-400", "400", "5", "-5"}
	case p.exp != nil && len(p.exp) == 0:
		out = []string{"0", "1", "400", "5"}
	case p.exp != nil:
		out = []string{"", "0", "5", "00", "9", "400"}
	case p.frac != nil && len(p.frac) == 0:
		out = []string{"0", "5", "9", "0001", "5e-400", "9e400", "0e1"}
	case p.frac != nil:
		out = []string{"", "0", "5", "9", "00001", "e-1", "e1", "e-400", "e400", "E+2"}
	default:
		out = []string{"", ".5", ".0", ".000001", "e0", "e-1", "e-5", "e1", "e5", "e-400", "e400", "E+2", ".5e-400", ".5e400"}
		if string(p.int) != "0" {
			out = append(out, "0", "5", "9", "00", "5.5", "0e-400")
		}
	}
	for _, x := range nums {
		if tail, ok := numberToward(t, x); ok {
			out = append(out, tail)
		}
	}
	return uniqueStrings(out)
}

// numberToward returns a tail that makes number text t (a prefix of a
// JSON number) spell exactly x, if one exists.
func numberToward(t []byte, x *big.Rat) (string, bool) {
	p := parseNumber(t)
	if x.Sign() < 0 && !p.neg || x.Sign() > 0 && p.neg {
		return "", false
	}
	digits := string(p.int) + string(p.frac)
	lead := strings.TrimLeft(digits, "0")
	if x.Sign() == 0 {
		if lead != "" {
			return "", false
		}
		switch {
		case len(p.int) == 0, p.frac != nil && len(p.frac) == 0, p.exp != nil && len(p.exp) == 0:
			return "0", true
		}
		return "", true
	}
	want, q, ok := decimalOf(x) // |x| = want × 10^q
	if !ok {
		return "", false
	}
	scale := len(p.frac) // the mantissa's digits stand for digits × 10^-scale
	if p.exp != nil {
		// The mantissa is fixed: only the exponent can still change.
		if lead == "" {
			return "", false
		}
		trimmed := strings.TrimRight(lead, "0")
		if trimmed != want {
			return "", false
		}
		e := q - (len(lead) - len(trimmed)) + scale
		return exponentTail(p, e)
	}
	var appended string
	var zeros int // want is followed by this many zeros in the mantissa
	switch {
	case strings.HasPrefix(want, lead):
		appended = want[len(lead):]
	case strings.HasPrefix(lead, want) && strings.Trim(lead[len(want):], "0") == "":
		zeros = len(lead) - len(want)
	default:
		return "", false
	}
	var tail string
	switch {
	case p.frac != nil:
		if len(p.frac) == 0 && appended == "" {
			appended, zeros = "0", zeros+1 // a digit must follow the point
		}
		tail, scale = appended, scale+len(appended)
	case appended == "":
	case string(p.int) == "0":
		tail, scale = "."+appended, len(appended) // no digit may follow a leading zero
	default:
		tail = appended // digits of the integer part
	}
	if len(p.int) == 0 && tail == "" {
		return "", false
	}
	e := q - zeros + scale
	if e == 0 {
		return tail, true
	}
	et, _ := exponentTail(numberParts{exp: nil}, e)
	return tail + et, true
}

// exponentTail returns the rest of an exponent e, given what p already
// has of it (nothing, or 'e' with a sign and digits so far).
func exponentTail(p numberParts, e int) (string, bool) {
	abs := strconv.Itoa(max(e, -e))
	if p.exp == nil {
		if e < 0 {
			return "e-" + abs, true
		}
		return "e" + abs, true
	}
	switch {
	case e < 0 && p.expSign == '+', e > 0 && p.expSign == '-':
		return "", false
	case e < 0 && p.expSign == 0 && len(p.exp) > 0:
		return "", false
	}
	sign := ""
	if e < 0 && p.expSign == 0 {
		sign = "-"
	}
	typed := strings.TrimLeft(string(p.exp), "0")
	if e == 0 {
		if typed != "" {
			return "", false
		}
		if len(p.exp) == 0 {
			return sign + "0", true
		}
		return "", true
	}
	if !strings.HasPrefix(abs, typed) {
		return "", false
	}
	return sign + abs[len(typed):], true
}

// afterToken returns the state once tail has finished the current token.
func (st *scanState) afterToken(tail string) scanState {
	next := st.clone()
	for i := 0; i < len(tail); i++ {
		next.step(tail[i])
	}
	return next
}

func (st *scanState) clone() scanState {
	c := *st
	c.stack = slices.Clone(st.stack)
	c.decoded = slices.Clone(st.decoded)
	c.escape = slices.Clone(st.escape)
	c.number = slices.Clone(st.number)
	return c
}

// close returns text that ends the document from st: every open container
// closed at once, or, when more is set, now and then after one more
// member or element drawn from d. A member or an element that must come
// (after ':', ',' or at the start of the document) is drawn from d too.
func (st *scanState) close(r *rand.Rand, d *Dictionary, more bool) []byte {
	var out []byte
	value := func() {
		v := d.Values[0]
		if more || r.IntN(2) == 0 {
			v = pick(r, d.Values)
		}
		out = append(out, Compact(v)...)
	}
	member := func() {
		out = append(out, '"')
		out = append(out, escapeContent(pick(r, d.Strings))...)
		out = append(out, `":`...)
		value()
	}
	if st.number != nil {
		st.number = nil
		st.valueDone()
	}
	for {
		switch st.want {
		case wantNothing:
			return out
		case wantValue:
			value()
			st.valueDone()
		case wantKey:
			member()
			st.valueDone()
		case wantColon:
			out = append(out, ':')
			value()
			st.valueDone()
		default: // after '{', '[' or a value inside a container
			top := st.stack[len(st.stack)-1]
			if more && chance(r, 0.3) && len(out) < 200 {
				if st.want == wantCommaOrClose {
					out = append(out, ',')
				}
				if top == '{' {
					member()
				} else {
					value()
				}
				st.want = wantCommaOrClose
				continue
			}
			out = append(out, top+2) // '{'+2 is '}', '['+2 is ']'
			st.stack = st.stack[:len(st.stack)-1]
			st.valueDone()
		}
	}
}
