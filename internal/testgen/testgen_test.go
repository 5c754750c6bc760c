package testgen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/testgen"
)

// decode reads JSON text with exact numbers (as big.Rat strings) so that
// values can be compared whatever their spelling.
func decode(t *testing.T, text []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v), "%s", text)
	require.False(t, d.More(), "trailing data in %s", text)
	return exact(v)
}

func exact(v any) any {
	switch v := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(v))
		if !ok {
			panic(v)
		}
		return r.RatString()
	case []any:
		for i := range v {
			v[i] = exact(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = exact(v[k])
		}
	}
	return v
}

func TestEncodeKeepsTheValue(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		n := testgen.NewSchema(r)
		v := testgen.Valid(r, n)
		if i%2 == 1 {
			v = testgen.Invalid(r, n)
		}
		plain := testgen.Compact(v)
		require.True(t, json.Valid(plain), "%s", plain)
		for range 3 {
			text := testgen.Encode(r, v)
			require.True(t, json.Valid(text), "%s", text)
			assert.Equal(t, decode(t, plain), decode(t, text), "plain %s\nencoded %s", plain, text)
		}
	}
}

func TestNumberSpellings(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for _, lit := range []string{"0", "1", "-1", "0.1", "1e2", "2.5E-3", "-18446744073709551615",
		"123456789012345678901234567890", "9007199254740993", "0.09999999999999999999", "1e-40"} {
		want := testgen.Num(lit)
		seen := map[string]bool{}
		for range 200 {
			text := testgen.Encode(r, want)
			seen[string(bytes.TrimSpace(text))] = true
			got, ok := new(big.Rat).SetString(string(bytes.TrimSpace(text)))
			require.True(t, ok, "%s", text)
			require.Zero(t, want.Cmp(got), "%s spelled %s", lit, text)
		}
		assert.Greater(t, len(seen), 3, "%s has too few spellings: %v", lit, seen)
	}
}

func TestSameSeedSameOutput(t *testing.T) {
	t.Parallel()
	gen := func() []byte {
		r := rand.New(rand.NewPCG(7, 7))
		var out []byte
		for range 50 {
			n := testgen.NewSchema(r)
			out = append(out, testgen.Encode(r, n.Doc())...)
			out = append(out, testgen.Instance(r, n)...)
		}
		return out
	}
	assert.Equal(t, gen(), gen())
}

func TestParseReadsWhatNodeWrites(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		n := testgen.NewSchema(r)
		text := testgen.Encode(r, n.Doc())
		parsed, err := testgen.Parse(text)
		require.NoError(t, err, "%s", text)
		assert.Equal(t, decode(t, testgen.Compact(n.Doc())), decode(t, testgen.Compact(parsed.Doc())), "%s", text)
		_, err = testgen.InstanceJSON(r, text)
		require.NoError(t, err)
	}
	_, err := testgen.Parse([]byte(`{"type":"object","properties":{"a":{"type":"string","pattern":"x"}}}`))
	assert.ErrorContains(t, err, `"pattern"`)
}

func TestHazardWritesFlawedJSON(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 9))
	for range 300 {
		n := testgen.NewSchema(r)
		v, _ := testgen.Valid(r, n).(testgen.Object)
		text := testgen.Encode(r, testgen.Hazard(r, v))
		assert.NotEqual(t, testgen.Compact(v), testgen.Compact(testgen.Hazard(r, v)), "Hazard must change the value")
		// encoding/json still reads it (replacing bad text, keeping the last
		// duplicate), which is exactly why DESIGN.md treats these apart.
		assert.NoError(t, json.Unmarshal(text, new(any)), "%q", text)
	}
}

func Example() {
	r := rand.New(rand.NewPCG(42, 0))
	n := testgen.NewSchema(r)
	schemaText := testgen.Encode(r, n.Doc()) // random spelling of the schema
	args := testgen.Instance(r, n)           // valid-leaning or invalid-leaning arguments
	fmt.Println(json.Valid(schemaText), len(args) > 0)
	// Output: true true
}
