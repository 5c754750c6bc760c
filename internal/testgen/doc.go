// Package testgen generates random schemas of the tool input profile
// (DESIGN.md §3) and JSON arguments for them, for property, differential and
// streaming tests. Every choice is drawn from the *rand.Rand the caller
// passes, so a seed reproduces a case exactly.
//
// Schemas come out as a typed tree (NewSchema returns a *Node; Parse reads
// one from text) that knows how to write itself (Node.Doc). Arguments are
// built from that tree, leaning valid (Valid) or leaning invalid (Invalid:
// wrong types, missing required members, undeclared members, enum
// near-misses, numbers just below a minimum, fractions for integers). They
// only lean: the generator does not decide validity, an oracle does.
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
package testgen
