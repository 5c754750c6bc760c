package stream_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
)

const todoSchema = `{"type":"object","properties":{
	"action":{"type":"string","enum":["add","update","complete","remove","list","clear"]},
	"id":{"type":"string"},"content":{"type":"string"},
	"status":{"type":"string","enum":["pending","in_progress","completed"]}},"required":["action"]}`

const emptySchema = `{"type":"object","properties":{}}`

// harness is a session with "todo" and "noargs" bound, recording results.
type harness struct {
	*stream.Session
	results []stream.Result
	// bound holds the compiled schemas: "todo" and "empty".
	bound map[string]stream.Binding
}

func newHarness(t *testing.T, limits stream.Limits) *harness {
	t.Helper()
	return newHarnessContext(t, t.Context(), limits)
}

func newHarnessContext(t *testing.T, ctx context.Context, limits stream.Limits) *harness {
	t.Helper()
	h := &harness{bound: map[string]stream.Binding{}}
	for name, src := range map[string]string{"todo": todoSchema, "empty": emptySchema} {
		res := schema.Compile(schema.ToolInput, []byte(src))
		require.Empty(t, res.Errors)
		h.bound[name] = stream.Binding{Handle: "h-" + name, Schema: res.Schema}
	}
	h.Session = stream.NewSession(ctx, limits, func(r *stream.Result) { h.results = append(h.results, *r) })
	require.NoError(t, h.Bind(map[string]stream.Binding{"todo": h.bound["todo"], "noargs": h.bound["empty"]}))
	return h
}

// binding returns the harness's binding of name, for Start.
func (h *harness) binding(name string) *stream.Binding {
	b := h.bound[name]
	return &b
}

func (h *harness) deltas(t *testing.T, id string, pieces ...string) {
	t.Helper()
	for _, p := range pieces {
		require.NoError(t, h.Delta(id, []byte(p)))
	}
}

func kinds(err error) stream.ErrorKind {
	var se *stream.Error
	if e, ok := err.(*stream.Error); ok {
		se = e
	}
	if se == nil {
		return 0
	}
	return se.Kind
}

func TestValidCall(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	require.NoError(t, h.Start("c1", "todo", nil))
	h.deltas(t, "c1", `{"action":"ad`, `d","status":"pend`, `ing"}`)
	assert.Empty(t, h.results, "no verdict before the end")
	require.NoError(t, h.End("c1"))
	require.Len(t, h.results, 1)
	r := h.results[0]
	assert.True(t, r.Valid())
	assert.False(t, r.Early)
	assert.Equal(t, "c1", r.CallID)
	assert.Equal(t, "todo", r.ToolName)
	assert.Equal(t, int64(len(`{"action":"add","status":"pending"}`)), r.Bytes)
}

func TestEarlyRejectionAndExactlyOneResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	doc := `{"action":"add","status":"done","content":"x"}`
	cut := strings.Index(doc, "done") + 1
	require.NoError(t, h.Start("c1", "todo", nil))
	h.deltas(t, "c1", doc[:cut])
	require.Len(t, h.results, 1, "rejected at the first impossible byte, before the call ends")
	r := h.results[0]
	assert.True(t, r.Early)
	require.Len(t, r.Findings, 1)
	assert.Equal(t, "enum", r.Findings[0].Keyword)
	assert.Equal(t, "/status", r.Findings[0].InstancePath)
	assert.Equal(t, int64(strings.Index(doc, "done")), r.Findings[0].Offset)
	assert.Equal(t, int64(cut), r.Bytes)
	h.deltas(t, "c1", doc[cut:])
	require.NoError(t, h.End("c1"))
	assert.Len(t, h.results, 1, "later deltas and the end add nothing")
}

func TestUnknownToolIsAVerdict(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	require.NoError(t, h.Start("c1", "nope", nil))
	require.Len(t, h.results, 1)
	assert.Equal(t, "tool_name", h.results[0].Findings[0].Keyword)
	assert.True(t, h.results[0].Early, "known before the call ends")
	h.deltas(t, "c1", `{}`)
	require.NoError(t, h.End("c1"))
	assert.Len(t, h.results, 1)
}

func TestCallWithoutBytesIsAnEmptyObject(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	require.NoError(t, h.Start("a", "noargs", nil))
	require.NoError(t, h.Start("b", "todo", nil))
	h.deltas(t, "a", "")
	require.NoError(t, h.End("a"))
	require.NoError(t, h.End("b"))
	require.Len(t, h.results, 2)
	assert.True(t, h.results[0].Valid())
	assert.Equal(t, "required", h.results[1].Findings[0].Keyword, "{} lacks action")
}

func TestHalfCloseEndsOpenCalls(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	require.NoError(t, h.Start("done", "todo", nil))
	require.NoError(t, h.Start("cut", "todo", nil))
	h.deltas(t, "done", `{"action":"list"}`)
	h.deltas(t, "cut", `{"action":"li`)
	require.NoError(t, h.End("done"))
	h.Close()
	require.Len(t, h.results, 2)
	cut := h.results[1]
	assert.Equal(t, "cut", cut.CallID)
	assert.False(t, cut.Early)
	require.Len(t, cut.Findings, 1)
	assert.Equal(t, "json", cut.Findings[0].Keyword)
}

func TestInterleavedCalls(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	require.NoError(t, h.Start("a", "todo", nil))
	require.NoError(t, h.Start("b", "", h.binding("todo")))
	h.deltas(t, "a", `{"act`)
	h.deltas(t, "b", `{"action":"x`)
	h.deltas(t, "a", `ion":"clear"}`)
	require.Len(t, h.results, 1)
	assert.Equal(t, "b", h.results[0].CallID)
	require.NoError(t, h.End("a"))
	require.Len(t, h.results, 2)
	assert.True(t, h.results[1].Valid())
}

func TestStreamErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{MaxCalls: 2})
	assert.Equal(t, stream.InvalidArgument, kinds(h.Delta("ghost", []byte("{"))))
	assert.Equal(t, stream.InvalidArgument, kinds(h.End("ghost")))
	assert.Equal(t, stream.InvalidArgument, kinds(h.Start("", "todo", nil)))
	require.NoError(t, h.Start("a", "todo", nil))
	assert.Equal(t, stream.InvalidArgument, kinds(h.Start("a", "todo", nil)))
	require.NoError(t, h.Start("b", "unbound", nil))
	assert.Equal(t, stream.ResourceExhausted, kinds(h.Start("c", "todo", nil)), "MaxCalls counts every call started, rejected ones too")
	assert.Equal(t, stream.InvalidArgument, kinds(h.ProviderEvent(provider.Provider(99), []byte(`{}`))))
	assert.Equal(t, stream.InvalidArgument, kinds(h.ProviderEvent(provider.Anthropic, []byte(`{not json`))))
}

func TestMaxCallBytes(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{MaxCallBytes: 16})
	require.NoError(t, h.Start("a", "todo", nil))
	h.deltas(t, "a", `{"action":"add",`, `"content":"a long text"}`)
	require.Len(t, h.results, 1)
	r := h.results[0]
	assert.True(t, r.Early)
	assert.Equal(t, "maxBytes", r.Findings[0].Keyword)
}

// anthropicTodo renders an Anthropic Messages stream calling the todo tool
// with args split into the given pieces.
func anthropicTodo(pieces ...string) []string {
	events := []string{
		`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Adding it."}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"todo","input":{}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}`,
	}
	for _, p := range pieces {
		q := strings.ReplaceAll(strings.ReplaceAll(p, `\`, `\\`), `"`, `\"`)
		events = append(events, `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"`+q+`"}}`)
	}
	return append(events, `{"type":"content_block_stop","index":1}`, `{"type":"message_stop"}`)
}

func TestAnthropicEventsDriveCalls(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	for _, ev := range anthropicTodo(`{"action": "add", `, `"content": "buy milk"}`) {
		require.NoError(t, h.ProviderEvent(provider.Anthropic, []byte(ev)))
	}
	require.Len(t, h.results, 1)
	assert.True(t, h.results[0].Valid())
	assert.Equal(t, "toolu_1", h.results[0].CallID)
	assert.Equal(t, "todo", h.results[0].ToolName)

	h = newHarness(t, stream.Limits{})
	events := anthropicTodo(`{"action": "add", "status": "bl`, `ocked"}`)
	for i, ev := range events {
		require.NoError(t, h.ProviderEvent(provider.Anthropic, []byte(ev)))
		if strings.Contains(ev, `\"bl`) {
			require.Len(t, h.results, 1, "rejected at event %d, before the call ends", i)
		}
	}
	require.Len(t, h.results, 1)
	r := h.results[0]
	assert.True(t, r.Early)
	assert.Equal(t, int64(len(`{"action": "add", "status": "`)), r.Findings[0].Offset)
}

// TestGeminiCallCutOffIsIncomplete: a Gemini call streamed as partialArgs
// whose last part promised more (willContinue) is cut off when the
// candidate finishes or the stream closes before the part that ends it:
// its result is an incomplete document (keyword json), as another
// provider's call cut off by its token limit is, never the arguments
// streamed so far closed as if they were whole. With the terminator part
// the same arguments are valid.
func TestGeminiCallCutOffIsIncomplete(t *testing.T) {
	t.Parallel()
	const (
		open    = `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"todo","willContinue":true}}]}}]}`
		args    = `{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.action","stringValue":"li","willContinue":true}],"willContinue":true}}]}}]}`
		stopped = `{"candidates":[{"content":{"parts":[{"text":""}]},"finishReason":"MAX_TOKENS"}]}`
		last    = `{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.action","stringValue":"st"}],"willContinue":true}}]}}]}`
		term    = `{"candidates":[{"content":{"parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}`
	)
	for _, tc := range []struct {
		name   string
		events []string
		valid  bool
	}{
		{"finishReason", []string{open, args, stopped}, false},
		{"half-close", []string{open, args}, false},
		{"terminated", []string{open, args, last, term}, true},
	} {
		h := newHarness(t, stream.Limits{})
		for _, ev := range tc.events {
			require.NoError(t, h.ProviderEvent(provider.Gemini, []byte(ev)), tc.name)
		}
		h.Close()
		require.Len(t, h.results, 1, tc.name)
		r := h.results[0]
		assert.Equal(t, "todo", r.ToolName, tc.name)
		if tc.valid {
			assert.True(t, r.Valid(), "%s: %+v", tc.name, r.Findings)
			continue
		}
		if assert.Len(t, r.Findings, 1, tc.name) {
			assert.Equal(t, "json", r.Findings[0].Keyword, tc.name)
		}
	}
}

// TestProviderSentinels: OpenAI's [DONE] ends an OpenAI Chat or Responses
// stream as the half-close does, since openai-python and openai-node stop
// reading there: its open calls get their results at once, and a later
// event of that provider is InvalidArgument, since other clients read on
// (another [DONE] and empty payloads change nothing). Other providers
// send no [DONE] and ignore it. An empty payload is ignored.
func TestProviderSentinels(t *testing.T) {
	t.Parallel()
	const (
		chatCall       = `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"todo","arguments":"{\"action\":\"list\"}"}}]}}]}`
		responsesAdded = `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"todo","arguments":""}}`
		responsesDelta = `{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"action\":\"list\"}"}`
	)
	anthropic := anthropicTodo(`{"action":"list"}`)
	for _, c := range []struct {
		name   string
		p      provider.Provider
		before []string
		done   string
		after  string // an event after [DONE]
		ended  bool   // [DONE] ended the call; else after is read
	}{
		{"chat", provider.OpenAIChat, []string{chatCall}, "[DONE]", `{"choices":[]}`, true},
		{"chat, white space around", provider.OpenAIChat, []string{chatCall}, " [DONE]\n", chatCall, true},
		{"responses", provider.OpenAIResponses, []string{responsesAdded, responsesDelta}, "[DONE]", `{"type":"response.completed"}`, true},
		{"anthropic", provider.Anthropic, anthropic[:len(anthropic)-2], "[DONE]", anthropic[len(anthropic)-2], false},
	} {
		h := newHarness(t, stream.Limits{})
		for _, ev := range c.before {
			require.NoError(t, h.ProviderEvent(c.p, []byte(ev)), c.name)
		}
		require.NoError(t, h.ProviderEvent(c.p, []byte("")), c.name)
		require.Empty(t, h.results, c.name)
		require.NoError(t, h.ProviderEvent(c.p, []byte(c.done)), c.name)
		if !c.ended {
			assert.Empty(t, h.results, "%s: [DONE] is nothing", c.name)
			require.NoError(t, h.ProviderEvent(c.p, []byte(c.after)), c.name)
			require.Len(t, h.results, 1, c.name)
			continue
		}
		require.Len(t, h.results, 1, "%s: [DONE] ends the call", c.name)
		assert.True(t, h.results[0].Valid(), c.name)
		for _, ev := range []string{"[DONE]", "", " "} {
			assert.NoError(t, h.ProviderEvent(c.p, []byte(ev)), "%s: %q after [DONE]", c.name, ev)
		}
		err := h.ProviderEvent(c.p, []byte(c.after))
		assert.Equal(t, stream.InvalidArgument, kinds(err), c.name)
		assert.ErrorContains(t, err, "after [DONE]", c.name)
		h.Close()
		assert.Len(t, h.results, 1, c.name)
	}
	h := newHarness(t, stream.Limits{})
	assert.Equal(t, stream.InvalidArgument, kinds(h.ProviderEvent(provider.OpenAIChat, []byte("[DONE"))))
	assert.Equal(t, stream.InvalidArgument, kinds(h.ProviderEvent(provider.OpenAIChat, []byte("[DONE]x"))))
}

// unnamedChat is an OpenAI Chat chunk with a tool_calls entry at index i
// that carries argument text but no name (yet).
func unnamedChat(i int, args string) []byte {
	return []byte(fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"function":{"arguments":%q}}]}}]}`, i, args))
}

// TestUnnamedCallsCountTowardLimits: a call whose provider has not named
// its tool yet counts toward both stream limits from its first event: it is
// one of the stream's calls, and the text held for it is bounded.
func TestUnnamedCallsCountTowardLimits(t *testing.T) {
	t.Parallel()
	t.Run("calls", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{MaxCalls: 3})
		for i := range 3 {
			require.NoError(t, h.ProviderEvent(provider.OpenAIChat, unnamedChat(i, `{"a":`)))
		}
		err := h.ProviderEvent(provider.OpenAIChat, unnamedChat(3, `{"a":`))
		assert.Equal(t, stream.ResourceExhausted, kinds(err), "the fourth unnamed call passes MaxCalls: %v", err)
	})
	t.Run("bytes of one call", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{MaxCallBytes: 16})
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, unnamedChat(0, `{"action":`)))
		assert.Empty(t, h.results)
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, unnamedChat(0, `"list", "x": 1}`)))
		require.Len(t, h.results, 1, "rejected while still unnamed")
		assert.Equal(t, "maxBytes", h.results[0].Findings[0].Keyword)
		assert.True(t, h.results[0].Early)
	})
	t.Run("bytes held by all unnamed calls together", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{MaxCallBytes: 16})
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, unnamedChat(0, `{"action":`)))
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, unnamedChat(1, `{"action":`)))
		require.Len(t, h.results, 1, "the stream holds at most MaxCallBytes for unnamed calls")
		assert.Equal(t, "choice0/tool1", h.results[0].CallID)
		assert.Equal(t, "maxBytes", h.results[0].Findings[0].Keyword)
	})
	t.Run("named later, validated with what was held", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, unnamedChat(0, `{"action":`)))
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat,
			[]byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"todo","arguments":"\"bad\"}"}}]}}]}`)))
		require.Len(t, h.results, 1)
		r := h.results[0]
		assert.Equal(t, "c1", r.CallID, "the id that came with the name")
		assert.Equal(t, "todo", r.ToolName)
		assert.Equal(t, "enum", r.Findings[0].Keyword)
		assert.Equal(t, int64(len(`{"action":"`)), r.Findings[0].Offset, "the b of \"bad\"")
	})
	t.Run("never named", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{})
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, unnamedChat(0, `{}`)))
		h.Close()
		require.Len(t, h.results, 1)
		assert.Equal(t, "tool_name", h.results[0].Findings[0].Keyword)
		assert.Contains(t, h.results[0].Findings[0].Message, "without naming its tool")
	})
}

// TestSchemaNotHeldIsAVerdict: a call whose schema this server does not
// hold — bound by a handle, or named by one at its start — gets an in-band
// NOT_FOUND verdict at once; the stream and its other calls go on.
func TestSchemaNotHeldIsAVerdict(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	require.NoError(t, h.Bind(map[string]stream.Binding{"remote": {Handle: "h-remote"}}))
	require.NoError(t, h.Start("a", "remote", nil))
	require.NoError(t, h.Start("b", "x", &stream.Binding{Handle: "h-gone"}))
	require.NoError(t, h.Start("c", "todo", nil))
	h.deltas(t, "a", `{}`)
	h.deltas(t, "c", `{"action":"list"}`)
	require.NoError(t, h.End("c"))
	require.Len(t, h.results, 3)
	for i, want := range []string{"bound to the handle \"h-remote\"", "names the handle \"h-gone\""} {
		r := h.results[i]
		require.Len(t, r.Findings, 1)
		assert.Equal(t, schema.CodeNotFound, r.Findings[0].Code)
		assert.Equal(t, "handle", r.Findings[0].Keyword)
		assert.Contains(t, r.Findings[0].Message, want)
		assert.True(t, r.Early)
	}
	assert.Equal(t, "remote", h.results[0].ToolName)
	assert.True(t, h.results[2].Valid(), "the stream goes on")
}

// TestMaxPlaces: the provider event that names more choices, candidates
// or output items than MaxPlaces is ResourceExhausted, per provider, and
// the limit reaches each adapter (its default is far above 2).
func TestMaxPlaces(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p          provider.Provider
		fill, past string
	}{
		{provider.OpenAIChat, `{"choices":[{"index":0,"delta":{}},{"index":1,"delta":{}}]}`, `{"choices":[{"index":2,"delta":{}}]}`},
		{provider.Gemini, `{"candidates":[{"index":5},{"index":500}]}`, `{"candidates":[{"index":50000}]}`},
		{provider.OpenAIResponses, `{"type":"response.created","response":{"output":[{"id":"rs_1"},{"id":"rs_2"}]}}`,
			`{"type":"response.output_item.added","output_index":2,"item":{"type":"reasoning","id":"rs_3"}}`},
	} {
		t.Run(c.p.String(), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, stream.Limits{MaxPlaces: 2})
			require.NoError(t, h.ProviderEvent(c.p, []byte(c.fill)))
			err := h.ProviderEvent(c.p, []byte(c.past))
			assert.Equal(t, stream.ResourceExhausted, kinds(err), "%v", err)
			assert.ErrorContains(t, err, "past the limit of 2")
		})
	}
}

func TestMaxTools(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{MaxTools: 3}) // binds todo and noargs
	require.NoError(t, h.Bind(map[string]stream.Binding{"todo": h.bound["empty"], "third": h.bound["todo"]}), "rebinding a name counts once")
	err := h.Bind(map[string]stream.Binding{"fourth": h.bound["todo"]})
	assert.Equal(t, stream.ResourceExhausted, kinds(err))
	require.NoError(t, h.Start("c", "fourth", nil))
	assert.Equal(t, "tool_name", h.results[0].Findings[0].Keyword, "a refused bind binds nothing")
}

// TestMaxCallBytesVerdictIgnoresSplits: a delta that takes a call past
// MaxCallBytes is still validated up to the limit, so a violation within
// the limit is the verdict however the text was split, and "maxBytes" (at
// the limit) only where the text within it is viable.
func TestMaxCallBytesVerdictIgnoresSplits(t *testing.T) {
	t.Parallel()
	const limit = 20
	cases := []struct {
		name, doc string
		keyword   string
		offset    int64
	}{
		{"violation within the limit", `{"action":"nope","content":"a long text"}`, "enum", 11},
		{"violation at the last byte within", `{"action":"add","i"} and more`, "json", limit - 1},
		{"viable within the limit", `{"action":"add","content":"a long text"}`, "maxBytes", limit},
		{"violation past the limit", `{"action":"add","content":1}`, "maxBytes", limit},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, pieces := range append(runeSplits(tc.doc), strings.Split(tc.doc, "")) {
				h := newHarness(t, stream.Limits{MaxCallBytes: limit})
				require.NoError(t, h.Start("a", "todo", nil))
				h.deltas(t, "a", pieces...)
				require.NoError(t, h.End("a"))
				require.Len(t, h.results, 1, "pieces %q", pieces)
				r := h.results[0]
				assert.True(t, r.Early, "pieces %q", pieces)
				require.NotEmpty(t, r.Findings, "pieces %q", pieces)
				assert.Equal(t, tc.keyword, r.Findings[0].Keyword, "pieces %q", pieces)
				assert.Equal(t, tc.offset, r.Findings[0].Offset, "pieces %q", pieces)
			}
		})
	}
}

// TestOutputMaxCallBytesVerdictIgnoresSplits: the same for an answer's
// text in a code fence: its violation within the limit is the verdict even
// when the text comes in one event.
func TestOutputMaxCallBytesVerdictIgnoresSplits(t *testing.T) {
	t.Parallel()
	text := "```json\n{\"x\":1,\"y\":2,\"tag\":\"a\"}\n```"
	for _, pieces := range runeSplits(text) {
		h := newHarness(t, stream.Limits{MaxCallBytes: 24})
		res := schema.Compile(schema.ToolInput, []byte(pointSchema))
		require.Empty(t, res.Errors)
		h.BindOutput(stream.Binding{Handle: "h-out", Schema: res.Schema}, true)
		r, _, _ := answer(t, h, pieces, "stop")
		require.NotEmpty(t, r.Findings, "pieces %q", pieces)
		assert.Equal(t, "additionalProperties", r.Findings[0].Keyword, "pieces %q", pieces)
		assert.Equal(t, int64(strings.Index(text, "y")), r.Findings[0].Offset, "pieces %q", pieces)
	}
}

// TestCloseEndsCallsInStartOrder: a half-close ends the open calls in the
// order they started, the client's and each provider's interleaved.
func TestCloseEndsCallsInStartOrder(t *testing.T) {
	t.Parallel()
	h := newHarness(t, stream.Limits{})
	require.NoError(t, h.Start("a", "todo", nil))
	h.deltas(t, "a", `{"action":"li`)
	for _, ev := range anthropicTodo(`{"action":`)[:7] { // open after its first piece
		require.NoError(t, h.ProviderEvent(provider.Anthropic, []byte(ev)))
	}
	require.NoError(t, h.ProviderEvent(provider.OpenAIChat, []byte(chatCall(0, "call_1", "todo", `{"action":"list"`))))
	require.NoError(t, h.Start("b", "todo", nil))
	h.deltas(t, "b", `{`)
	h.Close()
	var ids []string
	for _, r := range h.results {
		ids = append(ids, r.CallID)
		assert.Equal(t, "json", r.Findings[0].Keyword, r.CallID)
		assert.False(t, r.Early, r.CallID)
	}
	assert.Equal(t, []string{"a", "toolu_1", "call_1", "b"}, ids)
}
