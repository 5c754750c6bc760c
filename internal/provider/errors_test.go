package provider_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

var allProviders = []provider.Provider{
	provider.OpenAIChat, provider.OpenAIResponses, provider.Anthropic,
	provider.Gemini, provider.Bedrock, provider.Cohere,
}

func TestMalformedEvents(t *testing.T) {
	t.Parallel()
	type tc struct {
		name   string
		p      provider.Provider
		event  string
		reason string // a substring of EventError.Reason
	}
	var cases []tc
	for _, p := range allProviders {
		cases = append(cases,
			tc{"truncated", p, `{"type":`, "invalid JSON"},
			tc{"not_json", p, `data: {}`, "invalid JSON"},
			tc{"two_values", p, `{} {}`, "invalid JSON"},
			tc{"byte_order_mark", p, "\xEF\xBB\xBF{}", "invalid JSON: invalid character 0xEF looking for beginning of value (a UTF-8 byte order mark begins with it; JSON text must not) at byte 0"},
			tc{"raw_non_ascii", p, `{"type":é}`, "invalid JSON: invalid character 0xC3 looking for beginning of value at byte 8"},
			tc{"array", p, `[{"type":"x"}]`, "event is array, want a JSON object"},
			tc{"string", p, `"x"`, "event is string, want a JSON object"},
			tc{"null", p, `null`, "event is null, want a JSON object"},
		)
	}
	cases = append(cases,
		tc{"choices_not_array", provider.OpenAIChat, `{"choices":{"index":0}}`, "field choices is object, want an array"},
		tc{"tool_calls_not_array", provider.OpenAIChat, `{"choices":[{"delta":{"tool_calls":{}}}]}`, "field choices.delta.tool_calls is object, want an array"},
		tc{"tool_call_index_string", provider.OpenAIChat, `{"choices":[{"delta":{"tool_calls":[{"index":"0"}]}}]}`, "field choices.delta.tool_calls.index is string, want an integer"},
		tc{"arguments_not_string", provider.OpenAIChat, `{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":{}}}]}}]}`, "arguments is object, want a string"},
		tc{"choice_index_fraction", provider.OpenAIChat, `{"choices":[{"index":1.5}]}`, "field choices.index is number 1.5, want an integer"},

		tc{"no_type", provider.OpenAIResponses, `{"item_id":"fc_1","delta":"x"}`, `no "type"`},
		tc{"type_not_string", provider.OpenAIResponses, `{"type":3}`, "field type is number, want a string"},
		tc{"delta_without_item_id", provider.OpenAIResponses, `{"type":"response.function_call_arguments.delta","delta":"{}"}`, "without item_id"},
		tc{"delta_not_string", provider.OpenAIResponses, `{"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":1}`, "field delta is number, want a string"},
		tc{"item_not_object", provider.OpenAIResponses, `{"type":"response.output_item.added","item":[]}`, "field item is array, want an object"},
		tc{"function_call_without_id", provider.OpenAIResponses, `{"type":"response.output_item.added","item":{"type":"function_call","name":"f"}}`, "without id"},
		tc{"custom_tool_call_without_id", provider.OpenAIResponses, `{"type":"response.output_item.added","item":{"type":"custom_tool_call","call_id":"call_1","name":"exec","input":""}}`, "custom_tool_call item without id"},
		tc{"completed_computer_call_without_id", provider.OpenAIResponses, `{"type":"response.completed","response":{"output":[{"type":"computer_call","call_id":"call_1"}]}}`, "response.completed computer_call item without id"},
		tc{"function_call_arguments_object", provider.OpenAIResponses, `{"type":"response.output_item.added","item":{"type":"function_call","id":"fc_1","arguments":{}}}`, "arguments are not a string"},

		tc{"no_type", provider.Anthropic, `{"index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`, `no "type"`},
		tc{"delta_without_index", provider.Anthropic, `{"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"{}"}}`, "content_block_delta without index"},
		tc{"start_without_index", provider.Anthropic, `{"type":"content_block_start","content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`, "content_block_start without index"},
		tc{"stop_without_index", provider.Anthropic, `{"type":"content_block_stop"}`, "content_block_stop without index"},
		tc{"index_string", provider.Anthropic, `{"type":"content_block_stop","index":"1"}`, "field index is string, want an integer"},
		tc{"partial_json_not_string", provider.Anthropic, `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":{}}}`, "field delta.partial_json is object, want a string"},
		tc{"message_content_not_array", provider.Anthropic, `{"type":"message_start","message":{"content":"hi"}}`, "field message.content is string, want an array"},

		tc{"candidates_not_array", provider.Gemini, `{"candidates":{}}`, "field candidates is object, want an array"},
		tc{"parts_not_array", provider.Gemini, `{"candidates":[{"content":{"parts":{}}}]}`, "field candidates.content.parts is object, want an array"},
		tc{"partial_args_not_array", provider.Gemini, `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","partialArgs":{}}}]}}]}`, "partialArgs is object, want an array"},
		tc{"args_and_partial_args", provider.Gemini, `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"g","args":{},"partialArgs":[{"jsonPath":"$.a","numberValue":1}]}}]}}]}`, "both args and partialArgs"},
		// ADK streams a call with willContinue, whatever its args: the
		// partialArgs that follow are its arguments, not a call of their own.
		tc{"args_and_will_continue", provider.Gemini, `{"candidates":[{"content":{"parts":[{"functionCall":{"id":"fc1","name":"rm","args":{},"willContinue":true}}]}}]}`, "both args and willContinue"},
		tc{"args_and_will_continue_after_a_call", provider.Gemini, `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"rm","args":{"path":"/tmp"},"willContinue":true}}]}}]}`, "both args and willContinue"},

		tc{"index_string", provider.Bedrock, `{"contentBlockStop":{"contentBlockIndex":"1"}}`, "field contentBlockStop.contentBlockIndex is string, want an integer"},
		tc{"delta_without_index", provider.Bedrock, `{"contentBlockDelta":{"delta":{"toolUse":{"input":"{}"}}}}`, "contentBlockDelta without contentBlockIndex"},
		tc{"start_without_index", provider.Bedrock, `{"contentBlockStart":{"start":{"toolUse":{"toolUseId":"t","name":"f"}}}}`, "contentBlockStart without contentBlockIndex"},
		tc{"input_not_string", provider.Bedrock, `{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"toolUse":{"input":{}}}}}`, "input is object, want a string"},
		// The bare payloads of the event stream (its :event-type header
		// dropped): forwarded so, a tool call would pass unseen.
		tc{"bare_message_start", provider.Bedrock, `{"role":"assistant","p":"abcdefgh"}`, "payload without its event-type wrapper"},
		tc{"bare_block_start", provider.Bedrock, `{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t","name":"rm"}},"p":"abcd"}`, "payload without its event-type wrapper"},
		tc{"bare_block_delta", provider.Bedrock, `{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{}"}}}`, "payload without its event-type wrapper"},
		tc{"bare_block_stop", provider.Bedrock, `{"contentBlockIndex":0,"p":"ab"}`, "payload without its event-type wrapper"},
		tc{"bare_message_stop", provider.Bedrock, `{"stopReason":"tool_use"}`, "payload without its event-type wrapper"},
		// Two payloads in one event: the SDKs yield one; clients that test
		// the members in another order read another (named, it is refused
		// too: names_test.go).
		tc{"stop_and_delta", provider.Bedrock, `{"messageStop":{"stopReason":"tool_use"},"contentBlockDelta":{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{}"}}}}`, "the event has 2 members"},
		tc{"start_and_metadata", provider.Bedrock, `{"contentBlockStart":{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t","name":"rm"}}},"metadata":{}}`, "the event has 2 members"},
		tc{"exception_and_delta", provider.Bedrock, `{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{}"}}},"throttlingException":{"message":"slow down"}}`, "the event has 2 members"},
		tc{"wrapper_and_padding", provider.Bedrock, `{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{}"}}},"p":"abcd"}`, "the event has 2 members"},
		tc{"wrapper_and_bare_member", provider.Bedrock, `{"contentBlockStop":{"contentBlockIndex":0},"delta":{"toolUse":{"input":"{}"}}}`, "payload without its event-type wrapper"},
		tc{"content_not_text", provider.OpenAIChat, `{"choices":[{"delta":{"content":5}}]}`, "field choices.delta.content is number, want a string"},
		tc{"content_part_text_not_string", provider.OpenAIChat, `{"choices":[{"delta":{"content":[{"type":"text","text":7}]}}]}`, "field choices.delta.content.text is number, want a string"},

		tc{"no_type", provider.Cohere, `{"index":0}`, `no "type"`},
		tc{"delta_without_index", provider.Cohere, `{"type":"tool-call-delta","delta":{"message":{"tool_calls":{"function":{"arguments":"{}"}}}}}`, "tool-call-delta without index"},
		tc{"arguments_not_string", provider.Cohere, `{"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"a","function":{"name":"f","arguments":{}}}}}}`, "arguments is object, want a string"},
	)
	for _, c := range cases {
		t.Run(c.p.String()+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			a, err := provider.New(c.p)
			require.NoError(t, err)
			evs, err := a.Feed(nil, []byte(c.event))
			require.Error(t, err)
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, c.p, ee.Provider)
			assert.Empty(t, ee.Key, "a rejected event concerns no call")
			assert.Contains(t, ee.Reason, c.reason)
			assert.Contains(t, err.Error(), c.p.String()+" event: ")
			assert.Empty(t, evs, "a rejected event produces nothing")
			assert.Empty(t, a.Close(nil), "and leaves no call behind")
		})
	}
}

func TestSyntaxErrorIsWrapped(t *testing.T) {
	t.Parallel()
	a, err := provider.New(provider.Anthropic)
	require.NoError(t, err)
	_, err = a.Feed(nil, []byte(`{"type":}`))
	var syn *json.SyntaxError
	require.ErrorAs(t, err, &syn)
}

// TestStrictRefusalIsWrapped holds that an event encoding/json reads but a
// strict client would read otherwise (a repeated member name) is an
// *EventError wrapping the strict reader's error, whose text is its reason.
func TestStrictRefusalIsWrapped(t *testing.T) {
	t.Parallel()
	a, err := provider.New(provider.Anthropic)
	require.NoError(t, err)
	_, err = a.Feed(nil, []byte(`{"type":"ping","type":"message_stop"}`))
	var ev *provider.EventError
	require.ErrorAs(t, err, &ev)
	require.Error(t, ev.Err, "the strict reader's error is kept")
	assert.Equal(t, ev.Reason, ev.Err.Error())
	assert.Contains(t, ev.Reason, `"type"`)
}

func TestGeminiValueErrorsNameTheCall(t *testing.T) {
	t.Parallel()
	open := `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","willContinue":true}}]}}]}`
	for _, c := range []struct{ name, entry, reason string }{
		{"path_without_dollar", `{"jsonPath":"a.b","numberValue":1}`, "does not start with $"},
		{"path_root", `{"jsonPath":"$","numberValue":1}`, "does not name a member"},
		{"path_root_index", `{"jsonPath":"$[0]","numberValue":1}`, "does not name a member"},
		{"path_empty_name", `{"jsonPath":"$..a","numberValue":1}`, "empty name"},
		{"path_bad_index", `{"jsonPath":"$.a[x]","numberValue":1}`, "bad array index"},
		{"path_huge_index", `{"jsonPath":"$.a[12345678901]","numberValue":1}`, "bad array index"},
		{"path_unterminated_quote", `{"jsonPath":"$['a","numberValue":1}`, "unterminated quoted name"},
		{"path_garbage", `{"jsonPath":"$a","numberValue":1}`, "unexpected"},
		{"number_not_a_number", `{"jsonPath":"$.a","numberValue":"NaN"}`, "is not a JSON number"},
		{"two_values", `{"jsonPath":"$.a","numberValue":1,"boolValue":true}`, "more than one value"},
		{"array_index_skipped", `{"jsonPath":"$.a[1]","numberValue":1}`, "out of order"},
		// A reason quotes a path or a value cut short: it ends up in a
		// finding's message, which a megabyte path would have made a
		// megabyte long.
		{"long_path_without_dollar", `{"jsonPath":"` + strings.Repeat("a", 1<<20) + `","numberValue":1}`, "does not start with $"},
		{"long_path_garbage", `{"jsonPath":"$.a[0]` + strings.Repeat("x", 1<<20) + `","numberValue":1}`, "unexpected"},
		{"long_path_out_of_order", `{"jsonPath":"$.` + strings.Repeat("a", 1<<20) + `[1]","numberValue":1}`, "out of order"},
		{"long_path_two_values", `{"jsonPath":"$.` + strings.Repeat("a", 1<<20) + `","numberValue":1,"boolValue":true}`, "more than one value"},
		{"long_number_not_a_number", `{"jsonPath":"$.a","numberValue":"` + strings.Repeat("x", 1<<20) + `"}`, "is not a JSON number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a, err := provider.New(provider.Gemini)
			require.NoError(t, err)
			ck := newChecker()
			evs, err := a.Feed(nil, []byte(open))
			require.NoError(t, err)
			require.NoError(t, ck.add(evs))
			evs, err = a.Feed(nil, []byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[`+c.entry+`],"willContinue":true}}]}}]}`))
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, "cand0/call0", ee.Key)
			assert.Contains(t, ee.Reason, c.reason)
			assert.Less(t, len(ee.Reason), 300, "the reason quotes the entry cut short")
			require.NoError(t, ck.add(evs))
			evs, err = a.Feed(nil, []byte(`{"candidates":[{"content":{"parts":[{"functionCall":{}}]}}]}`)) // the terminator
			require.NoError(t, err)
			require.NoError(t, ck.add(evs))
			require.NoError(t, ck.add(a.Close(nil)))
			require.NoError(t, ck.allEnded())
			assert.Equal(t, "{}", ck.result()[0].Args, "the bad entry wrote nothing")
		})
	}
}

func TestUnknownProvider(t *testing.T) {
	t.Parallel()
	for _, p := range []provider.Provider{provider.Unspecified, provider.Cohere + 1, 255} {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			a, err := provider.New(p)
			assert.Nil(t, a)
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, p, ee.Provider)
			assert.True(t, errors.Is(err, provider.ErrUnknownProvider))
		})
	}
	t.Run("zero_adapter", func(t *testing.T) {
		t.Parallel()
		var a provider.Adapter
		evs, err := a.Feed(nil, []byte(`{}`))
		assert.Empty(t, evs)
		assert.True(t, errors.Is(err, provider.ErrUnknownProvider))
		assert.Empty(t, a.Close(nil))
	})
}

func TestAdapterContinuesAfterRejectedEvent(t *testing.T) {
	t.Parallel()
	a, err := provider.New(provider.Bedrock)
	require.NoError(t, err)
	ck := newChecker()
	for _, e := range []string{
		`{"contentBlockStart":{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t","name":"f"}}}}`,
		`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{\"a\":"}}}}`,
		`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"toolUse":{"input":`, // cut short
		`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"toolUse":{"input":"1}"}}}}`,
		`{"contentBlockStop":{"contentBlockIndex":0}}`,
	} {
		evs, _ := a.Feed(nil, []byte(e))
		require.NoError(t, ck.add(evs))
	}
	require.NoError(t, ck.add(a.Close(nil)))
	assert.Equal(t, []call{{Key: "block0", ID: "t", Name: "f", Args: `{"a":1}`}}, ck.result())
}

func TestStrings(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "openai-chat", provider.OpenAIChat.String())
	assert.Equal(t, "cohere", provider.Cohere.String())
	assert.Equal(t, "provider(42)", provider.Provider(42).String())
	assert.Equal(t, "start", provider.Start.String())
	assert.Equal(t, "end", provider.End.String())
	assert.Equal(t, "unreadable", provider.Unreadable.String())
	assert.Equal(t, "kind(0)", provider.Kind(0).String())
	e := &provider.EventError{Provider: provider.Gemini, Key: "cand0/call0", Reason: "bad"}
	assert.Equal(t, "gemini event: call cand0/call0: bad", e.Error())
}
