package testgen

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file completes prefixes of JSON text into whole documents, for the
// tests of early rejection: a rejection at byte p is sound only if no
// completion of the first p+1 bytes is valid, and exact only if some
// completion of the first p bytes is.

// Dictionary holds what completions are made of: strings and numbers a
// value or a name may be finished into, and whole values to add as
// members and elements.
type Dictionary struct {
	Strings []string
	Numbers []*big.Rat
	Values  []any
}

// Dictionary returns every string, name, number and value that s
// mentions (enum and const values and what they hold, property names,
// required and dependent names, pattern samples, bounds and the numbers
// just beside them), plus a few of every kind.
func (s *FullSchema) Dictionary() *Dictionary {
	d := &Dictionary{Strings: []string{"", "a", "é", "😀"}, Values: []any{nil, true, false, Num("0"), "", Object{}, []any{}}}
	d.Numbers = []*big.Rat{Num("0"), Num("1"), Num("-1"), Num("0.5")}
	seen := map[*FullNode]bool{}
	var walk func(n *FullNode)
	walk = func(n *FullNode) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		for _, v := range n.Enum {
			d.addValue(v)
		}
		if n.HasConst {
			d.addValue(n.Const)
		}
		for _, x := range []*big.Rat{n.Minimum, n.Maximum, n.ExclusiveMinimum, n.ExclusiveMaximum, n.MultipleOf} {
			if x != nil {
				d.Numbers = append(d.Numbers, x, add(x, tiny), new(big.Rat).Sub(x, tiny), add(x, big.NewRat(1, 1)),
					new(big.Rat).Sub(x, big.NewRat(1, 1)))
			}
		}
		if n.Pattern != nil {
			d.Strings = append(d.Strings, n.Pattern.Samples...)
		}
		for _, p := range n.PatternProperties {
			d.Strings = append(d.Strings, p.Pattern.Samples...)
		}
		for _, p := range n.Properties {
			d.Strings = append(d.Strings, p.Name)
		}
		d.Strings = append(d.Strings, n.Required...)
		for _, dep := range n.DependentRequired {
			d.Strings = append(d.Strings, dep.Name)
			d.Strings = append(d.Strings, dep.Requires...)
		}
		for _, sub := range n.children() {
			walk(sub)
		}
	}
	walk(s.Root)
	for _, def := range s.Defs {
		walk(def.Schema)
	}
	d.Strings = uniqueStrings(d.Strings)
	return d
}

// addValue adds v and every string and number inside it.
func (d *Dictionary) addValue(v any) {
	d.Values = append(d.Values, v)
	switch v := v.(type) {
	case string:
		d.Strings = append(d.Strings, v)
	case *big.Rat:
		d.Numbers = append(d.Numbers, v)
	case []any:
		for _, x := range v {
			d.addValue(x)
		}
	case Object:
		for _, m := range v {
			d.Strings = append(d.Strings, m.Name)
			d.addValue(m.Value)
		}
	}
}

// children returns n's subschemas.
func (n *FullNode) children() []*FullNode {
	out := slices.Concat(n.PrefixItems, n.AllOf, n.AnyOf, n.OneOf)
	out = append(out, n.Items, n.Contains, n.UnevaluatedItems, n.AdditionalProperties, n.PropertyNames,
		n.UnevaluatedProperties, n.Not, n.If, n.Then, n.Else)
	for _, p := range n.Properties {
		out = append(out, p.Schema)
	}
	for _, p := range n.PatternProperties {
		out = append(out, p.Schema)
	}
	for _, p := range n.DependentSchemas {
		out = append(out, p.Schema)
	}
	return slices.DeleteFunc(out, func(x *FullNode) bool { return x == nil })
}

func uniqueStrings(list []string) []string {
	slices.Sort(list)
	return slices.Compact(list)
}

// Completions returns up to limit distinct JSON texts that start with
// prefix, made from d: the token the prefix ends in is finished in every
// way d suggests (a string into each dictionary string it begins, a
// number into each dictionary number its digits can still reach, and
// into values far larger and smaller through an exponent), then every
// open container is closed, sometimes after a member or an element more.
// The first completions are the systematic ones (each way of finishing
// the token, closed at once); the rest are drawn with r. A prefix that
// no JSON text starts with has no completions.
func Completions(r *rand.Rand, prefix []byte, d *Dictionary, limit int) [][]byte {
	st, ok := scan(prefix)
	if !ok {
		return nil
	}
	var out [][]byte
	seen := map[string]bool{}
	emit := func(text []byte) {
		if len(out) < limit && !seen[string(text)] {
			seen[string(text)] = true
			out = append(out, text)
		}
	}
	tails := st.tokenTails(d)
	for _, t := range tails {
		after := st.afterToken(t)
		emit(append(append(slices.Clone(prefix), t...), after.close(r, d, false)...))
	}
	for try := 0; len(out) < limit && try < 4*limit; try++ {
		t := pick(r, tails)
		after := st.afterToken(t)
		emit(append(append(slices.Clone(prefix), t...), after.close(r, d, true)...))
	}
	return out
}

// scanState is where a prefix of JSON text stands.
type scanState struct {
	stack []byte // open containers, '{' or '['
	want  want
	// The token the prefix ends inside, if any.
	inString bool
	key      bool   // the string is a member name
	decoded  []byte // the string's content so far, decoded
	escape   []byte // an escape sequence begun but not finished
	number   []byte // the number's text so far
	literal  string // the rest of a literal begun
}

// want is what may come next outside a token.
type want uint8

const (
	wantValue        want = iota // a value (the document's, a member's, an element)
	wantValueOrClose             // after '[': an element or ']'
	wantKeyOrClose               // after '{': a name or '}'
	wantKey                      // after ',' in an object
	wantColon                    // after a name
	wantCommaOrClose             // after a value inside a container
	wantNothing                  // the document is complete
)

// scan reads a prefix of JSON text; ok is false when no JSON text starts
// with it.
func scan(prefix []byte) (st scanState, ok bool) {
	for _, c := range prefix {
		if !st.step(c) {
			return st, false
		}
	}
	return st, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// step reads one byte.
func (st *scanState) step(c byte) bool {
	switch {
	case st.inString:
		return st.stringByte(c)
	case st.number != nil:
		if numberMayContinue(st.number, c) {
			st.number = append(st.number, c)
			return true
		}
		if !numberComplete(st.number) {
			return false
		}
		st.number = nil
		st.valueDone()
		return st.step(c)
	case st.literal != "":
		if c != st.literal[0] {
			return false
		}
		if st.literal = st.literal[1:]; st.literal == "" {
			st.valueDone()
		}
		return true
	case isSpace(c):
		return true
	}
	switch st.want {
	case wantValue, wantValueOrClose:
		if c == ']' && st.want == wantValueOrClose {
			return st.closeContainer('[')
		}
		return st.beginValue(c)
	case wantKeyOrClose, wantKey:
		if c == '}' && st.want == wantKeyOrClose {
			return st.closeContainer('{')
		}
		if c != '"' {
			return false
		}
		st.inString, st.key, st.decoded = true, true, st.decoded[:0]
		return true
	case wantColon:
		if c != ':' {
			return false
		}
		st.want = wantValue
		return true
	case wantCommaOrClose:
		top := st.stack[len(st.stack)-1]
		switch {
		case c == ',' && top == '{':
			st.want = wantKey
		case c == ',':
			st.want = wantValue
		case c == '}' || c == ']':
			return st.closeContainer(top)
		default:
			return false
		}
		return true
	}
	return false // wantNothing: trailing data
}

func (st *scanState) beginValue(c byte) bool {
	switch {
	case c == '{' || c == '[':
		st.stack = append(st.stack, c)
		st.want = wantKeyOrClose
		if c == '[' {
			st.want = wantValueOrClose
		}
	case c == '"':
		st.inString, st.key, st.decoded = true, false, st.decoded[:0]
	case c == '-' || c >= '0' && c <= '9':
		st.number = []byte{c}
	case c == 't':
		st.literal = "rue"
	case c == 'f':
		st.literal = "alse"
	case c == 'n':
		st.literal = "ull"
	default:
		return false
	}
	return true
}

func (st *scanState) closeContainer(open byte) bool {
	if len(st.stack) == 0 || st.stack[len(st.stack)-1] != open {
		return false
	}
	st.stack = st.stack[:len(st.stack)-1]
	st.valueDone()
	return true
}

// valueDone moves past a complete value.
func (st *scanState) valueDone() {
	if len(st.stack) == 0 {
		st.want = wantNothing
	} else {
		st.want = wantCommaOrClose
	}
}

// stringByte reads one byte inside a string or a name.
func (st *scanState) stringByte(c byte) bool {
	if len(st.escape) > 0 {
		st.escape = append(st.escape, c)
		return st.escapeByte()
	}
	switch {
	case c == '"':
		st.inString = false
		if st.key {
			st.want = wantColon
		} else {
			st.valueDone()
		}
	case c == '\\':
		st.escape = append(st.escape[:0], c)
	case c < 0x20:
		return false
	default:
		st.decoded = append(st.decoded, c)
	}
	return true
}

// escapeByte checks the escape sequence so far and decodes it once whole:
// a surrogate pair is one sequence of twelve bytes. A lone surrogate is
// decoded as its code unit's WTF-8 bytes; the tokenizer under test
// decides what it means.
func (st *scanState) escapeByte() bool {
	e := st.escape
	if len(e) == 7 || len(e) == 8 {
		// After a high surrogate escape: the second half, or anything else.
		if want := `\u`[len(e)-7]; e[len(e)-1] != want {
			st.decoded = appendWTF8(st.decoded, hexRune(e[2:6]))
			st.escape = append(st.escape[:0], e[6:]...)
			if len(st.escape) == 1 && st.escape[0] != '\\' {
				c := st.escape[0]
				st.escape = st.escape[:0]
				return st.stringByte(c)
			}
			return st.escapeByte()
		}
		return true
	}
	if len(e) == 2 {
		if i := strings.IndexByte(`"\/bfnrt`, e[1]); i >= 0 {
			st.decoded = append(st.decoded, "\"\\/\b\f\n\r\t"[i])
			st.escape = st.escape[:0]
			return true
		}
		return e[1] == 'u'
	}
	if !isHex(e[len(e)-1]) {
		return false
	}
	switch len(e) {
	case 6:
		if u := hexRune(e[2:]); u < 0xD800 || u > 0xDBFF { // else the pair's second half may follow
			st.decoded = appendWTF8(st.decoded, u)
			st.escape = st.escape[:0]
		}
	case 12:
		high, low := hexRune(e[2:6]), hexRune(e[8:])
		if low >= 0xDC00 && low <= 0xDFFF {
			st.decoded = utf8.AppendRune(st.decoded, utf16.DecodeRune(high, low))
		} else {
			st.decoded = appendWTF8(appendWTF8(st.decoded, high), low)
		}
		st.escape = st.escape[:0]
	}
	return true
}

// hexRune decodes four hex digits.
func hexRune(h []byte) rune {
	var u rune
	for _, c := range h {
		u = u<<4 | rune(hexValue(c))
	}
	return u
}

// appendWTF8 appends u encoded like a code point in UTF-8, surrogates
// included.
func appendWTF8(dst []byte, u rune) []byte {
	if u >= 0xD800 && u <= 0xDFFF {
		return append(dst, 0xED, byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F))
	}
	return utf8.AppendRune(dst, u)
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func hexValue(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// numberMayContinue reports whether number text t followed by c is still
// a prefix of a JSON number.
func numberMayContinue(t []byte, c byte) bool {
	p := parseNumber(t)
	switch {
	case c >= '0' && c <= '9':
		return !(p.exp == nil && p.frac == nil && (string(p.int) == "0"))
	case c == '.':
		return p.frac == nil && p.exp == nil && len(p.int) > 0
	case c == 'e' || c == 'E':
		return p.exp == nil && len(p.int) > 0 && (p.frac == nil || len(p.frac) > 0)
	case c == '-' || c == '+':
		return p.exp != nil && len(p.exp) == 0 && p.expSign == 0
	}
	return false
}

// numberComplete reports whether t is a whole JSON number.
func numberComplete(t []byte) bool {
	p := parseNumber(t)
	return len(p.int) > 0 && (p.frac == nil || len(p.frac) > 0) && (p.exp == nil || len(p.exp) > 0)
}

// numberParts splits a prefix of a JSON number. Nil frac or exp: no '.'
// or exponent yet; empty: begun without a digit.
type numberParts struct {
	neg     bool
	int     []byte
	frac    []byte
	exp     []byte
	expSign byte
}

func parseNumber(t []byte) numberParts {
	var p numberParts
	i := 0
	if i < len(t) && t[i] == '-' {
		p.neg, i = true, i+1
	}
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		p.int = append(p.int, t[i])
	}
	if i < len(t) && t[i] == '.' {
		p.frac, i = []byte{}, i+1
		for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			p.frac = append(p.frac, t[i])
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		p.exp, i = []byte{}, i+1
		if i < len(t) && (t[i] == '-' || t[i] == '+') {
			p.expSign, i = t[i], i+1
		}
		for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			p.exp = append(p.exp, t[i])
		}
	}
	return p
}

// Splices returns completions of prefix that keep the rest of doc, of
// which prefix is the beginning: the token the prefix ends in is finished
// in every way d suggests, and doc continues after that token. They keep
// what doc has later (required members, closing brackets), so they test a
// rejection against documents like the one it was made on.
func Splices(prefix, doc []byte, d *Dictionary) [][]byte {
	st, ok := scan(prefix)
	if !ok || !bytes.HasPrefix(doc, prefix) {
		return nil
	}
	end := st.tokenEnd(doc, len(prefix))
	var out [][]byte
	for _, t := range st.tokenTails(d) {
		out = append(out, slices.Concat(prefix, []byte(t), doc[end:]))
	}
	return out
}

// tokenEnd returns where in doc the token that the scanned prefix
// (doc[:from]) ends inside ends: from itself when it ends between tokens.
func (st *scanState) tokenEnd(doc []byte, from int) int {
	next := st.clone()
	i := from
	for ; i < len(doc); i++ {
		switch {
		case next.number != nil:
			if !numberMayContinue(next.number, doc[i]) {
				return i
			}
		case !next.inString && next.literal == "":
			return i
		}
		next.step(doc[i])
	}
	return i
}
