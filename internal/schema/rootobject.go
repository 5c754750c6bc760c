package schema

import "strconv"

// objectDocument makes the root accept only objects, as tool arguments
// are (DESIGN.md §3): a root whose type, enum or const excludes objects,
// or that applies in place a subschema no object can satisfy (a $ref to
// an array schema, say), is unsupported; a root that allows other types
// too is wrapped in a node that allows only objects. It runs after
// checkCycles, so the in-place graph below the root has no cycle.
func (c *jsCompiler) objectDocument(root *Node) *Node {
	switch {
	case root.Types&TypeObject == 0 || root.Never:
		c.unsupported("", "type", "The root schema must accept a JSON object: tool arguments are always one object, and this schema accepts none.")
		return root
	case root.Enum.admitsNoObject():
		c.unsupported("/enum", "enum", "%s", noObjectChoice("enum"))
		return root
	case root.Const.admitsNoObject():
		c.unsupported("/const", "const", "%s", noObjectChoice("const"))
		return root
	}
	if path, kw := objectExcluder(root, map[*Node]bool{}); kw != "" {
		why := "no object satisfies its " + kw
		switch kw {
		case "anyOf", "oneOf":
			why = "no " + kw + " branch accepts an object"
		case "if":
			why = "neither its then nor its else accepts an object"
		}
		c.unsupported(path, kw, "The root schema must accept a JSON object: tool arguments are always one object, and %s, so every call would be refused.", why)
		return root
	}
	if root.Types == TypeObject {
		return root
	}
	wrapper := c.newNode("", "")
	wrapper.Types, wrapper.AllOf = TypeObject, []*Node{root}
	return wrapper
}

// objectExcluder names the in-place applicator of n (its schema path
// below n and its keyword) that no JSON object can satisfy, or returns
// kw "" when an object may satisfy all of them. The answer errs towards
// "may": an applicator not decided by the value's type alone (not,
// dependentSchemas, and $dynamicRef or $recursiveRef, whose target the
// dynamic scope may change) never excludes. seen memoises whether a node
// admits objects at all.
func objectExcluder(n *Node, seen map[*Node]bool) (path, kw string) {
	for i, s := range n.AllOf {
		if !admitsObject(s, seen) {
			return "/allOf/" + strconv.Itoa(i), "allOf"
		}
	}
	for _, r := range n.Refs {
		if r.Keyword == "$ref" && !admitsObject(r.Target, seen) {
			return "/$ref", "$ref"
		}
	}
	if len(n.AnyOf) > 0 && !anyAdmitsObject(n.AnyOf, seen) {
		return "/anyOf", "anyOf"
	}
	if len(n.OneOf) > 0 && !anyAdmitsObject(n.OneOf, seen) {
		return "/oneOf", "oneOf"
	}
	if n.If != nil && n.Then != nil && n.Else != nil && !admitsObject(n.Then, seen) && !admitsObject(n.Else, seen) {
		return "/if", "if" // every value meets then or else, and neither takes an object
	}
	return "", ""
}

// admitsObject reports whether some JSON object may satisfy n (erring
// towards yes, as objectExcluder does).
func admitsObject(n *Node, seen map[*Node]bool) bool {
	if ok, done := seen[n]; done {
		return ok
	}
	ok := n.Types&TypeObject != 0 && !n.Never && !n.Enum.admitsNoObject() && !n.Const.admitsNoObject()
	if ok {
		_, kw := objectExcluder(n, seen)
		ok = kw == ""
	}
	seen[n] = ok
	return ok
}

// anyAdmitsObject reports whether some branch may take an object.
func anyAdmitsObject(branches []Branch, seen map[*Node]bool) bool {
	for _, b := range branches {
		if admitsObject(b.Node, seen) {
			return true
		}
	}
	return false
}
