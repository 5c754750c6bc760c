package stream_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/benchcpu"
	"github.com/toolgate/toolgate/internal/benchdoc"
	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
)

// streamBenchSizes and streamBenchPieces are issue 10's grid: document
// sizes, and delta sizes (0 is the whole document in one delta).
var (
	streamBenchSizes = []struct {
		name string
		size int
	}{{"64KiB", 64 << 10}, {"1MiB", 1 << 20}}
	streamBenchPieces = []int{1, 8, 32, 0}
)

func pieceName(piece int) string {
	if piece == 0 {
		return "whole"
	}
	return strconv.Itoa(piece)
}

// editBinding compiles the edit_file schema into a call's binding.
func editBinding(tb testing.TB) *stream.Binding {
	tb.Helper()
	text, err := benchdoc.Schema(fixtures.RepoRoot(tb))
	require.NoError(tb, err)
	res := schema.Compile(schema.ToolInput, text)
	require.Empty(tb, res.Errors)
	return &stream.Binding{Handle: "edit", Schema: res.Schema}
}

// streamCall runs one call through a new Session: Start, doc in deltas of
// piece bytes (0: one delta), End. It returns the call's one result.
func streamCall(ctx context.Context, bound *stream.Binding, doc []byte, piece int) (*stream.Result, error) {
	var got *stream.Result
	sess := stream.NewSession(ctx, stream.Limits{}, func(r *stream.Result) { got = r })
	if err := sess.Start("call_1", "", bound); err != nil {
		return nil, err
	}
	if piece == 0 {
		piece = len(doc)
	}
	for i := 0; i < len(doc); i += piece {
		if err := sess.Delta("call_1", doc[i:min(i+piece, len(doc))]); err != nil {
			return nil, err
		}
	}
	err := sess.End("call_1")
	return got, err
}

// TestStreamBenchCallsAreValid checks that every cell of BenchmarkStream
// measures a whole valid call: one result, valid, with every byte counted.
func TestStreamBenchCallsAreValid(t *testing.T) {
	t.Parallel()
	bound := editBinding(t)
	for _, sz := range streamBenchSizes {
		doc := benchdoc.Sized(sz.size)
		for _, piece := range streamBenchPieces {
			t.Run(sz.name+"/"+pieceName(piece), func(t *testing.T) {
				t.Parallel()
				r, err := streamCall(t.Context(), bound, doc, piece)
				require.NoError(t, err)
				require.NotNil(t, r)
				require.True(t, r.Valid(), "%+v", r.Findings)
				require.False(t, r.Early)
				require.EqualValues(t, sz.size, r.Bytes)
			})
		}
	}
}

// BenchmarkStream feeds an edit_file call of 64 KiB and of 1 MiB through a
// stream Session in deltas of 1, 8 and 32 bytes and whole (issue 10): the
// per-byte cost (MB/s) of each piece size against whole shows the per-delta
// overhead, and 1 MiB against 64 KiB that a delta's cost does not grow with
// what came before. Each op is one call on a new Session.
func BenchmarkStream(b *testing.B) {
	bound := editBinding(b)
	for _, sz := range streamBenchSizes {
		doc := benchdoc.Sized(sz.size)
		for _, piece := range streamBenchPieces {
			b.Run(sz.name+"/"+pieceName(piece), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				stop := benchcpu.Start(b)
				for b.Loop() {
					r, err := streamCall(b.Context(), bound, doc, piece)
					if err != nil || r == nil || !r.Valid() {
						b.Fatalf("call not valid: %v %+v", err, r)
					}
				}
				stop()
			})
		}
	}
}

// BenchmarkSharedState: streams on two goroutines validating 4-byte deltas
// while they share one Limits.State, as every stream of a server does:
// what the shared counter costs on the hot path.
func BenchmarkSharedState(b *testing.B) {
	res := schema.Compile(schema.JSONSchema, []byte(`{"type":"object","additionalProperties":{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"}}}}}`))
	doc := []byte(`{"k":[` + strings.Repeat(`{"a":1},`, 4000) + `{"a":1}]}`)
	shared := stream.NewHeldBytes(1 << 40)
	bnd := &stream.Binding{Handle: "h", Schema: res.Schema}
	b.SetBytes(int64(len(doc)))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s := stream.NewSession(b.Context(), stream.Limits{State: shared}, func(*stream.Result) {})
			_ = s.Start("c", "t", bnd)
			for i := 0; i < len(doc); i += 4 {
				_ = s.Delta("c", doc[i:min(i+4, len(doc))])
			}
			_ = s.End("c")
			s.Release()
		}
	})
}
