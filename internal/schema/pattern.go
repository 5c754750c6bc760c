package schema

import (
	"errors"
	"sync"

	"github.com/toolgate/toolgate/internal/pattern"
)

// Pattern is a compiled regular expression for pattern: it must match
// somewhere in the string (an unanchored search). Validators match it
// while the string streams (pattern.Matcher), so a string is rejected at
// the first byte no completion can match.
type Pattern struct {
	// Source is the expression as the schema wrote it.
	Source string
	// Compiled is its automaton.
	Compiled *pattern.Pattern
}

// String returns the pattern's source.
func (p *Pattern) String() string { return p.Source }

// patternFinding turns a pattern compile error into a finding at path
// under keyword kw: malformed (not a regular expression) is VALIDATION;
// unsupported (legal, but not with the same meaning on RE2) is
// UNSUPPORTED_CAPABILITY; an automaton past the limits is
// UNSUPPORTED_CAPABILITY with keyword "limit".
func patternFinding(err error, path, kw string) Finding {
	f := Finding{Code: CodeValidation, Keyword: kw, SchemaPath: path, Message: err.Error(), Offset: -1}
	var pe *pattern.Error
	if errors.As(err, &pe) {
		switch pe.Kind {
		case pattern.Unsupported:
			f.Code = CodeUnsupported
		case pattern.Limit:
			f.Code, f.Keyword = CodeUnsupported, "limit"
		}
	}
	return f
}

// regexps compiles the regular expressions of one schema document: each
// distinct one once, and all of them, sets included, from one budget of
// compile work and automaton memory (Limits.MaxPatternSteps and
// Limits.MaxPatternBytes, or Options.PatternBudget). Each expression is
// bounded by Limits.Pattern too, by default some 0.3 s of work and 2 MiB
// at most; without the budget a document could hold thousands of
// them (1,000 distinct a{999} in 44 KB took 13 s).
type regexps struct {
	limits pattern.Limits // each expression's, with the document's Budget
	memo   map[regexpKey]compiledRegexp
	shared *PatternMemo // Options.PatternMemo, or nil
	spent  bool         // the budget ran out, and that was reported
}

// PatternMemo is what the schemas compiled with it (Options.PatternMemo)
// share of their regular expressions: an expression one of them compiled
// is the others' without a compile of its own, so the same pattern in
// every tool of a toolset (^[A-Za-z0-9_.-]{1,128}$ in each of 300) costs
// their shared PatternBudget once, not once per tool. It holds what the
// budget admitted, so the budget bounds it. It is safe for concurrent use.
type PatternMemo struct {
	mu       sync.Mutex
	patterns map[regexpKey]*Pattern
}

// NewPatternMemo returns an empty PatternMemo.
func NewPatternMemo() *PatternMemo { return &PatternMemo{patterns: map[regexpKey]*Pattern{}} }

// get returns the expression compiled for key, or nil; nil holds none.
func (m *PatternMemo) get(key regexpKey) *Pattern {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.patterns[key]
}

// put records p, compiled for key; nil records nothing.
func (m *PatternMemo) put(key regexpKey, p *Pattern) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.patterns[key] = p
}

type regexpKey struct {
	syn    pattern.Syntax
	source string
}

// compiledRegexp is an expression's compile: its pattern, or the finding
// it got (path aside).
type compiledRegexp struct {
	p       *Pattern
	finding *Finding
}

// newRegexps returns the compiler of a document's expressions, from
// opts.PatternBudget or a budget of their own (opts has its defaults).
func newRegexps(opts Options) regexps {
	budget := opts.PatternBudget
	if budget == nil {
		budget = NewPatternBudget(opts.Limits)
	}
	limits := opts.Limits.Pattern
	limits.Budget = budget
	return regexps{limits: limits, memo: map[regexpKey]compiledRegexp{}, shared: opts.PatternMemo}
}

// regexp compiles source in syntax syn for keyword kw at path, or makes
// its finding and returns nil.
func (c *compiler) regexp(path, kw, source string, syn pattern.Syntax) *Pattern {
	key := regexpKey{syn, source}
	if r, ok := c.regexps.memo[key]; ok {
		if r.finding != nil {
			f := *r.finding
			f.SchemaPath = path
			c.addError(f)
		}
		return r.p
	}
	if p := c.regexps.shared.get(key); p != nil {
		c.regexps.memo[key] = compiledRegexp{p: p}
		return p
	}
	if c.stop.now() {
		return nil // the result is not used
	}
	compiled, err := pattern.Compile(source, syn, c.regexps.limits)
	if err != nil {
		if c.regexpsSpent(path) || c.regexpsFull(path, err) {
			return nil // not memoized: the budget, not the expression, refused it
		}
		f := patternFinding(err, path, kw)
		c.addError(f)
		c.regexps.memo[key] = compiledRegexp{finding: &f}
		return nil
	}
	p := &Pattern{Source: source, Compiled: compiled}
	c.regexps.memo[key] = compiledRegexp{p: p}
	c.regexps.shared.put(key, p)
	return p
}

// pattern compiles a JSON Schema regular expression (pattern, a
// patternProperties name) of any profile: ECMA-262 syntax, as JSON Schema
// defines it; a malformed one, or one Go's RE2 cannot run with the same
// meaning, is a finding at path.
func (c *compiler) pattern(path, kw, source string) *Pattern {
	return c.regexp(path, kw, source, pattern.ECMA262)
}

// regexpSet compiles exprs, each compiled alone already, into one set for
// keyword kw at path, or makes its finding and returns nil.
func (c *compiler) regexpSet(path, kw string, exprs []string) *pattern.Set {
	if c.stop.now() {
		return nil // the result is not used
	}
	set, err := pattern.CompileSet(exprs, pattern.ECMA262, c.regexps.limits)
	if err != nil && !c.regexpsSpent(path) && !c.regexpsFull(path, err) {
		c.addError(patternFinding(err, path, kw))
	}
	return set
}

// regexpsFull reports whether err is the budget's refusal for want of
// bytes, and makes its finding at path: unlike its steps, the budget's
// bytes may still hold a smaller expression after it.
func (c *compiler) regexpsFull(path string, err error) bool {
	var pe *pattern.Error
	if !errors.As(err, &pe) || !pe.Shared {
		return false
	}
	c.unsupported(path, "limit", "The schema's patterns (with those of the schemas compiled with it, such as a toolset's other tools) would hold more than %d bytes "+
		"of automata together, past the limit (Limits.MaxPatternBytes); this pattern was not compiled: use fewer or simpler patterns.",
		c.regexps.limits.Budget.Bytes())
	return true
}

// regexpsSpent reports whether the budget of the document's expressions
// has run out, and makes its finding (at path, the first expression it
// refused) the first time.
func (c *compiler) regexpsSpent(path string) bool {
	if c.regexps.limits.Budget.Left() > 0 {
		return false
	}
	if !c.regexps.spent {
		c.regexps.spent = true
		c.unsupported(path, "limit", "The schema's patterns (with those of the schemas compiled with it, such as a toolset's other tools) take more than %d steps "+
			"to compile together, past the limit (Limits.MaxPatternSteps); this pattern and those after it were not compiled: use fewer or simpler patterns.",
			c.regexps.limits.Budget.Steps())
	}
	return true
}
