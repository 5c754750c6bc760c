package testgen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/testgen"
)

func TestFullDocIsReadBack(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 300 {
		s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[i%len(testgen.Dialects)]})
		text := testgen.Encode(r, s.Doc())
		require.True(t, json.Valid(text), "%s", text)
		parsed, err := testgen.ParseFull(text)
		require.NoError(t, err, "%s", text)
		assert.Equal(t, s.Dialect, parsed.Dialect)
		assert.Equal(t, decode(t, testgen.Compact(s.Doc())), decode(t, testgen.Compact(parsed.Doc())), "%s", s)
	}
}

func TestFullDocSpellsTheDialect(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 14))
	// Keywords a dialect does not have, as they appear in a document.
	legacyAbsent := []string{`"$defs":`, `"prefixItems":`, `"dependentRequired":`, `"dependentSchemas":`, `"unevaluatedItems":`,
		`"unevaluatedProperties":`, `"minContains":`, `"maxContains":`, `"$anchor":`}
	absent := map[testgen.Dialect][]string{
		testgen.Draft2020: {`"definitions":`, `"dependencies":`, `"additionalItems":`},
		testgen.Draft2019: {`"definitions":`, `"dependencies":`, `"prefixItems":`},
		testgen.Draft7:    legacyAbsent,
		testgen.Draft6:    append(slices.Clone(legacyAbsent), `"if":`, `"then":`, `"else":`),
		testgen.Draft4: append(slices.Clone(legacyAbsent), `"if":`, `"then":`, `"else":`, `"const":`, `"contains":`,
			`"propertyNames":`),
	}
	// Draft-04's exclusive bounds are booleans beside minimum and maximum.
	numericExclusive := regexp.MustCompile(`"exclusiveM(in|ax)imum":[^tf]`)
	seen := map[string]bool{}
	for i := range 1500 {
		d := testgen.Dialects[i%len(testgen.Dialects)]
		text := testgen.NewFull(r, testgen.FullOptions{Dialect: d}).String()
		for _, kw := range absent[d] {
			assert.NotContains(t, text, kw, "%s schema", d)
		}
		if d == testgen.Draft4 {
			assert.NotRegexp(t, numericExclusive, text)
		}
		for _, kw := range []string{"prefixItems", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
			"minContains", "$anchor", "definitions", "dependencies", "additionalItems", "propertyNames", "patternProperties",
			"multipleOf", "exclusiveMinimum", "uniqueItems", "contains", "const", "not", "if", "oneOf", "anyOf", "allOf", "$ref"} {
			if strings.Contains(text, `"`+kw+`":`) {
				seen[kw] = true
			}
		}
	}
	assert.Len(t, seen, 22, "keywords generated: %v", seen)
}

func TestSameSeedSameFullOutput(t *testing.T) {
	t.Parallel()
	gen := func() []byte {
		r := rand.New(rand.NewPCG(15, 15))
		var out []byte
		for i := range 60 {
			s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[i%len(testgen.Dialects)]})
			out = append(out, testgen.Encode(r, s.Doc())...)
			out = append(out, testgen.FullInstance(r, s)...)
		}
		return out
	}
	assert.Equal(t, gen(), gen())
}

func TestFullInstancesAreJSON(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(16, 17))
	objects := 0
	for i := range 600 {
		s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[i%len(testgen.Dialects)]})
		text := testgen.FullInstance(r, s)
		require.True(t, json.Valid(text), "%s", text)
		if bytes.HasPrefix(bytes.TrimSpace(text), []byte("{")) {
			objects++
		}
	}
	assert.Greater(t, objects, 400, "arguments should lean to objects")
}

func TestMutateChangesOnePlace(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(24, 25))
	changed := 0
	for i := range 500 {
		s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[i%len(testgen.Dialects)]})
		v := testgen.FullValid(r, s)
		m := testgen.Mutate(r, v)
		require.True(t, json.Valid(testgen.Compact(m)))
		if !testgen.Equal(v, m) {
			changed++
		}
		assert.Equal(t, testgen.Compact(v), testgen.Compact(testgen.Clone(v)), "Mutate must not change its argument")
	}
	assert.Greater(t, changed, 450)
}

func TestEqualComparesAsJSONSchema(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b  any
		equal bool
	}{
		{testgen.Num("1"), testgen.Num("1.0"), true},
		{testgen.Num("1"), true, false},
		{[]any{testgen.Num("1"), "a"}, []any{testgen.Num("1e0"), "a"}, true},
		{[]any{"a", "b"}, []any{"b", "a"}, false},
		{testgen.Object{{"a", nil}, {"b", false}}, testgen.Object{{"b", false}, {"a", nil}}, true},
		{testgen.Object{{"a", nil}}, testgen.Object{{"a", nil}, {"b", nil}}, false},
		{nil, false, false},
	} {
		t.Run(fmt.Sprint(c.a, c.b), func(t *testing.T) {
			assert.Equal(t, c.equal, testgen.Equal(c.a, c.b))
		})
	}
}

func TestParseFullRefusesWhatItCannotRead(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		`[]`,
		`{"$schema":"http://example.com/schema"}`,
		`{"type":5}`,
		`{"properties":{"a":{"$ref":"#/elsewhere"}}}`,
		`{"pattern":"(?<=a)b"}`,
		`{"minLength":-1}`,
	} {
		_, err := testgen.ParseFull([]byte(text))
		assert.Error(t, err, "%s", text)
	}
}

func TestParseFullReadsTheOlderDialects(t *testing.T) {
	t.Parallel()
	s, err := testgen.ParseFull([]byte(`{"$schema":"http://json-schema.org/draft-04/schema#",
		"minimum":1,"exclusiveMinimum":true,"maximum":5,"exclusiveMaximum":false,"const":3,"contains":{}}`))
	require.NoError(t, err)
	assert.Equal(t, testgen.Draft4, s.Dialect)
	n := s.Root
	assert.Nil(t, n.Minimum, "exclusiveMinimum true makes the minimum exclusive")
	assert.Equal(t, "1", n.ExclusiveMinimum.RatString())
	assert.Equal(t, "5", n.Maximum.RatString())
	assert.Nil(t, n.ExclusiveMaximum)
	assert.False(t, n.HasConst, "draft-04 has no const")
	assert.Nil(t, n.Contains, "draft-04 has no contains")
	assert.Equal(t, testgen.Object{{"const", testgen.Num("3")}, {"contains", testgen.Object{}}}, n.Annotations)

	s, err = testgen.ParseFull([]byte(`{"$schema":"http://json-schema.org/draft-06/schema#","if":{},"const":1}`))
	require.NoError(t, err)
	assert.Nil(t, s.Root.If, "draft-06 has no if")
	assert.True(t, s.Root.HasConst)

	s, err = testgen.ParseFull([]byte(`{"$schema":"http://json-schema.org/draft-07/schema#","contains":{},"minContains":2}`))
	require.NoError(t, err)
	assert.Equal(t, -1, s.Root.MinContains, "draft-07 has no minContains")
	assert.NotNil(t, s.Root.Contains)
}
