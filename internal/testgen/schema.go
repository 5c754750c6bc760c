package testgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
)

// Node is one schema of the tool input profile (DESIGN.md §3). Absent
// keywords are zero values: nil, "" or false.
type Node struct {
	// Type is one of object, array, string, integer, number, boolean; ""
	// for a oneOf node and for a root that leaves the type implicit.
	Type string
	// Description, when HasDescription, is the description keyword.
	Description    string
	HasDescription bool
	// Properties are the declared properties, in document order.
	Properties []Prop
	// Required lists required names, possibly undeclared or repeated.
	Required []string
	// Additional is additionalProperties (nil when absent); Snake spells it
	// additional_properties.
	Additional *bool
	Snake      bool
	// Items is the schema of every array element, or nil.
	Items *Node
	// Enum lists the allowed values; nil when absent, empty for "enum": [].
	Enum []any
	// Minimum is the inclusive lower bound, or nil.
	Minimum *big.Rat
	// OneOf lists the branches of a oneOf node; nil otherwise.
	OneOf []*Node
}

// Prop is one declared property.
type Prop struct {
	Name   string
	Schema *Node
}

// Property returns the schema declared for name, or nil.
func (n *Node) Property(name string) *Node {
	for _, p := range n.Properties {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// Closed reports whether the node forbids undeclared properties.
func (n *Node) Closed() bool { return n.Additional != nil && !*n.Additional }

// maxDepth bounds the nesting of generated schemas (each level is a node).
const maxDepth = 4

// NewSchema returns a random root schema: an object schema (its type is
// sometimes left implicit) with properties of every supported kind, nested
// objects and arrays, enums, minimums and oneOf with one to three branches.
// Every schema it returns is inside the tool input profile, so it must
// compile without findings.
func NewSchema(r *rand.Rand) *Node {
	n := &Node{Type: "object"}
	if chance(r, 0.1) {
		n.Type = ""
	}
	fillObject(r, n, 1)
	if chance(r, 0.05) {
		n.Enum = enumFor(r, n)
		// A root enum without an object choice compiles but refuses
		// every call; give it one, so that some calls pass.
		if !slices.ContainsFunc(n.Enum, func(v any) bool { _, ok := v.(Object); return ok }) {
			n.Enum = append(n.Enum, validObject(r, n))
		}
	}
	return n
}

// newNode returns a random schema below the root, at nesting depth.
func newNode(r *rand.Rand, depth int) *Node {
	kinds := []string{"string", "string", "integer", "number", "boolean", "object", "array", "oneOf"}
	if depth >= maxDepth {
		kinds = kinds[:5]
	}
	n := &Node{Type: pick(r, kinds)}
	if chance(r, 0.15) {
		n.Description, n.HasDescription = pick(r, stringPool), true
	}
	switch n.Type {
	case "oneOf":
		n.Type = ""
		for range 1 + r.IntN(3) {
			n.OneOf = append(n.OneOf, newNode(r, depth+1))
		}
		return n // enum is not allowed beside oneOf
	case "object":
		fillObject(r, n, depth+1)
	case "array":
		if chance(r, 0.85) {
			n.Items = newNode(r, depth+1)
		}
	case "integer", "number":
		if chance(r, 0.4) {
			n.Minimum = randNumber(r, n.Type == "integer" && chance(r, 0.5))
		}
	}
	if chance(r, 0.3) {
		n.Enum = enumFor(r, n)
	}
	return n
}

func fillObject(r *rand.Rand, n *Node, depth int) {
	for range r.IntN(5) {
		name := pick(r, namePool)
		if n.Property(name) == nil {
			n.Properties = append(n.Properties, Prop{name, newNode(r, depth)})
		}
	}
	for _, p := range n.Properties {
		if chance(r, 0.4) {
			n.Required = append(n.Required, p.Name)
		}
	}
	if chance(r, 0.1) {
		n.Required = append(n.Required, pick(r, namePool)) // possibly undeclared or repeated
	}
	if n.Required == nil && chance(r, 0.05) {
		n.Required = []string{}
	}
	if chance(r, 0.6) {
		b := chance(r, 0.6)
		n.Additional, n.Snake = &b, chance(r, 0.2)
	}
}

// enumFor returns enum choices for n: mostly values n accepts (so that
// valid values remain), some of other kinds, sometimes repeats or none.
func enumFor(r *rand.Rand, n *Node) []any {
	if chance(r, 0.03) {
		return []any{}
	}
	var choices []any
	for range 1 + r.IntN(4) {
		switch {
		case chance(r, 0.7):
			choices = append(choices, Valid(r, n))
		case chance(r, 0.5) && len(choices) > 0:
			choices = append(choices, nearMiss(r, pick(r, choices)))
		default:
			choices = append(choices, randValue(r, 2))
		}
	}
	if chance(r, 0.1) {
		choices = append(choices, Clone(pick(r, choices)))
	}
	return choices
}

// Doc returns the schema as a JSON value (an Object), for Compact or Encode.
func (n *Node) Doc() Object {
	var o Object
	if n.HasDescription {
		o = append(o, Member{"description", n.Description})
	}
	if n.Type != "" {
		o = append(o, Member{"type", n.Type})
	}
	if n.Properties != nil {
		var props Object
		for _, p := range n.Properties {
			props = append(props, Member{p.Name, p.Schema.Doc()})
		}
		if props == nil {
			props = Object{}
		}
		o = append(o, Member{"properties", props})
	}
	if n.Required != nil {
		req := make([]any, len(n.Required))
		for i, name := range n.Required {
			req[i] = name
		}
		o = append(o, Member{"required", req})
	}
	if n.Additional != nil {
		name := "additionalProperties"
		if n.Snake {
			name = "additional_properties"
		}
		o = append(o, Member{name, *n.Additional})
	}
	if n.Items != nil {
		o = append(o, Member{"items", n.Items.Doc()})
	}
	if n.Minimum != nil {
		o = append(o, Member{"minimum", new(big.Rat).Set(n.Minimum)})
	}
	if n.Enum != nil {
		o = append(o, Member{"enum", Clone(n.Enum)})
	}
	if n.OneOf != nil {
		branches := make([]any, len(n.OneOf))
		for i, b := range n.OneOf {
			branches[i] = b.Doc()
		}
		o = append(o, Member{"oneOf", branches})
	}
	return o
}

// Parse reads a schema written in the tool input profile into a Node, so
// that instances can be generated for schemas written by hand. It checks
// only what it needs to read the schema; properties come out sorted by name.
func Parse(schemaJSON []byte) (*Node, error) {
	d := json.NewDecoder(bytes.NewReader(schemaJSON))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return nil, err
	}
	return parseNode(doc, "")
}

func parseNode(doc any, path string) (*Node, error) {
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("testgen: schema at %q is not an object", path)
	}
	n := &Node{}
	for _, k := range sortedKeys(m) {
		v, kpath := m[k], path+"/"+k
		var err error
		switch k {
		case "type":
			n.Type, ok = v.(string)
		case "description":
			n.Description, ok = v.(string)
			n.HasDescription = true
		case "properties":
			props, isObj := v.(map[string]any)
			ok = isObj
			n.Properties = []Prop{}
			for _, name := range sortedKeys(props) {
				var s *Node
				if s, err = parseNode(props[name], kpath+"/"+name); err != nil {
					return nil, err
				}
				n.Properties = append(n.Properties, Prop{name, s})
			}
		case "required":
			n.Required = []string{}
			list, isList := v.([]any)
			ok = isList
			for _, x := range list {
				s, isStr := x.(string)
				ok = ok && isStr
				n.Required = append(n.Required, s)
			}
		case "additionalProperties", "additional_properties":
			b, isBool := v.(bool)
			n.Additional, n.Snake, ok = &b, k == "additional_properties", isBool
		case "items":
			n.Items, err = parseNode(v, kpath)
		case "minimum":
			var num json.Number
			if num, ok = v.(json.Number); ok {
				n.Minimum, ok = new(big.Rat).SetString(string(num))
			}
		case "enum":
			list, isList := v.([]any)
			ok = isList
			n.Enum = []any{}
			for _, x := range list {
				n.Enum = append(n.Enum, FromJSON(x))
			}
		case "oneOf":
			list, isList := v.([]any)
			ok = isList
			for i, x := range list {
				var b *Node
				if b, err = parseNode(x, fmt.Sprintf("%s/%d", kpath, i)); err != nil {
					return nil, err
				}
				n.OneOf = append(n.OneOf, b)
			}
		default:
			return nil, fmt.Errorf("testgen: keyword %q at %q is outside the tool input profile", k, kpath)
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("testgen: keyword %q at %q has a value of the wrong shape", k, kpath)
		}
	}
	return n, nil
}

// fromJSON converts a value decoded by encoding/json with UseNumber.
func FromJSON(v any) any {
	switch v := v.(type) {
	case json.Number:
		x, ok := new(big.Rat).SetString(string(v))
		if !ok {
			panic("testgen: bad number " + string(v))
		}
		return x
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = FromJSON(x)
		}
		return out
	case map[string]any:
		out := Object{}
		for _, k := range sortedKeys(v) {
			out = append(out, Member{k, FromJSON(v[k])})
		}
		return out
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, strings.Compare)
	return keys
}
