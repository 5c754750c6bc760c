package validator_test

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/testgen"
	"github.com/toolgate/toolgate/internal/validator"
)

// The JSON Schema differential test compares the JSON Schema profile
// (DESIGN.md §8) with santhosh-tekuri/jsonschema v6.0.3 on generated
// full-profile schemas in all five dialects (testgen.NewFull: every
// assertion and applicator, $defs and $ref also through $anchor and
// recursion, unevaluated*, boolean schemas, big and fractional numbers)
// and on arguments that lean valid or invalid near the schemas'
// boundaries (testgen.FullInstance), written in random styles (escapes,
// number spellings, whitespace). The oracle reads numbers exactly, so a
// disagreement is either a DESIGN.md decision, listed in
// jsDiffExceptions and jsDiffOracleRewrites with its reason, or a bug.
//
// Every instance is also checked against the streaming contract: fed in
// random pieces and one byte at a time, with and without StopAtFirst, a
// Validator reaches the whole document's verdict and findings, and
// StopAtFirst stops at the earliest of them.
//
// Reproduce one case with -jsdiff.seed=N -jsdiff.schemas=1; run a large
// sweep with -jsdiff.schemas=100000 (see sweepSize for the defaults).
var (
	jsDiffSeed    = flag.Uint64("jsdiff.seed", 1, "first seed of the JSON Schema differential test")
	jsDiffSchemas = flag.Int("jsdiff.schemas", 0, "schemas to generate (0: 1000, 150 with -short, a quarter under -race)")
)

const jsDiffInstancesPerSchema = 8

// sweepSize returns how many cases a randomized test runs by default:
// def, or short with -short, and a quarter of that under the race
// detector, which makes these tests several times slower (make test runs
// with -race; go test without it, and the -args flags, run more).
func sweepSize(def, short int) int {
	n := def
	if testing.Short() {
		n = short
	}
	if raceEnabled {
		n /= 4
	}
	return n
}

// jsDiffTally counts what one run compared.
type jsDiffTally struct {
	schemas, instances, oracleValid atomic.Int64
	// refusedRoots counts schemas refused as accepting no object.
	refusedRoots atomic.Int64
	mu           sync.Mutex
	exceptions   map[string]int
}

func (tl *jsDiffTally) exception(name string) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	if tl.exceptions == nil {
		tl.exceptions = map[string]int{}
	}
	tl.exceptions[name]++
}

func TestJSONSchemaDifferential(t *testing.T) {
	t.Parallel()
	schemas := *jsDiffSchemas
	if schemas <= 0 {
		schemas = sweepSize(1000, 150)
	}
	tally := &jsDiffTally{}
	t.Run("shards", func(t *testing.T) {
		for shard := range min(diffShards, schemas) {
			t.Run(fmt.Sprint(shard), func(t *testing.T) {
				t.Parallel()
				reports := 0
				for i := shard; i < schemas; i += diffShards {
					jsDiffSeedCase(t, *jsDiffSeed+uint64(i), tally, &reports)
				}
			})
		}
	})
	var hits []string
	for _, ex := range jsDiffExceptions {
		hits = append(hits, fmt.Sprintf("%s=%d", ex.name, tally.exceptions[ex.name]))
		if schemas >= 200 {
			assert.Positive(t, tally.exceptions[ex.name], "exception %s was never exercised", ex.name)
		}
	}
	if schemas >= 200 {
		assert.Positive(t, tally.refusedRoots.Load(), "no root was refused as accepting no object")
	}
	n, valid := tally.instances.Load(), tally.oracleValid.Load()
	t.Logf("%d schemas, %d instances compared (%d valid per the oracle), %d refused as accepting no object; DESIGN exceptions applied: %s",
		tally.schemas.Load(), n, valid, tally.refusedRoots.Load(), strings.Join(hits, " "))
	if n > 1000 {
		assert.InDelta(t, 0.5, float64(valid)/float64(n), 0.3, "the generator's instances are too one-sided to be a good test")
	}
}

// jsDiffCase is one generated schema, compiled by us and by the oracle.
type jsDiffCase struct {
	seed   uint64
	r      *rand.Rand
	gen    *testgen.FullSchema
	text   []byte // as sent: a random spelling
	ours   *schema.Schema
	oracle *jsonschema.Schema
}

// newJSDiffCase generates and compiles the schema of seed, failing the
// test when either side refuses it. The one refusal allowed is a root that
// no object can satisfy (its in-place applicators exclude objects, which
// the generator does not avoid): the oracle must then reject every object
// the generator makes for it, and the seed's generator draws another
// schema, up to maxRefusedRoots times (then newJSDiffCase returns nil).
// refusedRoots counts those refusals.
func newJSDiffCase(t *testing.T, seed uint64) (c *jsDiffCase, refusedRoots int) {
	const maxRefusedRoots = 8
	r := rand.New(rand.NewPCG(seed, 0x15d1ff))
	for {
		gen := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[seed%uint64(len(testgen.Dialects))]})
		c = &jsDiffCase{seed: seed, r: r, gen: gen, text: testgen.Encode(r, gen.Doc())}
		oracle, err := jsOracle(c.text, gen.Dialect)
		if !assert.NoError(t, err, "seed %d: the oracle refused a generated schema\nschema: %s", seed, gen) {
			return nil, refusedRoots
		}
		c.oracle = oracle
		res := schema.CompileWith(schema.JSONSchema, c.text, schema.Options{})
		if isNoObjectRoot(res.Errors) {
			checkNoObjectRoot(t, c)
			if refusedRoots++; refusedRoots < maxRefusedRoots {
				continue
			}
			return nil, refusedRoots
		}
		if !assert.Empty(t, res.Errors, "seed %d: a generated schema must compile\nschema: %s", seed, gen) {
			return nil, refusedRoots
		}
		c.ours = res.Schema
		return c, refusedRoots
	}
}

// isNoObjectRoot reports whether findings are the one refusal of a root
// that accepts no object.
func isNoObjectRoot(findings []schema.Finding) bool {
	return len(findings) == 1 && findings[0].Code == schema.CodeUnsupported &&
		strings.HasPrefix(findings[0].Message, "The root schema must accept a JSON object")
}

// checkNoObjectRoot checks that a refused root is rightly refused: the
// oracle rejects every object document generated for it, near-valid ones
// included.
func checkNoObjectRoot(t *testing.T, c *jsDiffCase) {
	for k := range 2 * jsDiffInstancesPerSchema {
		instance := testgen.FullInstance(c.r, c.gen)
		if k%2 == 0 {
			instance = testgen.Encode(c.r, testgen.FullValid(c.r, c.gen))
		}
		if bytes.HasPrefix(bytes.TrimLeft(instance, " \t\r\n"), []byte("{")) {
			assert.Error(t, diffOracleValidate(c.oracle, instance),
				"seed %d: refused as accepting no object, but the oracle accepts\nschema:   %s\ninstance: %s", c.seed, c.gen, instance)
		}
	}
}

func jsDiffSeedCase(t *testing.T, seed uint64, tally *jsDiffTally, reports *int) {
	c, refusedRoots := newJSDiffCase(t, seed)
	tally.refusedRoots.Add(int64(refusedRoots))
	if c == nil {
		return
	}
	tally.schemas.Add(1)
	r := c.r
	for k := range jsDiffInstancesPerSchema {
		instance := testgen.FullInstance(r, c.gen)
		if r.Float64() < diffHazardChance {
			o, _ := testgen.FullValid(r, c.gen).(testgen.Object)
			instance = testgen.Encode(r, testgen.Hazard(r, o))
		}
		ours := validator.Validate(c.ours, instance, validator.Options{})
		diffCheckSplit(t, c.ours, instance, ours, r, seed)
		jsCheckBytewise(t, c.ours, instance, ours, seed)
		for _, f := range ours.Findings {
			if !utf8.ValidString(f.InstancePath) || !utf8.ValidString(f.Message) {
				diffReport(t, reports, "seed %d instance %d: a finding is not UTF-8\ninstance: %q\nfinding: %+v", seed, k, instance, f)
			}
		}
		if ex := jsDiffExceptionFor(instance); ex != nil {
			tally.exception(ex.name)
			all := ours
			if ours.Truncated { // the finding may be past the cap
				all = validator.Validate(c.ours, instance, validator.Options{MaxFindings: math.MaxInt32})
			}
			if !slices.ContainsFunc(all.Findings, func(f schema.Finding) bool { return f.Keyword == ex.keyword }) {
				diffReport(t, reports, "seed %d instance %d: DESIGN exception %s (%s): want a %q finding\nschema:   %s\ninstance: %q\nfindings: %s",
					seed, k, ex.name, ex.design, ex.keyword, c.gen, instance, diffFindings(all.Findings))
			}
			continue
		}
		oracleErr := diffOracleValidate(c.oracle, instance)
		tally.instances.Add(1)
		if oracleErr == nil {
			tally.oracleValid.Add(1)
		}
		if ours.Valid() != (oracleErr == nil) {
			diffReport(t, reports, "seed %d instance %d: verdicts differ\nschema:   %s\nas sent:  %s\ninstance: %s\nours:     valid=%v findings=%s\noracle:   valid=%v %v",
				seed, k, c.gen, c.text, instance, ours.Valid(), diffFindings(ours.Findings), oracleErr == nil, oracleErr)
		}
	}
}

// jsCheckBytewise checks that StopAtFirst fed one byte at a time finds
// what it finds on the whole document, and that what it finds are the
// findings a full validation (all, whole) makes at the earliest offset.
func jsCheckBytewise(t *testing.T, s *schema.Schema, instance []byte, all validator.Result, seed uint64) {
	stop := validator.Options{StopAtFirst: true}
	whole := diffFeed(s, stop, instance, []int{len(instance)})
	ones := make([]int, len(instance))
	for i := range ones {
		ones[i] = 1
	}
	bytewise := diffFeed(s, stop, instance, ones)
	assert.Equal(t, fixtures.Stable(whole.Findings), fixtures.Stable(bytewise.Findings),
		"seed %d: StopAtFirst one byte at a time differs from the whole document\ninstance: %s\nwhole:    %s\nbytewise: %s",
		seed, instance, diffFindings(whole.Findings), diffFindings(bytewise.Findings))
	diffCheckFirstFindings(t, all, whole, fmt.Sprintf("seed %d: %s", seed, instance))
}

// TestGeneratedPatternsMeanWhatTheySay checks the generator's patterns:
// each one's samples match and its misses do not, to RE2, to us and to
// the oracle, whole and streamed.
func TestGeneratedPatternsMeanWhatTheySay(t *testing.T) {
	t.Parallel()
	for _, p := range testgen.Patterns() {
		t.Run(p.Source, func(t *testing.T) {
			t.Parallel()
			text := testgen.Compact(testgen.Object{{Name: "pattern", Value: p.Source}})
			compiled := schema.CompileWith(schema.JSONSchema, text, schema.Options{AnyDocument: true})
			require.Empty(t, compiled.Errors)
			oracle, err := jsOracle(text, testgen.Draft2020)
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(uint64(len(p.Source)), 1))
			for want, list := range map[bool][]string{true: p.Samples, false: p.Misses} {
				for _, s := range list {
					assert.Equal(t, want, p.Match(s), "RE2 on %q", s)
					doc := testgen.Compact(s)
					assert.Equal(t, want, diffOracleValidate(oracle, doc) == nil, "oracle on %s", doc)
					ours := validator.Validate(compiled.Schema, doc, validator.Options{})
					assert.Equal(t, want, ours.Valid(), "ours on %s: %s", doc, diffFindings(ours.Findings))
					diffCheckSplit(t, compiled.Schema, doc, ours, r, 0)
				}
			}
		})
	}
}
