// Package provider turns the raw stream events of LLM providers into tool-call
// and message-text events: an Adapter takes one event at a time (the JSON
// payload of one SSE data line) and emits Start, Delta (argument JSON text)
// and End for the call the event belongs to, and Text, Refusal and TextEnd
// for the message output (structured output is the message's text). It
// knows each provider's wire format and its quirks, so that the stream
// session above it sees one uniform sequence per call and per output.
//
// # Contract
//
// Every call gets exactly one Start before its Deltas and at most one End;
// Close ends the calls still open, and so does OpenAI's "[DONE]" in an
// OpenAI Chat or Responses stream, after which an event is an *EventError
// (see Adapter.FeedNamed). End comes as soon as the provider's own
// end-of-call event arrives. Event.Key names the call and is never reused
// within a stream. Events that carry no tool-call data are accepted and
// ignored; identical events are never de-duplicated (the same fragment, ping
// or terminator legitimately repeats). An event that is not valid JSON or not
// of the provider's shape is an *EventError; nothing panics. The state an
// adapter keeps for the places events name — OpenAI Chat choices, Gemini
// candidates, the output items of a Responses response — is bounded by
// its place limit: the event past it is an *EventError wrapping
// ErrTooManyPlaces (see Adapter.LimitPlaces).
//
// A call begins (Start) at its first event, named or not, so that the layer
// above counts it from there: the adapter holds no argument text back. When
// the provider names the tool only later (some OpenAI-compatible servers send
// the arguments first), the Start has an empty ToolName and a Name event
// follows; a call that ends before any name arrives has none. The first
// non-empty id wins; an id that arrives after the name is dropped (Key, not
// CallID, identifies the call). Events for a call that has ended are
// ignored, except where a client would still apply them to what it runs
// (Anthropic, and OpenAI Chat entries, below).
//
// # Message outputs
//
// Each provider choice, candidate, message or Responses message item is one
// output, keyed "output/<n>" (n: the choice or candidate index, the
// Responses output_index, the message number for Anthropic, Bedrock and
// Cohere, whose one document per message is the concatenation of its text
// blocks; "#2", ... when n is used again, as by a second response in one
// stream). An output begins at its first non-empty Text or its Refusal, so
// a choice that only calls tools has none, and ends with TextEnd at the
// provider's end of the candidate, item or message, at the end of the
// stream for an OpenAI Chat choice (see Providers), or at Close.
// Text is the answer only, never reasoning: OpenAI reasoning_content and
// reasoning, Anthropic thinking_delta and signature_delta, Gemini parts with
// thought: true, Responses reasoning items, Bedrock reasoningContent, Cohere
// thinking content and tool plans are not read. A refusal (OpenAI
// delta.refusal, Responses refusal events, Anthropic stop_reason "refusal")
// is a Refusal, never text. An output the provider stopped before the
// model finished it has its TextEnd's Cut set to the reason: OpenAI
// finish_reason "length" or "content_filter", Responses
// response.incomplete or .failed, Anthropic stop_reason "max_tokens" or
// "model_context_window_exceeded", a Gemini finishReason other than STOP,
// Bedrock stopReason "max_tokens", "content_filtered",
// "guardrail_intervened" or "model_context_window_exceeded", Cohere
// finish_reason MAX_TOKENS, ERROR or TIMEOUT.
//
// # Tool names
//
// A call's tool is the first non-empty name its events carry; an empty name
// (GLM repeats "name": "") or the same name again changes nothing. A second,
// different name is a Conflict, in every adapter: the events then name two
// tools, and which one a client dispatches depends on how it reads them.
// openai-python's accumulate_delta concatenates the name fragments of an
// OpenAI Chat call (and so reads "to" then "do" as "todo"), while the Vercel
// AI SDK keeps the name of the call's first delta ("to"): no single name is
// safe to validate against, so the call is rejected rather than checked
// against the wrong tool. Names are never concatenated here; no recording
// splits one. Where a key names a call in every event (an Anthropic or
// Bedrock block index, a Cohere index), a second opening event for a key
// still open is the same call: its name is a repeat or a Conflict (a
// Responses item added twice is an *EventError: the SDKs would hold two). Gemini sends calls one after another, so a named part
// begins the next call; it cannot rename one (a streamed part that names a
// tool while a call streams, which ADK reads as renaming it, is refused).
//
// # Providers
//
// OpenAI Chat Completions (and OpenAI-compatible servers): key "choice<i>/tool<j>",
// by choices[].index and tool_calls[].index. id and name arrive in a call's
// first entry only. Mistral omits index (the entry's position in tool_calls
// is used); GLM repeats "name": "" in later entries (ignored: the first
// non-empty name wins); Groq, xAI and Mistral send a whole call in one entry;
// an entry with a different non-empty id and a name at the same index begins
// a new call (Ollama, Dynamo and LiteLLM's Responses bridge have sent every
// parallel call at index 0; openai-python joins such calls into one, whose
// id no result carries, and the Vercel AI SDK drops all but the first), while one with a
// different id and no name continues the open call there (Poolside and
// mlx-openai-server give a call's later entries another id; openai-python
// and the Vercel AI SDK group entries by index). delta.content is a string,
// or (Mistral's reasoning models) an array of parts whose "text" parts are
// the text. A custom tool's call (type "custom") is a call whose input is
// free text: it gets a Start without a name and an Unreadable.
// A choice's finish_reason ends that choice's calls, but not its output:
// openai-python's stream state finds a choice by index and appends the
// delta.content that comes after a finish_reason to its one message (and
// some gateways send "stop" on every chunk), so the output is all the
// choice's text up to "[DONE]", Close or an error, and text after it
// ended is ignored: a choice never has a second output. A reason that
// cuts the choice stays, whatever reason comes later. The usage chunk
// with no choices is ignored. The legacy delta.function_call form (the
// functions API) is one call per choice, key "choice<i>/function",
// without an id. openai-python still applies an entry to a call its
// finish_reason ended, appending the arguments and joining the name, so
// a chunk with an entry (without id) for an ended call that brings
// arguments to a call that had none, checked as {}, or another name, is
// an *EventError without Key, which ends the stream; later arguments
// after a call's own text, an empty or repeated name, are ignored.
// openai-python's stream helper finds choices and tool calls by position
// in its snapshot, not by index, so a chunk with a choice or tool call
// whose index is not where it would place it (negative, past the next
// one, or, in a list the helper keeps as sent, not the entry's position)
// is an *EventError without a Key, which ends the stream (see order).
//
// OpenAI Responses: key = the function_call item id ("fc_..."), since deltas
// carry neither call_id nor name; both come from response.output_item.added.
// An mcp_approval_request item (a remote MCP tool's call that OpenAI makes
// once the client approves it) is a call too, keyed and identified by its
// item id, its arguments whole in each copy of the item.
// The other items a client runs (custom_tool_call, computer_call,
// local_shell_call, shell_call, apply_patch_call, a client-run
// tool_search_call, and an unknown "*_call" type) are calls whose input is
// not JSON arguments: each gets a Start without a name, an Unreadable and
// an End at its first copy, and nothing more for its later copies. Items
// OpenAI runs itself (web_search_call, file_search_call,
// code_interpreter_call, image_generation_call, mcp_call, a tool search
// with execution "server") are no calls.
// The SDKs append every added item, of any type, and apply an event to the
// item at its output_index: an item added at another output_index than the
// number added before it (response.created's output counts), added twice,
// or an event at a negative output_index is an *EventError that ends the
// stream.
// response.output_item.done ends the call, one event after
// response.function_call_arguments.done: both repeat the call (clients such
// as the Vercel AI SDK run the item of output_item.done), and both are
// checked (the end of the response ends a call whose output_item.done never
// came). Some servers (LM Studio) send no deltas: then the .done arguments
// are the whole text; otherwise each final copy is only checked against
// what came before (an extension is appended, a contradiction is an
// *EventError with the Key, another name a Conflict) and never duplicates
// it. The check compares a keyed
// SHA-256 of the streamed bytes (a random key per process), so a final copy
// cannot pass for a different stream the way a colliding 64-bit hash could.
//
// Anthropic Messages: key "msg<m>/block<i>", by content-block index, which
// counts text blocks too and restarts with each message_start. The first
// partial_json is usually "". content_block_stop ends a call. Input that
// arrives whole — a non-empty input in content_block_start, or a tool_use
// pre-populated in message_start.message.content with no block events — is
// the call's text, compacted (whitespace removed, numbers and escapes as
// sent). The empty input {} before deltas is a placeholder, used only when no
// delta arrives: a call whose only delta is "" has empty text. A call cut off
// by max_tokens has no content_block_stop; it ends at message_delta (or
// message_stop, or Close) with its incomplete text. The SDKs apply a delta
// to the block at its index, with no notion of a stopped block, so an
// input_json_delta for a block not started, that is no tool call or whose
// call has ended, and a text_delta for any block but the message's open
// text block, is an *EventError without a Key, which ends the stream.
//
// Google Gemini: key "cand<c>/call<n>", by candidate index and call number.
// Gemini sends no argument text: a part with whole args becomes the compacted
// args object and ends at once (no args: "{}"), and one with args and
// partialArgs or willContinue too, which ADK streams, is an *EventError
// without Key; streamed partialArgs
// (jsonPath plus a typed value, strings concatenated per path across parts,
// willContinue) are written as JSON text in arrival order, exact number
// digits, strings escaped as JSON with non-ASCII kept as UTF-8. A streamed call
// ends, closed, at the first part without a top-level willContinue (the empty
// functionCall {} terminator, or the last partialArgs part when there is no
// terminator); one that a whole call, finishReason or Close ends while
// it still promised more was cut off, and ends with its incomplete text
// (its validation finds the document unfinished). A streamed part
// (partialArgs or willContinue) that names a tool while a call of its
// candidate streams is an *EventError without Key: ADK renames the
// streaming call and gathers the part's partialArgs into it. Gemini sends
// paths in document order; a path that re-enters an object already closed
// repeats that object's key (a duplicate key, which validation rejects), and
// one that skips or revisits an array element is an *EventError with the Key.
//
// AWS Bedrock ConverseStream: key "block<i>", by contentBlockIndex;
// contentBlockStart.start.toolUse opens a call, delta.toolUse.input strings
// append, contentBlockStop ends it. Text and reasoning blocks (which may lack
// a start) are ignored; messageStop ends anything still open. Each event is
// wrapped in its type, as the SDKs yield it ({"contentBlockDelta": {...}});
// a bare payload (its type only in the event stream's :event-type header)
// is an *EventError, not an event without tool data, and so is an event
// with two members (two payloads, or one beside another member), which
// clients would read as different events.
//
// Cohere v2: key "call<i>", by index; tool-call-start (with its arguments,
// normally ""), tool-call-delta, tool-call-end. A call without parameters has
// no delta and empty text.
package provider
