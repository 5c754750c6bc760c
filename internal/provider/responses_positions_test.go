package provider_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

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

// TestResponsesItemIDsAreApart: a message item's answer and an item keyed
// by its id are apart, whatever the ids spell. The answer of message "m"
// was kept under "text/m", where a function_call item with the id
// "text/m" is kept too: the message's output_text deltas were appended to
// that call's arguments ({"cmd":"rm -rf /" and "tmp/x" passed as
// {"cmd":"rm -rf /tmp/x"}, where the SDKs run "rm -rf /"), and an
// unreadable item with that id was given to the answer.
func TestResponsesItemIDsAreApart(t *testing.T) {
	t.Parallel()
	const (
		msgAdded = `{"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"m","content":[]}}`
		msgText  = `{"type":"response.output_text.delta","output_index":1,"item_id":"m","content_index":0,"delta":"tmp/x"}`
		msgDone  = `{"type":"response.output_item.done","output_index":1,"item":{"type":"message","id":"m","status":"completed","content":[{"type":"output_text","text":"tmp/x"}]}}`
	)
	for _, c := range []struct {
		name    string
		events  []string
		calls   []call
		outputs []output
	}{
		{
			name: "a call's arguments and a message's text",
			events: []string{rCreated(),
				`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"text/m","call_id":"c","name":"run","arguments":""}}`,
				msgAdded,
				rArgs("0", "text/m", `{"cmd":"rm -rf /`),
				msgText,
				rArgs("0", "text/m", `"}`),
				msgDone,
				rCompleted(""),
			},
			calls:   []call{{Key: "text/m", ID: "c", Name: "run", Args: `{"cmd":"rm -rf /"}`}},
			outputs: []output{{Key: "output/1", Text: "tmp/x"}},
		},
		{
			name: "an unreadable item and a message's text",
			events: []string{rCreated(),
				rItem("added", "0", `{"type":"custom_tool_call","id":"text/m","call_id":"c","name":"sh","input":""}`),
				msgAdded,
				msgText,
				msgDone,
			},
			calls:   []call{{Key: "text/m", ID: "c", Name: "sh", Unreadable: customReason}},
			outputs: []output{{Key: "output/1", Text: "tmp/x"}},
		},
		{
			name: "a message's text, then a call's arguments",
			events: []string{rCreated(),
				rItem("added", "0", `{"type":"message","id":"m","content":[]}`),
				`{"type":"response.output_text.delta","output_index":0,"item_id":"m","content_index":0,"delta":"{}"}`,
				rArgs("1", "text/m", `{}`),
				rCompleted(`{"type":"message","id":"m","status":"completed","content":[{"type":"output_text","text":"{}"}]}`),
			},
			calls:   []call{{Key: "text/m", Args: `{}`}},
			outputs: []output{{Key: "output/0", Text: "{}"}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, ck := streamChecked(t, provider.OpenAIResponses, c.events...)
			assert.Equal(t, c.calls, ck.result())
			assert.Equal(t, c.outputs, ck.texts())
		})
	}
}
