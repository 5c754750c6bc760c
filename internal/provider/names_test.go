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

// TestErrorEventWithoutPayload: an event named "error" whose data is
// empty, or only white space, ends every call and cuts every output, as
// one with a payload does: anthropic-sdk-python raises on the name alone,
// and openai-python and openai-node on data that is not JSON. Any other
// event without payload carries nothing, named or not; Gemini's and
// Cohere's SDKs read no names, and Bedrock's name must be the member that
// wraps a payload.
func TestErrorEventWithoutPayload(t *testing.T) {
	t.Parallel()
	const (
		anthropicText  = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"{}"}}`
		responsesText  = `{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"{}"}`
		chatText       = `{"choices":[{"index":0,"delta":{"content":"{}"}}]}`
		geminiText     = `{"candidates":[{"index":0,"content":{"parts":[{"text":"{}"}]}}]}`
		chatCall       = `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{"}}]}}]}`
		anthropicBlock = `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`
	)
	cut := []string{"textend output/0 error"}
	for _, c := range []struct {
		name        string
		p           provider.Provider
		first       string
		event, data string
		want        []string // the events of the last one; nil for none
		refused     bool
	}{
		{"chat, no data", provider.OpenAIChat, chatText, "error", "", cut, false},
		{"chat, white space", provider.OpenAIChat, chatText, "error", " \r\n\t", cut, false},
		{"chat, during a call", provider.OpenAIChat, chatCall, "error", "", []string{"end choice0/tool0 "}, false},
		{"anthropic, no data", provider.Anthropic, anthropicText, "error", "", cut, false},
		{"anthropic, during a call", provider.Anthropic, anthropicBlock, "error", "\n", []string{"delta msg0/block0 ", "end msg0/block0 "}, false},
		{"responses, no data", provider.OpenAIResponses, responsesText, "error", "", cut, false},
		{"chat, unnamed", provider.OpenAIChat, chatText, "", "", nil, false},
		{"chat, the default name", provider.OpenAIChat, chatText, "message", " ", nil, false},
		{"chat, a name chat streams do not use", provider.OpenAIChat, chatText, "ping", "", nil, true},
		{"anthropic ping", provider.Anthropic, anthropicText, "ping", "", nil, false},
		{"responses, another name", provider.OpenAIResponses, responsesText, "response.output_text.delta", "", nil, false},
		{"gemini reads no names", provider.Gemini, geminiText, "error", "", nil, false},
		{"bedrock, a name that wraps nothing", provider.Bedrock, `{"messageStart":{"role":"assistant"}}`, "error", "", nil, true},
	} {
		a, err := provider.New(c.p)
		require.NoError(t, err)
		_, err = a.Feed(nil, []byte(c.first))
		require.NoError(t, err, c.name)
		evs, err := a.FeedNamed(nil, c.event, []byte(c.data))
		var got []string
		for _, ev := range evs {
			got = append(got, ev.Kind.String()+" "+ev.Key+" "+ev.Cut)
		}
		assert.Equal(t, c.want, got, c.name)
		if c.refused {
			var ee *provider.EventError
			assert.ErrorAs(t, err, &ee, c.name)
			continue
		}
		require.NoError(t, err, c.name)
		if c.want != nil {
			assert.Empty(t, a.Close(nil), "%s: nothing left open", c.name)
		}
	}
	for _, p := range allProviders {
		a, err := provider.New(p)
		require.NoError(t, err)
		for _, data := range []string{"", " \r\n\t"} {
			evs, err := a.Feed(nil, []byte(data))
			require.NoError(t, err, "%s %q", p, data)
			assert.Empty(t, evs, "%s %q", p, data)
		}
	}
}

// TestDoneEndsOpenAIStreams: OpenAI's [DONE] ends an OpenAI Chat or
// Responses stream as Close does, whatever its name: openai-python and
// openai-node, which read both APIs with one stream class, stop reading
// there. An event after it is refused whole, since clients disagree (the
// Vercel AI SDK skips [DONE] and reads on); another [DONE], or an event
// without payload, is nothing. Other providers send no [DONE] and ignore
// it.
func TestDoneEndsOpenAIStreams(t *testing.T) {
	t.Parallel()
	const (
		chatText      = `{"choices":[{"index":0,"delta":{"content":"{}"}}]}`
		chatCall      = `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{"}}]}}]}`
		responsesText = `{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"{}"}`
		anthropicText = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"{}"}}`
	)
	for _, c := range []struct {
		name        string
		p           provider.Provider
		first       string
		event, done string
		want        []string // the events of [DONE]
		after       string   // read after [DONE]: refused when want is not nil
	}{
		{"chat, an answer", provider.OpenAIChat, chatText, "", "[DONE]", []string{"textend output/0"}, chatText},
		{"chat, a call", provider.OpenAIChat, chatCall, "", "[DONE]", []string{"end choice0/tool0"}, `{"choices":[]}`},
		{"chat, white space around", provider.OpenAIChat, chatText, "", " [DONE]\r\n", []string{"textend output/0"}, chatText},
		{"chat, named", provider.OpenAIChat, chatText, "message", "[DONE]", []string{"textend output/0"}, chatText},
		{"responses", provider.OpenAIResponses, responsesText, "", "[DONE]", []string{"textend output/0"}, `{"type":"response.completed"}`},
		{"anthropic", provider.Anthropic, anthropicText, "", "[DONE]", nil, `{"type":"message_stop"}`},
		{"gemini", provider.Gemini, `{"candidates":[{"index":0,"content":{"parts":[{"text":"{}"}]}}]}`, "", "[DONE]", nil, `{"candidates":[{"index":0,"finishReason":"STOP"}]}`},
	} {
		a, err := provider.New(c.p)
		require.NoError(t, err)
		_, err = a.Feed(nil, []byte(c.first))
		require.NoError(t, err, c.name)
		evs, err := a.FeedNamed(nil, c.event, []byte(c.done))
		require.NoError(t, err, c.name)
		var got []string
		if len(evs) > 0 {
			got = kinds(evs)
		}
		assert.Equal(t, c.want, got, c.name)
		if c.want == nil {
			evs, err = a.Feed(nil, []byte(c.after))
			require.NoError(t, err, c.name)
			assert.Equal(t, []string{"textend output/0"}, kinds(evs), "%s: the stream goes on", c.name)
			continue
		}
		for _, ev := range []string{"[DONE]", "", "\n"} {
			evs, err = a.Feed(nil, []byte(ev))
			require.NoError(t, err, "%s: %q after [DONE]", c.name, ev)
			assert.Empty(t, evs, c.name)
		}
		evs, err = a.Feed(nil, []byte(c.after))
		var ee *provider.EventError
		require.ErrorAs(t, err, &ee, c.name)
		assert.Empty(t, ee.Key, "%s: refused whole", c.name)
		assert.Contains(t, ee.Reason, "after [DONE]", c.name)
		assert.Empty(t, evs, c.name)
		assert.Empty(t, a.Close(nil), "%s: nothing left open", c.name)
	}
}

// TestDoneThenAnotherResponse: an agent loop may send each step's stream,
// each ending with its "[DONE]", to one ValidateStream. After "[DONE]", an
// event that begins another response — an OpenAI Chat chunk of another
// completion (another, non-empty id), a Responses response.created —
// begins it as the first did: its calls and answers are new ones, each
// with its own key. Any other event is still refused: a chunk with the
// ended completion's id or none, a Responses event of the ended response.
func TestDoneThenAnotherResponse(t *testing.T) {
	t.Parallel()
	chat := func(id, delta string) string {
		return `{"id":"` + id + `","choices":[{"index":0,"delta":` + delta + `}]}`
	}
	const (
		text        = `{"content":"{}"}`
		createdResp = `{"type":"response.created","response":{"output":[]}}`
		respText    = `{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"{}"}`
	)
	call := func(id string) string {
		return `{"tool_calls":[{"index":0,"id":"` + id + `","function":{"name":"f","arguments":"{}"}}]}`
	}
	for _, c := range []struct {
		name   string
		p      provider.Provider
		first  []string
		second string   // after [DONE]
		want   []string // its events; nil: refused
	}{
		{"chat, another completion's answer", provider.OpenAIChat, []string{chat("cmpl-1", text)}, chat("cmpl-2", text), []string{"text output/0#2"}},
		{"chat, another completion's call", provider.OpenAIChat, []string{chat("cmpl-1", call("c1"))}, chat("cmpl-2", call("c2")),
			[]string{"start completion1/choice0/tool0", "delta completion1/choice0/tool0"}},
		{"chat, the ended completion", provider.OpenAIChat, []string{chat("cmpl-1", text)}, chat("cmpl-1", text), nil},
		{"chat, no id", provider.OpenAIChat, []string{chat("cmpl-1", text)}, `{"choices":[{"index":0,"delta":{"content":"{}"}}]}`, nil},
		{"chat, an id after none", provider.OpenAIChat, []string{`{"choices":[{"index":0,"delta":{"content":"{}"}}]}`}, chat("cmpl-2", text), []string{"text output/0#2"}},
		{"responses, response.created", provider.OpenAIResponses, []string{createdResp, respText}, createdResp, []string{}},
		{"responses, an event of the ended response", provider.OpenAIResponses, []string{createdResp, respText}, respText, nil},
	} {
		a, err := provider.New(c.p)
		require.NoError(t, err)
		for _, ev := range c.first {
			_, err = a.Feed(nil, []byte(ev))
			require.NoError(t, err, c.name)
		}
		_, err = a.Feed(nil, []byte("[DONE]"))
		require.NoError(t, err, c.name)
		evs, err := a.Feed(nil, []byte(c.second))
		if c.want == nil {
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee, c.name)
			assert.Contains(t, ee.Reason, "after [DONE]", c.name)
			continue
		}
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, kinds(evs), c.name)
		// The second response ends at its own [DONE], and a third may follow.
		_, err = a.Feed(nil, []byte("[DONE]"))
		require.NoError(t, err, c.name)
		stale := c.second
		if c.p == provider.OpenAIResponses {
			stale = respText
		}
		_, err = a.Feed(nil, []byte(stale))
		assert.Error(t, err, "%s: the second response's event after its own [DONE]", c.name)
	}
}

// TestDoneThenAnotherCompletionsFinish: a choice's finish_reason acts on
// the choice of the completion under way, in the stream's first
// completion and in one begun after "[DONE]" alike: it ends the choice's
// calls there and then, and a reason that cuts the choice cuts its
// answer. It once did neither after "[DONE]", whose keys have a prefix
// of their own ("completion1/choice0/"): the calls ended only at the next
// "[DONE]", and an answer cut by "length" ended as finished.
func TestDoneThenAnotherCompletionsFinish(t *testing.T) {
	t.Parallel()
	chunk := func(id, delta, finish string) string {
		return `{"id":"` + id + `","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	const (
		text = `{"content":"{}"}`
		call = `{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}`
	)
	for _, c := range []struct {
		name, delta, finish string
		ends                bool   // the finish chunk ends the call
		cut                 string // the answer's Cut at [DONE]
	}{
		{"answer cut by length", text, `"length"`, false, "length"},
		{"answer cut by content_filter", text, `"content_filter"`, false, "content_filter"},
		{"answer finished", text, `"stop"`, false, ""},
		{"call ended by tool_calls", call, `"tool_calls"`, true, ""},
		{"call ended by length", call, `"length"`, true, ""},
	} {
		for _, restarted := range []bool{false, true} {
			a, err := provider.New(provider.OpenAIChat)
			require.NoError(t, err)
			id, prefix, name := "cmpl-1", "", c.name+", first completion"
			if restarted {
				for _, ev := range []string{chunk(id, text, "null"), chunk(id, `{}`, `"stop"`), "[DONE]"} {
					_, err = a.Feed(nil, []byte(ev))
					require.NoError(t, err, name)
				}
				id, prefix, name = "cmpl-2", "completion1/", c.name+", after [DONE]"
			}
			_, err = a.Feed(nil, []byte(chunk(id, c.delta, "null")))
			require.NoError(t, err, name)
			evs, err := a.Feed(nil, []byte(chunk(id, `{}`, c.finish)))
			require.NoError(t, err, name)
			want := []string{}
			if c.ends {
				want = append(want, "end "+prefix+"choice0/tool0")
			}
			assert.Equal(t, want, kinds(evs), name)
			evs, err = a.Feed(nil, []byte("[DONE]"))
			require.NoError(t, err, name)
			if c.ends {
				assert.Empty(t, evs, name)
				continue
			}
			require.Len(t, evs, 1, name)
			assert.Equal(t, provider.TextEnd, evs[0].Kind, name)
			assert.Equal(t, c.cut, evs[0].Cut, name)
		}
	}
}
