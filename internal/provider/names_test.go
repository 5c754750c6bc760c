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
// the event whole; a Chat event may be named only "message" (or "error",
// see TestChatErrorEventName); Gemini's and
// Cohere's SDKs read the payload alone, and so does the adapter.
func TestEventNamesAgreeWithPayloads(t *testing.T) {
	t.Parallel()
	const (
		anthropicStart = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"x"}}`
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
		{provider.Anthropic, "", anthropicStart, true},
		{provider.Anthropic, "content_block_start", anthropicStart, true},
		{provider.Anthropic, "ping", anthropicStart, false},
		{provider.Anthropic, "message", anthropicStart, false},
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

// TestChatErrorEventName: Groq ends a failed generation with an event
// named "error" (pydantic/pydantic-ai
// tests/models/cassettes/test_groq/test_tool_use_failed_error_streaming_with_text.yaml
// @ 4fda38988f29, MIT; the events below are its last two, verbatim).
// openai-node raises on that name whatever the payload, openai-python on
// the payload's error member: the event ends every call and cuts every
// output, as an unnamed error chunk does, and is not refused.
func TestChatErrorEventName(t *testing.T) {
	t.Parallel()
	const (
		text      = `{"id":"chatcmpl-fd87720a-9b48-4161-bcd7-6127bd0d3696","object":"chat.completion.chunk","created":1771438842,"model":"openai/gpt-oss-120b","system_fingerprint":"fp_c82faf3ca0","choices":[{"index":0,"delta":{"content":"maybe"},"logprobs":null,"finish_reason":null}]}`
		groqError = `{"error":{"message":"Tool choice is required, but model did not call a tool","type":"invalid_request_error","code":"tool_use_failed","failed_generation":"","status_code":400}}`
		call      = `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{\"a\":"}}]}}]}`
	)
	for _, c := range []struct {
		name, first, last string
		want              []string
	}{
		{"groq error after text", text, groqError, []string{"textend output/0 error"}},
		{"groq error during a call", call, groqError, []string{"end choice0/tool0 "}},
		{"an error event without an error member", text, `{"choices":[]}`, []string{"textend output/0 error"}},
		{"an error event that is not JSON", text, `Internal Server Error`, []string{"textend output/0 error"}},
	} {
		a, err := provider.New(provider.OpenAIChat)
		require.NoError(t, err)
		_, err = a.FeedNamed(nil, "", []byte(c.first))
		require.NoError(t, err, c.name)
		evs, err := a.FeedNamed(nil, "error", []byte(c.last))
		require.NoError(t, err, c.name)
		var got []string
		for _, ev := range evs {
			got = append(got, ev.Kind.String()+" "+ev.Key+" "+ev.Cut)
		}
		assert.Equal(t, c.want, got, c.name)
		assert.Empty(t, a.Close(nil), "%s: nothing left open", c.name)
	}
}
