package stream_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/stream"
)

// TestUnreadableProviderCallsAreRefusedOnce: a call a client runs whose
// input is not JSON arguments (an OpenAI custom tool's free text, a
// Responses computer action) gets exactly one result, under the
// provider's call id: refused, keyword "provider_event", with the
// adapter's reason, also when its tool's name is bound to a schema, and
// however often the stream repeats the item. Before, the Responses items
// got no result at all, and a Chat custom call a "tool_name" one.
func TestUnreadableProviderCallsAreRefusedOnce(t *testing.T) {
	t.Parallel()
	const customReason = "The call is to a custom tool, whose input is free text, not JSON arguments: toolgate cannot validate it."
	custom := func(name, input string) string {
		return `{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"` + name + `","input":"` + input + `"}`
	}
	responses := func(name string) []string {
		return []string{
			`{"type":"response.created","response":{"output":[]}}`,
			`{"type":"response.output_item.added","output_index":0,"item":` + custom(name, "") + `}`,
			`{"type":"response.custom_tool_call_input.delta","output_index":0,"item_id":"ctc_1","delta":"rm -rf /"}`,
			`{"type":"response.output_item.done","output_index":0,"item":` + custom(name, "rm -rf /") + `}`,
			`{"type":"response.completed","response":{"output":[` + custom(name, "rm -rf /") + `]}}`,
		}
	}
	chat := func(name string) []string {
		return []string{
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"custom","custom":{"name":"` + name + `","input":"rm "}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"custom":{"input":"-rf /"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
		}
	}
	type want struct{ callID, tool, reason string }
	for _, c := range []struct {
		name   string
		p      provider.Provider
		events []string
		want   []want
	}{
		{"a Responses custom tool call", provider.OpenAIResponses, responses("exec"), []want{{"call_1", "exec", customReason}}},
		{"a Responses custom tool call named like a bound tool", provider.OpenAIResponses, responses("todo"), []want{{"call_1", "todo", customReason}}},
		{"a Responses computer call", provider.OpenAIResponses, []string{
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"computer_call","id":"cu_1","call_id":"call_cu","action":{"type":"click","x":1,"y":2}}}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"computer_call","id":"cu_1","call_id":"call_cu","action":{"type":"click","x":1,"y":2}}}`,
		}, []want{{"call_cu", "", "The call is a computer-use action, not a function call with JSON arguments: toolgate cannot validate it."}}},
		{"a Chat custom call", provider.OpenAIChat, chat("exec"), []want{{"call_1", "exec", customReason}}},
		{"a Chat custom call named like a bound tool", provider.OpenAIChat, chat("todo"), []want{{"call_1", "todo", customReason}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, stream.Limits{})
			feedAll(t, h, c.p, c.events...)
			var got []want
			for _, r := range h.results {
				if assert.Len(t, r.Findings, 1, "%+v", r) {
					assert.Equal(t, "provider_event", r.Findings[0].Keyword)
					assert.True(t, r.Early)
					got = append(got, want{r.CallID, r.ToolName, r.Findings[0].Message})
				}
			}
			assert.Equal(t, c.want, got)
		})
	}
}
