package provider_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

// TestEventNamesAgreeWithPayloads: where a provider's SDKs dispatch on
// an event's name (Anthropic, Responses: the payload's type; Bedrock: the
// member that wraps it), a name that disagrees with the payload refuses
// the event whole; a Chat event may be named only "message"; Gemini's and
// Cohere's SDKs read the payload alone, and so does the adapter.
func TestEventNamesAgreeWithPayloads(t *testing.T) {
	t.Parallel()
	const (
		anthropicDelta = `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`
		responsesDelta = `{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"x"}`
		chatChunk      = `{"choices":[{"index":0,"delta":{"content":"x"}}]}`
		geminiChunk    = `{"candidates":[{"index":0,"content":{"parts":[{"text":"x"}]}}]}`
		cohereDelta    = `{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"x"}}}}`
		bedrockDelta   = `{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"x"}}}`
	)
	for _, c := range []struct {
		p           provider.Provider
		name, event string
		ok          bool
	}{
		{provider.Anthropic, "", anthropicDelta, true},
		{provider.Anthropic, "content_block_delta", anthropicDelta, true},
		{provider.Anthropic, "ping", anthropicDelta, false},
		{provider.Anthropic, "message", anthropicDelta, false},
		{provider.OpenAIResponses, "response.output_text.delta", responsesDelta, true},
		{provider.OpenAIResponses, "response.created", responsesDelta, false},
		{provider.OpenAIChat, "", chatChunk, true},
		{provider.OpenAIChat, "message", chatChunk, true},
		{provider.OpenAIChat, "chunk", chatChunk, false},
		{provider.Gemini, "anything", geminiChunk, true},
		{provider.Cohere, "stream-event", cohereDelta, true},
		{provider.Bedrock, "contentBlockDelta", bedrockDelta, true},
		{provider.Bedrock, "messageStop", bedrockDelta, false},
	} {
		a, err := provider.New(c.p)
		require.NoError(t, err)
		evs, err := a.FeedNamed(nil, c.name, []byte(c.event))
		if c.ok {
			require.NoError(t, err, "%s %q", c.p, c.name)
			assert.Len(t, evs, 1, "%s %q: the text", c.p, c.name)
			continue
		}
		var ee *provider.EventError
		require.ErrorAs(t, err, &ee, "%s %q", c.p, c.name)
		assert.Empty(t, ee.Key, "refused whole")
		assert.Empty(t, evs, "%s %q", c.p, c.name)
	}
}
