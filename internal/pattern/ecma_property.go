package pattern

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Unicode property escapes \p{…} and \P{…} of ECMA-262 (u flag): a
// General_Category value, a Script or Script_Extensions value, or a binary
// property, by the exact names the specification lists (no loose
// matching). Sets come from Go's unicode tables (unicode.Version);
// properties Go has no exact table for are Unsupported, and a name
// ECMA-262 does not know is Malformed.

// binaryAliases maps the short names of the binary properties ECMA-262
// allows to their long names.
var binaryAliases = map[string]string{
	"AHex": "ASCII_Hex_Digit", "Alpha": "Alphabetic", "Bidi_C": "Bidi_Control",
	"Bidi_M": "Bidi_Mirrored", "CI": "Case_Ignorable", "CWCF": "Changes_When_Casefolded",
	"CWCM": "Changes_When_Casemapped", "CWKCF": "Changes_When_NFKC_Casefolded",
	"CWL": "Changes_When_Lowercased", "CWT": "Changes_When_Titlecased",
	"CWU": "Changes_When_Uppercased", "DI": "Default_Ignorable_Code_Point",
	"Dep": "Deprecated", "Dia": "Diacritic", "EBase": "Emoji_Modifier_Base",
	"EComp": "Emoji_Component", "EMod": "Emoji_Modifier", "EPres": "Emoji_Presentation",
	"Ext": "Extender", "ExtPict": "Extended_Pictographic", "Gr_Base": "Grapheme_Base",
	"Gr_Ext": "Grapheme_Extend", "Hex": "Hex_Digit", "IDC": "ID_Continue",
	"IDS": "ID_Start", "IDSB": "IDS_Binary_Operator", "IDST": "IDS_Trinary_Operator",
	"Ideo": "Ideographic", "Join_C": "Join_Control", "LOE": "Logical_Order_Exception",
	"Lower": "Lowercase", "NChar": "Noncharacter_Code_Point", "Pat_Syn": "Pattern_Syntax",
	"Pat_WS": "Pattern_White_Space", "QMark": "Quotation_Mark", "RI": "Regional_Indicator",
	"SD": "Soft_Dotted", "STerm": "Sentence_Terminal", "Term": "Terminal_Punctuation",
	"UIdeo": "Unified_Ideograph", "Upper": "Uppercase", "VS": "Variation_Selector",
	"XIDC": "XID_Continue", "XIDS": "XID_Start", "space": "White_Space",
}

// goBinary are the binary properties ECMA-262 allows that unicode.Properties
// has under the same name.
var goBinary = []string{
	"ASCII_Hex_Digit", "Bidi_Control", "Dash", "Deprecated", "Diacritic", "Extender",
	"Hex_Digit", "IDS_Binary_Operator", "IDS_Trinary_Operator", "Ideographic",
	"Join_Control", "Logical_Order_Exception", "Noncharacter_Code_Point",
	"Pattern_Syntax", "Pattern_White_Space", "Quotation_Mark", "Radical",
	"Regional_Indicator", "Sentence_Terminal", "Soft_Dotted", "Terminal_Punctuation",
	"Unified_Ideograph", "Variation_Selector", "White_Space",
}

// missingBinary are the binary properties ECMA-262 allows that neither
// Go's tables have nor their definitions can be derived from them.
var missingBinary = []string{
	"Bidi_Mirrored", "Case_Ignorable", "Changes_When_Casefolded",
	"Changes_When_Casemapped", "Changes_When_Lowercased",
	"Changes_When_NFKC_Casefolded", "Changes_When_Titlecased",
	"Changes_When_Uppercased", "Default_Ignorable_Code_Point", "Emoji",
	"Emoji_Component", "Emoji_Modifier", "Emoji_Modifier_Base",
	"Emoji_Presentation", "Extended_Pictographic", "XID_Continue", "XID_Start",
}

// propertyCache keeps the sets built so far, by their escape text (\p{…}
// or \P{…}; only valid names, so it stays small); the sets are never
// modified.
var propertyCache sync.Map

// property reads {Name} or {Name=Value} after \p or \P and returns the
// set of the property, complemented for \P.
func (p *ecmaParser) property(start int) runeSet {
	negate := p.src[start+1] == 'P'
	body, ok := strings.CutPrefix(p.src[p.pos:], "{")
	end := strings.IndexByte(body, '}')
	if !ok || end < 0 {
		p.fail(start, `\`+p.src[start+1:start+2], "not followed by {Name}", `write \p{Letter}, or \\p for a backslash and p`)
	}
	body = body[:end]
	p.pos += end + 2
	for i := 0; i < len(body); i++ {
		if c := body[i]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '=') {
			p.fail(start, `the property escape \p{`+body+"}", "", "property names are letters, digits and _")
		}
	}
	key := p.src[start:p.pos] // \p{…} or \P{…}
	if set, ok := propertyCache.Load(key); ok {
		return set.(runeSet)
	}
	set, err := propertySet(body)
	if err != nil {
		switch err.kind {
		case Malformed:
			p.fail(start, `the unknown Unicode property \p{`+body+"}", "", err.hint)
		default:
			p.unsupport(start, "The pattern uses the Unicode property \\p{%s} at offset %d, which Go's Unicode %s tables do not provide exactly; %s.", body, start, unicode.Version, err.hint)
		}
		return nil
	}
	if negate {
		set = set.complement()
	}
	propertyCache.Store(key, set)
	return set
}

// propertyError says why a property name was refused.
type propertyError struct {
	kind Kind
	hint string
}

// propertySet resolves the text between the braces of \p{…}.
func propertySet(body string) (runeSet, *propertyError) {
	name, value, hasValue := strings.Cut(body, "=")
	if !hasValue {
		if set, ok := categorySet(name); ok {
			return set, nil
		}
		return binarySet(name)
	}
	switch name {
	case "General_Category", "gc":
		if set, ok := categorySet(value); ok {
			return set, nil
		}
		return nil, &propertyError{Malformed, "use a General_Category value such as Letter or Lu"}
	case "Script", "sc":
		return scriptSet(value)
	case "Script_Extensions", "scx":
		if _, err := scriptSet(value); err != nil {
			return nil, err
		}
		return nil, &propertyError{Unsupported, "Go has no Script_Extensions tables; use \\p{Script=" + value + "} if that is close enough"}
	}
	return nil, &propertyError{Malformed, "the property names ECMA-262 allows with a value are General_Category, Script and Script_Extensions (gc, sc, scx)"}
}

// categorySet resolves a General_Category value by its short or long name.
func categorySet(name string) (runeSet, bool) {
	if long, ok := unicode.CategoryAliases[name]; ok {
		name = long
	}
	t, ok := unicode.Categories[name]
	if !ok {
		return nil, false
	}
	return tableSet(t), true
}

// binarySet resolves a lone binary property name.
func binarySet(name string) (runeSet, *propertyError) {
	if long, ok := binaryAliases[name]; ok {
		name = long
	}
	if f, ok := derivedProperties[name]; ok {
		return f(), nil
	}
	if slices.Contains(goBinary, name) {
		return tableSet(unicode.Properties[name]), nil
	}
	if slices.Contains(missingBinary, name) {
		return nil, &propertyError{Unsupported, "list the characters in a class instead"}
	}
	hint := "use a General_Category value such as Letter, or a binary property such as Alphabetic"
	if _, ok := scriptAliases[name]; ok {
		hint = fmt.Sprintf(`a script needs the property name: write \p{Script=%s}`, name)
	}
	return nil, &propertyError{Malformed, hint}
}

// scriptSet resolves a Script value by any of its names.
func scriptSet(value string) (runeSet, *propertyError) {
	long, ok := scriptAliases[value]
	if !ok {
		return nil, &propertyError{Malformed, "use a Script value such as Latin or Latn"}
	}
	switch long {
	case "Unknown": // the code points of no script
		var all runeSet
		for _, t := range unicode.Scripts {
			all = append(all, tableSet(t)...)
		}
		return all.normalize().complement(), nil
	case "Katakana_Or_Hiragana": // a Script_Extensions value only: no code point has it as Script
		return runeSet{}, nil
	}
	t, ok := unicode.Scripts[long]
	if !ok {
		return nil, &propertyError{Unsupported, "list the characters in a class instead"}
	}
	return tableSet(t), nil
}
