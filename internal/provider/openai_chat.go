package provider

import (
	"cmp"
	"encoding/json"
	"reflect"
	"strconv"
)

// openAIChat adapts OpenAI Chat Completions chunks ("chat.completion.chunk")
// and those of OpenAI-compatible servers.
type openAIChat struct {
	// tools mirrors the lists that openai-python's stream helper keeps by
	// position (see order): len(tools) is the number of choices in its
	// snapshot, tools[i] the number of tool calls in choice i's message.
	tools []int
	// undo holds, for the chunk being checked, each choice's tool-call
	// count before the chunk changed it, so that a refused chunk changes
	// nothing.
	undo []chatCount
	// cuts holds, for each choice a finish_reason has cut, the first such
	// reason (see finish): at most one entry per choice that tools counts.
	cuts map[int]string
	// completion is the id of the completion the chunks read last belong
	// to, and prefix begins the keys of its calls and outputs: "" for the
	// stream's first, "completion<n>/" for the n-th begun after a "[DONE]"
	// (see begins).
	completion, prefix string
	restarts           int
	// seq numbers the choice entries that late has checked, over the
	// stream's life, and finished holds, for each choice, the seq of the
	// last entry whose finish_reason ended it (see late).
	seq      int
	finished []int
}

// chatCount is the number of tool calls of one choice.
type chatCount struct{ choice, tools int }

type chatChunk struct {
	// Error is what OpenAI-compatible servers (vLLM, LiteLLM, OpenRouter)
	// send in place of a chunk when generation fails mid-stream;
	// openai-python raises on it.
	Error json.RawMessage `json:"error"`
	// ID is the completion's, the same on each of its chunks.
	ID      string `json:"id"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			// Content is the message text (null while the model calls
			// tools); Refusal the refusal text of a structured-output
			// request. reasoning_content and reasoning are not read.
			Content   *chatContent   `json:"content"`
			Refusal   *string        `json:"refusal"`
			ToolCalls []chatToolCall `json:"tool_calls"`
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

// chatToolCall is one entry of a delta's tool_calls.
type chatToolCall struct {
	Index    *int   `json:"index"` // Mistral omits it
	ID       string `json:"id"`
	Type     string `json:"type"` // "function" (often left out after the first entry) or "custom"
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	// Custom is a custom tool's call: its name, and its input, free text
	// (not read).
	Custom *struct {
		Name string `json:"name"`
	} `json:"custom"`
}

// unreadable says why the entry's call cannot be validated, or is "" for
// a function call: a custom tool's call (type "custom", or a custom
// member, whatever its type says) has free text for input, and a type
// that is neither "function" nor "custom" is no call toolgate knows how
// to read, so it fails closed, as a call a client runs.
func (tc *chatToolCall) unreadable() string {
	switch {
	case tc.Type == "custom" || tc.Custom != nil:
		return customToolReason
	case tc.Type != "" && tc.Type != "function":
		return "The call is of type " + quoteName(tc.Type) + ", not a function call with JSON arguments: toolgate cannot validate it."
	}
	return ""
}

// names reports whether the entry names its tool, as a function or a
// custom tool.
func (tc *chatToolCall) names() bool {
	return tc.Function.Name != "" || (tc.Custom != nil && tc.Custom.Name != "")
}

// customName is the custom tool the entry names, or "".
func (tc *chatToolCall) customName() string {
	if tc.Custom == nil {
		return ""
	}
	return tc.Custom.Name
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
// fragments). A custom tool's call (type "custom", its name and free-text
// input in a custom member), or an entry of a type toolgate does not know,
// is Unreadable (see chatToolCall.unreadable): a client runs it, and no
// JSON arguments of it can be validated. A choice's finish_reason ends all of that
// choice's calls, after the tool_calls of the same chunk (Groq, xAI and
// Mistral send a whole call in one chunk, Mistral together with the
// finish_reason). A chunk whose choices or tool calls openai-python would
// place elsewhere than their indices is refused whole (see order), and so
// is one with an entry that openai-python would apply to a call that has
// ended, making it another call than toolgate checked (see late); other
// entries for an ended call are ignored. A chunk without choices (the
// usage chunk) is ignored.
// The legacy delta.function_call form is one call per choice, keyed
// "choice0/function", with no call id. A choice's delta.content is its
// output's text ("output/<choice index>") and delta.refusal a Refusal;
// the choice's finish_reason does not end the output, which is all the
// choice's text, before and after it, up to the stream's end (see
// finish), but any reason but stop, tool_calls and function_call cuts it
// (see chatFinished). reasoning_content and reasoning are never text. A
// chunk with an error member, or an event named "error", ends every call
// and cuts every output, as Responses' response.failed does.
func (a *openAIChat) feed(t *tracker, event []byte) error {
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
	had := len(a.tools)
	if err := a.order(t, &ev); err != nil {
		return err
	}
	if err := a.late(t, &ev); err != nil {
		a.unorder(had)
		return err
	}
	if ev.ID != "" {
		a.completion = ev.ID
	}
	for _, ch := range ev.Choices {
		prefix := a.prefix + numbered("choice", ch.Index) + "/"
		if d := &ch.Delta; (d.Content != nil && d.Content.text != "") || (d.Refusal != nil && *d.Refusal != "") {
			if out := a.output(t, prefix, ch.Index); out != nil {
				if d.Content != nil {
					t.write(out, d.Content.text)
				}
				if d.Refusal != nil && *d.Refusal != "" {
					t.refuse(out, *d.Refusal)
				}
			}
		}
		for pos, tc := range ch.Delta.ToolCalls {
			if tc.Index != nil {
				pos = *tc.Index
			}
			base := numbered(prefix+"tool", pos)
			var c *call
			if prev := t.calls[base]; tc.ID != "" && (prev == nil || prev.ended || (prev.id != "" && prev.id != tc.ID && tc.names())) {
				c = t.begin(base, tc.ID, tc.Function.Name)
			} else if c = t.follow(base); c == nil {
				continue // a late fragment of a call that has ended
			} else {
				t.identify(c, tc.ID, tc.Function.Name)
			}
			if why := tc.unreadable(); why != "" {
				t.unreadable(c, tc.customName(), why)
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
			a.finish(t, prefix, ch.Index, *ch.FinishReason)
		}
	}
	return nil
}

// output returns choice i's output (prefix is the choice's key prefix),
// begun at its first text, or nil once the output has ended: a choice is
// one message, so it has one answer for the stream's life, and text that
// comes after that answer's end (an error event) is ignored, as a late
// fragment of an ended call is. An output begun after a finish_reason
// that cut the choice is cut too (see finish).
func (a *openAIChat) output(t *tracker, prefix string, i int) *call {
	base := prefix + "output"
	if c := t.calls[base]; c != nil && c.ended {
		return nil
	}
	c := t.output(base, i)
	if r := a.cuts[i]; r != "" {
		c.cut = r
	}
	return c
}

// finish applies choice i's finish_reason r: it ends the choice's calls,
// and cuts its output unless r is a normal end (see chatFinished), but
// does not end the output. openai-python's stream state finds a choice by
// its index and appends every delta.content that comes after a
// finish_reason to the same message, and some gateways put "stop" on
// every chunk, so the answer is all the choice's text up to the stream's
// end ([DONE], Close) or an error. The first reason that cuts a choice
// stays, whatever reason comes after it: openai-python's stream helper
// raises at a "length" or "content_filter" finish at once.
func (a *openAIChat) finish(t *tracker, prefix string, i int, r string) {
	if !chatFinished(r) {
		if a.cuts == nil {
			a.cuts = map[int]string{}
		}
		if a.cuts[i] == "" {
			a.cuts[i] = r
		}
		t.cut(prefix, a.cuts[i])
	}
	t.endCalls(prefix)
}

// order checks that openai-python's stream helper
// (client.chat.completions.stream) would put each choice of a chunk, and
// each of its tool-call entries, at the position its index names, and
// records the choices and calls that the chunk adds. toolgate keys a
// choice and a call by index; the helper finds them by list position, in
// its snapshot's choices (choices[index]) and in the message's tool_calls
// (accumulate_delta's acc_value[index]), with Python's indexing: -1 is the
// last entry, and an index past the end is appended at the end whatever
// its value (list.insert). A list that arrives with nothing to add it to
// — the stream's first choices, a choice's first tool_calls — is kept as
// sent, each entry at its place in the list (and the helper's per-choice
// state is kept by order of appearance). So an index must be one already
// seen, or the next one (the number seen so far), and in a list kept as
// sent entry i must have index i: a negative index, a gap, entries out of
// order, or an index repeated in a list kept as sent (the helper keeps
// both entries) would have the helper read other arguments, or another
// tool, for some call than toolgate checks. Such a chunk is an
// *EventError without Key that changes nothing, and the stream ends; so
// is one whose choices would pass the place limit (see
// Adapter.LimitPlaces). A
// tool-call entry without index (Mistral's) is at its place in the list,
// as toolgate keys it.
func (a *openAIChat) order(t *tracker, ev *chatChunk) error {
	had := len(a.tools)
	a.undo = a.undo[:0]
	for i := range ev.Choices {
		if err := a.orderChoice(t, ev, i, had == 0); err != nil {
			a.unorder(had)
			return err
		}
	}
	return nil
}

// unorder takes back what order recorded of a chunk, for a chunk that is
// refused (had: the stream's choices before it).
func (a *openAIChat) unorder(had int) {
	for j := len(a.undo) - 1; j >= 0; j-- {
		a.tools[a.undo[j].choice] = a.undo[j].tools
	}
	a.tools = a.tools[:had]
}

// orderChoice checks choice i of chunk ev, and its tool calls, as order
// does; first: the stream had no choice before the chunk, so its choices
// are a list kept as sent.
func (a *openAIChat) orderChoice(t *tracker, ev *chatChunk, i int, first bool) error {
	ch := &ev.Choices[i]
	n, ok := nextPosition(ch.Index, len(a.tools), first)
	if !ok {
		return misplaced(t, "choice", ch.Index, len(a.tools), first)
	}
	if n > len(a.tools) {
		if len(a.tools) >= t.maxPlaces {
			return t.tooManyPlaces("stream's choices")
		}
		a.tools = append(a.tools, 0)
	}
	had := a.tools[ch.Index]
	calls := had
	for pos, tc := range ch.Delta.ToolCalls {
		if tc.Index != nil {
			pos = *tc.Index
		}
		if calls, ok = nextPosition(pos, calls, had == 0); !ok {
			return misplaced(t, "choice "+strconv.Itoa(ch.Index)+"'s tool call", pos, calls, had == 0)
		}
	}
	a.undo = append(a.undo, chatCount{ch.Index, had})
	a.tools[ch.Index] = calls
	return nil
}

// nextPosition checks an entry's index against a list that openai-python
// keeps by position, of n entries before it (see order), and returns the
// list's length with the entry: the index must be an entry's, or n, which
// appends one; in a list kept as sent (whole), it must be n.
func nextPosition(index, n int, whole bool) (int, bool) {
	switch {
	case index == n:
		return n + 1, true
	case index >= 0 && index < n && !whole:
		return n, true
	}
	return n, false
}

// misplaced is order's error for an entry (what: "choice", "choice 0's
// tool call") whose index openai-python would read as another position.
func misplaced(t *tracker, what string, index, n int, whole bool) error {
	if whole {
		return t.errorf("", "%s index %d is at position %d of a list that openai-python keeps as sent, so it would read it as another", what, index, n)
	}
	return t.errorf("", "%s index %d with %d before it: openai-python, which finds entries by position, would read it as another", what, index, n)
}

// late checks, before the chunk changes anything, its tool-call entries
// and function_call deltas for a call that has ended (see feed), before
// the chunk or at a finish_reason earlier in it. openai-python's stream
// state finds a call by its index and still applies such an entry to it:
// it appends the arguments (as the Vercel AI SDK does while the call's
// arguments do not parse) and joins the name to the call's. So an entry
// that would have them run other arguments or another tool than toolgate
// checked is an *EventError without Key that changes nothing, and the
// stream ends: arguments for a call that ended without any (checked as
// {}, where the clients run the arguments), and a name other than the
// call's. Arguments after a call's own text are ignored, as are an empty
// or repeated name: the clients' text is then no longer one JSON
// document, or the one checked followed by white space. An entry with an
// id (a function_call with a name) begins a call of its own. After a
// finish_reason earlier in the chunk, which leaves no call of the choice
// open, the call an entry is for may have begun in the chunk, so any
// entry there without id that carries a name or arguments is refused.
func (a *openAIChat) late(t *tracker, ev *chatChunk) error {
	start := a.seq
	// begun holds, made when needed, the seq of the entry that begins a
	// call at a base whose call had ended.
	var begun map[string]int
	for i := range ev.Choices {
		a.seq++
		ch := &ev.Choices[i]
		if n := ch.Index + 1 - len(a.finished); n > 0 { // order has checked the index
			a.finished = append(a.finished, make([]int, n)...)
		}
		now := a.finished[ch.Index] > start
		prefix := a.prefix + numbered("choice", ch.Index) + "/"
		for pos, tc := range ch.Delta.ToolCalls {
			if tc.Index != nil {
				pos = *tc.Index
			}
			name := cmp.Or(tc.Function.Name, tc.customName())
			if err := a.lateEntry(t, &begun, numbered(prefix+"tool", pos), ch.Index, now, tc.ID != "", name, tc.Function.Arguments); err != nil {
				return err
			}
		}
		if fc := ch.Delta.FunctionCall; fc != nil {
			if err := a.lateEntry(t, &begun, prefix+"function", ch.Index, now, fc.Name != "", fc.Name, fc.Arguments); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finished[ch.Index] = a.seq
		}
	}
	return nil
}

// lateEntry checks, for late, an entry of choice at base that names
// tool name and carries args; begins: the entry begins a call there when
// the call there has ended; now: a finish_reason earlier in the chunk
// ended the choice's calls; begun: late's.
func (a *openAIChat) lateEntry(t *tracker, begun *map[string]int, base string, choice int, now, begins bool, name, args string) error {
	if seq, ok := (*begun)[base]; ok && seq > a.finished[choice] {
		return nil // for the call that the chunk begins there
	}
	c := t.calls[base]
	switch {
	case !now && (c == nil || !c.ended):
		return nil
	case begins:
		if *begun == nil {
			*begun = map[string]int{}
		}
		(*begun)[base] = a.seq
		return nil
	case name != "" && (c == nil || name != c.name):
		return t.errorf("", "an entry names the tool %s for a call that has ended, at %s: openai-python would join the name to the call's", quoteName(name), base)
	case args != "" && (c == nil || c.text == 0):
		return t.errorf("", "an entry has arguments for a call that has ended without any, at %s: openai-python and the Vercel AI SDK would run them", base)
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

// begins reports whether a chunk that came after "[DONE]" is of another
// completion than the one "[DONE]" ended (its id is another, non-empty
// one), and if so makes ready for it: its choices count from 0 again, and
// its calls and answers are new ones ("output/0#2"), each with its own
// result, as a client that reads each step's stream on its own sees them.
// A chunk without an id, or with the ended completion's, is not.
func (a *openAIChat) begins(event []byte) bool {
	var ev struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(event, &ev) != nil || ev.ID == "" || ev.ID == a.completion {
		return false
	}
	a.restarts++
	a.prefix = numbered("completion", a.restarts) + "/"
	a.tools, a.cuts = a.tools[:0], nil
	return true
}
