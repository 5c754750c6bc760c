package provider_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/provider"
)

// rCreated is a response.created whose response's output holds items
// (JSON).
func rCreated(items ...string) string {
	return `{"type":"response.created","response":{"id":"resp_1","output":[` + strings.Join(items, ",") + `]}}`
}

// rAdded is a response.output_item.added at output_index at ("" for none)
// of an item of type typ with id: a function_call ("fc_...") names the
// tool of its call_id's suffix ("call_read": read).
func rAdded(at, typ, id string) string {
	index := ""
	if at != "" {
		index = `"output_index":` + at + `,`
	}
	item := `{"type":"` + typ + `","id":"` + id + `"}`
	if typ == "function_call" {
		name := id[strings.IndexByte(id, '_')+1:]
		item = `{"type":"function_call","id":"` + id + `","call_id":"call_` + name + `","name":"` + name + `","arguments":"","status":"in_progress"}`
	}
	return `{"type":"response.output_item.added",` + index + `"item":` + item + `}`
}

// rArgs is a response.function_call_arguments.delta for item id at
// output_index at ("" for none) with delta (a Go string).
func rArgs(at, id, delta string) string {
	index := ""
	if at != "" {
		index = `"output_index":` + at + `,`
	}
	return `{"type":"response.function_call_arguments.delta","item_id":"` + id + `",` + index + `"delta":` + quoteJSON(delta) + `}`
}

// TestResponsesAddedPositions: openai-python and openai-node append every
// response.output_item.added item to the response's output, of whatever
// type and whatever its output_index, and apply later events to the item
// at their output_index, while toolgate follows item ids; so an item added
// at another output_index than the number of items before it ends the
// stream. Before the fix, fc_read added at 1 and then fc_write at 0 were
// checked with the arguments of their own item_id, while openai-python's
// snapshot gave read, at position 0, the arguments streamed to
// output_index 0: write's /etc/shadow. A negative output_index, which
// the SDKs count from the end of the output, ends it too; it was read as
// none, so a delta for fc_read at -1 went to read, and to write (the
// last item) in the SDKs.
func TestResponsesAddedPositions(t *testing.T) {
	t.Parallel()
	read := call{Key: "fc_read", ID: "call_read", Name: "read", Args: `{"path":"/tmp/x"}`}
	runPositions(t, provider.OpenAIResponses, []positionCase{
		{"items added in the wrong order", []string{rCreated(), rAdded("1", "function_call", "fc_read"), rAdded("0", "function_call", "fc_write")},
			[]int{1}, []call{{Key: "fc_write", ID: "call_write", Name: "write"}}},
		{"an item added past the end", []string{rCreated(), rAdded("0", "function_call", "fc_read"), rAdded("2", "function_call", "fc_write"),
			rArgs("0", "fc_read", `{"path":"/tmp/x"}`)},
			[]int{2}, []call{read}},
		{"a call added at a reasoning item's place", []string{rCreated(), rAdded("0", "reasoning", "rs_1"), rAdded("0", "function_call", "fc_read")},
			[]int{2}, []call{}},
		{"a call added at a web search's place", []string{rCreated(), rAdded("0", "message", "msg_1"), rAdded("1", "web_search_call", "ws_1"),
			rAdded("1", "function_call", "fc_read")},
			[]int{3}, []call{}},
		{"an item added without output_index counts", []string{rCreated(), rAdded("", "message", "msg_1"), rAdded("0", "function_call", "fc_read")},
			[]int{2}, []call{}},
		{"an item of response.created's output counts", []string{rCreated(`{"type":"function_call","id":"fc_0","call_id":"c","name":"noop","arguments":""}`),
			rAdded("0", "function_call", "fc_read")},
			[]int{1}, []call{}},
		{"an item listed twice in response.created's output", []string{rCreated(), rAdded("0", "function_call", "fc_read"),
			rCreated(`{"type":"reasoning","id":"rs_1"}`, `{"type":"reasoning","id":"rs_1"}`), rArgs("0", "fc_read", `{"path":"/tmp/x"}`)},
			[]int{2}, []call{read}},
		{"an item added twice", []string{rCreated(), rAdded("0", "function_call", "fc_read"), rArgs("0", "fc_read", `{"path":`),
			rAdded("0", "function_call", "fc_read"), rAdded("1", "function_call", "fc_read"), rAdded("", "function_call", "fc_read"),
			rArgs("0", "fc_read", `"/tmp/x"}`)},
			[]int{3, 4, 5}, []call{read}},
		{"a call's delta at a reasoning item's place", []string{rCreated(), rAdded("0", "reasoning", "rs_1"), rArgs("0", "fc_read", `{"path":"/etc/shadow"}`)},
			[]int{2}, []call{}},
		{"a refused item is neither counted nor placed", []string{rCreated(), rAdded("1", "function_call", "fc_read"), rAdded("0", "function_call", "fc_read"),
			rArgs("0", "fc_read", `{"path":"/tmp/x"}`)},
			[]int{1}, []call{read}},
		{"a call's delta at output_index -1", []string{rCreated(), rAdded("0", "function_call", "fc_read"), rAdded("1", "function_call", "fc_write"),
			rArgs("-1", "fc_read", `{"path":"/etc/shadow"}`), rArgs("0", "fc_read", `{"path":"/tmp/x"}`)},
			[]int{3}, []call{read, {Key: "fc_write", ID: "call_write", Name: "write"}}},
		{"a message's text at output_index -1", []string{rCreated(), rAdded("0", "message", "msg_1"), rAdded("1", "function_call", "fc_read"),
			`{"type":"response.output_text.delta","item_id":"msg_1","output_index":-1,"content_index":0,"delta":"{}"}`},
			[]int{3}, []call{{Key: "fc_read", ID: "call_read", Name: "read"}}},
		{"an item added at output_index -1", []string{rCreated(), rAdded("-1", "function_call", "fc_read")}, []int{1}, []call{}},

		// What the SDKs read as toolgate does.
		{"items of every type, in order", []string{rCreated(), rAdded("0", "reasoning", "rs_1"), rAdded("1", "message", "msg_1"),
			rAdded("2", "function_call", "fc_read"), rAdded("3", "web_search_call", "ws_1"), rAdded("4", "function_call", "fc_write"),
			rArgs("4", "fc_write", `{"path":"/etc/shadow"}`), rArgs("2", "fc_read", `{"path":"/tmp/x"}`)},
			nil, []call{read, {Key: "fc_write", ID: "call_write", Name: "write", Args: `{"path":"/etc/shadow"}`}}},
		{"after response.created's items", []string{rCreated(`{"type":"reasoning","id":"rs_1"}`), rAdded("1", "function_call", "fc_read"),
			rArgs("1", "fc_read", `{"path":"/tmp/x"}`)},
			nil, []call{read}},
		{"without output_index", []string{rAdded("", "reasoning", "rs_1"), rAdded("", "function_call", "fc_read"), rArgs("", "fc_read", `{"path":"/tmp/x"}`),
			rArgs("1", "fc_read", ``)},
			nil, []call{read}},
		{"each response counts from 0", []string{rCreated(), rAdded("0", "function_call", "fc_read"), rArgs("0", "fc_read", `{"path":"/tmp/x"}`),
			`{"type":"response.completed","response":{"output":[]}}`, rCreated(), rAdded("0", "function_call", "fc_write")},
			nil, []call{read, {Key: "fc_write", ID: "call_write", Name: "write"}}},
	})
}
