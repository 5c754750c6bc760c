package testgen_test

import (
	"bytes"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/testgen"
)

// prefixDocs returns documents written in every style, from the values
// of generated full schemas.
func prefixDocs(r *rand.Rand, n int) ([][]byte, []*testgen.Dictionary) {
	var docs [][]byte
	var dicts []*testgen.Dictionary
	for i := range n {
		s := testgen.NewFull(r, testgen.FullOptions{Dialect: testgen.Dialects[i%len(testgen.Dialects)]})
		v := testgen.FullValid(r, s)
		for _, text := range [][]byte{testgen.Compact(v), testgen.Encode(r, v), testgen.Encode(r, testgen.FullInvalid(r, s))} {
			docs = append(docs, text)
			dicts = append(dicts, s.Dictionary())
		}
	}
	return docs, dicts
}

func TestCompletionsFinishEveryPrefix(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(18, 19))
	docs, dicts := prefixDocs(r, 25)
	for i, doc := range docs {
		for k := range len(doc) + 1 {
			prefix := doc[:k]
			completions := testgen.Completions(r, prefix, dicts[i], 12)
			require.NotEmpty(t, completions, "no completion of %q", prefix)
			for _, c := range completions {
				require.True(t, bytes.HasPrefix(c, prefix), "%q does not start with %q", c, prefix)
				require.True(t, json.Valid(c), "completion %q of %q is not JSON", c, prefix)
			}
			for _, c := range testgen.Splices(prefix, doc, dicts[i]) {
				require.True(t, bytes.HasPrefix(c, prefix), "%q does not start with %q", c, prefix)
				require.True(t, json.Valid(c), "splice %q of %q is not JSON", c, prefix)
			}
		}
	}
	for _, bad := range []string{`x`, `{"a" 1`, `[1,]`, `{"a":01`, `"\x`, `tru3`, `{}}`} {
		assert.Empty(t, testgen.Completions(r, []byte(bad), dicts[0], 12), "%q starts no JSON text", bad)
	}
}

func TestCompletionsReachTheDictionary(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(20, 21))
	d := &testgen.Dictionary{Strings: []string{"update", "日本", "😀x", `q"`}, Numbers: []*big.Rat{testgen.Num("120"), testgen.Num("-0.5"), testgen.Num("1e-30")},
		Values: []any{nil}}
	for _, c := range []struct{ prefix, want string }{
		{`"up`, `"update"`},
		{`"\u0075p`, `"\u0075pdate"`},
		{`"\u00`, `"\u0075pdate"`},
		{`"日`, `"日本"`},
		{"\"\xe6", `"日本"`},
		{`"\ud83d`, `"\ud83d\ude00x"`},
		{`"q\`, `"q\""`},
		{`1.2`, `1.2e2`},
		{`12`, `120`},
		{`0.000`, `0.0001e-26`},
		{`-`, `-0.5`},
		{`-5e`, `-5e-1`},
		{`{"a":[1,{"b":tr`, `{"a":[1,{"b":true}]}`},
	} {
		got := testgen.Completions(r, []byte(c.prefix), d, 400)
		assert.Contains(t, got, []byte(c.want), "completions of %q", c.prefix)
	}
}

func TestValueSpans(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(22, 23))
	docs, _ := prefixDocs(r, 60)
	for _, doc := range docs {
		spans, err := testgen.ValueSpans(doc)
		if err != nil {
			assert.ErrorContains(t, err, "names two values", "%s", doc)
			continue
		}
		var whole any
		require.NoError(t, json.Unmarshal(doc, &whole))
		for ptr, s := range spans {
			want, ok := fixtures.Resolve(whole, ptr)
			require.True(t, ok, "%q in %s", ptr, doc)
			var got any
			require.NoError(t, json.Unmarshal(doc[s.Start:s.End], &got), "%q in %s", ptr, doc)
			assert.Equal(t, want, got, "%q in %s", ptr, doc)
		}
	}
	_, err := testgen.ValueSpans([]byte(`{"a":1,"a":2}`))
	assert.ErrorContains(t, err, "names two values")
	_, err = testgen.ValueSpans([]byte(`{} {}`))
	assert.Error(t, err)
}
