package stream_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/stream"
)

// TestHeldBytesAcrossSessions: sessions sharing a HeldBytes hold at most
// its bound for unnamed calls, all together: the call whose text would
// pass it is rejected early (maxBytes) at the first byte past the room
// left; text is given back when its call is named, ends, or its session
// is released.
func TestHeldBytesAcrossSessions(t *testing.T) {
	t.Parallel()
	held := stream.NewHeldBytes(30)
	a := newHarness(t, stream.Limits{Held: held})
	b := newHarness(t, stream.Limits{Held: held})

	first := `{"action":"add","content":` // 26 bytes
	require.NoError(t, a.ProviderEvent(provider.OpenAIChat, unnamedChat(0, first)))
	assert.Equal(t, int64(len(first)), held.Used())
	assert.Empty(t, a.results)

	require.NoError(t, b.ProviderEvent(provider.OpenAIChat, unnamedChat(0, `{"a`)))
	require.NoError(t, b.ProviderEvent(provider.OpenAIChat, unnamedChat(0, `ction":1}`)))
	require.Len(t, b.results, 1, "the other session's call passes the shared bound")
	r := b.results[0]
	assert.True(t, r.Early)
	require.Len(t, r.Findings, 1)
	assert.Equal(t, "maxBytes", r.Findings[0].Keyword)
	assert.Equal(t, int64(30-len(first)), r.Findings[0].Offset, "the first byte past the room left")
	assert.Contains(t, r.Findings[0].Message, "over all streams")
	assert.Equal(t, int64(len(first)), held.Used(), "the rejected call gave back what it held")

	require.NoError(t, a.ProviderEvent(provider.OpenAIChat,
		[]byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"todo","arguments":"\"x\"}"}}]}}]}`)))
	assert.Zero(t, held.Used(), "a named call holds nothing")
	a.Close()
	require.Len(t, a.results, 1)
	assert.True(t, a.results[0].Valid(), "validated with the text it held: %v", a.results[0].Findings)

	require.NoError(t, b.ProviderEvent(provider.OpenAIChat, unnamedChat(1, first)))
	assert.Equal(t, int64(len(first)), held.Used(), "with the room back, the call is held")
	b.Release()
	assert.Zero(t, held.Used(), "a released session gives back what it held")

	c := newHarness(t, stream.Limits{Held: held})
	require.NoError(t, c.ProviderEvent(provider.OpenAIChat, unnamedChat(0, first)))
	c.Close()
	assert.Zero(t, held.Used(), "a call that ends unnamed gives back what it held")
	c.Release()
	assert.Zero(t, held.Used(), "Release after Close gives back nothing twice")
}
