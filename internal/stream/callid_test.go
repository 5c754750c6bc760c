package stream_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/stream"
)

// verdict is what a runtime keeps of a result: whether the call may run,
// and why not.
type verdict struct {
	callID, keyword string
	valid           bool
}

func verdicts(h *harness) []verdict {
	var out []verdict
	for _, r := range h.results {
		v := verdict{callID: r.CallID, valid: r.Valid()}
		if !v.valid {
			v.keyword = r.Findings[0].Keyword
		}
		out = append(out, v)
	}
	return out
}

func feedAll(t *testing.T, h *harness, p provider.Provider, events ...string) {
	t.Helper()
	for i, ev := range events {
		require.NoError(t, h.ProviderEvent(p, []byte(ev)), "event %d", i)
	}
	h.Close()
}

// chatCall is an OpenAI Chat chunk with one whole call at index i.
func chatCall(i int, id, name, args string) string {
	return fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":%q,"function":{"name":%q,"arguments":%q}}]}}]}`, i, id, name, args)
}

// TestReusedProviderCallIDIsRefused: DeepSeek and GLM have given parallel
// calls one id, and Kimi's Anthropic-compatible endpoint two tool_use
// blocks; a verdict for such an id could not say which call it is about.
// Every call given an id that an earlier call of the stream has is refused
// (keyword "call_id"), and so is that earlier call while it has no verdict;
// a verdict already sent stands, and the later one for the same id is a
// refusal.
func TestReusedProviderCallIDIsRefused(t *testing.T) {
	t.Parallel()
	t.Run("parallel chat calls", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		feedAll(t, h, provider.OpenAIChat,
			chatCall(0, "call_00_x", "todo", `{"action":"list"}`),
			chatCall(1, "call_00_x", "todo", `{"action":"rm -rf"}`),
			chatCall(2, "call_01_y", "todo", `{"action":"list"}`),
			`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
		assert.Equal(t, []verdict{{"call_00_x", "call_id", false}, {"call_00_x", "call_id", false}, {"call_01_y", "", true}}, verdicts(h))
		assert.Contains(t, h.results[0].Findings[0].Message, `call id "call_00_x" to another call`)
		assert.True(t, h.results[0].Early)
	})
	t.Run("sequential anthropic blocks", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		block := func(i int, input string) []string {
			return []string{
				fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"grep:3","name":"todo","input":{}}}`, i),
				fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%q}}`, i, input),
				fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i),
			}
		}
		events := []string{`{"type":"message_start","message":{"id":"m","content":[]}}`}
		events = append(append(append(events, block(0, `{"action":"list"}`)...), block(1, `{"action":"list"}`)...), block(2, `{"action":"list"}`)...)
		feedAll(t, h, provider.Anthropic, events...)
		assert.Equal(t, []verdict{{"grep:3", "", true}, {"grep:3", "call_id", false}, {"grep:3", "call_id", false}}, verdicts(h))
	})
	t.Run("an id that arrives with a late name", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		feedAll(t, h, provider.OpenAIChat,
			chatCall(0, "a", "todo", `{"action":"list"}`),
			string(unnamedChat(1, `{"action":`)),
			chatCall(1, "a", "todo", `"list"}`),
			`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
		assert.Equal(t, []verdict{{"a", "call_id", false}, {"a", "call_id", false}}, verdicts(h))
	})
	t.Run("distinct ids and keyed calls", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		feedAll(t, h, provider.OpenAIChat,
			chatCall(0, "a", "todo", `{"action":"list"}`), chatCall(1, "b", "todo", `{"action":"list"}`),
			`{"choices":[{"index":0,"delta":{"function_call":{"name":"todo","arguments":"{\"action\":\"list\"}"}}}]}`,
			`{"choices":[{"index":1,"delta":{"function_call":{"name":"todo","arguments":"{\"action\":\"list\"}"}}}]}`)
		assert.Equal(t, []verdict{{"a", "", true}, {"b", "", true}, {"choice0/function", "", true}, {"choice1/function", "", true}}, verdicts(h))
	})
}

// TestCallIDsNeverSpellAnotherResult: a result's id says which call or
// answer it is about, so no two results of a stream share one. An answer
// whose id another provider's answer has is numbered on ("output/0#2"),
// as a provider's second answer at one index is. A provider
// call whose id is an answer's ("output/0") or a CallStart's is refused
// (keyword "call_id"), the answer's verdict and the started call's
// standing; a CallStart with an answer's id, or a provider call's, is a
// stream error.
func TestCallIDsNeverSpellAnotherResult(t *testing.T) {
	t.Parallel()
	t.Run("a provider call named as the answer", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		h.BindOutput(h.bound["todo"], false)
		feedAll(t, h, provider.OpenAIChat,
			`{"choices":[{"index":0,"delta":{"content":"{\"action\":7}"}}]}`,
			chatCall(0, "output/0", "todo", `{"action":"list"}`),
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		assert.Equal(t, []verdict{{"output/0", "type", false}, {"output/0", "call_id", false}}, verdicts(h))
		assert.Contains(t, h.results[1].Findings[0].Message, `"output/0"`)
	})
	t.Run("a provider call named as a started call", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		require.NoError(t, h.Start("call_1", "todo", nil))
		require.NoError(t, h.Delta("call_1", []byte(`{"action":7}`)))
		require.NoError(t, h.End("call_1"))
		feedAll(t, h, provider.OpenAIChat, chatCall(0, "call_1", "todo", `{"action":"list"}`))
		assert.Equal(t, []verdict{{"call_1", "type", false}, {"call_1", "call_id", false}}, verdicts(h))
	})
	t.Run("answers of two providers", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		h.BindOutput(h.bound["todo"], false)
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, `{"action":7}`)))
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatFinish(0, "stop")))
		anthropic := func(text string) []string {
			return []string{
				`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + strconv.Quote(text) + `}}`,
				`{"type":"content_block_stop","index":0}`,
				`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`,
				`{"type":"message_stop"}`,
			}
		}
		feedAll(t, h, provider.Anthropic, append(anthropic(`{"action":"list"}`), anthropic(`{"action":"list"}`)...)...)
		assert.Equal(t, []verdict{{"output/0", "type", false}, {"output/0#2", "", true}, {"output/1", "", true}}, verdicts(h))
	})
	t.Run("a started call named as the answer or a provider call", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		assert.Equal(t, stream.InvalidArgument, kinds(h.Start("output/0", "todo", nil)))
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, []byte(chatCall(0, "call_9", "todo", `{"action":"list"}`))))
		assert.Equal(t, stream.InvalidArgument, kinds(h.Start("call_9", "todo", nil)))
		require.NoError(t, h.Start("call_10", "todo", nil))
	})
}

// TestChatIDChangeContinuesTheCall: servers that give a call's later
// entries another id (Poolside, mlx-openai-server) get one verdict, on the
// whole of the arguments a client that groups entries by index runs.
func TestChatIDChangeContinuesTheCall(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	feedAll(t, h, provider.OpenAIChat,
		chatCall(0, "call_A", "todo", ""),
		chatCall(0, "call_B", "", `{"action":`),
		chatCall(0, "call_B", "", `"rm -rf"}`),
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
	assert.Equal(t, []verdict{{"call_A", "enum", false}}, verdicts(h))
}

// TestContradictingFinalCopyRefusesOnlyItsCall: a Responses final copy
// that contradicts the deltas (a proxy sent output_text.done with "")
// refuses that call or answer (keyword "provider_event"), before its end
// could pass it, and the stream's other calls go on.
func TestContradictingFinalCopyRefusesOnlyItsCall(t *testing.T) {
	t.Parallel()
	added := func(item, callID string) string {
		return `{"type":"response.output_item.added","item":{"type":"function_call","id":"` + item + `","call_id":"` + callID + `","name":"todo","arguments":""}}`
	}
	delta := func(item, d string) string {
		return `{"type":"response.function_call_arguments.delta","item_id":"` + item + `","delta":` + strconv.Quote(d) + `}`
	}
	done := func(item, args string) string {
		return `{"type":"response.function_call_arguments.done","item_id":"` + item + `","arguments":` + strconv.Quote(args) + `}`
	}
	h := newHarness(t, stream.Limits{})
	feedAll(t, h, provider.OpenAIResponses,
		added("fc_1", "c1"), added("fc_2", "c2"),
		delta("fc_1", `{"action":"list"}`), delta("fc_2", `{"action":"list"}`),
		done("fc_1", `{"action":"clear"}`), done("fc_2", `{"action":"list"}`),
		`{"type":"response.completed"}`)
	assert.Equal(t, []verdict{{"c1", "provider_event", false}, {"c2", "", true}}, verdicts(h))
	assert.Contains(t, h.results[0].Findings[0].Message, "contradict each other")
}
