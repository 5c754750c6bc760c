package pattern

import (
	"bufio"
	"os"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDerivedPropertiesMatchUCD checks each property the package derives
// from Go's tables against the Unicode data file that defines it.
func TestDerivedPropertiesMatchUCD(t *testing.T) {
	t.Parallel()
	require.Equal(t, "15.0.0", unicode.Version, "testdata/ucd is Unicode 15.0.0: regenerate it (see its PROVENANCE.md) for Go's Unicode version")
	f, err := os.Open("testdata/ucd/derived-15.0.0.txt")
	require.NoError(t, err)
	defer f.Close()
	want := map[string]runeSet{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		for _, r := range fields[1:] {
			lo, hi, ok := strings.Cut(r, "-")
			if !ok {
				hi = lo
			}
			a, err := strconv.ParseUint(lo, 16, 32)
			require.NoError(t, err)
			b, err := strconv.ParseUint(hi, 16, 32)
			require.NoError(t, err)
			want[fields[0]] = append(want[fields[0]], rune(a), rune(b))
		}
	}
	require.NoError(t, sc.Err())
	require.Len(t, want, 9)
	for name, set := range want {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			derive, ok := derivedProperties[name]
			require.True(t, ok)
			assert.Equal(t, set.normalize(), derive())
		})
	}
}

// ecmaBinaryProperties is the table of binary Unicode properties of
// ECMA-262 (2025), canonical name → alias ("" if none).
var ecmaBinaryProperties = map[string]string{
	"ASCII": "", "ASCII_Hex_Digit": "AHex", "Alphabetic": "Alpha", "Any": "", "Assigned": "",
	"Bidi_Control": "Bidi_C", "Bidi_Mirrored": "Bidi_M", "Case_Ignorable": "CI", "Cased": "",
	"Changes_When_Casefolded": "CWCF", "Changes_When_Casemapped": "CWCM",
	"Changes_When_Lowercased": "CWL", "Changes_When_NFKC_Casefolded": "CWKCF",
	"Changes_When_Titlecased": "CWT", "Changes_When_Uppercased": "CWU", "Dash": "",
	"Default_Ignorable_Code_Point": "DI", "Deprecated": "Dep", "Diacritic": "Dia", "Emoji": "",
	"Emoji_Component": "EComp", "Emoji_Modifier": "EMod", "Emoji_Modifier_Base": "EBase",
	"Emoji_Presentation": "EPres", "Extended_Pictographic": "ExtPict", "Extender": "Ext",
	"Grapheme_Base": "Gr_Base", "Grapheme_Extend": "Gr_Ext", "Hex_Digit": "Hex",
	"IDS_Binary_Operator": "IDSB", "IDS_Trinary_Operator": "IDST", "ID_Continue": "IDC",
	"ID_Start": "IDS", "Ideographic": "Ideo", "Join_Control": "Join_C",
	"Logical_Order_Exception": "LOE", "Lowercase": "Lower", "Math": "",
	"Noncharacter_Code_Point": "NChar", "Pattern_Syntax": "Pat_Syn",
	"Pattern_White_Space": "Pat_WS", "Quotation_Mark": "QMark", "Radical": "",
	"Regional_Indicator": "RI", "Sentence_Terminal": "STerm", "Soft_Dotted": "SD",
	"Terminal_Punctuation": "Term", "Unified_Ideograph": "UIdeo", "Uppercase": "Upper",
	"Variation_Selector": "VS", "White_Space": "space", "XID_Continue": "XIDC", "XID_Start": "XIDS",
}

// TestBinaryProperties checks that every binary property of ECMA-262 is
// either run (from a Go table or derived) or refused as Unsupported, by its
// name and its alias, and that nothing else is accepted.
func TestBinaryProperties(t *testing.T) {
	t.Parallel()
	known := len(goBinary) + len(derivedProperties) + len(missingBinary)
	assert.Equal(t, len(ecmaBinaryProperties), known, "each property is in exactly one list")
	for _, name := range goBinary {
		assert.Contains(t, unicode.Properties, name)
	}
	aliases := 0
	for name, alias := range ecmaBinaryProperties {
		names := []string{name}
		if alias != "" {
			names = append(names, alias)
			aliases++
		}
		for _, n := range names {
			set, err := binarySet(n)
			switch {
			case slices.Contains(missingBinary, name):
				require.NotNil(t, err, n)
				assert.Equal(t, Unsupported, err.kind, n)
			default:
				require.Nil(t, err, n)
				assert.NotEmpty(t, set, n)
			}
		}
	}
	assert.Len(t, binaryAliases, aliases, "no alias ECMA-262 does not list")
	for _, n := range []string{"Hyphen", "Other_Alphabetic", "alphabetic", "Alpha ", "L&", "RGI_Emoji"} {
		_, err := binarySet(n)
		require.NotNil(t, err, n)
		assert.Equal(t, Malformed, err.kind, n)
	}
}

// TestGeneralCategories checks every General_Category value name of
// PropertyValueAliases.txt, by itself and with gc= and General_Category=.
func TestGeneralCategories(t *testing.T) {
	t.Parallel()
	for _, names := range [][]string{
		{"C", "Other"}, {"Cc", "Control", "cntrl"}, {"Cf", "Format"}, {"Cn", "Unassigned"},
		{"Co", "Private_Use"}, {"Cs", "Surrogate"}, {"L", "Letter"}, {"LC", "Cased_Letter"},
		{"Ll", "Lowercase_Letter"}, {"Lm", "Modifier_Letter"}, {"Lo", "Other_Letter"},
		{"Lt", "Titlecase_Letter"}, {"Lu", "Uppercase_Letter"}, {"M", "Mark", "Combining_Mark"},
		{"Mc", "Spacing_Mark"}, {"Me", "Enclosing_Mark"}, {"Mn", "Nonspacing_Mark"},
		{"N", "Number"}, {"Nd", "Decimal_Number", "digit"}, {"Nl", "Letter_Number"},
		{"No", "Other_Number"}, {"P", "Punctuation", "punct"}, {"Pc", "Connector_Punctuation"},
		{"Pd", "Dash_Punctuation"}, {"Pe", "Close_Punctuation"}, {"Pf", "Final_Punctuation"},
		{"Pi", "Initial_Punctuation"}, {"Po", "Other_Punctuation"}, {"Ps", "Open_Punctuation"},
		{"S", "Symbol"}, {"Sc", "Currency_Symbol"}, {"Sk", "Modifier_Symbol"},
		{"Sm", "Math_Symbol"}, {"So", "Other_Symbol"}, {"Z", "Separator"},
		{"Zl", "Line_Separator"}, {"Zp", "Paragraph_Separator"}, {"Zs", "Space_Separator"},
	} {
		want := tableSet(unicode.Categories[names[0]])
		require.NotEmpty(t, want, names[0])
		for _, n := range names {
			for _, text := range []string{n, "gc=" + n, "General_Category=" + n} {
				set, err := propertySet(text)
				require.Nil(t, err, text)
				assert.Equal(t, want, set, text)
			}
		}
	}
	// C includes the unassigned code points, as Unicode defines it.
	c, err := propertySet("C")
	require.Nil(t, err)
	assert.True(t, c.contains(0x0378))
}

// TestScriptAliases checks the generated alias table against Go's scripts:
// every script Go has is reachable by its long name, and every alias leads
// to a script Go has (or to Unknown and Katakana_Or_Hiragana, which it
// builds).
func TestScriptAliases(t *testing.T) {
	t.Parallel()
	require.Equal(t, unicode.Version, scriptAliasesVersion, "regenerate scripts_table.go with gen_scripts.go")
	for long := range unicode.Scripts {
		assert.Equal(t, long, scriptAliases[long], long)
	}
	for alias, long := range scriptAliases {
		set, err := scriptSet(alias)
		require.Nil(t, err, alias)
		switch long {
		case "Katakana_Or_Hiragana":
			assert.Empty(t, set)
		case "Unknown":
			assert.True(t, set.contains(0x0378))
			assert.False(t, set.contains('a'))
		default:
			assert.Equal(t, tableSet(unicode.Scripts[long]), set, alias)
		}
	}
	assert.Equal(t, scriptAliases["Qaai"], "Inherited")
	assert.Equal(t, scriptAliases["Zyyy"], "Common")
}

// TestFixedSets checks \s, \d, \w and . against their ECMA-262 definitions.
func TestFixedSets(t *testing.T) {
	t.Parallel()
	whiteSpace := union(setOf('\t', '\t', '\v', '\f', 0xFEFF, 0xFEFF), tableSet(unicode.Zs))
	assert.Equal(t, union(whiteSpace, lineTerminators), spaceSet)
	for r := rune(0); r < 0x80; r++ {
		assert.Equal(t, r >= '0' && r <= '9', digitSet.contains(r))
		assert.Equal(t, syntax.IsWordChar(r), wordSet.contains(r))
	}
	for _, r := range []rune{'\n', '\r', 0x2028, 0x2029} {
		assert.False(t, dotSet.contains(r))
	}
	assert.True(t, dotSet.contains(0x85)) // NEL is not a line terminator in ECMA-262
	assert.True(t, dotSet.contains(unicode.MaxRune))
}
