package stream_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/internal/testgen"
	"github.com/toolgate/toolgate/internal/validator"
)

// splits cuts doc into pieces: one byte each, or at random points (which
// land inside UTF-8 sequences and escapes as often as elsewhere).
func splits(r *rand.Rand, doc []byte) [][]byte {
	if r.IntN(4) == 0 {
		pieces := make([][]byte, len(doc))
		for i := range doc {
			pieces[i] = doc[i : i+1]
		}
		return pieces
	}
	var pieces [][]byte
	for len(doc) > 0 {
		n := 1 + r.IntN(min(len(doc), 1+r.IntN(12)))
		pieces, doc = append(pieces, doc[:n]), doc[n:]
	}
	return pieces
}

// streamed runs one call through a Session, piece by piece, and returns its
// result and the index of the piece after which the result arrived (-1 when
// it came at the end).
func streamed(t *testing.T, s *schema.Schema, pieces [][]byte) (stream.Result, int) {
	t.Helper()
	var got []stream.Result
	arrived := -1
	sess := stream.NewSession(t.Context(), stream.Limits{}, func(r *stream.Result) { got = append(got, *r) })
	require.NoError(t, sess.Start("c", "", &stream.Binding{Handle: "h", Schema: s}))
	for i, p := range pieces {
		require.NoError(t, sess.Delta("c", p))
		if arrived < 0 && len(got) > 0 {
			arrived = i
		}
	}
	require.NoError(t, sess.End("c"))
	require.Len(t, got, 1, "exactly one result per call")
	return got[0], arrived
}

// TestStreamedVerdictEqualsWholeDocument: for generated schemas and
// arguments, any split gives the verdict and findings of the whole document,
// which are the first findings (by byte) of a full Validate; and a violation
// detectable in a prefix is reported, early, right after the piece holding
// its byte — before the final piece is sent.
func TestStreamedVerdictEqualsWholeDocument(t *testing.T) {
	t.Parallel()
	schemas, instances := 600, 6
	if testing.Short() {
		schemas = 60
	}
	r := rand.New(rand.NewPCG(20261130, 4))
	earlyChecked := 0
	for range schemas {
		n := testgen.NewSchema(r)
		res := schema.Compile(schema.ToolInput, testgen.Encode(r, n.Doc()))
		require.Empty(t, res.Errors)
		for range instances {
			doc := testgen.Instance(r, n)
			if r.IntN(5) == 0 { // duplicate names, lone surrogates, invalid UTF-8
				if obj, ok := testgen.Valid(r, n).(testgen.Object); ok {
					doc = testgen.Encode(r, testgen.Hazard(r, obj))
				}
			}
			whole, _ := streamed(t, res.Schema, [][]byte{doc})
			pieces := splits(r, doc)
			split, arrived := streamed(t, res.Schema, pieces)
			require.Equal(t, fixtures.Stable(whole.Findings), fixtures.Stable(split.Findings), "doc %q split %q", doc, pieces)

			full := validator.Validate(res.Schema, doc, validator.Options{})
			require.Equal(t, full.Valid(), whole.Valid(), "doc %q", doc)
			if full.Valid() {
				require.False(t, split.Early)
				continue
			}
			first := full.Findings[0].Offset
			var atFirst []schema.Finding
			for _, f := range full.Findings {
				if f.Offset == first {
					atFirst = append(atFirst, f)
				}
			}
			require.Equal(t, fixtures.Stable(atFirst), fixtures.Stable(whole.Findings), "doc %q", doc)

			// Where is the deciding byte? A result decided inside the
			// document arrives right after the piece holding that byte.
			if first >= int64(len(doc)) {
				require.False(t, split.Early, "decided only at the end: %q", doc)
				continue
			}
			holder, start := 0, int64(0)
			for start+int64(len(pieces[holder])) <= first {
				start += int64(len(pieces[holder]))
				holder++
			}
			require.True(t, split.Early, "doc %q decided at byte %d", doc, first)
			require.Equal(t, holder, arrived, "doc %q decided at byte %d", doc, first)
			if holder < len(pieces)-1 {
				earlyChecked++
			}
		}
	}
	t.Logf("%d schemas × %d documents; %d rejections arrived before the final piece", schemas, instances, earlyChecked)
	require.Positive(t, earlyChecked)
}
