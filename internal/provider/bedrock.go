package provider

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
	MessageStop *struct{} `json:"messageStop"`
}

// feed keys a call by contentBlockIndex ("block3"). contentBlockStart with
// start.toolUse opens it (toolUseId, name; a second start for a block still
// open is the same call, and another name a Conflict), contentBlockDelta with
// delta.toolUse appends its input string, contentBlockStop ends it. Text and
// reasoning blocks — which may have deltas and no start — are ignored.
// messageStart and messageStop end calls still open; metadata may come
// before or after messageStop. The delta.text of a message's text blocks is
// its output ("output/<message number>"), ended by messageStop;
// reasoningContent is never text.
func (b *bedrock) feed(t *tracker, event []byte) error {
	var ev bedrockEvent
	if err := t.decode(event, &ev); err != nil {
		return err
	}
	switch {
	case ev.MessageStart != nil:
		t.endAll()
		if b.started {
			b.msg++
		}
		b.started = true
	case ev.MessageStop != nil:
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
	}
	return nil
}

func (*bedrock) close(*tracker) {}
