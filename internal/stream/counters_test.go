package stream_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
)

// TestCounters: every started call counts, plain or from provider events,
// and bytes count as ignored exactly when they arrive after their call's
// verdict.
func TestCounters(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	assert.Equal(t, stream.Counters{}, h.Counters())

	require.NoError(t, h.Start("c1", "todo", nil))
	h.deltas(t, "c1", `{"action":"up`, `date"}`)
	assert.Equal(t, stream.Counters{Started: 1}, h.Counters(), "bytes before a verdict are not ignored")

	require.NoError(t, h.Start("c2", "todo", nil))
	h.deltas(t, "c2", `{"action":"x`) // no choice starts with x: rejected here
	require.Len(t, h.results, 1)
	h.deltas(t, "c2", `yz"}`, `  `)
	assert.Equal(t, stream.Counters{Started: 2, IgnoredBytes: 6}, h.Counters())

	require.NoError(t, h.Start("c3", "nosuchtool", nil)) // rejected at its start
	h.deltas(t, "c3", `{}`)
	assert.Equal(t, stream.Counters{Started: 3, IgnoredBytes: 8}, h.Counters())

	event := `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"noargs","input":{}}}`
	require.NoError(t, h.ProviderEvent(provider.Anthropic, []byte(event)))
	assert.Equal(t, 4, h.Counters().Started, "a call a provider event starts counts too")
}

// TestResultProfile: a result names the profile of its call's schema, and
// none for a call that never had a schema.
func TestResultProfile(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	require.NoError(t, h.Start("known", "todo", nil))
	require.NoError(t, h.End("known"))
	require.NoError(t, h.Start("unknown", "nosuchtool", nil))
	require.Len(t, h.results, 2)
	assert.Equal(t, schema.ToolInput, h.results[0].Profile)
	assert.Equal(t, schema.Profile(0), h.results[1].Profile)
}
