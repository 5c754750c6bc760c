package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/toolgate/toolgate/client"
	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/server"
)

// todoSchema is the input schema of the "todo" tool the stream tests call.
const todoSchema = `{"type":"object","properties":{
	"action":{"type":"string","enum":["add","update","complete","remove","list","clear"]},
	"id":{"type":"string"},"content":{"type":"string"},
	"status":{"type":"string","enum":["pending","in_progress","completed"]}},
	"required":["action"]}`

// The arguments of a todo call whose status no enum choice starts with,
// cut so that the second fragment holds the first impossible byte.
var badTodo = []string{`{"action":"add",`, `"status":"bl`, `ocked"}`}

// badTodoOffset is the offset of that byte: the 'b' of "blocked".
var badTodoOffset = int64(strings.Index(strings.Join(badTodo, ""), "blocked"))

// newTodoStream starts a replica, compiles todoSchema on it and returns a
// client for it and the tools map that binds "todo".
func newTodoStream(t *testing.T) (*client.Client, map[string]string) {
	t.Helper()
	c := dialReplica(t, newReplica(t, server.Config{}))
	resp, err := c.Compile(t.Context(), todoSchema)
	require.NoError(t, err)
	require.NotEmpty(t, resp.GetHandle(), "%v", resp.GetErrors())
	return c, map[string]string{"todo": resp.GetHandle()}
}

// sseEvent is one server-sent event for a test body.
type sseEvent struct{ typ, data string }

// sseBody writes events the way providers do: an "event:" line when the
// event has a type, one "data:" line, a blank line.
func sseBody(events ...sseEvent) string {
	var b strings.Builder
	for _, ev := range events {
		if ev.typ != "" {
			fmt.Fprintf(&b, "event: %s\n", ev.typ)
		}
		fmt.Fprintf(&b, "data: %s\n\n", ev.data)
	}
	return b.String()
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// anthropicCall is a tool_use content block of an Anthropic stream.
type anthropicCall struct {
	id, name  string
	fragments []string // partial_json values, after the usual first ""
	open      bool     // no content_block_stop: the body ends inside the call
}

// anthropicStart is the opening of an Anthropic message stream.
var anthropicStart = []sseEvent{{"message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}}`}}

// anthropicBlock returns the events of call as content block index.
func anthropicBlock(index int, call anthropicCall) []sseEvent {
	evs := []sseEvent{{"content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%s,"name":%s,"input":{}}}`, index, quote(call.id), quote(call.name))}}
	for _, f := range append([]string{""}, call.fragments...) {
		evs = append(evs, sseEvent{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, index, quote(f))})
	}
	if !call.open {
		evs = append(evs, sseEvent{"content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index)})
	}
	return evs
}

// anthropicEnd closes an Anthropic message stream.
var anthropicEnd = []sseEvent{
	{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":42}}`},
	{"message_stop", `{"type":"message_stop"}`},
}

// anthropicStream is a whole Anthropic stream: a text block, then calls;
// the closing events are left out when the last call is open.
func anthropicStream(calls ...anthropicCall) string {
	evs := slices.Clone(anthropicStart)
	evs = append(evs,
		sseEvent{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
		sseEvent{"ping", `{"type": "ping"}`},
		sseEvent{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"On it."}}`},
		sseEvent{"content_block_stop", `{"type":"content_block_stop","index":0}`})
	for i, c := range calls {
		evs = append(evs, anthropicBlock(i+1, c)...)
	}
	if len(calls) == 0 || !calls[len(calls)-1].open {
		evs = append(evs, anthropicEnd...)
	}
	return sseBody(evs...)
}

// openAIChunk is one chat.completion.chunk carrying one tool_calls entry
// (first: with id and name) or, with finish set, only the finish_reason.
func openAIChunk(first bool, id, name, args string, finish bool) sseEvent {
	const head = `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":`
	switch {
	case finish:
		return sseEvent{"", head + `{},"finish_reason":"tool_calls"}]}`}
	case first:
		return sseEvent{"", head + fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}]},"finish_reason":null}]}`, quote(id), quote(name), quote(args))}
	}
	return sseEvent{"", head + fmt.Sprintf(`{"tool_calls":[{"index":0,"function":{"arguments":%s}}]},"finish_reason":null}]}`, quote(args))}
}

// openAIStream is a whole OpenAI Chat stream of one call, [DONE] included.
func openAIStream(id, name string, fragments ...string) string {
	evs := []sseEvent{openAIChunk(true, id, name, "", false)}
	for _, f := range fragments {
		evs = append(evs, openAIChunk(false, "", "", f, false))
	}
	evs = append(evs, openAIChunk(false, "", "", "", true), sseEvent{"", "[DONE]"})
	return sseBody(evs...)
}

// collect ranges over a sequence to its end and returns the results and
// the error it ended with. It checks that an error comes last, alone.
func collect(t *testing.T, seq func(func(*toolgatev1.CallResult, error) bool)) ([]*toolgatev1.CallResult, error) {
	t.Helper()
	var results []*toolgatev1.CallResult
	var failure error
	for res, err := range seq {
		require.NoError(t, failure, "nothing may follow an error")
		if err != nil {
			assert.Nil(t, res, "an error comes with a nil result")
			failure = err
			continue
		}
		require.NotNil(t, res)
		results = append(results, res)
	}
	return results, failure
}

// verdict is what the tests check of a CallResult.
type verdict struct {
	CallID, Tool string
	Valid, Early bool
	Keyword      string // of errors[0]
}

func verdictOf(r *toolgatev1.CallResult) verdict {
	v := verdict{CallID: r.GetCallId(), Tool: r.GetToolName(), Valid: r.GetValid(), Early: r.GetEarly()}
	if errs := r.GetErrors(); len(errs) > 0 {
		v.Keyword = errs[0].GetKeyword()
	}
	return v
}

func TestValidateProviderStream(t *testing.T) {
	t.Parallel()
	c, tools := newTodoStream(t)
	validAnthropic := anthropicStream(anthropicCall{id: "toolu_1", name: "todo", fragments: []string{`{"action":`, `"add","content":"milk"}`}})
	cases := []struct {
		name     string
		provider toolgatev1.Provider
		body     string
		want     []verdict
	}{
		{"anthropic valid", client.Anthropic, validAnthropic,
			[]verdict{{CallID: "toolu_1", Tool: "todo", Valid: true}}},
		{"openai chat valid, ended by [DONE]", client.OpenAIChat,
			openAIStream("call_1", "todo", `{"act`, `ion":"list"}`),
			[]verdict{{CallID: "call_1", Tool: "todo", Valid: true}}},
		// The missing key is known at the closing brace, before the
		// provider's finish_reason ends the call: that is early too.
		{"openai chat missing a required key", client.OpenAIChat,
			openAIStream("call_1", "todo", `{"content":`, `"milk"}`),
			[]verdict{{CallID: "call_1", Tool: "todo", Early: true, Keyword: "required"}}},
		// Whether this verdict, made at the call's start, counts as early
		// is the server's business: Early is not compared here.
		{"unbound tool name", client.Anthropic,
			anthropicStream(anthropicCall{id: "toolu_9", name: "shell", fragments: []string{`{"cmd":"ls"}`}}),
			[]verdict{{CallID: "toolu_9", Tool: "shell", Keyword: "tool_name"}}},
		{"two calls, the second cut off by the body's end", client.Anthropic,
			anthropicStream(
				anthropicCall{id: "toolu_1", name: "todo", fragments: []string{`{"action":"list"}`}},
				anthropicCall{id: "toolu_2", name: "todo", fragments: []string{`{"action":"add","content":"mi`}, open: true}),
			[]verdict{{CallID: "toolu_1", Tool: "todo", Valid: true}, {CallID: "toolu_2", Tool: "todo", Keyword: "json"}}},
		{"CRLF line ends", client.Anthropic, strings.ReplaceAll(validAnthropic, "\n", "\r\n"),
			[]verdict{{CallID: "toolu_1", Tool: "todo", Valid: true}}},
		{"CR line ends", client.Anthropic, strings.ReplaceAll(validAnthropic, "\n", "\r"),
			[]verdict{{CallID: "toolu_1", Tool: "todo", Valid: true}}},
		{"multi-line data, comments, no space after colons, id and retry fields", client.Anthropic,
			": connected\r\n\r\n" + strings.NewReplacer(
				"data: ", "id: 7\nretry: 3000\n: keep-alive\ndata:",
				`,"content_block":`, ",\n"+`data:  "content_block" :`,
				`,"delta":`, ",\r\n"+`data:"delta":`,
			).Replace(validAnthropic),
			[]verdict{{CallID: "toolu_1", Tool: "todo", Valid: true}}},
		{"no tool calls", client.Anthropic, anthropicStream(), nil},
		{"empty body", client.OpenAIChat, "", nil},
		{"only comments and blank lines", client.OpenAIChat, ": keep-alive\n\n:\r\n\r\n\n: unterminated", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			results, err := collect(t, c.ValidateProviderStream(t.Context(), tc.provider, strings.NewReader(tc.body), tools))
			require.NoError(t, err)
			var got []verdict
			for _, r := range results {
				v := verdictOf(r)
				if v.Keyword == "tool_name" {
					v.Early = false
				}
				got = append(got, v)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// toolgateStream is the server's side of a ValidateStream.
type toolgateStream = grpc.BidiStreamingServer[toolgatev1.ValidateStreamRequest, toolgatev1.ValidateStreamResponse]

// receipt is a StreamEnd message counting events and results.
func receipt(events, results int64) *toolgatev1.ValidateStreamResponse {
	return &toolgatev1.ValidateStreamResponse{Event: &toolgatev1.ValidateStreamResponse_End{End: &toolgatev1.StreamEnd{Events: events, Results: results}}}
}

// fakeResult is a valid CallResult for the call id.
func fakeResult(id string) *toolgatev1.ValidateStreamResponse {
	return &toolgatev1.ValidateStreamResponse{Event: &toolgatev1.ValidateStreamResponse_Result{Result: &toolgatev1.CallResult{CallId: id, Valid: true}}}
}

// eventEnd returns the length of body up to the end of the event holding s.
func eventEnd(body, s string) int {
	i := strings.Index(body, s)
	return i + strings.Index(body[i:], "\n\n") + 2
}

// TestValidateProviderStreamEarly proves that a rejection reaches the caller
// while the body is still open: the body is a pipe whose writer stops after
// the event with the first impossible byte until the caller has the result.
func TestValidateProviderStreamEarly(t *testing.T) {
	t.Parallel()
	c, tools := newTodoStream(t)
	anthropic := anthropicStream(anthropicCall{id: "toolu_1", name: "todo", fragments: badTodo})
	openAI := openAIStream("call_1", "todo", badTodo...)
	cases := []struct {
		name     string
		provider toolgatev1.Provider
		body     string
		cut      int // the body's length up to the bad event
		id       string
	}{
		{"anthropic", client.Anthropic, anthropic, eventEnd(anthropic, quote(badTodo[1])), "toolu_1"},
		{"openai chat", client.OpenAIChat, openAI, eventEnd(openAI, quote(badTodo[1])), "call_1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			head, tail := tc.body[:tc.cut], tc.body[tc.cut:]
			require.True(t, strings.HasSuffix(head, "}\n\n"), "the cut ends the bad event: %q", head[len(head)-30:])
			pr, rejected, wrote := heldBody(head, tail)

			var results []*toolgatev1.CallResult
			for res, err := range c.ValidateProviderStream(t.Context(), tc.provider, pr, tools) {
				require.NoError(t, err)
				results = append(results, res)
				if len(results) == 1 {
					close(rejected) // only now may the body go on
				}
			}
			require.NoError(t, <-wrote)
			require.Len(t, results, 1, "exactly one result per call")
			r := results[0]
			assert.Equal(t, tc.id, r.GetCallId())
			assert.False(t, r.GetValid())
			assert.True(t, r.GetEarly(), "rejected before the call ended")
			assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, r.GetCode())
			require.NotEmpty(t, r.GetErrors())
			assert.Equal(t, "enum", r.GetErrors()[0].GetKeyword())
			assert.Equal(t, "/status", r.GetErrors()[0].GetInstancePath())
			assert.Equal(t, badTodoOffset, r.GetErrors()[0].GetOffset(), "the 'b' of \"blocked\"")
			assert.Equal(t, int64(len(badTodo[0])+len(badTodo[1])), r.GetBytes(), "the verdict came with the bad fragment")
		})
	}
}

func TestValidateProviderStreamErrors(t *testing.T) {
	t.Parallel()
	c, tools := newTodoStream(t)
	valid := anthropicStream(anthropicCall{id: "toolu_1", name: "todo", fragments: []string{`{"action":"list"}`}})
	errBoom := errors.New("boom")
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	cases := []struct {
		name     string
		ctx      context.Context
		provider toolgatev1.Provider
		body     io.Reader
		tools    map[string]string
		opts     []client.StreamOption
		check    func(t *testing.T, err error)
	}{
		{name: "line longer than the bound", provider: client.Anthropic,
			body: strings.NewReader(sseBody(sseEvent{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"` + strings.Repeat("x", 300) + `"}}`})),
			opts: []client.StreamOption{client.WithMaxEventBytes(256)},
			check: func(t *testing.T, err error) {
				var be *client.BodyError
				require.ErrorAs(t, err, &be)
				assert.ErrorIs(t, err, client.ErrEventTooLong)
			}},
		{name: "data lines longer than the bound together", provider: client.Anthropic,
			body: strings.NewReader("data: {\"type\":\n" + strings.Repeat("data: \"\"\n", 100) + "\n"),
			opts: []client.StreamOption{client.WithMaxEventBytes(256)},
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, client.ErrEventTooLong)
			}},
		{name: "body read error", provider: client.Anthropic,
			body: io.MultiReader(strings.NewReader(valid[:len(valid)/2]), iotest.ErrReader(errBoom)),
			check: func(t *testing.T, err error) {
				var be *client.BodyError
				require.ErrorAs(t, err, &be)
				assert.ErrorIs(t, err, errBoom)
				assert.Equal(t, "client: reading the provider stream: boom", err.Error())
			}},
		// Invalid UTF-8 fails closed on the client's side, a *BodyError
		// and not a status: the server refuses such an event anyway.
		{name: "invalid UTF-8 in data", provider: client.Anthropic,
			body: strings.NewReader(sseBody(anthropicStart...) + "event: content_block_delta\ndata: {\"caf\xe9\"}\n\n" + valid),
			check: func(t *testing.T, err error) {
				var be *client.BodyError
				require.ErrorAs(t, err, &be)
				assert.ErrorIs(t, err, client.ErrInvalidUTF8)
				assert.Equal(t, codes.Unknown, status.Code(err), "not a gRPC status")
				assert.ErrorContains(t, err, `byte 5 of the data of event 2 ("content_block_delta")`)
			}},
		{name: "invalid UTF-8 in an event name", provider: client.Anthropic,
			body: strings.NewReader("event: pi\xffng\ndata: {\"type\":\"ping\"}\n\n" + valid),
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, client.ErrInvalidUTF8)
				assert.ErrorContains(t, err, `byte 2 of the name of event 1 ("pi\xffng")`)
			}},
		// A body that is not an event stream: nothing in it would be
		// checked, so it is no clean end.
		{name: "non-streamed completion", provider: client.OpenAIChat,
			body: strings.NewReader(`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"todo","arguments":"{\"action\":\"explode\"}"}}]},"finish_reason":"tool_calls"}]}`),
			check: func(t *testing.T, err error) {
				var be *client.BodyError
				require.ErrorAs(t, err, &be)
				assert.ErrorIs(t, err, client.ErrNoEvents)
			}},
		{name: "Gemini without alt=sse", provider: client.Gemini,
			body: strings.NewReader("[{\n  \"candidates\": []\n}\n]\n"),
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, client.ErrNoEvents)
			}},
		{name: "fields but no event: the last one lacks its blank line", provider: client.Anthropic,
			body: strings.NewReader(": hi\n\nevent: message_start\ndata: {}"),
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, client.ErrNoEvents)
			}},
		{name: "malformed event", provider: client.Anthropic,
			body: strings.NewReader(sseBody(sseEvent{"content_block_delta", `{"type":"content_block_delta","index":`})),
			check: func(t *testing.T, err error) {
				assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
			}},
		// The Anthropic SDKs skip a ping, whatever its data: the event's
		// name travels with it, and one that disagrees with the payload
		// is refused.
		{name: "a tool call's delta named ping", provider: client.Anthropic,
			body: strings.NewReader(sseBody(append(slices.Clone(anthropicStart),
				sseEvent{"ping", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{}"}}`})...)),
			check: func(t *testing.T, err error) {
				assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
				assert.Contains(t, status.Convert(err).Message(), `named "ping", but its type is "content_block_delta"`)
			}},
		{name: "event of another provider's shape", provider: client.Anthropic,
			body: strings.NewReader(openAIStream("call_1", "todo", `{"action":"list"}`)),
			check: func(t *testing.T, err error) {
				assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
			}},
		{name: "unspecified provider", provider: toolgatev1.Provider_PROVIDER_UNSPECIFIED,
			body: strings.NewReader(valid),
			check: func(t *testing.T, err error) {
				assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
			}},
		{name: "malformed handle", provider: client.Anthropic,
			body:  strings.NewReader(valid),
			tools: map[string]string{"todo": "tg1_x"},
			check: func(t *testing.T, err error) {
				assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
			}},
		{name: "context already cancelled", ctx: cancelled, provider: client.Anthropic,
			body: strings.NewReader(valid),
			check: func(t *testing.T, err error) {
				assert.Equal(t, codes.Canceled, status.Code(err), "%v", err)
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := tc.ctx
			if ctx == nil {
				ctx = t.Context()
			}
			bound := tools
			if tc.tools != nil {
				bound = tc.tools
			}
			_, err := collect(t, c.ValidateProviderStream(ctx, tc.provider, tc.body, bound, tc.opts...))
			require.Error(t, err)
			tc.check(t, err)
		})
	}

	t.Run("ranged twice", func(t *testing.T) {
		t.Parallel()
		seq := c.ValidateProviderStream(t.Context(), client.Anthropic, strings.NewReader(valid), tools)
		results, err := collect(t, seq)
		require.NoError(t, err)
		assert.Len(t, results, 1)
		results, err = collect(t, seq)
		assert.Empty(t, results)
		assert.ErrorContains(t, err, "only once")
	})
}

// blockingBody is a provider body under the test's control: a pipe that
// has sent a valid todo call and then stays open, as a provider still
// generating does.
type blockingBody struct {
	*io.PipeReader
	pw    *io.PipeWriter
	wrote chan error // the result of writing the first call
}

func newBlockingBody(t *testing.T, extras ...sseEvent) *blockingBody {
	t.Helper()
	pr, pw := io.Pipe()
	b := &blockingBody{PipeReader: pr, pw: pw, wrote: make(chan error, 1)}
	body := sseBody(slices.Concat(anthropicStart, anthropicBlock(0, anthropicCall{id: "toolu_1", name: "todo", fragments: []string{`{"action":"list"}`}}), extras)...)
	go func() {
		_, err := io.WriteString(pw, body)
		b.wrote <- err
	}()
	t.Cleanup(func() { _ = pw.Close() })
	return b
}

// aborted reports whether the reading side of the body has been closed:
// a write then fails with io.ErrClosedPipe.
func (b *blockingBody) aborted() bool {
	_, err := b.pw.Write([]byte("\n"))
	return errors.Is(err, io.ErrClosedPipe)
}

// clientGoroutines returns the stacks of the goroutines running code of
// package client (not client_test).
func clientGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var found []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "github.com/toolgate/toolgate/client.") {
			found = append(found, g)
		}
	}
	return found
}

// requireClientGoroutines waits until n goroutines run package client code.
func requireClientGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		g := clientGoroutines()
		if len(g) == n {
			return
		}
		if time.Now().After(deadline) {
			require.Failf(t, "goroutines of package client", "want %d, have %d:\n%s", n, len(g), strings.Join(g, "\n\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestValidateProviderStreamStops covers every way a sequence ends early.
// It is not parallel, so that it can count the goroutines of package
// client: none may outlive the loop.
func TestValidateProviderStreamStops(t *testing.T) {
	r := newReplica(t, server.Config{})
	c := dialReplica(t, r)
	resp, err := c.Compile(t.Context(), todoSchema)
	require.NoError(t, err)
	tools := map[string]string{"todo": resp.GetHandle()}
	requireClientGoroutines(t, 0)

	t.Run("caller stops at the first result", func(t *testing.T) {
		body := newBlockingBody(t)
		n := 0
		for res, err := range c.ValidateProviderStream(t.Context(), client.Anthropic, body, tools) {
			require.NoError(t, err)
			assert.True(t, res.GetValid())
			n++
			break
		}
		assert.Equal(t, 1, n)
		requireClientGoroutines(t, 0)
		assert.True(t, body.aborted(), "the body was closed")
	})

	t.Run("context cancelled mid-stream", func(t *testing.T) {
		body := newBlockingBody(t)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		results, err := collect(t, func(yield func(*toolgatev1.CallResult, error) bool) {
			for res, err := range c.ValidateProviderStream(ctx, client.Anthropic, body, tools) {
				if res != nil {
					cancel() // the body is open, and blocked
				}
				if !yield(res, err) {
					return
				}
			}
		})
		assert.Len(t, results, 1)
		assert.Equal(t, codes.Canceled, status.Code(err), "%v", err)
		requireClientGoroutines(t, 0)
		assert.True(t, body.aborted(), "the body was closed")
	})

	t.Run("server fails the stream mid-stream", func(t *testing.T) {
		body := newBlockingBody(t, sseEvent{"content_block_delta", `{"type":"content_block_delta","index":`})
		results, err := collect(t, c.ValidateProviderStream(t.Context(), client.Anthropic, body, tools))
		assert.Len(t, results, 1)
		assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
		requireClientGoroutines(t, 0)
		assert.True(t, body.aborted(), "the body was closed")
	})

	t.Run("server goes away mid-stream", func(t *testing.T) {
		r := newReplica(t, server.Config{})
		c := dialReplica(t, r)
		resp, err := c.Compile(t.Context(), todoSchema)
		require.NoError(t, err)
		body := newBlockingBody(t)
		results, err := collect(t, func(yield func(*toolgatev1.CallResult, error) bool) {
			for res, err := range c.ValidateProviderStream(t.Context(), client.Anthropic, body, map[string]string{"todo": resp.GetHandle()}) {
				if res != nil {
					r.stop()
				}
				if !yield(res, err) {
					return
				}
			}
		})
		assert.Len(t, results, 1)
		assert.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
		requireClientGoroutines(t, 0)
		assert.True(t, body.aborted(), "the body was closed")
	})

	// A server, or a proxy, that ends the stream with OK while the body
	// is still open, a call with it: no clean end.
	t.Run("server ends the stream with OK before the body ends", func(t *testing.T) {
		early := dialFake(t, &fakeService{stream: func(s grpc.BidiStreamingServer[toolgatev1.ValidateStreamRequest, toolgatev1.ValidateStreamResponse]) error {
			_, err := s.Recv() // the bind
			return err
		}})
		body := newBlockingBody(t)
		results, err := collect(t, early.ValidateProviderStream(t.Context(), client.Anthropic, body, tools))
		assert.Empty(t, results)
		assert.Equal(t, codes.Internal, status.Code(err), "%v", err)
		assert.ErrorContains(t, err, "the server ended the stream before the provider body ended")
		requireClientGoroutines(t, 0)
		assert.True(t, body.aborted(), "the body was closed")
	})

	// A server, or a proxy, that reads the whole body and ends with OK
	// must say what it read: a receipt counting every event sent and every
	// result received, as the stream's last message. Without one the end
	// is not clean.
	for _, tc := range []struct {
		name string
		// answer sends what the fake sends after reading n events (the
		// receipt request, the bind and the body's), up to the client's
		// half-close.
		answer func(s toolgateStream, n int64) error
		err    string // "" for a clean end
	}{
		{"the receipt: a clean end", func(s toolgateStream, n int64) error { return s.Send(receipt(n, 0)) }, ""},
		{"a result and its receipt", func(s toolgateStream, n int64) error {
			if err := s.Send(fakeResult("c")); err != nil {
				return err
			}
			return s.Send(receipt(n, 1))
		}, ""},
		{"no receipt", func(toolgateStream, int64) error { return nil }, "the stream ended without the server's receipt"},
		{"an event not counted", func(s toolgateStream, n int64) error { return s.Send(receipt(n-1, 0)) },
			"receipt counts 3 events and 0 results; the client sent 4 and received 0"},
		{"a result not counted", func(s toolgateStream, n int64) error {
			if err := s.Send(fakeResult("c")); err != nil {
				return err
			}
			return s.Send(receipt(n, 0))
		}, "receipt counts 4 events and 0 results; the client sent 4 and received 1"},
		{"a result after the receipt", func(s toolgateStream, n int64) error {
			if err := s.Send(receipt(n, 0)); err != nil {
				return err
			}
			return s.Send(fakeResult("c"))
		}, "a message after the stream's receipt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := dialFake(t, &fakeService{stream: func(s toolgateStream) error {
				var n int64
				for {
					req, err := s.Recv()
					if errors.Is(err, io.EOF) {
						return tc.answer(s, n)
					}
					if err != nil {
						return err
					}
					if n == 0 && req.GetReceipt() == nil {
						return status.Error(codes.FailedPrecondition, "the first request does not ask for the receipt")
					}
					n++
				}
			}})
			body := sseBody(sseEvent{"ping", `{"type":"ping"}`}, sseEvent{"message_stop", `{"type":"message_stop"}`})
			_, err := collect(t, fake.ValidateProviderStream(t.Context(), client.Anthropic, strings.NewReader(body), tools))
			if tc.err == "" {
				assert.NoError(t, err)
			} else {
				assert.Equal(t, codes.Internal, status.Code(err), "%v", err)
				assert.ErrorContains(t, err, tc.err)
			}
			requireClientGoroutines(t, 0)
		})
	}

	t.Run("body read error", func(t *testing.T) {
		body := newBlockingBody(t)
		results, err := collect(t, func(yield func(*toolgatev1.CallResult, error) bool) {
			for res, err := range c.ValidateProviderStream(t.Context(), client.Anthropic, body, tools) {
				if res != nil {
					body.pw.CloseWithError(io.ErrUnexpectedEOF) // the connection broke
				}
				if !yield(res, err) {
					return
				}
			}
		})
		assert.Len(t, results, 1)
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
		requireClientGoroutines(t, 0)
	})

	t.Run("body that cannot be closed", func(t *testing.T) {
		body := newBlockingBody(t)
		start := time.Now()
		for _, err := range c.ValidateProviderStream(t.Context(), client.Anthropic, struct{ io.Reader }{body}, tools) {
			require.NoError(t, err)
			break
		}
		assert.Less(t, time.Since(start), 5*time.Second, "break does not wait for the body")
		requireClientGoroutines(t, 1) // the reader, blocked in Read
		assert.False(t, body.aborted(), "the body is still open")
		require.NoError(t, body.pw.Close())
		requireClientGoroutines(t, 0) // it ends with the Read
	})

	// A body whose Close does not interrupt a pending Read: the loop ends
	// at once all the same, and leaves the reader behind until Read
	// returns.
	for _, stop := range []string{"break", "cancel"} {
		t.Run("body whose Close does not interrupt Read, "+stop, func(t *testing.T) {
			body := newBlockingBody(t)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				var failure error
				for res, err := range c.ValidateProviderStream(ctx, client.Anthropic, io.NopCloser(body), tools) {
					if err != nil {
						failure = err
						continue
					}
					assert.True(t, res.GetValid())
					if stop == "break" {
						break
					}
					cancel()
				}
				done <- failure
			}()
			select {
			case err := <-done:
				if stop == "cancel" {
					assert.Equal(t, codes.Canceled, status.Code(err), "%v", err)
				} else {
					assert.NoError(t, err)
				}
			case <-time.After(5 * time.Second):
				require.NoError(t, body.pw.Close()) // lets the loop end, so that nothing leaks
				<-done
				require.Fail(t, "the loop waited for the body's Read")
			}
			requireClientGoroutines(t, 1) // the reader, blocked in Read
			assert.False(t, body.aborted(), "Close did nothing")
			require.NoError(t, body.pw.Close())
			requireClientGoroutines(t, 0) // it ends with the Read
		})
	}

	t.Run("completes", func(t *testing.T) {
		body := newBlockingBody(t)
		done := make(chan error, 1)
		go func() {
			if err := <-body.wrote; err != nil {
				done <- err
				return
			}
			_, err := io.WriteString(body.pw, sseBody(anthropicEnd...))
			done <- errors.Join(err, body.pw.Close())
		}()
		results, err := collect(t, c.ValidateProviderStream(t.Context(), client.Anthropic, body, tools))
		require.NoError(t, err)
		require.NoError(t, <-done)
		assert.Len(t, results, 1)
		requireClientGoroutines(t, 0)
	})
}

func TestSSEReader(t *testing.T) {
	t.Parallel()
	type ev = client.SSEEvent
	cases := []struct {
		name string
		body string
		want []ev
	}{
		{"empty", "", nil},
		{"one event", "data: {}\n\n", []ev{{Data: "{}"}}},
		{"type and data", "event: ping\ndata: {\"type\": \"ping\"}\n\n", []ev{{Type: "ping", Data: `{"type": "ping"}`}}},
		{"CRLF", "event: a\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n", []ev{{Type: "a", Data: "1"}, {Data: "2"}}},
		{"CR", "event: a\rdata: 1\r\rdata: 2\r\r", []ev{{Type: "a", Data: "1"}, {Data: "2"}}},
		{"mixed line ends", "data: 1\r\n\ndata: 2\r\rdata: 3\n\r\n", []ev{{Data: "1"}, {Data: "2"}, {Data: "3"}}},
		{"multi-line data", "data: {\"a\":\ndata: 1}\n\n", []ev{{Data: "{\"a\":\n1}"}}},
		{"one space dropped", "data:x\ndata:  y\ndata\n\n", []ev{{Data: "x\n y\n"}}},
		{"empty data line dispatches", "data:\n\n", []ev{{Data: ""}}},
		{"comments and blocks with neither data nor a type dropped", ": hi\n\nevent:\n\nid: 3\n\nretry: 5\n\n:\ndata: 1\n\n", []ev{{Data: "1", ID: "3"}}},
		// Unlike the HTML standard, as the Stainless SDKs' decoders.
		{"a type without data is an event", "event: error\n\nevent: lone\r\n\r\nevent: a\nevent:\n\n", []ev{{Type: "error"}, {Type: "lone"}}},
		{"type does not carry over", "event: a\n\ndata: 1\n\n", []ev{{Type: "a"}, {Data: "1"}}},
		{"id persists, NUL id ignored", "id: 7\ndata: 1\n\ndata: 2\n\nid: a\x00b\ndata: 3\n\nid\ndata: 4\n\n",
			[]ev{{Data: "1", ID: "7"}, {Data: "2", ID: "7"}, {Data: "3", ID: "7"}, {Data: "4"}}},
		{"unknown fields and retry", "retry: 10\nfoo: bar\ndata: 1\n\n", []ev{{Data: "1"}}},
		{"byte order mark", "\xef\xbb\xbfdata: 1\n\n", []ev{{Data: "1"}}},
		{"unterminated last event dropped", "data: 1\n\ndata: 2\n", []ev{{Data: "1"}}},
		{"[DONE] is an event like any other", "data: [DONE]\n\n", []ev{{Data: "[DONE]"}}},
		{"bytes as they are, valid UTF-8 or not", "event: \xff\ndata: caf\xc3\xa9 \xe9\n\n", []ev{{Type: "\xff", Data: "caf\u00e9 \xe9"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			read := func(r io.Reader) []ev {
				sr := client.NewSSEReader(r, 0)
				var got []ev
				for {
					e, err := sr.Next()
					if errors.Is(err, io.EOF) {
						return got
					}
					require.NoError(t, err)
					got = append(got, e)
				}
			}
			require.Equal(t, tc.want, read(strings.NewReader(tc.body)), "whole")
			assert.Equal(t, tc.want, read(iotest.OneByteReader(strings.NewReader(tc.body))), "one byte at a time")
			for i := range len(tc.body) {
				assert.Equal(t, tc.want, read(&splitReader{tc.body[:i], tc.body[i:]}), "split at %d", i)
			}
		})
	}

	t.Run("bounds", func(t *testing.T) {
		t.Parallel()
		_, err := client.NewSSEReader(strings.NewReader("data: 12345678\n\n"), 13).Next()
		assert.ErrorIs(t, err, client.ErrEventTooLong, "a line of 14 bytes")
		e, err := client.NewSSEReader(strings.NewReader("data: 12345678\n\n"), 14).Next()
		require.NoError(t, err)
		assert.Equal(t, "12345678", e.Data)
		_, err = client.NewSSEReader(strings.NewReader("data: 123456\ndata: 123456\n\n"), 12).Next()
		assert.ErrorIs(t, err, client.ErrEventTooLong, "lines of 12 bytes, data of 13")
		r := client.NewSSEReader(strings.NewReader("data: 1234\ndata: 123\n\n"), 10)
		e, err = r.Next()
		require.NoError(t, err)
		assert.Equal(t, "1234\n123", e.Data)
		r = client.NewSSEReader(strings.NewReader(":"+strings.Repeat("x", client.DefaultMaxEventBytes)+"\ndata: 1\n\n"), 0)
		_, err = r.Next()
		assert.ErrorIs(t, err, client.ErrEventTooLong, "a comment over the default bound")
		_, err2 := r.Next()
		assert.Equal(t, err, err2, "errors are sticky")
	})

	t.Run("read error", func(t *testing.T) {
		t.Parallel()
		boom := errors.New("boom")
		r := client.NewSSEReader(io.MultiReader(strings.NewReader("data: 1\n\ndata: 2"), iotest.ErrReader(boom)), 0)
		e, err := r.Next()
		require.NoError(t, err)
		assert.Equal(t, "1", e.Data)
		_, err = r.Next()
		assert.ErrorIs(t, err, boom)
	})

	// The byte order mark check reads the first three bytes: an error
	// that cuts them short is returned all the same, after the bytes
	// before it, even from a reader that reports it only once.
	t.Run("read error in the first bytes", func(t *testing.T) {
		t.Parallel()
		boom := errors.New("connection reset")
		for _, head := range []string{"", "d", "\n\n", "\xef\xbb", "data: 1\n\n"} {
			r := client.NewSSEReader(io.MultiReader(&errOnce{head: head, err: boom}, strings.NewReader("data: 2\n\n")), 0)
			e, err := r.Next()
			if head == "data: 1\n\n" {
				require.NoError(t, err)
				assert.Equal(t, "1", e.Data)
				e, err = r.Next()
			}
			assert.ErrorIs(t, err, boom, "head %q, event %v", head, e)
		}
		// bufio gives up after 100 empty reads in a row.
		_, err := client.NewSSEReader(&emptyReads{n: 150}, 0).Next()
		assert.ErrorIs(t, err, io.ErrNoProgress)
	})

	t.Run("an event is returned once its blank line arrives", func(t *testing.T) {
		t.Parallel()
		pr, pw := io.Pipe()
		defer pr.Close()
		go func() {
			_, _ = io.WriteString(pw, "data: 1\r\n\r")
			// blocks here: the reader must not wait for the "\n"
			_, _ = io.WriteString(pw, "\ndata: 2\n\n")
			_ = pw.Close()
		}()
		r := client.NewSSEReader(pr, 0)
		e, err := r.Next()
		require.NoError(t, err)
		assert.Equal(t, "1", e.Data)
		e, err = r.Next()
		require.NoError(t, err)
		assert.Equal(t, "2", e.Data)
	})
}

// errOnce returns head and err in its first read, and io.EOF after: a
// reader whose error is not sticky, as io.Reader allows.
type errOnce struct {
	head string
	err  error
	done bool
}

func (e *errOnce) Read(p []byte) (int, error) {
	if e.done {
		return 0, io.EOF
	}
	e.done = true
	return copy(p, e.head), e.err
}

// emptyReads returns nothing, and no error, n times, then io.EOF.
type emptyReads struct{ n int }

func (e *emptyReads) Read([]byte) (int, error) {
	if e.n == 0 {
		return 0, io.EOF
	}
	e.n--
	return 0, nil
}

// splitReader returns its two parts in two reads.
type splitReader struct{ a, b string }

func (s *splitReader) Read(p []byte) (int, error) {
	src := &s.a
	if s.a == "" {
		src = &s.b
	}
	if *src == "" {
		return 0, io.EOF
	}
	n := copy(p, *src)
	*src = (*src)[n:]
	return n, nil
}

// TestValidateProviderStreamRecordings replays recorded provider streams,
// turned back into SSE bodies, and checks that every recorded call gets
// its one result.
func TestValidateProviderStreamRecordings(t *testing.T) {
	t.Parallel()
	dir := fixtures.Testdata(t, "provider-streams")
	c := dialReplica(t, newReplica(t, server.Config{}))
	object, err := c.Compile(t.Context(), `{"type":"object"}`)
	require.NoError(t, err)
	require.NotEmpty(t, object.GetHandle())
	recordings := []struct {
		file     string
		provider toolgatev1.Provider
	}{
		{"anthropic/parallel-3-searchDocs", client.Anthropic},
		{"anthropic/sdk-truncated-max-tokens-invalid-json", client.Anthropic},
		{"anthropic/tool-no-args-empty-partial-json", client.Anthropic},
		{"openai-chat/parallel-weather-and-stock", client.OpenAIChat},
		{"openai-chat-compatible/mistral-no-index-single-chunk", client.OpenAIChat},
		{"openai-responses/azure-weather", client.OpenAIResponses},
		{"gemini/partial-args-two-calls", client.Gemini},
		{"cohere/parallel-weather-attractions", client.Cohere},
	}
	for _, rec := range recordings {
		t.Run(rec.file, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join(dir, rec.file+".expected.json"))
			require.NoError(t, err)
			var expected []struct {
				ID        *string `json:"id"`
				Name      string  `json:"name"`
				Arguments string  `json:"arguments"`
			}
			require.NoError(t, json.Unmarshal(raw, &expected))
			tools := map[string]string{}
			var wantNames, wantIDs []string
			wantValid := 0
			for _, call := range expected {
				tools[call.Name] = object.GetHandle()
				wantNames = append(wantNames, call.Name)
				if call.ID != nil {
					wantIDs = append(wantIDs, *call.ID)
				}
				var obj map[string]any
				if call.Arguments == "" || json.Unmarshal([]byte(call.Arguments), &obj) == nil {
					wantValid++
				}
			}

			body, err := recordingBody(filepath.Join(dir, rec.file+".jsonl"), rec.provider)
			require.NoError(t, err)
			results, err := collect(t, c.ValidateProviderStream(t.Context(), rec.provider, strings.NewReader(body), tools))
			require.NoError(t, err)
			var names, ids []string
			valid := 0
			for _, r := range results {
				names = append(names, r.GetToolName())
				ids = append(ids, r.GetCallId())
				if r.GetValid() {
					valid++
				}
			}
			assert.ElementsMatch(t, wantNames, names, "one result per call")
			for _, id := range wantIDs {
				assert.Contains(t, ids, id)
			}
			assert.Equal(t, wantValid, valid, "calls with a JSON object (or nothing) as arguments are valid: %v", results)
		})
	}
}

// recordingBody turns a recording (one event JSON per line) into the SSE
// body the provider sent: each event as a data line, preceded by an event
// line naming its "type" (as Anthropic, OpenAI Responses and Cohere send
// it), and OpenAI Chat's closing [DONE].
func recordingBody(path string, p toolgatev1.Provider) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var evs []sseEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		var typed struct {
			Type any `json:"type"`
		}
		ev := sseEvent{data: line}
		if err := json.Unmarshal([]byte(line), &typed); err == nil && p != client.OpenAIChat {
			if s, ok := typed.Type.(string); ok {
				ev.typ = s
			}
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	if p == client.OpenAIChat {
		evs = append(evs, sseEvent{data: "[DONE]"})
	}
	return sseBody(evs...), nil
}
