package stream

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/schema"
)

// providerAdapters holds one adapter per provider a stream has used, and
// the calls that provider events started, by provider and adapter key.
type providerAdapters struct {
	adapters map[provider.Provider]*provider.Adapter
	calls    map[providerKey]*call
	outputs  map[providerKey]*call
	// ids maps the result id of every provider call of the stream to the
	// latest call given it (see claimID).
	ids map[string]*call
	// answers holds the result id of every bound answer of the stream.
	answers provider.Keys
	events  []provider.Event
}

// answerID returns key, an adapter's "output/<n>", as the result id of a
// new answer, or, when an answer of another provider on the stream has it
// already, key with the first free "#2", "#3", ... suffix, as an adapter
// numbers a second answer at one index: no two results share an id.
func (pa *providerAdapters) answerID(key string) string {
	id, _ := pa.answers.Claim(key)
	return id
}

type providerKey struct {
	p   provider.Provider
	key string
}

// ProviderEvent feeds one raw provider stream event (an SSE data payload).
// A call starts at its first event and counts toward the limits from there;
// it is validated once the provider names its tool, which must be bound
// (text that arrives before the name is held, within MaxCallBytes, and a
// call that ends unnamed is a "tool_name" verdict; a call a client runs
// whose input is not JSON arguments, such as an OpenAI custom tool's, is
// refused at once, keyword "provider_event", saying so). The result's CallID is
// the provider's call id, or the adapter's key when the provider sends none;
// a call whose id another call of the stream has too is refused (keyword
// "call_id", see claimID).
// While an output is bound (BindOutput), the message text of each provider
// output is one document, with the result's CallID "output/<n>" (or
// "output/<n>#2", ... where another provider's answer on the stream has
// that id, see answerID); a refusal is its "refusal" verdict, and the
// output ends with the provider's end of the candidate, item or message,
// or, for an OpenAI Chat choice, with the stream ("[DONE]", Close):
// openai-python appends text that comes after a choice's finish_reason to
// its message (see package provider).
//
// OpenAI's "[DONE]" sentinel ends an OpenAI Chat or Responses stream as
// Close does (its open calls and answers end), since the OpenAI SDKs stop
// reading there, and a later event of that provider is an InvalidArgument
// error (see provider.Adapter.FeedNamed); to other providers it is
// nothing. A payload that is empty or only white space is ignored, unless
// its event is named "error" (see NamedProviderEvent): a runtime may
// forward every SSE data payload as it is. An event the adapter cannot
// use is an InvalidArgument error, unless it concerns one call or output
// (a final copy that contradicts the deltas): that one is refused
// (keyword "provider_event") and the stream goes on.
// An event that names more choices, candidates or output items than
// Limits.MaxPlaces allows is a ResourceExhausted error.
// Once the session's context is done, it returns the context's error.
func (s *Session) ProviderEvent(p provider.Provider, event []byte) error {
	return s.NamedProviderEvent(p, "", event)
}

// NamedProviderEvent is ProviderEvent for an event that came with a name
// (a server-sent event's "event:" field, Bedrock's :event-type header),
// which must agree with its payload (see provider.Adapter.FeedNamed): an
// event the provider's SDK would read as another event is an
// InvalidArgument error. An empty name is ProviderEvent. An event named
// "error" ends every call and cuts every answer of an OpenAI Chat,
// Responses or Anthropic stream even without payload: the SDKs raise on
// it all the same.
func (s *Session) NamedProviderEvent(p provider.Provider, name string, event []byte) error {
	pa := &s.adapter
	a, ok := pa.adapters[p]
	if !ok {
		var err error
		if a, err = provider.New(p); err != nil {
			return errorf(InvalidArgument, "provider_event: %v", err)
		}
		a.LimitNames(s.limits.MaxName)
		a.LimitPlaces(s.limits.MaxPlaces)
		if pa.adapters == nil {
			pa.adapters, pa.calls, pa.outputs, pa.ids = map[provider.Provider]*provider.Adapter{}, map[providerKey]*call{}, map[providerKey]*call{}, map[string]*call{}
		}
		pa.adapters[p] = a
	}
	var err error
	pa.events, err = a.FeedNamed(pa.events[:0], name, event)
	if err != nil {
		var ee *provider.EventError
		if errors.As(err, &ee) {
			if errors.Is(ee, provider.ErrTooManyPlaces) {
				return errorf(ResourceExhausted, "provider_event: %v", ee)
			}
			if s.refuseKeyed(p, ee) {
				return s.applyProvider(p, pa.events)
			}
			return errorf(InvalidArgument, "provider_event: %v", ee)
		}
		return errorf(InvalidArgument, "provider_event: %v", err)
	}
	return s.applyProvider(p, pa.events)
}

// refuseKeyed gives the call or output an event error concerns (ee.Key:
// a final copy that contradicts its deltas, a Gemini value that cannot be
// argument text) its verdict, keyword "provider_event", and reports
// whether it did: the stream's other calls go on, where a stream error
// would take every verdict with it. It refuses before the events the
// error came with are applied, so their End cannot pass the call.
func (s *Session) refuseKeyed(p provider.Provider, ee *provider.EventError) bool {
	if ee.Key == "" {
		return false
	}
	k := providerKey{p, ee.Key}
	c, what := s.adapter.calls[k], "call's arguments"
	if c == nil {
		c, what = s.adapter.outputs[k], "answer"
	}
	if c == nil {
		return false
	}
	if !c.done {
		s.finish(c, true, []schema.Finding{{Code: schema.CodeValidation, Keyword: "provider_event", Offset: c.bytes,
			Message: fmt.Sprintf("The provider's events contradict each other (%s), so this %s cannot be validated.", ee.Reason, what)}}, false)
	}
	return true
}

// unreadable refuses provider call c, one a client runs whose input is not
// JSON arguments (see provider.Unreadable: a custom tool's free text, a
// computer action), keyword "provider_event", with the adapter's reason
// for its message; its tool, when the provider names one, is the
// result's. The adapter starts such a call without a name, so that this
// reason, not an unbound tool's, is its verdict.
func (s *Session) unreadable(c *call, tool, reason string) {
	if c.tool == "" {
		c.tool = schema.Truncate(tool, s.limits.MaxName)
	}
	s.finish(c, true, []schema.Finding{{Code: schema.CodeValidation, Keyword: "provider_event", Offset: c.bytes, Message: reason}}, false)
}

// cutShort is the verdict on an answer the provider stopped before the
// model finished it (reason: its finish or stop reason) whose text is
// nonetheless a valid document: openai-python's parse refuses such an
// answer whatever its text, and JSON mode's runaway white space ends so.
// An answer whose text the cut left incomplete keeps its own verdict (a
// "json" finding at its end).
func cutShort(reason string, at int64) schema.Finding {
	return schema.Finding{Code: schema.CodeValidation, Keyword: "finish_reason", Offset: at,
		Message: fmt.Sprintf("The provider stopped the answer before the model finished it (%s), so it is no answer, even where its text parses.", reason)}
}

// renamed is the verdict on a call whose provider named a second tool:
// clients read such a stream differently (see package provider), so the
// call is validated against neither name.
func renamed(first, second string, at int64) schema.Finding {
	return schema.Finding{Code: schema.CodeValidation, Keyword: "tool_name", Offset: at,
		Message: fmt.Sprintf("The tool name changed during the call, from %s to %s, so its arguments cannot be validated.", quote(first), quote(second))}
}

// claimID gives provider call c its result id, c.id, and reports whether c
// may go on: it may not when the id is longer than Limits.MaxName (the
// result then carries it cut), a CallStart's call's, or an
// answer's ("output/<n>"), and it may not when an earlier provider call of
// the stream has that id (DeepSeek and GLM have given parallel calls one id, Kimi's
// Anthropic-compatible endpoint two tool_use blocks), since a verdict for
// the id could not say which call it is about. Then c is refused (keyword
// "call_id"), and so is the earlier call if it has no verdict yet; one that
// has keeps it, so a runtime that sees a second result for one id has seen
// that id refused.
func (s *Session) claimID(c *call) bool {
	pa := &s.adapter
	if len(c.id) > s.limits.MaxName {
		// Cut to more than MaxName bytes, so that no id a client or a
		// provider may use spells it.
		c.id = schema.Truncate(c.id, s.limits.MaxName)
		for len(c.id) <= s.limits.MaxName {
			c.id += "…"
		}
		s.finish(c, true, []schema.Finding{{Code: schema.CodeValidation, Keyword: "call_id", Offset: c.bytes,
			Message: fmt.Sprintf("The provider's call id is longer than the limit of %d bytes: the call is refused.", s.limits.MaxName)}}, false)
		return false
	}
	if _, started := s.calls[c.id]; started || isOutputID(c.id) {
		// The id of a CallStart's call, or of an answer's result: a
		// verdict for it could be taken for theirs.
		s.finish(c, true, []schema.Finding{takenID(c.id, c.bytes)}, false)
		return false
	}
	prev := pa.ids[c.id]
	pa.ids[c.id] = c
	if prev == nil {
		return true
	}
	if !prev.done {
		s.finish(prev, true, []schema.Finding{reusedID(prev.id, prev.bytes)}, false)
	}
	s.finish(c, true, []schema.Finding{reusedID(c.id, c.bytes)}, false)
	return false
}

// reusedID is the verdict on a provider call whose id another call of the
// stream has too.
func reusedID(id string, at int64) schema.Finding {
	return schema.Finding{Code: schema.CodeValidation, Keyword: "call_id", Offset: at,
		Message: fmt.Sprintf("The provider gave the call id %s to another call of this stream too, so a verdict for that id could not say which call it is about: the call is refused.", quote(id))}
}

// takenID is the verdict on a provider call whose id is another result's:
// a CallStart's call or an answer ("output/<n>").
func takenID(id string, at int64) schema.Finding {
	return schema.Finding{Code: schema.CodeValidation, Keyword: "call_id", Offset: at,
		Message: fmt.Sprintf("The provider gave the call the id %s, which another result of this stream has (a call started by the client, or an answer's %s<n>), so its verdict could be taken for that one: the call is refused.", quote(id), outputPrefix)}
}

// flushProviders applies what every adapter still holds for its open
// calls and answers: their last deltas, and the cut an answer's end
// gives it. It ends none of them, so that Close ends them all, the
// client's and every provider's, in start order.
func (s *Session) flushProviders() {
	pa := &s.adapter
	for _, p := range slices.Sorted(maps.Keys(pa.adapters)) {
		pa.events = pa.adapters[p].Close(pa.events[:0])
		deltas := pa.events[:0]
		for _, ev := range pa.events { // Close emits only deltas and ends of started calls
			switch ev.Kind {
			case provider.End:
			case provider.TextEnd:
				if c := pa.outputs[providerKey{p, ev.Key}]; c != nil {
					c.cut = ev.Cut
				}
			default:
				deltas = append(deltas, ev)
			}
		}
		_ = s.applyProvider(p, deltas)
	}
}

func (s *Session) applyProvider(p provider.Provider, events []provider.Event) error {
	pa := &s.adapter
	for _, ev := range events {
		k := providerKey{p, ev.Key}
		switch ev.Kind {
		case provider.Start:
			id := ev.CallID
			if id == "" {
				id = ev.Key
			}
			var c *call
			var err error
			if ev.ToolName == "" {
				if c, err = s.startUnnamed(id, ev.CallID == ""); err == nil {
					s.claimID(c)
				}
			} else if c, err = s.newCall(id); err == nil && s.claimID(c) {
				s.resolve(c, ev.ToolName, nil)
			}
			if err != nil {
				return err
			}
			pa.calls[k] = c
		case provider.Name:
			if c := pa.calls[k]; c != nil {
				if err := s.name(c, ev.CallID, ev.ToolName); err != nil {
					return err
				}
			}
		case provider.Conflict:
			if c := pa.calls[k]; c != nil && !c.done {
				s.finish(c, true, []schema.Finding{renamed(c.tool, ev.ToolName, c.bytes)}, false)
			}
		case provider.Unreadable:
			if c := pa.calls[k]; c != nil && !c.done {
				s.unreadable(c, ev.ToolName, ev.Fragment)
			}
		case provider.Delta:
			if c := pa.calls[k]; c != nil {
				if err := s.delta(c, []byte(ev.Fragment)); err != nil {
					return err
				}
			}
		case provider.End:
			if c := pa.calls[k]; c != nil {
				s.end(c)
			}
		case provider.Text, provider.Refusal:
			c := pa.outputs[k]
			if c == nil {
				var err error
				if c, err = s.startOutput(ev.Key); err != nil {
					return err
				}
				pa.outputs[k] = c
			}
			if ev.Kind == provider.Refusal {
				s.refuse(c, ev.Fragment)
			} else if err := s.delta(c, []byte(ev.Fragment)); err != nil {
				return err
			}
		case provider.TextEnd:
			if c := pa.outputs[k]; c != nil {
				c.cut = ev.Cut
				s.end(c)
			}
		}
	}
	return nil
}
