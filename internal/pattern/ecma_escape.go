package pattern

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escapes and character classes of the ECMA-262 front end, in Unicode
// mode: an escape is either a character, a class of characters (\d, \p{…},
// …), or, outside classes, a back-reference.

// syntaxChars are the characters that u-mode identity escapes may name
// (SyntaxCharacter and /).
const syntaxChars = `^$\.*+?()[]{}|/`

// atomEscape reads an escape outside a class, at the backslash.
func (p *ecmaParser) atomEscape() *syntax.Regexp {
	start := p.pos
	p.pos++ // \
	switch c := p.peek(0); {
	case c >= '1' && c <= '9':
		digits := p.src[p.pos:]
		n := len(digits) - len(strings.TrimLeft(digits, "0123456789"))
		digits = digits[:n]
		p.pos += n
		p.refs = append(p.refs, ecmaRef{offset: start, num: repeatCount(digits), digits: digits})
		p.unsupportConstruct(start, `the back-reference \`+digits)
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	case c == 'k':
		p.pos++
		if !p.eat("<") {
			p.fail(start, `\k`, "without a group name", `write \k<name>`)
		}
		name := p.groupName(start)
		p.refs = append(p.refs, ecmaRef{offset: start, name: name})
		p.unsupportConstruct(start, `the back-reference \k<`+name+">")
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	if set, ok := p.classEscape(start); ok {
		return classNode(set)
	}
	return literalNode(p.characterEscape(start, false))
}

// classEscape reads the class escapes \d \D \s \S \w \W \p{…} \P{…} after
// the backslash, if one is there.
func (p *ecmaParser) classEscape(start int) (runeSet, bool) {
	var set runeSet
	switch p.peek(0) {
	case 'd':
		set = digitSet
	case 'D':
		set = digitSet.complement()
	case 's':
		set = spaceSet
	case 'S':
		set = spaceSet.complement()
	case 'w':
		set = wordSet
	case 'W':
		set = wordSet.complement()
	case 'p', 'P':
		p.pos++
		return p.property(start), true
	default:
		return nil, false
	}
	p.pos++
	return set, true
}

// characterEscape reads an escape that stands for one character, after
// the backslash; inClass allows \b (backspace) and \-.
func (p *ecmaParser) characterEscape(start int, inClass bool) rune {
	if !p.more() {
		p.fail(start, `a \`, "at the end of the pattern", `write \\ to match a backslash`)
	}
	c := p.peek(0)
	switch c {
	case 'f':
		p.pos++
		return '\f'
	case 'n':
		p.pos++
		return '\n'
	case 'r':
		p.pos++
		return '\r'
	case 't':
		p.pos++
		return '\t'
	case 'v':
		p.pos++
		return '\v'
	case 'c':
		if l := p.peek(1); l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z' {
			p.pos += 2
			return rune(l) % 32
		}
		p.fail(start, `\c`, "not followed by a letter", `write \cA … \cZ for a control character, or \\c for a backslash and c`)
	case '0':
		if d := p.peek(1); d >= '0' && d <= '9' {
			p.fail(start, `the octal escape \0`+string(d), "", `write \x hex escapes instead, as \x07`)
		}
		p.pos++
		return 0
	case 'x':
		p.pos++
		if v, ok := p.hex(2); ok {
			return v
		}
		p.fail(start, `\x`, "not followed by two hex digits", `write \xHH, or \\x for a backslash and x`)
	case 'u':
		p.pos++
		return p.unicodeEscape(start)
	case 'b', '-':
		if inClass {
			p.pos++
			if c == 'b' {
				return '\b'
			}
			return '-'
		}
	}
	if c < utf8.RuneSelf && (strings.IndexByte(syntaxChars, c) >= 0 || annexBIdentity(c)) {
		p.pos++
		return rune(c)
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	p.fail(start, fmt.Sprintf(`the escape \%c`, r), "", "only punctuation may be escaped to stand for itself: drop the backslash")
	return 0
}

// annexBIdentity reports whether \c, which the u flag forbids, is read as c
// itself, as ECMA-262 Annex B (every browser's grammar without the u
// flag), PCRE, Python and RE2 all read it: an ASCII punctuation character
// or space (\- \: \@ \" \_ …, common in real schemas). Letters are not:
// \a, \e, \z or \A mean something else in other dialects.
func annexBIdentity(c byte) bool {
	return c >= ' ' && c <= '~' && !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
}

// hex reads exactly n hex digits.
func (p *ecmaParser) hex(n int) (rune, bool) {
	if p.pos+n > len(p.src) {
		return 0, false
	}
	var v rune
	for i := range n {
		d := hexDigit(p.src[p.pos+i])
		if d < 0 {
			return 0, false
		}
		v = v<<4 | d
	}
	p.pos += n
	return v, true
}

func hexDigit(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// unicodeEscape reads \uHHHH (joining an escaped surrogate pair into one
// code point, as the u flag does) or \u{H…}, after the u.
func (p *ecmaParser) unicodeEscape(start int) rune {
	if p.eat("{") {
		end := strings.IndexByte(p.src[p.pos:], '}')
		digits := ""
		if end >= 0 {
			digits = p.src[p.pos : p.pos+end]
		}
		var v rune
		for i := 0; i < len(digits); i++ {
			d := hexDigit(digits[i])
			if d < 0 {
				end = -1
				break
			}
			v = v<<4 | d
			if v > unicode.MaxRune {
				p.fail(start, `a \u{…} escape`, "past U+10FFFF", "code points end at 10FFFF")
			}
		}
		if end <= 0 {
			p.fail(start, `\u{`, "not followed by hex digits and }", `write \u{1F600}`)
		}
		p.pos += end + 1
		return v
	}
	v, ok := p.hex(4)
	if !ok {
		p.fail(start, `\u`, "not followed by four hex digits", `write \uHHHH or \u{H…}`)
	}
	if v >= 0xD800 && v <= 0xDBFF && strings.HasPrefix(p.src[p.pos:], `\u`) {
		save := p.pos
		p.pos += 2
		if lo, ok := p.hex(4); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			return (v-0xD800)<<10 | (lo - 0xDC00) + 0x10000
		}
		p.pos = save
	}
	return v
}

// class reads a character class [ … ] or [^ … ] and returns its set.
func (p *ecmaParser) class() runeSet {
	start := p.pos
	p.enter(start)
	defer p.leave()
	p.pos++ // [
	negate := p.eat("^")
	var set runeSet
	merged := 0 // the length of set when last normalized
	for {
		if !p.more() {
			p.fail(start, "a character class", "that is never closed", "close it with ]")
		}
		if p.eat("]") {
			break
		}
		loStart := p.pos
		lo, loKind := p.classAtom()
		if p.peek(0) != '-' || p.pos+1 >= len(p.src) || p.peek(1) == ']' {
			if loKind != atomChar && p.syntaxOnly {
				continue
			}
			p.charge(len(lo))
			set = append(set, lo...)
			if len(set) > 2*merged+classMerge {
				set = set.normalize() // many large escapes in one class stay small
				merged = len(set)
			}
			continue
		}
		p.pos++ // -
		hi, hiKind := p.classAtom()
		if loKind == atomProperty || hiKind == atomProperty {
			// Annex B gives no reading of the same meaning: the u flag
			// refuses it, and without the u flag \p is the letter p.
			p.fail(loStart, "the range "+p.src[loStart:p.pos], "with a property escape for an end", `write \- for a hyphen`)
		}
		if loKind == atomShorthand || hiKind == atomShorthand {
			// Not a range: both ends and the hyphen, as Annex B reads
			// [\w-.] (the u flag refuses it; real schemas write it).
			if !p.syntaxOnly {
				p.charge(len(lo) + len(hi) + 2)
				set = append(append(append(set, lo...), hi...), '-', '-')
			}
			continue
		}
		if lo[0] > hi[0] {
			p.fail(loStart, "the range "+p.src[loStart:p.pos], "with its ends out of order", "write the smaller character first")
		}
		set = append(set, lo[0], hi[0])
	}
	set = set.normalize()
	if negate {
		return set.complement()
	}
	return set
}

// classMerge is the length past which a class being read is normalized.
const classMerge = 1 << 12

// atomKind is what a class atom is, which decides whether it may end a
// range.
type atomKind uint8

const (
	// atomChar is one character, which may end a range.
	atomChar atomKind = iota
	// atomShorthand is \d \D \s \S \w \W: a range with one for an end
	// is read as Annex B reads it, as its ends and the hyphen.
	atomShorthand
	// atomProperty is \p{…} or \P{…}, which ends no range: the u flag
	// refuses it, and Annex B reads \p as p.
	atomProperty
)

// classAtom reads one character or class escape of a class and says
// which it is.
func (p *ecmaParser) classAtom() (runeSet, atomKind) {
	if p.peek(0) != '\\' {
		r := p.nextRune()
		return runeSet{r, r}, atomChar
	}
	start := p.pos
	p.pos++
	if set, ok := p.classEscape(start); ok {
		if c := p.src[start+1]; c == 'p' || c == 'P' {
			return set, atomProperty
		}
		return set, atomShorthand
	}
	switch c := p.peek(0); {
	case c >= '1' && c <= '9':
		p.fail(start, `a back-reference`, "in a class", `write \x hex escapes for characters`)
	case c == 'B' || c == 'k':
		p.fail(start, fmt.Sprintf(`the escape \%c`, c), "in a class", "drop it or escape the backslash")
	}
	r := p.characterEscape(start, true)
	return runeSet{r, r}, atomChar
}

// groupName reads a group name and its closing >, after the <.
func (p *ecmaParser) groupName(start int) string {
	var name strings.Builder
	for first := true; ; first = false {
		if !p.more() {
			p.fail(start, "a group name", "without its closing >", "write (?<name>…)")
		}
		if p.eat(">") {
			if first {
				p.fail(start, "an empty group name", "", "write (?<name>…)")
			}
			return name.String()
		}
		at := p.pos
		var r rune
		if p.eat(`\u`) {
			r = p.unicodeEscape(at)
		} else {
			r = p.nextRune()
		}
		if !identifierChar(r, first) {
			p.fail(at, fmt.Sprintf("the character %q", r), "in a group name", "group names are identifiers: letters, digits, $ and _")
		}
		name.WriteRune(r)
	}
}

// identifierChar reports whether r may start (first) or continue an
// ECMAScript identifier.
func identifierChar(r rune, first bool) bool {
	if r == '$' || r == '_' {
		return true
	}
	if first {
		return idStartSet().contains(r)
	}
	return r == 0x200C || r == 0x200D || idContinueSet().contains(r)
}
