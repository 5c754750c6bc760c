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
		c.unsupported("", "type", "%s", noObjectRoot("this schema accepts none"))
		return root
	case root.Enum.admitsNoObject():
		c.unsupported("/enum", "enum", "%s", noObjectChoice("enum"))
		return root
	case root.Const.admitsNoObject():
		c.unsupported("/const", "const", "%s", noObjectChoice("const"))
		return root
	}
	if ex, ok := objectExcluder(root, map[*Node]bool{}); ok {
		c.unsupported(ex.path, ex.keyword, "%s", noObjectRoot(ex.why))
		return root
	}
	if root.Types == TypeObject {
		return root
	}
	wrapper := c.newNode("", "")
	wrapper.Types, wrapper.AllOf = TypeObject, []*Node{root}
	return wrapper
}

// exclusion is an in-place applicator that no JSON object can satisfy:
// its schema path below the node, its keyword, and why, as a finding says.
type exclusion struct{ path, keyword, why string }

// objectExcluder finds the in-place applicator of n that no JSON object
// can satisfy; ok is false when an object may satisfy all of them. The
// answer errs towards "may": an applicator not decided by the value's type
// alone (not, dependentSchemas, and $dynamicRef or $recursiveRef, whose
// target the dynamic scope may change) never excludes. seen memoises
// whether a node admits objects at all.
func objectExcluder(n *Node, seen map[*Node]bool) (ex exclusion, ok bool) {
	for i, s := range n.AllOf {
		if !admitsObject(s, seen) {
			return exclusion{"/allOf/" + strconv.Itoa(i), "allOf", "no object satisfies its allOf"}, true
		}
	}
	for _, r := range n.Refs {
		if r.Keyword == "$ref" && !admitsObject(r.Target, seen) {
			return exclusion{"/$ref", "$ref", "no object satisfies its $ref"}, true
		}
	}
	if len(n.AnyOf) > 0 && !anyAdmitsObject(n.AnyOf, seen) {
		return exclusion{"/anyOf", "anyOf", "no anyOf branch accepts an object"}, true
	}
	if len(n.OneOf) > 0 && !anyAdmitsObject(n.OneOf, seen) {
		return exclusion{"/oneOf", "oneOf", "no oneOf branch accepts an object"}, true
	}
	if n.If != nil && n.Then != nil && n.Else != nil && !admitsObject(n.Then, seen) && !admitsObject(n.Else, seen) {
		// Every value meets then or else.
		return exclusion{"/if", "if", "neither its then nor its else accepts an object"}, true
	}
	return exclusion{}, false
}

// admitsObject reports whether some JSON object may satisfy n (erring
// towards yes, as objectExcluder does).
func admitsObject(n *Node, seen map[*Node]bool) bool {
	if ok, done := seen[n]; done {
		return ok
	}
	ok := n.Types&TypeObject != 0 && !n.Never && !n.Enum.admitsNoObject() && !n.Const.admitsNoObject()
	if ok {
		_, excluded := objectExcluder(n, seen)
		ok = !excluded
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
