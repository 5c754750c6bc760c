package provider_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/provider/recording"
)

// TestOutputRecordings: every structured-output recording yields exactly
// the expected answer texts, byte for byte — never reasoning (thinking
// blocks, thought parts, reasoning items, hidden-reasoning chunks), with
// the refusal as a Refusal and not as text — and every output ends.
func TestOutputRecordings(t *testing.T) {
	t.Parallel()
	recs := recording.All(t)
	require.Len(t, recs, 21, "20 recordings and the synthetic Cohere stream")
	for _, rec := range recs {
		t.Run(rec.Name, func(t *testing.T) {
			t.Parallel()
			_, ck := streamChecked(t, rec.Provider, rec.Events...)
			assert.Empty(t, ck.result(), "no tool calls")
			got := ck.texts()
			want := rec.Outputs()
			require.Len(t, got, len(want), "outputs: %+v", got)
			for i, w := range want {
				assert.Equal(t, w.Key, got[i].Key)
				assert.Equal(t, w.Text, got[i].Text, "%s text", w.Key)
				assert.Equal(t, w.Refusal != nil, got[i].Refused, "%s refused", w.Key)
				if w.Refusal != nil {
					assert.True(t, strings.HasPrefix(*w.Refusal, got[i].Refusal) && got[i].Refusal != "",
						"the Refusal carries the refusal's first piece: %q of %q", got[i].Refusal, *w.Refusal)
				}
			}
		})
	}
}

// TestOutputQuirks: how each adapter assembles message text, in small
// synthetic streams: what is text and what never is, what begins and what
// ends an output, refusals.
func TestOutputQuirks(t *testing.T) {
	t.Parallel()
	chat := func(i int, delta, finish string) string {
		return `{"choices":[{"index":` + strconv.Itoa(i) + `,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	responses := func(typ, item string, output, content int, field, value string) string {
		return `{"type":"` + typ + `","item_id":"` + item + `","output_index":` + strconv.Itoa(output) + `,"content_index":` + strconv.Itoa(content) + `,"` + field + `":` + quoteJSON(value) + `}`
	}
	anthropicText := func(i int, text string) string {
		return `{"type":"content_block_delta","index":` + strconv.Itoa(i) + `,"delta":{"type":"text_delta","text":` + quoteJSON(text) + `}}`
	}
	gemini := func(parts string, finish string) string {
		return `{"candidates":[{"index":0,"content":{"role":"model","parts":[` + parts + `]}` + finish + `}]}`
	}
	cases := []struct {
		name   string
		p      provider.Provider
		events []string
		want   []output
		check  func(t *testing.T, per [][]provider.Event)
	}{
		{name: "openai chat: null and empty content are no output", p: provider.OpenAIChat,
			events: []string{chat(0, `{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}`, "null"),
				chat(0, `{"content":""}`, "null"), chat(0, `{}`, `"tool_calls"`)}},
		{name: "openai chat: reasoning is never text; the choice's output ends with the stream", p: provider.OpenAIChat,
			events: []string{chat(0, `{"role":"assistant","content":"","reasoning_content":"let me think"}`, "null"),
				chat(0, `{"reasoning":"more","content":"{\"a\""}`, "null"), chat(1, `{"content":"[1"}`, "null"),
				chat(0, `{"content":":1}"}`, "null"), chat(0, `{}`, `"stop"`), chat(1, `{"content":"]"}`, `"length"`)},
			want: []output{{Key: "output/0", Text: `{"a":1}`}, {Key: "output/1", Text: `[1]`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Empty(t, per[4], "a finish_reason does not end the output")
				assert.Equal(t, []string{"text output/1"}, kinds(per[5]))
				require.Equal(t, []string{"textend output/0", "textend output/1"}, kinds(per[6]))
				assert.Equal(t, []string{"", "length"}, []string{per[6][0].Cut, per[6][1].Cut})
			}},
		// openai-python's stream state appends the delta.content of a
		// choice to its one message, finish_reason or not; some gateways
		// (QuantumNous/new-api#378, su-kaka/gcli2api#403) put "stop" on
		// every chunk.
		{name: "openai chat: text after a finish_reason is the same answer", p: provider.OpenAIChat,
			events: []string{chat(0, `{"content":"{\"a\":"}`, `"stop"`), chat(0, `{"content":"1}"}`, `"stop"`),
				chat(0, `{"content":"\n"}`, `"stop"`)},
			want: []output{{Key: "output/0", Text: "{\"a\":1}\n"}},
			check: func(t *testing.T, per [][]provider.Event) {
				require.Equal(t, []string{"textend output/0"}, kinds(per[3]), "it ends with the stream")
				assert.Empty(t, per[3][0].Cut)
			}},
		{name: "openai chat: the first reason that cuts a choice stays", p: provider.OpenAIChat,
			events: []string{chat(0, `{"content":"{}"}`, `"length"`), chat(0, `{"content":" "}`, `"stop"`),
				chat(1, `{}`, `"content_filter"`), chat(1, `{"content":"[]"}`, `"stop"`)},
			want: []output{{Key: "output/0", Text: "{} "}, {Key: "output/1", Text: "[]"}},
			check: func(t *testing.T, per [][]provider.Event) {
				require.Equal(t, []string{"textend output/0", "textend output/1"}, kinds(per[4]))
				assert.Equal(t, []string{"length", "content_filter"}, []string{per[4][0].Cut, per[4][1].Cut})
			}},
		{name: "openai chat: text after an error is no second answer", p: provider.OpenAIChat,
			events: []string{chat(0, `{"content":"{}"}`, "null"), `{"error":{"message":"overloaded"}}`, chat(0, `{"content":"[]"}`, `"stop"`)},
			want:   []output{{Key: "output/0", Text: "{}"}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"textend output/0"}, kinds(per[1]))
				assert.Empty(t, per[2], "ignored, as a late fragment of an ended call is")
			}},
		// Mistral's reasoning models (mistral-small-latest, recorded in
		// vercel/ai's issue-13703-mistral-thinking fixture) send content as
		// an array of parts, then as strings again.
		{name: "openai chat: content parts: text parts are text, thinking is not", p: provider.OpenAIChat,
			events: []string{chat(0, `{"role":"assistant","content":""}`, "null"),
				chat(0, `{"content":[{"type":"thinking","thinking":[{"type":"text","text":"Okay, the"}],"closed":true}]}`, "null"),
				chat(0, `{"content":[{"type":"thinking","thinking":[{"type":"text","text":"1."}],"closed":true},{"type":"text","text":"{\"a\""}]}`, "null"),
				chat(0, `{"content":[{"type":"text","text":":"},{"type":"text","text":"1"}]}`, "null"),
				chat(0, `{"content":"}"}`, `"stop"`)},
			want: []output{{Key: "output/0", Text: `{"a":1}`}}},
		{name: "openai chat: a refusal is not text", p: provider.OpenAIChat,
			events: []string{chat(0, `{"role":"assistant","content":"","refusal":null}`, "null"), chat(0, `{"refusal":"I can't"}`, "null"),
				chat(0, `{"refusal":" help."}`, "null"), chat(0, `{}`, `"stop"`)},
			want: []output{{Key: "output/0", Refused: true, Refusal: "I can't"}}},
		{name: "responses: parts joined, .done fills what no delta sent, item done ends", p: provider.OpenAIResponses,
			events: []string{
				`{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}`,
				`{"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"msg_1","content":[]}}`,
				responses("response.output_text.delta", "msg_1", 1, 0, "delta", `{"a":`),
				responses("response.output_text.done", "msg_1", 1, 0, "text", `{"a":1`),
				responses("response.output_text.done", "msg_1", 1, 1, "text", `}`),
				`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"delta":"thinking"}`,
				`{"type":"response.output_item.done","output_index":1,"item":{"type":"message","id":"msg_1"}}`,
				responses("response.output_text.delta", "msg_1", 1, 1, "delta", `late`),
			},
			want: []output{{Key: "output/1", Text: `{"a":1}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"text output/1"}, kinds(per[3]), "the missing tail of part 0")
				assert.Equal(t, []string{"textend output/1"}, kinds(per[6]))
				assert.Empty(t, per[7], "late text of an ended item")
			}},
		// openai-python's final response reads the text in the item's
		// final copy: one that agrees with the deltas is the same text,
		// and a part that never streamed is written there.
		{name: "responses: the item's final copy fills parts that did not stream", p: provider.OpenAIResponses,
			events: []string{
				responses("response.output_text.delta", "msg_1", 0, 0, "delta", `{"a":`),
				responses("response.output_text.delta", "msg_1", 0, 1, "delta", `1`),
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","status":"completed","content":[` +
					`{"type":"output_text","text":"{\"a\":"},{"type":"output_text","text":"1"},{"type":"output_text","text":"}"}]}}`,
			},
			want: []output{{Key: "output/0", Text: `{"a":1}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"text output/0", "textend output/0"}, kinds(per[2]))
			}},
		{name: "responses: text only in the item's final copy is the answer", p: provider.OpenAIResponses,
			events: []string{
				`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","content":[]}}`,
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","status":"completed","content":[{"type":"output_text","text":"{}"}]}}`,
			},
			want: []output{{Key: "output/0", Text: `{}`}}},
		{name: "responses: a refusal only in the item's final copy refuses", p: provider.OpenAIResponses,
			events: []string{
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","status":"completed","content":[{"type":"refusal","refusal":"No."}]}}`,
			},
			want: []output{{Key: "output/0", Refused: true, Refusal: "No."}}},
		{name: "responses: a refusal part in the final copy refuses streamed text", p: provider.OpenAIResponses,
			events: []string{
				responses("response.output_text.delta", "msg_1", 0, 1, "delta", `{}`),
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","status":"completed","content":[{"type":"refusal","refusal":"No."},{"type":"output_text","text":"{}"}]}}`,
			},
			want: []output{{Key: "output/0", Text: `{}`, Refused: true, Refusal: "No."}}},
		// gpt-5.3-codex and later write commentary before tool calls;
		// openai-python parses only the final_answer message.
		{name: "responses: a message whose phase is not final_answer is no output", p: provider.OpenAIResponses,
			events: []string{
				`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_c","phase":"commentary","content":[]}}`,
				responses("response.output_text.delta", "msg_c", 0, 0, "delta", `I'll look it up.`),
				responses("response.output_text.done", "msg_c", 0, 0, "text", `I'll look it up.`),
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_c","phase":"commentary"}}`,
				`{"type":"response.output_item.added","output_index":1,"item":{"type":"reasoning","id":"rs_1","summary":[]}}`,
				`{"type":"response.output_item.added","output_index":2,"item":{"type":"message","id":"msg_f","phase":"final_answer","content":[]}}`,
				responses("response.output_text.delta", "msg_f", 2, 0, "delta", `{"a":1}`),
				`{"type":"response.output_item.done","output_index":2,"item":{"type":"message","id":"msg_f","phase":"final_answer"}}`,
			},
			want: []output{{Key: "output/2", Text: `{"a":1}`}}},
		{name: "responses: a refusal only in refusal.done", p: provider.OpenAIResponses,
			events: []string{responses("response.refusal.done", "msg_1", 0, 0, "refusal", "No."), `{"type":"response.completed"}`},
			want:   []output{{Key: "output/0", Refused: true, Refusal: "No."}}},
		{name: "responses: a second response reuses output indices", p: provider.OpenAIResponses,
			events: []string{responses("response.output_text.delta", "msg_1", 0, 0, "delta", "{}"), `{"type":"response.completed"}`,
				`{"type":"response.created"}`, responses("response.output_text.delta", "msg_2", 0, 0, "delta", "[]")},
			want: []output{{Key: "output/0", Text: "{}"}, {Key: "output/0#2", Text: "[]"}}},
		{name: "responses: a call whose item id spells an output key keeps its own key", p: provider.OpenAIResponses,
			events: []string{`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"output/1","call_id":"c","name":"f","arguments":""}}`,
				responses("response.output_text.delta", "msg_1", 1, 0, "delta", "{}")},
			want: []output{{Key: "output/1#2", Text: "{}"}}},
		{name: "anthropic: the message's text blocks are one output, across a tool call; thinking is not text", p: provider.Anthropic,
			events: []string{`{"type":"message_start","message":{"content":[]}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig"}}`,
				`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"{\"a\""}}`, anthropicText(1, ":"),
				`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`,
				`{"type":"content_block_stop","index":2}`,
				`{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}`, anthropicText(3, "1}"),
				`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`, `{"type":"message_stop"}`},
			want: []output{{Key: "output/0", Text: `{"a":1}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"textend output/0"}, kinds(per[10]), "the message's end ends its output")
			}},
		{name: "anthropic: stop_reason refusal, and each message its own output", p: provider.Anthropic,
			events: []string{`{"type":"message_start","message":{"content":[]}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`, anthropicText(0, "{"),
				`{"type":"message_delta","delta":{"stop_reason":"refusal"}}`,
				`{"type":"message_start","message":{"content":[{"type":"text","text":"[]"}]}}`, `{"type":"message_stop"}`},
			want: []output{{Key: "output/0", Text: "{", Refused: true}, {Key: "output/1", Text: "[]"}}},
		{name: "gemini: thought parts are not text; finishReason ends the output", p: provider.Gemini,
			events: []string{gemini(`{"text":"**Thinking**","thought":true}`, ""), gemini(`{"text":"{\"a\":"},{"text":"1}"}`, ""),
				gemini(`{"text":"","thoughtSignature":"x"}`, `,"finishReason":"STOP"`)},
			want: []output{{Key: "output/0", Text: `{"a":1}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"textend output/0"}, kinds(per[2]))
			}},
		{name: "bedrock: text blocks joined; reasoning is not text; messageStop ends", p: provider.Bedrock,
			events: []string{`{"messageStart":{"role":"assistant"}}`,
				`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"hmm"}}}}`,
				`{"contentBlockDelta":{"contentBlockIndex":1,"delta":{"text":"{\"a\":"}}}`, `{"contentBlockStop":{"contentBlockIndex":1}}`,
				`{"contentBlockDelta":{"contentBlockIndex":2,"delta":{"text":"1}"}}}`, `{"messageStop":{"stopReason":"end_turn"}}`},
			want: []output{{Key: "output/0", Text: `{"a":1}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"textend output/0"}, kinds(per[5]))
			}},
		{name: "cohere: thinking and the tool plan are not text; message-end ends", p: provider.Cohere,
			events: []string{`{"type":"message-start","delta":{"message":{"role":"assistant"}}}`,
				`{"type":"tool-plan-delta","delta":{"message":{"tool_plan":"I will"}}}`,
				`{"type":"content-delta","index":0,"delta":{"message":{"content":{"thinking":"hmm"}}}}`,
				`{"type":"content-start","index":1,"delta":{"message":{"content":{"type":"text","text":"{"}}}}`,
				`{"type":"content-delta","index":1,"delta":{"message":{"content":{"text":"}"}}}}`,
				`{"type":"message-end","delta":{"finish_reason":"COMPLETE"}}`},
			want: []output{{Key: "output/0", Text: `{}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"textend output/0"}, kinds(per[5]))
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			per, ck := streamChecked(t, tc.p, tc.events...)
			assert.Equal(t, tc.want, append([]output(nil), ck.texts()...))
			if tc.check != nil {
				tc.check(t, per)
			}
		})
	}

	t.Run("responses: an item's final copy contradicting its deltas is an error", func(t *testing.T) {
		t.Parallel()
		for name, content := range map[string]string{
			"another text":           `[{"type":"output_text","text":"{\"a\":\"evil\"}"}]`,
			"a changed part 0":       `[{"type":"output_text","text":"{\"b\":"},{"type":"output_text","text":"1}"}]`,
			"a part 0 added":         `[{"type":"output_text","text":"x"},{"type":"output_text","text":"1}"}]`,
			"fewer parts":            `[{"type":"output_text","text":"{\"a\":"}]`,
			"no parts":               `[]`,
			"the last part not text": `[{"type":"output_text","text":"{\"a\":"},{"type":"refusal","refusal":""}]`,
		} {
			a, err := provider.New(provider.OpenAIResponses)
			require.NoError(t, err)
			first := responses("response.output_text.delta", "msg_1", 0, 0, "delta", `{"a":`)
			if strings.Contains(name, "added") {
				first = responses("response.output_text.delta", "msg_1", 0, 1, "delta", `1}`)
			} else {
				_, err = a.Feed(nil, []byte(first))
				require.NoError(t, err)
				first = responses("response.output_text.delta", "msg_1", 0, 1, "delta", `1}`)
			}
			_, err = a.Feed(nil, []byte(first))
			require.NoError(t, err, name)
			evs, err := a.Feed(nil, []byte(`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","status":"completed","content":`+content+`}}`))
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee, name)
			assert.Equal(t, "output/0", ee.Key, name)
			require.NotEmpty(t, evs, name)
			assert.Equal(t, provider.TextEnd, evs[len(evs)-1].Kind, "%s: the output ends", name)
		}
	})

	t.Run("responses: .done text contradicting its deltas is an error", func(t *testing.T) {
		t.Parallel()
		a, err := provider.New(provider.OpenAIResponses)
		require.NoError(t, err)
		_, err = a.Feed(nil, []byte(responses("response.output_text.delta", "msg_1", 0, 0, "delta", `{"a":2}`)))
		require.NoError(t, err)
		_, err = a.Feed(nil, []byte(responses("response.output_text.done", "msg_1", 0, 0, "text", `{"a":1}`)))
		var ee *provider.EventError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, "output/0", ee.Key)
		assert.Contains(t, ee.Reason, "final text")
	})
}

// TestErrorEventsCutTheAnswer: an error event in the middle of a stream
// (an OpenAI-compatible or Gemini chunk with an error member, Anthropic's
// and Responses' error event, a Bedrock exception), on which the SDKs
// raise, ends every open call and output, and
// the output is cut: its text is no answer, even where it parses, as
// after Responses' response.failed.
func TestErrorEventsCutTheAnswer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p      provider.Provider
		events []string
		cut    string // the reason the output is cut for
	}{
		{provider.OpenAIChat, []string{
			`{"choices":[{"index":0,"delta":{"content":"{\"a\":1}"}}]}`,
			`{"error":{"message":"upstream overloaded","code":503}}`}, "error"},
		{provider.Anthropic, []string{
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"{\"a\":1}"}}`,
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}, "error"},
		{provider.OpenAIResponses, []string{
			`{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"{\"a\":1}"}`,
			`{"type":"error","code":"server_error","message":"The server had an error","param":null,"sequence_number":5}`}, "error"},
		{provider.Gemini, []string{
			`{"candidates":[{"index":0,"content":{"role":"model","parts":[{"text":"{\"a\":1}"}]}}]}`,
			`{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`}, "error"},
		{provider.Bedrock, []string{
			`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"{\"a\":1}"}}}`,
			`{"modelStreamErrorException":{"message":"Model stream error","originalStatusCode":500}}`}, "modelStreamErrorException"},
	} {
		t.Run(c.p.String(), func(t *testing.T) {
			t.Parallel()
			a, err := provider.New(c.p)
			require.NoError(t, err)
			_, err = a.Feed(nil, []byte(c.events[0]))
			require.NoError(t, err)
			evs, err := a.Feed(nil, []byte(c.events[1]))
			require.NoError(t, err)
			require.Len(t, evs, 1)
			assert.Equal(t, provider.TextEnd, evs[0].Kind)
			assert.Equal(t, c.cut, evs[0].Cut)
		})
	}
}
