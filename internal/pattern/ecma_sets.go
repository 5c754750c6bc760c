package pattern

import (
	"sync"
	"unicode"
)

// The fixed sets of ECMA-262 (u flag, no i flag).
var (
	// lineTerminators are LineTerminator: LF, CR, LS, PS.
	lineTerminators = setOf('\n', '\n', '\r', '\r', 0x2028, 0x2029)
	// dotSet is what . matches: every code point but a line terminator.
	dotSet = lineTerminators.complement()
	// digitSet is \d: ASCII digits only.
	digitSet = setOf('0', '9')
	// wordSet is \w: ASCII letters, digits and _ (WordCharacters without
	// the i flag's extra case folds).
	wordSet = setOf('0', '9', 'A', 'Z', '_', '_', 'a', 'z')
	// spaceSet is \s: WhiteSpace and LineTerminator, where WhiteSpace is
	// TAB, VT, FF, ZWNBSP (U+FEFF) and the Space_Separator category (SP,
	// NBSP, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000).
	spaceSet = setOf(
		'\t', '\r', // TAB LF VT FF CR
		' ', ' ', 0xA0, 0xA0, 0x1680, 0x1680, 0x2000, 0x200A,
		0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000, 0xFEFF, 0xFEFF,
	)
)

// The binary properties that Go's unicode package does not have as a
// table but that DerivedCoreProperties.txt defines from tables it has.
// TestDerivedPropertiesMatchUCD checks each against the Unicode data file.
var derivedProperties = map[string]func() runeSet{
	"ASCII":    func() runeSet { return setOf(0, 0x7F) },
	"Any":      func() runeSet { return setOf(0, unicode.MaxRune) },
	"Assigned": func() runeSet { return tableSet(unicode.Cn).complement() },
	// Lowercase = Ll + Other_Lowercase
	"Lowercase": func() runeSet { return tables(unicode.Ll, unicode.Other_Lowercase) },
	// Uppercase = Lu + Other_Uppercase
	"Uppercase": func() runeSet { return tables(unicode.Lu, unicode.Other_Uppercase) },
	// Cased = Lowercase + Uppercase + Lt
	"Cased": func() runeSet {
		return tables(unicode.Ll, unicode.Other_Lowercase, unicode.Lu, unicode.Other_Uppercase, unicode.Lt)
	},
	// Alphabetic = Lowercase + Uppercase + Lt + Lm + Lo + Nl + Other_Alphabetic
	"Alphabetic": func() runeSet {
		return tables(unicode.Ll, unicode.Other_Lowercase, unicode.Lu, unicode.Other_Uppercase,
			unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl, unicode.Other_Alphabetic)
	},
	// Math = Sm + Other_Math
	"Math": func() runeSet { return tables(unicode.Sm, unicode.Other_Math) },
	// ID_Start = L + Nl + Other_ID_Start - Pattern_Syntax - Pattern_White_Space
	"ID_Start": idStartSet,
	// ID_Continue = ID_Start + Mn + Mc + Nd + Pc + Other_ID_Continue - Pattern_Syntax - Pattern_White_Space
	"ID_Continue": idContinueSet,
	// Grapheme_Extend = Me + Mn + Other_Grapheme_Extend
	"Grapheme_Extend": func() runeSet { return tables(unicode.Me, unicode.Mn, unicode.Other_Grapheme_Extend) },
	// Grapheme_Base = all - Cc - Cf - Cs - Co - Cn - Zl - Zp - Grapheme_Extend
	"Grapheme_Base": func() runeSet {
		return tables(unicode.Cc, unicode.Cf, unicode.Cs, unicode.Co, unicode.Cn, unicode.Zl, unicode.Zp,
			unicode.Me, unicode.Mn, unicode.Other_Grapheme_Extend).complement()
	},
}

var (
	idStartSet = sync.OnceValue(func() runeSet {
		return tables(unicode.L, unicode.Nl, unicode.Other_ID_Start).
			minus(tables(unicode.Pattern_Syntax, unicode.Pattern_White_Space))
	})
	idContinueSet = sync.OnceValue(func() runeSet {
		return union(idStartSet(), tables(unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)).
			minus(tables(unicode.Pattern_Syntax, unicode.Pattern_White_Space))
	})
)

// tables returns the union of Unicode range tables.
func tables(ts ...*unicode.RangeTable) runeSet {
	var s runeSet
	for _, t := range ts {
		s = append(s, tableSet(t)...)
	}
	return s.normalize()
}
