package schema

import (
	"regexp"

	"github.com/toolgate/toolgate/internal/decimal"
)

// Profile names a subset of JSON Schema: which keywords a schema may use and
// how they are enforced.
type Profile uint8

const (
	// ToolInput is the strict tool input subset (DESIGN.md §3).
	ToolInput Profile = iota + 1
	// OutputBindable is the bindable structured-output subset (DESIGN.md §4).
	OutputBindable
)

// String returns the profile's stable name, used in handles.
func (p Profile) String() string {
	switch p {
	case ToolInput:
		return "tool_input"
	case OutputBindable:
		return "output_bindable"
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

// String lists the set's names joined by " or ".
func (t Types) String() string {
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
// by every validation that uses them.
type Node struct {
	// Path is the node's RFC 6901 pointer in the schema.
	Path string
	// Types are the value types the node accepts; 0 for a oneOf node.
	Types Types

	// Keys are the member names the node knows, sorted bytewise: declared
	// properties and names listed only in required.
	Keys []Key
	// KeyNames are the names of Keys, in the same order.
	KeyNames []string
	// Required lists the indexes in Keys of required names.
	Required []int
	// RequiredForbidden lists required names that ClosedProperties forbids:
	// no object satisfies the node.
	RequiredForbidden []string
	// ClosedProperties is true under additionalProperties: false.
	ClosedProperties bool

	// Items is the schema of every array element, or nil.
	Items *Node

	// Minimum and Maximum are inclusive bounds, or nil.
	Minimum, Maximum *decimal.Decimal
	// MinLength and MaxLength bound a string's length in code points; -1
	// means no bound.
	MinLength, MaxLength int64
	// Pattern must match somewhere in a string (unanchored), or is nil.
	Pattern *regexp.Regexp

	// Enum restricts values to a closed set, or is nil.
	Enum *Enum

	// OneOf holds the branches of a oneOf node; exactly one must match.
	OneOf []*Node
}

// Key is one member name an object node knows.
type Key struct {
	// Name is the member name.
	Name string
	// Schema constrains the member's value; nil when any value is allowed.
	Schema *Node
	// Declared is true for names under properties.
	Declared bool
}

// Enum is a compiled enum: its choices grouped by kind and normalised so that
// matching needs no allocation for strings, numbers and literals.
type Enum struct {
	// Strings are the string choices, sorted bytewise, without repeats.
	Strings []string
	// Numbers are the number choices.
	Numbers []decimal.Decimal
	// True, False and Null report whether those literals are choices.
	True, False, Null bool
	// Composite holds the canonical JSON of object and array choices, sorted.
	Composite []string
	// MaxComposite is the length of the longest composite choice.
	MaxComposite int
	// Text lists the choices for messages, already truncated.
	Text string
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
}
