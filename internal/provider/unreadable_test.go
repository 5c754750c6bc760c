package provider_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/provider"
)

// The reasons the adapters give for the calls they cannot validate.
const (
	customReason = "The call is to a custom tool, whose input is free text, not JSON arguments: toolgate cannot validate it."
	searchReason = "The call is a tool search that the client runs, not a function call with JSON arguments: toolgate cannot validate it."
)

// rItem is a Responses output_item event (added or done) at output_index
// at for item (JSON).
func rItem(event, at, item string) string {
	return `{"type":"response.output_item.` + event + `","output_index":` + at + `,"item":` + item + `}`
}

// rCompleted is a response.completed whose output holds items (JSON).
func rCompleted(items string) string {
	return `{"type":"response.completed","response":{"output":[` + items + `]}}`
}

// TestUnreadableCalls: a call a client runs whose input is not JSON
// arguments — an OpenAI custom tool's free text, a Responses computer,
// shell or patch action, a tool search the client runs, a *_call item
// toolgate does not know — is one call, Unreadable with a reason for the
// model, however many copies of it the stream repeats (output_item.added,
// .done, response.completed); a call OpenAI runs itself is none. Before,
// the Responses items got no call, so no result (a runtime waiting for
// one waited for ever), and a Chat custom call was a nameless one.
func TestUnreadableCalls(t *testing.T) {
	t.Parallel()
	custom := `{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"exec","input":""}`
	customDone := `{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"exec","input":"rm -rf /"}`
	exec := call{Key: "ctc_1", ID: "call_1", Name: "exec", Unreadable: customReason}
	// item is an item of type typ, with id and call_id, and no name.
	item := func(typ, id string) string {
		return `{"type":"` + typ + `","id":"` + id + `","call_id":"call_` + id + `","status":"completed"}`
	}
	nameless := func(id, reason string) call { return call{Key: id, ID: "call_" + id, Unreadable: reason} }
	fn := `{"type":"function_call","id":"fc_1","call_id":"call_2","name":"f","arguments":"{}","status":"completed"}`
	chatCustom := func(i, id, name, input string) string {
		s := `{"index":` + i + `,`
		if id != "" {
			s += `"id":"` + id + `","type":"custom",`
		}
		if name != "" {
			return s + `"custom":{"name":"` + name + `","input":` + quoteJSON(input) + `}}`
		}
		return s + `"custom":{"input":` + quoteJSON(input) + `}}`
	}
	for _, c := range []struct {
		name   string
		p      provider.Provider
		events []string
		want   []call
	}{
		{"a custom tool call, streamed and repeated", provider.OpenAIResponses, []string{
			rCreated(), rItem("added", "0", custom),
			`{"type":"response.custom_tool_call_input.delta","output_index":0,"item_id":"ctc_1","delta":"rm -rf /"}`,
			`{"type":"response.custom_tool_call_input.done","output_index":0,"item_id":"ctc_1","input":"rm -rf /"}`,
			rItem("done", "0", customDone), rCompleted(customDone),
		}, []call{exec}},
		{"a custom tool call in output_item.done only", provider.OpenAIResponses, []string{rItem("done", "0", customDone), rCompleted(customDone)}, []call{exec}},
		{"two custom tool calls in response.completed only", provider.OpenAIResponses, []string{
			rCompleted(customDone + `,{"type":"custom_tool_call","id":"ctc_2","call_id":"call_3","name":"sh","input":"ls"}`),
		}, []call{exec, {Key: "ctc_2", ID: "call_3", Name: "sh", Unreadable: customReason}}},
		{"beside a function call", provider.OpenAIResponses, []string{
			rCreated(), rItem("added", "0", custom), rItem("added", "1", fn), rItem("done", "0", customDone), rItem("done", "1", fn),
			rCompleted(customDone + "," + fn),
		}, []call{exec, {Key: "fc_1", ID: "call_2", Name: "f", Args: `{}`}}},
		{"the other calls a client runs", provider.OpenAIResponses, []string{
			rCreated(), rItem("added", "0", item("computer_call", "cu")), rItem("added", "1", item("local_shell_call", "ls")),
			rItem("added", "2", item("shell_call", "sh")), rItem("added", "3", item("apply_patch_call", "ap")),
			rItem("done", "0", item("computer_call", "cu")),
			rCompleted(item("computer_call", "cu") + "," + item("local_shell_call", "ls") + "," + item("shell_call", "sh") + "," + item("apply_patch_call", "ap")),
		}, []call{
			nameless("cu", "The call is a computer-use action, not a function call with JSON arguments: toolgate cannot validate it."),
			nameless("ls", "The call is a local shell command, not a function call with JSON arguments: toolgate cannot validate it."),
			nameless("sh", "The call is a shell command, not a function call with JSON arguments: toolgate cannot validate it."),
			nameless("ap", "The call is a patch to apply, not a function call with JSON arguments: toolgate cannot validate it."),
		}},
		{"a call type to come fails closed", provider.OpenAIResponses, []string{rCreated(), rItem("added", "0", item("teleport_call", "tp"))},
			[]call{nameless("tp", `The call is a "teleport_call" item, which toolgate knows neither as a function call with JSON arguments nor as a call OpenAI runs itself: it cannot validate it.`)}},
		{"a tool search the client runs", provider.OpenAIResponses, []string{
			rCreated(), rItem("added", "0", `{"type":"tool_search_call","id":"ts","call_id":"call_ts","execution":"client","arguments":{"query":"weather"}}`),
		}, []call{nameless("ts", searchReason)}},
		{"a tool search that says not who runs it", provider.OpenAIResponses, []string{
			rCreated(), rItem("added", "0", `{"type":"tool_search_call","id":"ts","call_id":"call_ts","arguments":{}}`),
		}, []call{nameless("ts", searchReason)}},
		{"the calls OpenAI runs are none", provider.OpenAIResponses, []string{
			rCreated(), rItem("added", "0", item("web_search_call", "ws")), rItem("added", "1", item("file_search_call", "fs")),
			rItem("added", "2", item("code_interpreter_call", "ci")), rItem("added", "3", item("image_generation_call", "ig")),
			rItem("added", "4", item("mcp_call", "mc")),
			rItem("added", "5", `{"type":"tool_search_call","id":"ts","execution":"server","arguments":{}}`),
			rItem("added", "6", item("mcp_list_tools", "ml")), rItem("added", "7", item("reasoning", "rs")),
		}, []call{}},
		{"a function call whose later copy is a custom one", provider.OpenAIResponses, []string{
			rCreated(), rItem("added", "0", `{"type":"function_call","id":"ctc_1","call_id":"call_1","name":"exec","arguments":""}`),
			rArgs("0", "ctc_1", `{}`), rItem("done", "0", customDone),
		}, []call{{Key: "ctc_1", ID: "call_1", Name: "exec", Args: `{}`, Unreadable: customReason}}},
		{"arguments before the custom item", provider.OpenAIResponses, []string{rArgs("0", "ctc_1", `{}`), rItem("added", "0", custom)},
			[]call{{Key: "ctc_1", Name: "exec", Args: `{}`, Unreadable: customReason}}},
		{"a second response's item with the same id", provider.OpenAIResponses, []string{
			rCreated(), rItem("added", "0", custom), rCompleted(customDone), rCreated(), rItem("added", "0", custom), rCompleted(customDone),
		}, []call{exec, {Key: "ctc_1#2", ID: "call_1", Name: "exec", Unreadable: customReason}}},

		{"a Chat custom call in one entry", provider.OpenAIChat, []string{
			cChunk(`{"index":0,"delta":{"tool_calls":[` + chatCustom("0", "call_1", "exec", "rm -rf /") + `]}}`), cFinish("0"),
		}, []call{{Key: "choice0/tool0", ID: "call_1", Name: "exec", Unreadable: customReason}}},
		{"a Chat custom call streamed", provider.OpenAIChat, []string{
			cChunk(`{"index":0,"delta":{"tool_calls":[` + chatCustom("0", "call_1", "exec", "") + `]}}`),
			cChunk(`{"index":0,"delta":{"tool_calls":[` + chatCustom("0", "", "", "rm ") + `]}}`),
			cChunk(`{"index":0,"delta":{"tool_calls":[` + chatCustom("0", "", "", "-rf /") + `]}}`), cFinish("0"),
		}, []call{{Key: "choice0/tool0", ID: "call_1", Name: "exec", Unreadable: customReason}}},
		{"parallel Chat custom calls", provider.OpenAIChat, []string{
			cChunk(`{"index":0,"delta":{"tool_calls":[` + chatCustom("0", "call_1", "exec", "ls") + `,` + cEntry("1", "call_2", "f", "{}") + `,` + chatCustom("2", "call_3", "sh", "pwd") + `]}}`),
			cFinish("0"),
		}, []call{
			{Key: "choice0/tool0", ID: "call_1", Name: "exec", Unreadable: customReason},
			{Key: "choice0/tool1", ID: "call_2", Name: "f", Args: `{}`},
			{Key: "choice0/tool2", ID: "call_3", Name: "sh", Unreadable: customReason},
		}},
		{"Chat custom calls sent at one index", provider.OpenAIChat, []string{
			cChunk(`{"index":0,"delta":{"tool_calls":[` + chatCustom("0", "call_1", "exec", "ls") + `]}}`),
			cChunk(`{"index":0,"delta":{"tool_calls":[` + chatCustom("0", "call_2", "sh", "pwd") + `]}}`), cFinish("0"),
		}, []call{
			{Key: "choice0/tool0", ID: "call_1", Name: "exec", Unreadable: customReason},
			{Key: "choice0/tool0#2", ID: "call_2", Name: "sh", Unreadable: customReason},
		}},
		{"a Chat function call with a custom member", provider.OpenAIChat, []string{
			cChunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"},"custom":{"name":"f","input":"x"}}]}}`),
		}, []call{{Key: "choice0/tool0", ID: "call_1", Name: "f", Args: `{}`, Unreadable: customReason}}},
		{"a Chat call of a type to come", provider.OpenAIChat, []string{
			cChunk(`{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"teleport","teleport":{"to":"mars"}}]}}`),
		}, []call{{Key: "choice0/tool0", ID: "call_1", Unreadable: `The call is of type "teleport", not a function call with JSON arguments: toolgate cannot validate it.`}}},
	} {
		t.Run(c.p.String()+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			_, got := stream(t, c.p, c.events...)
			assert.Equal(t, c.want, got)
		})
	}
}

// TestUnreadableCopyOfAnEndedCall: a function call whose result was sent
// cannot be taken back, so a later copy of its item that is a custom tool
// call (which the client would run as such) ends the stream.
func TestUnreadableCopyOfAnEndedCall(t *testing.T) {
	t.Parallel()
	fn := `{"type":"function_call","id":"ctc_1","call_id":"call_1","name":"exec","arguments":"{}"}`
	streamFails(t, provider.OpenAIResponses, []string{
		rCreated(), rItem("added", "0", strings.Replace(fn, `"{}"`, `""`, 1)), rArgs("0", "ctc_1", `{}`), rItem("done", "0", fn),
		rCompleted(`{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"exec","input":"rm -rf /"}`),
	}, `item "ctc_1" is a "custom_tool_call", but it streamed as a function call`)
}
