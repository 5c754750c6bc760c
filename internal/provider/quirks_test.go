package provider_test

import (
	"encoding/json"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

// quirk is a small synthetic stream showing one provider behaviour.
type quirk struct {
	name   string
	events []string
	want   []call // assembled after Close, in start order
	// check, when set, looks at the events of each Feed (the last element
	// holds Close's), e.g. to see that End came with the provider's event.
	check func(t *testing.T, per [][]provider.Event)
}

func runQuirks(t *testing.T, p provider.Provider, quirks []quirk) {
	t.Helper()
	for _, q := range quirks {
		t.Run(q.name, func(t *testing.T) {
			t.Parallel()
			per, got := stream(t, p, q.events...)
			assert.Equal(t, q.want, got)
			if q.check != nil {
				q.check(t, per)
			}
		})
	}
}

func TestOpenAIChatQuirks(t *testing.T) {
	t.Parallel()
	runQuirks(t, provider.OpenAIChat, []quirk{
		{
			name: "keyed_by_choice_and_tool_index",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":""}},{"index":1,"id":"b","function":{"name":"g","arguments":"{\"y\""}}]}}]}`,
				`{"choices":[{"index":1,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"h","arguments":"{}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":":2}"}},{"index":0,"function":{"arguments":"{\"x\":1}"}}]}}]}`,
			},
			want: []call{
				{Key: "choice0/tool0", ID: "a", Name: "f", Args: `{"x":1}`},
				{Key: "choice0/tool1", ID: "b", Name: "g", Args: `{"y":2}`},
				{Key: "choice1/tool0", ID: "c", Name: "h", Args: `{}`},
			},
		},
		{
			name: "legacy_function_call",
			events: []string{
				`{"choices":[{"index":0,"delta":{"role":"assistant","function_call":{"name":"get_weather","arguments":""}},"finish_reason":null}]}`,
				`{"choices":[{"index":0,"delta":{"function_call":{"arguments":"{\"city\": "}},"finish_reason":null}]}`,
				`{"choices":[{"index":0,"delta":{"function_call":{"arguments":"\"Oslo\"}"}},"finish_reason":null}]}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"function_call"}]}`,
				`{"choices":[{"index":0,"delta":{"function_call":{"arguments":"late"}},"finish_reason":null}]}`,
			},
			want: []call{{Key: "choice0/function", Name: "get_weather", Args: `{"city": "Oslo"}`}},
		},
		{
			name: "mistral_omits_index",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"m1","function":{"name":"f","arguments":"{\"a\": 1}"}},{"id":"m2","function":{"name":"g","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			},
			want: []call{
				{Key: "choice0/tool0", ID: "m1", Name: "f", Args: `{"a": 1}`},
				{Key: "choice0/tool1", ID: "m2", Name: "g", Args: `{}`},
			},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"start choice0/tool0", "delta choice0/tool0", "start choice0/tool1", "delta choice0/tool1",
					"end choice0/tool0", "end choice0/tool1"}, kinds(per[0]), "finish_reason in the same chunk ends both, after their text")
			},
		},
		{
			name: "glm_empty_name_in_continuation_keeps_name",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"t1","type":"function","function":{"name":"webSearch","arguments":""},"index":0}],"index":0}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"type":"function","function":{"name":"","arguments":"{\"q\": \"x\"}"},"index":0}],"index":0}}]}`,
				`{"choices":[{"index":0,"delta":{"index":0},"finish_reason":"tool_calls"}]}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "t1", Name: "webSearch", Args: `{"q": "x"}`}},
		},
		{
			name: "whole_call_in_one_delta",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"g1","type":"function","function":{"name":"weather","arguments":"{}"},"index":0}]},"finish_reason":null}],"x_groq":{"id":"req_1"}}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "g1", Name: "weather", Args: `{}`}},
		},
		{
			name: "last_chunk_without_choices",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}]}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
				`{"choices":[],"usage":{"total_tokens":3},"obfuscation":"xyz"}`,
				`{"usage":{"total_tokens":3}}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "a", Name: "f", Args: `{}`}},
		},
		{
			name: "finish_reason_ends_that_choices_calls",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]}},{"index":1,"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"g","arguments":"{}"}}]}}]}`,
				`{"choices":[{"index":1,"delta":{},"finish_reason":"tool_calls"}]}`,
			},
			want: []call{
				{Key: "choice0/tool0", ID: "a", Name: "f", Args: `{}`},
				{Key: "choice1/tool0", ID: "b", Name: "g", Args: `{}`},
			},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end choice1/tool0"}, kinds(per[1]))
				assert.Equal(t, []string{"end choice0/tool0"}, kinds(per[2]), "choice 0 had no finish_reason: Close ends it")
			},
		},
		{
			name: "new_id_at_same_index_begins_new_call",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"b","function":{"name":"g","arguments":"{\"k\":1}"}}]}}]}`,
			},
			want: []call{
				{Key: "choice0/tool0", ID: "a", Name: "f", Args: `{}`},
				{Key: "choice0/tool0#2", ID: "b", Name: "g", Args: `{"k":1}`},
			},
		},
		{
			// Poolside, mlx-openai-server and vLLM's gpt-oss parser (before
			// vllm#33520) give a call's later entries another id: without a
			// name, an entry continues the call at its index, as
			// openai-python's accumulate_delta and the Vercel AI SDK, which
			// group entries by index, read it.
			name: "new_id_without_a_name_continues_the_call",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_A","function":{"name":"read","arguments":""}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_B","function":{"arguments":"{\"path\":\"/etc\","}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_B","function":{"arguments":"\"rm\":true}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "call_A", Name: "read", Args: `{"path":"/etc","rm":true}`}},
		},
		{
			name: "new_id_without_a_name_after_the_call_ended_is_a_new_call",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"b","function":{"arguments":"{}"}}]}}]}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "a", Name: "f", Args: `{}`}, {Key: "choice0/tool0#2", ID: "b", Args: `{}`}},
		},
		{
			// openai-python would join the fragments ("todo"), the Vercel AI
			// SDK keep the first ("to"): the call names two tools.
			name: "name_split_across_deltas_is_a_conflict",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"to","arguments":""}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"do","arguments":"{}"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"x"}}]}}]}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "a", Name: "to", Args: `{}`, Conflict: "do"}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"conflict choice0/tool0", "delta choice0/tool0"}, kinds(per[1]))
				assert.Empty(t, per[2], "one conflict per call")
			},
		},
		{
			name: "legacy_function_call_renamed_is_a_conflict",
			events: []string{
				`{"choices":[{"index":0,"delta":{"function_call":{"name":"get_weather","arguments":"{"}}}]}`,
				`{"choices":[{"index":0,"delta":{"function_call":{"name":"rm","arguments":"}"}}}]}`,
			},
			want: []call{{Key: "choice0/function", Name: "get_weather", Args: `{}`, Conflict: "rm"}},
		},
		{
			name: "same_id_repeated_continues_call",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"k\""}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":":1}"}}]}}]}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "a", Name: "f", Args: `{"k":1}`}},
		},
		{
			name: "name_arriving_late_follows_the_start",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"q\":"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"late","function":{"name":"search","arguments":"1}"}}]}}]}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "late", Name: "search", Args: `{"q":1}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"start choice0/tool0", "delta choice0/tool0"}, kinds(per[0]), "the call begins at its first event, unnamed")
				assert.Equal(t, "", per[0][0].ToolName)
				assert.Equal(t, []string{"name choice0/tool0", "delta choice0/tool0"}, kinds(per[1]))
				assert.Equal(t, provider.Event{Kind: provider.Name, Key: "choice0/tool0", CallID: "late", ToolName: "search"}, per[1][0])
			},
		},
		{
			name: "name_that_never_arrives",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}`,
			},
			want: []call{{Key: "choice0/tool0", Args: `{}`}},
		},
		{
			name: "identical_events_not_deduplicated",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":""}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"[\"a"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\", \""}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\", \""}}]}}]}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "a", Name: "f", Args: `["a", "", "`}},
		},
		{
			name: "fragment_after_finish_ignored",
			events: []string{
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"junk"}}]}}]}`,
			},
			want: []call{{Key: "choice0/tool0", ID: "a", Name: "f", Args: `{}`}},
		},
		{
			name: "events_without_tool_data_ignored",
			events: []string{
				`{"choices":[{"index":0,"delta":{"role":"assistant","content":"hi","refusal":null},"logprobs":null,"finish_reason":null}]}`,
				`{"choices":[{"index":0,"delta":{"reasoning_content":"hmm"}}]}`,
				`{}`,
			},
			want: []call{},
		},
	})
}

func TestOpenAIResponsesQuirks(t *testing.T) {
	t.Parallel()
	added := func(item, callID, name string) string {
		return `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"` + item +
			`","call_id":"` + callID + `","name":"` + name + `","arguments":"","status":"in_progress"}}`
	}
	delta := func(item, d string) string {
		return `{"type":"response.function_call_arguments.delta","item_id":"` + item + `","output_index":0,"delta":` + d + `}`
	}
	done := func(item, args string) string {
		return `{"type":"response.function_call_arguments.done","item_id":"` + item + `","output_index":0,"arguments":` + args + `}`
	}
	itemDone := func(item, args string) string {
		return `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"` + item +
			`","call_id":"c","name":"f","arguments":` + args + `,"status":"completed"}}`
	}
	runQuirks(t, provider.OpenAIResponses, []quirk{
		{
			name:   "keyed_by_item_id_with_id_and_name_from_output_item_added",
			events: []string{added("fc_1", "call_1", "f"), delta("fc_1", `"{\"a\":"`), delta("fc_1", `"1}"`), done("fc_1", `"{\"a\":1}"`)},
			want:   []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{"a":1}`}},
		},
		{
			name:   "no_deltas_done_is_whole_text",
			events: []string{added("fc_1", "call_1", "f"), done("fc_1", `"{\"a\":1}"`), itemDone("fc_1", `"{\"a\":1}"`)},
			want:   []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{"a":1}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"delta fc_1"}, kinds(per[1]), ".done gives the text")
				assert.Equal(t, []string{"end fc_1"}, kinds(per[2]), "output_item.done ends the call")
			},
		},
		{
			// Clients such as the Vercel AI SDK run the call that
			// output_item.done describes, which comes after .done.
			name: "output_item_done_after_done_naming_another_tool_is_a_conflict",
			events: []string{added("fc_1", "call_1", "f"), delta("fc_1", `"{}"`), done("fc_1", `"{}"`),
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"g","arguments":"{}","status":"completed"}}`},
			want: []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{}`, Conflict: "g"}},
		},
		{
			name: "done_naming_another_tool_is_a_conflict",
			events: []string{added("fc_1", "call_1", "f"), delta("fc_1", `"{}"`),
				`{"type":"response.function_call_arguments.done","item_id":"fc_1","name":"g","output_index":0,"arguments":"{}"}`, itemDone("fc_1", `"{}"`)},
			want: []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{}`, Conflict: "g"}},
		},
		{
			name: "done_names_a_call_opened_by_a_delta",
			events: []string{delta("fc_1", `"{}"`),
				`{"type":"response.function_call_arguments.done","item_id":"fc_1","name":"f","output_index":0,"arguments":"{}"}`},
			want: []call{{Key: "fc_1", Name: "f", Args: `{}`}},
		},
		{
			name:   "without_output_item_done_the_call_ends_with_the_response",
			events: []string{added("fc_1", "call_1", "f"), delta("fc_1", `"{}"`), done("fc_1", `"{}"`), `{"type":"response.completed","sequence_number":4}`},
			want:   []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Empty(t, per[2], ".done does not end the call")
				assert.Equal(t, []string{"end fc_1"}, kinds(per[3]))
			},
		},
		{
			name:   "done_does_not_duplicate_deltas",
			events: []string{added("fc_1", "call_1", "f"), delta("fc_1", `"{\"a\":1}"`), done("fc_1", `"{\"a\":1}"`), itemDone("fc_1", `"{\"a\":1}"`)},
			want:   []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{"a":1}`}},
		},
		{
			name:   "done_supplies_missing_tail",
			events: []string{added("fc_1", "call_1", "f"), delta("fc_1", `"{\"a\""`), done("fc_1", `"{\"a\":1}"`)},
			want:   []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{"a":1}`}},
		},
		{
			name:   "output_item_done_ends_call_without_done_event",
			events: []string{added("fc_1", "call_1", "f"), itemDone("fc_1", `"{}"`)},
			want:   []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"delta fc_1", "end fc_1"}, kinds(per[1]))
			},
		},
		{
			name:   "delta_before_output_item_added_is_named_by_it",
			events: []string{delta("fc_1", `"{}"`), added("fc_1", "call_1", "f"), done("fc_1", `"{}"`)},
			want:   []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{}`}},
		},
		{
			name: "output_item_done_naming_another_tool_is_a_conflict",
			events: []string{added("fc_1", "call_1", "f"), delta("fc_1", `"{}"`),
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"g","arguments":"{}","status":"completed"}}`},
			want: []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{}`, Conflict: "g"}},
		},
		{
			name: "other_items_with_object_arguments_ignored",
			events: []string{
				`{"type":"response.output_item.added","output_index":0,"item":{"type":"tool_search_call","id":"tsc_1","arguments":{},"status":"in_progress","execution":"server"}}`,
				`{"type":"response.output_item.done","output_index":0,"item":{"type":"tool_search_call","id":"tsc_1","arguments":{"paths":["f"]},"status":"completed","execution":"server"}}`,
				`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"","status":"in_progress"}}`,
				`{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":1,"arguments":"{}"}`,
			},
			want: []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{}`}},
		},
		{
			name: "several_responses_in_one_stream",
			events: []string{
				`{"type":"response.created","sequence_number":0}`, added("fc_1", "call_1", "f"), delta("fc_1", `"{}"`),
				`{"type":"response.completed","sequence_number":3}`,
				`{"type":"response.created","sequence_number":0}`, added("fc_2", "call_2", "g"), delta("fc_2", `"[]"`), done("fc_2", `"[]"`),
				`{"type":"response.completed","sequence_number":4}`,
			},
			want: []call{{Key: "fc_1", ID: "call_1", Name: "f", Args: `{}`}, {Key: "fc_2", ID: "call_2", Name: "g", Args: `[]`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end fc_1"}, kinds(per[3]), "response.completed ends a call left open")
			},
		},
		{
			name:   "identical_events_not_deduplicated",
			events: []string{added("fc_1", "c", "f"), delta("fc_1", `"[1,"`), delta("fc_1", `"[1,"`)},
			want:   []call{{Key: "fc_1", ID: "c", Name: "f", Args: `[1,[1,`}},
		},
		{
			name: "events_without_tool_data_ignored",
			events: []string{
				`{"type":"response.output_text.delta","item_id":"msg_1","delta":"hi"}`,
				`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","delta":{"odd":"shape"}}`,
				`{"type":"response.output_item.added","item":{"type":"message","id":"msg_1"}}`,
			},
			want: []call{},
		},
	})

	// contradiction streams the text streamed and then the final copy
	// (.done, or .done with the streamed text and then output_item.done).
	contradiction := func(t *testing.T, streamed, final string, atItemDone bool) {
		t.Helper()
		a, err := provider.New(provider.OpenAIResponses)
		require.NoError(t, err)
		ck := newChecker()
		events := []string{added("fc_1", "call_1", "f"), delta("fc_1", quoteJSON(streamed))}
		last := done("fc_1", quoteJSON(final))
		if atItemDone {
			events = append(events, done("fc_1", quoteJSON(streamed)))
			last = itemDone("fc_1", quoteJSON(final))
		}
		for _, e := range events {
			evs, err := a.Feed(nil, []byte(e))
			require.NoError(t, err)
			require.NoError(t, ck.add(evs))
		}
		evs, err := a.Feed(nil, []byte(last))
		var ee *provider.EventError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, "fc_1", ee.Key)
		assert.Equal(t, []string{"end fc_1"}, kinds(evs), "the call still ends")
		require.NoError(t, ck.add(evs))
	}
	t.Run("done_contradicting_deltas_is_error", func(t *testing.T) {
		t.Parallel()
		contradiction(t, `{"a":2}`, `{"a":1}`, false)
	})
	t.Run("output_item_done_contradicting_done_is_error", func(t *testing.T) {
		t.Parallel()
		contradiction(t, `{"path":"a"}`, `{"path":"/etc/shadow"}`, true)
	})
	// openai-python's final response and the OpenAI Agents SDK run the
	// calls of response.completed's own copy of the output.
	completed := func(items ...string) string {
		return `{"type":"response.completed","response":{"status":"completed","output":[` + strings.Join(items, ",") + `]}}`
	}
	callItem := func(item, name, args string) string {
		return `{"type":"function_call","id":"` + item + `","call_id":"c","name":"` + name + `","arguments":` + quoteJSON(args) + `,"status":"completed"}`
	}
	t.Run("completed_copy_that_agrees_changes_nothing", func(t *testing.T) {
		t.Parallel()
		per, ck := streamChecked(t, provider.OpenAIResponses, added("fc_1", "c", "f"), delta("fc_1", `"{\"a\":1}"`), itemDone("fc_1", `"{\"a\":1}"`),
			completed(callItem("fc_1", "f", `{"a":1}`), `{"type":"reasoning","id":"rs_1","summary":[]}`))
		assert.Empty(t, per[3])
		assert.Equal(t, []call{{Key: "fc_1", ID: "c", Name: "f", Args: `{"a":1}`}}, ck.result())
	})
	t.Run("completed_copy_of_a_call_that_never_streamed_is_validated", func(t *testing.T) {
		t.Parallel()
		per, ck := streamChecked(t, provider.OpenAIResponses, completed(callItem("fc_9", "f", `{"a":2}`)))
		assert.Equal(t, []string{"start fc_9", "name fc_9", "delta fc_9", "end fc_9"}, kinds(per[0]))
		assert.Equal(t, []call{{Key: "fc_9", ID: "c", Name: "f", Args: `{"a":2}`}}, ck.result())
	})
	for name, copy := range map[string]string{
		"other_arguments":  callItem("fc_1", "f", `{"a":"evil"}`),
		"longer_arguments": callItem("fc_1", "f", `{"a":1} `),
		"another_tool":     callItem("fc_1", "g", `{"a":1}`),
	} {
		t.Run("completed_copy_of_an_ended_call_with_"+name+"_fails_the_stream", func(t *testing.T) {
			t.Parallel()
			a, err := provider.New(provider.OpenAIResponses)
			require.NoError(t, err)
			for _, e := range []string{added("fc_1", "c", "f"), delta("fc_1", `"{\"a\":1}"`), itemDone("fc_1", `"{\"a\":1}"`)} {
				_, err := a.Feed(nil, []byte(e))
				require.NoError(t, err)
			}
			_, err = a.Feed(nil, []byte(completed(copy)))
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee)
			assert.Empty(t, ee.Key, "the call's result is sent: the stream fails")
			assert.Contains(t, ee.Reason, "response.completed's copy")
		})
	}
	t.Run("completed_copy_of_an_ended_message_must_agree", func(t *testing.T) {
		t.Parallel()
		msg := func(text string) string {
			return `{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":` + quoteJSON(text) + `}]}`
		}
		for copy, ok := range map[string]bool{msg(`{"x":1}`): true, msg(`{"x":"evil"}`): false, `{"type":"message","id":"msg_1","content":[]}`: false} {
			a, err := provider.New(provider.OpenAIResponses)
			require.NoError(t, err)
			for _, e := range []string{
				`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"{\"x\":1}"}`,
				`{"type":"response.output_item.done","output_index":0,"item":` + msg(`{"x":1}`) + `}`,
			} {
				_, err := a.Feed(nil, []byte(e))
				require.NoError(t, err)
			}
			_, err = a.Feed(nil, []byte(completed(copy)))
			if ok {
				assert.NoError(t, err, copy)
				continue
			}
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee, copy)
			assert.Empty(t, ee.Key)
		}
	})
	// Two texts of one length with the same 64-bit FNV-1a (found by a
	// distinguished-point search): a final copy that a 64-bit hash
	// comparison would take for the streamed text.
	t.Run("done_colliding_with_deltas_under_fnv1a_is_error", func(t *testing.T) {
		t.Parallel()
		streamed, final := "johcchfgdnmedaoc", "mobnfnjidcaknfdm"
		h1, h2 := fnv.New64a(), fnv.New64a()
		h1.Write([]byte(streamed))
		h2.Write([]byte(final))
		require.Equal(t, h1.Sum64(), h2.Sum64(), "precondition: the texts collide under FNV-1a")
		contradiction(t, streamed, final, false)
	})
}

// TestAnthropicBlockPositions checks that a stream whose block indices
// are not the blocks' positions is an error: the SDKs append a started
// block whatever its index and apply a delta to the block at its index,
// so they would read a call's input that toolgate does not. The lagging
// case is from a real recording (vercel/ai's
// anthropic-code-execution-pdf-skill.1.chunks.txt, a bug-reproduction
// branch), where a server tool call started at the index of the result
// before it and streamed its input at the next one.
func TestAnthropicBlockPositions(t *testing.T) {
	t.Parallel()
	msgStart := `{"type":"message_start","message":{"id":"msg_1","content":[]}}`
	block := func(i, typ string) string {
		return `{"type":"content_block_start","index":` + i + `,"content_block":{"type":"` + typ + `","id":"t` + i + `","name":"f","input":{}}}`
	}
	delta := func(i string) string {
		return `{"type":"content_block_delta","index":` + i + `,"delta":{"type":"input_json_delta","partial_json":"{}"}}`
	}
	text := `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	for _, tc := range []struct {
		name   string
		events []string // the last one is refused
		reason string
	}{
		{"a second start at an open block's index", []string{msgStart, block("0", "tool_use"), delta("0"), block("0", "tool_use")},
			"content_block_start has index 0, but it is block 1 of the message"},
		{"a server call at its result's index", []string{msgStart, text, block("1", "server_tool_use"), `{"type":"content_block_stop","index":1}`,
			`{"type":"content_block_start","index":2,"content_block":{"type":"bash_code_execution_tool_result","tool_use_id":"t1","content":{}}}`,
			`{"type":"content_block_stop","index":2}`, block("2", "server_tool_use")},
			"content_block_start has index 2, but it is block 3 of the message"},
		{"a first block at index 1", []string{msgStart, block("1", "tool_use")}, "content_block_start has index 1, but it is block 0"},
		{"a delta for a block not started", []string{msgStart, block("0", "tool_use"), delta("1")}, "input_json_delta for block 1, but the message has 1 blocks"},
		{"a delta before any block", []string{msgStart, delta("0")}, "input_json_delta for block 0, but the message has 0 blocks"},
		{"message_start's content counts", []string{`{"type":"message_start","message":{"content":[{"type":"text","text":"Hi"}]}}`, block("0", "tool_use")},
			"content_block_start has index 0, but it is block 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			streamFails(t, provider.Anthropic, tc.events, tc.reason)
		})
	}
	// Blocks that message_start holds take the first positions.
	_, got := stream(t, provider.Anthropic,
		`{"type":"message_start","message":{"content":[{"type":"text","text":"Hi"}]}}`, block("1", "tool_use"), delta("1"),
		`{"type":"content_block_stop","index":1}`)
	assert.Equal(t, []call{{Key: "msg0/block1", ID: "t1", Name: "f", Args: "{}"}}, got)
}

func TestAnthropicQuirks(t *testing.T) {
	t.Parallel()
	start := func(i, id, input string) string {
		return `{"type":"content_block_start","index":` + i + `,"content_block":{"type":"tool_use","id":"` + id + `","name":"f","input":` + input + `}}`
	}
	delta := func(i, pj string) string {
		return `{"type":"content_block_delta","index":` + i + `,"delta":{"type":"input_json_delta","partial_json":` + pj + `}}`
	}
	stop := func(i string) string { return `{"type":"content_block_stop","index":` + i + `}` }
	msgStart := `{"type":"message_start","message":{"id":"msg_1","content":[]}}`
	runQuirks(t, provider.Anthropic, []quirk{
		{
			name: "text_blocks_take_indices",
			events: []string{
				msgStart,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me look."}}`,
				stop("0"), start("1", "t1", "{}"), delta("1", `"{}"`), stop("1"),
			},
			want: []call{{Key: "msg0/block1", ID: "t1", Name: "f", Args: `{}`}},
		},
		{
			name:   "first_partial_json_empty",
			events: []string{msgStart, start("0", "t1", "{}"), delta("0", `""`), delta("0", `"{\"a\""`), delta("0", `": 1}"`), stop("0")},
			want:   []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: `{"a": 1}`}},
		},
		{
			name:   "empty_input_then_deltas_carry_input",
			events: []string{msgStart, start("0", "t1", "{}"), delta("0", `"[1]"`), stop("0")},
			want:   []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: `[1]`}},
		},
		{
			name:   "only_empty_partial_json_gives_empty_text",
			events: []string{msgStart, start("0", "t1", "{}"), delta("0", `""`), stop("0")},
			want:   []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: ``}},
		},
		{
			name:   "empty_input_and_no_delta_gives_empty_object",
			events: []string{msgStart, start("0", "t1", "{}"), stop("0")},
			want:   []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: `{}`}},
		},
		{
			name:   "input_complete_in_content_block_start",
			events: []string{msgStart, start("0", "t1", `{"player": "p1", "n": 1.0}`), stop("0")},
			want:   []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: `{"player":"p1","n":1.0}`}},
		},
		{
			name:   "input_in_start_with_only_empty_delta",
			events: []string{msgStart, start("0", "t1", `{"p":1}`), delta("0", `""`), stop("0")},
			want:   []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: `{"p":1}`}},
		},
		{
			name: "input_in_message_start_without_block_events",
			events: []string{
				`{"type":"message_start","message":{"content":[{"type":"text","text":"x"},{"type":"tool_use","id":"t1","name":"roll","input":{"player": "p2"},"caller":{"type":"code_execution_20250825"}}]}}`,
				`{"type":"message_stop"}`,
			},
			want: []call{{Key: "msg0/block1", ID: "t1", Name: "roll", Args: `{"player":"p2"}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"text output/0", "start msg0/block1", "delta msg0/block1", "end msg0/block1"}, kinds(per[0]), "the text block is the message's output")
			},
		},
		{
			name: "max_tokens_cuts_call_mid_json",
			events: []string{
				msgStart, start("0", "t1", "{}"), delta("0", `""`), delta("0", `"{\"lines\": [\n\"Filing"`),
				`{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":10}}`,
				`{"type":"message_stop"}`,
			},
			want: []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: "{\"lines\": [\n\"Filing"}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end msg0/block0"}, kinds(per[4]), "message_delta ends the cut-off call")
			},
		},
		{
			name:   "content_block_stop_ends_call",
			events: []string{msgStart, start("0", "t1", "{}"), delta("0", `"{}"`), stop("0"), start("1", "t2", "{}"), delta("1", `"{}"`)},
			want:   []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: `{}`}, {Key: "msg0/block1", ID: "t2", Name: "f", Args: `{}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end msg0/block0"}, kinds(per[3]))
				assert.Equal(t, []string{"end msg0/block1"}, kinds(per[6]), "no stop: Close ends it")
			},
		},
		{
			name: "block_indices_restart_per_message",
			events: []string{
				msgStart, start("0", "t1", "{}"), delta("0", `"{}"`), stop("0"), `{"type":"message_stop"}`,
				msgStart, start("0", "t2", "{}"), delta("0", `"[]"`), stop("0"), `{"type":"message_stop"}`,
			},
			want: []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: `{}`}, {Key: "msg1/block0", ID: "t2", Name: "f", Args: `[]`}},
		},
		{
			name: "server_and_mcp_tool_use_blocks",
			events: []string{
				`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s1","name":"bash_code_execution","input":{}}}`,
				delta("0", `"{\"command\": \"echo \\"`), delta("0", `"\"hi\\\"\"}"`), stop("0"),
				`{"type":"content_block_start","index":1,"content_block":{"type":"mcp_tool_use","id":"m1","name":"lookup","server_name":"kb","input":{}}}`,
				delta("1", `"{}"`), stop("1"),
				`{"type":"content_block_start","index":2,"content_block":{"type":"bash_code_execution_tool_result","tool_use_id":"s1","content":{}}}`,
				stop("2"),
			},
			want: []call{
				{Key: "msg0/block0", ID: "s1", Name: "bash_code_execution", Args: `{"command": "echo \"hi\""}`},
				{Key: "msg0/block1", ID: "m1", Name: "lookup", Args: `{}`},
			},
		},
		{
			name: "whitespace_padded_events",
			events: []string{
				`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"f","input":{}}}             `,
				`{"type": "ping"}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}        }`,
				`  {"type":"content_block_stop","index":0}  `,
			},
			want: []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: `{}`}},
		},
		{
			name:   "identical_events_not_deduplicated",
			events: []string{start("0", "t1", "{}"), delta("0", `"\": \""`), `{"type":"ping"}`, `{"type":"ping"}`, delta("0", `"\": \""`), stop("0")},
			want:   []call{{Key: "msg0/block0", ID: "t1", Name: "f", Args: `": "": "`}},
		},
		{
			name: "events_without_tool_data_ignored",
			events: []string{
				msgStart, `{"type":"ping"}`, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"x"}}`,
				stop("0"), `{"type":"some_future_event","data":[1,2]}`,
			},
			want: []call{},
		},
	})
}

func TestGeminiQuirks(t *testing.T) {
	t.Parallel()
	part := func(fc string) string {
		return `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":` + fc + `}]}}]}`
	}
	pa := func(path, value string, more bool) string {
		wc := ""
		if more {
			wc = `,"willContinue":true`
		}
		return part(`{"partialArgs":[{"jsonPath":"` + path + `",` + value + wc + `}],"willContinue":true}`)
	}
	open := part(`{"name":"f","willContinue":true}`)
	term := part(`{}`)
	runQuirks(t, provider.Gemini, []quirk{
		{
			name:   "whole_args_part",
			events: []string{part(`{"name":"weather","args":{"location": "San Francisco","n":1.50},"id":"g1"}`)},
			want:   []call{{Key: "cand0/call0", ID: "g1", Name: "weather", Args: `{"location":"San Francisco","n":1.50}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"start cand0/call0", "delta cand0/call0", "end cand0/call0"}, kinds(per[0]))
			},
		},
		{
			name:   "whole_call_without_args",
			events: []string{part(`{"name":"read_theme"}`)},
			want:   []call{{Key: "cand0/call0", Name: "read_theme", Args: `{}`}},
		},
		{
			name:   "partial_args_strings_concatenated_per_path",
			events: []string{open, pa("$.location", `"stringValue":"San "`, true), pa("$.location", `"stringValue":"Francisco"`, true), pa("$.location", `"stringValue":""`, false), term},
			want:   []call{{Key: "cand0/call0", Name: "f", Args: `{"location":"San Francisco"}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"start cand0/call0", "delta cand0/call0"}, kinds(per[0]), "the object opens with the call")
				assert.Equal(t, []string{"delta cand0/call0"}, kinds(per[2]), "each part's text streams at once")
				assert.Equal(t, []string{"delta cand0/call0", "end cand0/call0"}, kinds(per[4]))
			},
		},
		{
			name: "partial_args_numbers_exact_bools_and_nulls",
			events: []string{
				open, pa("$.big", `"numberValue":12345678901234567890123`, false), pa("$.f", `"numberValue":-1.50e-3`, false),
				pa("$.ok", `"boolValue":false`, false), pa("$.none", `"nullValue":null`, false), pa("$.none2", `"nullValue":"NULL_VALUE"`, false), term,
			},
			want: []call{{Key: "cand0/call0", Name: "f", Args: `{"big":12345678901234567890123,"f":-1.50e-3,"ok":false,"none":null,"none2":null}`}},
		},
		{
			name: "nested_paths_arrays_and_bare_willContinue_parts",
			events: []string{
				open, pa("$.r.items[0].name", `"stringValue":"a"`, false), pa("$.r.items[0].qty", `"numberValue":1`, false),
				part(`{"willContinue":true}`),
				pa("$.r.items[1].name", `"stringValue":"b"`, false), pa("$.r.steps[0]", `"stringValue":"x"`, false),
				pa("$.r.steps[1]", `"stringValue":"y"`, false), pa("$['odd key']", `"boolValue":true`, false), term,
			},
			want: []call{{Key: "cand0/call0", Name: "f", Args: `{"r":{"items":[{"name":"a","qty":1},{"name":"b"}],"steps":["x","y"]},"odd key":true}`}},
		},
		{
			name:   "empty_functionCall_terminator_ends_call",
			events: []string{open, pa("$.a", `"numberValue":1`, false), term, term},
			want:   []call{{Key: "cand0/call0", Name: "f", Args: `{"a":1}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"delta cand0/call0", "end cand0/call0"}, kinds(per[2]))
				assert.Empty(t, per[3], "a repeated terminator is harmless")
			},
		},
		{
			name: "last_partial_args_part_without_willContinue_ends_call",
			events: []string{
				open, pa("$.a", `"numberValue":0.5`, false),
				part(`{"partialArgs":[{"jsonPath":"$.b","numberValue":0.3}]}`),
				`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}`,
			},
			want: []call{{Key: "cand0/call0", Name: "f", Args: `{"a":0.5,"b":0.3}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"delta cand0/call0", "end cand0/call0"}, kinds(per[2]))
			},
		},
		{
			// The part promised more: the call was cut off, and ends
			// incomplete, not closed as if it were whole.
			name:   "stream_end_cuts_off_call",
			events: []string{open, pa("$.s", `"stringValue":"unfinished"`, true)},
			want:   []call{{Key: "cand0/call0", Name: "f", Args: `{"s":"unfinished`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end cand0/call0"}, kinds(per[2]), "Close ends it")
			},
		},
		{
			name: "finishReason_cuts_off_call",
			events: []string{
				open, pa("$.a", `"boolValue":true`, false),
				`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"MAX_TOKENS"}]}`,
			},
			want: []call{{Key: "cand0/call0", Name: "f", Args: `{"a":true`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end cand0/call0"}, kinds(per[2]))
			},
		},
		{
			name: "finishReason_STOP_cuts_off_call_too",
			events: []string{
				open, pa("$.a", `"numberValue":1`, false),
				`{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}`,
			},
			want: []call{{Key: "cand0/call0", Name: "f", Args: `{"a":1`}},
		},
		{
			name:   "string_escaping",
			events: []string{open, pa("$.s\\\"k", `"stringValue":"q\" b\\ n\n t\t c\u0001 <&> é 🙂 \u2028"`, false), term},
			want:   []call{{Key: "cand0/call0", Name: "f", Args: "{\"s\\\"k\":\"q\\\" b\\\\ n\\n t\\t c\\u0001 <&> é 🙂 \u2028\"}"}},
		},
		{
			name:   "object_reentered_repeats_key",
			events: []string{open, pa("$.a.x", `"numberValue":1`, false), pa("$.b", `"numberValue":2`, false), pa("$.a.y", `"numberValue":3`, false), term},
			want:   []call{{Key: "cand0/call0", Name: "f", Args: `{"a":{"x":1},"b":2,"a":{"y":3}}`}},
		},
		{
			// A streamed part that names a tool meanwhile is refused (see
			// TestGeminiNamedPartWhileStreaming): ADK renames the call.
			name: "whole_call_cuts_off_streaming_call",
			events: []string{
				open, pa("$.id", `"stringValue":"A"`, true),
				part(`{"name":"g","args":{"id":"B"}}`),
			},
			want: []call{{Key: "cand0/call0", Name: "f", Args: `{"id":"A`}, {Key: "cand0/call1", Name: "g", Args: `{"id":"B"}`}},
		},
		{
			name: "keyed_by_candidate",
			events: []string{
				`{"candidates":[{"index":0,"content":{"parts":[{"functionCall":{"name":"f","willContinue":true}}]}},{"index":1,"content":{"parts":[{"functionCall":{"name":"g","args":{}}}]}}]}`,
				`{"candidates":[{"index":0,"content":{"parts":[{"functionCall":{}}]}}]}`,
			},
			want: []call{{Key: "cand0/call0", Name: "f", Args: `{}`}, {Key: "cand1/call0", Name: "g", Args: `{}`}},
		},
		{
			name:   "identical_events_not_deduplicated",
			events: []string{open, pa("$.s", `"stringValue":"ab"`, true), pa("$.s", `"stringValue":"ab"`, true), pa("$.s", `"stringValue":""`, false), term},
			want:   []call{{Key: "cand0/call0", Name: "f", Args: `{"s":"abab"}`}},
		},
		{
			name: "events_without_tool_data_ignored",
			events: []string{
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"thinking","thought":true}]}}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]}}],"usageMetadata":{"promptTokenCount":3}}`,
				`{"usageMetadata":{"promptTokenCount":3}}`,
				term, part(`{"willContinue":true}`),
			},
			want: []call{},
		},
	})

	t.Run("array_element_out_of_order_is_error", func(t *testing.T) {
		t.Parallel()
		a, err := provider.New(provider.Gemini)
		require.NoError(t, err)
		ck := newChecker()
		for _, e := range []string{open, pa("$.a[0]", `"numberValue":1`, false)} {
			evs, err := a.Feed(nil, []byte(e))
			require.NoError(t, err)
			require.NoError(t, ck.add(evs))
		}
		for _, e := range []string{pa("$.a[0]", `"numberValue":2`, false), pa("$.a[5]", `"numberValue":2`, false)} {
			evs, err := a.Feed(nil, []byte(e))
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, "cand0/call0", ee.Key)
			assert.Contains(t, ee.Reason, "out of order")
			require.NoError(t, ck.add(evs))
		}
		evs, err := a.Feed(nil, []byte(term))
		require.NoError(t, err)
		require.NoError(t, ck.add(evs))
		require.NoError(t, ck.add(a.Close(nil)))
		assert.Equal(t, []call{{Key: "cand0/call0", Name: "f", Args: `{"a":[1]}`}}, ck.result())
	})
}

func TestBedrockQuirks(t *testing.T) {
	t.Parallel()
	start := func(i, id string) string {
		return `{"contentBlockStart":{"contentBlockIndex":` + i + `,"start":{"toolUse":{"toolUseId":"` + id + `","name":"f"}}}}`
	}
	delta := func(i, in string) string {
		return `{"contentBlockDelta":{"contentBlockIndex":` + i + `,"delta":{"toolUse":{"input":` + in + `}}}}`
	}
	stop := func(i string) string { return `{"contentBlockStop":{"contentBlockIndex":` + i + `}}` }
	runQuirks(t, provider.Bedrock, []quirk{
		{
			name:   "keyed_by_contentBlockIndex",
			events: []string{start("3", "tooluse_1"), delta("3", `"{\"a\":"`), delta("3", `"1}"`), stop("3")},
			want:   []call{{Key: "block3", ID: "tooluse_1", Name: "f", Args: `{"a":1}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end block3"}, kinds(per[3]), "contentBlockStop ends the call")
			},
		},
		{
			name: "text_and_reasoning_blocks_without_start_ignored",
			events: []string{
				`{"messageStart":{"role":"assistant"}}`,
				`{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":""}}}`, stop("0"),
				`{"contentBlockDelta":{"contentBlockIndex":1,"delta":{"reasoningContent":{"text":"hmm"}}}}`, stop("1"),
				`{"contentBlockStart":{"contentBlockIndex":2,"start":{}}}`, stop("2"),
				start("3", "functions.glob_search:0"), delta("3", `"{\"pattern\": \"**\"}"`), stop("3"),
			},
			want: []call{{Key: "block3", ID: "functions.glob_search:0", Name: "f", Args: `{"pattern": "**"}`}},
		},
		{
			name: "second_start_for_an_open_block_renames_it",
			events: []string{start("0", "t"), delta("0", `"{"`), start("0", "t"),
				`{"contentBlockStart":{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t","name":"g"}}}}`, delta("0", `"}"`), stop("0")},
			want: []call{{Key: "block0", ID: "t", Name: "f", Args: `{}`, Conflict: "g"}},
		},
		{
			name:   "single_empty_input_fragment",
			events: []string{start("1", "t"), delta("1", `""`), stop("1")},
			want:   []call{{Key: "block1", ID: "t", Name: "f", Args: ``}},
		},
		{
			name:   "messageStop_ends_open_call",
			events: []string{start("0", "t"), delta("0", `"{\"a"`), `{"messageStop":{"stopReason":"max_tokens"}}`, `{"metadata":{"usage":{"inputTokens":1}}}`},
			want:   []call{{Key: "block0", ID: "t", Name: "f", Args: `{"a`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end block0"}, kinds(per[2]))
			},
		},
		{
			name:   "metadata_before_messageStop",
			events: []string{start("0", "t"), delta("0", `"{}"`), stop("0"), `{"metadata":{"usage":{"inputTokens":1}}}`, `{"messageStop":{"stopReason":"tool_use"}}`},
			want:   []call{{Key: "block0", ID: "t", Name: "f", Args: `{}`}},
		},
		{
			name:   "identical_events_not_deduplicated",
			events: []string{start("0", "t"), delta("0", `"ab"`), delta("0", `"ab"`), stop("0"), stop("0")},
			want:   []call{{Key: "block0", ID: "t", Name: "f", Args: `abab`}},
		},
		{
			name:   "events_without_tool_data_ignored",
			events: []string{`{"messageStart":{"role":"assistant"}}`, `{"metadata":{}}`, `{}`, `{"internalServerException":{"message":"x"}}`, `{"someFutureEvent":{"contentBlockIndex":0}}`},
			want:   []call{},
		},
	})
}

func TestCohereQuirks(t *testing.T) {
	t.Parallel()
	start := func(i, id, args string) string {
		return `{"type":"tool-call-start","index":` + i + `,"delta":{"message":{"tool_calls":{"id":"` + id + `","type":"function","function":{"name":"f","arguments":` + args + `}}}}}`
	}
	delta := func(i, args string) string {
		return `{"type":"tool-call-delta","index":` + i + `,"delta":{"message":{"tool_calls":{"function":{"arguments":` + args + `}}}}}`
	}
	end := func(i string) string { return `{"type":"tool-call-end","index":` + i + `}` }
	runQuirks(t, provider.Cohere, []quirk{
		{
			name:   "start_delta_end_keyed_by_index",
			events: []string{start("0", "a", `""`), delta("0", `"{\"x\""`), start("1", "b", `""`), delta("1", `"{}"`), delta("0", `":1}"`), end("1"), end("0")},
			want:   []call{{Key: "call0", ID: "a", Name: "f", Args: `{"x":1}`}, {Key: "call1", ID: "b", Name: "f", Args: `{}`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end call1"}, kinds(per[5]), "tool-call-end ends the call")
			},
		},
		{
			name: "second_start_for_an_open_index_renames_it",
			events: []string{start("0", "a", `"{"`), start("0", "a", `""`),
				`{"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"a","type":"function","function":{"name":"g","arguments":"}"}}}}}`, end("0")},
			want: []call{{Key: "call0", ID: "a", Name: "f", Args: `{}`, Conflict: "g"}},
		},
		{
			name:   "start_without_deltas_gives_empty_text",
			events: []string{start("0", "a", `""`), end("0"), `{"type":"message-end","delta":{"finish_reason":"TOOL_CALL"}}`},
			want:   []call{{Key: "call0", ID: "a", Name: "f", Args: ``}},
		},
		{
			name:   "start_arguments_kept",
			events: []string{start("0", "a", `"{\"x\""`), delta("0", `":1}"`), end("0")},
			want:   []call{{Key: "call0", ID: "a", Name: "f", Args: `{"x":1}`}},
		},
		{
			name:   "message_end_ends_open_call",
			events: []string{start("0", "a", `""`), delta("0", `"{"`), `{"type":"message-end","delta":{"finish_reason":"MAX_TOKENS"}}`},
			want:   []call{{Key: "call0", ID: "a", Name: "f", Args: `{`}},
			check: func(t *testing.T, per [][]provider.Event) {
				assert.Equal(t, []string{"end call0"}, kinds(per[2]))
			},
		},
		{
			name:   "identical_events_not_deduplicated",
			events: []string{start("0", "a", `""`), delta("0", `"ab"`), delta("0", `"ab"`), end("0")},
			want:   []call{{Key: "call0", ID: "a", Name: "f", Args: `abab`}},
		},
		{
			name: "events_without_tool_data_ignored",
			events: []string{
				`{"id":"x","type":"message-start","delta":{"message":{"role":"assistant","tool_calls":[]}}}`,
				`{"type":"tool-plan-delta","delta":{"message":{"tool_plan":"I"}}}`,
				`{"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"hi"}}}}`,
				`{"type":"citation-start","index":0,"delta":{"message":{"citations":{"text":"x"}}}}`,
			},
			want: []call{},
		},
	})
}

// TestUnnamedCallStreamsAtOnce: the adapter holds nothing back for a call
// that has no name yet; its text streams from the call's first event.
func TestUnnamedCallStreamsAtOnce(t *testing.T) {
	t.Parallel()
	a, err := provider.New(provider.OpenAIChat)
	require.NoError(t, err)
	frag := strings.Repeat("x", 40<<10)
	ev := `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"` + frag + `"}}]}}]}`
	evs, err := a.Feed(nil, []byte(ev))
	require.NoError(t, err)
	assert.Equal(t, []provider.Event{{Kind: provider.Start, Key: "choice0/tool0"}, {Kind: provider.Delta, Key: "choice0/tool0", Fragment: frag}}, evs)
	evs, err = a.Feed(nil, []byte(ev))
	require.NoError(t, err)
	assert.Equal(t, []provider.Event{{Kind: provider.Delta, Key: "choice0/tool0", Fragment: frag}}, evs)
}

func quoteJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestResponsesItemPlaces checks that a Responses event whose item_id and
// output_index disagree with what the response said before is an error:
// openai-python and openai-node apply an event to the item at its
// output_index, toolgate follows the item id. The rotating ids are GitHub
// Copilot's Responses proxy's (vercel/ai's
// github-copilot-id-rotation.1.chunks.txt), which gives every event a new
// item_id.
func TestResponsesItemPlaces(t *testing.T) {
	t.Parallel()
	added := func(at, id, typ string) string {
		return `{"type":"response.output_item.added","output_index":` + at + `,"item":{"type":"` + typ + `","id":"` + id + `","call_id":"c_` + id + `","name":"f","arguments":"","content":[]}}`
	}
	textDelta := func(at, id string) string {
		return `{"type":"response.output_text.delta","item_id":"` + id + `","output_index":` + at + `,"content_index":0,"delta":"{"}`
	}
	argsDelta := func(at, id string) string {
		return `{"type":"response.function_call_arguments.delta","item_id":"` + id + `","output_index":` + at + `,"delta":"{"}`
	}
	for _, tc := range []struct {
		name   string
		events []string // the last one is refused
		reason string
	}{
		{"a rotated item_id", []string{added("0", "capture-id-9", "message"), textDelta("0", "capture-id-10")},
			`names item "capture-id-10" at output_index 0, where item "capture-id-9" is`},
		{"a call's delta at another index", []string{added("0", "fc_1", "function_call"), added("1", "fc_2", "function_call"), argsDelta("1", "fc_1")},
			`names item "fc_1" at output_index 1, where item "fc_2" is`},
		{"an item that moves", []string{added("0", "fc_1", "function_call"), argsDelta("2", "fc_1")},
			`puts item "fc_1" at output_index 2, but it is at 0`},
		{"a delta's place taken by the item added next", []string{argsDelta("0", "fc_1"), added("0", "fc_2", "function_call")},
			`names item "fc_2" at output_index 0, where item "fc_1" is`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			streamFails(t, provider.OpenAIResponses, tc.events, tc.reason)
		})
	}
	// A new response numbers its items afresh, and an event without
	// output_index (LM Studio's) is read by its item_id alone.
	_, got := stream(t, provider.OpenAIResponses,
		added("0", "fc_1", "function_call"), argsDelta("0", "fc_1"),
		`{"type":"response.completed","response":{"output":[]}}`, `{"type":"response.created","response":{}}`,
		added("0", "fc_2", "function_call"), `{"type":"response.function_call_arguments.delta","item_id":"fc_2","delta":"{"}`)
	assert.Equal(t, []call{{Key: "fc_1", ID: "c_fc_1", Name: "f", Args: "{"}, {Key: "fc_2", ID: "c_fc_2", Name: "f", Args: "{"}}, got)
}

// streamFails feeds events to a new adapter for p and checks that all but
// the last are accepted, and that the last is an *EventError of the
// stream (no Key) whose reason holds reason.
func streamFails(t *testing.T, p provider.Provider, events []string, reason string) {
	t.Helper()
	a, err := provider.New(p)
	require.NoError(t, err)
	last := len(events) - 1
	for i, e := range events[:last] {
		_, err := a.Feed(nil, []byte(e))
		require.NoError(t, err, "event %d: %s", i, e)
	}
	_, err = a.Feed(nil, []byte(events[last]))
	var ee *provider.EventError
	require.ErrorAs(t, err, &ee)
	assert.Empty(t, ee.Key, "the stream, not one call, is at fault")
	assert.Contains(t, ee.Reason, reason)
}

// TestGeminiNamedPartWhileStreaming: ADK gathers the streamed parts of a
// call (partialArgs, willContinue) until one without willContinue, and a
// streamed part that names a tool meanwhile renames that call (and a new
// id re-identifies it): its partialArgs join the call's. This adapter
// would end the call, cut off, and begin another with that part's
// arguments alone, which ADK never runs: call B checked as
// {"safe":true} where ADK runs B with {"cmd":"rm -rf /","safe":true}.
// Such a chunk is refused whole. A part that is not streamed (whole args,
// or none) begins a call of its own in ADK as here, and a named part
// after the call closed, or in another candidate, is the next call.
func TestGeminiNamedPartWhileStreaming(t *testing.T) {
	t.Parallel()
	chunk := func(parts ...string) string {
		return `{"candidates":[{"index":0,"content":{"role":"model","parts":[` + strings.Join(parts, ",") + `]}}]}`
	}
	const (
		open   = `{"functionCall":{"id":"A","name":"run","partialArgs":[{"jsonPath":"$.cmd","stringValue":"rm -rf /","willContinue":true}],"willContinue":true}}`
		rename = `{"functionCall":{"id":"B","name":"run","partialArgs":[{"jsonPath":"$.safe","boolValue":true}]}}`
		named  = `{"functionCall":{"name":"run","willContinue":true}}`
		close  = `{"functionCall":{"partialArgs":[{"jsonPath":"$.cmd","stringValue":""}]}}`
		whole  = `{"functionCall":{"id":"B","name":"noop","args":{}}}`
	)
	cutA := call{Key: "cand0/call0", ID: "A", Name: "run", Args: `{"cmd":"rm -rf /`}
	runPositions(t, provider.Gemini, []positionCase{
		{"a named streamed part in the next chunk", []string{chunk(open), chunk(rename)}, []int{1}, []call{cutA}},
		{"a named streamed part in the same chunk", []string{chunk(open, rename)}, []int{0}, []call{}},
		{"a named part that only promises more", []string{chunk(open), chunk(named)}, []int{1}, []call{cutA}},
		{"the candidate repeated in one chunk", []string{
			`{"candidates":[{"index":0,"content":{"parts":[` + open + `]}},{"index":0,"content":{"parts":[` + rename + `]}}]}`},
			[]int{0}, []call{}},

		// What ADK reads as this adapter does.
		{"a named streamed part after the call closed", []string{chunk(open), chunk(close), chunk(rename)}, nil, []call{
			{Key: "cand0/call0", ID: "A", Name: "run", Args: `{"cmd":"rm -rf /"}`},
			{Key: "cand0/call1", ID: "B", Name: "run", Args: `{"safe":true}`}}},
		{"a whole call while one streams", []string{chunk(open), chunk(whole)}, nil, []call{
			cutA, {Key: "cand0/call1", ID: "B", Name: "noop", Args: `{}`}}},
		{"a named streamed part after the candidate finished", []string{chunk(open),
			`{"candidates":[{"index":0,"finishReason":"MAX_TOKENS"}]}`, chunk(rename)}, nil, []call{
			cutA, {Key: "cand0/call1", ID: "B", Name: "run", Args: `{"safe":true}`}}},
		{"a named streamed part in another candidate", []string{chunk(open),
			`{"candidates":[{"index":1,"content":{"parts":[` + rename + `]}}]}`}, nil, []call{
			cutA, {Key: "cand1/call0", ID: "B", Name: "run", Args: `{"safe":true}`}}},
	})
}
