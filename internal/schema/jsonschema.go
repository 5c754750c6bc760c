package schema

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// This file is the JSON Schema profile's compiler (DESIGN.md §8): full
// JSON Schema in Draft 2020-12, 2019-09 and draft-07, compiled to the same
// nodes as the subset profiles. The schema is first checked against its
// dialect's meta-schema; then every node is compiled once per location and
// dynamic context (what $dynamicRef and $recursiveRef would resolve to
// there), so that validation never has to track a dynamic scope.

// jsCompiler compiles one JSON Schema document and what it refers to.
type jsCompiler struct {
	*compiler
	opts Options
	reg  *registry
	memo map[nodeKey]*Node
	ctxs map[string]*dynContext
	// entered memoizes enter: every subschema enters its resource, and
	// entering walks the resource's dynamic anchors.
	entered map[enterKey]*dynContext
	empty   *dynContext
	refs    int
	// bindings counts the dynamic anchors enter has looked at and copied
	// into new contexts, bounded by Limits.MaxNodes: contexts multiply
	// with the ways a resource can be reached, and each holds every
	// anchor in scope, so without it a 1 MB schema of 11 levels of two
	// $refs each, one into a resource of 2,300 anchors, took 30 s and
	// 5.5 GB to compile.
	bindings int
	// spare is the node past Limits.MaxNodes, once the schema has made
	// it: the compile has failed then, so every later subschema is spare
	// too, and costs no node, path or memo entry (a 1 MiB schema holds
	// 350,000). The walk goes on only through the keywords of the nodes
	// made before it.
	spare *Node
	// unknown maps the schema path of each unknown keyword warned about
	// to its warning in compiler.warnings (see noteReferenced).
	unknown map[string]int
	// metaFound holds the schema path and message of each violation of a
	// meta-schema found, so that one that two checks report is one
	// finding (see checkSchema).
	metaFound map[string]bool
	// targets holds each schema object a reference compiles, with the
	// vocabulary checkTarget checked it in, or nil when its document's
	// check had reached it.
	targets map[*jsondoc.Value]*vocabulary
	// targetBytes is what is left of the bytes checkTarget may check
	// (see targetBudget).
	targetBytes int64
}

// enterKey is one call of enter: a context entering a resource.
type enterKey struct {
	ctx *dynContext
	res *resource
}

// nodeKey identifies one compiled node: a schema value in a dynamic
// context.
type nodeKey struct {
	v   *jsondoc.Value
	ctx *dynContext
}

// dynContext is what the dynamic references of a schema resolve to, given
// the resources entered on the way to it: for each $dynamicAnchor name,
// the schema of the outermost resource that declares it, and (2019-09) the
// root of the outermost resource with "$recursiveAnchor": true.
type dynContext struct {
	key       string
	anchors   map[string]location
	recursive *location
}

// compileJSONSchema compiles doc under the JSON Schema profile.
func compileJSONSchema(stop *stopper, doc []byte, opts Options) *Result {
	opts = opts.withDefaults()
	res := &Result{}
	size := len(doc)
	for _, r := range opts.Resources {
		size += len(r)
	}
	c := &jsCompiler{compiler: &compiler{level: -1, regexps: newRegexps(opts), maxFindings: opts.MaxFindings, stop: stop,
		maxPathBytes: pathBudget(opts.Limits, size)}, opts: opts, memo: map[nodeKey]*Node{}, ctxs: map[string]*dynContext{},
		entered: map[enterKey]*dynContext{}, metaFound: map[string]bool{},
		targets: map[*jsondoc.Value]*vocabulary{}, targetBytes: targetBudget(size)}
	c.empty = c.intern(&dynContext{anchors: map[string]location{}})
	if len(doc) > opts.Limits.MaxBytes {
		c.limit("", "The schema is %d bytes, past the limit of %d.", len(doc), opts.Limits.MaxBytes)
		c.report(res)
		return res
	}
	c.reg = newRegistry(c, opts.Resources)
	root := &document{uri: opts.rootURI(), text: doc}
	c.reg.docs[root.uri] = root
	if err := c.reg.parse(root); err != nil {
		if c.tooDeep(err, opts.Limits.MaxDepth) {
			c.report(res)
			return res
		}
		res.Errors = append(res.Errors, parseFinding(err))
		return res
	}
	var err error
	if res.Canonical, err = jsondoc.CanonicalUntil(root.root, c.stop.now); err != nil {
		return res // given up: CompileContext returns no Result
	}
	if err := c.reg.index(root, opts.Dialect); err != nil {
		c.reportIndexError(err)
	} else if rerr := c.checkDocument(root); rerr != nil {
		// The message may begin "its meta-schema …" (see checkSchema).
		msg := strings.ToUpper(rerr.msg[:1]) + rerr.msg[1:] + "."
		c.addError(Finding{Code: rerr.code, Keyword: "$schema", SchemaPath: "/$schema", Message: msg, Offset: -1})
	}
	if c.stop.now() {
		return res // given up: CompileContext returns no Result
	}
	if len(c.errors) > 0 {
		c.report(res)
		return res
	}
	node := c.node(location{doc: root, v: root.root}, "", c.empty)
	if c.stop.now() {
		return res // given up: CompileContext returns no Result
	}
	if len(c.errors) == 0 {
		c.checkCycles(node)
	}
	c.noteReferenced()
	if len(c.errors) == 0 && !opts.AnyDocument {
		node = c.objectDocument(node)
	}
	c.report(res)
	if len(res.Errors) == 0 {
		res.Schema = &Schema{Root: node, Profile: JSONSchema, MaxDigits: c.maxDigits, Nodes: int(c.nodes)}
		c.finish(res, opts.Limits.MaxWidth, root.root)
	}
	if res.Schema != nil { // finish may refuse it
		res.Key = c.handleKey(res.Canonical)
	}
	return res
}

// rootURI is the URI the schema compiled is found at: that of the
// meta-schema, when it is one the request supplies (see
// jsCompiler.customMeta), so that its $schema, when it names itself,
// names the document being compiled, and not a second copy of it,
// whose resource and anchors would be declared twice.
func (o Options) rootURI() string {
	if len(o.metas) > 0 {
		return o.metas[len(o.metas)-1]
	}
	return defaultBase
}

// reportIndexError turns a problem met while indexing the schema into a
// finding.
func (c *jsCompiler) reportIndexError(err error) {
	if ie, ok := err.(*indexError); ok {
		c.addError(Finding{Code: ie.code, Keyword: ie.keyword, SchemaPath: ie.path, Message: ie.msg + ".", Offset: -1})
		return
	}
	c.malformed("", "schema", "The schema cannot be indexed: %v.", err)
}

// handleKey returns what the handle of the compiled schema covers: the
// schema's canonical text, the format mode, and every supplied document
// the schema used, by URI.
func (c *jsCompiler) handleKey(canonical []byte) []byte {
	key := append([]byte(nil), canonical...)
	if c.opts.FormatAssertion {
		key = append(key, "\x00format-assertion"...)
	}
	for _, uri := range c.reg.usedDocuments() {
		d := c.reg.docs[uri]
		key = append(key, 0)
		key = append(key, uri...)
		key = append(key, 0)
		if d.root != nil {
			key = jsondoc.AppendCanonical(key, d.root)
		}
	}
	return key
}

// limit reports a schema past one of the compile limits.
func (c *jsCompiler) limit(path, format string, args ...any) {
	c.errorf(CodeUnsupported, path, "limit", format, args...)
}

// intern returns the one dynContext equal to ctx.
func (c *jsCompiler) intern(ctx *dynContext) *dynContext {
	var sb strings.Builder
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range ctx.anchors {
			if !yield(k) {
				return
			}
		}
	}) {
		l := ctx.anchors[name]
		fmt.Fprintf(&sb, "%s=%p%s;", name, l.doc, l.ptr)
	}
	if ctx.recursive != nil {
		fmt.Fprintf(&sb, "rec=%p%s", ctx.recursive.doc, ctx.recursive.ptr)
	}
	ctx.key = sb.String()
	if old, ok := c.ctxs[ctx.key]; ok {
		return old
	}
	c.ctxs[ctx.key] = ctx
	return ctx
}

// enter returns the context of a schema in resource res, reached in
// context ctx: the outermost declarations win, so only names ctx lacks
// are bound.
func (c *jsCompiler) enter(ctx *dynContext, res *resource) *dynContext {
	if res == nil {
		return ctx
	}
	key := enterKey{ctx, res}
	if next, ok := c.entered[key]; ok {
		return next
	}
	next := c.enterOnce(ctx, res)
	c.entered[key] = next
	return next
}

// enterOnce is enter, not memoized. Past the bindings budget it reports
// the limit once and binds nothing more: the compile has failed then.
func (c *jsCompiler) enterOnce(ctx *dynContext, res *resource) *dynContext {
	if !c.bind(res.loc, len(res.dynamicAnchors)) {
		return ctx
	}
	var add map[string]location
	for name, l := range res.dynamicAnchors {
		if _, ok := ctx.anchors[name]; !ok {
			if add == nil {
				add = map[string]location{}
			}
			add[name] = l
		}
	}
	recursive := ctx.recursive == nil && res.recursiveAnchor
	if add == nil && !recursive {
		return ctx
	}
	next := &dynContext{anchors: map[string]location{}, recursive: ctx.recursive}
	for k, l := range ctx.anchors {
		next.anchors[k] = l
	}
	for k, l := range add {
		next.anchors[k] = l
	}
	if recursive {
		l := res.loc
		next.recursive = &l
	}
	if !c.bind(res.loc, len(next.anchors)) {
		return ctx
	}
	return c.intern(next)
}

// bind spends n of the bindings budget, or reports the limit (once) and
// false when it is spent.
func (c *jsCompiler) bind(at location, n int) bool {
	limit := c.opts.Limits.MaxNodes
	if c.bindings > limit {
		return false
	}
	if c.bindings += n; c.bindings > limit {
		c.limit(at.path(), "The schema's dynamic scopes bind more than %d dynamic anchors, past the limit.", limit)
		return false
	}
	return true
}

// nodeScope is what a keyword compiles in: the schema's location, its
// position, its vocabulary and dynamic context, and the node.
type nodeScope struct {
	loc   location
	pos   *position
	vocab *vocabulary
	ctx   *dynContext
	n     *Node
	// keys collects the member names properties, required and the
	// dependent keywords name; finishKeys merges them into n.Keys, and
	// resolves the names each n.DependentRequired and n.DependentSchemas
	// entry was written with (depNames, depSchemaNames, same order).
	keys           []Key
	depNames       []dependency
	depSchemaNames []string
}

// dependency is a dependentRequired entry by name.
type dependency struct {
	name     string
	requires []string
}

// node compiles the schema at loc, written under keyword ("" for a root),
// reached in context ctx.
func (c *jsCompiler) node(loc location, keyword string, ctx *dynContext) *Node {
	if c.spare != nil {
		return c.spare
	}
	pos := c.reg.positionOf(loc)
	if pos != nil {
		ctx = c.enter(ctx, pos.res)
	}
	key := nodeKey{loc.v, ctx}
	if n, ok := c.memo[key]; ok {
		return n
	}
	n := c.newNode(loc.path(), keyword)
	if c.stop.stopped() {
		c.spare = n // the result is not used: make no more nodes
		return n
	}
	if int(c.nodes) > c.opts.Limits.MaxNodes {
		c.limit(loc.path(), "The schema compiles to more than %d subschemas, past the limit.", c.opts.Limits.MaxNodes)
		c.spare = n
		return n
	}
	if c.pathsPast(n.Path) {
		c.spare = n
		return n
	}
	if !c.opts.NodeBudget.take() {
		c.limit(loc.path(), "The schemas compiled together in this request (a toolset's tools) compile to more than %d subschemas, past the limit.", c.opts.NodeBudget.max)
		c.spare = n
		return n
	}
	c.memo[key] = n
	switch loc.v.Kind {
	case jsontok.True:
		return n
	case jsontok.False:
		n.Never = true
		return n
	case jsontok.Object:
	default:
		c.malformed(loc.path(), "schema", "A schema must be an object or a boolean, not %s.", article(loc.v.TypeName()))
		return n
	}
	s := &nodeScope{loc: loc, pos: pos, vocab: c.vocabOf(pos), ctx: ctx, n: n}
	c.keywords(s)
	return n
}

// vocabOf returns the vocabulary in effect at pos: its resource's.
func (c *jsCompiler) vocabOf(pos *position) *vocabulary {
	if pos == nil || pos.res == nil {
		return &vocabulary{dialect: c.opts.Dialect, metaURI: dialects[c.opts.Dialect].metaURI}
	}
	return pos.res.vocab
}

// keywords compiles every keyword of the schema object s.loc.
func (c *jsCompiler) keywords(s *nodeScope) {
	v := s.loc.v
	d := s.vocab.dialect
	if d.legacy() && v.Get("$ref") != nil {
		c.ref(s, "$ref", v.Get("$ref")) // $ref overrides its siblings up to draft-07
		c.finishKeys(s)
		return
	}
	for _, m := range untilEnded(c.stop, v.Members) {
		kw, ok := jsKeywords[m.Name]
		known := ok && dialects[d].keywords[m.Name]
		switch {
		case !known && !legacyContainers[m.Name]:
			c.warnUnknown(s.child(m.Name), m.Name, d)
		case !known:
		case !s.vocab.isActive(m.Name):
			c.warn(s.child(m.Name), m.Name, "The keyword %q belongs to a vocabulary this schema's meta-schema does not use, so it is ignored.", m.Name)
		case kw.compile != nil:
			kw.compile(c, s, m.Name, m.Value)
		}
	}
	s.n.FalseItem = firstFalseItem(s.n)
	c.finishKeys(s)
}

// firstFalseItem is n's FalseItem.
func firstFalseItem(n *Node) int64 {
	for i, p := range n.PrefixItems {
		if p.Never {
			return int64(i)
		}
	}
	if n.Items != nil && n.Items.Never {
		return int64(len(n.PrefixItems))
	}
	return -1
}

// warnUnknown warns that the keyword name at path is not one of dialect
// d's, and notes where the warning is, for noteReferenced.
func (c *jsCompiler) warnUnknown(path, name string, d Dialect) {
	n := len(c.warnings)
	c.warn(path, keywordName(name), "The keyword %q is not part of JSON Schema %s, %s", name, d, unknownIgnored)
	if len(c.warnings) > n {
		if c.unknown == nil {
			c.unknown = map[string]int{}
		}
		c.unknown[path] = n
	}
}

// The ends of the warning about an unknown keyword: it is ignored, or (see
// noteReferenced) holds subschemas a $ref names, or is one.
const (
	unknownIgnored    = "so it is ignored (no value is checked against it); check its spelling."
	unknownReferenced = "so it is not applied to the value; the subschemas under it that a $ref names are (as $defs would hold them)."
	unknownApplied    = "so it is not applied to the value where it stands; its value is a schema a $ref names, and applies there (as a $defs entry would)."
)

// noteReferenced rewrites the warning about an unknown keyword whose value
// a $ref names as a schema, or that holds subschemas a $ref names
// (OpenAPI's "components", a "definitions" of a dialect without it): it
// is not applied to the value, but they are, so "ignored" and "check its
// spelling" would mislead. Only a $ref reaches a subschema under an
// unknown keyword, so a compiled node whose path is one or runs through
// one is such a subschema. It costs a look-up per "/" of each compiled
// node's path, and nothing when no unknown keyword was met.
func (c *jsCompiler) noteReferenced() {
	if len(c.unknown) == 0 {
		return
	}
	ends := map[string]string{} // by the unknown keyword's path
	for _, n := range c.memo {
		if _, ok := c.unknown[n.Path]; ok {
			ends[n.Path] = unknownApplied // the keyword's value itself: this wins
		}
		for i := len(n.Path) - 1; i > 0; i-- {
			if n.Path[i] != '/' {
				continue
			}
			if _, ok := c.unknown[n.Path[:i]]; ok && ends[n.Path[:i]] == "" {
				ends[n.Path[:i]] = unknownReferenced
			}
		}
	}
	for path, end := range ends {
		f := &c.warnings[c.unknown[path]]
		f.Message = strings.TrimSuffix(f.Message, unknownIgnored) + end
	}
}

// child returns the schema path of keyword kw of s.
func (s *nodeScope) child(kw string) string {
	return s.loc.path() + "/" + jsondoc.EscapePointerToken(kw)
}

// sub compiles the subschema at suffix (a pointer) under keyword kw of s.
func (c *jsCompiler) sub(s *nodeScope, kw, suffix string, v *jsondoc.Value) *Node {
	if c.spare != nil {
		return c.spare // past the limit: no pointer to build
	}
	loc := location{doc: s.loc.doc, ptr: s.loc.ptr + "/" + jsondoc.EscapePointerToken(kw) + suffix, v: v}
	return c.node(loc, kw, s.ctx)
}

// legacyContainers are names that are not keywords of the newer dialects
// but commonly hold subschemas that references point into: accepted
// without a warning.
var legacyContainers = map[string]bool{"definitions": true}

// jsKeyword is how the JSON Schema profile compiles one keyword.
type jsKeyword struct {
	compile func(c *jsCompiler, s *nodeScope, kw string, v *jsondoc.Value)
}

// checkCycles reports a reference cycle that consumes no input: a schema
// that applies itself to the same value, forever.
func (c *jsCompiler) checkCycles(root *Node) {
	const (
		unvisited = iota
		active
		done
	)
	state := map[int32]uint8{}
	type frame struct {
		n    *Node
		next []*Node
	}
	reported := false
	var stack []frame
	push := func(n *Node) {
		var next []*Node
		for _, kind := range valueKinds {
			inPlace(n, kind, func(s *Node) { next = append(next, s) })
		}
		state[n.ID] = active
		stack = append(stack, frame{n, next})
	}
	walk(root, func(start *Node) {
		if state[start.ID] != unvisited || reported {
			return
		}
		push(start)
		for len(stack) > 0 && !reported {
			top := &stack[len(stack)-1]
			if len(top.next) == 0 {
				state[top.n.ID] = done
				stack = stack[:len(stack)-1]
				continue
			}
			n := top.next[0]
			top.next = top.next[1:]
			switch state[n.ID] {
			case active:
				c.malformed(n.Path, "$ref", "Through references that consume no input, %s applies itself to the same value, so its validation would never end.", schemaAt(n.Path))
				reported = true
			case unvisited:
				push(n)
			}
		}
		stack = stack[:0]
	})
}

// finishKeys merges the member names the keywords named into the node's
// sorted Keys and resolves the indexes that point into them.
func (c *jsCompiler) finishKeys(s *nodeScope) {
	if c.stop.ended() {
		return // a stopped compile's nodes are not used
	}
	n := s.n
	var names, declared []string
	for run := range nameRuns(s.keys) {
		// One entry per keyword that named the member: properties gives
		// it its schema, required makes it required.
		k := s.keys[run[0]]
		for _, i := range run[1:] {
			other := s.keys[i]
			if other.Declared {
				k.Declared, k.Schema = true, other.Schema
			}
			k.Required = k.Required || other.Required
		}
		if k.Required {
			n.Required = append(n.Required, len(n.Keys))
		}
		if k.Declared {
			declared = append(declared, k.Name)
		}
		n.Keys = append(n.Keys, k)
		names = append(names, k.Name)
	}
	n.KeyNames = IndexNames(names)
	if len(declared) < len(names) {
		d := IndexNames(declared)
		n.DeclaredNames = &d
	}
	index := func(name string) int {
		i, _ := slices.BinarySearch(names, name)
		return i
	}
	for i := range n.DependentRequired {
		d := &n.DependentRequired[i]
		d.Key = index(s.depNames[i].name)
		for _, r := range s.depNames[i].requires {
			d.Requires = append(d.Requires, index(r))
		}
	}
	// By Key, so that a validator finds a present member's entries with
	// a binary search.
	slices.SortStableFunc(n.DependentRequired, func(a, b Dependency) int { return cmp.Compare(a.Key, b.Key) })
	for i := range n.DependentSchemas {
		d := &n.DependentSchemas[i]
		d.Key = index(s.depSchemaNames[i])
		n.Keys[d.Key].Dependents = append(n.Keys[d.Key].Dependents, i)
	}
}

// keywordAt returns the keyword a pointer into a schema document names:
// the last keyword on the way to it, or "schema" when it points at a
// (sub)schema itself.
func keywordAt(d Dialect, ptr string) string {
	if ptr == "" {
		return "schema"
	}
	tokens := strings.Split(ptr, "/")[1:]
	keyword := "schema"
	for i := 0; i < len(tokens); {
		kw := strings.ReplaceAll(strings.ReplaceAll(tokens[i], "~1", "/"), "~0", "~")
		i++
		keyword = kw
		if !subschemaKeyword(d, kw) {
			return keyword
		}
		switch {
		case severalSubschemas[kw]:
			i++ // the member name or index that leads to the subschema
		case kw == "items" && i < len(tokens):
			if _, err := strconv.Atoi(tokens[i]); err == nil && d != Draft2020 {
				i++
			}
		}
		if i >= len(tokens) {
			return keyword
		}
		keyword = "schema"
	}
	return keyword
}
