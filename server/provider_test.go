package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// tcpClient serves cfg on a real loopback TCP listener.
func tcpClient(t *testing.T, cfg server.Config) toolgatev1.ValidationServiceClient {
	t.Helper()
	return toolgatev1.NewValidationServiceClient(loopbackConn(t, cfg))
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// openAIChatEvents renders an OpenAI Chat Completions stream calling todo
// with the arguments split into pieces.
func openAIChatEvents(pieces []string) []string {
	chunk := func(delta string, finish string) string {
		return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, delta, finish)
	}
	events := []string{
		chunk(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_todo","type":"function","function":{"name":"todo","arguments":""}}]}`, "null"),
	}
	for _, p := range pieces {
		events = append(events, chunk(`{"tool_calls":[{"index":0,"function":{"arguments":`+quoteJSON(p)+`}}]}`, "null"))
	}
	return append(events, chunk(`{}`, `"tool_calls"`), `{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":1}}`)
}

// anthropicEvents renders an Anthropic Messages stream calling todo.
func anthropicEvents(pieces []string) []string {
	events := []string{
		`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"On it."}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call_todo","name":"todo","input":{}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}`,
	}
	for _, p := range pieces {
		events = append(events, `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":`+quoteJSON(p)+`}}`)
	}
	return append(events, `{"type":"content_block_stop","index":1}`, `{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`, `{"type":"message_stop"}`)
}

// TestTodoThroughProviderStreams drives the todo tool through an adapted
// OpenAI Chat stream and an adapted Anthropic stream over a real TCP server:
// a valid call, and an invalid status rejected early, at the byte offset of
// the first byte of the bad enum value no choice can follow.
func TestTodoThroughProviderStreams(t *testing.T) {
	t.Parallel()
	providers := []struct {
		name   string
		p      toolgatev1.Provider
		events func([]string) []string
	}{
		{"openai chat", toolgatev1.Provider_PROVIDER_OPENAI_CHAT, openAIChatEvents},
		{"anthropic", toolgatev1.Provider_PROVIDER_ANTHROPIC, anthropicEvents},
	}
	valid := []string{`{"action": "add", `, `"content": "Write the `, `release notes", "sta`, `tus": "in_progress"}`}
	invalid := []string{`{"action": "update", "id": "4", `, `"status": "blo`, `cked"}`}
	badOffset := int64(strings.Index(strings.Join(invalid, ""), "blocked"))
	c := tcpClient(t, server.Config{})
	h := compileTodo(t, c)
	for _, pv := range providers {
		t.Run(pv.name, func(t *testing.T) {
			t.Parallel()
			t.Run("valid call", func(t *testing.T) {
				s, err := c.ValidateStream(t.Context())
				require.NoError(t, err)
				send(t, s, bind(map[string]string{"todo": h}))
				for _, ev := range pv.events(valid) {
					send(t, s, providerEvent(pv.p, ev))
				}
				r := recvResult(t, s)
				assert.True(t, r.Valid, "%v", r.Errors)
				assert.Equal(t, "call_todo", r.CallId)
				assert.Equal(t, "todo", r.ToolName)
				assert.False(t, r.Early)
				assert.Equal(t, int64(len(strings.Join(valid, ""))), r.Bytes)
			})
			t.Run("invalid status rejected early", func(t *testing.T) {
				s, err := c.ValidateStream(t.Context())
				require.NoError(t, err)
				send(t, s, askReceipt(), bind(map[string]string{"todo": h}))
				events := pv.events(invalid)
				sent := 0
				for _, ev := range events {
					send(t, s, providerEvent(pv.p, ev))
					sent++
					if strings.Contains(ev, `\"blo`) {
						break // stop right after the delta with the impossible byte
					}
				}
				r := recvResult(t, s) // arrives although the call has not ended
				assert.Less(t, sent, len(events))
				assert.False(t, r.Valid)
				assert.True(t, r.Early)
				require.Len(t, r.Errors, 1)
				assert.Equal(t, "enum", r.Errors[0].Keyword)
				assert.Equal(t, "/status", r.Errors[0].InstancePath)
				assert.Equal(t, badOffset, r.Errors[0].Offset)
				for _, ev := range events[sent:] {
					send(t, s, providerEvent(pv.p, ev))
				}
				require.NoError(t, s.CloseSend())
				recvEnd(t, s, 2+int64(len(events)), 1) // no second result for the call
			})
		})
	}
}

// TestToolNameSplitAcrossDeltas: an OpenAI-compatible stream that names
// the tool "to", then "do". openai-python joins the fragments and
// dispatches todo; the Vercel AI SDK keeps "to". Either way the call must
// not be validated against the permissive "to": it is rejected, in-band,
// before its arguments are checked against either tool.
func TestToolNameSplitAcrossDeltas(t *testing.T) {
	t.Parallel()
	c, s := openStream(t, server.Config{})
	permissive, err := c.CompileSchema(t.Context(), compileJSON(`{"type":"object"}`))
	require.NoError(t, err)
	send(t, s, askReceipt(), bind(map[string]string{"to": permissive.Handle, "todo": compileTodo(t, c)}))
	chunk := func(delta string) *toolgatev1.ValidateStreamRequest {
		return providerEvent(toolgatev1.Provider_PROVIDER_OPENAI_CHAT,
			`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[`+delta+`]},"finish_reason":null}]}`)
	}
	send(t, s,
		chunk(`{"index":0,"id":"call_1","type":"function","function":{"name":"to","arguments":""}}`),
		chunk(`{"index":0,"function":{"name":"do","arguments":"{\"rm\": \"-rf /\"}"}}`),
		providerEvent(toolgatev1.Provider_PROVIDER_OPENAI_CHAT, `{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`))
	r := recvResult(t, s)
	assert.Equal(t, "call_1", r.CallId)
	assert.False(t, r.Valid, "never validated against the tool named first")
	require.Len(t, r.Errors, 1)
	assert.Equal(t, "tool_name", r.Errors[0].Keyword)
	assert.Contains(t, r.Errors[0].Message, "changed during the call")
	assert.True(t, r.Early)
	require.NoError(t, s.CloseSend())
	recvEnd(t, s, 5, 1) // exactly one result
}
