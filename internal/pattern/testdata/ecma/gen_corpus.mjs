// gen_corpus.mjs writes corpus.json: what V8's own RegExp (flag u) answers
// for the patterns and texts below, the independent expectation of
// TestNodeCorpus (ecma_corpus_test.go). Run it with Node from this folder:
//
//	node gen_corpus.mjs > corpus.json
//
// The texts use only characters whose Unicode properties are the same in
// Go's tables (Unicode 15.0) and in Node's ICU (ZWNJ and ZWJ, which joined
// ID_Continue in Unicode 15.1, are left out), so a difference is a
// translation bug, not a Unicode version skew.
"use strict";

// matchPatterns are well-formed patterns that toolgate must run with the
// same meaning, one or more per translation rule.
const matchPatterns = [
  // literals, alternation, groups, quantifiers (greedy and lazy)
  "a", "abc", "a|b", "a|", "|", "()", "(?:)", "(a|bc)d", "(?:ab)+", "a*", "a+", "a?",
  "a*?", "a+?", "a??", "a{2}", "a{2,}", "a{2,3}", "a{0}", "a{0,1}", "a{2,3}?", "(?:a|b){2}c",
  "(?<name>x)y", "(?<n>a)|(?<m>b)", "((a)|b)+c", "(?:a*)*b", "(?:a|)*b",
  // anchors and word boundaries
  "^", "$", "^$", "^abc$", "^a|b$", "^(?:a|b)$", "\\bfoo\\b", "\\bfoo", "foo\\b", "x\\B",
  "\\Ba", "\\B", "\\b", "é\\b", "\\bé", "a\\b\\.", "(?:\\b)*a", "(?:^)+a", "(?:$)*", "a$|^b",
  // the dot and line terminators
  ".", "^.$", "^..$", "a.c", "^.*$", "[\\s\\S]", "[^]", "[]", "^[^]*$", "a[]", "a[]|b",
  // class escapes
  "\\d", "\\D", "^\\d+$", "\\w", "\\W", "^\\w+$", "\\s", "\\S", "^\\s$", "^\\S$", "^\\s*$",
  "[\\d]", "[^\\d]", "[\\w-]", "[\\d-]", "[-a]", "[a-]", "[\\s\\d]", "[^\\s]", "[^\\S]",
  // character classes
  "[a-z]", "[^a-z]", "^[a-z0-9-]{1,63}$", "[a-c-e]", "[--/]", "[\\b]", "[\\-]", "[\\]]",
  "[\\\\]", "[[]", "[$^]", "[.]", "[*+?]", "[|]", "[()]", "[{}]", "[🐲-🐵]", "[^🐲]",
  "[a-zA-Z_$][a-zA-Z0-9_$]*", "[é-ë]",
  // character escapes
  "\\t", "\\n", "\\v", "\\f", "\\r", "^\\t$", "\\cJ", "\\cj", "\\cC", "\\0", "\\x41",
  "\\x7a", "\\u0041", "\\u00e9", "\\u{1F432}", "\\u{41}", "\\u{0000041}", "\\uD83D\\uDE00",
  "[\\uD83D\\uDE00]", "[\\uD83D\\uDE00-\\uD83D\\uDE4F]", "\\uD83D", "[\\uD800-\\uDFFF]",
  "\\.", "\\/", "\\\\", "\\^", "\\$", "\\*", "\\+", "\\?", "\\(", "\\)", "\\[", "\\]",
  "\\{", "\\}", "\\|", "[\\^]", "[\\/]", "[\\.]",
  // astral code points are one character
  "🐲", "^🐲*$", "^🐲$", "^.🐲$", "🐲+", "^[^a]$", "^\\S$", "^\\W$", "^\\D$",
  // Unicode property escapes
  "\\p{L}", "^\\p{L}+$", "\\P{L}", "^\\P{L}+$", "\\p{Letter}", "\\p{Lu}", "\\p{Ll}",
  "\\p{Uppercase_Letter}", "\\p{Lt}", "\\p{LC}", "\\p{Cased_Letter}", "\\p{N}", "\\p{Nd}",
  "\\p{digit}", "^\\p{digit}+$", "\\p{gc=Nd}", "\\p{General_Category=Decimal_Number}",
  "\\p{P}", "\\p{punct}", "\\p{S}", "\\p{Sm}", "\\p{Sc}", "\\p{Z}", "\\p{Zs}", "\\p{Zl}",
  "\\p{C}", "\\p{Cc}", "\\p{cntrl}", "\\p{Cf}", "\\p{Co}", "\\p{Cn}", "\\p{Unassigned}",
  "\\p{M}", "\\p{Mn}", "\\p{Combining_Mark}", "\\p{sc=Greek}", "\\p{Script=Greek}",
  "\\p{sc=Grek}", "\\p{Script=Latin}", "\\p{sc=Latn}", "\\p{sc=Han}", "\\p{sc=Hani}",
  "\\p{sc=Cyrillic}", "\\p{sc=Common}", "\\p{sc=Zyyy}", "\\p{sc=Inherited}",
  "\\p{sc=Zinh}", "\\p{sc=Qaai}", "\\p{sc=Unknown}", "\\p{sc=Zzzz}", "\\p{sc=Bengali}",
  "\\p{sc=Nko}", "\\p{ASCII}", "\\p{Any}", "\\P{Any}", "\\p{Assigned}", "\\p{Alphabetic}",
  "\\p{Alpha}", "\\p{Lowercase}", "\\p{Lower}", "\\p{Uppercase}", "\\p{Upper}", "\\p{Cased}",
  "\\p{Math}", "\\p{ID_Start}", "\\p{IDS}", "\\p{ID_Continue}", "\\p{IDC}",
  "\\p{Grapheme_Extend}", "\\p{Gr_Base}", "\\p{White_Space}", "\\p{space}",
  "\\p{Hex_Digit}", "\\p{AHex}", "\\p{Dash}", "\\p{Ideographic}", "\\p{Pattern_Syntax}",
  "\\p{Quotation_Mark}", "\\p{Regional_Indicator}", "\\p{Noncharacter_Code_Point}",
  "[\\p{L}\\d]", "[^\\p{L}]", "[\\P{L}]", "[^\\P{L}]", "\\p{L}cole", "\\wcole", "[a-z]cole",
  "^\\p{Lu}\\p{Ll}+$", "\\p{Letter}\\p{Mark}*",
];

// alphabet holds the characters texts are made of: ASCII, Latin-1,
// every \s character, line terminators, other scripts and digits, marks,
// symbols, private use, one unassigned code point, astral characters.
const alphabet = [
  "a", "b", "c", "d", "e", "f", "o", "x", "y", "z", "A", "B", "C", "Z", "_", "$", "0", "1",
  "9", " ", "-", ".", "/", "\\", "^", "*", "(", ")", "[", "]", "{", "}", "|", "?", "+",
  "\t", "\n", "\v", "\f", "\r", "\u0000", "\u0001", "\u0003", "\u0008", "\u007f", "\u0085",
  "\u00a0", "\u00aa", "\u00b2", "\u00c9", "\u00d7", "\u00e9", "\u00eb", "\u00df",
  "\u0130", "\u0131", "\u017f", "\u01c5", "\u0301", "\u0345", "\u0378", "\u03a9", "\u03b1",
  "\u03c0", "\u0416", "\u0436", "\u05d0", "\u0660", "\u07c0", "\u09ea", "\u09e8", "\u1680",
  "\u2000", "\u2003", "\u200a", "\u200b", "\u2013", "\u2028", "\u2029",
  "\u202f", "\u205f", "\u2160", "\u212a", "\u2212", "\u3000", "\u3042", "\u4e2d",
  "\ue000", "\ufeff", "\uffff", "\u{1F1E6}", "\u{1F432}", "\u{1F409}", "\u{1F600}",
  "\u{1F64F}", "\u{1D400}", "\u{20000}", "\u{10FFFD}",
];

// extraTexts are texts every pattern is also tried on.
const extraTexts = [
  "", "abc", "xabc", "abcx", "aab", "ab", "ba", "aa", "aaa", "b", "bc", "bcd", "ad", "abd",
  "foo", "foo bar", " foo", "foox", "xfoo", "foo.", "a.", "a.c", "abc\n", "\nabc", "a\nb",
  "a\rb", "a\u2028b", "é", "eé", "éa", "aé", "école", "l'école", "l'ecole", "L'ÉCOLE",
  "Hello", "hello", "HELLO", "Ǆǅǆ", "42", "-%#", "\u09ea\u09e8", "0x1F", "hello_world-2",
  "🐲", "🐲🐲", "🐉", "🐲a", "a🐲", "😀", "😏", "\ud83d\ude00x", "xy", "xz", "x y",
  "\t", " ", "\u00a0", "\ufeff", "\u2003", "\u3000", "\u2029", "\u0001", "\u2013",
  "$", "^", "\\", "/", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "-",
  "\u0003", "\u0000", "\u0008", "A", "z", "Z", "\u00df", "\u212a", "k", "K",
];

// mulberry32 is a small seeded generator, so the corpus is reproducible.
function mulberry32(seed) {
  return function () {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = mulberry32(20260901);
const randomTexts = [];
for (let i = 0; i < 120; i++) {
  const n = Math.floor(rand() * 7);
  let s = "";
  for (let j = 0; j < n; j++) s += alphabet[Math.floor(rand() * alphabet.length)];
  randomTexts.push(s);
}
const texts = [...new Set([...alphabet, ...extraTexts, ...randomTexts])];

const match = matchPatterns.map((pattern) => {
  const re = new RegExp(pattern, "u");
  // matches[i] is "1" if the pattern matches texts[i], else "0".
  return { pattern, matches: texts.map((t) => (re.test(t) ? "1" : "0")).join("") };
});

// syntaxPatterns are checked for validity only (new RegExp(p, "u") throws
// or not). ES2025 additions that this Node does not have (modifier groups,
// repeated group names in different alternatives) are tested in Go.
const syntaxPatterns = [
  "\\a", "\\e", "\\g", "\\_", "\\ ", "\\é", "\\-", "\\k", "\\k<n>", "\\k<n", "\\c", "\\c1",
  "\\c_", "[\\c1]", "[\\c_]", "\\00", "\\01", "\\0", "\\08", "\\x4", "\\xZZ", "\\x", "\\u12",
  "\\u", "\\u{}", "\\u{110000}", "\\u{10FFFF}", "\\u{0000000041}", "\\u{x}", "\\u{41",
  "\\p", "\\p{", "\\p{}", "\\p{L", "\\pL", "\\p{Foo}", "\\p{Latin}", "\\p{sc=Foo}",
  "\\p{Script=Latin}", "\\p{L=x}", "\\p{gc=Latin}", "\\p{gc=L}", "\\p{General_Category=L}",
  "\\p{general_category=L}", "\\p{letter}", "\\p{Lu }", "\\p{RGI_Emoji}", "\\p{Basic_Emoji}",
  "\\p{Emoji}", "\\p{Script_Extensions=Latin}", "\\p{scx=Grek}", "\\p{scx=Foo}",
  "\\p{Hyphen}", "\\p{Other_Alphabetic}", "\\p{XIDS}", "\\p{Bidi_M}", "\\P{Any}", "\\p{ANY}",
  "(?P<name>x)", "(?P<n>a)(?P=n)", "(?#comment)a", "(?i)abc", "(?ims)abc", "(?", "(?)",
  "(?<name>x)", "(?<n>a)\\k<n>", "(?<n>a)\\k<m>", "(?<n>a)(?<n>b)", "(?<n>(?<n>a))",
  "(?<1a>x)", "(?<a1>x)", "(?<$>x)", "(?<_>x)", "(?<é>x)", "(?<π>x)", "(?<\\u0061>x)",
  "(?<a\\u{62}>x)", "(?<>x)", "(?<a-b>x)", "(?<a", "(?<=a+)b", "(?<!a)b", "(?=a)", "(?!a)",
  "(?=a)*", "(?!a)+", "(?<=a)?", "(?<!a){2}", "(?=a", "^*", "$+", "\\b*", "\\B{2}", "a|*",
  "*", "+a", "?", "a**", "a*+", "a{2}{3}", "a{2}*", "{", "}", "]", "a{", "a{1", "a{1,2",
  "a{,2}", "a{2,1}", "a{1,1}", "a{99999999999999}", "a{1,99999999999}",
  "a{99999999999999999999,1}", "a{0001,2}", "x{1}?", "(", ")", "a)", "(a", "((a)", "[",
  "[a", "[]", "[^]", "[]]", "[z-a]", "[a-a]", "[\\d-z]", "[a-\\d]", "[\\d-]", "[-\\d]",
  "[\\w-\\d]", "[\\p{L}-z]", "[\\p{L}-\\p{N}]", "[\\P{L}-z]", "[a-\\p{L}]",
  "[\\d-\\p{L}]", "[\\p{L}-]", "[-\\p{L}]",
  "[\\B]", "[\\k]", "[\\b]", "[\\-]", "[\\1]", "[\\0]", "[\\/]",
  "[\\_]", "[\\a]", "\\/", "\\1", "(a)\\1", "(a)\\2", "\\1(a)", "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10",
  "(a)\\10", "\\8", "\\9", "\\uD83D\\uDE00", "\\uD83D", "[\\uD83D\\uDE00-\\uD83D\\uDE4F]",
  "[\\uDE00-\\uD83D]", "a|b|", "(?:", "(?:a", "(?:a))", "([abc])+\\s+$", "^(abc]",
  "\\d\\D\\w\\W\\s\\S", "[\\d\\D]", "\\t\\n\\v\\f\\r", "[\\t\\n\\v\\f\\r]", "a{1}b{2,}c{3,4}",
  "\\cA", "\\cz", "[\\cA]", "😀", "[😀-😏]", "[😏-😀]",
];

const syntax = syntaxPatterns.map((pattern) => {
  try {
    new RegExp(pattern, "u");
    return { pattern, valid: true };
  } catch (e) {
    return { pattern, valid: false };
  }
});

// One entry a line, so a change shows as a small diff.
const lines = (xs) => xs.map((x) => "  " + JSON.stringify(x)).join(",\n");
process.stdout.write(`{
 "generator": "gen_corpus.mjs",
 "node": ${JSON.stringify(process.versions.node)},
 "v8": ${JSON.stringify(process.versions.v8)},
 "unicode": ${JSON.stringify(process.versions.unicode)},
 "texts": [
${lines(texts)}
 ],
 "match": [
${lines(match)}
 ],
 "syntax": [
${lines(syntax)}
 ]
}
`);
