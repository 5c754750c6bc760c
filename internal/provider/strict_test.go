package provider_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

// TestEventsClientsReadDifferentlyAreRefused: an event that encoding/json
// reads unlike the provider SDKs is refused whole, in every adapter: a
// member that spells a field in another case (Go would fill the field,
// the SDKs read only the exact name), one member twice (Go merges the
// copies, the SDKs keep the last), a lone surrogate escape or invalid
// UTF-8 (Go reads U+FFFD). Each event here was accepted before and made
// toolgate check other arguments, or another tool, than a client runs.
func TestEventsClientsReadDifferentlyAreRefused(t *testing.T) {
	t.Parallel()
	const (
		spelled = "is spelled like the field"
		twice   = "appears twice"
	)
	long := strings.Repeat("k", 1<<20)
	for _, c := range []struct {
		name   string
		p      provider.Provider
		event  string
		reason string
	}{
		{"arguments in capitals", provider.OpenAIChat,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"todo","arguments":"{\"action\":\"rm\"}","Arguments":"{\"action\":\"add\"}"}}]}}]}`,
			`the member "Arguments" at "/choices/0/delta/tool_calls/0/function" ` + spelled + ` "arguments"`},
		{"a second name in capitals", provider.OpenAIChat,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"noargs","NAME":"todo","arguments":"{}"}}]}}]}`, spelled},
		{"function twice", provider.OpenAIChat,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\"},"function":{}}]}}]}`,
			`the member "function" ` + twice + ` in the object at "/choices/0/delta/tool_calls/0"`},
		{"arguments twice", provider.OpenAIChat,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}","arguments":"[]"}}]}}]}`, twice},
		{"a lone surrogate in an id", provider.OpenAIChat,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"\ud800","function":{"name":"todo"}}]}}]}`, "lone surrogate"},
		{"invalid UTF-8 in an id", provider.OpenAIChat,
			"{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"\xff\",\"function\":{\"name\":\"todo\"}}]}}]}", "invalid UTF-8"},
		{"a content part's type in capitals", provider.OpenAIChat,
			`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","TYPE":"text","text":"{}"}]}}]}`, spelled},
		{"delta in capitals", provider.OpenAIResponses,
			`{"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"{}","Delta":"[]"}`, spelled},
		// A message's content parts are a raw member of its item, read
		// apart: strictly too, in output_item.done and response.completed.
		{"a content part's text in capitals", provider.OpenAIResponses,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","status":"completed","content":[{"type":"output_text","text":"{\"a\":1}","Text":"{\"a\":2}"}]}}`,
			`message item "msg_1" content: the member "Text" at "/0" ` + spelled + ` "text"`},
		{"a content part's type in capitals", provider.OpenAIResponses,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","status":"completed","content":[{"type":"refusal","Type":"output_text","text":"{}","refusal":"no"}]}}`, spelled},
		{"a completed copy's content part in capitals", provider.OpenAIResponses,
			`{"type":"response.completed","response":{"output":[{"type":"message","id":"msg_1","status":"completed","content":[{"type":"output_text","TEXT":"{}","text":"[]"}]}]}}`, spelled},
		{"type in capitals", provider.Anthropic,
			`{"type":"content_block_delta","TYPE":"ping","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`, spelled},
		{"partial_json with a long s", provider.Anthropic,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_jſon":"{}"}}`, spelled},
		{"input twice", provider.Anthropic,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"todo","input":{},"input":{"a":1}}}`, twice},
		{"args in capitals", provider.Gemini,
			`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"todo","Args":{"action":"add"}}}]}}]}`, spelled},
		{"input in capitals", provider.Bedrock,
			`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"toolUse":{"Input":"{}"}}}}`, spelled},
		{"arguments in capitals", provider.Cohere,
			`{"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":{"function":{"ARGUMENTS":"{}"}}}}}`, spelled},
		// The reason quotes a name or a pointer cut short.
		{"a long member twice", provider.Cohere,
			`{"type":"tool-call-delta","index":0,"` + long + `":1,"` + long + `":2}`, twice},
		{"a member twice under a long one", provider.Cohere,
			`{"type":"tool-call-delta","index":0,"` + long + `":{"a":1,"a":2}}`, twice},
	} {
		t.Run(c.p.String()+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			a, err := provider.New(c.p)
			require.NoError(t, err)
			evs, err := a.Feed(nil, []byte(c.event))
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee)
			assert.Contains(t, ee.Reason, c.reason)
			assert.Less(t, len(ee.Reason), 300, "a megabyte name is not quoted whole")
			assert.Empty(t, evs, "a refused event produces nothing")
		})
	}
}

// TestEventsSpelledAsSentAreRead: what the strict reading leaves alone
// decodes as before: members no field is named like (in any case), and
// the names inside a call's arguments object (Gemini's args, Anthropic's
// input), which are the tool's, not the event's, in whatever case.
func TestEventsSpelledAsSentAreRead(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		p     provider.Provider
		event string
		args  string
	}{
		{"an unknown member", provider.OpenAIChat,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","x_extra":1,"function":{"name":"todo","arguments":"{}"}}]}}]}`, `{}`},
		{"argument names like event fields", provider.Gemini,
			`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"todo","args":{"Name":"a","ARGS":1,"name":"b"}}}]}}]}`, `{"Name":"a","ARGS":1,"name":"b"}`},
		{"input names like event fields", provider.Anthropic,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"todo","input":{"Type":"x","type":"y"}}}`, `{"Type":"x","type":"y"}`},
	} {
		t.Run(c.p.String()+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			a, err := provider.New(c.p)
			require.NoError(t, err)
			evs, err := a.Feed(nil, []byte(c.event))
			require.NoError(t, err)
			ch := newChecker()
			require.NoError(t, ch.add(a.Close(evs)))
			require.Len(t, ch.calls, 1)
			assert.Equal(t, c.args, ch.calls[0].Args)
		})
	}
}
