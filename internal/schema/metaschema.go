package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// This file checks schema documents against their meta-schemas (DESIGN.md
// §8: a schema that fails its dialect's meta-schema is malformed) and
// reads the vocabularies a meta-schema turns on. The check runs on
// toolgate's own validator, which package validator registers: package
// schema cannot import the package that validates against its output.

// MetaValidator validates a schema document (doc) against a compiled
// meta-schema and returns the violations, whose instance paths are
// pointers into doc. It gives up, returning what it found so far, once
// stopped, which it calls every so many bytes, reports true: the compile
// has been given up (see CompileContext).
type MetaValidator func(meta *Schema, doc []byte, stopped func() bool) []Finding

var metaValidator MetaValidator

// SetMetaValidator registers the function that checks documents against
// meta-schemas. Package validator calls it when it is initialised; until
// then the JSON Schema profile cannot compile anything.
func SetMetaValidator(f MetaValidator) { metaValidator = f }

// builtinMetas caches the compiled built-in meta-schemas, by URI.
var builtinMetas sync.Map

type metaEntry struct {
	once   sync.Once
	schema *Schema
	err    error
}

// builtinMeta returns the compiled built-in meta-schema at uri.
func builtinMeta(uri string) (*Schema, error) {
	e, _ := builtinMetas.LoadOrStore(uri, &metaEntry{})
	entry := e.(*metaEntry)
	entry.once.Do(func() {
		text, err := metaschemaFS.ReadFile(builtinDocuments[uri])
		if err != nil {
			entry.err = err
			return
		}
		d, _ := dialectByMetaURI(uri)
		res := compileJSONSchema(nil, text, Options{Dialect: d, AnyDocument: true, trusted: true}) // kept for every compile: never stopped
		if res.Schema == nil {
			entry.err = fmt.Errorf("built-in meta-schema %s does not compile: %+v", uri, res.Errors)
			return
		}
		entry.schema = res.Schema
	})
	return entry.schema, entry.err
}

// vocabularyMetas caches the compiled meta-schemas of sets of standard
// vocabularies, by dialect and vocabulary URIs (see standardMeta).
var vocabularyMetas sync.Map

// standardMeta returns the meta-schema that the standard vocabularies in
// effect in vocab define: its dialect's meta-schema when every vocabulary
// is, else one written as that meta-schema is, with the allOf of the
// meta-schemas of just those vocabularies (core's always), beside the
// "definitions" it checks too, and "dependencies" while that is in
// effect. Like the built-in meta-schemas, it is compiled once per process.
func standardMeta(vocab *vocabulary) (*Schema, error) {
	if vocab.active == nil {
		return builtinMeta(dialects[vocab.dialect].metaURI)
	}
	key := vocab.dialect.String() + " " + strings.Join(vocab.standard, " ")
	e, _ := vocabularyMetas.LoadOrStore(key, &metaEntry{})
	entry := e.(*metaEntry)
	entry.once.Do(func() {
		text := vocabulariesMetaText(vocab.dialect, vocab.standard, vocab.isActive("dependencies"))
		res := compileJSONSchema(nil, text, Options{Dialect: vocab.dialect, AnyDocument: true, trusted: true}) // kept for every compile: never stopped
		if res.Schema == nil {
			entry.err = fmt.Errorf("the meta-schema of the vocabularies %v does not compile: %+v", vocab.standard, res.Errors)
			return
		}
		entry.schema = res.Schema
	})
	return entry.schema, entry.err
}

// vocabulariesMetaText writes the meta-schema of the standard
// vocabularies vocabs of dialect d (2020-12 or 2019-09) for standardMeta.
// Each subschema comes back to its root through the dynamic anchor (the
// recursive one in 2019-09), as in the official meta-schemas, so that
// every vocabulary applies at every depth.
func vocabulariesMetaText(d Dialect, vocabs []string, dependencies bool) []byte {
	anchor, again := `"$dynamicAnchor":"meta"`, `{"$dynamicRef":"#meta"}`
	if d == Draft2019 {
		anchor, again = `"$recursiveAnchor":true`, `{"$recursiveRef":"#"}`
	}
	refs := make([]string, len(vocabs))
	for i, v := range vocabs {
		refs[i] = fmt.Sprintf(`{"$ref":%q}`, strings.Replace(v, "/vocab/", "/meta/", 1))
	}
	props := `"definitions":{"type":"object","additionalProperties":` + again + `}`
	if dependencies {
		validation := strings.Replace(dialects[d].metaURI, "/schema", "/meta/validation", 1)
		props += `,"dependencies":{"type":"object","additionalProperties":{"anyOf":[` + again + `,{"$ref":"` + validation + `#/$defs/stringArray"}]}}`
	}
	return fmt.Appendf(nil, `{"$schema":%q,%s,"type":["object","boolean"],"allOf":[%s],"properties":{%s}}`,
		dialects[d].metaURI, anchor, strings.Join(refs, ","), props)
}

// vocabularyAt reads the $schema of the resource root at loc: the
// dialect it selects and the vocabularies its meta-schema turns on. A
// resource without $schema takes outer, the vocabulary of the resource it
// is embedded in (the one its document is checked in), or, as a
// document's root (outer nil), dialect with every vocabulary.
func (c *jsCompiler) vocabularyAt(loc location, dialect Dialect, outer *vocabulary) (*vocabulary, *refError) {
	sv := loc.v.Get("$schema")
	if (sv == nil || sv.Kind != jsontok.String) && outer != nil {
		return outer, nil
	}
	if sv == nil || sv.Kind != jsontok.String {
		return &vocabulary{dialect: dialect, metaURI: dialects[dialect].metaURI}, nil
	}
	uri := documentURI(sv.Str) // as a $ref to it would find it
	if d, ok := dialectByMetaURI(uri); ok {
		return &vocabulary{dialect: d, metaURI: dialects[d].metaURI}, nil
	}
	meta := c.reg.document(uri)
	if meta == nil {
		return nil, &refError{CodeUnsupported, fmt.Sprintf("The $schema %q is neither a dialect toolgate enforces (2020-12, 2019-09, draft-07, draft-06, draft-04) nor a meta-schema this request supplies", sv.Str)}
	}
	d, err := c.metaDialect(loc, meta, uri)
	if err != nil {
		return nil, err
	}
	return metaVocabulary(meta.root, uri, d)
}

// metaDialect returns the dialect of the meta-schema meta, found at uri,
// that the $schema of the resource root at loc names: the one its own
// $schema selects, through as many meta-schemas of the request as it
// takes to reach a dialect toolgate enforces. A problem with meta keeps
// the code of its finding (an unknown $schema further up the chain is
// UNSUPPORTED_CAPABILITY, a malformed $id VALIDATION).
//
// A meta-schema whose $schema names itself, as every official
// meta-schema's does, is read in the dialect whose standard vocabularies
// its $vocabulary lists (the first such entry decides), so that it is
// honoured through its $vocabulary, as DESIGN §8 asks. A $schema cycle
// that never reaches a known dialect — a self-describing meta-schema
// whose $vocabulary lists no standard vocabulary, or a cycle through two
// or more meta-schemas, which would be read in a different dialect
// depending on where it is entered — is UNSUPPORTED_CAPABILITY, not
// VALIDATION: the specification lets a meta-schema name itself and no
// meta-schema refuses that, so the schema is not malformed; toolgate only
// knows no dialect to read it in, which is DESIGN §8's "any other
// $schema", refused as a URI toolgate has never heard of is.
func (c *jsCompiler) metaDialect(loc location, meta *document, uri string) (Dialect, *refError) {
	if !meta.indexing {
		if err := c.reg.index(meta, Draft2020); err != nil {
			code := CodeValidation
			var ie *indexError
			if errors.As(err, &ie) {
				code = ie.code
			}
			return 0, &refError{code, fmt.Sprintf("The meta-schema %q cannot be used: %v", uri, err)}
		}
	}
	if pos := c.reg.positions[meta.root]; pos != nil {
		return pos.res.vocab.dialect, nil
	}
	// meta's root is being indexed, and this is its $schema, or that of a
	// meta-schema its $schema led to.
	if loc.v != meta.root {
		return 0, &refError{CodeUnsupported, fmt.Sprintf("The $schema of the meta-schema %q leads back to it through other meta-schemas, "+
			"never reaching a dialect toolgate enforces", uri)}
	}
	if d, ok := vocabularyDialect(meta.root); ok {
		return d, nil
	}
	return 0, &refError{CodeUnsupported, fmt.Sprintf("The meta-schema %q is its own meta-schema, and its $vocabulary lists no vocabulary "+
		"of 2020-12 or 2019-09, so nothing says which dialect it is written in", uri)}
}

// vocabularyDialect returns the dialect of the first standard vocabulary
// that the $vocabulary of the meta-schema root lists.
func vocabularyDialect(root *jsondoc.Value) (Dialect, bool) {
	vv := root.Get("$vocabulary")
	if vv == nil || vv.Kind != jsontok.Object {
		return 0, false
	}
	for _, m := range vv.Members {
		for _, d := range []Dialect{Draft2020, Draft2019} {
			if _, ok := dialects[d].vocabularies[m.Name]; ok {
				return d, true
			}
		}
	}
	return 0, false
}

// metaVocabulary returns the vocabulary that the meta-schema root, found
// at uri and written in dialect d, turns on for the schemas that name it:
// every keyword of d when it has no $vocabulary (or d has no
// vocabularies), else the keywords of the vocabularies it lists, and
// core's. A required vocabulary toolgate does not implement is
// UNSUPPORTED_CAPABILITY.
func metaVocabulary(root *jsondoc.Value, uri string, d Dialect) (*vocabulary, *refError) {
	vocab := &vocabulary{dialect: d, metaURI: uri}
	vv := root.Get("$vocabulary")
	if vv == nil || vv.Kind != jsontok.Object || d.legacy() {
		return vocab, nil
	}
	vocab.active = map[string]bool{}
	known := dialects[d].vocabularies
	for _, m := range vv.Members {
		kws, ok := known[m.Name]
		if !ok {
			if m.Value.Kind == jsontok.True {
				return nil, &refError{CodeUnsupported, fmt.Sprintf("The meta-schema %q requires the vocabulary %q, which toolgate does not implement", uri, m.Name)}
			}
			continue
		}
		for _, k := range kws {
			vocab.active[k] = true
		}
		vocab.standard = append(vocab.standard, m.Name)
		if strings.HasSuffix(m.Name, "/format-assertion") {
			vocab.format = true
		}
	}
	core := dialects[d].metaURI[:strings.LastIndex(dialects[d].metaURI, "/")] + "/vocab/core"
	for _, k := range known[core] {
		vocab.active[k] = true // core is always in effect
	}
	vocab.standard = append(vocab.standard, core)
	slices.Sort(vocab.standard)
	vocab.standard = slices.Compact(vocab.standard)
	return vocab, nil
}

// checkDocument checks document d against the meta-schema its root
// names, once, and each resource embedded in it that names its own
// $schema against that one: a keyword means what its resource's dialect
// says (a draft-07 resource's array items inside a 2020-12 document is
// legal, a 2020-12 resource's "prefixItems": 5 inside a draft-07 one is
// not). Each resource is checked with the resources of their own $schema
// below it written as {}, which every dialect accepts. Violations become
// VALIDATION findings at their place in d.
func (c *jsCompiler) checkDocument(d *document) *refError {
	if d.builtin || d.checked || c.opts.trusted {
		return nil
	}
	d.checked = true
	defer func() { d.text = nil }()
	root := c.reg.positions[d.root].res
	embedded := c.reg.ownDialectResources(d)
	if len(embedded) == 0 {
		return c.checkResource(d, root, d.text)
	}
	d.own = map[*jsondoc.Value]bool{}
	for _, r := range embedded {
		d.own[r.loc.v] = true
	}
	for _, r := range append([]*resource{root}, embedded...) {
		if err := c.checkResource(d, r, jsondoc.AppendCanonicalOmitting(nil, r.loc.v, d.own)); err != nil {
			return err
		}
	}
	return nil
}

// checkTarget checks the schema at loc, which a reference compiles,
// against the meta-schemas of its vocabulary, unless the check of its
// document reached it as a schema already (see metaChecked). A reference
// may name any place, such as the value of an unknown keyword, or a
// keyword's map of subschemas ("$ref": "#/properties"), which no
// meta-schema treats as a schema; what it names is compiled as one, so it
// must be well-formed as one (DESIGN §8: malformed is VALIDATION, and
// nothing is enforced by stripping), or its malformed keywords would be
// dropped. Each place is looked at once, and a place checked here checks
// the schemas under it as the meta-schema does.
func (c *jsCompiler) checkTarget(loc location) *refError {
	if loc.v.Kind != jsontok.Object || c.opts.trusted {
		return nil // a boolean is a schema; anything else is refused when compiled
	}
	if _, seen := c.targets[loc.v]; seen {
		return nil
	}
	c.targets[loc.v] = nil
	if c.metaChecked(loc) {
		return nil
	}
	vocab := c.vocabOf(c.reg.positionOf(loc))
	c.targets[loc.v] = vocab
	if c.targetBytes < 0 {
		return nil // past the limit, reported once: the compile has failed
	}
	if c.targetBytes -= loc.v.End - loc.v.Start + 1; c.targetBytes < 0 {
		c.limit(loc.path(), "The places the schema's references name that no meta-schema check reached as schemas, each checked on its own, "+
			"hold more bytes together than %d times the schema's, past the limit: they nest in one another. Move them under $defs.", targetBytesRatio)
		return nil
	}
	return c.checkSchema(loc.doc, loc.ptr, vocab, jsondoc.AppendCanonicalOmitting(nil, loc.v, loc.doc.own))
}

// targetBytesRatio bounds the bytes checkTarget checks, together, per
// byte of the schema and its resources: places that nest in one another
// are each checked whole, so a chain of them under unknown keywords
// would cost work that grows with the square of the schema's size (100
// of them around one 900 KB value cost 0.5 s). Real schemas name such
// places rarely and apart, each checked once.
const targetBytesRatio = 8

// targetBudget returns the bytes checkTarget may check, counted as
// written, for a schema of n bytes with its resources: targetBytesRatio
// per byte, and 1 MiB.
func targetBudget(n int) int64 { return targetBytesRatio*int64(n) + pathBytesFree }

// metaChecked reports whether a meta-schema check has reached the schema
// object at loc as a schema: on the way from a checked schema (its
// document's root, a resource in it with a $schema of its own, a place
// checkTarget checked), every step is one the meta-schema in effect takes
// into a subschema (see metaStep).
func (c *jsCompiler) metaChecked(loc location) bool {
	d := loc.doc
	if d.builtin {
		return true
	}
	v, tokens := d.root, pointerTokens(loc.ptr)
	var vocab *vocabulary // of the check that reached v; nil: none did
	if d.checked {
		vocab = c.reg.positions[v].res.vocab
	}
	for {
		if d.own[v] {
			vocab = c.reg.positions[v].res.vocab
		} else if vv := c.targets[v]; vv != nil {
			vocab = vv
		}
		if len(tokens) == 0 {
			return vocab != nil
		}
		n := 1
		if vocab != nil {
			// A step past the end ends at the keyword's map or array of
			// subschemas, which the check takes as none.
			if n = metaStep(vocab, v, tokens); n == 0 || n > len(tokens) {
				vocab, n = nil, 1
			}
		}
		for _, tok := range tokens[:n] {
			if v = childValue(v, tok); v == nil {
				return false
			}
		}
		tokens = tokens[n:]
	}
}

// metaStep returns how many of tokens lead from the schema v, checked in
// vocab, to a subschema the check takes as one: 1 for the value of a
// keyword that holds a schema, 2 for a member or item of one that holds
// several, 0 when the first token names no keyword of vocab that holds
// subschemas (the meta-schemas check "definitions" in every dialect).
func metaStep(vocab *vocabulary, v *jsondoc.Value, tokens []string) int {
	kw := tokens[0]
	if v.Kind != jsontok.Object || kw != "definitions" && !(subschemaKeyword(vocab.dialect, kw) && vocab.isActive(kw)) {
		return 0
	}
	if severalSubschemas[kw] {
		return 2
	}
	if items := v.Get(kw); kw == "items" && items != nil && items.Kind == jsontok.Array && vocab.dialect != Draft2020 {
		return 2
	}
	return 1
}

// checkResource checks text, resource r's schema, against r's
// meta-schema.
func (c *jsCompiler) checkResource(d *document, r *resource, text []byte) *refError {
	return c.checkSchema(d, r.loc.ptr, r.vocab, text)
}

// checkSchema checks text, the schema at ptr in d, written in vocab,
// against the meta-schema its $schema names and, unless that is its
// dialect's own, against the meta-schemas of the standard vocabularies
// vocab has in effect (see standardMeta). Each violation becomes a
// VALIDATION finding at its place in d, once, however many of them
// report it.
//
// The second check is what "malformed" means under a custom
// meta-schema: a keyword of a vocabulary in effect must have the value
// that vocabulary defines, whatever the meta-schema's own text says. An
// official meta-schema holds the allOf of its vocabularies'
// meta-schemas; a custom one may leave it out, and "minimum": "zz" is
// malformed under the validation vocabulary all the same (validation
// §6.2.4: it MUST be a number); compiled, it would be dropped.
func (c *jsCompiler) checkSchema(d *document, ptr string, vocab *vocabulary, text []byte) *refError {
	metas, err := c.metaSchemas(vocab)
	if err != nil {
		code := CodeUnsupported
		var bad *refError // a supplied meta-schema that does not compile, with its own code
		if errors.As(err, &bad) {
			code = bad.code
		}
		return &refError{code, fmt.Sprintf("its meta-schema %q cannot be used: %s", vocab.metaURI, strings.TrimSuffix(err.Error(), "."))}
	}
	if metaValidator == nil {
		panic("schema: no MetaValidator registered (import package validator)")
	}
	for _, meta := range metas {
		for _, f := range metaValidator(meta, text, c.stop.now) {
			path := d.name + ptr + f.InstancePath
			key := path + "\x00" + f.Message
			if c.metaFound[key] {
				continue
			}
			c.metaFound[key] = true
			if c.dropError(CodeValidation) {
				continue
			}
			c.keepError(Finding{Code: CodeValidation, Keyword: keywordAt(vocab.dialect, f.InstancePath), SchemaPath: path, Offset: -1,
				Message: fmt.Sprintf("The schema does not follow JSON Schema %s: %s", vocab.dialect, lowerSubject(f.Message))})
		}
	}
	return nil
}

// metaSchemas returns the meta-schemas a schema written in vocab is
// checked against (see checkSchema).
func (c *jsCompiler) metaSchemas(vocab *vocabulary) ([]*Schema, error) {
	var metas []*Schema
	var own *Schema
	var err error
	if _, ok := builtinDocuments[vocab.metaURI]; ok {
		own, err = builtinMeta(vocab.metaURI)
	} else {
		own, err = c.customMeta(vocab.metaURI)
	}
	if err != nil {
		return nil, err
	}
	if own != nil { // nil: a $schema cycle, see customMeta
		metas = append(metas, own)
	}
	if vocab.metaURI != dialects[vocab.dialect].metaURI {
		std, err := standardMeta(vocab)
		if err != nil {
			return nil, err
		}
		metas = append(metas, std)
	}
	return metas, nil
}

// customMeta compiles the meta-schema at uri, which the request supplies.
// It returns no schema, and no error, for a meta-schema whose compile
// encloses this one (a $schema cycle, such as the $schema of a
// self-describing meta-schema): checking against it would start that
// compile again, forever, so the document being compiled as a
// meta-schema is not checked against it.
func (c *jsCompiler) customMeta(uri string) (*Schema, error) {
	if slices.Contains(c.opts.metas, uri) {
		return nil, nil
	}
	metas := append(slices.Clip(c.opts.metas), uri)
	res := compileJSONSchema(c.stop, c.reg.pending[uri], Options{Resources: c.opts.Resources, AnyDocument: true, Limits: c.opts.Limits, metas: metas})
	if c.stop.now() {
		return nil, c.stop.err // the compile is given up: this is not used
	}
	if res.Schema == nil {
		// A meta-schema the request supplies is part of the request: one
		// that breaks JSON Schema is VALIDATION, one toolgate cannot
		// honour UNSUPPORTED_CAPABILITY, as the schema would be.
		return nil, &refError{res.Code(), res.Errors[0].Message}
	}
	return res.Schema, nil
}

// lowerSubject makes a validator message continue a sentence: "The
// arguments object …" (the root of an object) and "The arguments …" (the
// root of any other value) become "the schema …".
func lowerSubject(msg string) string {
	for _, subject := range []string{"The arguments object ", "The arguments "} {
		if rest, ok := strings.CutPrefix(msg, subject); ok {
			return "the schema " + rest
		}
	}
	return msg
}
