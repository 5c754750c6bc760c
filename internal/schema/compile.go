package schema

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/decimal"
	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/pattern"
)

// DefaultMaxDepth bounds the nesting of a subset profile's schema
// document (the JSON Schema profile's is Limits.MaxDepth).
const DefaultMaxDepth = 64

// DefaultMaxFindings is Options.MaxFindings's default, as many as the
// validator keeps of an argument's findings (validator.DefaultMaxFindings).
const DefaultMaxFindings = 100

// Result is the outcome of compiling one schema.
type Result struct {
	// Schema is the compiled schema; nil when Errors is not empty.
	Schema *Schema
	// Errors lists the unsupported or malformed parts in document order:
	// the first Options.MaxFindings of them. When the first unsupported
	// one comes after that many malformed ones, it takes the last place,
	// so that Code is what every error together says.
	Errors []Finding
	// ErrorsOmitted counts the errors past Options.MaxFindings, left out
	// of Errors (their messages never built).
	ErrorsOmitted int
	// Warnings lists keywords that are accepted but not enforced, up to
	// Options.MaxFindings.
	Warnings []Finding
	// WarningsOmitted counts the warnings past Options.MaxFindings, left
	// out of Warnings.
	WarningsOmitted int
	// Canonical is the schema's canonical JSON text (see package jsondoc);
	// nil when the document is not JSON.
	Canonical []byte
	// Key is what the schema's handle must cover: the canonical text, and
	// for the JSON Schema profile the options and supplied documents that
	// change what it accepts. Nil when the schema did not compile.
	Key []byte
}

// Code summarizes Errors (CodeNone when the schema compiled). The errors
// left out of Errors never change it (see Errors).
func (r *Result) Code() Code { return Summarize(r.Errors) }

// Options configure CompileWith. The zero value is ready to use.
type Options struct {
	// Resources are documents a JSON Schema may refer to, by absolute URI
	// (JSON Schema profile only). Documents never referred to are never
	// read. Callers refuse keys that CheckResources refuses; of two keys
	// for one document, the first in sorted order is used.
	Resources map[string][]byte
	// FormatAssertion asserts format for the standard formats, and makes
	// an unknown format unsupported (JSON Schema profile only).
	FormatAssertion bool
	// Dialect is the dialect of a JSON Schema without $schema. Default
	// Draft2020.
	Dialect Dialect
	// AnyDocument accepts documents that are not objects (the conformance
	// suite's). Tool arguments are always one object, so the service never
	// sets it.
	AnyDocument bool
	// Limits bound the schema. Zero fields take the defaults.
	Limits Limits
	// MaxFindings bounds each of Result.Errors and Result.Warnings; the
	// findings past it are only counted (Result.ErrorsOmitted,
	// Result.WarningsOmitted), so that a schema of a million failing
	// properties does not cost a million messages. Default
	// DefaultMaxFindings.
	MaxFindings int
	// PatternBudget, when set, is the compile work the schema's patterns
	// spend instead of a budget of Limits.MaxPatternSteps of their own: a
	// caller compiling many schemas for one request (a toolset's tools)
	// gives them one (see NewPatternBudget), so that the request's
	// patterns are bounded together.
	PatternBudget *pattern.Budget
	// PatternMemo, when set, holds the regular expressions compiled by
	// the schemas given it (a toolset's tools), so that an expression they
	// repeat is compiled, and charged to PatternBudget, once (see
	// NewPatternMemo).
	PatternMemo *PatternMemo
	// NodeBudget, when set, is the subschemas a JSON Schema profile
	// compile may build, shared with the other compiles given it (see
	// NodeBudget), besides Limits.MaxNodes for the schema alone.
	NodeBudget *NodeBudget
	// trusted skips the meta-schema check (built-in meta-schemas).
	trusted bool
	// metas are the URIs of the supplied meta-schemas whose compile
	// encloses this one, and last the one this compile compiles (see
	// jsCompiler.customMeta).
	metas []string
}

// Limits bound what a JSON Schema may demand (DESIGN.md §8). A schema past
// one is UNSUPPORTED_CAPABILITY with keyword "limit".
type Limits struct {
	// MaxBytes bounds the schema document. Default 1 MiB.
	MaxBytes int
	// MaxDepth bounds the nesting of the schema document. Default 128.
	MaxDepth int
	// MaxNodes bounds the compiled subschemas, and separately the
	// dynamic anchor bindings of the JSON Schema profile's dynamic scopes
	// (each context a $dynamicRef may resolve in holds every anchor in
	// scope). Default 100,000.
	MaxNodes int
	// MaxRefs bounds the references. Default 10,000.
	MaxRefs int
	// MaxWidth bounds Schema.Width, the most subschemas that may evaluate
	// one value at once, and so the work per argument byte. Default
	// DefaultMaxWidth (every profile).
	MaxWidth int
	// MaxPatternSteps bounds the work of compiling the schema's regular
	// expressions together (pattern, patternProperties), in the steps of
	// pattern.Limits.MaxCompileSteps: some 10–40 ns each. Each distinct
	// expression is compiled once. Default DefaultMaxPatternSteps (every
	// profile).
	MaxPatternSteps int
	// MaxPatternBytes bounds the memory the schema's automata hold
	// together (pattern, patternProperties), as pattern.Limits.MaxDFABytes
	// counts it: each is built within what the ones before it left.
	// Without it a schema of a few kilobytes could hold megabytes of
	// automata (45 distinct [a-q][^u-z]{10}x patterns, 2.5 KB, held
	// 4.6 MiB). Default DefaultMaxPatternBytes (every profile).
	MaxPatternBytes int
	// Pattern bounds each regular expression alone: its nesting, program,
	// automaton and compile work, and the parts a patternProperties set
	// may be split into. Zero fields take the pattern package's defaults;
	// its Budget is ignored (MaxPatternSteps and MaxPatternBytes make the
	// schema's, or Options.PatternBudget is used).
	Pattern pattern.Limits
	// MaxMultipleOfDigits bounds the significant digits of multipleOf:
	// deciding a multiple keeps the argument's remainder modulo them, so
	// its work per argument digit grows with them (a multipleOf of 100,000
	// digits cost 16 ms per byte of 1e99999999 items). Default
	// DefaultMaxMultipleOfDigits.
	MaxMultipleOfDigits int
	// MaxPathRatio bounds the JSON pointers of the compiled subschemas
	// together, which each holds whole (a long member name is in the
	// pointer of every subschema below it): at most MaxPathRatio bytes per
	// byte of the schema and its resources, and 1 MiB. Real schemas' come
	// to a few bytes per byte; one 50 KB name above 6,000 subschemas held
	// 371 MB. Default DefaultMaxPathRatio (every profile).
	MaxPathRatio int
}

// Defaults for Limits.
const (
	DefaultMaxBytes = 1 << 20
	DefaultMaxNodes = 100_000
	DefaultMaxRefs  = 10_000
	// DefaultMaxPatternSteps gives a schema's patterns together twice the
	// work one pattern may take alone: some 0.2–0.8 s, and room for
	// thousands of the patterns real tools use (1,000–20,000 steps each).
	DefaultMaxPatternSteps = 2 * pattern.DefaultMaxCompileSteps
	// DefaultMaxPatternBytes gives a schema's automata together twice what
	// one may hold alone; real tools' take 1–50 KB each.
	DefaultMaxPatternBytes = 2 * pattern.DefaultMaxDFABytes
	// DefaultMaxMultipleOfDigits allows every significand of 128 bits (and
	// Python's Decimal, 28 digits by default); at it a multipleOf costs at
	// most about 1 µs per argument byte, against 0.15 µs up to 17 digits.
	DefaultMaxMultipleOfDigits = 38
	// DefaultMaxPathRatio is Limits.MaxPathRatio's default.
	DefaultMaxPathRatio = 64
	// DefaultSchemaDepth bounds the nesting of a JSON Schema profile
	// document; the subset profiles keep DefaultMaxDepth.
	DefaultSchemaDepth = 128
)

func (o Options) withDefaults() Options {
	if o.Dialect == 0 {
		o.Dialect = Draft2020
	}
	if o.MaxFindings <= 0 {
		o.MaxFindings = DefaultMaxFindings
	}
	l := &o.Limits
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultSchemaDepth
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = DefaultMaxNodes
	}
	if l.MaxRefs <= 0 {
		l.MaxRefs = DefaultMaxRefs
	}
	if l.MaxWidth <= 0 {
		l.MaxWidth = DefaultMaxWidth
	}
	if l.MaxPatternSteps <= 0 {
		l.MaxPatternSteps = DefaultMaxPatternSteps
	}
	if l.MaxPatternBytes <= 0 {
		l.MaxPatternBytes = DefaultMaxPatternBytes
	}
	if l.MaxMultipleOfDigits <= 0 {
		l.MaxMultipleOfDigits = DefaultMaxMultipleOfDigits
	}
	if l.MaxPathRatio <= 0 {
		l.MaxPathRatio = DefaultMaxPathRatio
	}
	return o
}

// NewPatternBudget returns a budget of lim.MaxPatternSteps and
// lim.MaxPatternBytes (their defaults when not set) for
// Options.PatternBudget.
func NewPatternBudget(lim Limits) *pattern.Budget {
	lim = Options{Limits: lim}.withDefaults().Limits
	return pattern.NewBudget(lim.MaxPatternSteps, lim.MaxPatternBytes)
}

// Compile checks a whole schema document against profile and compiles it,
// with the default Options.
func Compile(profile Profile, doc []byte) *Result { return CompileWith(profile, doc, Options{}) }

// CompileWith checks a whole schema document against profile and compiles
// it. Every finding is reported, not just the first; a schema with any
// error yields no Schema. A subset profile's document may nest at most
// DefaultMaxDepth levels (its examples and default values included): a
// deeper one is UNSUPPORTED_CAPABILITY with keyword "limit", its only
// finding. doc is only read (the server hands it a
// request's string in place), which the conformance suite checks on
// read-only memory.
func CompileWith(profile Profile, doc []byte, opts Options) *Result {
	return compileWith(nil, profile, doc, opts)
}

// compileWith is CompileWith, stopping when stop says so (see
// CompileContext).
func compileWith(stop *stopper, profile Profile, doc []byte, opts Options) *Result {
	if profile == JSONSchema {
		return compileJSONSchema(stop, doc, opts)
	}
	opts = opts.withDefaults()
	res := &Result{}
	rules := profileRules(profile)
	if rules == nil {
		res.Errors = append(res.Errors, Finding{Code: CodeValidation, Keyword: "profile",
			Message: fmt.Sprintf("Profile %d is not a known profile.", profile), Offset: -1})
		return res
	}
	c := &compiler{rules: rules, level: -1, regexps: newRegexps(opts), maxFindings: opts.MaxFindings, stop: stop,
		maxPathBytes: pathBudget(opts.Limits, len(doc))}
	v, err := jsondoc.ParseUntil(doc, DefaultMaxDepth, stop.now)
	if c.tooDeep(err, DefaultMaxDepth) {
		c.report(res)
		return res
	}
	if err != nil {
		res.Errors = append(res.Errors, parseFinding(err))
		return res
	}
	if res.Canonical, err = jsondoc.CanonicalUntil(v, c.stop.now); err != nil {
		return res // given up: CompileContext returns no Result
	}
	root := c.node(v, "", "")
	if c.stop.now() {
		return res // given up: CompileContext returns no Result
	}
	c.report(res)
	if len(res.Errors) == 0 {
		res.Schema = &Schema{Root: root, Profile: profile, MaxDigits: c.maxDigits, Nodes: int(c.nodes)}
		c.finish(res, opts.Limits.MaxWidth, v)
	}
	if res.Schema != nil { // finish may refuse it
		res.Key = res.Canonical
	}
	return res
}

func parseFinding(err error) Finding {
	f := Finding{Code: CodeValidation, Keyword: "json", Offset: -1}
	switch e := err.(type) {
	case *jsontok.SyntaxError:
		f.Message = fmt.Sprintf("The schema is not valid JSON: %s.", e)
	case *jsondoc.DuplicateError:
		f.SchemaPath = e.Pointer
		f.Message = fmt.Sprintf("The schema object at %q has the member %q twice.", e.Pointer, e.Name)
	default:
		f.Message = fmt.Sprintf("The schema could not be read: %s.", err)
	}
	return f
}

// keyword is how a profile treats one schema keyword.
type keyword struct {
	// applies is the set of types the keyword constrains; 0 means any.
	applies Types
	// compile checks the keyword's value and records it on the node.
	compile func(c *compiler, n *Node, v *jsondoc.Value, path string)
	// ignored marks a keyword that is accepted but not enforced: each use is
	// reported as a warning.
	ignored bool
}

// rules is one profile: its keyword table and the rules on whole nodes.
type rules struct {
	profile  Profile
	keywords map[string]keyword
	// types reads the node's "type" value (nil when absent).
	types func(c *compiler, v *jsondoc.Value, path string) Types
	// declared, when set, returns the type of the node obj (n its node,
	// its "type" read) that its keywords must be able to constrain, where
	// the profile derives one that "type" does not say (0: none to check
	// against); nil means n.Types.
	declared func(n *Node, obj *jsondoc.Value, root bool) Types
	// check applies the profile's rules to a compiled node.
	check func(c *compiler, n *Node, obj *jsondoc.Value, root bool)
	// unknown explains why a keyword outside the table is refused.
	unknown func(name string) string
}

func profileRules(p Profile) *rules {
	switch p {
	case ToolInput:
		return toolInputRules
	case OutputBindable:
		return outputBindableRules
	}
	return nil
}

// compiler holds the findings of one compilation.
type compiler struct {
	rules *rules
	// errors and warnings hold at most maxFindings each; errorsOmitted and
	// warningsOmitted count the rest (see addError).
	errors          []Finding
	warnings        []Finding
	errorsOmitted   int
	warningsOmitted int
	maxFindings     int
	unsupportedKept bool // errors holds a CodeUnsupported finding
	maxDigits       int
	stop            *stopper // when to give up: the compile's context ended
	level           int      // nesting of the node being compiled: 0 for the root
	nodes           int32    // nodes made so far
	regexps         regexps
	// pathBytes counts the bytes of the nodes' paths, which each node
	// holds whole: a long member name above many subschemas is copied
	// into every one of them. Past maxPathBytes (see pathBudget) the
	// schema is refused (see pathsPast).
	pathBytes, maxPathBytes int64
	pathsRefused            bool
}

// pathBytesFree is what pathBudget allows besides Limits.MaxPathRatio.
const pathBytesFree = 1 << 20

// pathBudget returns the path bytes a schema of n bytes (with its
// resources) may hold under l.
func pathBudget(l Limits, n int) int64 { return int64(l.MaxPathRatio)*int64(n) + pathBytesFree }

// newNode returns a node at path with no keyword yet: every bound absent.
func (c *compiler) newNode(path, keyword string) *Node {
	n := &Node{Path: path, ID: c.nodes, Keyword: keyword, Types: AnyType,
		MinLength: -1, MaxLength: -1, MinProperties: -1, MaxProperties: -1,
		MinItems: -1, MaxItems: -1, MinContains: 1, MaxContains: -1, FalseItem: -1}
	c.nodes++
	c.pathBytes += int64(len(path))
	return n
}

// pathsPast reports, once, that the nodes' paths passed their budget: the
// schema is then refused at path (keyword "limit") and compiles no further
// subschema.
func (c *compiler) pathsPast(path string) bool {
	switch {
	case c.pathsRefused:
		return true
	case c.pathBytes <= c.maxPathBytes:
		return false
	}
	c.pathsRefused = true
	c.errorf(CodeUnsupported, path, "limit", "%s.", pathsPastMessage(c.maxPathBytes))
	return true
}

// pathsPastMessage explains a refusal for paths past max bytes.
func pathsPastMessage(max int64) string {
	return fmt.Sprintf("The schema's subschemas lie under JSON pointers of more than %d bytes together, past the limit: long member names above many subschemas. Shorten the names, or hoist the subschemas", max)
}

// dropError reports whether an error of code is left out of the findings,
// and counts it if so: once maxFindings are kept, every further error is,
// except the first CodeUnsupported one (see keepError). A caller that
// builds a finding's message asks first, so a dropped one costs no text.
func (c *compiler) dropError(code Code) bool {
	if len(c.errors) < c.maxFindings || code == CodeUnsupported && !c.unsupportedKept {
		return false
	}
	c.errorsOmitted++
	return true
}

// keepError records f, which dropError kept. When the list is full, f is
// the first unsupported error after maxFindings malformed ones: it takes
// the last place (that one is counted as omitted instead), so that the
// result's code, UNSUPPORTED_CAPABILITY when any error is, stays exact
// and the list still shows why.
func (c *compiler) keepError(f Finding) {
	if f.Code == CodeUnsupported {
		c.unsupportedKept = true
	}
	if len(c.errors) < c.maxFindings {
		c.errors = append(c.errors, f)
		return
	}
	c.errors[len(c.errors)-1] = f
	c.errorsOmitted++
}

// addError records the error f, or counts it as omitted.
func (c *compiler) addError(f Finding) {
	if !c.dropError(f.Code) {
		c.keepError(f)
	}
}

// errorf records an error of code at path under keyword kw, formatting
// its message only when it is kept.
func (c *compiler) errorf(code Code, path, kw, format string, args ...any) {
	if !c.dropError(code) {
		c.keepError(Finding{Code: code, Keyword: kw, SchemaPath: path, Message: fmt.Sprintf(format, args...), Offset: -1})
	}
}

// dropWarning reports whether a warning is left out of the findings (the
// list holds maxFindings already), and counts it if so.
func (c *compiler) dropWarning() bool {
	if len(c.warnings) < c.maxFindings {
		return false
	}
	c.warningsOmitted++
	return true
}

// addWarning records the warning f, or counts it as omitted.
func (c *compiler) addWarning(f Finding) {
	if !c.dropWarning() {
		c.warnings = append(c.warnings, f)
	}
}

// report puts the findings into res.
func (c *compiler) report(res *Result) {
	res.Errors, res.ErrorsOmitted = c.errors, c.errorsOmitted
	res.Warnings, res.WarningsOmitted = c.warnings, c.warningsOmitted
}

// tooDeep reports whether err is the parser's refusal of a document that
// nests past max levels, and records it then: valid JSON and valid JSON
// Schema past a limit, so UNSUPPORTED_CAPABILITY keyword "limit" (every
// profile), not a "json" finding.
func (c *compiler) tooDeep(err error, max int) bool {
	se, ok := err.(*jsontok.SyntaxError)
	if ok && se.TooDeep {
		c.unsupported("", "limit", "The schema nests deeper than the limit of %d.", max)
	}
	return ok && se.TooDeep
}

func (c *compiler) unsupported(path, kw, format string, args ...any) {
	c.errorf(CodeUnsupported, path, kw, format, args...)
}

func (c *compiler) malformed(path, kw, format string, args ...any) {
	c.errorf(CodeValidation, path, kw, format, args...)
}

func (c *compiler) warn(path, kw, format string, args ...any) {
	if !c.dropWarning() {
		c.warnings = append(c.warnings, Finding{Code: CodeUnsupported, Keyword: kw, SchemaPath: path,
			Message: fmt.Sprintf(format, args...), Offset: -1})
	}
}

func child(path, token string) string { return path + "/" + jsondoc.EscapePointerToken(token) }

// node compiles the schema v found at path, under the applicator keyword
// ("" for the root; see Node.Keyword). It always walks every keyword and
// subschema so that all findings are collected, and returns nil when v is
// not a schema object.
func (c *compiler) node(v *jsondoc.Value, path, keyword string) *Node {
	if c.stop.stopped() {
		return nil // the result is not used
	}
	root := keyword == ""
	if v.Kind != jsontok.Object {
		if v.IsBool() {
			c.unsupported(path, "schema", "Boolean schemas (%s) are not supported: write an object schema with a type.", v.Kind)
		} else {
			c.malformed(path, "schema", "A schema must be a JSON object, not %s.", article(v.TypeName()))
		}
		return nil
	}
	if c.pathsRefused {
		return nil
	}
	c.level++
	defer func() { c.level-- }()
	n := c.newNode(path, keyword)
	if c.pathsPast(path) {
		return nil
	}
	if t := v.Get("type"); t != nil {
		n.Types = c.rules.types(c, t, child(path, "type"))
	} else if root && v.Get("oneOf") == nil {
		n.Types = TypeObject
	}
	applied := n.Types // the type the keywords must be able to constrain
	if c.rules.declared != nil {
		applied = c.rules.declared(n, v, root)
	}
	for _, m := range v.Members {
		kpath := child(path, m.Name)
		kw, ok := c.rules.keywords[m.Name]
		switch {
		case m.Name == "type":
			continue
		case !ok:
			if !c.dropError(CodeUnsupported) {
				c.keepError(Finding{Code: CodeUnsupported, Keyword: keywordName(m.Name), SchemaPath: kpath,
					Message: c.rules.unknown(m.Name), Offset: -1})
			}
			continue
		case kw.ignored:
			c.warn(kpath, m.Name, "The keyword %q is accepted but not enforced by the %s profile: values are not checked against it.", m.Name, profileTitle(c.rules.profile))
		}
		if kw.applies != 0 && applied != 0 && applied&kw.applies == 0 {
			c.unsupported(kpath, m.Name, "The keyword %q does not apply to type %s; this profile does not allow keywords that cannot constrain the value.", m.Name, applied)
		}
		if kw.compile != nil {
			kw.compile(c, n, m.Value, kpath)
		}
	}
	if !c.stop.ended() { // a stopped compile's nodes are not used: no names sorted
		c.rules.check(c, n, v, root)
	}
	return n
}

// keywordName is the Finding.Keyword for a schema member: its name, or
// "(empty)" for the empty name, so that every finding names its rule.
func keywordName(name string) string {
	if name == "" {
		return "(empty)"
	}
	return name
}

func profileTitle(p Profile) string { return strings.ReplaceAll(p.String(), "_", " ") }

// article is a JSON type's name as a message says it: with its article
// ("a string", "an object"), and null alone, as the literal it is.
func article(typeName string) string {
	if typeName == "null" {
		return typeName
	}
	if strings.IndexByte("aeiou", typeName[0]) >= 0 {
		return "an " + typeName
	}
	return "a " + typeName
}

// compileDescription checks that description is a string.
func compileDescription(c *compiler, _ *Node, v *jsondoc.Value, path string) {
	if v.Kind != jsontok.String {
		c.malformed(path, "description", "description must be a string, not %s.", article(v.TypeName()))
	}
}

// compileProperties compiles every property schema.
func compileProperties(c *compiler, n *Node, v *jsondoc.Value, path string) {
	if v.Kind != jsontok.Object {
		c.malformed(path, "properties", "properties must be an object mapping names to schemas, not %s.", article(v.TypeName()))
		return
	}
	for _, m := range untilEnded(c.stop, v.Members) {
		if c.pathsRefused {
			return // building the next path would cost what the refusal saves
		}
		s := c.node(m.Value, child(path, m.Name), "properties")
		n.Keys = append(n.Keys, Key{Name: m.Name, Schema: s, Declared: true})
	}
}

// compileRequired records required names; they are resolved against the
// declared properties by finishKeys.
func compileRequired(c *compiler, n *Node, v *jsondoc.Value, path string) {
	if v.Kind != jsontok.Array {
		c.malformed(path, "required", "required must be an array of strings, not %s.", article(v.TypeName()))
		return
	}
	for i, item := range v.Items {
		if item.Kind != jsontok.String {
			c.malformed(child(path, fmt.Sprint(i)), "required", "required must list strings; item %d is %s.", i, article(item.TypeName()))
			continue
		}
		// Remember the name as an undeclared key; finishKeys merges it.
		n.Keys = append(n.Keys, Key{Name: item.Str})
		n.Required = append(n.Required, len(n.Keys)-1)
	}
}

// finishKeys sorts a node's keys, merges required names into the declared
// ones and turns Required into indexes of the sorted table.
func finishKeys(n *Node) {
	keys := n.Keys
	required := make([]bool, len(keys))
	for _, i := range n.Required {
		required[i] = true
	}
	closed := n.Additional != nil && n.Additional.Never
	n.Keys, n.Required = make([]Key, 0, len(keys)), nil
	names := make([]string, 0, len(keys))
	for run := range nameRuns(keys) {
		// The property's own (declared) entry, if any, wins over those
		// that required added.
		winner, isRequired := run[0], false
		for _, i := range run {
			isRequired = isRequired || required[i]
			if !keys[winner].Declared && keys[i].Declared {
				winner = i
			}
		}
		k := keys[winner]
		if !k.Declared && closed {
			// Required but forbidden: it can never be matched, so it stays
			// out of the name table and an object is rejected at its first
			// byte, like any undeclared name.
			n.RequiredForbidden = append(n.RequiredForbidden, k.Name)
			continue
		}
		if isRequired {
			k.Required = true
			n.Required = append(n.Required, len(n.Keys))
		}
		n.Keys = append(n.Keys, k)
		names = append(names, k.Name)
	}
	n.KeyNames = IndexNames(names)
}

// nameRuns yields the positions of keys grouped by name: the groups in
// name order, each group's positions in the order they were written. It
// sorts positions, not keys, and never goes through a map: merging
// 130,000 properties through a map of them took 100 ms, and takes 30 ms
// this way.
func nameRuns(keys []Key) iter.Seq[[]int32] {
	return func(yield func([]int32) bool) {
		order := make([]int32, len(keys))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int {
			if c := strings.Compare(keys[a].Name, keys[b].Name); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		for start := 0; start < len(order); {
			end := start + 1
			for end < len(order) && keys[order[end]].Name == keys[order[start]].Name {
				end++
			}
			if !yield(order[start:end]) {
				return
			}
			start = end
		}
	}
}

// compileNumberBound returns the exact value of a bound keyword.
func (c *compiler) number(v *jsondoc.Value, path, kw string) *decimal.Decimal {
	if !c.exactNumber(v, func() string { return path }, kw) {
		return nil
	}
	d := v.Num
	return &d
}

// exactNumber reports whether v is a number the engine compares exactly,
// reporting it at the path path returns (computed only for a finding)
// otherwise, and sizes the validators' digit buffers.
func (c *compiler) exactNumber(v *jsondoc.Value, path func() string, kw string) bool {
	if v.Kind != jsontok.Number {
		c.malformed(path(), kw, "%s must be a number, not %s.", kw, article(v.TypeName()))
		return false
	}
	if !v.Num.InRange() {
		c.unsupported(path(), kw, "The number %s has a decimal exponent too far from zero for this service to compare it exactly (the limit is about ±%.1e).", v.Raw, float64(decimal.ExactExponent))
		return false
	}
	c.maxDigits = max(c.maxDigits, len(v.Num.Digits))
	return true
}

// count reads the value of the count keyword kw of n (minLength,
// maxItems, ...): a non-negative integer, 1.0 and 1e2 included. A count
// beyond int64 saturates at math.MaxInt64 rather than being refused: it
// is legal JSON Schema, and saturating changes no verdict, since no
// string, array or object within the limits (Limits.MaxBytes, the
// server's message and call sizes) comes near 2^63 characters, items or
// members, so the schema is honoured exactly. n.Saturated then keeps the
// schema's value for messages. ok is false for a value that is not a
// non-negative integer.
func count(n *Node, kw string, v *jsondoc.Value) (k int64, ok bool) {
	if v.Kind != jsontok.Number || v.Num.Neg || !v.Num.IsInteger() {
		return 0, false
	}
	if v.Num.IsZero() {
		return 0, true
	}
	if v.Num.Exp <= 19 { // 19 digits or fewer fit a uint64
		var u uint64
		for i := range v.Num.Exp {
			u *= 10
			if i < int64(len(v.Num.Digits)) {
				u += uint64(v.Num.Digits[i] - '0')
			}
		}
		if u <= math.MaxInt64 {
			return int64(u), true
		}
	}
	if n.Saturated == nil {
		n.Saturated = map[string]*decimal.Decimal{}
	}
	d := v.Num
	n.Saturated[kw] = &d
	return math.MaxInt64, true
}

func compileMinimum(c *compiler, n *Node, v *jsondoc.Value, path string) {
	n.Minimum = c.number(v, path, "minimum")
}

func compileMaximum(c *compiler, n *Node, v *jsondoc.Value, path string) {
	n.Maximum = c.number(v, path, "maximum")
}

// compileEnum groups the choices by kind and normalises them.
func compileEnum(c *compiler, n *Node, v *jsondoc.Value, path string) {
	if v.Kind != jsontok.Array {
		c.malformed(path, "enum", "enum must be an array of values, not %s.", article(v.TypeName()))
		return
	}
	n.Enum = c.enum(v.Items, path, "enum")
}

// enum compiles a list of choices (of enum, or the one value of const),
// each found at path/i (or at path itself for const). Its work and memory
// are linear in the choices: paths are made only for findings, and the
// message text stops growing once it is long enough to be cut.
func (c *compiler) enum(choices []*jsondoc.Value, path, kw string) *Enum {
	e := &Enum{}
	var text []byte
	at := func(i int) func() string {
		return func() string {
			if kw == "enum" {
				return child(path, strconv.Itoa(i))
			}
			return path
		}
	}
	var strs []string
	numbers := 0
	for _, choice := range choices {
		if choice.Kind == jsontok.Number {
			numbers++
		}
	}
	e.Numbers = make([]decimal.Decimal, 0, numbers)
	for i, choice := range choices {
		if len(text) <= enumTextLen {
			if i > 0 {
				text = append(text, ", "...)
			}
			text = jsondoc.AppendReadable(text, choice)
		}
		switch choice.Kind {
		case jsontok.String:
			strs = append(strs, choice.Str)
		case jsontok.Number:
			if c.exactNumber(choice, at(i), kw) {
				e.Numbers = append(e.Numbers, choice.Num)
			}
		case jsontok.True:
			e.True = true
		case jsontok.False:
			e.False = true
		case jsontok.Null:
			e.Null = true
		default:
			c.composite(choice, at(i)(), kw)
			canon := string(jsondoc.Canonical(choice))
			e.Composite = append(e.Composite, canon)
			e.MaxComposite = max(e.MaxComposite, len(canon))
		}
	}
	e.finish(strs)
	e.Text = Truncate(string(text), enumTextLen)
	return e
}

// enumTextLen is how many bytes of an enum's choices messages quote.
const enumTextLen = 200

// composite checks the numbers inside an object or array choice: they
// must be in range, and they size the validators' digit buffers.
func (c *compiler) composite(v *jsondoc.Value, path, kw string) {
	switch v.Kind {
	case jsontok.Number:
		c.number(v, path, kw)
	case jsontok.Array:
		for i, item := range v.Items {
			c.composite(item, child(path, fmt.Sprint(i)), kw)
		}
	case jsontok.Object:
		for _, m := range v.Members {
			c.composite(m.Value, child(path, m.Name), kw)
		}
	}
}

// compileOneOf compiles every branch.
func compileOneOf(c *compiler, n *Node, v *jsondoc.Value, path string) {
	if v.Kind != jsontok.Array || len(v.Items) == 0 {
		c.malformed(path, "oneOf", "oneOf must be a non-empty array of schemas.")
		return
	}
	var branches []*Node
	var keys []string
	for i, item := range untilEnded(c.stop, v.Items) {
		if c.pathsRefused {
			return // see compileProperties
		}
		branches = append(branches, c.node(item, child(path, fmt.Sprint(i)), "oneOf"))
		keys = append(keys, behaviourKey(item))
	}
	if !slices.Contains(branches, nil) {
		n.OneOf, n.OneOfCount = distinctBranches(branches, keys), len(branches)
	}
}

// annotationKeywords are keywords that never change what a schema accepts.
var annotationKeywords = map[string]bool{
	"description": true, "title": true, "examples": true, "default": true, "$comment": true,
	"deprecated": true, "readOnly": true, "writeOnly": true,
}

// behaviourKey returns a key that two subschemas share when they accept
// the same values for certain: their canonical text without their own
// annotations. (Nested annotations make keys differ; that only costs an
// evaluation, never correctness.)
func behaviourKey(v *jsondoc.Value) string {
	if v.Kind != jsontok.Object {
		return string(jsondoc.Canonical(v))
	}
	stripped := *v
	stripped.Members = nil
	for _, m := range v.Members {
		if !annotationKeywords[m.Name] {
			stripped.Members = append(stripped.Members, m)
		}
	}
	return string(jsondoc.Canonical(&stripped))
}

// Defaults for the work a compiled schema may demand of a validator.
const (
	// DefaultMaxWidth bounds Schema.Width: how many subschemas may evaluate
	// one argument value at the same time.
	DefaultMaxWidth = 1000
	// widthBudget bounds the steps spent measuring Schema.Width.
	widthBudget = 2_000_000
)

// finish measures a compiled schema: its width, which must stay within
// the bound, and its memory.
func (c *compiler) finish(res *Result, maxWidth int, doc *jsondoc.Value) {
	s := res.Schema
	width, ok := measureWidth(s.Root, widthBudget, c.stop)
	switch {
	case !ok:
		c.unsupported("", "limit", "The schema's applicators combine in more ways than toolgate measures (over %d steps), so the work to validate with it cannot be bounded.", widthBudget)
	case width > maxWidth:
		c.unsupported("", "limit", "Up to %d subschemas can apply to one value of this schema at the same time, past the limit of %d; simplify its allOf/anyOf/oneOf/$ref combinations.", width, maxWidth)
	}
	if len(c.errors) > 0 {
		c.report(res)
		res.Schema = nil
		return
	}
	s.Width, s.Bytes = width, estimateBytes(s.Root)
	walk(s.Root, summarize)
	// A schema that names no type at all and accepts every object is
	// usually a mistake (an empty Struct from a client that could not
	// serialise its schema compiles as {}); a tool without parameters says
	// "type": "object" and is not warned about.
	if (doc.Kind != jsontok.Object || doc.Get("type") == nil) && acceptsEveryObject(s.Root, map[*Node]bool{}) {
		c.addWarning(Finding{Code: CodeUnsupported, Keyword: "schema", Offset: -1,
			Message: "This schema constrains nothing: it names no type and every object passes it, so validating against it checks only that the arguments are one JSON object (a client that sent its schema as an empty Struct gets this); write \"type\": \"object\" for a tool without parameters."})
		c.report(res)
	}
}

// acceptsEveryObject reports whether n accepts every object: it checks
// nothing of an object's content and its in-place subschemas, all "must
// match", accept every object too.
func acceptsEveryObject(n *Node, seen map[*Node]bool) bool {
	if n.Never || n.Types&TypeObject == 0 || n.Checks&TypeObject != 0 ||
		len(n.AnyOf) > 0 || len(n.OneOf) > 0 || n.Not != nil || n.If != nil || len(n.DependentSchemas) > 0 {
		return false
	}
	if seen[n] {
		return true
	}
	seen[n] = true
	for _, s := range n.AllOf {
		if !acceptsEveryObject(s, seen) {
			return false
		}
	}
	for _, r := range n.Refs {
		if !acceptsEveryObject(r.Target, seen) {
			return false
		}
	}
	return true
}

// Truncate shortens a string longer than n bytes to its first n bytes or
// fewer, cut on a UTF-8 boundary, and marks the cut with "…": the result
// is at most n+3 bytes.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// CutPointer shortens an RFC 6901 pointer longer than n bytes to its
// longest ancestor of at most n bytes ("" at worst): still a pointer, to a
// value that holds the one it named.
func CutPointer(p string, n int) string {
	if len(p) <= n {
		return p
	}
	return p[:max(strings.LastIndexByte(p[:n+1], '/'), 0)]
}
