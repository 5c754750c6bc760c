package client_test

import (
	"encoding/json"
	"net"
	"os"
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

// anthropicAnswer is an Anthropic structured-output stream: a thinking
// block, then the answer as text deltas.
func anthropicAnswer(pieces ...string) string {
	evs := []sseEvent{anthropicStart[0],
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The customer says the mug arrived broken."}}`},
		{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		{"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`},
	}
	for _, p := range pieces {
		evs = append(evs, sseEvent{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":` + quote(p) + `}}`})
	}
	evs = append(evs, sseEvent{"content_block_stop", `{"type":"content_block_stop","index":1}`},
		sseEvent{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":90}}`},
		sseEvent{"message_stop", `{"type":"message_stop"}`})
	return sseBody(evs...)
}

// openAIAnswer is an OpenAI Chat structured-output stream (response_format
// json_schema): the role chunk, content deltas, the finish, [DONE].
func openAIAnswer(pieces ...string) string {
	const head = `{"id":"chatcmpl-2","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":`
	evs := []sseEvent{{"", head + `{"role":"assistant","content":"","refusal":null},"finish_reason":null}]}`}}
	for _, p := range pieces {
		evs = append(evs, sseEvent{"", head + `{"content":` + quote(p) + `},"finish_reason":null}]}`})
	}
	evs = append(evs, sseEvent{"", head + `{},"finish_reason":"stop"}]}`}, sseEvent{"", "[DONE]"})
	return sseBody(evs...)
}

// returnIntakeCase returns the answer of case i of the seed's
// return-intake cases, as the JSON text a model writes.
func returnIntakeCase(t *testing.T, i int) (answer string, valid bool) {
	t.Helper()
	data, err := os.ReadFile(fixtures.Testdata(t, "output/return_intake.cases.json"))
	require.NoError(t, err)
	var cases []struct {
		Output json.RawMessage `json:"output"`
		Valid  bool            `json:"valid"`
	}
	require.NoError(t, json.Unmarshal(data, &cases))
	return string(cases[i].Output), cases[i].Valid
}

// pieces cuts s into pieces of n bytes.
func pieces(s string, n int) []string {
	var out []string
	for len(s) > n {
		out, s = append(out, s[:n]), s[n:]
	}
	return append(out, s)
}

// TestValidateOutputStreamEndToEnd: the seed's return-intake schema bound
// to an Anthropic and an OpenAI structured-output stream, through the Go
// client, to the real server on a loopback TCP listener. A valid answer is
// valid at the message's end; an answer whose reason is outside the enum
// is rejected while the body is still open — before the message ends — at
// the byte no choice starts.
func TestValidateOutputStreamEndToEnd(t *testing.T) {
	t.Parallel()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv, _ := server.NewGRPCServer(server.Config{})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	c, err := client.Dial(lis.Addr().String(), client.WithInsecure())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	schemaJSON, err := os.ReadFile(fixtures.Testdata(t, "output/return_intake.json"))
	require.NoError(t, err)

	good, goodValid := returnIntakeCase(t, 0)
	require.True(t, goodValid)
	bad, badValid := returnIntakeCase(t, 5) // "reason": "broken"
	require.False(t, badValid)
	// "b" starts the choice "billing_dispute"; no choice starts "br", so the
	// 'r' of "broken" is the first byte no valid answer can follow.
	badAt := strings.Index(bad, `"broken"`) + 2
	require.Greater(t, badAt, 2)

	for _, pv := range []struct {
		name   string
		p      toolgatev1.Provider
		render func(...string) string
	}{
		{"anthropic", client.Anthropic, anthropicAnswer},
		{"openai chat", client.OpenAIChat, openAIAnswer},
	} {
		t.Run(pv.name+" valid", func(t *testing.T) {
			t.Parallel()
			results, err := collect(t, c.ValidateOutputStream(t.Context(), pv.p, strings.NewReader(pv.render(pieces(good, 7)...)), string(schemaJSON)))
			require.NoError(t, err)
			require.Len(t, results, 1)
			r := results[0]
			assert.Equal(t, "output/0", r.GetCallId())
			assert.Empty(t, r.GetToolName())
			assert.True(t, r.GetValid(), "%v", r.GetErrors())
			assert.False(t, r.GetEarly())
			assert.Equal(t, int64(len(good)), r.GetBytes())
		})
		t.Run(pv.name+" reason outside the enum", func(t *testing.T) {
			t.Parallel()
			split := pieces(bad, 7)
			body := pv.render(split...)
			// Hold the body right after the delta holding the 'r' of
			// "broken": the rejection must arrive before anything more.
			k := 0
			for n := 0; n+len(split[k]) <= badAt; k++ {
				n += len(split[k])
			}
			cut := eventEnd(body, quote(split[k]))
			pr, rejected, wrote := heldBody(body[:cut], body[cut:])
			var results []*toolgatev1.CallResult
			for r, err := range c.ValidateOutputStream(t.Context(), pv.p, pr, string(schemaJSON)) {
				require.NoError(t, err)
				results = append(results, r)
				close(rejected)
			}
			require.NoError(t, <-wrote)
			require.Len(t, results, 1)
			r := results[0]
			assert.False(t, r.GetValid())
			assert.True(t, r.GetEarly(), "rejected before the message ended")
			require.NotEmpty(t, r.GetErrors())
			e := r.GetErrors()[0]
			assert.Equal(t, "enum", e.GetKeyword())
			assert.Equal(t, "/reason", e.GetInstancePath())
			assert.Equal(t, int64(badAt), e.GetOffset())
		})
	}
}

// TestValidateOutputStreamOptions: a fenced answer is a json finding at
// its first byte unless WithStripCodeFence; a refusal is its own finding;
// a schema that does not compile ends the stream, unless WithOutputProfile
// picks a profile that takes it, and so does a profile the server does not
// know; tool calls in the stream are results too.
func TestValidateOutputStreamOptions(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	const schemaJSON = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`
	fenced := anthropicAnswer("```json\n", `{"city": "Oslo"}`, "\n```")
	results, err := collect(t, c.ValidateOutputStream(t.Context(), client.Anthropic, strings.NewReader(fenced), schemaJSON))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "output/0", Early: true, Keyword: "json"}}, verdicts(results))
	results, err = collect(t, c.ValidateOutputStream(t.Context(), client.Anthropic, strings.NewReader(fenced), schemaJSON, client.WithStripCodeFence()))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "output/0", Valid: true}}, verdicts(results))

	refusal := sseBody(sseEvent{"", `{"choices":[{"index":0,"delta":{"content":"","refusal":"I can't help with that."},"finish_reason":null}]}`},
		sseEvent{"", `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`})
	results, err = collect(t, c.ValidateOutputStream(t.Context(), client.OpenAIChat, strings.NewReader(refusal), schemaJSON))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "output/0", Early: true, Keyword: "refusal"}}, verdicts(results))

	// A plain JSON answer, not streamed, is no clean end either.
	_, err = collect(t, c.ValidateOutputStream(t.Context(), client.OpenAIChat,
		strings.NewReader(`{"choices":[{"index":0,"message":{"role":"assistant","content":"{\"town\":1}"},"finish_reason":"stop"}]}`), schemaJSON))
	assert.ErrorIs(t, err, client.ErrNoEvents)

	const openObject = `{"type":"object","properties":{"a":{"type":"object"}}}`
	_, err = collect(t, c.ValidateOutputStream(t.Context(), client.OpenAIChat, strings.NewReader(refusal), openObject))
	assert.ErrorContains(t, err, "output schema does not compile")
	// The JSON Schema profile takes the schema the bindable profile refuses.
	results, err = collect(t, c.ValidateOutputStream(t.Context(), client.OpenAIChat, strings.NewReader(openAIAnswer(`{"a":`, `{"b":1}}`)), openObject,
		client.WithOutputProfile(toolgatev1.Profile_PROFILE_JSON_SCHEMA)))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "output/0", Valid: true}}, verdicts(results))
	results, err = collect(t, c.ValidateOutputStream(t.Context(), client.OpenAIChat, strings.NewReader(openAIAnswer(`{"a":`, `[]}`)), openObject,
		client.WithOutputProfile(toolgatev1.Profile_PROFILE_JSON_SCHEMA)))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "output/0", Early: true, Keyword: "type"}}, verdicts(results))
	_, err = collect(t, c.ValidateOutputStream(t.Context(), client.OpenAIChat, strings.NewReader(refusal), schemaJSON,
		client.WithOutputProfile(toolgatev1.Profile(99))))
	assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)

	ts, err := c.LoadTools(t.Context(), []client.ToolSchema{{Name: "todo", SchemaJSON: todoSchema}})
	require.NoError(t, err)
	withCall := anthropicStream(anthropicCall{id: "toolu_1", name: "todo", fragments: []string{`{"action":"list"}`}})
	results, err = collect(t, c.ValidateOutputStream(t.Context(), client.Anthropic, strings.NewReader(withCall), schemaJSON, client.WithToolset(ts)))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "output/0", Early: true, Keyword: "json"}, {CallID: "toolu_1", Tool: "todo", Valid: true}}, verdicts(results),
		"the text \"On it.\" is no JSON answer; the call is validated")
}

// TestValidateOutputStreamErrorEventWithoutData: an "error" event cuts the
// answer it ends whatever its data, none at all included: the Stainless
// SDKs' decoders dispatch a block with only an "event:" field, and
// anthropic-sdk-python raises on the name, openai-python on data that is
// not JSON. An unnamed block with empty data is skipped, as before.
func TestValidateOutputStreamErrorEventWithoutData(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	const schemaJSON = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`
	anthropic := sseBody(anthropicStart[0],
		sseEvent{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
		sseEvent{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"{\"city\":\"Oslo\"}"}}`})
	chat := sseBody(sseEvent{"", `{"choices":[{"index":0,"delta":{"content":"{\"city\":\"Oslo\"}"},"finish_reason":null}]}`})
	cut := []verdict{{CallID: "output/0", Keyword: "finish_reason"}}
	for _, tc := range []struct {
		name string
		p    toolgatev1.Provider
		body string
		want []verdict
	}{
		{"anthropic, no data line", client.Anthropic, anthropic + "event: error\n\n", cut},
		{"anthropic, empty data", client.Anthropic, anthropic + "event: error\ndata:\n\n", cut},
		{"openai chat, no data line", client.OpenAIChat, chat + "event: error\r\n\r\n", cut},
		{"openai chat, empty data", client.OpenAIChat, chat + "event: error\ndata: \n\n", cut},
		{"openai chat, unnamed empty data", client.OpenAIChat, chat + "data:\n\n", []verdict{{CallID: "output/0", Valid: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			results, err := collect(t, c.ValidateOutputStream(t.Context(), tc.p, strings.NewReader(tc.body), schemaJSON))
			require.NoError(t, err)
			assert.Equal(t, tc.want, verdicts(results))
		})
	}
}

// TestValidateOutputStreamEndsAtDone: the client sends OpenAI's [DONE],
// and the server ends the answer there, as openai-python and openai-node
// stop reading at it: the application's answer is the text before it
// (here an incomplete document), and a Chat event after it fails the
// stream with codes.InvalidArgument rather than pass for that answer.
func TestValidateOutputStreamEndsAtDone(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	const schemaJSON = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`
	chunk := func(delta, finish string) sseEvent {
		return sseEvent{"", `{"choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`}
	}
	head := []sseEvent{chunk(`{"content":"{\"city\":"}`, "null"), {"", "[DONE]"}}
	results, err := collect(t, c.ValidateOutputStream(t.Context(), client.OpenAIChat, strings.NewReader(sseBody(head...)), schemaJSON))
	require.NoError(t, err)
	assert.Equal(t, []verdict{{CallID: "output/0", Keyword: "json"}}, verdicts(results))

	body := sseBody(append(head, chunk(`{"content":"\"Oslo\"}"}`, "null"), chunk(`{}`, `"stop"`))...)
	results, err = collect(t, c.ValidateOutputStream(t.Context(), client.OpenAIChat, strings.NewReader(body), schemaJSON))
	assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
	assert.ErrorContains(t, err, "after [DONE]")
	assert.Equal(t, []verdict{{CallID: "output/0", Keyword: "json"}}, verdicts(results), "the answer before [DONE]")
}
