package client_test

import (
	"encoding/json"
	"errors"
	"iter"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/toolgate/toolgate/client"
	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/server"
)

// callEvents are the events of one call of tool whose arguments come in
// fragments.
func callEvents(id, tool string, fragments ...string) []client.StreamEvent {
	evs := []client.StreamEvent{client.Start(id, tool)}
	for _, f := range fragments {
		evs = append(evs, client.Delta(id, f))
	}
	return append(evs, client.End(id))
}

// TestValidateEventsCalls: calls the caller assembles are validated as a
// provider stream's are, early rejection included, each call on its own,
// interleaved; a fragment may end inside a UTF-8 character, which the
// call's next fragment completes.
func TestValidateEventsCalls(t *testing.T) {
	t.Parallel()
	c, tools := newTodoStream(t)
	good := `{"action":"add","content":"café ☕"}`
	cutE, cutCup := strings.Index(good, "é")+1, strings.Index(good, "☕")+2 // inside the two characters
	events := slices.Concat(
		[]client.StreamEvent{client.Start("good", "todo"), client.Start("bad", "todo")},
		[]client.StreamEvent{client.Delta("good", good[:cutE]), client.Delta("bad", badTodo[0])},
		[]client.StreamEvent{client.Delta("good", good[cutE:cutCup]), client.Delta("bad", badTodo[1]), client.Delta("good", good[cutCup:])},
		[]client.StreamEvent{client.Delta("bad", badTodo[2]), client.End("good"), client.End("bad")},
		callEvents("none", "todo"), callEvents("who", "search", "{}"),
	)
	results, err := collect(t, c.ValidateEvents(t.Context(), 0, slices.Values(events), tools))
	require.NoError(t, err)
	byID := map[string]*toolgatev1.CallResult{}
	for _, r := range results {
		byID[r.GetCallId()] = r
	}
	require.Len(t, byID, 4, "one result per call")
	assert.Equal(t, verdict{CallID: "good", Tool: "todo", Valid: true}, verdictOf(byID["good"]), "%v", byID["good"].GetErrors())
	assert.Equal(t, int64(len(good)), byID["good"].GetBytes(), "every byte arrived once, the cut characters whole")
	assert.Equal(t, verdict{CallID: "bad", Tool: "todo", Early: true, Keyword: "enum"}, verdictOf(byID["bad"]))
	assert.Equal(t, badTodoOffset, byID["bad"].GetErrors()[0].GetOffset())
	assert.Equal(t, verdict{CallID: "none", Tool: "todo", Keyword: "required"}, verdictOf(byID["none"]), "no arguments are {}")
	assert.Equal(t, verdict{CallID: "who", Tool: "search", Early: true, Keyword: "tool_name"}, verdictOf(byID["who"]))
}

// TestValidateEventsProviderEvents: raw provider events sent one by one
// (as an SDK's typed stream or Bedrock's ConverseStream gives them) get
// the results the same events get in a provider body.
func TestValidateEventsProviderEvents(t *testing.T) {
	t.Parallel()
	c, tools := newTodoStream(t)
	calls := []anthropicCall{
		{id: "toolu_1", name: "todo", fragments: []string{`{"action":`, `"add"}`}},
		{id: "toolu_2", name: "todo", fragments: badTodo},
	}
	body := anthropicStream(calls...)
	fromBody, err := collect(t, c.ValidateProviderStream(t.Context(), client.Anthropic, strings.NewReader(body), tools))
	require.NoError(t, err)
	var events []client.StreamEvent
	sse := client.NewSSEReader(strings.NewReader(body), 0)
	for ev, err := sse.Next(); err == nil; ev, err = sse.Next() {
		events = append(events, client.ProviderEvent(ev.Type, ev.Data))
	}
	fromEvents, err := collect(t, c.ValidateEvents(t.Context(), client.Anthropic, slices.Values(events), tools))
	require.NoError(t, err)
	require.Len(t, fromEvents, 2)
	assert.Equal(t, verdicts(fromBody), verdicts(fromEvents))
	assert.Equal(t, fromBody[1].GetErrors()[0].GetOffset(), fromEvents[1].GetErrors()[0].GetOffset())
}

// TestValidateOutputEvents: an answer sent as plain deltas is held to the
// output schema and the fence rule; its result has the Answer's call id.
func TestValidateOutputEvents(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	const schema = `{"type":"object","required":["reason"],"properties":{"reason":{"enum":["damaged","other"]}}}`
	fenced := "```json\n{\"reason\": \"other\"}\n```"
	answer := func(id, text string) []client.StreamEvent {
		evs := []client.StreamEvent{client.Answer(id)}
		for _, p := range pieces(text, 4) {
			evs = append(evs, client.Delta(id, p))
		}
		return append(evs, client.End(id))
	}
	events := slices.Concat(answer("a1", fenced), answer("a2", `{"reason": "late"}`))
	results, err := collect(t, c.ValidateOutputEvents(t.Context(), 0, slices.Values(events), schema, client.WithStripCodeFence()))
	require.NoError(t, err)
	slices.SortFunc(results, func(a, b *toolgatev1.CallResult) int { return strings.Compare(a.GetCallId(), b.GetCallId()) })
	assert.Equal(t, []verdict{{CallID: "a1", Valid: true}, {CallID: "a2", Early: true, Keyword: "enum"}}, verdicts(results))

	results, err = collect(t, c.ValidateOutputEvents(t.Context(), 0, slices.Values(answer("a1", fenced)), schema))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "a1", Early: true, Keyword: "json"}}, verdicts(results), "a fence not stripped is a finding")

	_, err = collect(t, c.ValidateEvents(t.Context(), 0, slices.Values(answer("a", "{}")), nil))
	assert.Equal(t, codes.InvalidArgument, status.Code(err), "a stream that binds no output has no answer: %v", err)
}

// TestValidateEventsRefusesWhatCannotBeSent: text that is not UTF-8, a
// call or a stream that ends inside a character, a provider event on a
// stream that names no provider and the zero StreamEvent fail the stream
// with an *EventError naming the event, before it is sent; the results of
// what came before still arrive.
func TestValidateEventsRefusesWhatCannotBeSent(t *testing.T) {
	t.Parallel()
	c, tools := newTodoStream(t)
	before := callEvents("ok", "todo", `{"action":"add"}`)
	for _, tc := range []struct {
		name   string
		events []client.StreamEvent
		utf8   bool
	}{
		{"an invalid byte", []client.StreamEvent{client.Start("x", "todo"), client.Delta("x", "{\"id\":\"\xff\"}")}, true},
		{"a byte no character continues with", []client.StreamEvent{client.Start("x", "todo"), client.Delta("x", "{\"id\":\"\xc3"), client.Delta("x", "(\"}")}, true},
		{"a call ending inside a character", []client.StreamEvent{client.Start("x", "todo"), client.Delta("x", "{\"id\":\"\xe2\x98"), client.End("x")}, true},
		{"events ending inside a character", []client.StreamEvent{client.Start("x", "todo"), client.Delta("x", "{\"id\":\"\xf0")}, true},
		{"a tool name", []client.StreamEvent{client.Start("x", "to\xffdo")}, true},
		{"a provider event without a provider", []client.StreamEvent{client.ProviderEvent("ping", `{"type":"ping"}`)}, false},
		{"the zero event", []client.StreamEvent{{}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			results, err := collect(t, c.ValidateEvents(t.Context(), 0, slices.Values(slices.Concat(before, tc.events)), tools))
			var evErr *client.EventError
			require.ErrorAs(t, err, &evErr)
			assert.Equal(t, tc.utf8, errors.Is(err, client.ErrInvalidUTF8), "%v", err)
			assert.LessOrEqual(t, evErr.N, len(before)+len(tc.events))
			assert.Greater(t, evErr.N, len(before), "the event that failed is named")
			for _, r := range results {
				assert.Equal(t, "ok", r.GetCallId(), "only what came before has a result")
			}
		})
	}
}

// TestValidateEventsStopsPullingWhenTheStreamEnds: a caller that breaks
// out after the first result ends the stream, and the events sequence,
// quiet meanwhile as a provider may be, is told to stop the next time it
// yields (TestMain checks that no goroutine outlives the test).
func TestValidateEventsStopsPullingWhenTheStreamEnds(t *testing.T) {
	t.Parallel()
	c, tools := newTodoStream(t)
	release, stopped := make(chan struct{}), make(chan struct{})
	events := iter.Seq[client.StreamEvent](func(yield func(client.StreamEvent) bool) {
		defer close(stopped)
		for _, ev := range callEvents("bad", "todo", badTodo...) {
			if !yield(ev) {
				return
			}
		}
		<-release // the provider goes quiet
		for yield(client.Start("more", "todo")) {
		}
	})
	for r, err := range c.ValidateEvents(t.Context(), 0, events, tools) {
		require.NoError(t, err)
		assert.Equal(t, "bad", r.GetCallId())
		break
	}
	close(release)
	<-stopped
}

// TestValidateEventsBedrock: a recorded Bedrock ConverseStream, each event
// sent as the SDKs yield it with its :event-type as the name, is checked
// call by call: valid against a schema it meets, rejected early against
// one it breaks.
func TestValidateEventsBedrock(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	text, err := os.ReadFile(fixtures.Testdata(t, "provider-streams/bedrock/claude-get-weather-2-deltas.jsonl"))
	require.NoError(t, err)
	var events []client.StreamEvent
	for line := range strings.Lines(string(text)) {
		var wrapped map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &wrapped))
		require.Len(t, wrapped, 1, "an event is wrapped in its type")
		for typ := range wrapped {
			events = append(events, client.ProviderEvent(typ, strings.TrimSpace(line)))
		}
	}
	for _, tc := range []struct {
		schema string
		want   verdict
	}{
		{`{"type":"object","required":["location"],"properties":{"location":{"type":"string"}}}`,
			verdict{CallID: "toolu_01PQjhxo3eirCdKNvCJrKc8f", Tool: "get-weather", Valid: true}},
		{`{"type":"object","required":["location"],"properties":{"location":{"type":"string","enum":["Oslo"]}}}`,
			verdict{CallID: "toolu_01PQjhxo3eirCdKNvCJrKc8f", Tool: "get-weather", Early: true, Keyword: "enum"}},
	} {
		resp, err := c.Compile(t.Context(), tc.schema)
		require.NoError(t, err)
		results, err := collect(t, c.ValidateEvents(t.Context(), client.Bedrock, slices.Values(events), map[string]string{"get-weather": resp.GetHandle()}))
		require.NoError(t, err)
		assert.Equal(t, []verdict{tc.want}, verdicts(results))
	}
}
