package schema

import (
	"maps"
	"math/bits"
	"slices"

	"github.com/toolgate/toolgate/internal/jsontok"
)

// This file holds what every profile's compiler does with the node graph
// once the nodes exist: false schemas, distinct branches, and the
// measurements that bound validation (Schema.Width) and memory
// (Schema.Bytes).

// never returns a false schema at path, written under keyword.
func (c *compiler) never(path, keyword string) *Node {
	n := c.newNode(path, keyword)
	n.Never = true
	return n
}

// distinctBranches groups the branches of anyOf or oneOf that have the same
// behaviour key: they accept the same values, so one evaluation stands for
// all their positions. keys[i] is branch i's key ("" never groups).
func distinctBranches(nodes []*Node, keys []string) []Branch {
	var out []Branch
	index := map[string]int{}
	for i, n := range nodes {
		if j, ok := index[keys[i]]; ok && keys[i] != "" {
			out[j].Positions = append(out[j].Positions, i)
			continue
		}
		index[keys[i]] = len(out)
		out = append(out, Branch{Node: n, Positions: []int{i}})
	}
	return out
}

// inPlace calls f for every subschema that applies to the same value as n
// does, when the value is of kind: its in-place applicators. A node that
// rejects the kind outright (type, false schema) applies nothing.
func inPlace(n *Node, kind jsontok.Kind, f func(*Node)) {
	if n.Never || !typeAllowsKind(n.Types, kind) {
		return
	}
	for _, s := range n.AllOf {
		f(s)
	}
	for _, b := range n.AnyOf {
		f(b.Node)
	}
	for _, b := range n.OneOf {
		f(b.Node)
	}
	for _, s := range []*Node{n.Not, n.If, n.Then, n.Else} {
		if s != nil {
			f(s)
		}
	}
	for _, r := range n.Refs {
		f(r.Target)
	}
	if kind == jsontok.Object {
		for _, d := range n.DependentSchemas {
			f(d.Schema)
		}
	}
}

// typeAllowsKind reports whether a value of kind can satisfy types (integer
// is decided by the number's value).
func typeAllowsKind(types Types, kind jsontok.Kind) bool {
	switch kind {
	case jsontok.Object:
		return types&TypeObject != 0
	case jsontok.Array:
		return types&TypeArray != 0
	case jsontok.String:
		return types&TypeString != 0
	case jsontok.Number:
		return types&(TypeNumber|TypeInteger) != 0
	case jsontok.True, jsontok.False:
		return types&TypeBoolean != 0
	}
	return types&TypeNull != 0
}

// valueKinds are the kinds a value may have, for the width measurement
// (true stands for both literals).
var valueKinds = []jsontok.Kind{jsontok.Object, jsontok.Array, jsontok.String, jsontok.Number, jsontok.True, jsontok.Null}

// widthMeter measures Schema.Width: the most distinct nodes that can be
// evaluating one value at the same time. A validator runs at most one
// evaluation per node and value, so this bounds its work per argument byte.
//
// It explores the sets of nodes a value can be evaluated by, as a
// validator reaches them: the root's set, and from each set the set of
// each member (per known name, and for any other name) or element (per
// prefix position, and after), each closed under in-place applicators. The
// member sets over-approximate patternProperties (every pattern is assumed
// to match), which only makes the bound safer. Each distinct entry is
// explored once, however many sets lead to it. The exploration stops
// after budget steps: a node visited by a closure or named by an entry
// is a step, and looksPerStep looks at a node while building entries.
type widthMeter struct {
	stop   *stopper
	budget int
	seen   map[string]bool
	width  int
	looks  int // looks at a node not yet charged to budget (see charge)
	// The closure being built: the pass that last visited each node, by
	// ID, and the nodes left to visit.
	marks []uint32
	pass  uint32
	stack []*Node
}

// looksPerStep is how many looks at a node, while building the entries of
// a set's members and elements, cost one step of the budget: a look is a
// comparison or an append, some 20 ns, where a step of a closure (a map
// insertion and a walk of the node's applicators) costs over ten times
// more (widthBudget of them take some 0.5 s).
const looksPerStep = 16

// nameBytesPerLook is how many bytes of member names compared while
// sorting or searching them cost one look: names of kilobytes that share
// a prefix (160 of 3 KB, under 10,000 sets) took seconds of comparisons
// that looks counted as a fraction of a step each.
const nameBytesPerLook = 32

// charge spends the budget of n looks at a node.
func (m *widthMeter) charge(n int) {
	m.looks += n
	m.budget -= m.looks / looksPerStep
	m.looks %= looksPerStep
}

// measureWidth returns the width of the schema rooted at root, or ok false
// when measuring it would take more than budget steps, or stop says to
// give up.
func measureWidth(root *Node, budget int, stop *stopper) (width int, ok bool) {
	m := &widthMeter{stop: stop, budget: budget, seen: map[string]bool{}}
	return m.width, m.explore([]*Node{root})
}

// explore visits the sets that entry (the nodes applied to a value by its
// parent) leads to, for every kind the value may have.
func (m *widthMeter) explore(entry []*Node) bool {
	type pending struct {
		entry []*Node
	}
	queue := []pending{{entry}}
	entries := map[string]bool{}
	for len(queue) > 0 {
		e := queue[0].entry
		queue = queue[1:]
		// Many parents apply the same entry (every member of a wide
		// object shares its additionalProperties, every reference to a
		// definition the same node): its sets are explored once.
		if m.budget -= len(e); m.budget < 0 || m.stop.stopped() {
			return false
		}
		key := entryKey(e)
		if entries[key] {
			continue
		}
		entries[key] = true
		for _, kind := range valueKinds {
			set := m.closure(e, kind)
			if set == nil && m.budget < 0 {
				return false
			}
			// A set of one node comes from the entry of that node alone,
			// which the entries map has seen once: only larger sets can
			// be reached again, from other entries.
			if len(set) > 1 {
				key := setKey(kind, set)
				if m.seen[key] {
					continue
				}
				m.seen[key] = true
			}
			m.width = max(m.width, len(set))
			for _, next := range m.children(set, kind) {
				queue = append(queue, pending{next})
			}
			if m.budget < 0 || m.stop.ended() { // children gives up when told to stop
				return false
			}
		}
	}
	return true
}

// closure returns the nodes that evaluate a value of kind when entry is
// applied to it: entry and, transitively, their in-place subschemas, each
// once, sorted by ID.
func (m *widthMeter) closure(entry []*Node, kind jsontok.Kind) []*Node {
	m.pass++
	var out []*Node
	stack := append(m.stack[:0], entry...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m.visit(n) {
			continue
		}
		if m.budget--; m.budget < 0 {
			return nil
		}
		out = append(out, n)
		inPlace(n, kind, func(s *Node) { stack = append(stack, s) })
	}
	m.stack = stack
	slices.SortFunc(out, func(a, b *Node) int { return int(a.ID - b.ID) })
	return out
}

// visit marks n as part of the current closure, and reports whether it
// was already.
func (m *widthMeter) visit(n *Node) bool {
	m.marks = coverID(m.marks, n.ID)
	if m.marks[n.ID] == m.pass {
		return true
	}
	m.marks[n.ID] = m.pass
	return false
}

// children returns the entries of the values inside a value of kind that
// set evaluates: its members, member names and elements.
func (m *widthMeter) children(set []*Node, kind jsontok.Kind) [][]*Node {
	var out [][]*Node
	add := func(entry []*Node) {
		m.charge(len(set)) // each entry looks at every node of the set
		if len(entry) > 0 {
			out = append(out, entry)
		}
	}
	switch kind {
	case jsontok.Object:
		var keys []*Node
		for _, n := range set {
			if n.PropertyNames != nil {
				keys = append(keys, n.PropertyNames)
			}
		}
		add(keys)
		names := memberNames(set)
		if len(set) > 1 { // memberNames sorted them, comparing their bytes
			total := 0
			for _, name := range names {
				total += len(name)
			}
			m.charge(total / nameBytesPerLook * bits.Len(uint(len(names))))
		}
		for _, name := range names {
			if m.stop.stopped() {
				return nil // explore gives up at its next look
			}
			m.charge(len(set) * (len(name) / nameBytesPerLook)) // each node's search compares the name
			add(memberEntry(set, name, true))
		}
		add(memberEntry(set, "", false))
	case jsontok.Array:
		prefix := 0
		for _, n := range set {
			prefix = max(prefix, len(n.PrefixItems))
		}
		for i := 0; i <= prefix; i++ {
			add(elementEntry(set, i))
		}
	}
	return out
}

// memberNames returns the key names of the nodes of set, sorted, each
// once. A node's own Keys are sorted already (finishKeys), so a set of one
// node costs no sort: a root of 130,000 properties is the common wide set.
func memberNames(set []*Node) []string {
	if len(set) == 1 {
		return set[0].KeyNames.Names()
	}
	names := map[string]bool{}
	for _, n := range set {
		for _, k := range n.Keys {
			names[k.Name] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// memberEntry returns the nodes that set applies to a member called name
// (known: one of the set's key names) or to any other member.
func memberEntry(set []*Node, name string, known bool) []*Node {
	var entry []*Node
	for _, n := range set {
		covered := false
		if known {
			if i, ok := slices.BinarySearch(n.KeyNames.Names(), name); ok && n.Keys[i].Schema != nil {
				entry = append(entry, n.Keys[i].Schema)
				covered = true
			}
		}
		if pp := n.PatternProperties; pp != nil {
			entry = append(entry, pp.Schemas...)
		}
		if !covered && n.Additional != nil {
			entry = append(entry, n.Additional)
		}
		if n.UnevaluatedProperties != nil {
			entry = append(entry, n.UnevaluatedProperties)
		}
	}
	return entry
}

// elementEntry returns the nodes that set applies to the element at index
// i (or to every element from i on, when i is past every prefix).
func elementEntry(set []*Node, i int) []*Node {
	var entry []*Node
	for _, n := range set {
		switch {
		case i < len(n.PrefixItems):
			entry = append(entry, n.PrefixItems[i])
		case n.Items != nil:
			entry = append(entry, n.Items)
		}
		if n.Contains != nil {
			entry = append(entry, n.Contains)
		}
		if n.UnevaluatedItems != nil {
			entry = append(entry, n.UnevaluatedItems)
		}
	}
	return entry
}

// entryKey identifies an entry by its distinct nodes, whatever their
// order.
func entryKey(entry []*Node) string {
	ids := make([]int32, len(entry))
	for i, n := range entry {
		ids[i] = n.ID
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	b := make([]byte, 0, 4*len(ids))
	for _, id := range ids {
		b = appendID(b, id)
	}
	return string(b)
}

// appendID appends a node ID's four bytes to a set or entry key.
func appendID(b []byte, id int32) []byte {
	return append(b, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
}

// setKey identifies a set of nodes, sorted by ID, applied to a value of
// kind.
func setKey(kind jsontok.Kind, set []*Node) string {
	b := make([]byte, 1, 1+4*len(set))
	b[0] = byte(kind)
	for _, n := range set {
		b = appendID(b, n.ID)
	}
	return string(b)
}

// summarize sets n's Checks, InPlace and Trivial.
func summarize(n *Node) {
	choices := n.Enum != nil || n.Const != nil
	var checks Types
	if len(n.Keys) > 0 || len(n.RequiredForbidden) > 0 || n.PatternProperties != nil || n.Additional != nil ||
		n.PropertyNames != nil || n.MinProperties >= 0 || n.MaxProperties >= 0 || len(n.DependentSchemas) > 0 ||
		n.UnevaluatedProperties != nil || choices {
		checks |= TypeObject
	}
	if len(n.PrefixItems) > 0 || n.Items != nil || n.Contains != nil || n.MinItems >= 0 || n.MaxItems >= 0 ||
		n.UniqueItems || n.UnevaluatedItems != nil || choices {
		checks |= TypeArray
	}
	if n.MinLength >= 0 || n.MaxLength >= 0 || n.Pattern != nil || n.Format != nil || choices {
		checks |= TypeString
	}
	if n.Minimum != nil || n.Maximum != nil || n.ExclusiveMinimum != nil || n.ExclusiveMaximum != nil ||
		n.MultipleOf != nil || n.Types&TypeNumber == 0 || choices {
		checks |= TypeNumber // an integer is told apart at its end
	}
	if choices {
		checks |= TypeBoolean | TypeNull
	}
	n.Checks = checks
	n.InPlace = len(n.AllOf) > 0 || len(n.AnyOf) > 0 || len(n.OneOf) > 0 || n.Not != nil || n.If != nil ||
		len(n.Refs) > 0 || len(n.DependentSchemas) > 0
	n.Trivial = 0
	if !n.Never && !n.InPlace {
		accepted := n.Types
		if accepted&TypeInteger != 0 {
			accepted |= TypeNumber // the number kind, told apart at its end by Checks
		}
		n.Trivial = accepted &^ checks & (TypeString | TypeNumber | TypeBoolean | TypeNull)
	}
}

// coverID returns s, grown with zero values if need be, so that it has an
// element for node ID id: a slice by ID, where a map of the nodes seen was
// most of the cost of measuring and walking a wide schema.
func coverID[T any](s []T, id int32) []T {
	if int(id) < len(s) {
		return s
	}
	return append(s, make([]T, int(id)+1-len(s))...)
}

// walk calls f once for every node reachable from root.
func walk(root *Node, f func(*Node)) {
	var seen []bool // by node ID
	stack := []*Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		if seen = coverID(seen, n.ID); seen[n.ID] {
			continue
		}
		seen[n.ID] = true
		f(n)
		stack = append(stack, n.Not, n.If, n.Then, n.Else, n.Additional, n.PropertyNames,
			n.UnevaluatedProperties, n.Items, n.Contains, n.UnevaluatedItems)
		stack = append(stack, n.AllOf...)
		stack = append(stack, n.PrefixItems...)
		for _, b := range n.AnyOf {
			stack = append(stack, b.Node)
		}
		for _, b := range n.OneOf {
			stack = append(stack, b.Node)
		}
		for _, r := range n.Refs {
			stack = append(stack, r.Target)
		}
		for _, k := range n.Keys {
			stack = append(stack, k.Schema)
		}
		for _, d := range n.DependentSchemas {
			stack = append(stack, d.Schema)
		}
		if pp := n.PatternProperties; pp != nil {
			stack = append(stack, pp.Schemas...)
		}
	}
}

// Memory estimates, in bytes, for Schema.Bytes (checked against the heap
// by a test).
const (
	nodeBytes    = 640 // a Node and its slice headers, with allocator slack
	stringBytes  = 16  // a string header
	patternBytes = 96  // a Pattern and its automaton's headers
)

// stringSize estimates a string held by the schema, rounded as the
// allocator rounds it.
func stringSize(s string) int64 { return stringBytes + int64(len(s)+7)&^7 }

// patternSize estimates a compiled pattern (its automaton says what it
// holds).
func patternSize(p *Pattern) int64 {
	return patternBytes + int64(p.Compiled.Size()) + stringSize(p.Source)
}

// estimateBytes estimates the heap a compiled schema holds. A pattern
// the schema repeats is compiled once (regexps), so it is counted once.
func estimateBytes(root *Node) int64 {
	var total int64
	counted := map[*Pattern]bool{}
	pattern := func(p *Pattern) {
		if !counted[p] {
			counted[p] = true
			total += patternSize(p)
		}
	}
	walk(root, func(n *Node) {
		total += nodeBytes + stringSize(n.Path)
		for _, k := range n.Keys {
			total += 2*stringSize(k.Name) + 48
		}
		total += n.KeyNames.tableBytes()
		if d := n.DeclaredNames; d != nil {
			total += 48 + int64(d.Len())*stringBytes + d.tableBytes()
		}
		total += int64(len(n.Required)+len(n.AllOf)+len(n.PrefixItems)) * 8
		total += int64(len(n.AnyOf)+len(n.OneOf)) * 48
		for _, e := range []*Enum{n.Enum, n.Const} {
			if e == nil {
				continue
			}
			total += 256 + int64(len(e.Text)) + e.Strings.tableBytes()
			for _, s := range e.Strings.Names() {
				total += stringSize(s)
			}
			for _, s := range e.Composite {
				total += stringSize(s)
			}
			for _, d := range e.Numbers {
				total += 64 + int64(len(d.Digits))
			}
		}
		for _, d := range n.Saturated {
			total += 64 + int64(len(d.Digits))
		}
		if n.Pattern != nil {
			pattern(n.Pattern)
		}
		if pp := n.PatternProperties; pp != nil {
			for _, p := range pp.Patterns {
				pattern(p)
			}
			total += patternBytes + int64(pp.Set.Size())
		}
	})
	return total
}
