// Package testgen generates random schemas and JSON arguments for them,
// for property, differential and streaming tests: schemas of the tool
// input profile (DESIGN.md §3) and full JSON Schema documents of the JSON
// Schema profile (§8), and the completions of document prefixes that the
// tests of early rejection need. Every choice is drawn from the
// *rand.Rand the caller passes, so a seed reproduces a case exactly.
//
// Tool input schemas come out as a typed tree (NewSchema returns a *Node;
// Parse reads one from text) that knows how to write itself (Node.Doc).
// Arguments are built from that tree, leaning valid (Valid) or leaning
// invalid (Invalid: wrong types, missing required members, undeclared
// members, enum near-misses, numbers just below a minimum, fractions for
// integers). They only lean: the generator does not decide validity, an
// oracle does.
//
// Full JSON Schema documents are a FullSchema (NewFull, in Draft 2020-12,
// 2019-09, draft-07, draft-06 or draft-04; ParseFull reads a hand-written
// one) whose FullNodes
// use every assertion and applicator of §8, with $defs, $ref and
// recursion. FullValid and FullInvalid build arguments for them near
// their boundaries, and Mutate changes a value in one place. Completions
// and Splices finish a prefix of JSON text in the ways a Dictionary of
// the schema's strings and numbers suggests, and ValueSpans locates every
// value of a document by its JSON pointer.
//
// Values are plain Go values (see Object) turned into JSON text by Encode,
// which varies whitespace, member order, number spelling (1, 1.0, 1e0,
// 10E-1) and string escapes (\u00e9, \ud83d\ude00, \/) without changing the
// value; Compact writes the plain form. Hazard adds what DESIGN.md rejects
// but ordinary decoders accept: duplicate names, lone surrogate escapes,
// invalid UTF-8.
//
//	r := rand.New(rand.NewPCG(seed, 0))
//	n := testgen.NewSchema(r)
//	schemaText := testgen.Encode(r, n.Doc())
//	args := testgen.Instance(r, n)
//
//	s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Draft7})
//	schemaText = testgen.Encode(r, s.Doc())
//	args = testgen.FullInstance(r, s)
package testgen
