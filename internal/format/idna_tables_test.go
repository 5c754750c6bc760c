package format

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	gofmt "go/format"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/unicode/bidi"
	"golang.org/x/text/unicode/norm"
)

// The IDNA tables in idna_tables.go are derived here, so that a reader can
// see where every code point of them comes from and a Unicode upgrade of
// Go or golang.org/x/text shows up as a failing test rather than as tables
// silently out of step. `go test ./internal/format -run
// TestIDNATablesAreCurrent -update` rewrites the file.

var updateTables = flag.Bool("update", false, "rewrite idna_tables.go from the Unicode data")

const (
	tablesFile      = "idna_tables.go"
	joiningFile     = "testdata/ucd/DerivedJoiningType.txt"
	caseFoldingFile = "testdata/ucd/CaseFolding.txt"
)

func TestIDNATablesAreCurrent(t *testing.T) {
	// Every source of Unicode data must be the same version.
	require.Equal(t, unicode.Version, norm.Version, "golang.org/x/text/unicode/norm")
	require.Equal(t, unicode.Version, bidi.UnicodeVersion, "golang.org/x/text/unicode/bidi")

	joining := readJoiningTypes(t, joiningFile)
	fold := readCaseFolding(t, caseFoldingFile)
	source := renderTables(t, []namedTable{
		{"idnaPValid", "holds the code points that RFC 5892 §3 derives as PVALID\n// (exceptions of §2.6 applied; CONTEXTJ and CONTEXTO ones are not in it).", derivePValid(t, fold)},
		{"nfcMaybe", "holds the code points whose NFC_Quick_Check is Maybe: the last\n// code point of the canonical decomposition of a character NFC composes.", deriveNFCMaybe()},
		{"joiningLeftOrDual", "holds the code points of Joining_Type L or D.", joining["L"] + joining["D"]},
		{"joiningRightOrDual", "holds the code points of Joining_Type R or D.", joining["R"] + joining["D"]},
		{"joiningTransparent", "holds the code points of Joining_Type T.", joining["T"]},
	})
	if *updateTables {
		require.NoError(t, os.WriteFile(tablesFile, source, 0o644))
		return
	}
	current, err := os.ReadFile(tablesFile)
	require.NoError(t, err)
	require.Equal(t, string(source), string(current),
		"%s is stale: run go test ./internal/format -run TestIDNATablesAreCurrent -update", tablesFile)
}

// TestIDNAPropertyExamples checks the derivation on code points whose
// IDNA2008 property RFC 5892 or its IANA registry states outright.
func TestIDNAPropertyExamples(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r      rune
		pvalid bool
		why    string
	}{
		{'a', true, "LDH"}, {'-', true, "LDH"}, {'7', true, "LDH"},
		{'A', false, "upper case is unstable under NFKC_Casefold"},
		{'_', false, "punctuation"}, {' ', false, "white space"},
		{0x00DF, true, "exception: LATIN SMALL LETTER SHARP S"},
		{0x03C2, true, "exception: GREEK SMALL LETTER FINAL SIGMA"},
		{0x0640, false, "exception: ARABIC TATWEEL"},
		{0x3031, false, "exception: VERTICAL KANA REPEAT MARK"},
		{0x00B7, false, "CONTEXTO, not PVALID"},
		{0x0660, false, "CONTEXTO, not PVALID"},
		{0x200C, false, "CONTEXTJ, not PVALID"},
		{0x00E9, true, "é is stable"},
		{0x212A, false, "KELVIN SIGN normalizes to K"},
		{0xFB01, false, "the fi ligature is a compatibility character"},
		{0x0345, false, "COMBINING GREEK YPOGEGRAMMENI case-folds to iota"},
		{0x034F, false, "COMBINING GRAPHEME JOINER is default ignorable"},
		{0x20D0, false, "Combining Diacritical Marks for Symbols block"},
		{0x1100, false, "old Hangul jamo"},
		{0xAC00, true, "a Hangul syllable"},
		{0x4E08, true, "a Han ideograph"},
		{0x0915, true, "DEVANAGARI LETTER KA"},
		{0x094D, true, "DEVANAGARI SIGN VIRAMA (Mn)"},
		{0x1F600, false, "emoji are symbols"},
		{0xE000, false, "private use"},
		{0x0378, false, "unassigned"},
	} {
		assert.Equal(t, tc.pvalid, unicode.Is(idnaPValid, tc.r), "U+%04X: %s", tc.r, tc.why)
	}
}

// idnaExceptions is the table of RFC 5892 §2.6: true for PVALID, false
// for CONTEXTO or DISALLOWED (neither is in the PVALID table).
var idnaExceptions = map[rune]bool{
	0x00DF: true, 0x03C2: true, 0x06FD: true, 0x06FE: true, 0x0F0B: true, 0x3007: true,
	0x00B7: false, 0x0375: false, 0x05F3: false, 0x05F4: false, 0x30FB: false,
	0x0660: false, 0x0661: false, 0x0662: false, 0x0663: false, 0x0664: false,
	0x0665: false, 0x0666: false, 0x0667: false, 0x0668: false, 0x0669: false,
	0x06F0: false, 0x06F1: false, 0x06F2: false, 0x06F3: false, 0x06F4: false,
	0x06F5: false, 0x06F6: false, 0x06F7: false, 0x06F8: false, 0x06F9: false,
	0x0640: false, 0x07FA: false, 0x302E: false, 0x302F: false,
	0x3031: false, 0x3032: false, 0x3033: false, 0x3034: false, 0x3035: false, 0x303B: false,
}

// derivePValid runs the algorithm of RFC 5892 §3 over every code point and
// keeps the PVALID ones. Only a code point in an exception, in LDH or in
// LetterDigits can end PVALID, so the rest is not evaluated.
func derivePValid(t *testing.T, fold caseFolding) []rune {
	var pvalid []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		ok, exception := idnaExceptions[r]
		switch {
		case exception: // F
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-': // K
			ok = true
		case r == 0x200C || r == 0x200D: // H: CONTEXTJ
		default:
			ok = unicode.In(r, unicode.Ll, unicode.Lu, unicode.Lo, unicode.Nd, unicode.Lm, unicode.Mn, unicode.Mc) && // A
				!unstable(t, fold, r) && // B
				!unicode.In(r, unicode.White_Space, unicode.Noncharacter_Code_Point) && !defaultIgnorable(r) && // C
				!inIgnorableBlock(r) && // D
				!oldHangulJamo(r) // I
		}
		if ok {
			pvalid = append(pvalid, r)
		}
	}
	return pvalid
}

// deriveNFCMaybe collects the code points that canonical composition may
// join to what precedes them (UAX #15 §9, NFC_Quick_Check=Maybe): for each
// character that NFC leaves composed, the last code point of its canonical
// decomposition.
func deriveNFCMaybe() []rune {
	maybe := map[rune]bool{}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		composed := string(r)
		decomposed := []rune(norm.NFD.String(composed))
		if len(decomposed) > 1 && norm.NFC.String(string(decomposed)) == composed {
			maybe[decomposed[len(decomposed)-1]] = true
		}
	}
	var runes []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if maybe[r] {
			runes = append(runes, r)
		}
	}
	return runes
}

// unstable is RFC 5892 §2.2: NFKC_Casefold changes the code point. The
// mapping is NFKC, full case folding and removal of default ignorables,
// repeated until nothing changes (UAX #44, DerivedNormalizationProps.txt).
func unstable(t *testing.T, fold caseFolding, r rune) bool {
	s := string(r)
	for range 8 {
		var folded strings.Builder
		for _, c := range norm.NFKC.String(s) {
			if mapped, ok := fold[c]; ok {
				folded.WriteString(mapped)
			} else {
				folded.WriteRune(c)
			}
		}
		next := strings.Map(func(c rune) rune {
			if defaultIgnorable(c) {
				return -1
			}
			return c
		}, norm.NFKC.String(folded.String()))
		if next == s {
			return s != string(r)
		}
		s = next
	}
	require.Failf(t, "NFKC_Casefold does not settle", "U+%04X", r)
	return true
}

// caseFolding maps a code point to its full case folding (statuses C and
// F of CaseFolding.txt); code points that fold to themselves are absent.
type caseFolding map[rune]string

// readCaseFolding reads CaseFolding.txt.
func readCaseFolding(t *testing.T, path string) caseFolding {
	t.Helper()
	fold := caseFolding{}
	readUCD(t, path, "CaseFolding", func(fields []string) {
		if len(fields) < 3 || (fields[1] != "C" && fields[1] != "F") {
			return
		}
		var mapped strings.Builder
		for _, hex := range strings.Fields(fields[2]) {
			mapped.WriteRune(parseCodePoint(t, hex))
		}
		fold[parseCodePoint(t, fields[0])] = mapped.String()
	})
	require.NotEmpty(t, fold, "no foldings in %s", path)
	return fold
}

// defaultIgnorable is the derived Default_Ignorable_Code_Point property
// (DerivedCoreProperties.txt): Other_Default_Ignorable_Code_Point, Cf and
// Variation_Selector, less White_Space, FFF9..FFFB, 13430..13440 and
// Prepended_Concatenation_Mark.
func defaultIgnorable(r rune) bool {
	return unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Cf, unicode.Variation_Selector) &&
		!unicode.In(r, unicode.White_Space, unicode.Prepended_Concatenation_Mark) &&
		!(r >= 0xFFF9 && r <= 0xFFFB) && !(r >= 0x13430 && r <= 0x13440)
}

// inIgnorableBlock is RFC 5892 §2.4: Combining Diacritical Marks for
// Symbols, Musical Symbols, Ancient Greek Musical Notation.
func inIgnorableBlock(r rune) bool {
	return (r >= 0x20D0 && r <= 0x20FF) || (r >= 0x1D100 && r <= 0x1D1FF) || (r >= 0x1D200 && r <= 0x1D24F)
}

// oldHangulJamo is RFC 5892 §2.9: Hangul_Syllable_Type L, V or T
// (HangulSyllableType.txt).
func oldHangulJamo(r rune) bool {
	return (r >= 0x1100 && r <= 0x11FF) || (r >= 0xA960 && r <= 0xA97C) || (r >= 0xD7B0 && r <= 0xD7C6) || (r >= 0xD7CB && r <= 0xD7FB)
}

// codePoints is a set of code points as the text "XXXX..YYYY XXXX ...",
// so that sets from the data file concatenate with +.
type codePoints = string

// readJoiningTypes reads DerivedJoiningType.txt into one set per type.
func readJoiningTypes(t *testing.T, path string) map[string]codePoints {
	t.Helper()
	sets := map[string]codePoints{}
	readUCD(t, path, "DerivedJoiningType", func(fields []string) {
		if len(fields) == 2 {
			sets[fields[1]] += fields[0] + " "
		}
	})
	require.NotEmpty(t, sets["T"], "no Joining_Type T in %s", path)
	return sets
}

// readUCD calls row with the trimmed ";"-separated fields of each data
// line of a Unicode Character Database file, after checking that the file
// is of the Unicode version Go uses.
func readUCD(t *testing.T, path, name string, row func(fields []string)) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(data, []byte("# "+name+"-"+unicode.Version+".txt")),
		"%s is not the Unicode %s file: replace it with the one of the Unicode version Go uses", path, unicode.Version)
	scanner := bufio.NewScanner(bytes.NewReader(data))
	for scanner.Scan() {
		line, _, _ := strings.Cut(scanner.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Split(line, ";")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if fields[len(fields)-1] == "" {
			fields = fields[:len(fields)-1]
		}
		row(fields)
	}
	require.NoError(t, scanner.Err())
}

// parseCodePoint reads one hex code point.
func parseCodePoint(t *testing.T, hex string) rune {
	t.Helper()
	value, err := strconv.ParseUint(hex, 16, 32)
	require.NoError(t, err, hex)
	return rune(value)
}

// namedTable is one table of the generated file; set is either a sorted
// []rune or codePoints text.
type namedTable struct {
	name, doc string
	set       any
}

// renderTables writes the generated file, gofmt'ed.
func renderTables(t *testing.T, tables []namedTable) []byte {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by TestIDNATablesAreCurrent (idna_tables_test.go) from Unicode %s; DO NOT EDIT.\n\n", unicode.Version)
	b.WriteString("package format\n\nimport \"unicode\"\n")
	for _, table := range tables {
		var runes []rune
		switch set := table.set.(type) {
		case []rune:
			runes = set
		case codePoints:
			runes = parseCodePoints(t, set)
		}
		fmt.Fprintf(&b, "\n// %s %s\nvar %s = &unicode.RangeTable{\n", table.name, table.doc, table.name)
		writeRanges(&b, runes)
		b.WriteString("}\n")
	}
	source, err := gofmt.Source(b.Bytes())
	require.NoError(t, err)
	return source
}

// parseCodePoints turns codePoints text into sorted, distinct runes.
func parseCodePoints(t *testing.T, set codePoints) []rune {
	t.Helper()
	in := map[rune]bool{}
	for _, field := range strings.Fields(set) {
		lo, hi, isRange := strings.Cut(field, "..")
		if !isRange {
			hi = lo
		}
		for r := parseCodePoint(t, lo); r <= parseCodePoint(t, hi); r++ {
			in[r] = true
		}
	}
	var runes []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if in[r] {
			runes = append(runes, r)
		}
	}
	return runes
}

// writeRanges writes sorted runes as the R16, R32 and LatinOffset fields
// of a unicode.RangeTable, runs of consecutive code points as one range.
func writeRanges(b *bytes.Buffer, runes []rune) {
	var r16, r32 []string
	latin := 0
	for i := 0; i < len(runes); {
		j := i
		for j+1 < len(runes) && runes[j+1] == runes[j]+1 && (runes[j] != 0xFFFF) {
			j++
		}
		lo, hi := runes[i], runes[j]
		if hi <= 0xFFFF {
			r16 = append(r16, fmt.Sprintf("{0x%04x, 0x%04x, 1},", lo, hi))
			if hi <= unicode.MaxLatin1 {
				latin++
			}
		} else {
			r32 = append(r32, fmt.Sprintf("{0x%x, 0x%x, 1},", lo, hi))
		}
		i = j + 1
	}
	fmt.Fprintf(b, "R16: []unicode.Range16{\n%s\n},\n", strings.Join(r16, "\n"))
	if len(r32) > 0 {
		fmt.Fprintf(b, "R32: []unicode.Range32{\n%s\n},\n", strings.Join(r32, "\n"))
	}
	fmt.Fprintf(b, "LatinOffset: %d,\n", latin)
}

// TestLongestCanonicalDecomposition backs the bound isMailbox puts on an
// idn-email domain before normalizing it: no code point decomposes
// canonically into more than four.
func TestLongestCanonicalDecomposition(t *testing.T) {
	t.Parallel()
	longest := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		longest = max(longest, utf8.RuneCountInString(norm.NFD.String(string(r))))
	}
	assert.Equal(t, 4, longest)
}
