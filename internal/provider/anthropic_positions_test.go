package provider_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// feedRefusing feeds events to a new Anthropic adapter: the one at
// refused must be an *EventError without Key that produced no event,
// every other one must be accepted. It returns the calls and outputs
// assembled after Close.
func feedRefusing(t *testing.T, events []string, refused int) ([]call, []output) {
	t.Helper()
	a, err := provider.New(provider.Anthropic)
	require.NoError(t, err)
	ck := newChecker()
	for i, e := range events {
		evs, err := a.Feed(nil, []byte(e))
		if i != refused {
			require.NoError(t, err, "event %d: %s", i, e)
			require.NoError(t, ck.add(evs), "event %d", i)
			continue
		}
		var ee *provider.EventError
		require.ErrorAs(t, err, &ee, "event %d: %s", i, e)
		assert.Empty(t, ee.Key, "event %d is refused whole", i)
		assert.Empty(t, evs, "event %d", i)
	}
	require.NoError(t, ck.add(a.Close(nil)), "close")
	return ck.result(), ck.texts()
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
