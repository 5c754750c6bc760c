package provider

import (
	"cmp"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
)

// openAIResponses adapts OpenAI Responses API streams and those of
// compatible servers (Azure, LM Studio, DeepSeek).
type openAIResponses struct {
	// commentary holds the current response's message items whose phase
	// is not the final answer: their text is not an output.
	commentary map[string]bool
	// items and places map the current response's items to their
	// output_index and back (see place), and added counts the items the
	// SDKs have appended to its output (see add). The place limit bounds
	// them, and so commentary (see Adapter.LimitPlaces).
	items  map[int]string
	places map[string]int
	added  int
}

// noIndex is an event's output_index until decoding sets it: an event
// without one (LM Studio's) keeps it. No list position can be read from
// it (openai-python raises on output[-2**63]), so an event that sends it
// is read as one without output_index.
const noIndex = math.MinInt

// place checks that item id is at output index at (noIndex: the event
// gives none) as far as the response's events have said, and records it: the
// SDKs (openai-python, openai-node) apply an event to the item at its
// output_index, whatever its item_id, while toolgate follows the item id,
// so an event whose two disagree — a proxy that gives every event a new
// item_id, an item listed at another position, an item added at another
// position than the SDKs append it at (see add) — would have them read
// another item's text than toolgate. So would a negative output_index,
// which the SDKs count from the end of the output (-1: the last item).
// Such an event is an *EventError without Key: the stream fails, as it
// does for an event that would place more items than the place limit
// (see Adapter.LimitPlaces). response.completed's output is not
// checked: the SDKs take it whole, and a server may leave items out of it
// (vercel/ai's openai-phase recording lists at 1 a message streamed at 2).
func (a *openAIResponses) place(t *tracker, typ, id string, at int) error {
	switch {
	case at == noIndex:
		return nil
	case at < 0:
		return t.errorf("", "%s names item %s at output_index %d, which the SDKs count from the end of the output", typ, quoteName(id), at)
	}
	if had, ok := a.items[at]; ok && had != id {
		return t.errorf("", "%s names item %s at output_index %d, where item %s is: the SDKs read it as %s's", typ, quoteName(id), at, quoteName(had), quoteName(had))
	}
	if was, ok := a.places[id]; ok && was != at {
		return t.errorf("", "%s puts item %s at output_index %d, but it is at %d", typ, quoteName(id), at, was)
	}
	if _, ok := a.places[id]; !ok && len(a.places) >= t.maxPlaces {
		return t.tooManyPlaces("response's output items")
	}
	if a.items == nil {
		a.items, a.places = map[int]string{}, map[string]int{}
	}
	a.items[at], a.places[id] = id, at
	return nil
}

// add places an item of any type (a message, a function call, reasoning,
// a web search, ...) at its response.output_item.added. The SDKs append
// every added item to the response's output, after the items of
// response.created's, whatever the event's output_index, so the item is
// at the position of the items added before it; an output_index that is
// not that position would have them apply the events that name it, and
// those that name the item's own output_index, to other items than
// toolgate does. Such an event is an *EventError without Key that changes
// nothing, as is one that adds more items than the place limit (see
// Adapter.LimitPlaces). An item without output_index is at that position
// too; one without id is counted, not placed.
func (a *openAIResponses) add(t *tracker, typ, id string, at int) error {
	if at != noIndex && at != a.added {
		return t.errorf("", "%s puts item %s at output_index %d, but the SDKs append it at %d", typ, quoteName(id), at, a.added)
	}
	if a.added >= t.maxPlaces {
		return t.tooManyPlaces("response's output items")
	}
	if id != "" {
		if err := a.place(t, typ, id, a.added); err != nil {
			return err
		}
	}
	a.added++
	return nil
}

// locate checks the identity of an event that streams into an item: it
// names the item (item_id, a valid key) and agrees with the response's
// earlier events on the item's place (see place).
func (a *openAIResponses) locate(t *tracker, typ, id string, at int) error {
	if id == "" {
		return t.errorf("", "%s without item_id", typ)
	}
	if err := t.checkKey("item_id", id); err != nil {
		return err
	}
	return a.place(t, typ, id, at)
}

// responsesItem is an output item. Only function_call and
// mcp_approval_request items are calls with JSON arguments (see function);
// other item types carry "arguments" of other JSON types (tool_search_call
// sends an object), so it is decoded only for those. The other calls a client runs are refused (see unreadable).
type responsesItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Phase     string          `json:"phase"`  // a message's: "commentary" or "final_answer" (newer models)
	Status    string          `json:"status"` // "completed", "incomplete" (cut short), "in_progress"
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Execution string          `json:"execution"` // a tool_search_call's: "server" or "client"
	Arguments json.RawMessage `json:"arguments"`
	// Content is a message's content parts, decoded only for messages
	// (see messageDone): other items' content is of other shapes.
	Content json.RawMessage `json:"content"`
}

type responsesItemEvent struct {
	OutputIndex int           `json:"output_index"` // noIndex when absent
	Item        responsesItem `json:"item"`
}

// responsesPart is a content part of a message item.
type responsesPart struct {
	Type    string `json:"type"` // "output_text" or "refusal"
	Text    string `json:"text"`
	Refusal string `json:"refusal"`
}

type responsesArgsEvent struct {
	ItemID      string  `json:"item_id"`
	OutputIndex int     `json:"output_index"` // noIndex when absent
	Delta       string  `json:"delta"`
	Arguments   *string `json:"arguments"`
	Name        string  `json:"name"` // .done carries the tool's name again
}

// responsesTextEvent is an output_text or refusal event of a message item.
type responsesTextEvent struct {
	ItemID       string  `json:"item_id"`
	OutputIndex  int     `json:"output_index"` // noIndex when absent
	ContentIndex int     `json:"content_index"`
	Delta        string  `json:"delta"`
	Text         *string `json:"text"`    // output_text.done
	Refusal      *string `json:"refusal"` // refusal.done
}

// feed keys a call by its item id (the "fc_..." id; Event.CallID is the
// item's call_id). response.output_item.added opens the call with call_id
// and name; response.function_call_arguments.delta appends;
// response.output_item.done ends it. The final copies of a call — the
// arguments and name in .done, then the item in output_item.done, which is
// where clients such as the Vercel AI SDK read the call they run — are
// each checked against what came before: arguments are the whole text when
// no delta came (LM Studio sends none), and only a check — or the missing
// tail — when deltas came; arguments that contradict them are an
// *EventError with the call's Key, and another tool's name is a Conflict. So
// the call ends at output_item.done, one event after .done, and not at
// .done. A delta that comes before its output_item.added opens the call
// without a name; the output_item.added then names it. response.created and
// the terminal response.completed, .incomplete and .failed end any call
// still open (a server that sends no output_item.done); one stream may hold
// several responses back to back. The copy of the output inside
// response.completed, which openai-python's final response and the OpenAI
// Agents SDK run, is reconciled too (see completed): a call that never
// streamed is validated from it, and one that ended must be the same or
// the stream fails. The SDKs append every added item to the response's
// output and apply an event to the item at its output_index: an item
// added at another output_index than its position among the items added
// before it, or an event whose output_index and item_id disagree with
// the response's earlier events, ends the stream (see add and place).
// The other calls a client runs — custom_tool_call, computer_call,
// local_shell_call, shell_call, apply_patch_call, a tool search the client
// runs, and a *_call item type of the API's future — have no JSON
// arguments: each is one call, keyed by its item id, that begins, is
// Unreadable and ends at its first copy (see unreadableCall); the calls
// OpenAI runs itself (web_search_call, mcp_call, …) are not calls here.
//
// A message item's text is its output ("output/<output_index>"): the
// response.output_text.delta of all its content parts, in order. An
// output_text.done is reconciled with its part as .done is with a call's
// arguments (the whole text when no delta came); response.refusal.delta is
// a Refusal (refusal.done too, when no delta came); output_item.done of the
// message ends the output, reconciled with the item's copy of its text
// (see messageDone) and cut when the item's status is not "completed"
// (the API finishes an item cut off by max_output_tokens as "incomplete"
// before its response.incomplete). An error event ends every call and
// cuts every output, as response.failed does. Reasoning items and summary events are never
// text, and neither is a message whose phase is not "final_answer" (the
// commentary newer models write before calling tools), as openai-python
// reads only the final_answer message. An output's number is the
// message's output_index, so an answer after a reasoning item is
// "output/1".
func (a *openAIResponses) feed(t *tracker, event []byte) error {
	typ, err := t.eventType(event)
	if err != nil {
		return err
	}
	switch typ {
	case "response.output_item.added", "response.output_item.done":
		ev := responsesItemEvent{OutputIndex: noIndex}
		if err := t.decode(event, &ev); err != nil {
			return err
		}
		it := &ev.Item
		if err := t.checkKey("item id", it.ID); err != nil {
			return err
		}
		var args *string
		if it.function() {
			if args, err = callArguments(t, typ, it); err != nil {
				return err
			}
		}
		why := it.unreadable()
		if why != "" && it.ID == "" {
			return t.errorf("", "%s %s item without id", typ, it.Type)
		}
		if err := a.item(t, typ, it.ID, ev.OutputIndex); err != nil {
			return err
		}
		if why != "" {
			return unreadableCall(t, typ == "response.output_item.added", it, why)
		}
		if it.Type == "message" && !it.finalAnswer() {
			// Commentary before tool calls (gpt-5.3-codex and later):
			// openai-python parses only the final_answer message.
			if a.commentary == nil {
				a.commentary = map[string]bool{}
			}
			a.commentary[it.ID] = true
			return nil
		}
		if it.Type == "message" && typ == "response.output_item.done" {
			return messageDone(t, it, max(ev.OutputIndex, 0))
		}
		if !it.function() {
			return nil
		}
		if typ == "response.output_item.added" {
			c := t.open(it.ID, it.callID(), it.Name)
			if args != nil {
				t.write(c, *args) // normally ""
			}
			return nil
		}
		return callDone(t, it, args)

	case "response.function_call_arguments.delta", "response.function_call_arguments.done":
		ev := responsesArgsEvent{OutputIndex: noIndex}
		if err := t.decode(event, &ev); err != nil {
			return err
		}
		if err := a.locate(t, typ, ev.ItemID, ev.OutputIndex); err != nil {
			return err
		}
		c := t.follow(ev.ItemID)
		if c == nil {
			return nil
		}
		if typ == "response.function_call_arguments.delta" {
			t.write(c, ev.Delta)
			return nil
		}
		t.identify(c, "", ev.Name)
		if ev.Arguments == nil {
			return nil
		}
		if err := t.complete(c, *ev.Arguments); err != nil {
			t.end(c)
			return err
		}
		return nil

	case "response.output_text.delta", "response.output_text.done", "response.refusal.delta", "response.refusal.done":
		ev := responsesTextEvent{OutputIndex: noIndex}
		if err := t.decode(event, &ev); err != nil {
			return err
		}
		if err := a.locate(t, typ, ev.ItemID, ev.OutputIndex); err != nil {
			return err
		}
		if a.commentary[ev.ItemID] {
			return nil
		}
		return text(t, typ, &ev)

	case "response.incomplete", "response.failed":
		t.abort(typ[len("response."):])
	case "error": // the stream's own error event: the SDKs raise on it
		t.abort("error")
	case "response.completed":
		err := a.completed(t, event)
		t.endAll()
		return err
	case "response.created":
		return a.created(t, event)
	}
	return nil
}

// item places an output item at its response.output_item.added (see add)
// or .done (see place; an item without id is not placed).
func (a *openAIResponses) item(t *tracker, typ, id string, at int) error {
	if typ == "response.output_item.added" {
		return a.add(t, typ, id, at)
	}
	if id == "" {
		return nil
	}
	return a.place(t, typ, id, at)
}

// begins reports whether an event that came after "[DONE]" begins
// another response: a response.created, which makes ready for it (see
// created).
func (*openAIResponses) begins(event []byte) bool {
	var ev struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(event, &ev) == nil && ev.Type == "response.created"
}

// created begins a response: the calls still open end, the places of the
// response before it are forgotten, and the items of
// its output — normally none — are the first the SDKs hold. Each
// response.created begins a new output, so that an agent loop's steps
// can share one stream (openai-python keeps its first snapshot and would
// append a second response's items to the first's: send one response per
// stream where the client reads the stream as one SDK stream).
func (a *openAIResponses) created(t *tracker, event []byte) error {
	var ev struct {
		Response struct {
			Output []struct {
				ID string `json:"id"`
			} `json:"output"`
		} `json:"response"`
	}
	if err := t.decode(event, &ev); err != nil {
		return err
	}
	var next openAIResponses // the new response's places
	for _, it := range ev.Response.Output {
		if err := t.checkKey("item id", it.ID); err != nil {
			return err
		}
		if err := next.add(t, "response.created", it.ID, noIndex); err != nil {
			return err // an id listed twice
		}
	}
	t.endAll()
	a.items, a.places, a.added, a.commentary = next.items, next.places, next.added, nil
	return nil
}

// callDone ends the call of function_call item it with its final copy
// (args, nil when it has none), as its output_item.done does: a call that
// never streamed is its copy whole; a late copy of an ended call changes
// nothing.
func callDone(t *tracker, it *responsesItem, args *string) error {
	c := t.follow(it.ID)
	if c == nil {
		return nil // a late copy of an item that response.completed (or a new response) ended
	}
	t.identify(c, it.callID(), it.Name)
	return t.finish(c, args)
}

// function reports whether item it is a call with JSON arguments that a
// client runs or authorises: a function_call, or an mcp_approval_request
// (a call to a remote MCP server's tool that OpenAI makes only once the
// client approves it, so the client's approval is where it is checked).
func (it *responsesItem) function() bool {
	return it.Type == "function_call" || it.Type == "mcp_approval_request"
}

// callID is the id a client answers item it with: a function_call's
// call_id, an mcp_approval_request's own id (its approval_request_id).
func (it *responsesItem) callID() string {
	if it.Type == "mcp_approval_request" {
		return it.ID
	}
	return it.CallID
}

// unreadableItems are the output items that are calls a client runs but
// whose input is not JSON arguments, with why toolgate refuses each, for
// the model.
var unreadableItems = map[string]string{
	"custom_tool_call": customToolReason,
	"computer_call":    "The call is a computer-use action, not a function call with JSON arguments: toolgate cannot validate it.",
	"local_shell_call": "The call is a local shell command, not a function call with JSON arguments: toolgate cannot validate it.",
	"shell_call":       "The call is a shell command, not a function call with JSON arguments: toolgate cannot validate it.",
	"apply_patch_call": "The call is a patch to apply, not a function call with JSON arguments: toolgate cannot validate it.",
}

// customToolReason is why a call to an OpenAI custom tool (Chat's or
// Responses') is refused.
const customToolReason = "The call is to a custom tool, whose input is free text, not JSON arguments: toolgate cannot validate it."

// hostedCalls are the output items of calls OpenAI runs itself: no client
// runs them, so they need no result.
var hostedCalls = map[string]bool{
	"web_search_call":       true,
	"file_search_call":      true,
	"code_interpreter_call": true,
	"image_generation_call": true,
	"mcp_call":              true,
}

// unreadable says why item it is a call that a client runs but toolgate
// cannot validate, or is "": for a function_call (validated), an item
// that is no call (a message, reasoning, mcp_list_tools, a *_output), and
// a call OpenAI runs itself (hostedCalls, and a tool_search_call whose
// execution is "server"). The calls a client runs with other input than
// JSON arguments are refused (unreadableItems, a tool search the client
// runs), so that each gets one result rather than none: a runtime that
// runs a call once toolgate has passed it would wait for ever, and one
// that runs it unless toolgate refused it would run it unchecked. An
// item type that ends in "_call" and is none of these — one added to
// the API later — fails closed, as one a client runs.
func (it *responsesItem) unreadable() string {
	switch {
	case it.function() || hostedCalls[it.Type]:
		return ""
	case unreadableItems[it.Type] != "":
		return unreadableItems[it.Type]
	case it.Type == "tool_search_call":
		if it.Execution == "server" {
			return ""
		}
		return "The call is a tool search that the client runs, not a function call with JSON arguments: toolgate cannot validate it."
	case strings.HasSuffix(it.Type, "_call"):
		return "The call is a " + quoteName(it.Type) + " item, which toolgate knows neither as a function call with JSON arguments nor as a call OpenAI runs itself: it cannot validate it."
	}
	return ""
}

// unreadableCall gives item it, a call a client runs whose input is not
// JSON arguments (see responsesItem.unreadable), its call, at the item's
// first copy (its output_item.added, or else its output_item.done or
// response.completed's): the call begins without a name, is Unreadable
// (with the item's name) and ends, so that the item's later copies change
// nothing and its input is not read. A call still open at the item's id
// (opened by an early function_call delta, or a function_call item that
// is now of another type) is made Unreadable and ends; one that ended as
// a function call, its result sent, contradicts the copy: the event is an
// *EventError without Key, and the stream fails.
func unreadableCall(t *tracker, added bool, it *responsesItem, why string) error {
	c := t.calls[it.ID]
	switch {
	case c == nil || (added && c.ended):
		c = t.create(it.ID, it.CallID, "")
	case c.ended && c.unreadable:
		return nil // a later copy
	case c.ended:
		return t.errorf("", "item %s is a %s, but it streamed as a function call", quoteName(it.ID), quoteName(it.Type))
	}
	t.unreadable(c, it.Name, why)
	t.end(c)
	return nil
}

// finalAnswer reports whether a message item is the answer, not the
// commentary newer models write before calling tools (phase
// "commentary"): openai-python parses only the final_answer message.
func (it *responsesItem) finalAnswer() bool { return it.Phase == "" || it.Phase == "final_answer" }

// callArguments reads a function_call item's arguments: nil when it has
// none.
func callArguments(t *tracker, typ string, it *responsesItem) (*string, error) {
	if it.ID == "" {
		return nil, t.errorf("", "%s %s item without id", typ, it.Type)
	}
	if len(it.Arguments) == 0 || string(it.Arguments) == "null" {
		return nil, nil
	}
	args := new(string)
	if json.Unmarshal(it.Arguments, args) != nil {
		return nil, t.errorf("", "%s %s item arguments are not a string", typ, it.Type)
	}
	return args, nil
}

// completed reconciles the copy of the response's output in
// response.completed, where openai-python's final response and the OpenAI
// Agents SDK read the calls they run, with what streamed: an item still
// open ends with it, as at its output_item.done; an item that never
// streamed is validated from it; an item that already ended must be the
// same, or the event is an *EventError without Key: that item's result
// is sent, so the stream fails.
func (a *openAIResponses) completed(t *tracker, event []byte) error {
	var ev struct {
		Response struct {
			Output []responsesItem `json:"output"`
		} `json:"response"`
	}
	if err := t.decode(event, &ev); err != nil {
		return err
	}
	for i := range ev.Response.Output {
		it := &ev.Response.Output[i]
		if err := t.checkKey("item id", it.ID); err != nil {
			return err
		}
		switch {
		case it.Type == "message" && !a.commentary[it.ID] && it.finalAnswer():
			c := t.calls[textBase(it.ID)]
			if c == nil || !c.ended {
				if err := messageDone(t, it, i); err != nil {
					return err
				}
				continue
			}
			texts, _, err := messageTexts(t, it)
			if err != nil {
				return err
			}
			if texts != nil && !c.sameText(texts) {
				return t.errorf("", "response.completed's copy of message %s disagrees with its text as streamed", quoteName(it.ID))
			}
		case it.unreadable() != "":
			if it.ID == "" {
				return t.errorf("", "response.completed %s item without id", it.Type)
			}
			if err := unreadableCall(t, false, it, it.unreadable()); err != nil {
				return err
			}
		case it.function():
			args, err := callArguments(t, "response.completed", it)
			if err != nil {
				return err
			}
			c := t.calls[it.ID]
			if c == nil || !c.ended {
				if err := callDone(t, it, args); err != nil {
					return err
				}
				continue
			}
			if args != nil && !c.sameText([]*string{args}) {
				return t.errorf("", "response.completed's copy of call %s disagrees with its arguments as streamed", quoteName(it.ID))
			}
			if it.Name != "" && it.Name != c.name {
				return t.errorf("", "response.completed's copy of call %s names another tool", quoteName(it.ID))
			}
		}
	}
	return nil
}

// messageDone ends the output of message item it at its
// response.output_item.done, reconciled with the item's final copy of its
// text, when it has one (where openai-python's final response reads it):
// text that disagrees with what streamed refuses the output, and an item
// whose text never streamed is its text whole; a refusal part refuses it.
// A status other than "completed" cuts
// the output ("incomplete": the API finishes an item cut off by
// max_output_tokens before its response.incomplete).
func messageDone(t *tracker, it *responsesItem, index int) error {
	base := textBase(it.ID)
	if c := t.calls[base]; c != nil && c.ended {
		return nil // a late copy
	}
	texts, refusal, err := messageTexts(t, it)
	if err != nil {
		return err
	}
	c := t.find(base)
	if c == nil {
		if !slices.ContainsFunc(texts, func(s *string) bool { return s != nil && *s != "" }) && refusal == "" {
			return nil // nothing written: no output
		}
		c = t.output(base, index)
	}
	if it.Status != "" && it.Status != "completed" {
		c.cut = it.Status
	}
	if texts != nil {
		err = t.reconcileParts(c, texts)
	}
	if refusal != "" {
		t.refuse(c, refusal)
	}
	t.end(c)
	return err
}

// messageTexts reads a message item's copy of its content parts: the text
// of each output_text part (nil for another part), non-nil when the item
// has content; and the first refusal among them. The parts are read as a
// strict client reads them (see checkStrict): a part that spells "text" or
// "type" twice, in two cases, is an *EventError without Key, as the event
// around it would be.
func messageTexts(t *tracker, it *responsesItem) (texts []*string, refusal string, err error) {
	if len(it.Content) == 0 || string(it.Content) == "null" {
		return nil, "", nil
	}
	var parts []responsesPart
	if json.Unmarshal(it.Content, &parts) != nil {
		return nil, "", t.errorf("", "message item content is not a list of parts")
	}
	if err := t.strict.check(it.Content, reflect.TypeOf(parts)); err != nil {
		return nil, "", &EventError{Provider: t.p, Reason: "message item " + quoteName(it.ID) + " content: " + err.Error(), Err: err}
	}
	texts = make([]*string, len(parts))
	for i, p := range parts {
		switch p.Type {
		case "output_text":
			texts[i] = &parts[i].Text
		case "refusal":
			refusal = cmp.Or(refusal, p.Refusal)
		}
	}
	return texts, refusal, nil
}

// text handles one output_text or refusal event of a message item.
func text(t *tracker, typ string, ev *responsesTextEvent) error {
	base := textBase(ev.ItemID)
	if c := t.calls[base]; c != nil && c.ended {
		return nil // late text of an ended item
	}
	var piece string
	switch typ {
	case "response.output_text.delta", "response.refusal.delta":
		piece = ev.Delta
	case "response.output_text.done":
		piece = *ptrOr(ev.Text)
	case "response.refusal.done":
		piece = *ptrOr(ev.Refusal)
	}
	c := t.find(base)
	if c == nil && piece == "" {
		return nil // nothing written: no output yet
	}
	if c == nil {
		c = t.output(base, max(ev.OutputIndex, 0))
	}
	switch typ {
	case "response.output_text.delta":
		if err := t.part(c, ev.ContentIndex); err != nil {
			return err
		}
		t.write(c, piece)
	case "response.output_text.done":
		if err := t.part(c, ev.ContentIndex); err != nil {
			return err
		}
		return t.complete(c, piece)
	default:
		t.refuse(c, piece)
	}
	return nil
}

// textBase is the tracker's base for the answer of message item id,
// apart from the base of every item that is a call, which is its id:
// an id is decoded JSON text, so valid UTF-8 (decode refuses any other),
// and no UTF-8 text has the byte 0xff. A readable prefix such as "text/"
// is an id too: the answer of message "m" and the call of item "text/m"
// would share a base, and the one's text go to the other.
func textBase(id string) string { return "\xfftext/" + id }

// ptrOr returns p, or a pointer to "" when p is nil.
func ptrOr(p *string) *string {
	if p == nil {
		return new(string)
	}
	return p
}

func (*openAIResponses) close(*tracker) {}
