package testgen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
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
		s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[i%3]})
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
	absent := map[testgen.Dialect][]string{
		testgen.Draft2020: {`"definitions":`, `"dependencies":`, `"additionalItems":`},
		testgen.Draft2019: {`"definitions":`, `"dependencies":`, `"prefixItems":`},
		testgen.Draft7: {`"$defs":`, `"prefixItems":`, `"dependentRequired":`, `"dependentSchemas":`, `"unevaluatedItems":`,
			`"unevaluatedProperties":`, `"minContains":`, `"maxContains":`, `"$anchor":`},
	}
	seen := map[string]bool{}
	for i := range 900 {
		d := testgen.Dialects[i%3]
		text := testgen.NewFull(r, testgen.FullOptions{Dialect: d}).String()
		for _, kw := range absent[d] {
			assert.NotContains(t, text, kw, "%s schema", d)
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
			s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[i%3]})
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
		s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[i%3]})
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
		s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[i%3]})
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
