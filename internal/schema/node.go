package schema

import (
	"github.com/toolgate/toolgate/internal/decimal"
	"github.com/toolgate/toolgate/internal/pattern"
)

// Profile names a subset of JSON Schema: which keywords a schema may use and
// how they are enforced.
type Profile uint8

const (
	// ToolInput is the strict tool input subset (DESIGN.md §3).
	ToolInput Profile = iota + 1
	// OutputBindable is the bindable structured-output subset (DESIGN.md §4).
	OutputBindable
	// JSONSchema is full JSON Schema, every dialect enforced completely
	// (DESIGN.md §8).
	JSONSchema
)

// String returns the profile's stable name, used in handles.
func (p Profile) String() string {
	switch p {
	case ToolInput:
		return "tool_input"
	case OutputBindable:
		return "output_bindable"
	case JSONSchema:
		return "json_schema"
	}
	return "unknown"
}

// Types is a set of JSON Schema types.
type Types uint8

// The JSON Schema types. Integer is a Number whose value is integral.
const (
	TypeObject Types = 1 << iota
	TypeArray
	TypeString
	TypeInteger
	TypeNumber
	TypeBoolean
	TypeNull

	// AnyType accepts every value: a schema without "type".
	AnyType = TypeObject | TypeArray | TypeString | TypeInteger | TypeNumber | TypeBoolean | TypeNull
)

var typeNames = []struct {
	t    Types
	name string
}{
	{TypeObject, "object"}, {TypeArray, "array"}, {TypeString, "string"}, {TypeInteger, "integer"},
	{TypeNumber, "number"}, {TypeBoolean, "boolean"}, {TypeNull, "null"},
}

// typeByName returns the type called name, or 0.
func typeByName(name string) Types {
	for _, tn := range typeNames {
		if tn.name == name {
			return tn.t
		}
	}
	return 0
}

// String lists the set's names joined by " or ", integer left out where
// number, which includes it, is named.
func (t Types) String() string {
	if t&TypeNumber != 0 {
		t &^= TypeInteger
	}
	s := ""
	for _, tn := range typeNames {
		if t&tn.t != 0 {
			if s != "" {
				s += " or "
			}
			s += tn.name
		}
	}
	return s
}

// Node is one compiled schema. Nodes are immutable once compiled and shared
// by every validation that uses them. A keyword a schema does not use has
// its zero value here (nil, or -1 for the integer bounds), so validators
// test for presence cheaply.
type Node struct {
	// Path locates the node: an RFC 6901 pointer into the schema document,
	// or, for a node from another document (a $ref into a resource), that
	// document's URI, "#", and the pointer.
	Path string
	// ID numbers the nodes of one Schema densely from 0.
	ID int32
	// Keyword is the applicator keyword the node was written under
	// ("properties", "allOf", "$defs", ...; "" for a document's root), used
	// to explain a false schema.
	Keyword string

	// Types are the value types the node's "type" accepts: AnyType
	// without one, except at a subset profile's root, where an omitted
	// type means object. A value of another type is a "type" finding at
	// the node's /type, that root's included (its documented meaning,
	// though it writes no type). A type a profile only derives from
	// another keyword (the bindable profile types an enum-only node by its
	// choices) is not kept here: that keyword refuses a value of another
	// type itself, so the finding is the enum's, at /enum.
	Types Types
	// Never is set for the false schema: no value is valid.
	Never bool

	// Enum restricts values to a closed set, or is nil.
	Enum *Enum
	// Const requires one value (a one-choice Enum), or is nil.
	Const *Enum

	// Number bounds, each exact, or nil.
	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum *decimal.Decimal
	// MultipleOf requires an integral quotient, or is nil.
	MultipleOf *decimal.Decimal

	// MinLength and MaxLength bound a string's length in code points; -1
	// means no bound.
	MinLength, MaxLength int64
	// Pattern must match somewhere in a string, or is nil.
	Pattern *Pattern
	// Format is an asserted format, or nil (format is then an annotation).
	Format *Format

	// Keys are the member names the node knows, sorted bytewise: declared
	// properties, and names listed only in required, dependentRequired or
	// dependentSchemas.
	Keys []Key
	// KeyNames are the names of Keys, in the same order.
	KeyNames NameIndex
	// DeclaredNames are the names properties declares, sorted, when some
	// of Keys are named only by required or the dependent keywords (nil
	// otherwise): all that an object closed by additionalProperties
	// allows without patternProperties.
	DeclaredNames *NameIndex
	// Required lists the indexes in Keys of required names.
	Required []int
	// RequiredForbidden lists required names that a closed object (tool
	// input: additionalProperties false) forbids: no object satisfies the
	// node. Reported at the object's end, whether or not the name appears.
	RequiredForbidden []string
	// PatternProperties constrain members whose names match, or is nil.
	PatternProperties *PatternProperties
	// Additional constrains members that neither a property nor a pattern
	// covers, or is nil. A Never node closes the object.
	Additional *Node
	// AdditionalKeyword is how the schema spells Additional's keyword.
	AdditionalKeyword string
	// PropertyNames constrains every member name (as a string), or is nil.
	PropertyNames *Node
	// MinProperties and MaxProperties bound the member count; -1: none.
	MinProperties, MaxProperties int64
	// DependentRequired lists, per present name, the names it requires,
	// sorted by Key.
	DependentRequired []Dependency
	// DependentSchemas apply to the whole object when a name is present.
	DependentSchemas []DependentSchema
	// UnevaluatedProperties constrains members no other keyword evaluated
	// (including the keywords of passing in-place subschemas), or is nil.
	UnevaluatedProperties *Node

	// PrefixItems constrain the elements at their positions.
	PrefixItems []*Node
	// PrefixKeyword spells PrefixItems' keyword ("prefixItems", or "items"
	// for the array form of older dialects).
	PrefixKeyword string
	// Items constrains every element after PrefixItems, or is nil.
	Items *Node
	// ItemsKeyword spells Items' keyword ("items" or "additionalItems").
	ItemsKeyword string
	// FalseItem is the first element position whose schema (of
	// PrefixItems, or Items after them) is the false schema, so that an
	// array holds fewer elements; -1: none (no position has the false
	// schema, so a validator need not look for one).
	FalseItem int64
	// Contains must match between MinContains and MaxContains elements
	// (MaxContains -1: no upper bound), or is nil.
	Contains                 *Node
	MinContains, MaxContains int64
	// ContainsAnnotates reports whether the elements Contains matches count
	// as evaluated for UnevaluatedItems (Draft 2020-12).
	ContainsAnnotates bool
	// MinItems and MaxItems bound the element count; -1: none.
	MinItems, MaxItems int64
	// UniqueItems requires elements to differ by content.
	UniqueItems bool
	// UnevaluatedItems constrains elements no other keyword evaluated, or
	// is nil.
	UnevaluatedItems *Node

	// AllOf are subschemas that must all match the value.
	AllOf []*Node
	// AnyOf are the distinct branches of anyOf; at least one must match.
	AnyOf []Branch
	// OneOf are the distinct branches of oneOf, each with the positions it
	// stands for; exactly one position must match.
	OneOf []Branch
	// OneOfCount is the number of positions of oneOf (len of the keyword's
	// array).
	OneOfCount int
	// AnyOfCount is the number of positions of anyOf.
	AnyOfCount int
	// Not must not match, or is nil.
	Not *Node
	// If selects Then (when it matches) or Else (when it does not); each
	// may be nil.
	If, Then, Else *Node
	// Refs are the resolved references of the node ($ref, $dynamicRef,
	// $recursiveRef): subschemas that must match the value.
	Refs []Ref

	// Saturated holds, by keyword, the schema's value of each count
	// (minLength, maxItems, minContains, ...) too large for int64, whose
	// field above holds math.MaxInt64 instead: what a message quotes as
	// the bound. It is nil when no count saturated.
	Saturated map[string]*decimal.Decimal

	// Summaries, set when the schema is compiled (see summarize).

	// Checks holds the types whose content the node's own keywords check
	// past the value's first byte (TypeNumber standing for every number).
	Checks Types
	// InPlace reports whether the node has in-place applicators (allOf,
	// anyOf, oneOf, not, if, references, dependentSchemas).
	InPlace bool
	// Trivial holds the scalar types (string, number, boolean, null) that
	// the node accepts at a value's first byte, needing nothing more of
	// the value: no in-place applicator, enum, const or content keyword.
	Trivial Types
}

// Key is one member name an object node knows.
type Key struct {
	// Name is the member name.
	Name string
	// Schema constrains the member's value; nil when properties does not
	// name it.
	Schema *Node
	// Declared is true for names under properties.
	Declared bool
	// Required is true for names under required.
	Required bool
	// Dependents are the indexes in Node.DependentSchemas of the entries
	// that apply when the member is present.
	Dependents []int
}

// Dependency is one dependentRequired entry: when the member Key is
// present, the members Requires must be too (indexes into Node.Keys).
type Dependency struct {
	Key      int
	Requires []int
	// Keyword is how the schema spells the entry's keyword:
	// "dependentRequired", or "dependencies" (draft-07 and before).
	Keyword string
}

// DependentSchema is one dependentSchemas entry: when the member Key
// (index into Node.Keys) is present, Schema must match the whole object.
type DependentSchema struct {
	Key    int
	Schema *Node
	// Keyword is how the schema spells the entry's keyword:
	// "dependentSchemas", or "dependencies" (draft-07 and before).
	Keyword string
}

// PatternProperties are the patternProperties of one node.
type PatternProperties struct {
	// Set matches every pattern at once, so a member name costs one
	// automaton step per byte however many patterns there are.
	Set *pattern.Set
	// Patterns are the member-name patterns, in schema order.
	Patterns []*Pattern
	// Schemas constrain the members whose names match the pattern of the
	// same index.
	Schemas []*Node
}

// Branch is one distinct subschema of anyOf or oneOf. Branches that
// compile to the same behaviour share one Branch, so a value is checked
// once however many positions repeat it.
type Branch struct {
	Node *Node
	// Positions are the indexes in the keyword's array this branch stands
	// for.
	Positions []int
}

// Ref is one resolved reference.
type Ref struct {
	// Keyword is "$ref", "$dynamicRef" or "$recursiveRef".
	Keyword string
	// Target is the schema referred to.
	Target *Node
}

// Enum is a compiled enum (or const): its choices grouped by kind and
// normalised so that matching needs no allocation for strings, numbers and
// literals.
type Enum struct {
	// Strings are the string choices, sorted bytewise, without repeats.
	Strings NameIndex
	// Numbers are the number choices, sorted by value, without repeats.
	Numbers []decimal.Decimal
	// NumberDigits orders the non-zero number choices by sign, then by
	// their significant digits, then by exponent, for pruning a number
	// digit by digit and, once its digits are final, exponent by exponent:
	// indexes into Numbers.
	NumberDigits []int
	// HasZero reports whether zero is a number choice.
	HasZero bool
	// True, False and Null report whether those literals are choices.
	True, False, Null bool
	// Composite holds the canonical JSON of object and array choices, sorted.
	Composite []string
	// MaxComposite is the length of the longest composite choice.
	MaxComposite int
	// Text lists the choices for messages, already truncated.
	Text string
}

// Format is an asserted format.
type Format struct {
	// Name is the format's name.
	Name string
	// Check reports whether a string is of the format.
	Check func(string) bool
}

// Schema is a compiled schema: the root node and what validators need to
// size their buffers.
type Schema struct {
	// Root is the root node.
	Root *Node
	// Profile is the profile the schema was compiled for.
	Profile Profile
	// MaxDigits is the most significant digits of any number in the schema;
	// argument numbers need one more digit than this to compare exactly.
	MaxDigits int
	// Nodes counts the compiled nodes (their IDs are 0 to Nodes-1).
	Nodes int
	// Width is the most subschemas that can be evaluating one value at the
	// same time: the bound on a validator's work per argument byte, measured
	// when compiling.
	Width int
	// Bytes estimates the memory the compiled schema holds.
	Bytes int64
}
