package schema

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// This file finds schemas by URI for the JSON Schema profile: the
// documents a compilation may read (the schema itself, documents the
// request supplies, the built-in meta-schemas), the schema resources and
// anchors each one declares, and the base URI and vocabulary in effect at
// every schema position. Nothing is ever fetched over the network.

// defaultBase is the base URI of a schema without $id, so that relative
// references have something to resolve against.
const defaultBase = "toolgate:///schema.json"

// document is one JSON document the compilation may read.
type document struct {
	uri     string         // where it was found (no fragment)
	root    *jsondoc.Value // nil until parsed
	text    []byte         // its text, until checked against its meta-schema
	name    string         // prefix of schema paths into it: "" for the schema itself, else uri + "#"
	builtin bool           // an embedded meta-schema, trusted
	dialect Dialect        // the dialect it defaults to, from whoever refers to it first
	failed  error          // why it could not be parsed
	checked bool           // checked against its meta-schema
	// own holds the roots of the resources embedded in it that name a
	// $schema of their own, each checked against that one (see
	// jsCompiler.checkDocument).
	own     map[*jsondoc.Value]bool
	indexed bool
	// indexing is true while index walks the document: a $schema that
	// names it then has led back to it (see jsCompiler.metaDialect).
	indexing bool
	indexErr error // why indexing failed, for every later call of index
}

// resource is one schema resource: a document root or a subschema with
// $id.
type resource struct {
	uri   string // canonical URI, no fragment
	loc   location
	vocab *vocabulary
	// dynamicAnchors maps each $dynamicAnchor of the resource (not of
	// resources nested in it) to its location.
	dynamicAnchors map[string]location
	// recursiveAnchor is the resource root's $recursiveAnchor (2019-09).
	recursiveAnchor bool
}

// location is one JSON value in a document, addressed by pointer.
type location struct {
	doc *document
	ptr string
	v   *jsondoc.Value
}

// path is the location as findings name it.
func (l location) path() string { return l.doc.name + l.ptr }

// position is what holds at one schema position: its base URI, its
// resource and the vocabulary in effect.
type position struct {
	base string
	res  *resource
}

// registry indexes every document a compilation reads.
type registry struct {
	docs      map[string]*document // by URI they were found at
	resources map[string]*resource // by canonical URI
	anchors   map[string]location  // by canonical URI "#" plain name
	positions map[*jsondoc.Value]*position
	pending   map[string][]byte // documents the request supplied
	c         *jsCompiler
	ptrBytes  int64 // bytes of the pointers walk built (see walk)
}

func newRegistry(c *jsCompiler, pending map[string][]byte) *registry {
	r := &registry{docs: map[string]*document{}, resources: map[string]*resource{},
		anchors: map[string]location{}, positions: map[*jsondoc.Value]*position{}, pending: map[string][]byte{}, c: c}
	for _, uri := range slices.Sorted(maps.Keys(pending)) {
		// In key order, the first of two keys for one document wins (see
		// CheckResources), so that no compile depends on map order.
		if doc := documentURI(uri); r.pending[doc] == nil {
			r.pending[doc] = pending[uri]
		}
	}
	return r
}

// stripFragment removes a URI's fragment (and the "#" itself).
func stripFragment(uri string) string {
	if i := strings.IndexByte(uri, '#'); i >= 0 {
		return uri[:i]
	}
	return uri
}

// normalURI writes the absolute URI u as the registry finds documents
// and resources by it: without dot segments (RFC 3986 §5.2.2 removes them
// from an absolute reference as from the result of resolving a relative
// one), and as url.URL writes a URI, which is how a resolved reference
// was always written: the scheme in lower case, the host and the
// percent-encoding as given.
func normalURI(u *url.URL) string {
	return new(url.URL).ResolveReference(u).String() // an absolute reference keeps all but its dot segments
}

// documentURI returns the document uri names, written as normalURI
// writes it, without its fragment; a uri that is no absolute URI, only
// without its fragment.
func documentURI(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || !u.IsAbs() {
		return stripFragment(uri)
	}
	return stripFragment(normalURI(u))
}

// resolveURI resolves ref against base, both absolute URIs or references
// as $id and $ref give them, into a URI as normalURI writes it: an
// absolute $id or $ref with dot segments names the document that one
// without them does, as a relative one always did.
func resolveURI(base, ref string) (string, error) {
	if strings.HasPrefix(ref, "#") {
		return stripFragment(base) + ref, nil
	}
	r, err := url.Parse(ref)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its text repeats the reference, which findings quote
		}
		return "", err
	}
	if r.IsAbs() {
		return normalURI(r), nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	if b.Opaque != "" { // urn:…: only fragments resolve against it
		return "", fmt.Errorf("the relative reference %q cannot be resolved against %q", ref, base)
	}
	return b.ResolveReference(r).String(), nil
}

// document returns the document at uri, loading it from the request or
// the built-in meta-schemas, or nil when there is none.
func (r *registry) document(uri string) *document {
	if d, ok := r.docs[uri]; ok {
		return d
	}
	var d *document
	if text, ok := r.pending[uri]; ok {
		d = &document{uri: uri, text: text, name: uri + "#"}
	} else if file, ok := builtinDocuments[uri]; ok {
		text, err := metaschemaFS.ReadFile(file)
		if err != nil {
			panic(fmt.Sprintf("embedded meta-schema %s: %v", file, err)) // the build embeds every file
		}
		d = &document{uri: uri, text: text, name: uri + "#", builtin: true}
	} else {
		return nil
	}
	r.docs[uri] = d
	return d
}

// parse parses d, once.
func (r *registry) parse(d *document) error {
	if d.root != nil || d.failed != nil {
		return d.failed
	}
	v, err := jsondoc.ParseUntil(d.text, r.c.opts.Limits.MaxDepth, r.c.stop.now)
	if err != nil {
		d.failed = err
		return err
	}
	d.root = v
	return nil
}

// index walks d's schema positions once, from its root, in the dialect
// the referrer gives it (its own $schema wins).
func (r *registry) index(d *document, dialect Dialect) error {
	if d.indexed {
		return d.indexErr
	}
	if err := r.parse(d); err != nil {
		return err
	}
	d.indexed, d.dialect, d.indexing = true, dialect, true
	defer func() { d.indexing = false }()
	root := location{doc: d, v: d.root}
	if err := r.walk(root, d.uri, nil, dialect, true); err != nil {
		d.indexErr = err
		return err
	}
	if _, ok := r.resources[d.uri]; !ok { // found at one URI, identified by another
		r.resources[d.uri] = r.positions[d.root].res
	}
	return nil
}

// walk indexes the schema at loc and the subschemas under it.
func (r *registry) walk(loc location, base string, res *resource, dialect Dialect, isRoot bool) error {
	v := loc.v
	if v.Kind != jsontok.Object {
		if isRoot {
			res = &resource{uri: base, loc: loc, vocab: &vocabulary{dialect: dialect, metaURI: dialects[dialect].metaURI},
				dynamicAnchors: map[string]location{}}
			r.resources[base] = res
		}
		r.positions[v] = &position{base: base, res: res}
		return nil
	}
	if _, done := r.positions[v]; done {
		return nil
	}
	hasRef := v.Get("$ref") != nil
	idDialect := ownDialect(v, dialect)
	if id, ok := r.identifier(v, idDialect, hasRef); ok && !strings.HasPrefix(id, "#") {
		abs, err := resolveURI(base, id)
		if err != nil {
			kw := idDialect.idKeyword()
			return indexErrorAt(loc, kw, CodeValidation, fmt.Sprintf("The %s %q is no URI reference toolgate can resolve: %v", kw, id, err))
		}
		base, isRoot = stripFragment(abs), true
	}
	if isRoot {
		var outer *vocabulary
		if res != nil {
			outer = res.vocab
		}
		vocab, err := r.c.vocabularyAt(loc, dialect, outer)
		if err != nil {
			return indexErrorAt(loc, "$schema", err.code, err.msg)
		}
		dialect = vocab.dialect
		res = &resource{uri: base, loc: loc, vocab: vocab, dynamicAnchors: map[string]location{}}
		if old, taken := r.resources[base]; !taken {
			r.resources[base] = res
		} else if old.loc.doc == loc.doc {
			// Only an $id can name a second resource of one document.
			kw := dialect.idKeyword()
			return indexErrorAt(loc, kw, CodeValidation, fmt.Sprintf("The %s %q identifies two schemas, this one and %s, so a reference to it would be ambiguous", kw, base, schemaAt(old.loc.path())))
		}
		if ra := v.Get("$recursiveAnchor"); dialect == Draft2019 && ra != nil && ra.Kind == jsontok.True {
			res.recursiveAnchor = true
		}
	}
	r.positions[v] = &position{base: base, res: res}
	if err := r.anchorsOf(loc, base, res, dialect, hasRef); err != nil {
		return err
	}
	if dialect.legacy() && hasRef {
		return nil // $ref overrides every sibling up to draft-07
	}
	for _, m := range v.Members {
		if !subschemaKeyword(dialect, m.Name) {
			continue
		}
		for _, sub := range subschemas(dialect, m.Name, m.Value) {
			child := location{doc: loc.doc, ptr: loc.ptr + "/" + jsondoc.EscapePointerToken(m.Name) + sub.suffix, v: sub.v}
			// The pointers built here come to what the nodes' paths will
			// (see compiler.pathBytes), and are bounded alike
			// (Limits.MaxPathRatio).
			if r.ptrBytes += int64(len(child.ptr)); r.ptrBytes > r.c.maxPathBytes {
				return indexErrorAt(loc, "limit", CodeUnsupported, pathsPastMessage(r.c.maxPathBytes))
			}
			if err := r.walk(child, base, res, dialect, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// ownDialect is the dialect a schema object's $schema names, if it names
// one toolgate enforces, else dialect: what an identifier is spelled in
// (id in draft-04) before walk knows whether the object is a resource,
// whose vocabulary then decides the rest.
func ownDialect(v *jsondoc.Value, dialect Dialect) Dialect {
	if sv := v.Get("$schema"); sv != nil && sv.Kind == jsontok.String {
		if d, ok := dialectByMetaURI(documentURI(sv.Str)); ok {
			return d
		}
	}
	return dialect
}

// identifier returns a schema object's identifier keyword ($id, or id in
// draft-04), when the dialect honours it there.
func (r *registry) identifier(v *jsondoc.Value, dialect Dialect, hasRef bool) (string, bool) {
	id := v.Get(dialect.idKeyword())
	if id == nil || id.Kind != jsontok.String || dialect.legacy() && hasRef {
		return "", false
	}
	return id.Str, true
}

// anchorsOf registers the anchors a schema object declares. An anchor
// that another schema of the same resource declares too is an error: a
// reference to it would be ambiguous.
func (r *registry) anchorsOf(loc location, base string, res *resource, dialect Dialect, hasRef bool) *indexError {
	v := loc.v
	add := func(name, keyword string) *indexError {
		key := base + "#" + name
		old, taken := r.anchors[key]
		switch {
		case !taken:
			r.anchors[key] = loc
		case old.v != loc.v:
			return indexErrorAt(loc, keyword, CodeValidation, fmt.Sprintf("The anchor %q is declared twice in the resource %q, here and by %s, so a reference to it would be ambiguous", name, base, schemaAt(old.path())))
		}
		return nil
	}
	if dialect.legacy() {
		// "#name", or "other.json#name": the name is an anchor of the
		// resource the identifier's URI names (walk made it base).
		if id, ok := r.identifier(v, dialect, hasRef); ok {
			if _, name, found := strings.Cut(id, "#"); found && name != "" {
				return add(name, dialect.idKeyword())
			}
		}
		return nil
	}
	if a := v.Get("$anchor"); a != nil && a.Kind == jsontok.String {
		if err := add(a.Str, "$anchor"); err != nil {
			return err
		}
	}
	if a := v.Get("$dynamicAnchor"); dialect == Draft2020 && a != nil && a.Kind == jsontok.String {
		if err := add(a.Str, "$dynamicAnchor"); err != nil {
			return err
		}
		res.dynamicAnchors[a.Str] = loc
	}
	return nil
}

// subschemaKeyword reports whether kw holds subschemas in dialect: it is
// one of subschemaKeywords and the dialect defines it.
func subschemaKeyword(d Dialect, kw string) bool {
	return subschemaKeywords[kw] && dialects[d].keywords[kw]
}

// subschemaKeywords are the keywords that hold subschemas, in the
// dialects that define them.
var subschemaKeywords = setOf("additionalProperties", "propertyNames", "items", "contains", "not", "if", "then", "else",
	"properties", "patternProperties", "allOf", "anyOf", "oneOf", "additionalItems", "definitions", "dependencies",
	"$defs", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "prefixItems")

// severalSubschemas are the keywords that hold several subschemas, each
// under a member name or an index (and items, in the dialects before
// 2020-12, when it is an array).
var severalSubschemas = setOf("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies",
	"allOf", "anyOf", "oneOf", "prefixItems")

// subschema is one subschema value under a keyword, with the pointer
// suffix that leads to it from the keyword.
type subschema struct {
	suffix string
	v      *jsondoc.Value
}

// subschemas returns the subschemas a keyword's value holds.
func subschemas(d Dialect, kw string, v *jsondoc.Value) []subschema {
	var out []subschema
	switch kw {
	case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
		if v.Kind == jsontok.Object {
			for _, m := range v.Members {
				if kw == "dependencies" && m.Value.Kind == jsontok.Array {
					continue
				}
				out = append(out, subschema{"/" + jsondoc.EscapePointerToken(m.Name), m.Value})
			}
		}
	case "allOf", "anyOf", "oneOf", "prefixItems":
		if v.Kind == jsontok.Array {
			for i, item := range v.Items {
				out = append(out, subschema{"/" + strconv.Itoa(i), item})
			}
		}
	case "items":
		if v.Kind == jsontok.Array && d != Draft2020 {
			for i, item := range v.Items {
				out = append(out, subschema{"/" + strconv.Itoa(i), item})
			}
		} else {
			out = append(out, subschema{"", v})
		}
	default:
		out = append(out, subschema{"", v})
	}
	return out
}

// lookup finds the schema a resolved reference names, loading and
// indexing its document when the request supplies it. It reports an
// unsupported (remote) or a malformed (dangling) reference as an error of
// that code.
func (r *registry) lookup(uri string, dialect Dialect) (location, *refError) {
	docURI, frag, _ := strings.Cut(uri, "#")
	res := r.resources[docURI]
	if res == nil {
		d := r.document(docURI)
		if d == nil {
			return location{}, &refError{CodeUnsupported, fmt.Sprintf("it refers to %q, a document this request does not supply (toolgate never fetches schemas; send it in resources)", docURI)}
		}
		if err := r.index(d, dialect); err != nil {
			return location{}, &refError{CodeValidation, fmt.Sprintf("the document %q it refers to cannot be used: %v", docURI, err)}
		}
		if res = r.resources[docURI]; res == nil {
			return location{}, &refError{CodeValidation, fmt.Sprintf("the document %q it refers to is not a schema", docURI)}
		}
	}
	// A document indexed only as a meta-schema (by a $schema) is checked
	// as a schema when a $ref first compiles part of it (see
	// jsCompiler.metaChecked).
	if err := r.c.checkDocument(res.loc.doc); err != nil {
		return location{}, err
	}
	if frag == "" {
		return res.loc, nil
	}
	if strings.HasPrefix(frag, "/") {
		ptr, err := url.PathUnescape(frag)
		if err != nil {
			return location{}, &refError{CodeValidation, fmt.Sprintf("its JSON pointer %q is not percent-encoded correctly", frag)}
		}
		loc, ok := pointerLocation(res.loc, ptr)
		if !ok {
			return location{}, &refError{CodeValidation, fmt.Sprintf("its JSON pointer %q leads nowhere in %q", ptr, docURI)}
		}
		return loc, nil
	}
	anchor, err := url.PathUnescape(frag) // "#f%6Fo" names the anchor "foo" (RFC 3986)
	if err != nil {
		return location{}, &refError{CodeValidation, fmt.Sprintf("its fragment %q is not percent-encoded correctly", frag)}
	}
	loc, ok := r.anchors[docURI+"#"+anchor]
	if !ok {
		return location{}, &refError{CodeValidation, fmt.Sprintf("no schema in %q has the anchor %q", docURI, anchor)}
	}
	return loc, nil
}

// refError is a reference (or $schema) that cannot be followed, with the
// code of the finding it makes.
type refError struct {
	code Code
	msg  string
}

// Error implements error.
func (e *refError) Error() string { return e.msg }

// indexError is a schema object that indexing cannot place: an $id that
// is no URI reference, or a $schema that names nothing toolgate can
// enforce. It names the keyword where it stands.
type indexError struct {
	refError
	path    string // the keyword's schema path
	keyword string
}

// indexErrorAt returns the indexError of keyword on the schema at loc.
func indexErrorAt(loc location, keyword string, code Code, msg string) *indexError {
	return &indexError{refError{code, msg}, loc.path() + "/" + keyword, keyword}
}

// Error implements error.
func (e *indexError) Error() string { return e.path + ": " + e.msg }

// schemaAt names the schema at a schema path in a message: "the root
// schema" or "the schema at "/$defs/a"".
func schemaAt(path string) string {
	if path == "" {
		return "the root schema"
	}
	return fmt.Sprintf("the schema at %q", path)
}

// pointerLocation follows an RFC 6901 pointer from base.
func pointerLocation(base location, ptr string) (location, bool) {
	v := base.v
	for _, tok := range pointerTokens(ptr) {
		if v = childValue(v, tok); v == nil {
			return location{}, false
		}
	}
	return location{doc: base.doc, ptr: base.ptr + ptr, v: v}, true
}

// pointerTokens returns the reference tokens of an RFC 6901 pointer,
// unescaped.
func pointerTokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	tokens := strings.Split(ptr, "/")[1:]
	for i, raw := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
	}
	return tokens
}

// childValue returns the member or item of v that the unescaped pointer
// token tok names, or nil when there is none.
func childValue(v *jsondoc.Value, tok string) *jsondoc.Value {
	switch v.Kind {
	case jsontok.Object:
		return v.Get(tok)
	case jsontok.Array:
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(v.Items) || tok != strconv.Itoa(i) {
			return nil
		}
		return v.Items[i]
	}
	return nil
}

// positionOf returns what holds at loc: its own indexed position, or that
// of the nearest indexed position on the pointer to it (a reference into
// a place no keyword makes a subschema, such as an unknown keyword).
func (r *registry) positionOf(loc location) *position {
	if p := r.positions[loc.v]; p != nil {
		return p
	}
	v := loc.doc.root
	best := r.positions[v]
	for _, tok := range pointerTokens(loc.ptr) {
		if v = childValue(v, tok); v == nil {
			return best
		}
		if p := r.positions[v]; p != nil {
			best = p
		}
	}
	return best
}

// ownDialectResources returns the resources embedded in d (not its root)
// that name their own $schema, in the order of their pointers.
func (r *registry) ownDialectResources(d *document) []*resource {
	var out []*resource
	for _, res := range r.resources { // each once: only a root has two URIs
		if res.loc.doc == d && res.loc.v != d.root && res.loc.v.Get("$schema") != nil {
			out = append(out, res)
		}
	}
	slices.SortFunc(out, func(a, b *resource) int { return strings.Compare(a.loc.ptr, b.loc.ptr) })
	return out
}

// usedDocuments returns the URIs of the supplied documents the
// compilation read, sorted.
func (r *registry) usedDocuments() []string {
	var uris []string
	for uri, d := range r.docs {
		if !d.builtin && d.name != "" {
			uris = append(uris, uri)
		}
	}
	slices.Sort(uris)
	return uris
}
