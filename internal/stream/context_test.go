package stream_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/hostile"
	"github.com/toolgate/toolgate/internal/stream"
)

// TestHugeDeltaStopsWithItsContext: a delta of 1 MiB is validated in
// bounded chunks with the context checked between them, so a stream whose
// context ends stops within one chunk, not at the end of the delta.
func TestHugeDeltaStopsWithItsContext(t *testing.T) {
	t.Parallel()
	doc := `{"action":"add","content":"` + strings.Repeat("x", 1<<20) + `","status":"nope"}`
	ctx := hostile.NewCountdown(context.Background(), 3, context.Canceled)
	h := newHarnessContext(t, ctx, stream.Limits{})
	require.NoError(t, h.Start("c", "todo", nil))
	err := h.Delta("c", []byte(doc))
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, h.results, "the bad status at the end was never reached")
	assert.Equal(t, int64(4), ctx.Looks(), "three chunks validated, then the context said stop")

	// The same delta with a live context is validated to its end.
	h = newHarness(t, stream.Limits{})
	require.NoError(t, h.Start("c", "todo", nil))
	require.NoError(t, h.Delta("c", []byte(doc)))
	require.Len(t, h.results, 1)
	assert.Equal(t, "enum", h.results[0].Findings[0].Keyword)
}

// TestTinyDeltasStopWithTheirContext: a run of one-byte deltas is checked
// against its context as one chunk, so the context is not asked per delta,
// and a stream whose context ends stops within a chunk's worth of deltas.
func TestTinyDeltasStopWithTheirContext(t *testing.T) {
	t.Parallel()
	ctx := hostile.NewCountdown(context.Background(), 2, context.Canceled)
	h := newHarnessContext(t, ctx, stream.Limits{})
	require.NoError(t, h.Start("c", "todo", nil))
	doc := []byte(`{"action":"add","content":"` + strings.Repeat("x", 1<<20))
	sent := 0
	var err error
	for ; sent < len(doc) && err == nil; sent++ {
		err = h.Delta("c", doc[sent:sent+1])
	}
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int64(3), ctx.Looks())
	// Two chunks were validated, 4 KiB each of deltas weighing 32 bytes
	// besides their one (about 2 × 124 deltas), then the third look
	// stopped the stream.
	assert.Greater(t, sent, 200)
	assert.Less(t, sent, 300)
}
