package server_test

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// missingHandle is well formed, and held by no server.
var missingHandle = "tg1_" + strings.Repeat("0", 64)

type bidi = grpc.BidiStreamingClient[toolgatev1.ValidateStreamRequest, toolgatev1.ValidateStreamResponse]

func openStream(t *testing.T, cfg server.Config) (toolgatev1.ValidationServiceClient, bidi) {
	t.Helper()
	c := client(t, cfg)
	s, err := c.ValidateStream(t.Context())
	require.NoError(t, err)
	return c, s
}

func send(t *testing.T, s bidi, reqs ...*toolgatev1.ValidateStreamRequest) {
	t.Helper()
	for _, r := range reqs {
		require.NoError(t, s.Send(r))
	}
}

func bind(tools map[string]string) *toolgatev1.ValidateStreamRequest {
	return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: &toolgatev1.StreamBind{Tools: tools}}}
}

// bindInline binds tools to inline schemas (StreamBind.schemas).
func bindInline(schemas map[string]string) *toolgatev1.ValidateStreamRequest {
	b := &toolgatev1.StreamBind{Schemas: map[string]*toolgatev1.CompileSchemaRequest{}}
	for name, src := range schemas {
		b.Schemas[name] = compileJSON(src)
	}
	return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: b}}
}

// startInline starts a call with its schema inline (CallStart.inline).
func startInline(id, tool, src string) *toolgatev1.ValidateStreamRequest {
	return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{CallId: id, ToolName: tool, Inline: compileJSON(src)}}}
}

func startCall(id, tool, handle string) *toolgatev1.ValidateStreamRequest {
	return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{CallId: id, ToolName: tool, Handle: handle}}}
}

func delta(id, frag string) *toolgatev1.ValidateStreamRequest {
	return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Delta{Delta: &toolgatev1.CallDelta{CallId: id, Fragment: frag}}}
}

func end(id string) *toolgatev1.ValidateStreamRequest {
	return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_End{End: &toolgatev1.CallEnd{CallId: id}}}
}

func providerEvent(p toolgatev1.Provider, ev string) *toolgatev1.ValidateStreamRequest {
	return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_ProviderEvent{ProviderEvent: &toolgatev1.ProviderEvent{Provider: p, EventJson: ev}}}
}

func recvResult(t *testing.T, s bidi) *toolgatev1.CallResult {
	t.Helper()
	resp, err := s.Recv()
	require.NoError(t, err)
	require.NotNil(t, resp.GetResult(), "a result, not %v", resp)
	return resp.GetResult()
}

// askReceipt asks for the stream's receipt (see recvEnd).
func askReceipt() *toolgatev1.ValidateStreamRequest {
	return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Receipt{Receipt: &toolgatev1.ReceiptRequest{}}}
}

// recvEnd reads the last message of a half-closed stream that asked for
// its receipt, the receipt, which must count the events the test sent
// (the request for it included) and the results it read, and then the
// stream's OK end.
func recvEnd(t *testing.T, s bidi, events, results int64) {
	t.Helper()
	resp, err := s.Recv()
	require.NoError(t, err)
	require.NotNil(t, resp.GetEnd(), "the receipt, not %v", resp)
	assert.Equal(t, events, resp.GetEnd().GetEvents(), "events read")
	assert.Equal(t, results, resp.GetEnd().GetResults(), "results sent")
	_, err = s.Recv()
	require.ErrorIs(t, err, io.EOF)
}

func compileTodo(t *testing.T, c toolgatev1.ValidationServiceClient) string {
	t.Helper()
	resp, err := c.CompileSchema(t.Context(), compileJSON(todoSchema))
	require.NoError(t, err)
	return resp.Handle
}

func TestStreamDeltas(t *testing.T) {
	t.Parallel()
	c, s := openStream(t, server.Config{})
	h := compileTodo(t, c)
	doc := `{"action":"add","status":"blocked","content":"x"}`
	cut := strings.Index(doc, "blocked") + 2
	send(t, s, askReceipt(), bind(map[string]string{"todo": h}),
		startCall("ok", "todo", ""), startCall("bad", "", h),
		delta("ok", `{"action":`), delta("bad", doc[:cut]))
	bad := recvResult(t, s)
	assert.Equal(t, "bad", bad.CallId)
	assert.True(t, bad.Early, "rejected before its end")
	assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, bad.Code)
	require.Len(t, bad.Errors, 1)
	assert.Equal(t, int64(strings.Index(doc, "blocked")), bad.Errors[0].Offset)
	assert.Equal(t, int64(cut), bad.Bytes)
	send(t, s, delta("bad", doc[cut:]), end("bad"), delta("ok", `"list"}`), end("ok"))
	ok := recvResult(t, s)
	assert.Equal(t, "ok", ok.CallId)
	assert.Equal(t, "todo", ok.ToolName)
	assert.True(t, ok.Valid)
	assert.False(t, ok.Early)
	require.NoError(t, s.CloseSend())
	recvEnd(t, s, 10, 2) // exactly one result per call
}

// TestStreamReceiptOnlyWhenAsked: a stream that did not ask for its
// receipt ends with OK after its last result, as before receipts were;
// one that asked gets it, counting its events and results, even when it
// had neither a call nor a result.
func TestStreamReceiptOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	c, s := openStream(t, server.Config{})
	h := compileTodo(t, c)
	send(t, s, startCall("c", "", h), delta("c", `{"action":"list"}`), end("c"))
	assert.True(t, recvResult(t, s).GetValid())
	require.NoError(t, s.CloseSend())
	_, err := s.Recv()
	require.ErrorIs(t, err, io.EOF, "no receipt unasked")

	s, err = c.ValidateStream(t.Context())
	require.NoError(t, err)
	send(t, s, askReceipt())
	require.NoError(t, s.CloseSend())
	recvEnd(t, s, 1, 0)
}

func TestStreamHalfCloseEndsOpenCalls(t *testing.T) {
	t.Parallel()
	c, s := openStream(t, server.Config{})
	h := compileTodo(t, c)
	send(t, s, askReceipt(), startCall("cut", "", h), delta("cut", `{"action":"li`), startCall("none", "", h))
	require.NoError(t, s.CloseSend())
	cut := recvResult(t, s)
	assert.Equal(t, "json", cut.Errors[0].Keyword)
	none := recvResult(t, s)
	assert.Equal(t, "required", none.Errors[0].Keyword, "no bytes is {}")
	recvEnd(t, s, 4, 2)
}

func TestStreamUnknownToolName(t *testing.T) {
	t.Parallel()
	_, s := openStream(t, server.Config{})
	send(t, s, startCall("c", "mystery", ""))
	r := recvResult(t, s)
	assert.False(t, r.Valid)
	assert.Equal(t, "tool_name", r.Errors[0].Keyword)
}

func TestStreamStatusCodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cfg  server.Config
		reqs func(h string) []*toolgatev1.ValidateStreamRequest
		want codes.Code
		msg  string // what the status message must name
	}{
		{"delta before start", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{delta("x", "{")}
		}, codes.InvalidArgument, "was not started"},
		{"empty event", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{{}}
		}, codes.InvalidArgument, "must set one event"},
		{"start twice", server.Config{}, func(h string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{startCall("a", "", h), startCall("a", "", h)}
		}, codes.InvalidArgument, "already started"},
		{"bind malformed handle", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{bind(map[string]string{"t": "tg1_missing"})}
		}, codes.InvalidArgument, `"tg1_missing" is not a toolgate handle`},
		{"start malformed handle", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{startCall("a", "", "tg1_missing")}
		}, codes.InvalidArgument, `"tg1_missing" is not a toolgate handle`},
		{"bind inline schema that does not compile", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{bindInline(map[string]string{"bad": `{"type":"object","properties":{"u":{"type":"string","format":"uri"}}}`})}
		}, codes.InvalidArgument, `the schema of tool "bad" does not compile (ERROR_CODE_UNSUPPORTED_CAPABILITY, 1 findings): format`},
		{"start inline schema that does not compile", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{startInline("a", "t", `{"type":5}`)}
		}, codes.InvalidArgument, `the inline schema of call "a" does not compile`},
		{"inline schema without a schema", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: &toolgatev1.StreamBind{
				Schemas: map[string]*toolgatev1.CompileSchemaRequest{"t": {}}}}}}
		}, codes.InvalidArgument, `bind: the schema of tool "t": a schema is required`},
		{"malformed output handle", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: &toolgatev1.StreamBind{OutputHandle: "h"}}}}
		}, codes.InvalidArgument, `bind: the output: handle "h" is not a toolgate handle`},
		{"output schema that does not compile", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: &toolgatev1.StreamBind{
				OutputSchema: &toolgatev1.CompileSchemaRequest{Profile: toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE, Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: `{"type":"object","properties":{"a":{"type":"object"}}}`}}}}}}
		}, codes.InvalidArgument, "bind: the output schema does not compile (ERROR_CODE_UNSUPPORTED_CAPABILITY"},
		{"too many tools", server.Config{Options: server.Options{MaxToolsPerStream: 2}}, func(h string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{bind(map[string]string{"a": h, "b": h}), bind(map[string]string{"c": h})}
		}, codes.ResourceExhausted, "at most 2 tool names"},
		{"too many calls", server.Config{Options: server.Options{MaxCallsPerStream: 1}}, func(h string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{startCall("a", "", h), startCall("b", "", h)}
		}, codes.ResourceExhausted, "limit of 1 calls"},
		{"provider calls not named yet count", server.Config{Options: server.Options{MaxCallsPerStream: 2}}, func(string) []*toolgatev1.ValidateStreamRequest {
			var reqs []*toolgatev1.ValidateStreamRequest
			for i := range 3 {
				reqs = append(reqs, providerEvent(toolgatev1.Provider_PROVIDER_OPENAI_CHAT,
					fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"function":{"arguments":"{"}}]}}]}`, i)))
			}
			return reqs
		}, codes.ResourceExhausted, "limit of 2 calls"},
		{"malformed provider event", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{providerEvent(toolgatev1.Provider_PROVIDER_ANTHROPIC, `{"type":`)}
		}, codes.InvalidArgument, "provider_event"},
		{"unspecified provider", server.Config{}, func(string) []*toolgatev1.ValidateStreamRequest {
			return []*toolgatev1.ValidateStreamRequest{providerEvent(toolgatev1.Provider_PROVIDER_UNSPECIFIED, `{}`)}
		}, codes.InvalidArgument, "unknown provider"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, s := openStream(t, tc.cfg)
			send(t, s, tc.reqs(compileTodo(t, c))...)
			_, err := s.Recv()
			assert.Equal(t, tc.want, code(err), "%v", err)
			assert.Contains(t, status.Convert(err).Message(), tc.msg)
		})
	}
}

func TestStreamCallBytesLimit(t *testing.T) {
	t.Parallel()
	c, s := openStream(t, server.Config{Options: server.Options{MaxCallBytes: 10}})
	h := compileTodo(t, c)
	send(t, s, startCall("a", "", h), delta("a", `{"action":`), delta("a", `"list"}`))
	r := recvResult(t, s)
	assert.True(t, r.Early)
	assert.Equal(t, "maxBytes", r.Errors[0].Keyword)
}

func TestStreamIdleTimeout(t *testing.T) {
	t.Parallel()
	c, s := openStream(t, server.Config{Options: server.Options{StreamIdleTimeout: 50 * time.Millisecond}})
	h := compileTodo(t, c)
	send(t, s, startCall("a", "", h), delta("a", `{"action":`))
	_, err := s.Recv()
	assert.Equal(t, codes.DeadlineExceeded, code(err))
}

func TestStreamActivityKeepsItOpen(t *testing.T) {
	t.Parallel()
	// Each gap is well below the timeout (a loaded CI machine may stall
	// the sender or the server for a while), their sum above it.
	c, s := openStream(t, server.Config{Options: server.Options{StreamIdleTimeout: time.Second}})
	h := compileTodo(t, c)
	send(t, s, startCall("a", "", h))
	for _, piece := range []string{`{"act`, `ion":`, `"li`, `st"}`} {
		time.Sleep(300 * time.Millisecond)
		send(t, s, delta("a", piece))
	}
	send(t, s, end("a"))
	assert.True(t, recvResult(t, s).Valid)
}

// TestStreamOnAnyReplica: a schema compiled on replica A, and a stream that
// reaches replica B. Bound by A's handle, B does not hold it: each call gets
// an in-band NOT_FOUND result and the stream goes on. Bound inline (the
// bind's schemas, or a call's inline schema), every call is validated on B,
// under the same handle A computed.
func TestStreamOnAnyReplica(t *testing.T) {
	t.Parallel()
	a, b := client(t, server.Config{}), client(t, server.Config{})
	handle := compileTodo(t, a)
	s, err := b.ValidateStream(t.Context())
	require.NoError(t, err)
	send(t, s, askReceipt(), bind(map[string]string{"todo": handle}), startCall("by-handle", "todo", ""), startCall("start-handle", "", handle))
	for _, id := range []string{"by-handle", "start-handle"} {
		r := recvResult(t, s)
		assert.Equal(t, id, r.CallId)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_NOT_FOUND, r.Code)
		require.Len(t, r.Errors, 1)
		assert.Equal(t, "handle", r.Errors[0].Keyword)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_NOT_FOUND, r.Errors[0].Code)
		assert.Contains(t, r.Errors[0].Message, handle)
		assert.True(t, r.Early)
	}

	send(t, s, bindInline(map[string]string{"todo": todoSchema}),
		startCall("ok", "todo", ""), startCall("bad", "todo", ""), startInline("inline", "whatever", todoSchema),
		delta("ok", `{"action":"list"}`), delta("bad", `{"action":"fly"}`), delta("inline", `{"action":"add"}`),
		end("ok"), end("bad"), end("inline"))
	got := map[string]*toolgatev1.CallResult{}
	for range 3 {
		r := recvResult(t, s)
		got[r.CallId] = r
	}
	assert.True(t, got["ok"].Valid, "%v", got["ok"].Errors)
	assert.False(t, got["bad"].Valid)
	assert.Equal(t, "enum", got["bad"].Errors[0].Keyword)
	assert.True(t, got["inline"].Valid, "%v", got["inline"].Errors)
	assert.Equal(t, "whatever", got["inline"].ToolName, "echoed")

	// The inline bind stored the schema on B under A's handle.
	v, err := b.Validate(t.Context(), &toolgatev1.ValidateRequest{
		Schema:    &toolgatev1.ValidateRequest_Handle{Handle: handle},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"action":"clear"}`},
	})
	require.NoError(t, err)
	assert.True(t, v.Valid)
	require.NoError(t, s.CloseSend())
	recvEnd(t, s, 14, 5)
}

// returnIntake is the bindable output schema of a return-intake extraction
// (testdata/output/return_intake.json), cut to three keys.
const returnIntake = `{"type":"object","required":["order_id","reason","confidence"],"properties":{
	"order_id":{"type":["string","null"]},
	"reason":{"type":"string","enum":["damaged_item","wrong_item","changed_mind","other"]},
	"confidence":{"type":"number","minimum":0,"maximum":1}}}`

// anthropicText renders an Anthropic message whose text block streams the
// given pieces.
func anthropicText(pieces ...string) []string {
	events := []string{
		`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
	}
	for _, p := range pieces {
		events = append(events, `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+quoteJSON(p)+`}}`)
	}
	return append(events, `{"type":"content_block_stop","index":0}`, `{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`, `{"type":"message_stop"}`)
}

// TestStreamOutput: a bind's output schema (inline, or by handle) applies to
// the message text of provider events: a valid answer, an answer rejected
// early at the byte no enum choice starts, a fenced answer with
// strip_code_fence, and a handle this server lacks as an in-band
// NOT_FOUND. Results have call_id output/<n> and no tool_name. The same
// text sent as plain deltas of a start with output set gets the same
// verdict, under the start's call_id.
func TestStreamOutput(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	compiled, err := c.CompileSchema(t.Context(), &toolgatev1.CompileSchemaRequest{Profile: toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE,
		Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: returnIntake}})
	require.NoError(t, err)
	require.Empty(t, compiled.Errors)
	inline := &toolgatev1.StreamBind{OutputSchema: &toolgatev1.CompileSchemaRequest{Profile: toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE,
		Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: returnIntake}}}
	bad := `{"order_id": "A-4", "reason": "broken", "confidence": 0.8}`
	cases := []struct {
		name    string
		bind    *toolgatev1.StreamBind
		pieces  []string
		valid   bool
		early   bool
		keyword string
		offset  int64
	}{
		{"valid, inline", inline, []string{`{"order_id": null, `, `"reason": "other", "confidence": 1}`}, true, false, "", 0},
		{"valid, by handle", &toolgatev1.StreamBind{OutputHandle: compiled.Handle}, []string{`{"order_id": "A-1", "reason": "wrong_item", "confidence": 0}`}, true, false, "", 0},
		{"out of enum, early", inline, []string{bad[:33], bad[33:]}, false, true, "enum", int64(strings.Index(bad, "broken"))},
		{"fenced without stripping", inline, []string{"```json\n", `{"order_id": null, "reason": "other", "confidence": 1}`, "\n```"}, false, true, "json", 0},
		{"fenced, stripped", &toolgatev1.StreamBind{OutputSchema: inline.OutputSchema, StripCodeFence: true},
			[]string{"```json\n", `{"order_id": null, "reason": "other", "confidence": 1}`, "\n```"}, true, false, "", 0},
		{"a handle not held", &toolgatev1.StreamBind{OutputHandle: missingHandle}, []string{`{}`}, false, true, "handle", 0},
	}
	for _, tc := range cases {
		for _, plain := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, plain deltas %t", tc.name, plain), func(t *testing.T) {
				t.Parallel()
				s, err := c.ValidateStream(t.Context())
				require.NoError(t, err)
				send(t, s, askReceipt(), &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: tc.bind}})
				events, id := anthropicTextEvents(tc.pieces...), "output/0"
				if plain {
					events, id = plainOutput("answer", tc.pieces...), "answer"
				}
				send(t, s, events...)
				r := recvResult(t, s)
				assert.Equal(t, id, r.CallId)
				assert.Empty(t, r.ToolName)
				assert.Equal(t, tc.valid, r.Valid, "%v", r.Errors)
				assert.Equal(t, tc.early, r.Early)
				if !tc.valid {
					require.NotEmpty(t, r.Errors)
					assert.Equal(t, tc.keyword, r.Errors[0].Keyword)
					assert.Equal(t, tc.offset, r.Errors[0].Offset)
				}
				require.NoError(t, s.CloseSend())
				recvEnd(t, s, 2+int64(len(events)), 1) // one result for the one output
			})
		}
	}
}

// anthropicTextEvents are anthropicText's events as stream requests.
func anthropicTextEvents(pieces ...string) []*toolgatev1.ValidateStreamRequest {
	var reqs []*toolgatev1.ValidateStreamRequest
	for _, ev := range anthropicText(pieces...) {
		reqs = append(reqs, providerEvent(toolgatev1.Provider_PROVIDER_ANTHROPIC, ev))
	}
	return reqs
}

// plainOutput is an answer sent as plain deltas: a start with output set,
// the pieces, the end.
func plainOutput(id string, pieces ...string) []*toolgatev1.ValidateStreamRequest {
	reqs := []*toolgatev1.ValidateStreamRequest{{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{CallId: id, Output: true}}}}
	for _, p := range pieces {
		reqs = append(reqs, delta(id, p))
	}
	return append(reqs, end(id))
}

// TestStreamOutputStartErrors: a start with output set takes its schema
// from the output bind alone, and needs one.
func TestStreamOutputStartErrors(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	bind := &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: &toolgatev1.StreamBind{
		OutputSchema: compileJSON(todoSchema)}}}
	for _, tc := range []struct {
		name  string
		reqs  []*toolgatev1.ValidateStreamRequest
		wants string
	}{
		{"no output bound", plainOutput("a")[:1], "no output bound"},
		{"a tool name too", []*toolgatev1.ValidateStreamRequest{bind, {Event: &toolgatev1.ValidateStreamRequest_Start{
			Start: &toolgatev1.CallStart{CallId: "a", Output: true, ToolName: "todo"}}}}, "tool_name, handle and inline must be empty"},
		{"a handle too", []*toolgatev1.ValidateStreamRequest{bind, {Event: &toolgatev1.ValidateStreamRequest_Start{
			Start: &toolgatev1.CallStart{CallId: "a", Output: true, Handle: missingHandle}}}}, "tool_name, handle and inline must be empty"},
		{"a reserved id", append([]*toolgatev1.ValidateStreamRequest{bind}, plainOutput("output/1")[:1]...), "reserved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := c.ValidateStream(t.Context())
			require.NoError(t, err)
			send(t, s, tc.reqs...)
			_, err = s.Recv()
			assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
			assert.Contains(t, status.Convert(err).Message(), tc.wants)
		})
	}
}

// TestStateLimits: the validation state of one call, and of a stream's
// open calls together, is bounded by --max-call-state-bytes and
// --max-stream-state-bytes; past them a call is refused with keyword
// "limit". The schema applies 201 subschemas to every array it nests.
func TestStateLimits(t *testing.T) {
	t.Parallel()
	branches := []string{`{"items":{"$ref":"#/$defs/x"}}`}
	for i := range 200 {
		branches = append(branches, fmt.Sprintf(`{"maxItems":%d}`, 1000+i))
	}
	deep := `{"$defs":{"x":{"anyOf":[` + strings.Join(branches, ",") + `]}},"properties":{"a":{"$ref":"#/$defs/x"}}}`
	open := `{"a":` + strings.Repeat("[", 80)
	c, s := openStream(t, server.Config{Options: server.Options{MaxCallStateBytes: 8 << 20, MaxStreamStateBytes: 12 << 20}})
	r, err := c.Validate(t.Context(), &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: jsonSchemaRequest(deep, nil, false)},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: open + strings.Repeat("]", 80) + "}"}})
	require.NoError(t, err)
	require.False(t, r.Valid)
	assert.Equal(t, "limit", r.Errors[0].Keyword, "one call: %v", r.Errors[0])
	assert.Contains(t, r.Errors[0].Message, "more than the limit of 8388608 bytes of state")

	send(t, s, &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: &toolgatev1.StreamBind{
		Schemas: map[string]*toolgatev1.CompileSchemaRequest{"deep": jsonSchemaRequest(deep, nil, false)}}}})
	// An open array holds some 140 KB: 80 pass 8 MiB, and two calls of 50
	// pass 12 MiB together.
	half := `{"a":` + strings.Repeat("[", 50)
	send(t, s, startCall("a", "deep", ""), delta("a", half), startCall("b", "deep", ""), delta("b", half))
	res := recvResult(t, s)
	assert.Equal(t, "b", res.CallId)
	assert.True(t, res.Early)
	assert.Equal(t, "limit", res.Errors[0].Keyword)
	assert.Contains(t, res.Errors[0].Message, "The stream's open calls need more than the limit of 12582912 bytes")
}
