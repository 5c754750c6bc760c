// Package pattern compiles regular expressions into automata that match
// a text streamed in pieces, with bounded work per byte, and reject it at
// the first byte no continuation can match. It serves JSON Schema's
// pattern, patternProperties and format "regex" in ECMA-262 syntax, in
// every profile; Go's RE2 syntax is read too.
//
// # API
//
// Compile returns a Pattern; a Matcher, a small value the caller embeds
// and reuses with Reset, runs it over a text: Write returns the index of
// the first byte after which no continuation can match (or -1), Matched
// whether the text so far matches, Dead and Done whether the verdict can
// still change. CompileSet returns a Set, one automaton for many
// expressions (the patternProperties of one object); its SetMatcher says
// which expressions match (Bits) and when none can any more. Valid checks
// the syntax alone. Patterns and Sets are immutable and safe for
// concurrent use; matching allocates nothing. Errors are *Error with a
// Kind: Malformed (not a regular expression), Unsupported (legal, but not
// runnable with the same meaning: look-behind, look-ahead but right after
// a leading ^, back-references, …), Limit
// (past Limits).
//
// # Semantics
//
// A pattern is a search: it matches a text if it matches anywhere in it,
// as JSON Schema's pattern and Go's regexp.MatchString both do (anchor
// with ^ and $ for the whole text). Once a search has matched it stays
// matched, so a caller may stop writing (Done). The text must be valid
// UTF-8: a byte that no valid UTF-8 continues kills the matcher, unless it
// has already matched.
//
// RE2 syntax is read exactly as regexp.Compile reads it, with the same
// meaning; the package's tests use it to check automata against regexp.
// What RE2 leaves out by design (look-around, back-references, atomic
// groups, possessive quantifiers) is Unsupported; anything else
// regexp/syntax rejects is Malformed, except its size and nesting bounds,
// which are Limit.
//
// ECMA-262 syntax is the Pattern grammar of ECMA-262 (2025) with the u
// flag and no other flag, as JSON Schema specifies. The parser produces a
// regexp/syntax tree of the same meaning:
//
//	ECMA-262 (u flag)            runs as
//	^  $                         start and end of the whole text (no multiline)
//	.                            any code point but \n \r U+2028 U+2029
//	\d \D  \w \W                 [0-9] and [A-Za-z0-9_], and their complements
//	\s \S                        WhiteSpace and LineTerminator: \t \v \f, space,
//	                             U+00A0, U+FEFF, the Zs category, \n \r U+2028
//	                             U+2029; and the complement
//	\b \B                        boundaries of ASCII word characters
//	[…] [^…]  [] [^]             the set, its complement over all code points;
//	                             the empty class matches nothing, [^] anything
//	\p{…} \P{…}                  General_Category values (short and long names,
//	                             gc= and General_Category=), Script and sc
//	                             (every alias), binary properties by the names
//	                             of ECMA-262's table: from Go's tables, or
//	                             derived from them as DerivedCoreProperties
//	                             defines (Alphabetic, ID_Start, …)
//	\uHHHH \u{H…} \xHH           code points; an escaped surrogate pair
//	                             \uD83D\uDE00 is one code point
//	\cX \0 \t \n \v \f \r        control characters
//	\^ \$ \\ \. \* … \/ (\- in [])  identity escapes, the only ones u allows
//	\- \: \@ \_ \" …           identity escapes of any ASCII punctuation or
//	                             space, as Annex B reads them (below)
//	(…) (?:…) (?<name>…)         groups (names may repeat across alternatives,
//	                             as ES2025 allows)
//	* + ? {n} {n,} {n,m}, lazy   repetition; lazy forms match the same texts
//
// Annex B: a few forms the u flag refuses are read as ECMA-262 Annex B
// (the grammar of every browser without the u flag) reads them, since real
// schemas write them and their meaning is the same in every dialect: \ and
// an ASCII punctuation character or space stands for that character
// (^\d{4}\-\d{2}$); a class range with \d \D \s \S \w or \W for an end
// is its ends and the hyphen ([\w-.] is \w, - and .), but one with \p{…}
// or \P{…} for an end stays malformed, since without the u flag \p is p
// and [\p{L}-z] is an error or means something else; a { that starts no
// quantifier, and a lone } or ], stand for themselves (^{[a-z]+}$). \ and a
// letter stays malformed: \a, \e, \z, \A mean other things elsewhere.
//
// Look-aheads right after a leading ^ run, as zod's z.email() and
// pydantic's Decimal write them (^(?!\.)(?!.*\.\.)… and
// ^(?!^[-+.]*$)[+-]?…): a pattern ^L1…LkR, each Li (?=Ai) or (?!Ai), with
// no | at its top level and no look-around in R or any Ai, matches a text
// when ^(?:R) matches it and each ^(?:Ai) does for (?= and does not for
// (?!, as ECMA-262 tests a look-ahead at position 0 (^ and $ in Ai keep
// their meaning). Compile builds the k+1 searches as one automaton, as a
// set's, and turns it into the automaton of that verdict before it
// finishes it: a state is dead when no text from it reaches a state where
// the verdict holds, settled when the verdict holds whatever follows, so
// rejection stays exact and matching costs what any pattern's does. Only
// Compile runs them; CompileSet refuses them as Unsupported.
//
// Unsupported: look-behind (?<= (?<!, look-ahead anywhere else (after
// another term, inside a group or another look-around, in a pattern with
// a top-level |, in a set), back-references \1 and \k<name>, modifier
// groups (?i:…), the properties Go's tables cannot give exactly
// (Script_Extensions, Emoji, the Changes_When_* family, Case_Ignorable,
// Bidi_Mirrored, Default_Ignorable_Code_Point, XID_*). Malformed: everything else the u
// flag forbids, such as \a, (?i) and (?P<…>), a quantifier on an
// assertion, \p{Latin} without Script=, and names ECMA-262 does not list. Property sets are Go's, Unicode unicode.Version; code points
// assigned in later versions count as unassigned.
//
// # Bounds
//
// Compiling is bounded by Limits (each has a default; the zero Limits is
// the defaults): MaxNesting bounds recursion, MaxProgram the program (and
// the parse tree), MaxDFABytes the automaton's memory while it is built and
// after, MaxCompileSteps the work of parsing classes, building and
// minimizing. Past any of them Compile returns a Limit error. The program
// is regexp/syntax's, so repetitions are expanded: a{1000} is 1000
// instructions. A Budget (Limits.Budget) bounds the work of many compiles
// together, and the memory of their automata, such as the patterns of one
// schema: each is charged what it took and builds within the bytes left,
// and one that starts with the budget spent is refused.
//
// Matching costs a constant number of table lookups per byte, whatever the
// pattern or the number of expressions in a set. The automaton has two
// layers, both built completely at compile time. A trie, shared by all
// states, reads UTF-8 and names the rune class of each character at its
// last byte (rune classes are the code points every set of the program
// treats alike; identical subtrees are merged). A DFA over rune classes,
// from the subset construction of the union of the programs with an
// unanchored search loop, steps once per character. Empty-width assertions
// are resolved inside it: a state remembers whether the last character was
// a word character or \n, and a transition resolves waiting assertions
// with the next character (or the end). States from which no expression
// can match any more merge into one dead state, and states whose answer
// can no longer change into one sink per answer; the DFA is then minimized
// and its classes merged. For each live state and each trie node inside a
// character, one bit says whether any character completing that node
// leads anywhere but the dead state, so a text is rejected at the first
// byte of a character that cannot fit (prefix viability is exact at every
// byte).
package pattern
