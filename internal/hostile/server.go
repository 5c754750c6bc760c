package hostile

import (
	"fmt"
	"strings"
)

// The shapes of issue 9's findings 1, 4, 6 and 8 that package server must
// bound by itself: a deadline, the size of an answer, a toolset's cost, a
// status code.

// todoSchema is a strict tool with a closed set of actions.
const todoSchema = `{"type":"object","properties":{"action":{"type":"string","enum":["add","list","complete"]},"id":{"type":"string"}},"required":["action"],"additionalProperties":false}`

var validatePastDeadline = Shape{
	Name: "validate-past-deadline", Finding: 1, Owner: Server, RPC: "Validate",
	Summary: "a `oneOf` of 999 distinct string branches (within the engine's width limit of 1,000) against a 2 MB string of `\\n` escapes, sent with a deadline: `Validate` never looked at its context and burnt a core for minutes after the client's deadline; it must end with `DEADLINE_EXCEEDED` (or a verdict, if the engine is fast enough)",
	Generate: func() Request {
		return Request{
			Profile:   "JSON_SCHEMA", // maxLength is outside the tool input profile
			Schema:    object(`{"oneOf":[` + list(999, func(i int) string { return fmt.Sprintf(`{"type":"string","maxLength":%d}`, 10_000_000+i) }) + `]}`),
			Arguments: escapes(),
		}
	},
}

var compilePastDeadline = Shape{
	Name: "compile-past-deadline", Finding: 0, Owner: Server, RPC: "CompileSchema",
	Summary: "a tool input schema of 130,000 properties (3.8 MB) sent with a deadline of 0.5 s: `CompileSchema` looked at its deadline only before compiling, and compiled for over a second after the client had gone; it must end with `DEADLINE_EXCEEDED` (or its answer, if the compile is fast enough)",
	Generate: func() Request {
		return Request{Schema: []byte(`{"type":"object","properties":{` +
			list(130_000, func(i int) string { return fmt.Sprintf(`"p%d":{"type":"integer"}`, i) }) + `}}`)}
	},
}

var toolsetRepeatedMembers = Shape{
	Name: "toolset-repeated-members", Finding: 6, Owner: Server, RPC: "CompileToolset",
	Summary: "a 4.1 MB `tools/list` of 90,000 tools whose schemas each repeat a member: every repetition was compared with every tool, 161 s",
	Generate: func() Request {
		return Request{ToolsList: []byte(`{"tools":[` + list(90_000, func(i int) string {
			return fmt.Sprintf(`{"name":"t%d","inputSchema":{"a":0,"a":0}}`, i)
		}) + `]}`)}
	},
}

var invalidUTF8Arguments = Shape{
	Name: "invalid-utf8-arguments", Finding: 8, Owner: Server, RPC: "Validate",
	Summary: "invalid UTF-8 in `arguments_json`: the request cannot be decoded, which grpc-go answers `INTERNAL` (retried as a server fault); it must be `INVALID_ARGUMENT`",
	Generate: func() Request {
		return Request{Schema: []byte(todoSchema), Arguments: []byte("{\"action\":\"\xff\"}")}
	},
}

var invalidUTF8Schema = Shape{
	Name: "invalid-utf8-schema", Finding: 8, Owner: Server, RPC: "CompileSchema",
	Summary: "invalid UTF-8 in `schema_json`: `INVALID_ARGUMENT`, not `INTERNAL`",
	Generate: func() Request {
		return Request{Schema: []byte("{\"type\":\"object\",\"description\":\"\xc3(\"}")}
	},
}

var invalidUTF8Delta = Shape{
	Name: "invalid-utf8-delta", Finding: 8, Owner: Server, RPC: "ValidateStream",
	Summary: "invalid UTF-8 in a provider event's `event_json`: the stream ends `INVALID_ARGUMENT`, not `INTERNAL`",
	Generate: func() Request {
		return Request{Tools: map[string][]byte{"todo": []byte(todoSchema)}, Provider: "ANTHROPIC", Events: once(
			[]byte(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"todo","input":{}}}`),
			[]byte("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"action\\\": \\\"\xff\"}}"),
		)}
	},
}

var malformedHandle = Shape{
	Name: "malformed-handle", Finding: 8, Owner: Server, RPC: "Validate",
	Summary: "a handle that is not `tg1_` and 64 hex digits: `INVALID_ARGUMENT` everywhere (`CallStart` answered `NOT_FOUND`)",
	Generate: func() Request {
		return Request{Handle: "tg1_" + strings.Repeat("z", 64), Arguments: []byte(`{"action":"list"}`)}
	},
}

var longPointersSmall = Shape{
	Name: "long-pointers-small", Finding: 4, Owner: Server, RPC: "Validate",
	Summary:  "`long-pointers` with a 64 KB name: 19 MB of findings, past a default client's 4 MiB (`RESOURCE_EXHAUSTED` instead of a verdict); the answer must stay within `--max-answer-bytes`, its pointers cut to ancestors",
	Generate: func() Request { return longPointerRequest(64<<10, 100) },
}
