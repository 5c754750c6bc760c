package provider

import "encoding/json"

// bedrock adapts AWS Bedrock ConverseStream events, one event-type wrapper
// per payload ({"contentBlockDelta": {...}}).
type bedrock struct {
	msg     int  // message number within the stream, for output keys
	started bool // a messageStart was seen
}

type bedrockEvent struct {
	MessageStart      *struct{} `json:"messageStart"`
	ContentBlockStart *struct {
		ContentBlockIndex *int `json:"contentBlockIndex"`
		Start             struct {
			ToolUse *struct {
				ToolUseID string `json:"toolUseId"`
				Name      string `json:"name"`
			} `json:"toolUse"`
		} `json:"start"`
	} `json:"contentBlockStart"`
	ContentBlockDelta *struct {
		ContentBlockIndex *int `json:"contentBlockIndex"`
		Delta             struct {
			ToolUse *struct {
				Input string `json:"input"`
			} `json:"toolUse"`
			Text string `json:"text"` // message text; reasoningContent is not read
		} `json:"delta"`
	} `json:"contentBlockDelta"`
	ContentBlockStop *struct {
		ContentBlockIndex *int `json:"contentBlockIndex"`
	} `json:"contentBlockStop"`
	MessageStop *struct {
		StopReason string `json:"stopReason"`
	} `json:"messageStop"`

	// The exceptions ConverseStream sends in place of an event once the
	// stream has begun; the SDKs raise on each.
	InternalServerException     *json.RawMessage `json:"internalServerException"`
	ModelStreamErrorException   *json.RawMessage `json:"modelStreamErrorException"`
	ValidationException         *json.RawMessage `json:"validationException"`
	ThrottlingException         *json.RawMessage `json:"throttlingException"`
	ServiceUnavailableException *json.RawMessage `json:"serviceUnavailableException"`

	// Members of a bare payload, the event without its event-type wrapper
	// (on the wire the type is the :event-type header): such an event
	// would otherwise pass as one that carries nothing, and its tool call
	// unseen.
	BareIndex      *json.RawMessage `json:"contentBlockIndex"`
	BareStart      *json.RawMessage `json:"start"`
	BareDelta      *json.RawMessage `json:"delta"`
	BareRole       *json.RawMessage `json:"role"`
	BareStopReason *json.RawMessage `json:"stopReason"`
}

// exception names the exception ev is, or is "" when it is none.
func (ev *bedrockEvent) exception() string {
	switch {
	case ev.InternalServerException != nil:
		return "internalServerException"
	case ev.ModelStreamErrorException != nil:
		return "modelStreamErrorException"
	case ev.ValidationException != nil:
		return "validationException"
	case ev.ThrottlingException != nil:
		return "throttlingException"
	case ev.ServiceUnavailableException != nil:
		return "serviceUnavailableException"
	}
	return ""
}

// bare reports whether ev has a member that only an event's payload has.
func (ev *bedrockEvent) bare() bool {
	return ev.BareIndex != nil || ev.BareStart != nil || ev.BareDelta != nil || ev.BareRole != nil || ev.BareStopReason != nil
}

// feed keys a call by contentBlockIndex ("block3"). contentBlockStart with
// start.toolUse opens it (toolUseId, name; a second start for a block still
// open is the same call, and another name a Conflict), contentBlockDelta with
// delta.toolUse appends its input string, contentBlockStop ends it. Text and
// reasoning blocks — which may have deltas and no start — are ignored.
// messageStart and messageStop end calls still open; metadata may come
// before or after messageStop. The delta.text of a message's text blocks is
// its output ("output/<message number>"), ended by messageStop, which cuts
// it for any stopReason but end_turn, tool_use and stop_sequence;
// reasoningContent is never text. An exception (modelStreamErrorException,
// throttlingException, …) ends every call and cuts every output. Any other
// wrapper (metadata) is ignored; an event with a payload's own members at its top
// level (contentBlockIndex, start, delta, role, stopReason) is an
// *EventError: it is a payload without its wrapper, whose type this adapter
// cannot know. So is an event with more than one member (see wrapped).
func (b *bedrock) feed(t *tracker, event []byte) error {
	var ev bedrockEvent
	if err := t.decode(event, &ev); err != nil {
		return err
	}
	if err := wrapped(t, event, &ev); err != nil {
		return err
	}
	switch {
	case ev.exception() != "":
		t.abort(ev.exception())
	case ev.MessageStart != nil:
		t.endAll()
		if b.started {
			b.msg++
		}
		b.started = true
	case ev.MessageStop != nil:
		if r := ev.MessageStop.StopReason; !messageFinished(r) {
			t.cut("", r) // max_tokens, guardrail_intervened, malformed_model_output, …
		}
		t.endAll()
	case ev.ContentBlockStart != nil:
		e := ev.ContentBlockStart
		if e.Start.ToolUse == nil {
			return nil
		}
		if e.ContentBlockIndex == nil {
			return t.errorf("", "contentBlockStart without contentBlockIndex")
		}
		t.open(numbered("block", *e.ContentBlockIndex), e.Start.ToolUse.ToolUseID, e.Start.ToolUse.Name)
	case ev.ContentBlockDelta != nil:
		e := ev.ContentBlockDelta
		if e.Delta.Text != "" {
			t.write(t.output(numbered("msg", b.msg)+"/output", b.msg), e.Delta.Text)
		}
		if e.Delta.ToolUse == nil {
			return nil
		}
		if e.ContentBlockIndex == nil {
			return t.errorf("", "contentBlockDelta without contentBlockIndex")
		}
		if c := t.follow(numbered("block", *e.ContentBlockIndex)); c != nil {
			t.write(c, e.Delta.ToolUse.Input)
		}
	case ev.ContentBlockStop != nil:
		e := ev.ContentBlockStop
		if e.ContentBlockIndex == nil {
			return t.errorf("", "contentBlockStop without contentBlockIndex")
		}
		if c := t.find(numbered("block", *e.ContentBlockIndex)); c != nil {
			t.end(c)
		}
	case ev.bare():
		return t.errorf("", bareError)
	}
	return nil
}

// wrapped checks that event, decoded as ev, is one payload in the one
// member that names its type, as the SDKs (boto3, aws-sdk-js) yield a
// ConverseStream event: one union member per event. An event with more
// members — a messageStop and a contentBlockDelta side by side — has
// clients that test the members in different orders read different
// payloads, one ending the call, another appending to its input, so it
// is an *EventError without Key, named or not; a payload without its
// wrapper is refused as one (see feed). A named event must be wrapped in
// the member of its name.
func wrapped(t *tracker, event []byte, ev *bedrockEvent) error {
	n := t.strict.members // decode has counted them
	switch {
	case t.name != "":
		var wrapper map[string]json.RawMessage
		_ = json.Unmarshal(event, &wrapper) // decode has read it
		if _, ok := wrapper[t.name]; n != 1 || !ok {
			return t.errorf("", "the event is named %s, but that is not the one member wrapping its payload", quoteName(t.name))
		}
	case n > 1 && ev.bare():
		return t.errorf("", bareError)
	case n > 1:
		return t.errorf("", "the event has %d members, but the SDKs yield one payload per event, wrapped in the member that names its type: clients that test the members in different orders would read different payloads", n)
	}
	return nil
}

// bareError is the reason an event that is a bare payload is refused.
const bareError = `event is a payload without its event-type wrapper: send it as the SDK yields it, like {"contentBlockDelta": {...}}`

func (*bedrock) close(*tracker) {}
