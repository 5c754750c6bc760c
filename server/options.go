package server

import (
	"time"

	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/pattern"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/internal/validator"
)

// Options configure a Service. Zero fields take the defaults listed.
type Options struct {
	// MaxDepth limits the nesting of arguments. Default 128.
	MaxDepth int
	// MaxFindings caps the findings in one answer; errors_truncated reports
	// more. Default 100.
	MaxFindings int
	// MaxFindingMessage bounds one finding's message, in bytes: a longer
	// message is cut on a UTF-8 boundary after this many bytes and ends with
	// "… (N more bytes)". A keyword or an RFC 6901 pointer longer than this
	// is shortened too: a keyword like a message, a pointer to its longest
	// ancestor that fits (so it still names a value that holds the one the
	// finding is about). Default DefaultMaxFindingMessage (1 KiB).
	MaxFindingMessage int
	// MaxAnswerBytes bounds the findings of one answer (a response, or one
	// CallResult): the bytes of their keywords, pointers and messages
	// together, warnings included. Findings past it are left out and
	// errors_truncated is set; the first finding of an answer is always
	// sent. A CompileToolset response shares one budget among its tools.
	// Default DefaultMaxAnswerBytes (256 KiB), well below a client's
	// default 4 MiB receive limit.
	MaxAnswerBytes int
	// MaxCompilingBytes bounds the schema bytes compiled at once, over all
	// requests (CompileSchema, inline schemas, stream binds and whole
	// CompileToolset requests, with their resources): compiling holds a
	// multiple of its source on the heap while it runs, up to some 150
	// times, and a compile that may build pattern automata counts at
	// least (MaxPatternBytes + MaxPatternAutomatonBytes) / 150 bytes. A
	// compile waits until its bytes are free, or its request ends; one
	// larger than the bound runs alone. A schema compiled before (in the
	// compile cache) waits for nothing. Default DefaultMaxCompilingBytes
	// (4 MiB, one largest message).
	MaxCompilingBytes int64
	// StoreEntries bounds how many compiled schemas are kept. Default 10,000.
	StoreEntries int
	// StoreBytes bounds the compiled schemas kept, counted as the heap
	// each holds (the engine's estimate, Schema.Bytes; a compiled schema
	// holds about 14 times its canonical JSON). A CompileToolset whose
	// compiled schemas hold more together is RESOURCE_EXHAUSTED. Default
	// 256 MiB.
	StoreBytes int64
	// MaxCallsPerStream bounds the calls one ValidateStream may start.
	// Default 1,024.
	MaxCallsPerStream int
	// MaxCallBytes bounds the argument bytes of one streamed call. Default
	// 4 MiB.
	MaxCallBytes int64
	// MaxUnnamedCallBytes bounds the argument text held, over all
	// streams, for provider calls whose tool is not named yet
	// (MaxCallBytes bounds it per stream): the call whose text would pass
	// it gets an early "maxBytes" result. Default
	// DefaultMaxUnnamedCallBytes (64 MiB).
	MaxUnnamedCallBytes int64
	// MaxCallStateBytes bounds the validation state one call holds at once
	// (validator.Options.MaxState): a Validate, or a streamed call. Past
	// it the call is refused with keyword "limit". Default
	// validator.DefaultMaxState (16 MiB).
	MaxCallStateBytes int64
	// MaxStreamStateBytes bounds the validation state the open calls of
	// one ValidateStream hold together (stream.Limits.MaxState); the call
	// that passes it is refused with keyword "limit". Default
	// stream.DefaultMaxState (64 MiB).
	MaxStreamStateBytes int64
	// MaxOpenStateBytes bounds the validation state the open streamed
	// calls of every ValidateStream hold together (stream.Limits.State),
	// as MaxStreamStateBytes bounds one stream's: the call that passes it
	// is refused with keyword "limit". Default DefaultMaxOpenStateBytes
	// (512 MiB).
	MaxOpenStateBytes int64
	// MaxNameBytes bounds a call id and a tool name on a stream
	// (stream.Limits.MaxName): a CallStart's or a bind's longer one is
	// INVALID_ARGUMENT, a provider's refuses its call (keyword "call_id"
	// or "tool_name"). A CompileToolset tool with a longer name is not
	// bound (keyword "name"): no stream could bind it. Default
	// stream.DefaultMaxName (1 KiB).
	MaxNameBytes int
	// MaxProviderPlaces bounds the places a ValidateStream's provider
	// events may name, for each provider (stream.Limits.MaxPlaces): OpenAI
	// Chat choices and Gemini candidates over the stream's life, the
	// output items of one Responses response. Each is state the stream
	// keeps, whether or not a call comes of it; the event that names one
	// more is RESOURCE_EXHAUSTED. Default stream.DefaultMaxPlaces (1,024).
	MaxProviderPlaces int
	// MaxToolsetTools bounds the tools of one CompileToolset request; past
	// it the request is RESOURCE_EXHAUSTED, so that its answer stays
	// within what a client receives and every handle it gives is in the
	// store at once: it is at most StoreEntries (and their compiled
	// schemas must fit StoreBytes together). Default
	// DefaultMaxToolsetTools (1,024).
	MaxToolsetTools int
	// MaxToolsPerStream bounds the distinct tool names one ValidateStream
	// may bind (each holds its compiled schema for the stream's life); the
	// bind past it is RESOURCE_EXHAUSTED. Default 1,024.
	MaxToolsPerStream int
	// MaxStreamSchemaBytes bounds the compiled schemas that open streams
	// hold, over all streams, counted as StoreBytes counts them: a stream
	// keeps each schema it binds (a tool's, its output's, a call's own)
	// until it ends, also once the store evicts it. A schema is counted
	// once however many streams hold it; the bind, output or start that
	// would take the total past the bound is RESOURCE_EXHAUSTED. Default
	// DefaultMaxStreamSchemaBytes (256 MiB).
	MaxStreamSchemaBytes int64
	// StreamIdleTimeout ends a ValidateStream (DEADLINE_EXCEEDED) that sends
	// nothing for this long. Default 5 minutes.
	StreamIdleTimeout time.Duration
	// StreamSendTimeout ends a ValidateStream (DEADLINE_EXCEEDED) when one
	// of its results has waited this long for the client to read it (gRPC
	// flow control holds results a client does not read). Default 30
	// seconds.
	StreamSendTimeout time.Duration
	// MaxRequestTime bounds the time one unary call (CompileSchema,
	// Validate, CompileToolset), or one ValidateStream event, may take
	// to process: past it the call, or the stream, ends with
	// DEADLINE_EXCEEDED, whatever deadline the client set or did not set.
	// Work per argument byte is bounded by the schema's width
	// (MaxWidth), but a schema at that bound and megabytes of arguments
	// still take minutes of CPU. Default 1 minute.
	MaxRequestTime time.Duration

	// The schema limits below make a schema past them
	// UNSUPPORTED_CAPABILITY with keyword "limit" and the measured figure
	// (DESIGN.md §8). Zero fields take the engine's defaults.

	// MaxWidth bounds how many subschemas may evaluate one argument value
	// at once (nested oneOf/anyOf/allOf, $ref, ...), measured when a schema
	// is compiled: the bound on the work per argument byte, in every
	// profile. Default 1,000.
	MaxWidth int
	// MaxSchemaBytes bounds a JSON Schema profile document. Default 1 MiB.
	MaxSchemaBytes int
	// MaxSchemaDepth bounds the nesting of a JSON Schema profile document
	// (the subset profiles allow 64). Default 128.
	MaxSchemaDepth int
	// MaxSchemaNodes bounds the subschemas of a JSON Schema, and those
	// of a CompileToolset's tools together. Default 100,000.
	MaxSchemaNodes int
	// MaxSchemaRefs bounds the references of a JSON Schema. Default 10,000.
	MaxSchemaRefs int
	// MaxPatternSteps bounds the work of compiling one schema's regular
	// expressions together (pattern, patternProperties; JSON Schema and
	// bindable output profiles), in compile steps of some 10–40 ns.
	// Default schema.DefaultMaxPatternSteps (20,000,000).
	MaxPatternSteps int
	// MaxPatternBytes bounds the memory one schema's automata hold
	// together (pattern, patternProperties; a CompileToolset's tools
	// share it). Default schema.DefaultMaxPatternBytes (4 MiB).
	MaxPatternBytes int
	// MaxPatternNesting bounds how deep one regular expression nests
	// (pattern.Limits.MaxNesting). Default pattern.DefaultMaxNesting
	// (1,000).
	MaxPatternNesting int
	// MaxPatternProgram bounds one expression's program, or one
	// patternProperties set's, in instructions after repetitions are
	// expanded (pattern.Limits.MaxProgram). Default
	// pattern.DefaultMaxProgram (10,000).
	MaxPatternProgram int
	// MaxPatternAutomatonBytes bounds the memory of one automaton, while
	// it is built and once built (pattern.Limits.MaxDFABytes). Default
	// pattern.DefaultMaxDFABytes (2 MiB).
	MaxPatternAutomatonBytes int
	// MaxPatternAutomatonSteps bounds the work of building one automaton
	// (pattern.Limits.MaxCompileSteps), in steps of some 10–40 ns.
	// Default pattern.DefaultMaxCompileSteps (10,000,000).
	MaxPatternAutomatonSteps int
	// MaxPatternSetParts bounds the automata one patternProperties set may
	// be split into, each a few table lookups per byte of a member name
	// (pattern.Limits.MaxSetParts). Default pattern.DefaultMaxSetParts (8).
	MaxPatternSetParts int
	// MaxMultipleOfDigits bounds the significant digits of a JSON
	// Schema's multipleOf, whose cost per argument digit grows with them.
	// Default schema.DefaultMaxMultipleOfDigits (38).
	MaxMultipleOfDigits int
	// MaxSchemaPathRatio bounds the JSON pointers of a schema's compiled
	// subschemas together, in bytes per byte of the schema
	// (schema.Limits.MaxPathRatio). Default schema.DefaultMaxPathRatio (64).
	MaxSchemaPathRatio int
}

// Defaults for Options.
const (
	DefaultStoreEntries = 10_000
	DefaultStoreBytes   = 256 << 20
	// DefaultMaxFindingMessage is Options.MaxFindingMessage's default.
	DefaultMaxFindingMessage = 1 << 10
	// DefaultMaxCompilingBytes is Options.MaxCompilingBytes's default.
	DefaultMaxCompilingBytes = 4 << 20
	// DefaultMaxUnnamedCallBytes is Options.MaxUnnamedCallBytes's default.
	DefaultMaxUnnamedCallBytes = 64 << 20
	// DefaultMaxToolsetTools is Options.MaxToolsetTools's default.
	DefaultMaxToolsetTools = 1024
	// DefaultMaxOpenStateBytes is Options.MaxOpenStateBytes's default.
	DefaultMaxOpenStateBytes = 512 << 20
	// DefaultMaxStreamSchemaBytes is Options.MaxStreamSchemaBytes's default.
	DefaultMaxStreamSchemaBytes = 256 << 20
	// DefaultMaxAnswerBytes is Options.MaxAnswerBytes's default.
	DefaultMaxAnswerBytes = 256 << 10
	// DefaultStreamIdleTimeout is Options.StreamIdleTimeout's default.
	DefaultStreamIdleTimeout = 5 * time.Minute
	// DefaultStreamSendTimeout is Options.StreamSendTimeout's default.
	DefaultStreamSendTimeout = 30 * time.Second
	// DefaultMaxRequestTime is Options.MaxRequestTime's default.
	DefaultMaxRequestTime = time.Minute
)

// HeapBound is the most heap, in bytes, that the pools o bounds over all
// requests can hold at once, on a server whose request messages are at
// most maxMessageBytes: compiles (some 150 bytes per schema byte, of
// MaxCompilingBytes or of one message's schema compiling alone, whichever
// is more), the store, the schemas open streams hold, their validation
// state and the bytes of their calls not named yet. Size a server's
// memory above it. Each request in flight also holds its message and up
// to MaxCallStateBytes of validation state, a stream up to 16 results
// its client has not read (each within MaxAnswerBytes, for at most
// StreamSendTimeout) and the bookkeeping of up to MaxProviderPlaces places
// per provider (a few hundred bytes each, with a Responses item's id of up
// to MaxNameBytes): that grows with the calls and streams in flight
// (connections times --max-concurrent-streams), which no option bounds
// together.
func (o Options) HeapBound(maxMessageBytes int) int64 {
	o = o.withDefaults()
	compiling := heapPerSchemaByte * max(o.MaxCompilingBytes, int64(maxMessageBytes))
	return compiling + o.StoreBytes + o.MaxStreamSchemaBytes + o.MaxOpenStateBytes + o.MaxUnnamedCallBytes
}

func (o Options) withDefaults() Options {
	if o.MaxDepth <= 0 {
		o.MaxDepth = jsontok.DefaultMaxDepth
	}
	if o.MaxFindings <= 0 {
		o.MaxFindings = validator.DefaultMaxFindings
	}
	if o.MaxFindingMessage <= 0 {
		o.MaxFindingMessage = DefaultMaxFindingMessage
	}
	if o.MaxAnswerBytes <= 0 {
		o.MaxAnswerBytes = DefaultMaxAnswerBytes
	}
	if o.MaxCompilingBytes <= 0 {
		o.MaxCompilingBytes = DefaultMaxCompilingBytes
	}
	if o.StoreEntries <= 0 {
		o.StoreEntries = DefaultStoreEntries
	}
	if o.StoreBytes <= 0 {
		o.StoreBytes = DefaultStoreBytes
	}
	if o.MaxCallsPerStream <= 0 {
		o.MaxCallsPerStream = stream.DefaultMaxCalls
	}
	if o.MaxCallBytes <= 0 {
		o.MaxCallBytes = stream.DefaultMaxCallBytes
	}
	if o.MaxUnnamedCallBytes <= 0 {
		o.MaxUnnamedCallBytes = DefaultMaxUnnamedCallBytes
	}
	if o.MaxToolsPerStream <= 0 {
		o.MaxToolsPerStream = stream.DefaultMaxTools
	}
	if o.MaxCallStateBytes <= 0 {
		o.MaxCallStateBytes = validator.DefaultMaxState
	}
	if o.MaxStreamStateBytes <= 0 {
		o.MaxStreamStateBytes = stream.DefaultMaxState
	}
	if o.MaxOpenStateBytes <= 0 {
		o.MaxOpenStateBytes = DefaultMaxOpenStateBytes
	}
	if o.MaxNameBytes <= 0 {
		o.MaxNameBytes = stream.DefaultMaxName
	}
	if o.MaxProviderPlaces <= 0 {
		o.MaxProviderPlaces = stream.DefaultMaxPlaces
	}
	if o.MaxToolsetTools <= 0 {
		o.MaxToolsetTools = DefaultMaxToolsetTools
	}
	o.MaxToolsetTools = min(o.MaxToolsetTools, o.StoreEntries)
	if o.MaxStreamSchemaBytes <= 0 {
		o.MaxStreamSchemaBytes = DefaultMaxStreamSchemaBytes
	}
	if o.StreamIdleTimeout <= 0 {
		o.StreamIdleTimeout = DefaultStreamIdleTimeout
	}
	if o.StreamSendTimeout <= 0 {
		o.StreamSendTimeout = DefaultStreamSendTimeout
	}
	if o.MaxRequestTime <= 0 {
		o.MaxRequestTime = DefaultMaxRequestTime
	}
	return o
}

// SchemaLimits returns the limits on compiling one schema that o sets
// (MaxWidth, MaxSchemaBytes to MaxMultipleOfDigits); zero fields are the
// engine's defaults. toolgate check compiles under them, so that it judges
// a schema as a server given the same options does.
func (o Options) SchemaLimits() schema.Limits {
	return schema.Limits{MaxBytes: o.MaxSchemaBytes, MaxDepth: o.MaxSchemaDepth, MaxNodes: o.MaxSchemaNodes,
		MaxRefs: o.MaxSchemaRefs, MaxWidth: o.MaxWidth, MaxPatternSteps: o.MaxPatternSteps,
		MaxPatternBytes: o.MaxPatternBytes, MaxMultipleOfDigits: o.MaxMultipleOfDigits, MaxPathRatio: o.MaxSchemaPathRatio,
		Pattern: pattern.Limits{MaxNesting: o.MaxPatternNesting, MaxProgram: o.MaxPatternProgram,
			MaxDFABytes: o.MaxPatternAutomatonBytes, MaxCompileSteps: o.MaxPatternAutomatonSteps,
			MaxSetParts: o.MaxPatternSetParts}}
}

// validatorOptions returns the validator's options: its findings' pointers
// are cut where the answer would cut them (MaxFindingMessage), so they are
// never built longer.
func (o Options) validatorOptions() validator.Options {
	return validator.Options{MaxDepth: o.MaxDepth, MaxFindings: o.MaxFindings, MaxPointer: o.MaxFindingMessage, MaxState: o.MaxCallStateBytes}
}

// answer returns a fresh budget for one answer's findings.
func (o Options) answer() *answer {
	return &answer{maxFindings: o.MaxFindings, maxText: o.MaxFindingMessage, left: o.MaxAnswerBytes}
}
