package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"unicode/utf8"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
)

// A StreamEvent is one event of a stream the caller assembles itself, for
// ValidateEvents and ValidateOutputEvents: a call's start (Start), the
// start of the stream's structured-output answer (Answer), a piece of a
// call's or an answer's text (Delta), its end (End), or one raw provider
// event (ProviderEvent). The zero StreamEvent is no event: the stream
// fails with an *EventError if it meets one.
type StreamEvent struct {
	kind     eventKind
	callID   string
	toolName string // Start
	text     string // Delta: the fragment; ProviderEvent: the data
	name     string // ProviderEvent: the event name
}

type eventKind uint8

const (
	_ eventKind = iota
	startEvent
	answerEvent
	deltaEvent
	endEvent
	providerEvent
)

// Start starts call callID (unique within the stream) of tool toolName.
func Start(callID, toolName string) StreamEvent {
	return StreamEvent{kind: startEvent, callID: callID, toolName: toolName}
}

// Answer starts the stream's structured-output answer as call callID, sent
// as plain deltas: its Delta events carry the message text the caller read
// from its provider, held to ValidateOutputEvents' schema (and
// WithStripCodeFence) as a raw provider answer is. Its CallResult has this
// CallId and an empty ToolName; a stream that binds no output
// (ValidateEvents) fails with codes.InvalidArgument.
func Answer(callID string) StreamEvent { return StreamEvent{kind: answerEvent, callID: callID} }

// Delta appends fragment, any piece of the call's arguments or the
// answer's text, to call callID. A fragment may end inside a UTF-8
// character, as a byte slice cut anywhere does: the character's first
// bytes are held back and sent with the call's next fragment, which must
// complete it.
func Delta(callID, fragment string) StreamEvent {
	return StreamEvent{kind: deltaEvent, callID: callID, text: fragment}
}

// End ends call callID; a call that received no argument bytes is
// validated as {}.
func End(callID string) StreamEvent { return StreamEvent{kind: endEvent, callID: callID} }

// ProviderEvent is one raw event of the provider the stream names: data
// is the event's payload (an SSE event's data lines, a Bedrock event's
// JSON), name its event name or "" (the server checks a name against the
// data, as the provider's SDK would read it).
func ProviderEvent(name, data string) StreamEvent {
	return StreamEvent{kind: providerEvent, name: name, text: data}
}

// EventError is the failure of a ValidateEvents or ValidateOutputEvents
// stream whose events could not be sent: N is the event's position (1 for
// the first), Err what was wrong, wrapping ErrInvalidUTF8 for text that
// is not UTF-8.
type EventError struct {
	N   int
	Err error
}

func (e *EventError) Error() string { return fmt.Sprintf("client: stream event %d: %v", e.N, e.Err) }

// Unwrap returns Err.
func (e *EventError) Unwrap() error { return e.Err }

// ValidateEvents validates tool calls that the caller assembles itself
// while the model generates them: from an SDK's typed stream, from
// AWS Bedrock's ConverseStream (whose event-stream framing is not SSE:
// send each event's JSON as a ProviderEvent with p Bedrock), or from
// deltas of its own. events yields Start, Delta and End events, or raw
// ProviderEvents of provider p (0 when there are none), mixed as the
// caller likes; tools and opts bind the tools as for
// ValidateProviderStream, and the results, the receipt, the failures and
// how to stop early are the same, with an *EventError in place of a
// *BodyError. The stream half-closes when events ends.
//
// events is ranged over on a goroutine of its own, once the sequence is
// ranged over, and until it ends or the stream does: a sequence blocked
// waiting for its provider keeps that goroutine until it yields again or
// ends, when it finds the stream over and stops. A fragment that ends
// inside a UTF-8 character is completed by the call's next one (see
// Delta); any other text that is not UTF-8, and a call that ends or a
// sequence that ends with a character still incomplete, fail the stream
// with an *EventError before it is sent.
func (c *Client) ValidateEvents(ctx context.Context, p toolgatev1.Provider, events iter.Seq[StreamEvent], tools map[string]string, opts ...StreamOption) iter.Seq2[*toolgatev1.CallResult, error] {
	cfg := streamConfig{}
	for _, o := range opts {
		o.applyToStream(&cfg)
	}
	return c.eventsSeq(ctx, p, events, cfg.binds(tools))
}

// ValidateOutputEvents validates structured output that the caller reads
// from its provider itself, as ValidateOutputStream validates it from the
// provider's body: events are raw ProviderEvents of provider p, or an
// Answer and its Deltas and End, and tool calls as ValidateEvents sends
// them; schemaJSON and opts are ValidateOutputStream's.
func (c *Client) ValidateOutputEvents(ctx context.Context, p toolgatev1.Provider, events iter.Seq[StreamEvent], schemaJSON string, opts ...StreamOption) iter.Seq2[*toolgatev1.CallResult, error] {
	cfg := outputConfig(opts)
	return c.eventsSeq(ctx, p, events, cfg.outputBinds(schemaJSON))
}

// eventsSeq returns the sequence of one stream of events: binds sent
// first, then events (see ValidateEvents).
func (c *Client) eventsSeq(ctx context.Context, p toolgatev1.Provider, events iter.Seq[StreamEvent], binds []*toolgatev1.StreamBind) iter.Seq2[*toolgatev1.CallResult, error] {
	return seqOnce(func(yield func(*toolgatev1.CallResult, error) bool) {
		r := &providerStream{provider: p}
		r.source = func(out chan<- *toolgatev1.ValidateStreamRequest) { r.pullEvents(events, out) }
		r.run(ctx, c.api, binds, yield)
	})
}

// pullEvents turns events into requests for the sender, and closes out
// when events ends cleanly (see read).
func (r *providerStream) pullEvents(events iter.Seq[StreamEvent], out chan<- *toolgatev1.ValidateStreamRequest) {
	held := map[string]string{} // call id -> the first bytes of a character its last fragment cut
	n := 0
	for ev := range events {
		n++
		if r.ctx.Err() != nil {
			return
		}
		req, err := ev.request(r.provider, held)
		if err != nil {
			r.fail(&EventError{N: n, Err: err})
			return
		}
		select {
		case out <- req:
		case <-r.ctx.Done():
			return
		}
	}
	if len(held) > 0 {
		id := slices.Min(slices.Collect(maps.Keys(held))) // the same call named every run
		r.fail(&EventError{N: n, Err: fmt.Errorf("%w: the events ended inside a character of call %q", ErrInvalidUTF8, id)})
		return
	}
	close(out)
}

// request is the ValidateStreamRequest of ev, on a stream of provider p.
// held carries, by call id, the first bytes of a UTF-8 character that a
// call's last fragment cut, to send with its next one.
func (ev StreamEvent) request(p toolgatev1.Provider, held map[string]string) (*toolgatev1.ValidateStreamRequest, error) {
	checkText := func(what, s string) error {
		if utf8.ValidString(s) {
			return nil
		}
		return fmt.Errorf("%w: the %s %q", ErrInvalidUTF8, what, s)
	}
	switch ev.kind {
	case startEvent:
		if err := errors.Join(checkText("call id", ev.callID), checkText("tool name", ev.toolName)); err != nil {
			return nil, err
		}
		return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{CallId: ev.callID, ToolName: ev.toolName}}}, nil
	case answerEvent:
		if err := checkText("call id", ev.callID); err != nil {
			return nil, err
		}
		return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{CallId: ev.callID, Output: true}}}, nil
	case deltaEvent:
		if err := checkText("call id", ev.callID); err != nil {
			return nil, err
		}
		fragment, rest, err := completeCharacters(held[ev.callID] + ev.text)
		if err != nil {
			return nil, fmt.Errorf("%w in a fragment of call %q at byte %d", ErrInvalidUTF8, ev.callID, len(fragment))
		}
		if rest == "" {
			delete(held, ev.callID)
		} else {
			held[ev.callID] = rest
		}
		return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Delta{Delta: &toolgatev1.CallDelta{CallId: ev.callID, Fragment: fragment}}}, nil
	case endEvent:
		if err := checkText("call id", ev.callID); err != nil {
			return nil, err
		}
		if _, cut := held[ev.callID]; cut {
			return nil, fmt.Errorf("%w: call %q ends inside a character", ErrInvalidUTF8, ev.callID)
		}
		return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_End{End: &toolgatev1.CallEnd{CallId: ev.callID}}}, nil
	case providerEvent:
		if err := errors.Join(checkText("event name", ev.name), checkText("event data", ev.text)); err != nil {
			return nil, err
		}
		if p == 0 {
			return nil, errors.New("a provider event on a stream that names no provider")
		}
		return providerRequest(p, ev.name, ev.text), nil
	}
	return nil, errors.New("the zero StreamEvent: make events with Start, Answer, Delta, End or ProviderEvent")
}

// completeCharacters splits s into its complete UTF-8 text and the first
// bytes of a character cut at its end (at most 3), or fails at the first
// byte that no character can begin or continue; text is then the valid
// part before it.
func completeCharacters(s string) (text, rest string, err error) {
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size <= 1 {
			// Not a full rune: the bytes begin a valid character and the
			// string ends before it does (an invalid byte is a full one).
			if !utf8.FullRuneInString(s[i:]) {
				return s[:i], s[i:], nil
			}
			return s[:i], "", ErrInvalidUTF8
		}
		i += size
	}
	return s, "", nil
}
