package jsontok_test

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzTokenizer checks, for arbitrary bytes, that the tokenizer never
// panics; that feeding whole, one byte at a time and in random splits gives
// the same events and the same error; and that it agrees with
// encoding/json.Valid (and, for accepted documents, with encoding/json's
// decoded value) except for the documented differences (invalid UTF-8 in
// strings, lone surrogate escapes).
func FuzzTokenizer(f *testing.F) {
	for i, tc := range allCases() {
		f.Add([]byte(tc.doc), uint64(i))
	}
	r := rand.New(rand.NewPCG(5, 5))
	for i := range 40 {
		doc := genDoc(r)
		if i%2 == 1 {
			doc = mutate(r, doc)
		}
		f.Add(doc, r.Uint64())
	}
	f.Add([]byte(`{"type":"object","properties":{"q":{"type":"string","description":"The question \u2014 \"quoted\"."},"n":{"type":"integer","minimum":1000}},"required":["q"]}`), uint64(99))

	f.Fuzz(func(t *testing.T, doc []byte, seed uint64) {
		whole := feed(t, doc, 64, nil)
		if strings.Contains(whole, "PROBLEM") {
			t.Fatalf("doc %q: Text offsets break the contract:\n%s", doc, whole)
		}
		r := rand.New(rand.NewPCG(seed, uint64(len(doc))))
		for range 4 {
			cuts := randomCuts(r, len(doc), 3)
			if got := feed(t, doc, 64, cuts); got != whole {
				t.Fatalf("doc %q\ncuts %v\nwhole:\n%s\nsplit:\n%s", doc, cuts, whole, got)
			}
		}
		if len(doc) <= 4096 {
			if got := feed(t, doc, 64, bytewiseCuts(len(doc))); got != whole {
				t.Fatalf("doc %q\nwhole:\n%s\none byte at a time:\n%s", doc, whole, got)
			}
			checkSkipping(t, doc, 64, whole, randomCuts(r, len(doc), 3))
		}
		compareWithEncodingJSON(t, doc)
	})
}
