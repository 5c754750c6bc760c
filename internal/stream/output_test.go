package stream_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
)

// chatText is an OpenAI Chat chunk carrying text for choice i.
func chatText(i int, text string) []byte {
	b, _ := json.Marshal(text)
	return []byte(fmt.Sprintf(`{"choices":[{"index":%d,"delta":{"content":%s},"finish_reason":null}]}`, i, b))
}

// chatFinish ends choice i with reason.
func chatFinish(i int, reason string) []byte {
	return []byte(fmt.Sprintf(`{"choices":[{"index":%d,"delta":{},"finish_reason":%q}]}`, i, reason))
}

// outputSession is a session with its output bound to src (tool input
// profile), recording results.
func outputSession(t *testing.T, src string, strip bool) *harness {
	t.Helper()
	h := newHarness(t, stream.Limits{})
	res := schema.Compile(schema.ToolInput, []byte(src))
	require.Empty(t, res.Errors)
	h.BindOutput(stream.Binding{Handle: "h-out", Schema: res.Schema}, strip)
	return h
}

// answer streams text as choice 0's content, in the given pieces, then
// the choice's finish; it returns the one result, whether it arrived
// before the finish, and the text bytes sent when it arrived.
func answer(t *testing.T, h *harness, pieces []string, finish string) (r stream.Result, before bool, sent int64) {
	t.Helper()
	for _, p := range pieces {
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, p)))
		sent += int64(len(p))
		if len(h.results) > 0 {
			before = true
			break
		}
	}
	require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatFinish(0, finish)))
	h.Close()
	require.Len(t, h.results, 1, "one result per output")
	return h.results[0], before, sent
}

// plainAnswer sends pieces as an answer of plain deltas under id, then
// its end, and returns what answer does.
func plainAnswer(t *testing.T, h *harness, id string, pieces []string) (r stream.Result, before bool, sent int64) {
	t.Helper()
	require.NoError(t, h.StartOutput(id))
	for _, p := range pieces {
		require.NoError(t, h.Delta(id, []byte(p)))
		sent += int64(len(p))
		if len(h.results) > 0 {
			before = true
			break
		}
	}
	require.NoError(t, h.End(id))
	require.Len(t, h.results, 1, "one result per answer")
	return h.results[0], before, sent
}

// runeSplits returns every split of text into two pieces at a rune
// boundary, and text whole (a provider's text deltas are whole UTF-8).
func runeSplits(text string) [][]string {
	out := [][]string{{text}}
	for i := 1; i < len(text); i++ {
		if utf8.RuneStart(text[i]) {
			out = append(out, []string{text[:i], text[i:]})
		}
	}
	return out
}

const pointSchema = `{"type":"object","properties":{"x":{"type":"integer"},"tag":{"type":"string","enum":["a","b"]}},"required":["x"],"additionalProperties":false}`

// TestOutputEndRulesAndFences: an output is one JSON document from its
// first byte; with strip_code_fence, one surrounding ``` or ```json fence is
// skipped and offsets still count from the text's first byte. Every case
// runs at every split point and gives the same verdict.
//
// The same text sent as plain deltas (StartOutput) gets the same verdict
// at every split, under the start's call id.
func TestOutputEndRulesAndFences(t *testing.T) {
	t.Parallel()
	for _, tc := range outputCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, pieces := range runeSplits(tc.text) {
				for _, plain := range []bool{false, true} {
					h := outputSession(t, pointSchema, tc.strip)
					var r stream.Result
					var before bool
					var sent int64
					id := "output/0"
					if plain {
						id = "answer-1"
						r, before, sent = plainAnswer(t, h, id, pieces)
					} else {
						r, before, sent = answer(t, h, pieces, "stop")
					}
					require.Equal(t, tc.want, verdictOf(r), "pieces %q, plain %t: %+v", pieces, plain, r.Findings)
					require.Equal(t, tc.want.early, before, "an early verdict arrives before the finish")
					assert.Equal(t, id, r.CallID)
					assert.Empty(t, r.ToolName)
					assert.Equal(t, sent, r.Bytes, "the text bytes received when the verdict was made")
				}
			}
		})
	}
}

// answerVerdict is what the output tests compare of a result.
type answerVerdict struct {
	keyword string // "" when valid
	offset  int64
	early   bool
}

func verdictOf(r stream.Result) answerVerdict {
	got := answerVerdict{early: r.Early}
	if !r.Valid() {
		got.keyword, got.offset = r.Findings[0].Keyword, r.Findings[0].Offset
	}
	return got
}

// outputCases are answers' texts against pointSchema, with and without
// strip_code_fence, and their verdicts.
var outputCases = func() []struct {
	name  string
	strip bool
	text  string
	want  answerVerdict
} {
	type want = answerVerdict
	return []struct {
		name  string
		strip bool
		text  string
		want  answerVerdict
	}{
		{"plain document", false, `{"x":1}`, want{}},
		{"leading and trailing white space", false, " \n{\"x\":1}\r\n  ", want{}},
		{"a violation, early", false, `{"x":1,"tag":"c"}`, want{"enum", 14, true}},
		{"a preamble", false, `Here it is: {"x":1}`, want{"json", 0, true}},
		{"a fence without stripping", false, "```json\n{\"x\":1}\n```", want{"json", 0, true}},
		{"two documents", false, "{\"x\":1}\n{\"x\":1}", want{"json", 8, true}},
		{"empty text", false, " ", want{"json", 1, false}},
		{"fence stripped", true, "```json\n{\"x\":1}\n```", want{}},
		{"fence without info, white space around", true, "\n ```\n{\"x\":1}```  \n", want{}},
		{"info in capitals, CR and spaces", true, "``` JSON \r\n{\"x\":1}\n```", want{}},
		{"long white space around the info string", true, "```" + strings.Repeat(" ", 20) + "json" + strings.Repeat(" \t", 10) + "\r\n{\"x\":1}\n```", want{}},
		{"an info string too long for json", true, "```" + strings.Repeat("j", 16) + "x\n{\"x\":1}\n```", want{"json", 19, true}},
		{"no fence at all, stripping allowed", true, `{"x":1}`, want{}},
		{"a backtick inside a string", true, "```json\n{\"x\":1,\"tag\":\"```\"}\n```", want{"enum", 22, true}},
		{"a violation inside the fence is at its text offset", true, "```json\n{\"x\":\"one\"}\n```", want{"type", 13, true}},
		{"another language", true, "```python\n{\"x\":1}\n```", want{"json", 9, true}},
		{"text after the closing fence", true, "```json\n{\"x\":1}\n```\nDone.", want{"json", 20, true}},
		{"no closing fence", true, "```json\n{\"x\":1}\n", want{"json", 16, false}},
		{"closing fence cut short", true, "```json\n{\"x\":1}\n``", want{"json", 18, false}},
		{"an incomplete document before the closing fence", true, "```json\n{\"x\":1\n```", want{"json", 15, true}},
		{"only an opening fence", true, "```json", want{"json", 7, false}},
		{"a preamble before the fence", true, "Sure!\n```json\n{\"x\":1}\n```", want{"json", 0, true}},
	}
}()

// TestOutputCutByTokenLimit: a response cut off by its token limit is an
// incomplete document, reported at the output's end.
func TestOutputCutByTokenLimit(t *testing.T) {
	t.Parallel()
	h := outputSession(t, pointSchema, false)
	r, before, _ := answer(t, h, []string{`{"`}, "length")
	require.Len(t, r.Findings, 1)
	assert.Equal(t, "json", r.Findings[0].Keyword)
	assert.Equal(t, int64(2), r.Findings[0].Offset)
	assert.False(t, r.Early)
	assert.False(t, before)
}

// TestOutputStoppedEarly: an answer the provider stopped before the model
// finished it (the token limit, a content filter) is no answer even when
// its text is a valid document, as openai-python's parse refuses it (JSON
// mode's runaway white space ends so); keyword "finish_reason", at its end.
// Only the providers' normal ends keep the answer valid: a reason toolgate
// does not know (DeepSeek's insufficient_system_resource, pause_turn, none
// at all) fails closed. (An OpenAI Chat answer ends with the stream, at
// [DONE]: see TestOutputChatTextAfterFinish.)
func TestOutputStoppedEarly(t *testing.T) {
	t.Parallel()
	const doc = `{"x":1,"tag":"a"}`
	quoted, _ := json.Marshal(doc + "   ")
	q := string(quoted)
	for _, c := range []struct {
		name   string
		p      provider.Provider
		events []string
		cut    string // the reason in the message, or "" for a valid answer
	}{
		{"chat length", provider.OpenAIChat, []string{string(chatText(0, doc+"   ")), string(chatFinish(0, "length")), "[DONE]"}, "length"},
		{"chat content_filter", provider.OpenAIChat, []string{string(chatText(0, doc)), string(chatFinish(0, "content_filter")), "[DONE]"}, "content_filter"},
		{"chat stop", provider.OpenAIChat, []string{string(chatText(0, doc)), string(chatFinish(0, "stop")), "[DONE]"}, ""},
		{"chat tool_calls", provider.OpenAIChat, []string{string(chatText(0, doc)), string(chatFinish(0, "tool_calls")), "[DONE]"}, ""},
		{"chat insufficient_system_resource", provider.OpenAIChat, []string{string(chatText(0, doc)), string(chatFinish(0, "insufficient_system_resource")), "[DONE]"}, "insufficient_system_resource"},
		{"chat abort", provider.OpenAIChat, []string{string(chatText(0, doc)), string(chatFinish(0, "abort")), "[DONE]"}, "abort"},
		{"responses incomplete", provider.OpenAIResponses, []string{
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","content":[]}}`,
			`{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":` + q + `}`,
			`{"type":"response.incomplete","response":{"incomplete_details":{"reason":"max_output_tokens"}}}`}, "incomplete"},
		// The API's own order: the item is finished, as incomplete, before
		// the response is.
		{"responses item incomplete", provider.OpenAIResponses, []string{
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","status":"in_progress","content":[]}}`,
			`{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":` + q + `}`,
			`{"type":"response.output_text.done","item_id":"m","output_index":0,"content_index":0,"text":` + q + `}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m","status":"incomplete","content":[{"type":"output_text","text":` + q + `}]}}`,
			`{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`}, "incomplete"},
		{"responses item completed", provider.OpenAIResponses, []string{
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","status":"in_progress","content":[]}}`,
			`{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":` + q + `}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m","status":"completed","content":[{"type":"output_text","text":` + q + `}]}}`,
			`{"type":"response.completed","response":{"status":"completed"}}`}, ""},
		{"anthropic max_tokens", provider.Anthropic, []string{
			`{"type":"message_start","message":{"content":[]}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + q + `}}`,
			`{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`}, "max_tokens"},
		{"anthropic end_turn", provider.Anthropic, []string{
			`{"type":"message_start","message":{"content":[]}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + q + `}}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`}, ""},
		{"anthropic stop_sequence", provider.Anthropic, []string{
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + q + `}}`,
			`{"type":"message_delta","delta":{"stop_reason":"stop_sequence"}}`}, ""},
		{"anthropic pause_turn", provider.Anthropic, []string{
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + q + `}}`,
			`{"type":"message_delta","delta":{"stop_reason":"pause_turn"}}`}, "pause_turn"},
		{"gemini MAX_TOKENS", provider.Gemini, []string{
			`{"candidates":[{"index":0,"content":{"role":"model","parts":[{"text":` + q + `}]},"finishReason":"MAX_TOKENS"}]}`}, "MAX_TOKENS"},
		{"bedrock max_tokens", provider.Bedrock, []string{
			`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":` + q + `}}}`,
			`{"messageStop":{"stopReason":"max_tokens"}}`}, "max_tokens"},
		{"bedrock end_turn", provider.Bedrock, []string{
			`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":` + q + `}}}`,
			`{"messageStop":{"stopReason":"end_turn"}}`}, ""},
		{"bedrock malformed_model_output", provider.Bedrock, []string{
			`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":` + q + `}}}`,
			`{"messageStop":{"stopReason":"malformed_model_output"}}`}, "malformed_model_output"},
		{"cohere MAX_TOKENS", provider.Cohere, []string{
			`{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":` + q + `}}}}`,
			`{"type":"message-end","delta":{"finish_reason":"MAX_TOKENS"}}`}, "MAX_TOKENS"},
		{"cohere COMPLETE", provider.Cohere, []string{
			`{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":` + q + `}}}}`,
			`{"type":"message-end","delta":{"finish_reason":"COMPLETE"}}`}, ""},
		{"cohere without a reason", provider.Cohere, []string{
			`{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":` + q + `}}}}`,
			`{"type":"message-end","delta":{}}`}, "no finish reason given"},
	} {
		h := outputSession(t, pointSchema, false)
		for _, ev := range c.events {
			require.NoError(t, h.ProviderEvent(c.p, []byte(ev)), c.name)
		}
		require.Len(t, h.results, 1, c.name)
		r := h.results[0]
		if c.cut == "" {
			assert.True(t, r.Valid(), "%s: %+v", c.name, r.Findings)
			continue
		}
		require.Len(t, r.Findings, 1, c.name)
		assert.Equal(t, "finish_reason", r.Findings[0].Keyword, c.name)
		assert.Contains(t, r.Findings[0].Message, "("+c.cut+")", c.name)
		assert.False(t, r.Early, c.name)
	}
}

// TestOutputErrorEventWithoutPayload: an event named "error" cuts every
// open answer at once whatever its payload, an empty one included, as the
// SDKs raise on it (anthropic-sdk-python on the name alone, openai-python
// on data that is not JSON); another event without payload changes
// nothing, named or not.
func TestOutputErrorEventWithoutPayload(t *testing.T) {
	t.Parallel()
	const (
		anthropicText = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"{\"x\":1}"}}`
		responsesItem = `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","content":[]}}`
		responsesText = `{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"{\"x\":1}"}`
	)
	for _, c := range []struct {
		name        string
		p           provider.Provider
		events      []string
		event, data string
		cut         bool
	}{
		{"chat, no data", provider.OpenAIChat, []string{string(chatText(0, `{"x":1}`))}, "error", "", true},
		{"chat, white space", provider.OpenAIChat, []string{string(chatText(0, `{"x":1}`))}, "error", "\n", true},
		{"anthropic, no data", provider.Anthropic, []string{anthropicText}, "error", "", true},
		{"responses, no data", provider.OpenAIResponses, []string{responsesItem, responsesText}, "error", "", true},
		{"chat, unnamed", provider.OpenAIChat, []string{string(chatText(0, `{"x":1}`))}, "", "", false},
		{"chat, the default name", provider.OpenAIChat, []string{string(chatText(0, `{"x":1}`))}, "message", "", false},
		{"anthropic ping", provider.Anthropic, []string{anthropicText}, "ping", "", false},
	} {
		h := outputSession(t, pointSchema, false)
		for _, ev := range c.events {
			require.NoError(t, h.ProviderEvent(c.p, []byte(ev)), c.name)
		}
		require.NoError(t, h.NamedProviderEvent(c.p, c.event, []byte(c.data)), c.name)
		if !c.cut {
			h.Close()
			require.Len(t, h.results, 1, c.name)
			assert.True(t, h.results[0].Valid(), "%s: %+v", c.name, h.results[0].Findings)
			continue
		}
		require.Len(t, h.results, 1, "%s: the answer ends at the error event", c.name)
		require.Len(t, h.results[0].Findings, 1, c.name)
		assert.Equal(t, "finish_reason", h.results[0].Findings[0].Keyword, c.name)
		assert.Contains(t, h.results[0].Findings[0].Message, "(error)", c.name)
	}
}

// TestOutputEndsAtDone: an OpenAI Chat answer ends at [DONE], where
// openai-python and openai-node stop reading: the application's answer is
// the text before it, here an incomplete document, and text after it
// ends the stream (InvalidArgument) rather than pass for that answer's.
func TestOutputEndsAtDone(t *testing.T) {
	t.Parallel()
	h := outputSession(t, pointSchema, false)
	require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, `{"x":`)))
	require.NoError(t, h.ProviderEvent(provider.OpenAIChat, []byte("[DONE]")))
	require.Len(t, h.results, 1, "[DONE] ends the answer")
	r := h.results[0]
	require.Len(t, r.Findings, 1)
	assert.Equal(t, "json", r.Findings[0].Keyword)
	assert.Equal(t, int64(5), r.Findings[0].Offset)
	assert.False(t, r.Early)
	assert.Equal(t, stream.InvalidArgument, kinds(h.ProviderEvent(provider.OpenAIChat, chatText(0, `1}`))))
	h.Close()
	assert.Len(t, h.results, 1)
}

// TestOutputAgentLoopAfterDone: an agent loop that sends two steps'
// streams, each ending with its [DONE], to one stream gets a result for
// each step's answer, on that step's text alone (the second completion's
// chunks carry another id).
func TestOutputAgentLoopAfterDone(t *testing.T) {
	t.Parallel()
	h := outputSession(t, pointSchema, false)
	step := func(id, text string) {
		b, _ := json.Marshal(text)
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, []byte(`{"id":"`+id+`","choices":[{"index":0,"delta":{"content":`+string(b)+`},"finish_reason":"stop"}]}`)))
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, []byte("[DONE]")))
	}
	step("cmpl-1", `{"x":"one"}`)
	step("cmpl-2", `{"x":2}`)
	h.Close()
	require.Len(t, h.results, 2, "one result per step's answer")
	assert.False(t, h.results[0].Valid(), "the first step's answer")
	assert.True(t, h.results[1].Valid(), "the second step's answer, not joined to the first's")
	assert.NotEqual(t, h.results[0].CallID, h.results[1].CallID)
}

// TestOutputChatTextAfterFinish: an OpenAI Chat choice has one answer,
// its text up to the stream's end ([DONE], or the half-close), whatever
// finish_reasons come between: openai-python's stream state appends every
// delta.content of a choice to its one message, and some gateways put
// "stop" on every chunk. So one result per choice, on the text the
// application joins; an early rejection still comes at its byte, and the
// first reason that cut the choice stays.
func TestOutputChatTextAfterFinish(t *testing.T) {
	t.Parallel()
	type want struct {
		keyword string // "" when valid
		offset  int64
		early   bool
	}
	chunk := func(text, finish string) []byte {
		b, _ := json.Marshal(text)
		return []byte(fmt.Sprintf(`{"choices":[{"index":0,"delta":{"content":%s},"finish_reason":%q}]}`, b, finish))
	}
	for _, c := range []struct {
		name   string
		events [][]byte
		done   bool // [DONE] ends the stream, else the half-close
		want   want
	}{
		{"a newline after the finish", [][]byte{chunk(`{"x":1}`, "stop"), chunk("\n", "stop")}, true, want{}},
		{"stop on every chunk", [][]byte{chunk(`{"x":`, "stop"), chunk(`1}`, "stop")}, true, want{}},
		{"text that breaks the document after the finish", [][]byte{chunk(`{"x":1}`, "stop"), chunk(`x`, "stop")}, true, want{"json", 7, true}},
		{"a cut, then a normal end", [][]byte{chunk(`{"x":1}`, "length"), chunk(` `, "stop")}, true, want{"finish_reason", 8, false}},
		{"the half-close ends it", [][]byte{chunk(`{"x":1}`, "stop")}, false, want{}},
	} {
		h := outputSession(t, pointSchema, false)
		for _, ev := range c.events {
			require.NoError(t, h.ProviderEvent(provider.OpenAIChat, ev), c.name)
		}
		if !c.want.early {
			assert.Empty(t, h.results, "%s: no verdict before the stream's end", c.name)
		}
		if c.done {
			require.NoError(t, h.ProviderEvent(provider.OpenAIChat, []byte("[DONE]")), c.name)
		}
		h.Close()
		require.Len(t, h.results, 1, "%s: one choice, one result: %+v", c.name, h.results)
		r := h.results[0]
		assert.Equal(t, "output/0", r.CallID, c.name)
		got := want{early: r.Early}
		if !r.Valid() {
			got.keyword, got.offset = r.Findings[0].Keyword, r.Findings[0].Offset
		}
		assert.Equal(t, c.want, got, "%s: %+v", c.name, r.Findings)
	}
}

// TestOutputRefusal: a refusal is its own finding, at once.
func TestOutputRefusal(t *testing.T) {
	t.Parallel()
	h := outputSession(t, pointSchema, false)
	require.NoError(t, h.ProviderEvent(provider.OpenAIChat, []byte(`{"choices":[{"index":0,"delta":{"content":"","refusal":"I'm sorry"}}]}`)))
	require.Len(t, h.results, 1)
	r := h.results[0]
	assert.Equal(t, "refusal", r.Findings[0].Keyword)
	assert.Contains(t, r.Findings[0].Message, `"I'm sorry"`)
	assert.True(t, r.Early)
	require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, `{"x":1}`)))
	require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatFinish(0, "stop")))
	assert.Len(t, h.results, 1, "nothing after the refusal's verdict")
}

// TestOutputBinding: outputs are validated only while an output is bound
// (a tool-call stream keeps its text to itself); one bound to a handle this
// server does not hold gets an in-band NOT_FOUND; outputs count as calls.
func TestOutputBinding(t *testing.T) {
	t.Parallel()
	t.Run("unbound text is not validated", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, "Let me check.")))
		h.BindOutput(stream.Binding{Handle: "h-todo", Schema: h.bound["todo"].Schema}, false)
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, `{"action":"list"}`)))
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(1, `{"action":"list"}`)))
		h.Close()
		require.Len(t, h.results, 1, "choice 0 began before the bind")
		assert.Equal(t, "output/1", h.results[0].CallID)
		assert.True(t, h.results[0].Valid())
	})
	t.Run("a handle not held", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		h.BindOutput(stream.Binding{Handle: "h-gone"}, false)
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, `{}`)))
		require.Len(t, h.results, 1)
		assert.Equal(t, schema.CodeNotFound, h.results[0].Findings[0].Code)
		assert.Equal(t, "handle", h.results[0].Findings[0].Keyword)
		assert.Contains(t, h.results[0].Findings[0].Message, "h-gone")
	})
	t.Run("outputs count toward MaxCalls, bound or not", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{MaxCalls: 3})
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, `Let me see.`)))
		h.BindOutput(h.bound["todo"], false)
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(1, `{`)))
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(2, `{`)))
		assert.Equal(t, stream.ResourceExhausted, kinds(h.ProviderEvent(provider.OpenAIChat, chatText(3, `{`))))
	})
	t.Run("and MaxCallBytes", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{MaxCallBytes: 8})
		h.BindOutput(h.bound["todo"], false)
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, `{"action":"list"}`)))
		require.Len(t, h.results, 1)
		assert.Equal(t, "maxBytes", h.results[0].Findings[0].Keyword)
	})
}

// TestOutputFindingsSpeakOfTheOutput: an answer's findings are handed back
// to the model that wrote it, so they call it the output, whatever the
// profile of its schema, never arguments.
func TestOutputFindingsSpeakOfTheOutput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, want string }{
		{`{"x":1,,`, "The output is not valid JSON: "},
		{`[1]`, "The output must be an object; got an array."},
		{`{"x":1,"tag":"c"}`, ""},
	} {
		h := outputSession(t, pointSchema, false)
		r, _, _ := answer(t, h, []string{c.text}, "stop")
		require.NotEmpty(t, r.Findings, c.text)
		msg := r.Findings[0].Message
		assert.NotContains(t, msg, "argument", "%s: %s", c.text, msg)
		assert.Contains(t, msg, c.want, c.text)
	}
	h := newHarness(t, stream.Limits{MaxCallBytes: 4})
	h.BindOutput(h.bound["todo"], false)
	require.NoError(t, h.ProviderEvent(provider.OpenAIChat, chatText(0, `{"action":"list"}`)))
	require.Len(t, h.results, 1)
	assert.Equal(t, "The output is longer than the limit of 4 bytes.", h.results[0].Findings[0].Message)
}
