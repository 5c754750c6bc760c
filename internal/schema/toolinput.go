package schema

import (
	"fmt"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// toolInputRules is the strict tool input profile of DESIGN.md §3: nine
// keywords, every node typed, nothing ignored.
var toolInputRules = &rules{
	profile: ToolInput,
	keywords: map[string]keyword{
		"type":                  {},
		"description":           {compile: compileDescription},
		"properties":            {applies: TypeObject, compile: compileProperties},
		"required":              {applies: TypeObject, compile: compileRequired},
		"additionalProperties":  {applies: TypeObject, compile: compileAdditional("additionalProperties")},
		"additional_properties": {applies: TypeObject, compile: compileAdditional("additional_properties")},
		"enum":                  {compile: compileEnum},
		"minimum":               {applies: TypeInteger | TypeNumber, compile: compileMinimum},
		"items":                 {applies: TypeArray, compile: compileItems},
		"oneOf":                 {compile: compileOneOf},
	},
	types: toolInputType,
	check: checkToolInputNode,
	unknown: func(name string) string {
		return fmt.Sprintf("The keyword %q is not supported by the tool input profile; toolgate never ignores a keyword, so this schema cannot be enforced here.", name)
	},
}

// toolInputTypes are the types a tool input schema may name.
const toolInputTypes = TypeObject | TypeArray | TypeString | TypeInteger | TypeNumber | TypeBoolean

// toolInputType reads a "type" value: one name of toolInputTypes. What is
// refused is decided as DESIGN.md §3 decides it, by what the profile can
// use, not by JSON Schema's shape of type first: another name ("int",
// which JSON Schema does not define either) and any list of types are
// UNSUPPORTED_CAPABILITY, an empty or repeating list too, since the
// profile takes no list at all; only a value neither a string nor an
// array is VALIDATION. (The bindable profile, which binds some lists,
// checks a list's shape first; see bindableType.)
func toolInputType(c *compiler, v *jsondoc.Value, path string) Types {
	switch v.Kind {
	case jsontok.String:
		t := typeByName(v.Str)
		if t&toolInputTypes == 0 {
			c.unsupported(path, "type", "The type %q is not supported by the tool input profile; use one of object, array, string, integer, number, boolean.", v.Str)
			return 0
		}
		return t
	case jsontok.Array:
		c.unsupported(path, "type", "A list of types is not supported by the tool input profile; use one type, or oneOf.")
	default:
		c.malformed(path, "type", "type must be a string, not %s.", article(v.TypeName()))
	}
	return 0
}

// compileAdditional is the compile function of additionalProperties under
// the name the schema spells it with (spelled: additionalProperties or
// additional_properties). Findings keep the keyword additionalProperties,
// the rule's name, but their schema path is a pointer into the schema, so
// it ends in the spelling the schema has.
func compileAdditional(spelled string) func(*compiler, *Node, *jsondoc.Value, string) {
	return func(c *compiler, n *Node, v *jsondoc.Value, path string) {
		switch {
		case v.Kind == jsontok.False:
			n.Additional, n.AdditionalKeyword = c.never(path, "additionalProperties"), spelled
		case v.Kind == jsontok.True:
		case v.Kind == jsontok.Object:
			c.unsupported(path, "additionalProperties", "A schema for additional properties is not supported; use true or false.")
		default:
			c.malformed(path, "additionalProperties", "%s must be a boolean or a schema, not %s.", spelled, article(v.TypeName()))
		}
	}
}

func compileItems(c *compiler, n *Node, v *jsondoc.Value, path string) {
	if v.Kind == jsontok.Array {
		c.unsupported(path, "items", "The tuple form of items (an array of schemas) is not supported; give one schema for every item.")
		return
	}
	n.Items, n.ItemsKeyword = c.node(v, path, "items"), "items"
}

// checkToolInputNode applies the node rules of the tool input profile.
func checkToolInputNode(c *compiler, n *Node, obj *jsondoc.Value, root bool) {
	hasType := obj.Get("type") != nil
	hasOneOf := obj.Get("oneOf") != nil
	if obj.Get("additionalProperties") != nil && obj.Get("additional_properties") != nil {
		c.malformed(child(n.Path, "additional_properties"), "additionalProperties",
			"additionalProperties and additional_properties must not both be given.")
	}
	switch {
	case root && hasOneOf:
		c.unsupported(child(n.Path, "oneOf"), "oneOf", "The root schema must be an object schema; a root oneOf is not supported.")
	case root && hasType && n.Types != 0 && n.Types != TypeObject:
		c.unsupported(child(n.Path, "type"), "type", "The root schema must have type object, not %s.", n.Types)
	case !root && !hasType && !hasOneOf:
		c.unsupported(n.Path, "type", "This schema has no type and would accept any value; the tool input profile needs a type (or oneOf) on every schema.")
	}
	if hasOneOf {
		for _, m := range obj.Members {
			_, known := c.rules.keywords[m.Name]
			if known && m.Name != "oneOf" && m.Name != "description" { // unknown ones are reported already
				c.unsupported(child(n.Path, m.Name), keywordName(m.Name), "A oneOf schema may only have description beside it, not %q.", m.Name)
			}
		}
	}
	finishKeys(n)
}
