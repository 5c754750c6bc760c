package provider

import (
	"encoding/json"
	"reflect"
)

// openAIChat adapts OpenAI Chat Completions chunks ("chat.completion.chunk")
// and those of OpenAI-compatible servers.
type openAIChat struct{}

type chatChunk struct {
	// Error is what OpenAI-compatible servers (vLLM, LiteLLM, OpenRouter)
	// send in place of a chunk when generation fails mid-stream;
	// openai-python raises on it.
	Error   json.RawMessage `json:"error"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			// Content is the message text (null while the model calls
			// tools); Refusal the refusal text of a structured-output
			// request. reasoning_content and reasoning are not read.
			Content   *chatContent `json:"content"`
			Refusal   *string      `json:"refusal"`
			ToolCalls []struct {
				Index    *int   `json:"index"` // Mistral omits it
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
			// FunctionCall is the legacy single-function form (the
			// "functions" API) that older OpenAI-compatible servers still
			// stream: a name first, then argument fragments.
			FunctionCall *struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function_call"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
}

// chatContent is a delta's content: a string, or, from Mistral's
// reasoning models, an array of typed parts, whose "text" parts are the
// answer's text, in order ("thinking" and any other part is not text).
type chatContent struct{ text string }

// UnmarshalJSON reads content in either form.
func (c *chatContent) UnmarshalJSON(b []byte) error {
	if i := firstByte(b); i < 0 || b[i] != '[' {
		return json.Unmarshal(b, &c.text)
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	if err := checkStrict(b, reflect.TypeOf(parts)); err != nil {
		return err
	}
	for _, p := range parts {
		if p.Type == "text" {
			c.text += p.Text
		}
	}
	return nil
}

// feed keys a call by choice index and tool_calls[].index ("choice0/tool1");
// a tool_calls entry without index is keyed by its position in the array. An
// entry with a non-empty id begins a new call when the call at its key has
// ended, or when its id differs from that call's and it names a tool; with
// another id and no name it continues the call (some servers change the id
// after a call's first entry; clients group entries by index). Name and id
// are taken from the first entry that carries them; later empty or repeated
// names (GLM sends "name": "") change nothing, and a different name is a
// Conflict (see the package doc: clients disagree on how to join name
// fragments). A choice's finish_reason ends all of that
// choice's calls, after the tool_calls of the same chunk (Groq, xAI and
// Mistral send a whole call in one chunk, Mistral together with the
// finish_reason). A chunk without choices (the usage chunk) is ignored.
// The legacy delta.function_call form is one call per choice, keyed
// "choice0/function", with no call id. A choice's delta.content is its
// output's text ("output/<choice index>") and delta.refusal a Refusal; the
// finish_reason ends the output too, and any reason but stop, tool_calls
// and function_call cuts it (see chatFinished). reasoning_content and reasoning are never text. A chunk
// with an error member, or an event named "error", ends every call and
// cuts every output, as Responses' response.failed does.
func (*openAIChat) feed(t *tracker, event []byte) error {
	if t.name == "error" {
		// Groq names its mid-stream error "error" (tool_use_failed):
		// openai-node raises on that name whatever the payload, and
		// openai-python on the payload's error member.
		t.abort("error")
		return nil
	}
	var ev chatChunk
	if err := t.decode(event, &ev); err != nil {
		return err
	}
	if len(ev.Error) > 0 && string(ev.Error) != "null" {
		t.abort("error")
		return nil
	}
	for _, ch := range ev.Choices {
		prefix := numbered("choice", ch.Index) + "/"
		if d := &ch.Delta; (d.Content != nil && d.Content.text != "") || (d.Refusal != nil && *d.Refusal != "") {
			out := t.output(prefix+"output", ch.Index)
			if d.Content != nil {
				t.write(out, d.Content.text)
			}
			if d.Refusal != nil && *d.Refusal != "" {
				t.refuse(out, *d.Refusal)
			}
		}
		for pos, tc := range ch.Delta.ToolCalls {
			if tc.Index != nil {
				pos = *tc.Index
			}
			base := numbered(prefix+"tool", pos)
			var c *call
			if prev := t.calls[base]; tc.ID != "" && (prev == nil || prev.ended || (prev.id != "" && prev.id != tc.ID && tc.Function.Name != "")) {
				c = t.begin(base, tc.ID, tc.Function.Name)
			} else if c = t.follow(base); c == nil {
				continue // a late fragment of a call that has ended
			} else {
				t.identify(c, tc.ID, tc.Function.Name)
			}
			t.write(c, tc.Function.Arguments)
		}
		if fc := ch.Delta.FunctionCall; fc != nil {
			base := prefix + "function"
			var c *call
			if fc.Name != "" && t.find(base) == nil {
				c = t.begin(base, "", fc.Name)
			} else if c = t.follow(base); c == nil {
				continue
			} else {
				t.identify(c, "", fc.Name)
			}
			t.write(c, fc.Arguments)
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			if r := *ch.FinishReason; !chatFinished(r) {
				t.cut(prefix, r)
			}
			t.endGroup(prefix)
		}
	}
	return nil
}

// chatFinished reports whether a choice's finish_reason means the model
// finished its answer. Any other reason — length, content_filter, and
// those of compatible servers (DeepSeek's insufficient_system_resource,
// abort, error) — stopped it.
func chatFinished(reason string) bool {
	return reason == "stop" || reason == "tool_calls" || reason == "function_call"
}

func (*openAIChat) close(*tracker) {}
