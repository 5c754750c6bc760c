package testgen

import (
	"math/big"
	"regexp"
	"strings"
)

// This file holds the typed tree of a full JSON Schema (DESIGN.md §8), the
// counterpart of Node for the JSON Schema profile. NewFull builds one at
// random (fullschema.go), FullSchema.Doc writes it in its dialect
// (fulldoc.go), and FullValid and FullInvalid build arguments for it
// (fullinstance.go).

// Dialect is a JSON Schema draft, spelled as its $schema URI.
type Dialect string

// The dialects the generator writes.
const (
	Draft2020 Dialect = "https://json-schema.org/draft/2020-12/schema"
	Draft2019 Dialect = "https://json-schema.org/draft/2019-09/schema"
	Draft7    Dialect = "http://json-schema.org/draft-07/schema#"
	Draft6    Dialect = "http://json-schema.org/draft-06/schema#"
	Draft4    Dialect = "http://json-schema.org/draft-04/schema#"
)

// Dialects lists every dialect the generator writes, newest first.
var Dialects = []Dialect{Draft2020, Draft2019, Draft7, Draft6, Draft4}

// Legacy reports a dialect before 2019-09: subschemas under definitions,
// dependencies for dependentRequired and dependentSchemas, an items array
// with additionalItems, and a $ref that overrides its siblings.
func (d Dialect) Legacy() bool { return d == Draft7 || d == Draft6 || d == Draft4 }

// lacks reports a keyword the tree has a field for that d does not
// define: ParseFull keeps it as an annotation, and NewFull does not
// generate it.
func (d Dialect) lacks(keyword string) bool {
	switch d {
	case Draft2019:
		return keyword == "prefixItems"
	case Draft7:
		return since2019Keywords[keyword]
	case Draft6:
		return since2019Keywords[keyword] || conditionalKeywords[keyword]
	case Draft4:
		return since2019Keywords[keyword] || conditionalKeywords[keyword] || draft6Keywords[keyword]
	}
	return false
}

// draft4Inclusive names the bound each draft-04 exclusive flag makes
// exclusive (exclusiveMinimum: true beside minimum).
var draft4Inclusive = map[string]string{"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"}

var (
	// since2019Keywords are the keywords 2019-09 and 2020-12 added.
	since2019Keywords = setOf("prefixItems", "dependentRequired", "dependentSchemas", "unevaluatedItems",
		"unevaluatedProperties", "minContains", "maxContains", "$anchor")
	// conditionalKeywords are the keywords draft-07 added.
	conditionalKeywords = setOf("if", "then", "else")
	// draft6Keywords are the keywords draft-06 added.
	draft6Keywords = setOf("const", "contains", "propertyNames")
)

// FullSchema is one generated JSON Schema document: a root schema and the
// named schemas its references point to.
type FullSchema struct {
	// Dialect decides the keywords' spelling and meaning.
	Dialect Dialect
	// WriteSchema writes $schema at the root; without it the document
	// relies on 2020-12 being the default (only for Draft2020).
	WriteSchema bool
	// Root is the root schema.
	Root *FullNode
	// Defs are written under $defs (definitions before 2019-09) at the root,
	// in order. A Def's schema may refer to itself and to any other Def
	// under a keyword that moves to a member or an element, but in place
	// (allOf, anyOf, oneOf, not, if/then/else, $ref) only to Defs before
	// it, so that no reference cycle consumes no input.
	Defs []Def
}

// Def is one named schema under $defs.
type Def struct {
	Name string
	// Anchor, when set, is written as the schema's $anchor (2019-09 and
	// later), and references may use "#" + Anchor.
	Anchor string
	Schema *FullNode
}

// Def returns the Def called name, or nil.
func (s *FullSchema) Def(name string) *Def {
	for i := range s.Defs {
		if s.Defs[i].Name == name {
			return &s.Defs[i]
		}
	}
	return nil
}

// FullNode is one schema of a FullSchema. Absent keywords have their zero
// value, except the counts, which are -1 when absent (newFullNode sets
// them): a FullNode is meant to come from NewFull.
type FullNode struct {
	// Bool, when not nil, makes the node the boolean schema true or false;
	// every other field is then unused.
	Bool *bool

	// Types is the type keyword: one name, or a list when TypeList is set
	// (possibly with "null", possibly empty). Nil: no type keyword.
	Types    []string
	TypeList bool

	// Enum lists the allowed values (nil: absent; empty: "enum": []).
	Enum []any
	// Const is the one allowed value when HasConst is set.
	Const    any
	HasConst bool

	// Number bounds, exact, or nil.
	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum, MultipleOf *big.Rat

	// String lengths in code points; -1: absent.
	MinLength, MaxLength int
	// Pattern is the pattern keyword, or nil.
	Pattern *Pattern
	// Format is an annotation unless format assertion is on ("": absent).
	Format string

	// PrefixItems are the positional item schemas (written as an items
	// array before 2020-12).
	PrefixItems []*FullNode
	// Items constrains the elements after PrefixItems (additionalItems
	// before 2020-12 when PrefixItems are present), or is nil.
	Items *FullNode
	// Contains, with MinContains and MaxContains (-1: absent), or nil.
	Contains                 *FullNode
	MinContains, MaxContains int
	// MinItems and MaxItems bound the element count; -1: absent.
	MinItems, MaxItems int
	UniqueItems        bool
	UnevaluatedItems   *FullNode

	// Properties are the declared properties, in document order.
	Properties []FullProp
	// PatternProperties constrain members whose names match.
	PatternProperties []PatternProp
	// AdditionalProperties constrains the other members, or is nil.
	AdditionalProperties *FullNode
	// PropertyNames constrains every name, or is nil.
	PropertyNames *FullNode
	// Required lists required names, possibly undeclared.
	Required []string
	// DependentRequired (dependencies with a list, before 2019-09).
	DependentRequired []Dependency
	// DependentSchemas (dependencies with a schema, before 2019-09).
	DependentSchemas []FullProp
	// MinProperties and MaxProperties bound the member count; -1: absent.
	MinProperties, MaxProperties int
	UnevaluatedProperties        *FullNode

	// In-place applicators.
	AllOf, AnyOf, OneOf []*FullNode
	Not, If, Then, Else *FullNode
	// Ref names the Def the node refers to ("": none); ByAnchor writes
	// the reference as "#" + the Def's anchor.
	Ref      string
	ByAnchor bool

	// Annotations are members that never change what the node accepts
	// (title, description, default, examples, $comment, deprecated) and
	// unknown keywords, which JSON Schema ignores; written as they are.
	Annotations Object
}

// FullProp is one named subschema: a property, or a dependentSchemas
// entry.
type FullProp struct {
	Name   string
	Schema *FullNode
}

// PatternProp is one patternProperties entry.
type PatternProp struct {
	Pattern *Pattern
	Schema  *FullNode
}

// Dependency is one dependentRequired entry: when Name is present, so
// must Requires be.
type Dependency struct {
	Name     string
	Requires []string
}

// Pattern is a regular expression of pattern or patternProperties. The
// generator draws from a fixed list of simple ones that Go's RE2 and
// ECMA-262 read alike, with strings known to match and not to match;
// ParseFull reads any other.
type Pattern struct {
	Source string
	// Anchored reports a pattern that starts with ^: a prefix of a string
	// can rule out every match.
	Anchored bool
	// Samples match the pattern; Misses do not (both empty for a pattern
	// ParseFull read).
	Samples, Misses []string
	re              *regexp.Regexp
}

// NewPattern compiles source, with no samples.
func NewPattern(source string) (*Pattern, error) {
	re, err := regexp.Compile(source)
	if err != nil {
		return nil, err
	}
	return &Pattern{Source: source, Anchored: strings.HasPrefix(source, "^"), re: re}, nil
}

// Match reports whether the pattern matches somewhere in s.
func (p *Pattern) Match(s string) bool { return p.re.MatchString(s) }

// knownPattern returns a pattern of the generator's list.
func knownPattern(source string, samples, misses []string) *Pattern {
	p, err := NewPattern(source)
	if err != nil {
		panic(err)
	}
	p.Samples, p.Misses = samples, misses
	return p
}

// patterns are the patterns the generator uses. Every one is plain RE2
// and means the same in ECMA-262: no ., \s or Unicode classes, whose
// meanings differ.
var patterns = []*Pattern{
	knownPattern("^[a-z]+$", []string{"a", "abc", "update"}, []string{"", "A", "a1", "é"}),
	knownPattern("^a", []string{"a", "ab", "abc"}, []string{"", "b", "ba"}),
	knownPattern("b$", []string{"b", "ab", "日本b"}, []string{"", "a", "ba"}),
	knownPattern("[0-9]", []string{"1", "a1b", "2024"}, []string{"", "abc", "é"}),
	knownPattern("^[0-9]{2,4}$", []string{"12", "1234"}, []string{"1", "12345", "ab"}),
	knownPattern("x|y", []string{"x", "ay", "xyz"}, []string{"", "ab"}),
	knownPattern("^(foo|bar)", []string{"foo", "barx", "foobar"}, []string{"", "fo", "xfoo"}),
	knownPattern("é", []string{"é", "café"}, []string{"e", "e\u0301"}),
	knownPattern("^[^,]{2}$", []string{"ab", "日本", "😀x"}, []string{"", "a", "a,"}),
	knownPattern("^$", []string{""}, []string{"a"}),
	knownPattern("[A-Z]", []string{"A", "aBc"}, []string{"", "abc"}),
	knownPattern("^[a-z_]*$", []string{"", "file_path", "id"}, []string{"A", "a b", "é"}),
	knownPattern("ab+c", []string{"abc", "xabbbc"}, []string{"ac", "abd"}),
	knownPattern("^\\w+$", []string{"a", "a_1"}, []string{"", "a-b", "é"}),
}

// Patterns returns the patterns the generator draws from.
func Patterns() []*Pattern { return patterns }
