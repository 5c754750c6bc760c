package schema

// NodeBudget is the subschemas several JSON Schema compiles may build
// together (Options.NodeBudget): a CompileToolset's tools share one of
// Limits.MaxNodes, as they share their patterns' compile work. Alone, each
// tool is bounded by MaxNodes, but tools that all refer to one large
// supplied document (resources) would each compile it again: 200 tools of
// 60 bytes referring to a 1 MB document took minutes of one request. Not
// safe for concurrent use: a request compiles its tools one at a time.
type NodeBudget struct {
	max, left int
}

// NewNodeBudget returns a budget of lim.MaxNodes (its default when not
// set) for Options.NodeBudget.
func NewNodeBudget(lim Limits) *NodeBudget {
	if lim.MaxNodes <= 0 {
		lim.MaxNodes = DefaultMaxNodes
	}
	return &NodeBudget{max: lim.MaxNodes, left: lim.MaxNodes}
}

// take spends one node, or reports false when none is left. A nil
// *NodeBudget bounds nothing.
func (b *NodeBudget) take() bool {
	if b == nil {
		return true
	}
	if b.left == 0 {
		return false
	}
	b.left--
	return true
}
