package provider

// cohere adapts Cohere v2 chat streams.
type cohere struct {
	msg     int  // message number within the stream, for output keys
	started bool // a message-start was seen
}

type cohereEvent struct {
	Index *int `json:"index"`
	Delta struct {
		Message struct {
			// Content is a content-start or content-delta's piece of the
			// message; a thinking piece has no text.
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
			ToolCalls struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"` // message-end's
	} `json:"delta"`
}

// feed keys a call by index ("call0"). tool-call-start opens it with id and
// name (a second start for an index still open is the same call, and
// another name a Conflict) and appends its function.arguments (normally ""), tool-call-delta
// appends, tool-call-end ends it; a call without parameters has a start and
// an end and no delta, so its text is empty. message-start and message-end
// end calls still open. The text of a message's content-start and
// content-delta events (all its content blocks, in order) is its output
// ("output/<message number>"), ended by message-end, which cuts it for any
// finish_reason but COMPLETE, STOP_SEQUENCE and TOOL_CALL; a thinking
// block and the tool plan are never text.
func (co *cohere) feed(t *tracker, event []byte) error {
	typ, err := t.eventType(event)
	if err != nil {
		return err
	}
	switch typ {
	case "message-start":
		t.endAll()
		if co.started {
			co.msg++
		}
		co.started = true
		return nil
	case "message-end":
		var ev cohereEvent
		if err := t.decode(event, &ev); err != nil {
			return err
		}
		switch r := ev.Delta.FinishReason; r {
		case "COMPLETE", "STOP_SEQUENCE", "TOOL_CALL":
		default:
			t.cut("", r) // MAX_TOKENS, ERROR, TIMEOUT, …
		}
		t.endAll()
		return nil
	case "tool-call-start", "tool-call-delta", "tool-call-end", "content-start", "content-delta":
	default:
		return nil
	}
	var ev cohereEvent
	if err := t.decode(event, &ev); err != nil {
		return err
	}
	if typ == "content-start" || typ == "content-delta" {
		if text := ev.Delta.Message.Content.Text; text != "" {
			t.write(t.output(numbered("msg", co.msg)+"/output", co.msg), text)
		}
		return nil
	}
	if ev.Index == nil {
		return t.errorf("", "%s without index", typ)
	}
	base := numbered("call", *ev.Index)
	tc := &ev.Delta.Message.ToolCalls
	switch typ {
	case "tool-call-start":
		t.write(t.open(base, tc.ID, tc.Function.Name), tc.Function.Arguments)
	case "tool-call-delta":
		if c := t.follow(base); c != nil {
			t.write(c, tc.Function.Arguments)
		}
	case "tool-call-end":
		if c := t.find(base); c != nil {
			t.end(c)
		}
	}
	return nil
}

func (*cohere) close(*tracker) {}
