package schema

import (
	"fmt"
	"slices"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// outputBindableRules is the bindable output profile of DESIGN.md §4, for
// structured LLM output: a flat object whose properties are primitives,
// primitive-or-null, closed enums, or arrays of primitives. Catalogue
// keywords the runtime does not enforce are accepted with a warning.
var outputBindableRules = &rules{
	profile: OutputBindable,
	keywords: map[string]keyword{
		"type":        {},
		"description": {compile: compileDescription},
		"properties":  {applies: TypeObject, compile: compileProperties},
		"required":    {applies: TypeObject, compile: compileRequired},
		"enum":        {compile: compileEnum},
		"items":       {applies: TypeArray, compile: compileBindableItems},
		"minLength":   {applies: TypeString, compile: compileMinLength},
		"maxLength":   {applies: TypeString, compile: compileMaxLength},
		"pattern":     {applies: TypeString, compile: compilePattern},
		"minimum":     {applies: TypeInteger | TypeNumber, compile: compileMinimum},
		"maximum":     {applies: TypeInteger | TypeNumber, compile: compileMaximum},

		"examples":             {ignored: true, compile: shapeOnly("examples", "an array", jsontok.Array)},
		"title":                {ignored: true, compile: shapeOnly("title", "a string", jsontok.String)},
		"default":              {ignored: true},
		"const":                {ignored: true},
		"format":               {ignored: true, compile: shapeOnly("format", "a string", jsontok.String)},
		"exclusiveMinimum":     {ignored: true, compile: shapeOnly("exclusiveMinimum", "a number", jsontok.Number)},
		"additionalProperties": {ignored: true, compile: shapeOnly("additionalProperties", "a schema (an object or a boolean)", jsontok.Object, jsontok.True, jsontok.False)},
	},
	types:    bindableType,
	declared: bindableDeclared,
	check:    checkBindableNode,
	unknown:  bindableUnknown,
}

// shapeOnly is the compile function of a keyword the profile accepts
// without enforcing it: a value of another JSON kind than JSON Schema
// gives the keyword is still a malformed schema (VALIDATION, as in the
// other profiles), though a well-formed value is not checked further.
func shapeOnly(kw, want string, kinds ...jsontok.Kind) func(*compiler, *Node, *jsondoc.Value, string) {
	return func(c *compiler, _ *Node, v *jsondoc.Value, path string) {
		if !slices.Contains(kinds, v.Kind) {
			c.malformed(path, kw, "%s must be %s, not %s.", kw, want, article(v.TypeName()))
		}
	}
}

// primitiveTypes are the types a bindable property or item may have, alone
// or with null.
const primitiveTypes = TypeString | TypeNumber | TypeInteger | TypeBoolean

// bindableType reads a "type" value: one name, or a primitive and "null".
// A type list is checked as JSON Schema defines one first (a non-empty
// array of distinct type names; else it is malformed, VALIDATION), and
// only then as this profile binds it: a well-formed list other than a
// primitive and "null" is legal JSON Schema the profile cannot bind,
// UNSUPPORTED_CAPABILITY.
func bindableType(c *compiler, v *jsondoc.Value, path string) Types {
	switch v.Kind {
	case jsontok.String:
		t := typeByName(v.Str)
		if t == 0 || t == TypeNull {
			c.unsupported(path, "type", "The type %q is not bindable; use string, number, integer, boolean or array (or a primitive with null).", v.Str)
			return 0
		}
		return t
	case jsontok.Array:
		if len(v.Items) == 0 {
			c.malformed(path, "type", "A type list must not be empty; give one type, or a primitive and \"null\" like [\"string\", \"null\"].")
			return 0
		}
		var t Types
		for i, item := range v.Items {
			if item.Kind != jsontok.String || typeByName(item.Str) == 0 {
				c.malformed(child(path, fmt.Sprint(i)), "type", "A type list must hold type names.")
				return 0
			}
			if t&typeByName(item.Str) != 0 {
				c.malformed(child(path, fmt.Sprint(i)), "type", "A type list must name each type once; %q is repeated.", item.Str)
				return 0
			}
			t |= typeByName(item.Str)
		}
		if len(v.Items) != 2 || t&TypeNull == 0 || t&^TypeNull&primitiveTypes == 0 || (t&^TypeNull)&(t&^TypeNull-1) != 0 {
			c.unsupported(path, "type", "A type list is bindable only as one primitive type and \"null\", like [\"string\", \"null\"].")
			return 0
		}
		return t
	}
	c.malformed(path, "type", "type must be a string or an array of strings, not %s.", article(v.TypeName()))
	return 0
}

// bindableUnknown explains why a keyword is not bindable and what to do.
func bindableUnknown(name string) string {
	switch name {
	case "$ref", "$defs", "definitions":
		return fmt.Sprintf("%s is not bindable: inline the referenced schema as a flat property.", name)
	case "oneOf", "anyOf", "allOf", "not", "if", "then", "else":
		return fmt.Sprintf("%s is not bindable: the model gets one flat object; use an enum, or separate nullable properties.", name)
	}
	return fmt.Sprintf("The keyword %q is not part of the bindable output profile; remove it, or state the rule in description.", name)
}

func compileBindableItems(c *compiler, n *Node, v *jsondoc.Value, path string) {
	if v.Kind == jsontok.Array {
		c.unsupported(path, "items", "The tuple form of items is not bindable; give one primitive schema for every item.")
		return
	}
	n.Items, n.ItemsKeyword = c.node(v, path, "items"), "items"
}

// length reads the minLength or maxLength value of n as the JSON Schema
// profile reads it (count: one too large for int64 saturates), and
// reports a value that is not a non-negative integer as malformed (-1
// then).
func (c *compiler) length(n *Node, v *jsondoc.Value, path, kw string) int64 {
	k, ok := count(n, kw, v)
	if !ok {
		c.malformed(path, kw, "%s must be a non-negative integer.", kw)
		return -1
	}
	return k
}

func compileMinLength(c *compiler, n *Node, v *jsondoc.Value, path string) {
	n.MinLength = c.length(n, v, path, "minLength")
}

func compileMaxLength(c *compiler, n *Node, v *jsondoc.Value, path string) {
	n.MaxLength = c.length(n, v, path, "maxLength")
}

// compilePattern compiles a pattern as the JSON Schema profile does
// (compiler.pattern): ECMA-262 syntax, the dialect JSON Schema defines
// pattern in, run as an unanchored search by an automaton of the same
// meaning. DESIGN.md §4 names no other dialect, and its line, that a
// pattern that is no regular expression is malformed but one using a
// construct Go's RE2 cannot run (look-around, back-references) is
// unsupported, is the JSON Schema profile's (§8); so pattern means one
// thing in both profiles, and what the schema tells the model (whose
// provider reads pattern as JSON Schema's) is what toolgate checks.
// Go's own syntax is not ECMA-262: \z, (?i) and (?P<name>…) are
// malformed, and [[:alpha:]] is one of "[:alph" followed by "]".
func compilePattern(c *compiler, n *Node, v *jsondoc.Value, path string) {
	if v.Kind != jsontok.String {
		c.malformed(path, "pattern", "pattern must be a string, not %s.", article(v.TypeName()))
		return
	}
	n.Pattern = c.pattern(path, "pattern", v.Str)
}

// checkBindableNode applies the node rules of the bindable output profile:
// the root is a flat object with properties; a property is a primitive (or
// primitive with null), a closed enum of primitives, or an array of
// primitives; an item is a primitive, which may have its own enum, and is
// never null (the seed's "Must be a primitive": its primitive-or-null is
// a kind of property, not of item). Null is never a value's only choice,
// whether type says so ("null", refused by bindableType) or enum does
// ([null], with or without a nullable type): DESIGN.md §4 allows null only
// beside a primitive.
func checkBindableNode(c *compiler, n *Node, obj *jsondoc.Value, root bool) {
	finishKeys(n)
	declared := bindableDeclared(n, obj, root)
	switch {
	case n.Enum != nil && len(n.Enum.Composite) > 0:
		c.unsupported(child(n.Path, "enum"), "enum", "Enum choices must be strings, numbers or booleans to be bindable, not objects or arrays.")
	case !root && n.Enum != nil && enumTypes(obj.Get("enum")) == TypeNull:
		// The value could only be null: type "null" under another name.
		c.unsupported(child(n.Path, "enum"), "enum", "An enum whose only choice is null is not bindable, as type \"null\" is not: "+
			"give it a string, number or boolean choice, and keep null beside it for a nullable property.")
	}
	switch {
	case root:
		switch {
		case declared != 0 && declared != TypeObject:
			c.unsupported(child(n.Path, "type"), "type", "The output schema must be an object with properties, not %s.", declared)
		case !hasMembers(obj.Get("properties")):
			c.unsupported(n.Path, "properties", "An object without properties is not bindable: declare the fields the model must fill in under properties.")
		}
	case c.level == 1 && declared&TypeObject != 0:
		c.unsupported(n.Path, "type", "Nested objects are not bindable: flatten their fields into top-level properties.")
	case c.level == 1 && declared&TypeArray != 0:
		if declared != TypeArray {
			c.unsupported(child(n.Path, "type"), "type", "An array property is bindable only as type \"array\", without null.")
		} else if obj.Get("items") == nil {
			c.unsupported(n.Path, "items", "An array is bindable only with items of one primitive type, like {\"type\": \"string\"}.")
		}
	case c.level >= 2 && declared&(TypeObject|TypeArray) != 0:
		c.unsupported(n.Path, "type", "Arrays of objects or of arrays are not bindable: use an array of primitives, or separate top-level properties.")
	case c.level == 2 && n.Keyword == "items" && declared&TypeNull != 0 && declared != TypeNull: // a property's items; null alone is refused above
		kw := "type"
		if obj.Get("type") == nil {
			kw = "enum"
		}
		c.unsupported(child(n.Path, kw), kw, "An array's items are bindable only as one primitive type, never null: remove null from the items' %s (an empty array says there are no values).", kw)
	case declared == 0 && obj.Get("type") == nil:
		c.unsupported(n.Path, "type", "This property has no type; give it a primitive type, a type with null, an enum or an array of primitives.")
	}
}

// bindableDeclared returns the type of the node obj as the schema states
// it (n is its node, its "type" read): what type says, or without type,
// the types of its enum's choices (an enum of primitives types itself),
// the root's implied object, or 0 for an untyped node. The profile's
// rules see this type, and so does the check that each keyword applies
// to it: minimum on an enum of strings is refused as on "type": "string".
// A type derived from the enum is not written into n.Types: the enum
// alone refuses a value of another type, so that the finding is the
// enum's, at the keyword the schema has, and says what the closed set is
// (see Node.Types).
func bindableDeclared(n *Node, obj *jsondoc.Value, root bool) Types {
	switch e := obj.Get("enum"); {
	case obj.Get("type") != nil:
		return n.Types
	case e != nil && e.Kind == jsontok.Array:
		return enumTypes(e)
	case root && n.Types != AnyType:
		return n.Types // the root's implied object type
	}
	return 0
}

// enumTypes returns the types of the primitive choices of an enum value
// (0 when it is not an array); objects and arrays, which are refused as
// choices, count for none.
func enumTypes(e *jsondoc.Value) Types {
	var t Types
	if e == nil || e.Kind != jsontok.Array {
		return 0
	}
	for _, choice := range e.Items {
		switch choice.Kind {
		case jsontok.String:
			t |= TypeString
		case jsontok.Number:
			t |= TypeNumber
		case jsontok.True, jsontok.False:
			t |= TypeBoolean
		case jsontok.Null:
			t |= TypeNull
		}
	}
	return t
}

// hasMembers reports whether v is a non-empty object (or not an object at
// all, which compileProperties already reported).
func hasMembers(v *jsondoc.Value) bool {
	return v != nil && (v.Kind != jsontok.Object || len(v.Members) > 0)
}
