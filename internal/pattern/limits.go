package pattern

// Limits bound the work and memory of compiling one pattern or one set. A
// field ≤ 0 takes its default; the zero Limits is the defaults. Past any of
// them Compile and CompileSet return an *Error of Kind Limit, never
// unbounded time or memory. Matching costs a few table lookups per byte
// whatever the limits.
type Limits struct {
	// MaxNesting bounds how deep an expression nests: groups and classes
	// while it is parsed, and the height of its syntax tree, where each
	// group, repetition, alternation and concatenation is a level.
	// Default DefaultMaxNesting (1000). RE2 syntax is also refused past
	// 1000 by Go's own parser.
	MaxNesting int
	// MaxProgram bounds the compiled program, in instructions, after
	// repetitions are expanded: a{50} is 50 instructions. For a set it is
	// the sum over the set. Default DefaultMaxProgram (10,000); at most
	// 16,777,216.
	MaxProgram int
	// MaxDFABytes bounds the memory of the automaton, while it is built
	// and once built (its UTF-8 trie, transition table, dead bits and
	// bitsets). Default DefaultMaxDFABytes (2 MiB); at most 2 GiB. The
	// automaton's live ranges (see Matcher.GrowsWithin) count too, but
	// are left out, not refused, when they would not fit, as they are
	// past MaxCompileSteps.
	MaxDFABytes int
	// MaxCompileSteps bounds the work of building classes and the
	// automaton, counted in elementary steps (an instruction visited, a
	// range marked, a table cell compared: roughly 10–40 ns each). Default
	// DefaultMaxCompileSteps (10,000,000).
	MaxCompileSteps int
	// MaxSetParts bounds the automata a Set may be split into when one
	// for all its expressions would pass MaxDFABytes (see Set); matching
	// costs a few table lookups per byte for each. Default
	// DefaultMaxSetParts (8); 1 never splits.
	MaxSetParts int
	// Budget, when set, is compile work this compile shares with others
	// (see Budget): it may spend at most what is left of it, besides
	// MaxCompileSteps, and what it spends is taken from it, whether it
	// compiles or is refused.
	Budget *Budget
}

// A Budget is compile work, in the steps of Limits.MaxCompileSteps, and
// automaton memory, in the bytes of Limits.MaxDFABytes, that several
// compiles share: a caller that compiles the patterns of one document
// gives them one Budget, so the document's compile work, and the memory
// its automata hold, are bounded however many patterns it holds (each of
// them is bounded by MaxCompileSteps and MaxDFABytes alone). A compile
// that starts with too little left is refused with a Limit error; one may
// overshoot the steps that were left by the work of the stage that
// noticed, so they can end below zero, but never the bytes: a compile may
// build an automaton of at most the bytes left. A Budget is not safe for
// concurrent use.
type Budget struct{ steps, left, bytes, bytesLeft int }

// NewBudget returns a budget of steps of work and bytes of automata; bytes
// ≤ 0 leaves the automata together unbounded (each is still bounded by
// MaxDFABytes).
func NewBudget(steps, bytes int) *Budget {
	return &Budget{steps: steps, left: steps, bytes: bytes, bytesLeft: bytes}
}

// BytesLeft returns the bytes of automata the budget still allows, or
// zero or less once they are spent; it is meaningless for a budget of
// unbounded bytes.
func (b *Budget) BytesLeft() int { return b.bytesLeft }

// Bytes returns the budget's bytes, as NewBudget was given them.
func (b *Budget) Bytes() int { return b.bytes }

// Left returns the steps not spent yet; zero or less once the budget is
// spent.
func (b *Budget) Left() int { return b.left }

// Steps returns the budget's size, as NewBudget was given it.
func (b *Budget) Steps() int { return b.steps }

// The defaults of Limits.
const (
	DefaultMaxNesting      = 1000
	DefaultMaxProgram      = 10_000
	DefaultMaxDFABytes     = 2 << 20
	DefaultMaxCompileSteps = 10_000_000
	DefaultMaxSetParts     = 8
)

// The caps on Limits.MaxDFABytes and MaxProgram: a larger value means
// the cap. They keep premultiplied state numbers within uint32 and
// program size estimates within int64.
const (
	MaxDFABytesCap = 1 << 31
	MaxProgramCap  = 1 << 24
)

// withDefaults returns l with every field ≤ 0 set to its default.
func (l Limits) withDefaults() Limits {
	if l.MaxNesting <= 0 {
		l.MaxNesting = DefaultMaxNesting
	}
	if l.MaxProgram <= 0 {
		l.MaxProgram = DefaultMaxProgram
	}
	l.MaxProgram = min(l.MaxProgram, MaxProgramCap)
	if l.MaxDFABytes <= 0 {
		l.MaxDFABytes = DefaultMaxDFABytes
	}
	l.MaxDFABytes = min(l.MaxDFABytes, MaxDFABytesCap)
	if l.MaxCompileSteps <= 0 {
		l.MaxCompileSteps = DefaultMaxCompileSteps
	}
	if l.MaxSetParts <= 0 {
		l.MaxSetParts = DefaultMaxSetParts
	}
	return l
}
