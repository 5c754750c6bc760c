package schema

import (
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
// does, when the value is of kind: its in-place applicators, as the
// validator attaches them (then and else only beside an if, which the
// specification ignores them without). A node that rejects the kind
// outright (type, false schema) applies nothing.
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
	if n.Not != nil {
		f(n.Not)
	}
	if n.If != nil {
		for _, s := range []*Node{n.If, n.Then, n.Else} {
			if s != nil {
				f(s)
			}
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
// to match), which only makes the bound safer.
//
// The work it does is that of the distinct sets, not of the ways to reach
// them, and stops after budget steps:
//   - An entry (the nodes a set applies to one member or element) is
//     queued once, however many sets build it, and costs a step per node
//     when it is; each node a closure visits is a step.
//   - The entries a set builds depend only on its builders, the nodes with
//     member or element applicators: sets of the same builders (each
//     $ref to one definition, beside keywords of its own that apply to
//     the value itself) build them once.
//   - An entry of leaves (nodes that apply nothing, in place or inside) is
//     measured where it is built: each of its sets is its nodes.
//   - Building entries costs a step per looksPerStep looks at a node (a
//     comparison, an append, a share of a map look-up), every name and
//     entry built included, duplicates too, and the budget is looked at
//     after each entry, so the work stops within a few steps of it.
//     Whatever is kept (the queue, the keys of the entries and builders
//     seen) was charged a step per node it holds before it was kept (an
//     entry when queued, builders when their closure visited them), so
//     the memory is bounded by the budget too: a few bytes a step.
type widthMeter struct {
	stop   *stopper
	budget int
	width  int
	looks  int // looks at a node not yet charged to budget (see charge)
	// entries holds the key of every entry queued (see enqueue), built
	// the key of every set's builders, by kind, that built their entries
	// (see firstBuild); queue, the entries left to explore.
	entries, built map[string]struct{}
	queue          [][]*Node
	// The closure being built: the pass that last visited each node, by
	// ID, and the nodes left to visit.
	marks []uint32
	pass  uint32
	stack []*Node
	// Reused from set to set, so that building a duplicate entry
	// allocates nothing: the closure, its builders, the entry being
	// built, a key, and each builder's position in its Keys.
	set, builders, entry []*Node
	key                  []byte
	at                   []int
}

// looksPerStep is how many looks at a node, while building the entries of
// a set's members and elements, cost one step of the budget: a look is a
// comparison or an append, some 20 ns, a step (a node a closure visits
// and walks, or one an entry queued holds) some 50 to 250 ns. Hostile
// schemas spend widthBudget steps in 0.1 to 0.4 s of CPU (on two shared
// cores), allocating under 10 MB.
const looksPerStep = 16

// lookupLooks is what looking an entry's or builders' key up costs, in
// looks: hashing the key and probing the map.
const lookupLooks = 4

// nameBytesPerLook is how many bytes of a member name compared, while
// merging the names of a set's nodes, cost one look: names of kilobytes
// that share a prefix (160 of 3 KB, under 10,000 sets) took seconds of
// comparisons that looks counted as a fraction of a step each.
const nameBytesPerLook = 32

// charge spends the budget of n looks at a node.
func (m *widthMeter) charge(n int) {
	m.looks += n
	m.budget -= m.looks / looksPerStep
	m.looks %= looksPerStep
}

// newWidthMeter returns a meter of budget steps.
func newWidthMeter(budget int, stop *stopper) *widthMeter {
	return &widthMeter{stop: stop, budget: budget, entries: map[string]struct{}{}, built: map[string]struct{}{}}
}

// measureWidth returns the width of the schema rooted at root, or ok false
// when measuring it would take more than budget steps, or stop says to
// give up.
func measureWidth(root *Node, budget int, stop *stopper) (width int, ok bool) {
	m := newWidthMeter(budget, stop)
	ok = m.explore(root)
	return m.width, ok
}

// explore visits the sets that the root's entry leads to, and those its
// members and elements lead to, for every kind a value may have.
func (m *widthMeter) explore(root *Node) bool {
	m.enqueue([]*Node{root})
	for len(m.queue) > 0 {
		if m.budget < 0 || m.stop.stopped() {
			return false
		}
		e := m.queue[0]
		m.queue[0] = nil
		m.queue = m.queue[1:]
		for _, kind := range valueKinds {
			set := m.closure(e, kind)
			if m.budget < 0 {
				return false
			}
			m.width = max(m.width, len(set))
			switch kind {
			case jsontok.Object:
				m.members(set)
			case jsontok.Array:
				m.elements(set)
			}
			if m.budget < 0 || m.stop.ended() { // members gives up when told to stop
				return false
			}
		}
	}
	return m.budget >= 0
}

// closure returns the nodes that evaluate a value of kind when entry is
// applied to it: entry and, transitively, their in-place subschemas, each
// once, sorted by ID. The slice is the meter's, until the next closure.
func (m *widthMeter) closure(entry []*Node, kind jsontok.Kind) []*Node {
	m.pass++
	out := m.set[:0]
	stack := append(m.stack[:0], entry...)
	push := func(s *Node) { stack = append(stack, s) }
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m.visit(n) {
			continue
		}
		if m.budget--; m.budget < 0 {
			break
		}
		out = append(out, n)
		inPlace(n, kind, push)
	}
	m.stack, m.set = stack[:0], out
	if m.budget < 0 {
		return nil
	}
	// Sorting is part of each node's step: log2 of the set's size
	// comparisons of IDs, a few nanoseconds each.
	slices.SortFunc(out, byID)
	return out
}

// byID orders nodes by ID.
func byID(a, b *Node) int { return int(a.ID - b.ID) }

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

// buildsMembers reports whether n applies subschemas to an object's
// members or their names.
func buildsMembers(n *Node) bool {
	return len(n.Keys) > 0 || n.PatternProperties != nil || n.Additional != nil ||
		n.UnevaluatedProperties != nil || n.PropertyNames != nil
}

// buildsElements reports whether n applies subschemas to an array's
// elements.
func buildsElements(n *Node) bool {
	return len(n.PrefixItems) > 0 || n.Items != nil || n.Contains != nil || n.UnevaluatedItems != nil
}

// appliesInPlace reports whether inPlace may call its function for n, for
// some kind (Node.InPlace, once summarize has set it).
func appliesInPlace(n *Node) bool {
	return len(n.AllOf) > 0 || len(n.AnyOf) > 0 || len(n.OneOf) > 0 || n.Not != nil || n.If != nil ||
		len(n.Refs) > 0 || len(n.DependentSchemas) > 0
}

// isLeaf reports whether n applies no subschema: whatever the value, the
// closure of an entry of leaves is the entry, and it builds no entries.
func isLeaf(n *Node) bool { return !appliesInPlace(n) && !buildsMembers(n) && !buildsElements(n) }

// buildersOf returns the nodes of set that builds says build entries for
// the values inside a value (the slice is the meter's, until the next
// call).
func (m *widthMeter) buildersOf(set []*Node, builds func(*Node) bool) []*Node {
	b := m.builders[:0]
	for _, n := range set {
		if builds(n) {
			b = append(b, n)
		}
	}
	m.builders = b
	m.charge(len(set))
	return b
}

// firstBuild reports whether builders (sorted by ID) are building the
// entries inside a value of kind for the first time, and remembers that
// they have. Those entries depend on nothing else: another set of the
// same builders would queue only entries queued already.
func (m *widthMeter) firstBuild(kind jsontok.Kind, builders []*Node) bool {
	key := append(m.key[:0], byte(kind))
	for _, n := range builders {
		key = appendID(key, n.ID)
	}
	m.key = key
	m.charge(lookupLooks + len(builders))
	if _, ok := m.built[string(key)]; ok {
		return false
	}
	m.built[string(key)] = struct{}{}
	return true
}

// members queues the entries of the members of an object that set
// evaluates: its member names', each name's its nodes know, in order, and
// any other name's. The names come from merging the nodes' Keys, which
// are sorted (finishKeys), so a name's entry is built where it is found.
func (m *widthMeter) members(set []*Node) {
	b := m.buildersOf(set, buildsMembers)
	if len(b) == 0 || !m.firstBuild(jsontok.Object, b) {
		return
	}
	keyed := 0
	e := m.entry[:0]
	for _, n := range b {
		if n.PropertyNames != nil {
			e = append(e, n.PropertyNames)
		}
		if len(n.Keys) > 0 {
			keyed++
		}
	}
	m.charge(len(b))
	m.entry = m.enqueue(e)
	at := m.at[:0]
	for range b {
		at = append(at, 0)
	}
	m.at = at
	for keyed > 0 {
		if m.budget < 0 || m.stop.stopped() {
			return // explore gives up at its next look
		}
		// The least name not yet listed, and the entry of it.
		name, found := "", false
		for j, n := range b {
			if at[j] < len(n.Keys) {
				if k := n.Keys[at[j]].Name; !found || k < name {
					name, found = k, true
				}
			}
		}
		if !found {
			break
		}
		if keyed > 1 { // choosing it compares each node's next name, and finding it again its bytes
			m.charge(keyed * (1 + 2*len(name)/nameBytesPerLook))
		}
		e := m.entry[:0]
		for j, n := range b {
			covered := false
			if at[j] < len(n.Keys) && n.Keys[at[j]].Name == name {
				if s := n.Keys[at[j]].Schema; s != nil {
					e = append(e, s)
					covered = true
				}
				at[j]++
			}
			e = otherMembers(e, n, covered)
		}
		m.charge(len(b) + len(e))
		m.entry = m.enqueue(e)
	}
	e = m.entry[:0]
	for _, n := range b {
		e = otherMembers(e, n, false)
	}
	m.charge(len(b) + len(e))
	m.entry = m.enqueue(e)
}

// otherMembers appends the nodes n applies to a member besides those of
// its properties, which cover a name they know (when covered).
func otherMembers(entry []*Node, n *Node, covered bool) []*Node {
	if pp := n.PatternProperties; pp != nil {
		entry = append(entry, pp.Schemas...)
	}
	if !covered && n.Additional != nil {
		entry = append(entry, n.Additional)
	}
	if n.UnevaluatedProperties != nil {
		entry = append(entry, n.UnevaluatedProperties)
	}
	return entry
}

// elements queues the entries of the elements of an array that set
// evaluates: the element at each prefix position, and every element after.
func (m *widthMeter) elements(set []*Node) {
	b := m.buildersOf(set, buildsElements)
	if len(b) == 0 || !m.firstBuild(jsontok.Array, b) {
		return
	}
	prefix := 0
	for _, n := range b {
		prefix = max(prefix, len(n.PrefixItems))
	}
	for i := 0; i <= prefix; i++ {
		if m.budget < 0 || m.stop.stopped() {
			return
		}
		e := m.entry[:0]
		for _, n := range b {
			switch {
			case i < len(n.PrefixItems):
				e = append(e, n.PrefixItems[i])
			case n.Items != nil:
				e = append(e, n.Items)
			}
			if n.Contains != nil {
				e = append(e, n.Contains)
			}
			if n.UnevaluatedItems != nil {
				e = append(e, n.UnevaluatedItems)
			}
		}
		m.charge(len(b) + len(e))
		m.entry = m.enqueue(e)
	}
}

// enqueue queues entry, its nodes each once, to be explored, unless it was
// queued before; an entry of leaves is measured at once. It reorders
// entry, and returns it emptied, for reuse: a duplicate allocates nothing.
func (m *widthMeter) enqueue(entry []*Node) []*Node {
	if len(entry) == 0 {
		return entry
	}
	if len(entry) > 1 {
		m.charge(len(entry) * bits.Len(uint(len(entry))) / 4) // comparisons of IDs, four to a look
		slices.SortFunc(entry, byID)
		entry = slices.Compact(entry)
	}
	leaves := true
	for _, n := range entry {
		leaves = leaves && isLeaf(n)
	}
	m.charge(len(entry))
	if leaves {
		m.width = max(m.width, len(entry))
		return entry[:0]
	}
	key := m.key[:0]
	for _, n := range entry {
		key = appendID(key, n.ID)
	}
	m.key = key
	m.charge(lookupLooks + len(entry)/4)
	if _, ok := m.entries[string(key)]; ok {
		return entry[:0]
	}
	// Explored once: its closures visit its nodes, and the queue and the
	// key hold them until then.
	m.budget -= len(entry)
	m.entries[string(key)] = struct{}{}
	m.queue = append(m.queue, slices.Clone(entry))
	return entry[:0]
}

// appendID appends a node ID's four bytes to an entry's or builders' key.
func appendID(b []byte, id int32) []byte {
	return append(b, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
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
	n.InPlace = appliesInPlace(n)
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
