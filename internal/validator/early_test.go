package validator_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/testgen"
	"github.com/toolgate/toolgate/internal/validator"
)

// The early rejection tests check the streaming promise of DESIGN.md §6
// and §8 on generated full-profile schemas (the same generator as the
// differential test, other seeds):
//
//   - sound: at the byte where a stream fed one byte at a time first
//     rejects, no completion of the bytes so far is valid. The completions
//     tried are the document itself, the documents a generator built to be
//     valid that share those bytes, the document with the token at that
//     byte finished in every way the schema suggests and its rest kept, and
//     prefix completions from testgen.Completions; the oracle judges each.
//   - exact: every finding of a keyword that §8 promises at the first
//     impossible byte (earlyKeywords) is made at that byte. The keyword is
//     checked alone, on the value it is about: with a schema holding only
//     it, the value's text up to the finding's byte has no valid
//     completion, and the text before that byte has one. A rejection that
//     only names already in the object could have avoided counts as
//     repeatedName (DESIGN §6 refuses a repeat at the name's end); any
//     other later than the first impossible byte fails.
//     TestEarlyJudgeCatchesShiftedRejections shows the check fails on a
//     rejection one byte early or late.
//
// Reproduce one case with -early.seed=N -early.schemas=1.
var (
	earlySeed    = flag.Uint64("early.seed", 1_000_001, "first seed of the early rejection tests")
	earlySchemas = flag.Int("early.schemas", 0, "schemas to generate (0: 160, 40 with -short, a quarter under -race)")
)

const (
	earlyDocsPerSchema = 8
	earlyPoolPerSchema = 12 // valid-leaning documents per schema, kept when the oracle agrees
	earlyCompletions   = 48 // prefix completions per soundness check
	earlyWitnessSearch = 160
	// earlyFindingsPerKeyword bounds the findings checked per keyword and
	// document.
	earlyFindingsPerKeyword = 3
)

// earlyCase is one generated schema with what the early tests need.
type earlyCase struct {
	*jsDiffCase
	dict *testgen.Dictionary
	pool [][]byte // documents the oracle finds valid
	doc  any      // the schema, decoded, to find keywords by their paths
	docs [][]byte // documents to stream
	// mutants are the documents of docs made by mutating a document of
	// pool in one place.
	mutants map[string]bool
}

func newEarlyCase(t *testing.T, seed uint64) *earlyCase {
	c, _ := newJSDiffCase(t, seed)
	if c == nil {
		return nil
	}
	e := &earlyCase{jsDiffCase: c, dict: c.gen.Dictionary(), mutants: map[string]bool{}}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.text))
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	e.doc = doc
	var valid []any
	for range earlyPoolPerSchema {
		v := testgen.FullValid(c.r, c.gen)
		for _, text := range [][]byte{testgen.Compact(v), testgen.Encode(c.r, v)} {
			if jsDiffExceptionFor(text) == nil && diffOracleValidate(c.oracle, text) == nil {
				e.pool = append(e.pool, text)
				valid = append(valid, v)
			}
		}
	}
	e.dict.Values = append(e.dict.Values, valid...)
	for range earlyDocsPerSchema {
		e.docs = append(e.docs, testgen.FullInstance(c.r, c.gen), testgen.Compact(testgen.FullInvalid(c.r, c.gen)))
		if len(valid) > 0 {
			// Valid documents mutated in one place share their text up to
			// the change with a document of the pool.
			m := testgen.Compact(testgen.Mutate(c.r, valid[c.r.IntN(len(valid))]))
			e.docs = append(e.docs, m)
			e.mutants[string(m)] = true
		}
	}
	return e
}

// firstRejection feeds doc one byte at a time with StopAtFirst and
// returns the index of the byte after which the Validator first reports
// the document rejected, with the first finding; -1 when it never does
// before the end.
func firstRejection(s *schema.Schema, doc []byte) (int, schema.Finding) {
	v := validator.New(s, validator.Options{StopAtFirst: true})
	for i := range doc {
		v.Write(doc[i : i+1])
		if v.Rejected() {
			return i, v.Result().Findings[0]
		}
	}
	return -1, schema.Finding{}
}

// earlyTally counts what the early tests checked.
type earlyTally struct {
	mu     sync.Mutex
	counts map[string]int
}

func (tl *earlyTally) add(name string, n int) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	if tl.counts == nil {
		tl.counts = map[string]int{}
	}
	tl.counts[name] += n
}

func (tl *earlyTally) String() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(tl.counts)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, tl.counts[k]))
	}
	return strings.Join(parts, " ")
}

// runEarly runs check on the schemas of the early tests, in shards.
func runEarly(t *testing.T, check func(t *testing.T, c *earlyCase, tally *earlyTally, reports *int)) *earlyTally {
	schemas := *earlySchemas
	if schemas <= 0 {
		schemas = sweepSize(160, 40)
	}
	tally := &earlyTally{}
	t.Run("shards", func(t *testing.T) {
		for shard := range min(diffShards, schemas) {
			t.Run(fmt.Sprint(shard), func(t *testing.T) {
				t.Parallel()
				reports := 0
				for i := shard; i < schemas; i += diffShards {
					if c := newEarlyCase(t, *earlySeed+uint64(i)); c != nil {
						tally.add("schemas", 1)
						check(t, c, tally, &reports)
					}
				}
			})
		}
	})
	return tally
}

func TestEarlyRejectionIsSound(t *testing.T) {
	t.Parallel()
	tally := runEarly(t, checkSound)
	t.Logf("%s", tally)
	if tally.counts["schemas"] >= 40 {
		assert.Positive(t, tally.counts["rejections"], "no early rejection was exercised")
		assert.Positive(t, tally.counts["mutantRejections"], "no mutant of a valid document was rejected early")
	}
}

// checkSound checks every document of c where the stream rejects early.
func checkSound(t *testing.T, c *earlyCase, tally *earlyTally, reports *int) {
	for _, doc := range c.docs {
		p, first := firstRejection(c.ours, doc)
		if p < 0 || jsDiffExceptionFor(doc) != nil {
			continue // valid, or rejected by a rule of DESIGN.md that the oracle does not have
		}
		tally.add("rejections", 1)
		if c.mutants[string(doc)] {
			tally.add("mutantRejections", 1) // the pool holds the valid document it was made from
		}
		prefix := doc[:p+1]
		if first.Offset != int64(p) {
			diffReport(t, reports, "seed %d: the stream rejected at byte %d but its finding says byte %d\nschema: %s\ndocument: %s\nfinding: %+v",
				c.seed, p, first.Offset, c.gen, doc, first)
		}
		candidates := [][]byte{doc}
		for _, valid := range c.pool {
			if bytes.HasPrefix(valid, prefix) {
				candidates = append(candidates, valid)
			}
		}
		candidates = append(candidates, testgen.Splices(prefix, doc, c.dict)...)
		candidates = append(candidates, testgen.Completions(c.r, prefix, c.dict, earlyCompletions)...)
		for _, cand := range candidates {
			if !json.Valid(cand) {
				tally.add("completionsNotJSON", 1)
				continue
			}
			tally.add("completions", 1)
			if diffOracleValidate(c.oracle, cand) == nil && jsDiffExceptionFor(cand) == nil {
				diffReport(t, reports, "seed %d: unsound: the stream rejected at byte %d, but a completion of those bytes is valid\nschema:     %s\ndocument:   %s\nprefix:     %s\ncompletion: %s\nfinding:    %+v",
					c.seed, p, c.gen, doc, prefix, cand, first)
				break
			}
		}
	}
}

// earlyKeywords are the keywords that DESIGN.md §6 and §8 promise to
// reject at the first byte no completion of the value satisfies, each
// with the members of its schema object that it needs beside it to mean
// the same alone.
var earlyKeywords = map[string][]string{
	"type": nil, "enum": nil, "const": nil, "maxLength": nil, "maxItems": nil, "maxProperties": nil,
	"minimum": nil, "maximum": nil, "exclusiveMinimum": nil, "exclusiveMaximum": nil, "pattern": nil,
	"propertyNames":        nil,
	"additionalProperties": {"properties", "patternProperties"},
	// false after a tuple: refused at the ',' that promises an element
	"items": {"prefixItems"}, "additionalItems": {"items"},
}

// earlyValuePath is the pointer of the value whose text decides f: its
// instance's, or the array's for an element keyword.
func earlyValuePath(f schema.Finding) string {
	if elementKeywords[f.Keyword] {
		return f.InstancePath[:strings.LastIndexByte(f.InstancePath, '/')]
	}
	return f.InstancePath
}

// elementKeywords are the early keywords whose finding is about the
// element their false schema refuses, not the array that decides it. Few
// generated documents hold an element past a closed tuple: a run of
// 1,000 schemas or more checks them (some 25 findings in 1,500).
var elementKeywords = map[string]bool{"items": true, "additionalItems": true}

// draft4BoundPairs pair each draft-04 bound with its exclusive flag.
var draft4BoundPairs = map[string]string{
	"minimum": "exclusiveMinimum", "exclusiveMinimum": "minimum",
	"maximum": "exclusiveMaximum", "exclusiveMaximum": "maximum",
}

func TestEarlyRejectionIsExact(t *testing.T) {
	t.Parallel()
	tally := runEarly(t, checkExact)
	t.Logf("%s", tally)
	for kw := range earlyKeywords {
		if tally.counts["schemas"] >= 160 && !elementKeywords[kw] || tally.counts["schemas"] >= 1000 {
			assert.Positive(t, tally.counts["exact:"+kw], "no %s finding was checked", kw)
		}
	}
}

// checkExact checks the offset of every finding of an early keyword in
// the full validation of each document of c.
func checkExact(t *testing.T, c *earlyCase, tally *earlyTally, reports *int) {
	for _, doc := range c.docs {
		if jsDiffExceptionFor(doc) != nil {
			continue
		}
		spans, err := testgen.ValueSpans(doc)
		if err != nil {
			continue
		}
		res := validator.Validate(c.ours, doc, validator.Options{})
		checked := map[string]int{}
		seen := map[[2]string]bool{}
		for _, f := range res.Findings {
			at := earlyValuePath(f)
			// Only a keyword's first finding on a value is about the first
			// impossible byte: a second name or element it refuses comes
			// after the value is already dead.
			first := [2]string{f.SchemaPath, at}
			if _, ok := earlyKeywords[f.Keyword]; !ok || seen[first] || checked[f.Keyword] >= earlyFindingsPerKeyword {
				continue
			}
			seen[first] = true
			span, ok := spans[at]
			alone := earlyAlone(c.doc, c.gen.Dialect, f)
			if !ok || alone == nil {
				tally.add("notLocated", 1)
				continue
			}
			value := doc[span.Start:span.End]
			if comparedAtTheEnd(f, value, alone) {
				tally.add("compositeChoices", 1)
				continue
			}
			checked[f.Keyword]++
			checkExactFinding(t, c, tally, reports, f, value, int(f.Offset)-span.Start, alone)
		}
	}
}

// comparedAtTheEnd reports whether f is an enum or const finding on an
// object or array with composite choices, which DESIGN §6 compares at the
// value's end: its first impossible byte may come earlier.
func comparedAtTheEnd(f schema.Finding, value []byte, alone map[string]any) bool {
	return (f.Keyword == "enum" || f.Keyword == "const") && (value[0] == '{' || value[0] == '[') &&
		bytes.ContainsAny(testgen.Compact(testgen.FromJSON(alone[f.Keyword])), "{[")
}

// earlyAlone returns the schema of dialect d holding only f's keyword
// (and what it needs beside it), or nil when f's schema path leads
// nowhere.
func earlyAlone(schemaDoc any, d testgen.Dialect, f schema.Finding) map[string]any {
	parent := f.SchemaPath[:strings.LastIndexByte(f.SchemaPath, '/')]
	node, ok := fixtures.Resolve(schemaDoc, parent)
	obj, isObj := node.(map[string]any)
	if !ok || !isObj {
		return nil
	}
	value, ok := obj[f.Keyword]
	if !ok || (f.Keyword == "additionalProperties" || elementKeywords[f.Keyword]) && value != false {
		return nil // a schema under these decides on values, not names or positions
	}
	alone := map[string]any{f.Keyword: value, "$schema": string(d)}
	if pair, ok := draft4BoundPairs[f.Keyword]; ok && d == testgen.Draft4 && obj[pair] != nil {
		alone[pair] = obj[pair] // a boolean exclusive bound and the bound it makes exclusive
	}
	for _, sibling := range earlyKeywords[f.Keyword] {
		if tuple, ok := obj[sibling].([]any); ok {
			positions := make([]any, len(tuple))
			for i := range positions {
				positions[i] = map[string]any{} // only how many positions come first matters
			}
			alone[sibling] = positions
			continue
		}
		named, ok := obj[sibling].(map[string]any)
		if !ok {
			continue
		}
		names := map[string]any{}
		for name := range named {
			names[name] = map[string]any{} // only which names they cover matters ({}: draft-04 has no true)
		}
		alone[sibling] = names
	}
	return alone
}

// checkExactFinding judges one finding and reports it unless it is
// exact or an exception.
func checkExactFinding(t *testing.T, c *earlyCase, tally *earlyTally, reports *int, f schema.Finding, value []byte, at int, alone map[string]any) {
	j := newEarlyJudge(t, c, f.Keyword, value, alone)
	switch v := j.judge(at); v.kind {
	case "exact", "exception":
		tally.add(v.kind+":"+v.name, 1)
	default:
		diffReport(t, reports, "seed %d: %s\nfinding: %+v", c.seed, v.detail, f)
	}
}

// earlyJudge decides where a keyword, alone, stops accepting a value.
type earlyJudge struct {
	c       *earlyCase
	keyword string
	value   []byte
	alone   map[string]any
	text    []byte // alone, as JSON text
	oracle  *jsonschema.Schema
}

func newEarlyJudge(t *testing.T, c *earlyCase, keyword string, value []byte, alone map[string]any) *earlyJudge {
	j := &earlyJudge{c: c, keyword: keyword, value: value, alone: alone, text: testgen.Compact(testgen.FromJSON(alone))}
	var err error
	if j.oracle, err = jsOracle(j.text, c.gen.Dialect); err != nil {
		t.Fatalf("seed %d: the oracle refuses %s: %v", c.seed, j.text, err)
	}
	return j
}

// earlyVerdict is how a rejection at one byte compares with the first
// impossible byte: "exact", "exception" (name says which), "unsound"
// (too early) or "late".
type earlyVerdict struct {
	kind, name, detail string
}

// valid judges a completion by the oracle, and by DESIGN.md's rules on
// JSON text, which repeated names break unless repeats is set.
func (j *earlyJudge) valid(text []byte, repeats bool) bool {
	if !json.Valid(text) || diffOracleValidate(j.oracle, text) != nil {
		return false
	}
	asMember := slices.Concat([]byte(`{"":`), text, []byte("}")) // the exceptions look at whole documents
	ex := jsDiffExceptionFor(asMember)
	return ex == nil || repeats && ex.name == "duplicateNames"
}

// alive reports whether some completion of the value's first n bytes is
// valid.
func (j *earlyJudge) alive(n int, repeats bool) bool {
	return n == 0 || slices.ContainsFunc(testgen.Completions(j.c.r, j.value[:n], j.c.dict, earlyWitnessSearch),
		func(text []byte) bool { return j.valid(text, repeats) })
}

// judge compares a rejection at byte at of the value (len(value): at its
// end) with the first impossible byte.
func (j *earlyJudge) judge(at int) earlyVerdict {
	if v, ok := j.judgeAt(at); ok {
		return v
	}
	return j.late(at)
}

// judgeAt judges a rejection at byte at from that byte alone: unsound,
// exact, or repeatedName. ok is false when the value was dead already.
func (j *earlyJudge) judgeAt(at int) (v earlyVerdict, ok bool) {
	dead := [][]byte{j.value}
	if at < len(j.value) {
		dead = testgen.Completions(j.c.r, j.value[:at+1], j.c.dict, earlyCompletions)
	}
	for _, cand := range dead {
		if j.valid(cand, false) {
			return earlyVerdict{kind: "unsound", detail: fmt.Sprintf("%s rejected at byte %d of %q, but %q satisfies %s alone",
				j.keyword, at, j.value, cand, j.text)}, true
		}
	}
	if j.alive(at, false) {
		return earlyVerdict{kind: "exact", name: j.keyword}, true
	}
	if j.alive(at, true) {
		// Only names already in the object would do: repeats are decided at
		// the name's end (DESIGN.md §6), whatever the keyword says.
		return earlyVerdict{kind: "exception", name: "repeatedName"}, true
	}
	return earlyVerdict{}, false
}

// late finds the first impossible byte before at (by DESIGN.md's rules)
// and judges the rejection late.
func (j *earlyJudge) late(at int) earlyVerdict {
	first := at - 1
	for first > 0 && !j.alive(first, false) {
		first--
	}
	v := j.value
	return earlyVerdict{kind: "late", detail: fmt.Sprintf("%s rejected at byte %d (%q) of the value %q, %d bytes after the first impossible byte %d (%q): no completion of %q satisfies %s alone",
		j.keyword, at, v[min(at, len(v)-1)], v, at-first, first, v[first], v[:first+1], j.text)}
}

// TestEarlyJudgeCatchesShiftedRejections shows that the exactness check
// can fail: findings it judged exact, moved one byte earlier, must be
// judged unsound (a completion of the shorter prefix is valid), and
// moved one byte later, late.
func TestEarlyJudgeCatchesShiftedRejections(t *testing.T) {
	t.Parallel()
	want := sweepSize(40, 20) // exact findings to shift, one per keyword and schema
	var tally earlyTally
	for i := uint64(0); i < 200 && tally.counts["exact"] < want; i++ {
		c := newEarlyCase(t, *earlySeed+i)
		if c == nil {
			continue
		}
		shifted := map[string]bool{}
		for _, doc := range c.docs {
			spans, err := testgen.ValueSpans(doc)
			if err != nil || jsDiffExceptionFor(doc) != nil {
				continue
			}
			for _, f := range validator.Validate(c.ours, doc, validator.Options{}).Findings {
				span, ok := spans[earlyValuePath(f)]
				alone := earlyAlone(c.doc, c.gen.Dialect, f)
				if _, early := earlyKeywords[f.Keyword]; !early || !ok || alone == nil || shifted[f.Keyword] || tally.counts["exact"] >= want {
					continue
				}
				value, at := doc[span.Start:span.End], int(f.Offset)-span.Start
				if comparedAtTheEnd(f, value, alone) {
					continue
				}
				j := newEarlyJudge(t, c, f.Keyword, value, alone)
				if v, ok := j.judgeAt(at); at == 0 || at >= len(value) || !ok || v.kind != "exact" {
					continue
				}
				shifted[f.Keyword] = true
				tally.add("exact", 1)
				if v := j.judge(at - 1); v.kind == "unsound" {
					tally.add("earlierCaught", 1)
				} else {
					t.Logf("seed %d: %s moved from byte %d to %d of %q judged %s", c.seed, f.Keyword, at, at-1, value, v.kind)
				}
				if v := j.judge(at + 1); v.kind == "late" || v.kind == "exception" {
					tally.add("laterCaught", 1)
				} else {
					t.Errorf("seed %d: %s moved from byte %d to %d of %q judged %s %s", c.seed, f.Keyword, at, at+1, value, v.kind, v.detail)
				}
			}
		}
	}
	t.Logf("%s", &tally)
	exact := tally.counts["exact"]
	if assert.Equal(t, want, exact, "too few exact findings to shift") {
		assert.GreaterOrEqual(t, float64(tally.counts["earlierCaught"]), 0.9*float64(exact), "rejections one byte early go unnoticed")
	}
}
