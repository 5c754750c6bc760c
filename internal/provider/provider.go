package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Provider names the wire format of a stream's events. The numbering follows
// the toolgate.v1.Provider enum, so a proto value converts with Provider(v).
type Provider uint8

// The providers that have an adapter. Unspecified (the zero value) has none.
const (
	Unspecified     Provider = iota // no provider; New rejects it
	OpenAIChat                      // OpenAI Chat Completions and OpenAI-compatible servers
	OpenAIResponses                 // OpenAI Responses API and compatible servers
	Anthropic                       // Anthropic Messages
	Gemini                          // Google Gemini / Vertex streamGenerateContent
	Bedrock                         // AWS Bedrock ConverseStream
	Cohere                          // Cohere v2 chat
)

var providerNames = [...]string{
	Unspecified:     "unspecified",
	OpenAIChat:      "openai-chat",
	OpenAIResponses: "openai-responses",
	Anthropic:       "anthropic",
	Gemini:          "gemini",
	Bedrock:         "bedrock",
	Cohere:          "cohere",
}

// String returns the provider's short name ("openai-chat", "anthropic", ...),
// or "provider(N)" for a value without a name.
func (p Provider) String() string {
	if int(p) < len(providerNames) {
		return providerNames[p]
	}
	return "provider(" + strconv.Itoa(int(p)) + ")"
}

// Kind is what an Event says about its call.
type Kind uint8

// The kinds of Event. The zero Kind is not used.
const (
	Start Kind = iota + 1 // the call begins: Key is set, CallID and ToolName when known
	Delta                 // Fragment is argument JSON text to append to the call
	End                   // the call's arguments are complete
	Name                  // the tool name that the call's Start lacked: ToolName, and CallID when known
	// Conflict: the provider named a second, different tool for a named
	// call (ToolName is that name). The call cannot be validated against
	// either name and must be rejected; its events go on as before.
	Conflict
	// Text: Fragment is message text of the output Key ("output/<n>"),
	// never reasoning. The first Text or Refusal of a Key begins the output.
	Text
	// Refusal: the model refused to answer in the output Key; Fragment is
	// the first piece of the refusal text (possibly empty). At most once.
	Refusal
	// TextEnd: the output Key's message ended (its choice, candidate, item
	// or message finished, or the stream closed).
	TextEnd
	// Unreadable: the call is one a client runs, but its input is not JSON
	// arguments (an OpenAI custom tool's free text, a Responses
	// computer_call's action): Fragment says so in a sentence fit for the
	// model, and ToolName is the call's tool when the provider names one.
	// The call cannot be validated and must be refused; its events go on
	// as before.
	Unreadable
)

// String returns the kind's name: "start", "delta", "end", "name",
// "conflict", "text", "refusal", "textend" or "unreadable".
func (k Kind) String() string {
	switch k {
	case Start:
		return "start"
	case Delta:
		return "delta"
	case End:
		return "end"
	case Name:
		return "name"
	case Conflict:
		return "conflict"
	case Text:
		return "text"
	case Refusal:
		return "refusal"
	case TextEnd:
		return "textend"
	case Unreadable:
		return "unreadable"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Event is one step of one tool call, produced by an Adapter.
//
// For every Key an adapter emits exactly one Start, then any number of Delta,
// then at most one End (exactly one once Close has run); a call whose Start
// had no ToolName gets at most one Name event before its End, when the
// provider names the tool later, and a named call gets at most one Conflict
// when the provider names a different tool for it. A call gets at most one
// Unreadable, before its End, when its input is not JSON arguments; such a
// call's Start has no ToolName unless an earlier event named it, so that the
// Unreadable, which names it, is the reason it is refused. Concatenating a call's Fragments in order
// gives its argument text; it may be empty (a provider that sends nothing
// for a call without parameters) and it may be incomplete JSON (a
// generation cut off by a token limit).
//
// For every output Key ("output/<n>", never a call's key) an adapter emits
// Text events and at most one Refusal, then at most one TextEnd (exactly
// one once Close has run); Text fragments concatenated are the message's
// text.
type Event struct {
	Kind Kind
	// Key identifies the call within the stream; it is never reused for
	// another call. Examples: "choice0/tool1", "fc_abc" (a Responses item id),
	// "msg0/block2", "cand0/call0", "block3", "call0". A call that reuses a
	// provider key already taken gets a "#2", "#3", ... suffix.
	Key string
	// CallID is the provider's id for the call, on Start (and on Name, when
	// it arrived between the two); empty when the provider sends none
	// (Gemini usually) or sends it only later.
	CallID string
	// ToolName is the tool's name, on Start and Name; empty on Start when
	// the provider has not named the tool yet (a Name event follows if it
	// does). On Conflict, the second name; on Unreadable, the call's tool,
	// or empty when the provider names none.
	ToolName string
	// Fragment is argument JSON text on Delta, message text on Text (never
	// empty on either), the first piece of the refusal on Refusal, and on
	// Unreadable why the call cannot be validated, a sentence fit for the
	// model.
	Fragment string
	// Cut is, on TextEnd, the provider's reason for stopping the output
	// before the model finished it (finish_reason "length" or
	// "content_filter", stop_reason "max_tokens", …), or empty: the answer
	// was cut short, even where its text parses.
	Cut string
}

// ErrUnknownProvider is wrapped by the *EventError that New returns for a
// Provider without an adapter.
var ErrUnknownProvider = errors.New("unknown provider")

// ErrTooManyPlaces is wrapped by the *EventError, without Key, of an event
// that would take its adapter past its place limit (see
// Adapter.LimitPlaces): a limit of the stream's, not a malformed event.
var ErrTooManyPlaces = errors.New("too many places")

// EventError reports an event that the adapter could not use: not valid JSON,
// not of the provider's shape (a field of the wrong JSON type, a tool-call
// event without the field that says which call it belongs to), or, for
// Gemini, a partialArgs value that cannot be written as argument text. The
// adapter's state is unchanged by a rejected event unless Key is set.
type EventError struct {
	Provider Provider
	// Key is set when the problem concerns one call that had already begun:
	// that call's argument text no longer matches what the provider sent, and
	// the caller should treat the call as invalid.
	Key string
	// Reason says what is wrong, in words.
	Reason string
	// Err is the underlying error (such as a *json.SyntaxError), or nil.
	Err error
}

// Error returns "<provider> event: [call <key>: ]<reason>".
func (e *EventError) Error() string {
	if e.Key != "" {
		return e.Provider.String() + " event: call " + e.Key + ": " + e.Reason
	}
	return e.Provider.String() + " event: " + e.Reason
}

// Unwrap returns the underlying error, if any.
func (e *EventError) Unwrap() error { return e.Err }

// Adapter turns the raw events of one stream from one provider into call
// Events. It keeps per-call state (names, ids, which calls are open), so use
// one Adapter per stream. It is not safe for concurrent use.
type Adapter struct {
	t tracker
	f feeder
	// done is set once OpenAI's "[DONE]" has ended the stream (see
	// FeedNamed).
	done bool
}

// feeder is the provider-specific half of an Adapter.
type feeder interface {
	// feed handles one event, appending call events through t.
	feed(t *tracker, event []byte) error
	// close finishes whatever provider-specific text open calls still need
	// (Gemini's closing brackets); the tracker then ends them.
	close(t *tracker)
}

// restarter is a feeder whose stream may carry another response after
// "[DONE]": an agent loop that sends each step's stream to one
// ValidateStream, each ending with its "[DONE]".
type restarter interface {
	// begins reports whether event, which came after "[DONE]", begins
	// another response, and if so makes ready for it.
	begins(event []byte) bool
}

// New returns an Adapter for provider p. For Unspecified or an unknown value
// it returns an *EventError wrapping ErrUnknownProvider.
func New(p Provider) (*Adapter, error) {
	var f feeder
	switch p {
	case OpenAIChat:
		f = &openAIChat{}
	case OpenAIResponses:
		f = &openAIResponses{}
	case Anthropic:
		f = &anthropic{}
	case Gemini:
		f = &gemini{}
	case Bedrock:
		f = &bedrock{}
	case Cohere:
		f = &cohere{}
	default:
		return nil, &EventError{Provider: p, Reason: "unknown provider", Err: ErrUnknownProvider}
	}
	return &Adapter{t: tracker{p: p, calls: make(map[string]*call), finalCopies: p == OpenAIResponses,
		maxName: DefaultMaxName, maxPlaces: DefaultMaxPlaces}, f: f}, nil
}

// DefaultMaxName is an Adapter's name limit until LimitNames sets one.
const DefaultMaxName = 1 << 10

// DefaultMaxPlaces is an Adapter's place limit until LimitPlaces sets one:
// far above what real streams name (OpenAI allows 128 Chat choices,
// Gemini 8 candidates, and a Responses response has tens of items).
const DefaultMaxPlaces = 1 << 10

// LimitPlaces sets the most places the adapter keeps state for: the
// choices of an OpenAI Chat stream and the candidates of a Gemini one, over
// the stream's life (their state is kept for late events), and the output
// items of the Responses response under way (response.created begins
// another, and the places with it). A provider's event may name any
// index or item, each of which the adapter would otherwise keep for as
// long, whether or not a call or an output ever comes of it: the event
// that names one more than n is refused whole, an *EventError without
// Key wrapping ErrTooManyPlaces. Anthropic, Bedrock and Cohere keep
// nothing per content block or index but its call or output, which the
// layer above counts (see package stream's MaxCalls), so no place limit
// applies to them. n ≤ 0 keeps DefaultMaxPlaces.
func (a *Adapter) LimitPlaces(n int) {
	if n > 0 {
		a.t.maxPlaces = n
	}
}

// LimitNames sets the longest call id and tool name, in bytes, that the
// adapter keeps whole, and the longest provider key (a Responses item
// id). A longer id or name is given in its events clipped to n+1 bytes,
// so that a consumer bounding names at n sees it is too long; a longer key
// refuses its event (an *EventError without Key), since keys tell calls
// apart. n ≤ 0 keeps DefaultMaxName.
func (a *Adapter) LimitNames(n int) {
	if n > 0 {
		a.t.maxName = n
	}
}

// Feed handles one raw provider event — the JSON payload of one SSE data
// line — and returns dst with the call events it produced appended. Events
// that carry no tool-call data produce nothing.
//
// On error the returned slice still holds every event produced before the
// problem was found; they are valid and must be processed. An *EventError
// without Key means the event was rejected whole and nothing was appended.
func (a *Adapter) Feed(dst []Event, event []byte) ([]Event, error) {
	return a.FeedNamed(dst, "", event)
}

// FeedNamed is Feed for an event that came with a name: a server-sent
// event's "event:" field, or Bedrock's :event-type header. Where the
// provider's SDKs dispatch on that name, it must agree with the payload,
// or the event is an *EventError without Key, refused whole: it must be
// the payload's "type" (Anthropic, Responses), or the member that wraps
// it (Bedrock). The Anthropic SDKs skip a "ping" event, for example, even
// one that carries a tool call's delta, which toolgate would read. OpenAI
// Chat streams name no events, and openai-python and the OpenAI Node SDK
// read a named one differently, so a Chat event may only be named
// "message", the server-sent events default, or "error": the SDKs raise
// on an error event, so it ends every call and cuts every output, as an
// error chunk does, whatever its payload. The Gemini and Cohere SDKs
// read the payload alone, and so does FeedNamed. An empty name says
// nothing: the payload alone is read.
//
// An event without payload (empty, or only white space) produces nothing,
// unless it is named "error": an OpenAI Chat, Responses or Anthropic event
// of that name ends every call and cuts every output without payload too,
// since the SDKs raise on it all the same (anthropic-sdk-python on the
// name alone, openai-python and openai-node on data that is not JSON).
//
// OpenAI's "[DONE]" (white space around it allowed), whatever its name,
// ends an OpenAI Chat or Responses stream as Close does: openai-python
// and openai-node, which read both APIs' streams with one class, stop
// reading there, so what the application gets is what came before. An
// event after it that begins another response (see restarter: an agent
// loop's steps sharing one stream) begins it as the first did; any other
// event but another "[DONE]" or one without payload is an *EventError
// without Key: clients disagree about it (the Vercel AI SDK and many a
// hand-written reader skip "[DONE]" and read on), so no reading of it is
// safe to validate. Other providers send no "[DONE]", and their adapters
// ignore it.
func (a *Adapter) FeedNamed(dst []Event, name string, event []byte) ([]Event, error) {
	if a.f == nil {
		return dst, &EventError{Provider: a.t.p, Reason: "adapter not made by New", Err: ErrUnknownProvider}
	}
	if string(bytes.TrimSpace(event)) == "[DONE]" {
		return a.sentinel(dst), nil
	}
	switch a.t.p {
	case OpenAIChat:
		if name != "" && name != "message" && name != "error" {
			return dst, a.t.errorf("", "the event is named %s, but OpenAI Chat streams name none", quoteName(name))
		}
		if name == "message" {
			name = ""
		}
	case Gemini, Cohere:
		name = ""
	}
	if name != "error" && firstByte(event) < 0 {
		return dst, nil // no payload, and no name that says the stream failed
	}
	if a.done {
		if r, ok := a.f.(restarter); !ok || !r.begins(event) {
			return dst, a.t.errorf("", "the event came after [DONE], where the OpenAI SDKs stop reading the stream and other clients read on, "+
				"and begins no other response")
		}
		a.done = false
	}
	a.t.out, a.t.name = dst, name
	err := a.f.feed(&a.t, event)
	dst, a.t.out = a.t.out, nil
	return dst, err
}

// sentinel handles OpenAI's "[DONE]" (see FeedNamed): it ends an OpenAI
// Chat or Responses stream as Close does, and is nothing to the other
// providers.
func (a *Adapter) sentinel(dst []Event) []Event {
	if a.t.p != OpenAIChat && a.t.p != OpenAIResponses {
		return dst
	}
	a.done = true
	return a.Close(dst)
}

// quoteName quotes an event name, or any text from an event, for a
// reason (see clipped).
func quoteName(s string) string { return strconv.Quote(clipped(s)) }

// clipped is s cut to a length no reason needs more of, for a reason
// that quotes text from an event: a reason may become a finding's
// message, and an event may be megabytes long.
func clipped(s string) string {
	if len(s) > 64 {
		s = strings.ToValidUTF8(s[:64], "") + "…"
	}
	return s
}

// Close ends every call still open — the stream ended without the provider's
// end-of-call event (Gemini, which often has none, or a stream cut short) —
// and returns dst with those events appended. Afterwards every call the
// adapter started has had its End.
func (a *Adapter) Close(dst []Event) []Event {
	if a.f == nil {
		return dst
	}
	a.t.out = dst
	a.f.close(&a.t)
	a.t.endAll()
	dst, a.t.out = a.t.out, nil
	return dst
}

// decode parses one event into v, which must point to a struct, and turns
// any failure into an *EventError. An event a strict client would read
// differently is refused (see checkStrict).
func (t *tracker) decode(event []byte, v any) error {
	err := json.Unmarshal(event, v)
	if err == nil {
		if i := firstByte(event); i < 0 || event[i] != '{' {
			return t.errorf("", "event is null, want a JSON object")
		}
		if err := t.strict.check(event, reflect.TypeOf(v)); err != nil {
			return &EventError{Provider: t.p, Reason: err.Error(), Err: err}
		}
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// Our tokenizer says it better: encoding/json quotes a byte past
		// ASCII as the Latin-1 character ('ï' for a byte order mark's
		// first) and counts the offset after it. It refuses all encoding/json
		// refuses, so a nil answer is only a guard.
		if serr := t.strict.check(event, reflect.TypeOf(v)); serr != nil {
			return &EventError{Provider: t.p, Reason: serr.Error(), Err: err}
		}
		return &EventError{Provider: t.p, Reason: "invalid JSON: " + syn.Error(), Err: err}
	case errors.As(err, &typ) && typ.Field == "":
		return &EventError{Provider: t.p, Reason: "event is " + typ.Value + ", want a JSON object", Err: err}
	case errors.As(err, &typ):
		return &EventError{Provider: t.p, Reason: "field " + typ.Field + " is " + typ.Value + ", want " + jsonKind(typ.Type), Err: err}
	}
	return &EventError{Provider: t.p, Reason: err.Error(), Err: err}
}

// tooManyPlaces is the error of an event that would take what ("stream's
// choices", "response's output items") past the place limit (see
// Adapter.LimitPlaces).
func (t *tracker) tooManyPlaces(what string) *EventError {
	return &EventError{Provider: t.p, Err: ErrTooManyPlaces,
		Reason: fmt.Sprintf("the event would take the %s past the limit of %d", what, t.maxPlaces)}
}

// errorf returns an *EventError for this adapter's provider.
func (t *tracker) errorf(key, format string, args ...any) *EventError {
	return &EventError{Provider: t.p, Key: key, Reason: fmt.Sprintf(format, args...)}
}

// firstByte returns the index of the first non-space byte of b, or -1.
func firstByte(b []byte) int {
	for i, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
	}
	return -1
}

// jsonKind names the JSON type that Go type t is decoded from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return t.String()
}

// probe reads only an event's "type" discriminator.
type probe struct {
	Type string `json:"type"`
}

// eventType decodes the "type" of a typed event (Anthropic, Responses,
// Cohere); an event without one is not of the provider's shape. An event
// named "error" without payload is of type "error".
func (t *tracker) eventType(event []byte) (string, error) {
	if t.name == "error" && firstByte(event) < 0 {
		return "error", nil // an error event without data: the SDKs raise all the same (see FeedNamed)
	}
	var p probe
	if err := t.decode(event, &p); err != nil {
		return "", err
	}
	if p.Type == "" {
		return "", t.errorf("", "event has no \"type\"")
	}
	if t.name != "" && t.name != p.Type {
		return "", t.errorf("", "the event is named %s, but its type is %s", quoteName(t.name), quoteName(p.Type))
	}
	return p.Type, nil
}

// messageFinished reports whether an Anthropic stop_reason or a Bedrock
// stopReason (the two APIs share these names) means the model finished its
// message. Any other reason stopped it — max_tokens, pause_turn, a
// guardrail, malformed output, a reason added later — so an answer it ends
// is cut: an unknown reason fails closed.
func messageFinished(reason string) bool {
	switch reason {
	case "end_turn", "tool_use", "stop_sequence":
		return true
	}
	return false
}

// numbered builds key parts such as "block3" or "choice0/tool2".
func numbered(prefix string, n int) string { return prefix + strconv.Itoa(n) }
