package hostile

import (
	"fmt"
	"strings"
)

// The shapes of issue 9's findings 2, 3, 6 and 7 that the stream session
// and the provider adapters must bound.

// chatChunk is an OpenAI Chat Completions chunk with one tool-call delta.
func chatChunk(call string) []byte {
	return []byte(`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[` + call + `]},"finish_reason":null}]}`)
}

var unnamedCalls = Shape{
	Name: "unnamed-calls", Finding: 2, Owner: Streams, RPC: "ValidateStream",
	Summary: "an OpenAI Chat stream of 18,000 calls that never get a name, 4 KB of arguments each: counted by neither `--max-calls-per-stream` nor `--max-call-bytes` until they end or pass 64 KiB, they took the server from 37 MiB to 1.7 GiB",
	Generate: func() Request {
		args := strings.Repeat("x", 4<<10)
		return Request{Tools: map[string][]byte{"todo": []byte(todoSchema)}, Provider: "OPENAI_CHAT", Events: seq(18_000, func(i int) []byte {
			return chatChunk(fmt.Sprintf(`{"index":%d,"function":{"arguments":"{\"q\":\"%s"}}`, i, args))
		})}
	},
}

var splitToolName = Shape{
	Name: "split-tool-name", Finding: 3, Owner: Streams, RPC: "ValidateStream",
	Summary: "an OpenAI-compatible stream naming its tool `\"to\"` then `\"do\"`: validated against the permissive `to`, while openai-python's `accumulate_delta` dispatches `todo`",
	Generate: func() Request {
		return Request{
			Tools:    map[string][]byte{"to": []byte(`{"type":"object"}`), "todo": []byte(todoSchema)},
			Provider: "OPENAI_CHAT",
			Events: once(
				chatChunk(`{"index":0,"id":"call_1","type":"function","function":{"name":"to","arguments":""}}`),
				chatChunk(`{"index":0,"function":{"name":"do","arguments":"{\"action\":\"rm -rf /\"}"}}`),
				[]byte(`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`),
			),
		}
	},
}

var responsesDoneMismatch = Shape{
	Name: "responses-done-mismatch", Finding: 3, Owner: Streams, RPC: "ValidateStream",
	Summary: "a Responses stream whose `.done` arguments differ from its deltas: reconciled through an FNV-1a hash, which is cheap to collide; the bytes themselves must be compared",
	Generate: func() Request {
		return Request{Tools: map[string][]byte{"todo": []byte(todoSchema)}, Provider: "OPENAI_RESPONSES", Events: once(
			[]byte(`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"todo","arguments":""}}`),
			[]byte(`{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"action\":\"list\"}"}`),
			[]byte(`{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":"{\"action\":\"drop\"}"}`),
			[]byte(`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"todo","arguments":"{\"action\":\"drop\"}"}}`),
		)}
	},
}

var geminiBigEvent = Shape{
	Name: "gemini-big-event", Finding: 6, Owner: Streams, RPC: "ValidateStream",
	Summary: "one 4 MB Gemini event of 300,000 text parts and a function call: candidates were found by a linear scan that lives for the whole stream, 54 s",
	Generate: func() Request {
		parts := repeat(300_000, `{"text":"a"}`) + `,{"functionCall":{"name":"todo","args":{"action":"list"}}}`
		return Request{Tools: map[string][]byte{"todo": []byte(todoSchema)}, Provider: "GEMINI", Events: once(
			[]byte(`{"candidates":[{"index":0,"content":{"role":"model","parts":[` + parts + `]}}]}`),
		)}
	},
}

var neverReads = Shape{
	Name: "never-reads", Finding: 7, Owner: Streams, RPC: "ValidateStream",
	Summary: "an Anthropic stream of 20,000 rejected calls from a client that never reads its results: the handler parked in `Send` forever and `--stream-idle-timeout` never fired (the shape is the events; the client must not call `Recv`)",
	Generate: func() Request {
		return Request{Tools: map[string][]byte{"todo": []byte(todoSchema)}, Provider: "ANTHROPIC", Events: func(yield func([]byte) bool) {
			for i := range 20_000 {
				for _, ev := range []string{
					fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"toolu_%d","name":"todo","input":{}}}`, i, i),
					fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":"{\"action\":\"nope\"}"}}`, i),
					fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i),
				} {
					if !yield([]byte(ev)) {
						return
					}
				}
			}
		}}
	},
}
