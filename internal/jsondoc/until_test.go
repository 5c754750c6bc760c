package jsondoc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/jsondoc"
	"github.com/toolgate/toolgate/internal/jsontok"
)

// TestParseUntil: ParseUntil reads a document in chunks, looking at
// stopped before each; told to go on it builds the tree Parse builds,
// errors and their offsets included, and told to stop it reads no more.
func TestParseUntil(t *testing.T) {
	t.Parallel()
	long := strings.Repeat(`"a\u00e9b",`, jsondoc.ParseChunk/4) // strings and escapes across every chunk boundary
	doc := `{"s":[` + long + `1.5e3],"n":{"x":null,"y":[true,false]}}`
	looks := 0
	never := func() bool { looks++; return false }
	want, err := jsondoc.Parse([]byte(doc), 0)
	require.NoError(t, err)
	got, err := jsondoc.ParseUntil([]byte(doc), 0, never)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, (len(doc)+jsondoc.ParseChunk-1)/jsondoc.ParseChunk, looks, "one look before each chunk")

	for _, broken := range []string{doc[:len(doc)-1], `{"a":1,"a":2}`, doc[:len(doc)/2] + "x" + doc[len(doc)/2:]} {
		_, want := jsondoc.Parse([]byte(broken), 0)
		_, got := jsondoc.ParseUntil([]byte(broken), 0, func() bool { return false })
		require.Error(t, want)
		assert.Equal(t, want, got, "the same error, at the same offset")
	}

	looks = 0
	afterTwo := func() bool { looks++; return looks > 2 }
	_, err = jsondoc.ParseUntil([]byte(doc), 0, afterTwo)
	assert.ErrorIs(t, err, jsondoc.ErrStopped)
	assert.Equal(t, 3, looks, "no look, and no chunk, after the one that stops")
	var syntax *jsontok.SyntaxError
	assert.NotErrorAs(t, err, &syntax)
}

// TestCanonicalUntil: CanonicalUntil looks at stopped before its first
// value, after each CanonicalChunk bytes and before sorting an object of
// more than CanonicalSortLook members; told to go on it writes what
// Canonical writes, and told to stop it writes nothing more and looks no
// more.
func TestCanonicalUntil(t *testing.T) {
	t.Parallel()
	items := make([]string, 3*jsondoc.CanonicalChunk/16)
	for i := range items {
		items[i] = fmt.Sprintf(`{"b":%d,"a":"\u00e9\n"}`, i%10) // {"a":"é\n","b":0}: 19 bytes with the comma
	}
	members := make([]string, jsondoc.CanonicalSortLook+1)
	for i := range members {
		members[i] = fmt.Sprintf(`"m%d":[]`, i)
	}
	for _, tc := range []struct {
		name  string
		doc   string
		looks int
	}{
		{"small", `{"b":[1,{"y":2,"x":[3,[]]}],"a":{"s":"\u00e9\n","n":null},"c":1.50}`, 1},
		{"3.6 chunks", `[` + strings.Join(items, ",") + `]`, 4},
		{"a wide object", `[{` + strings.Join(members, ",") + `}]`, 2},
	} {
		v, err := jsondoc.Parse([]byte(tc.doc), 0)
		require.NoError(t, err)
		want := jsondoc.Canonical(v)
		looks := 0
		got, err := jsondoc.CanonicalUntil(v, func() bool { looks++; return false })
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), tc.name)
		assert.Equal(t, tc.looks, looks, "%s: %d bytes", tc.name, len(want))

		for stopAt := 1; stopAt <= tc.looks; stopAt++ {
			looks = 0
			got, err := jsondoc.CanonicalUntil(v, func() bool { looks++; return looks == stopAt })
			assert.ErrorIs(t, err, jsondoc.ErrStopped, tc.name)
			assert.Nil(t, got, tc.name)
			assert.Equal(t, stopAt, looks, "%s: no look after the one that stops", tc.name)
		}
	}
}
