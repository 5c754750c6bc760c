package provider

import (
	"encoding/json"
	"strings"
)

// anthropic adapts Anthropic Messages streams.
type anthropic struct {
	msg     int  // message number within the stream, for keys
	started bool // a message_start was seen
	// blocks counts the content blocks of the current message, as the
	// SDKs hold them: message_start's content, then one per
	// content_block_start. The SDKs append a started block whatever its
	// index and apply a delta to the block at its index, so a start whose
	// index is not the next position would make them read a block that
	// toolgate does not.
	blocks int
	// openText is 1 + the position of the message's open text block —
	// the last text block started, until its content_block_stop or the
	// message's end — or 0 when none is open: the one block whose
	// text_delta is read (see anthropic.textDelta).
	openText int
}

// anthropicBlock is a content block, in content_block_start or pre-populated
// in message_start.message.content.
type anthropicBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	Text  string          `json:"text"` // a text block's initial text
}

// isCall reports whether b is a tool call: tool_use, server_tool_use,
// mcp_tool_use, or any block that carries an input.
func (b *anthropicBlock) isCall() bool {
	return strings.HasSuffix(b.Type, "tool_use") || (len(b.Input) > 0 && string(b.Input) != "null")
}

type anthropicEvent struct {
	Index        *int           `json:"index"`
	ContentBlock anthropicBlock `json:"content_block"`
	Delta        struct {
		Type        string `json:"type"`
		PartialJSON string `json:"partial_json"`
		Text        string `json:"text"` // text_delta
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Message struct {
		Content []anthropicBlock `json:"content"`
	} `json:"message"`
}

// feed keys a call by message number and content-block index
// ("msg0/block1"): block indices count text blocks too and restart with
// every message_start. content_block_start opens a call (a second one for
// a block still open is the same call: the same name again or a Conflict), input_json_delta
// appends partial_json (the first is usually ""), content_block_stop ends it.
// Input that arrives whole — a non-empty content_block_start input
// (programmatic tool calling) or a tool_use pre-populated in
// message_start.message.content with no block events — is the call's text,
// compacted; a call from message_start begins and ends at once. The empty
// "{}" input that precedes deltas is a placeholder: it becomes the text only
// if no delta arrives at all, so a call whose only delta is "" has empty
// text. A message_delta with a stop_reason, message_stop and the next
// message_start end calls still open: a call cut off by max_tokens ends
// there with incomplete text.
//
// A message's text is one output ("output/<message number>"): the
// text_delta of all its text blocks (and any initial text of a block), in
// order, across tool calls; the message's end ends it, and a stop_reason
// but end_turn, tool_use and stop_sequence (max_tokens, pause_turn) cuts
// it. A stop_reason "refusal" is a Refusal. An error event ends every
// call and cuts every output.
//
// Keys follow the events' indices, and the SDKs place blocks by position
// (see anthropic.blocks) and have no notion of a stopped block: a
// content_block_start whose index is not the message's next position, an
// input_json_delta for a block that has not started, is no tool call or
// whose call has ended (see anthropic.input), or a text_delta for any
// block but the message's open text block (see anthropic.textDelta), is
// an *EventError that ends the stream, since the SDKs would read some
// call's input or the answer differently (or raise). Unlike other
// providers' late events, a delta for an ended call is not ignored.
// thinking_delta, signature_delta, citations_delta and delta types to
// come are never read, whatever block they name (one not started,
// stopped, or of another type): the SDKs apply them only to a thinking
// block's thinking and signature or a text block's citations, never to a
// tool's input or the answer's text, so they cannot make the SDKs run or
// parse other input or text than toolgate checks.
func (a *anthropic) feed(t *tracker, event []byte) error {
	typ, err := t.eventType(event)
	if err != nil {
		return err
	}
	switch typ {
	case "content_block_start", "content_block_delta", "content_block_stop",
		"message_start", "message_delta", "message_stop":
	case "error": // overloaded_error and the like: the SDKs raise on it
		t.abort("error")
		a.endMessage(t)
		return nil
	default:
		return nil // ping and types to come
	}
	var ev anthropicEvent
	if err := t.decode(event, &ev); err != nil {
		return err
	}
	switch typ {
	case "message_start":
		a.endMessage(t)
		if a.started {
			a.msg++
		}
		a.started = true
		a.blocks = len(ev.Message.Content)
		for i := range ev.Message.Content {
			if b := &ev.Message.Content[i]; b.Type == "text" {
				a.openText = i + 1
				a.text(t, b.Text)
			} else if b.isCall() {
				c := t.begin(a.key(i), b.ID, b.Name)
				c.fallback = compactJSON(b.Input)
				t.end(c)
			}
		}
	case "content_block_start":
		return a.start(t, ev.Index, &ev.ContentBlock)
	case "content_block_delta":
		if ev.Delta.Type != "text_delta" && ev.Delta.Type != "input_json_delta" {
			return nil // thinking_delta, signature_delta, citations_delta, …: never read
		}
		if ev.Index == nil {
			return t.errorf("", "content_block_delta without index")
		}
		if ev.Delta.Type == "text_delta" {
			return a.textDelta(t, *ev.Index, ev.Delta.Text)
		}
		return a.input(t, *ev.Index, ev.Delta.PartialJSON)
	case "content_block_stop":
		if ev.Index == nil {
			return t.errorf("", "content_block_stop without index")
		}
		if *ev.Index+1 == a.openText {
			a.openText = 0
		}
		if c := t.find(a.key(*ev.Index)); c != nil {
			t.end(c)
		}
	case "message_delta":
		if ev.Delta.StopReason == "refusal" {
			t.refuse(t.output(a.textBase(), a.msg), "")
		}
		if r := ev.Delta.StopReason; r != "" && r != "refusal" && !messageFinished(r) {
			t.cut("", r) // max_tokens, pause_turn, model_context_window_exceeded, …
		}
		if ev.Delta.StopReason != "" {
			a.endMessage(t)
		}
	case "message_stop":
		a.endMessage(t)
	}
	return nil
}

// start places a content_block_start's block b at the message's next
// position, where the SDKs append it. A start the adapter refuses — an
// index other than that position, or none for a tool call, whose key it
// is — is refused before anything changes, so the events after it are
// read as if it never came (see EventError).
func (a *anthropic) start(t *tracker, index *int, b *anthropicBlock) error {
	call := b.Type != "text" && b.isCall()
	switch {
	case index != nil && *index != a.blocks:
		return t.errorf("", "content_block_start has index %d, but it is block %d of the message, where the SDKs put it", *index, a.blocks)
	case index == nil && call:
		return t.errorf("", "content_block_start without index")
	}
	i := a.blocks
	a.blocks++
	switch {
	case b.Type == "text":
		a.openText = i + 1
		a.text(t, b.Text)
	case call:
		c := t.open(a.key(i), b.ID, b.Name)
		if c.fallback == "" {
			c.fallback = compactJSON(b.Input)
			c.placeholder = c.fallback == "{}"
		}
	}
	return nil
}

// input appends an input_json_delta's partial_json to the call of block
// i. The SDKs apply such a delta to the tool block at position i whether
// or not it stopped — they have no notion of a stopped block — and one
// for a block whose input came whole (in message_start or in
// content_block_start) replaces that input. So a delta for a block not
// started (the Python SDK raises), for a block that is no tool call (the
// SDKs drop it, toolgate would check a call they lack), or for a call
// that has ended (content_block_stop, the message's end) would have the
// SDKs read other input than toolgate checked: it is an *EventError that
// ends the stream, and changes nothing.
func (a *anthropic) input(t *tracker, i int, partial string) error {
	if i < 0 || i >= a.blocks {
		return t.errorf("", "input_json_delta for block %d, but the message has %d blocks", i, a.blocks)
	}
	c := t.calls[a.key(i)]
	switch {
	case c == nil:
		return t.errorf("", "input_json_delta for block %d, which is not a tool call", i)
	case c.ended:
		return t.errorf("", "input_json_delta for block %d, whose call has ended, where the SDKs would still apply it", i)
	}
	t.write(c, partial)
	return nil
}

// textDelta appends a text_delta's text to the message's output. The
// SDKs add it to the text of the block at position i, and only if that
// is a text block, keeping each block's text apart; toolgate's output is
// the message's text in the order it arrives. The two agree while every
// text_delta is for the open text block (see anthropic.openText), so one
// for any other block is an *EventError that ends the stream, and
// changes nothing: for a block not started (the Python SDK raises), for
// a thinking or tool block (the SDKs drop it), for a text block another
// text block has followed (the SDKs put it before that block's text), or
// for one that stopped or whose message ended (the Python SDK has parsed
// the block at its stop; toolgate has ended the output).
func (a *anthropic) textDelta(t *tracker, i int, s string) error {
	switch {
	case i < 0 || i >= a.blocks:
		return t.errorf("", "text_delta for block %d, but the message has %d blocks", i, a.blocks)
	case i+1 != a.openText:
		return t.errorf("", "text_delta for block %d, which is not the message's open text block", i)
	}
	a.text(t, s)
	return nil
}

// endMessage ends the message's calls and its output (message_delta with
// a stop_reason, message_stop, the next message_start, an error event):
// no text block is open after it.
func (a *anthropic) endMessage(t *tracker) {
	t.endAll()
	a.openText = 0
}

// text appends message text to the current message's output.
func (a *anthropic) text(t *tracker, s string) {
	if s != "" {
		t.write(t.output(a.textBase(), a.msg), s)
	}
}

func (a *anthropic) textBase() string { return numbered("msg", a.msg) + "/output" }

func (a *anthropic) key(index int) string {
	return numbered("msg", a.msg) + numbered("/block", index)
}

func (*anthropic) close(*tracker) {}
