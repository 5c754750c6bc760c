package provider_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/provider"
)

// Anthropic events for the tests below: the SDKs (anthropic-sdk-python's
// accumulate_event, anthropic-sdk-typescript's MessageStream) place a
// content block by its position in the message and apply a delta to the
// block at its index, whatever state toolgate keeps for it.
const aMsgStart = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`

// aStart is a content_block_start at index i ("" for none) of a block
// given as JSON.
func aStart(i, block string) string {
	if i == "" {
		return `{"type":"content_block_start","content_block":` + block + `}`
	}
	return `{"type":"content_block_start","index":` + i + `,"content_block":` + block + `}`
}

// aTool is a tool_use block named name with input (JSON).
func aTool(name, input string) string {
	return `{"type":"tool_use","id":"toolu_` + name + `","name":"` + name + `","input":` + input + `}`
}

// aDelta is a content_block_delta at index i ("" for none) of delta type
// typ whose field (partial_json, text, ...) holds value, a Go string.
func aDelta(i, typ, field, value string) string {
	at := ""
	if i != "" {
		at = `"index":` + i + `,`
	}
	return `{"type":"content_block_delta",` + at + `"delta":{"type":"` + typ + `","` + field + `":` + strconv.Quote(value) + `}}`
}

// aInput is an input_json_delta, aText a text_delta, for block i.
func aInput(i, partial string) string { return aDelta(i, "input_json_delta", "partial_json", partial) }
func aText(i, text string) string     { return aDelta(i, "text_delta", "text", text) }

// aStop is a content_block_stop for block i.
func aStop(i string) string { return `{"type":"content_block_stop","index":` + i + `}` }

// feedRefusing is feedRefusingAs for an Anthropic adapter and one refused
// event.
func feedRefusing(t *testing.T, events []string, refused int) ([]call, []output) {
	t.Helper()
	return feedRefusingAs(t, provider.Anthropic, events, []int{refused})
}

// TestAnthropicRefusalLeavesState: an event the adapter refuses without
// a Key changes nothing (see EventError), so the stream's next events
// are read as if it never came. A content_block_start without index for
// a tool call used to count a block before it was refused, so the valid
// start at index 0 that followed was refused as block 1.
func TestAnthropicRefusalLeavesState(t *testing.T) {
	t.Parallel()
	read := aTool("read", `{}`)
	for _, tc := range []struct {
		name    string
		events  []string
		refused int // the index of the refused event
		want    []call
	}{
		{"a tool call's start without index", []string{aMsgStart, aStart("", read), aStart("0", read), aInput("0", `{"path":"/tmp/x"}`), aStop("0")}, 1,
			[]call{{Key: "msg0/block0", ID: "toolu_read", Name: "read", Args: `{"path":"/tmp/x"}`}}},
		{"a start at the wrong index", []string{aMsgStart, aStart("1", read), aStart("0", read), aStop("0")}, 1,
			[]call{{Key: "msg0/block0", ID: "toolu_read", Name: "read", Args: `{}`}}},
		{"a delta without index", []string{aMsgStart, aStart("0", read), aInput("", `{"a":1}`), aInput("0", `{}`), aStop("0")}, 2,
			[]call{{Key: "msg0/block0", ID: "toolu_read", Name: "read", Args: `{}`}}},
		{"a delta for a block not started", []string{aMsgStart, aStart("0", read), aInput("1", `{"a":1}`), aInput("0", `{}`), aStop("0")}, 2,
			[]call{{Key: "msg0/block0", ID: "toolu_read", Name: "read", Args: `{}`}}},
		{"a stop without index", []string{aMsgStart, aStart("0", read), `{"type":"content_block_stop"}`, aInput("0", `{}`), aStop("0")}, 2,
			[]call{{Key: "msg0/block0", ID: "toolu_read", Name: "read", Args: `{}`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, _ := feedRefusing(t, tc.events, tc.refused)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestAnthropicInputDeltaTargets: an input_json_delta is applied by the
// SDKs to the tool block at its index whether or not that block stopped,
// and replaces an input that came whole (json_buf is empty), so their
// final message — the one a tool runner executes — would hold input that
// toolgate never checked. A delta for a call that has ended, for a block
// that is no tool call, or for a block not started ends the stream.
// Before the fix a delta for an ended call was ignored (the call kept
// {} or its whole input) and one for a text, thinking or result block
// began a nameless call the SDKs lack.
func TestAnthropicInputDeltaTargets(t *testing.T) {
	t.Parallel()
	shadow := `{"path":"/etc/shadow"}`
	thinking := `{"type":"thinking","thinking":"","signature":""}`
	for _, tc := range []struct {
		name   string
		events []string // the last one is refused
		reason string
	}{
		{"after the stop of a call with the {} placeholder", []string{aMsgStart, aStart("0", aTool("read", `{}`)), aStop("0"), aInput("0", shadow)},
			"input_json_delta for block 0, whose call has ended"},
		{"after the stop of a call whose input came whole", []string{aMsgStart, aStart("0", aTool("read", `{"path":"/tmp/ok"}`)), aStop("0"), aInput("0", shadow)},
			"whose call has ended"},
		{"after the stop of a streamed call", []string{aMsgStart, aStart("0", aTool("read", `{}`)), aInput("0", `{"path":`), aInput("0", `"/tmp/ok"}`), aStop("0"), aInput("0", `,"x":1`)},
			"whose call has ended"},
		{"for a call pre-populated in message_start", []string{
			`{"type":"message_start","message":{"content":[{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"/tmp/ok"}}]}}`, aInput("0", shadow)},
			"input_json_delta for block 0, whose call has ended"},
		{"after a max_tokens message_delta ended the call", []string{aMsgStart, aStart("0", aTool("read", `{}`)), aInput("0", `{"path":"/tmp`),
			`{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":5}}`, aInput("0", `/ok"}`)},
			"whose call has ended"},
		{"after message_stop", []string{aMsgStart, aStart("0", aTool("read", `{}`)), aInput("0", `{}`), `{"type":"message_stop"}`, aInput("0", shadow)},
			"whose call has ended"},
		{"after an error event", []string{aMsgStart, aStart("0", aTool("read", `{}`)), `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, aInput("0", shadow)},
			"whose call has ended"},
		{"for a text block", []string{aMsgStart, aStart("0", `{"type":"text","text":""}`), aInput("0", shadow)},
			"input_json_delta for block 0, which is not a tool call"},
		{"for a thinking block", []string{aMsgStart, aStart("0", thinking), aInput("0", shadow)},
			"which is not a tool call"},
		{"for a server tool's result block", []string{aMsgStart, aStart("0", `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}`), aInput("0", shadow)},
			"which is not a tool call"},
		{"for message_start's text block", []string{`{"type":"message_start","message":{"content":[{"type":"text","text":"Hi"}]}}`, aInput("0", shadow)},
			"which is not a tool call"},
		{"for a block not started", []string{aMsgStart, aStart("0", aTool("read", `{}`)), aInput("1", shadow)},
			"input_json_delta for block 1, but the message has 1 blocks"},
		{"for a negative index", []string{aMsgStart, aStart("0", aTool("read", `{}`)), aInput("-1", shadow)},
			"input_json_delta for block -1, but the message has 1 blocks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			streamFails(t, provider.Anthropic, tc.events, tc.reason)
		})
	}
	// The call that ended keeps what was checked: the refused delta adds
	// nothing to it.
	got, _ := feedRefusing(t, []string{aMsgStart, aStart("0", aTool("read", `{}`)), aStop("0"), aInput("0", shadow), `{"type":"message_stop"}`}, 3)
	assert.Equal(t, []call{{Key: "msg0/block0", ID: "toolu_read", Name: "read", Args: `{}`}}, got)
}

// TestAnthropicTextDeltaTargets: the SDKs add a text_delta to the block
// at its index only if that is a text block, and keep each block's text
// apart, while toolgate's output is the message's text in arrival order;
// before the fix every text_delta was taken as answer text whatever block
// it named. A text_delta is now read only for the message's open text
// block (the last text block started, not stopped, in a message not
// ended); any other ends the stream.
func TestAnthropicTextDeltaTargets(t *testing.T) {
	t.Parallel()
	text := `{"type":"text","text":""}`
	thinking := `{"type":"thinking","thinking":"","signature":""}`
	endTurn := `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`
	for _, tc := range []struct {
		name   string
		events []string // the last one is refused
		reason string
	}{
		{"for a thinking block", []string{aMsgStart, aStart("0", text), aText("0", `{"a":"`), aStart("1", thinking), aText("1", "safe")},
			"text_delta for block 1, which is not the message's open text block"},
		{"for a tool_use block", []string{aMsgStart, aStart("0", aTool("read", `{}`)), aText("0", `{"a":"safe"}`)},
			"text_delta for block 0, which is not the message's open text block"},
		{"for a block not started", []string{aMsgStart, aText("7", `{}`)},
			"text_delta for block 7, but the message has 0 blocks"},
		{"for a negative index", []string{aMsgStart, aStart("0", text), aText("-1", `{}`)},
			"text_delta for block -1, but the message has 1 blocks"},
		{"without index", []string{aMsgStart, aStart("0", text), aText("", `{}`)},
			"content_block_delta without index"},
		{"without any block event", []string{aText("0", `{}`)},
			"text_delta for block 0, but the message has 0 blocks"},
		{"for a text block that stopped", []string{aMsgStart, aStart("0", text), aText("0", `{"a":1}`), aStop("0"), aText("0", ` `)},
			"text_delta for block 0, which is not the message's open text block"},
		{"for a text block another has followed", []string{aMsgStart, aStart("0", text), aStart("1", text), aText("1", `2`), aText("0", `1`)},
			"text_delta for block 0, which is not the message's open text block"},
		{"for message_start's text block, after a text block started", []string{
			`{"type":"message_start","message":{"content":[{"type":"text","text":"{"}]}}`, aStart("1", text), aText("0", `}`)},
			"text_delta for block 0, which is not the message's open text block"},
		{"after message_delta", []string{aMsgStart, aStart("0", text), aText("0", `{}`), endTurn, aText("0", ` `)},
			"text_delta for block 0, which is not the message's open text block"},
		{"after message_stop", []string{aMsgStart, aStart("0", text), aText("0", `{}`), `{"type":"message_stop"}`, aText("0", ` `)},
			"text_delta for block 0, which is not the message's open text block"},
		{"after an error event", []string{aMsgStart, aStart("0", text), aText("0", `{}`), `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, aText("0", ` `)},
			"text_delta for block 0, which is not the message's open text block"},
		{"for the last message's block, in the next message", []string{aMsgStart, aStart("0", text), aText("0", `{}`), aMsgStart, aText("0", ` `)},
			"text_delta for block 0, but the message has 0 blocks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			streamFails(t, provider.Anthropic, tc.events, tc.reason)
		})
	}
	// The refused fragment is not text: the SDK's block 0 reads {"a":""}.
	_, outs := feedRefusing(t, []string{aMsgStart, aStart("0", text), aText("0", `{"a":"`), aStart("1", thinking), aText("1", "safe"),
		aText("0", `"}`), aStop("0"), aStop("1"), endTurn, `{"type":"message_stop"}`}, 4)
	assert.Equal(t, []output{{Key: "output/0", Text: `{"a":""}`}}, outs)
}

// TestAnthropicTextDeltaRead: the text_deltas that are read, as the SDKs
// read them: for a text block started by content_block_start (its index
// may be absent: the SDKs place it by position), for a text block that
// message_start holds, and for the open text block while a tool call
// streams after it (the SDKs add it to that block, before no other text).
func TestAnthropicTextDeltaRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		events []string
		want   string
	}{
		{"a started text block", []string{aMsgStart, aStart("0", `{"type":"text","text":"{"}`), aText("0", `"a":1`), aText("0", `}`), aStop("0")}, `{"a":1}`},
		{"a text block started without index", []string{aMsgStart, aStart("", `{"type":"text","text":""}`), aText("0", `[]`)}, `[]`},
		{"message_start's text block", []string{`{"type":"message_start","message":{"content":[{"type":"text","text":"["}]}}`, aText("0", `]`)}, `[]`},
		{"the open text block while a call streams", []string{aMsgStart, aStart("0", `{"type":"text","text":""}`), aText("0", `{"a":`),
			aStart("1", aTool("read", `{}`)), aInput("1", `{}`), aText("0", `1}`), aStop("1"), aStop("0")}, `{"a":1}`},
		{"text blocks joined across a call", []string{aMsgStart, aStart("0", `{"type":"text","text":""}`), aText("0", `{"a":`), aStop("0"),
			aStart("1", aTool("read", `{}`)), aStop("1"), aStart("2", `{"type":"text","text":""}`), aText("2", `1}`), aStop("2")}, `{"a":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, ck := streamChecked(t, provider.Anthropic, tc.events...)
			assert.Equal(t, []output{{Key: "output/0", Text: tc.want}}, ck.texts())
		})
	}
}

// TestAnthropicUnreadDeltas: thinking_delta, signature_delta,
// citations_delta and delta types to come are never read, whatever block
// they name — one not started, stopped, or of another type: the SDKs
// apply them only to a thinking block's thinking and signature or a text
// block's citations, none of which is a tool's input or the answer's
// text, so no reading of them changes what toolgate checks. They are
// accepted and produce nothing.
func TestAnthropicUnreadDeltas(t *testing.T) {
	t.Parallel()
	thinking := `{"type":"thinking","thinking":"","signature":""}`
	citation := `{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"x","document_index":0,"start_char_index":0,"end_char_index":1}}}`
	for _, tc := range []struct {
		name   string
		events []string // the last one is checked
	}{
		{"thinking_delta for a thinking block that stopped", []string{aMsgStart, aStart("0", thinking), aStop("0"), aDelta("0", "thinking_delta", "thinking", "x")}},
		{"signature_delta for a thinking block that stopped", []string{aMsgStart, aStart("0", thinking), aStop("0"), aDelta("0", "signature_delta", "signature", "x")}},
		{"thinking_delta for a block not started", []string{aMsgStart, aDelta("3", "thinking_delta", "thinking", "x")}},
		{"signature_delta for a tool call", []string{aMsgStart, aStart("0", aTool("read", `{}`)), aDelta("0", "signature_delta", "signature", "x")}},
		{"citations_delta for a text block that stopped", []string{aMsgStart, aStart("0", `{"type":"text","text":""}`), aStop("0"), citation}},
		{"a delta type to come, after the message", []string{aMsgStart, `{"type":"message_stop"}`, aDelta("0", "future_delta", "data", "x")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			per, _ := stream(t, provider.Anthropic, tc.events...)
			assert.Empty(t, per[len(tc.events)-1], "the delta produces nothing")
		})
	}
}
