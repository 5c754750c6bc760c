package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
)

// Bedrock is AWS Bedrock ConverseStream, whose AWS event-stream binary
// framing is not SSE: send each event as the SDKs yield it, wrapped in its
// type ({"contentBlockDelta": {...}}), as a ProviderEvent named by its
// :event-type header, with ValidateEvents.
const Bedrock = toolgatev1.Provider_PROVIDER_BEDROCK

// The providers whose streams reach a client as server-sent events, for
// ValidateProviderStream (and, event by event, ValidateEvents).
const (
	// OpenAIChat is OpenAI Chat Completions and OpenAI-compatible servers
	// (stream: true).
	OpenAIChat = toolgatev1.Provider_PROVIDER_OPENAI_CHAT
	// OpenAIResponses is the OpenAI Responses API and compatible servers.
	OpenAIResponses = toolgatev1.Provider_PROVIDER_OPENAI_RESPONSES
	// Anthropic is Anthropic Messages.
	Anthropic = toolgatev1.Provider_PROVIDER_ANTHROPIC
	// Gemini is Google Gemini and Vertex streamGenerateContent with
	// alt=sse (without it the body is a JSON array, not SSE, and the
	// stream fails with ErrNoEvents).
	Gemini = toolgatev1.Provider_PROVIDER_GEMINI
	// Cohere is Cohere v2 chat.
	Cohere = toolgatev1.Provider_PROVIDER_COHERE
)

// A StreamOption configures ValidateProviderStream.
type StreamOption interface {
	applyToStream(*streamConfig)
}

type streamConfig struct {
	maxEventBytes int
	toolset       *Toolset
	outputProfile toolgatev1.Profile // for ValidateOutputStream
	stripFence    bool
}

type streamOptionFunc func(*streamConfig)

func (f streamOptionFunc) applyToStream(cfg *streamConfig) { f(cfg) }

// WithMaxEventBytes bounds the length of every line of the provider's
// stream and the data of every event to n bytes; a longer one ends the
// stream with a *BodyError wrapping ErrEventTooLong. Default
// DefaultMaxEventBytes (4 MiB); n <= 0 means the default.
func WithMaxEventBytes(n int) StreamOption {
	return streamOptionFunc(func(cfg *streamConfig) {
		cfg.maxEventBytes = n
	})
}

// WithToolset binds the tools of ts on the stream, in addition to the
// tools argument (ts wins for a name in both): inline, schema and all, for
// a Toolset that knows its schemas (LoadToolset, LoadTools), so that every
// call is validated on whichever replica the stream reaches; by handle for
// one that does not (NewToolset), like the tools argument. Default: none.
func WithToolset(ts *Toolset) StreamOption {
	return streamOptionFunc(func(cfg *streamConfig) {
		cfg.toolset = ts
	})
}

// maxBindBytes bounds the encoded size of the inline schemas of one bind
// message (each with its resources), so that a large toolset bound inline
// stays far below a server's message limit (4 MiB by default); more
// schemas go in further binds. A schema whose entry alone is larger goes
// in a bind of its own.
const maxBindBytes = 1 << 20

// binds returns the StreamBind messages that bind tools and cfg's toolset.
func (cfg *streamConfig) binds(tools map[string]string) []*toolgatev1.StreamBind {
	handles := maps.Clone(tools)
	if handles == nil {
		handles = map[string]string{}
	}
	maps.Copy(handles, cfg.toolset.Bind())
	var binds []*toolgatev1.StreamBind
	size := 0
	inline := cfg.toolset.inline()
	for _, name := range slices.Sorted(maps.Keys(inline)) {
		req := inline[name]
		delete(handles, name)
		// What the entry adds to the bind's encoding: key, schema, profile
		// and the resources every inline request carries.
		n := proto.Size(&toolgatev1.StreamBind{Schemas: map[string]*toolgatev1.CompileSchemaRequest{name: req}})
		if len(binds) == 0 || size+n > maxBindBytes {
			binds, size = append(binds, &toolgatev1.StreamBind{Schemas: map[string]*toolgatev1.CompileSchemaRequest{}}), 0
		}
		binds[len(binds)-1].Schemas[name] = req
		size += n
	}
	if len(handles) > 0 {
		binds = append(binds, &toolgatev1.StreamBind{Tools: handles})
	}
	return binds
}

// ErrInvalidUTF8 is wrapped by the *BodyError that ends a provider stream
// when an event's name or data is not valid UTF-8; the error names the
// event (counted from 1) and the offset of the first invalid byte. The
// providers' SDKs disagree about such bytes (JavaScript decoders replace
// them with U+FFFD, Python's decoding may raise), and the server refuses
// an event that holds them, so the stream fails closed.
var ErrInvalidUTF8 = errors.New("client: invalid UTF-8 in a server-sent event")

// ErrNoEvents is wrapped by the *BodyError that ends a provider stream
// whose body ended without a single server-sent event, though it had
// lines other than comments: it is not an event stream (a non-streamed
// JSON completion, Gemini without alt=sse, a proxy that buffers, an error
// document), and the tool calls it may hold would go unchecked. A body
// that is empty, or holds only comments (keep-alives), ends cleanly.
var ErrNoEvents = errors.New("client: the provider body holds no server-sent event")

// A BodyError reports that ValidateProviderStream could not read the
// provider's stream body: Err is the body's read error, or an error
// wrapping ErrEventTooLong, ErrInvalidUTF8 or ErrNoEvents. errors.Is and
// errors.As see through it.
type BodyError struct {
	Err error
}

// Error returns "client: reading the provider stream: " and Err's text.
func (e *BodyError) Error() string { return "client: reading the provider stream: " + e.Err.Error() }

// Unwrap returns Err.
func (e *BodyError) Unwrap() error { return e.Err }

// errEndedEarly is the failure of a stream that the server (or a proxy on
// the way) ended with OK before the provider body ended.
var errEndedEarly = status.Error(codes.Internal, "client: the server ended the stream before the provider body ended")

// errNoReceipt is the failure of a stream that ended with OK after the body
// without the server's receipt (StreamEnd): a proxy may have ended it
// without toolgate reading the events.
var errNoReceipt = status.Error(codes.Internal, "client: the stream ended without the server's receipt for the events sent")

// errAfterReceipt is the failure of a stream that sent a message after its
// receipt, which is the last.
var errAfterReceipt = status.Error(codes.Internal, "client: the server sent a message after the stream's receipt")

// errIteratedTwice is yielded by a stream sequence ranged over a second
// time.
var errIteratedTwice = errors.New("client: the stream sequence can be iterated only once")

// ValidateProviderStream validates the tool calls of a live provider
// stream while the model generates them. body is the provider's response
// body as it arrives over HTTP (server-sent events: "event:" and "data:"
// lines, blank-line separated; see SSEReader), p says which provider's
// format its events have (Anthropic, OpenAIChat, ...), and tools maps each
// tool name the model may call to the handle of its compiled input schema
// (it may be nil when WithToolset names the tools).
//
// Ranging over the returned sequence opens one ValidateStream, asks for
// its receipt (see ValidateStreamResponse.end), binds tools
// and WithToolset's tools, and sends each event's data, with its name (the
// "event:" field, which the server checks against the data), as a
// ProviderEvent as soon as the event has arrived (events with neither a
// name nor data are skipped; a named event is sent even without data, so
// that an "error" event ends the stream's calls and answers whatever its
// data, as the SDKs raise on it; "[DONE]", OpenAI's end marker, is sent
// too: the server ends an OpenAI Chat or Responses stream's calls and
// answers there, as the OpenAI SDKs stop reading at it, and refuses a
// later event).
// Meanwhile it yields each CallResult as soon as the server sends it: an
// early rejection (Early true, Errors[0].Offset the first byte no valid
// completion could follow) arrives while the provider
// is still generating, so the caller can stop the generation. When body
// ends, the stream is half-closed, so the server ends the calls still open
// (an incomplete one is VALIDATION with keyword "json"), and the sequence
// yields the last results and ends. The server sends exactly one result
// per call; a call naming a tool that tools lacks is VALIDATION with
// keyword "tool_name", and a call to a tool bound by a handle that the
// replica serving the stream does not hold has code ERROR_CODE_NOT_FOUND
// (keyword "handle"): bind with WithToolset and a Toolset from LoadToolset
// or LoadTools, and the schemas travel inline, so that never happens.
//
// A failure is yielded once, as the last pair, with a nil result: a
// *BodyError when body could not be read, an event was too long (see
// WithMaxEventBytes), an event's name or data is not valid UTF-8
// (ErrInvalidUTF8), or body ended with lines but not one event
// (ErrNoEvents: it is not an event stream), and otherwise the gRPC status
// error of the stream: codes.InvalidArgument for an event the server
// cannot parse, an OpenAI Chat or Responses event after "[DONE]" or a
// malformed handle, codes.ResourceExhausted past a server limit,
// codes.Canceled or codes.DeadlineExceeded when ctx ends,
// codes.Internal when the server (or a proxy) ends the stream with OK
// before body has ended, or without a receipt (StreamEnd) that counts
// every event sent and every result received, and so on. A failure ends
// the stream at once; calls still open get no result.
//
// The sequence owns body: ranging reads it to its end or until the loop
// ends, and when the loop ends — body read through, a failure, ctx done,
// or the caller's break — body is closed if it is an io.Closer (an
// *http.Response's Body is), which aborts the provider's response. The
// loop returns without waiting for body: the goroutine reading it may
// outlive the loop, and ends as soon as its pending Read returns, touching
// nothing else. Closing an *http.Response's Body ends that Read at once;
// for a body whose Close does not interrupt a Read (io.NopCloser, a tee or
// logging wrapper) or that is not an io.Closer, make the Read end by
// cancelling the HTTP request. Stop the loop early, or cancel ctx, to
// abandon the stream: nothing else needs to be released. The sequence
// may be ranged over once; a second range yields only an error. Nothing
// happens until it is ranged over.
func (c *Client) ValidateProviderStream(ctx context.Context, p toolgatev1.Provider, body io.Reader, tools map[string]string, opts ...StreamOption) iter.Seq2[*toolgatev1.CallResult, error] {
	cfg := streamConfig{}
	for _, o := range opts {
		o.applyToStream(&cfg)
	}
	return c.streamSeq(ctx, p, body, cfg, cfg.binds(tools))
}

// streamSeq returns the sequence of one provider stream: binds sent first,
// then body's events (see ValidateProviderStream).
func (c *Client) streamSeq(ctx context.Context, p toolgatev1.Provider, body io.Reader, cfg streamConfig, binds []*toolgatev1.StreamBind) iter.Seq2[*toolgatev1.CallResult, error] {
	return seqOnce(func(yield func(*toolgatev1.CallResult, error) bool) {
		r := &providerStream{provider: p, body: body, sse: NewSSEReader(body, cfg.maxEventBytes)}
		r.source = r.read
		r.run(ctx, c.api, binds, yield)
	})
}

// seqOnce returns a sequence that runs stream the first time it is ranged
// over, and yields only errIteratedTwice after that.
func seqOnce(stream iter.Seq2[*toolgatev1.CallResult, error]) iter.Seq2[*toolgatev1.CallResult, error] {
	var used atomic.Bool
	return func(yield func(*toolgatev1.CallResult, error) bool) {
		if used.Swap(true) {
			yield(nil, errIteratedTwice)
			return
		}
		stream(yield)
	}
}

// providerStream is one run of a ValidateProviderStream sequence (or of
// ValidateEvents'). Three goroutines share it: the caller's, which
// receives results and yields them; the source, which turns body's events
// (or the caller's) into requests and is the only one to touch body (it
// may block in Read for as long as the provider is silent); and the
// sender, which is the only one to send on the stream.
type providerStream struct {
	provider toolgatev1.Provider
	// source hands the requests of the stream's events to the sender, and
	// closes out at their clean end only, so that the sender half-closes
	// the stream then and never after a failure (read, pullEvents).
	source func(out chan<- *toolgatev1.ValidateStreamRequest)
	body   io.Reader // nil for ValidateEvents
	sse    *SSEReader
	parent context.Context // the caller's
	ctx    context.Context // the stream's; cancel ends the stream and both goroutines
	cancel context.CancelFunc
	stream grpc.BidiStreamingClient[toolgatev1.ValidateStreamRequest, toolgatev1.ValidateStreamResponse]
	// halfClosed is set when the sender half-closes the stream: a server
	// that ends the stream with OK before then ended it too early.
	halfClosed atomic.Bool
	// sent counts the messages sent, binds included: the events the
	// server's receipt must count.
	sent atomic.Int64

	mu  sync.Mutex
	err error // the first failure, reported to the caller
}

func (r *providerStream) run(parent context.Context, api toolgatev1.ValidationServiceClient, binds []*toolgatev1.StreamBind, yield func(*toolgatev1.CallResult, error) bool) {
	if r.results(parent, api, binds, yield) {
		return // the caller stopped: yield must not be called again
	}
	if err := r.failure(); err != nil {
		yield(nil, err)
	}
}

// results yields the results as they arrive until the stream ends, and
// reports whether the caller stopped. When it returns, even when yield
// panics or exits the goroutine, the stream and the sender have ended and
// body is closed; the reader ends once its pending Read returns.
func (r *providerStream) results(parent context.Context, api toolgatev1.ValidationServiceClient, binds []*toolgatev1.StreamBind, yield func(*toolgatev1.CallResult, error) bool) (stopped bool) {
	r.parent = parent
	r.ctx, r.cancel = context.WithCancel(parent)
	var senderDone chan struct{}
	defer func() {
		r.cancel()
		// The reader is not waited for: a Close that does not interrupt
		// the Read in progress (io.NopCloser) would hold the caller for
		// as long as the provider is silent. It ends once Read returns.
		r.closeBody()
		if senderDone != nil {
			<-senderDone
		}
	}()
	stream, err := api.ValidateStream(r.ctx)
	if err != nil {
		r.fail(err)
		return false
	}
	r.stream = stream
	// A request that fails to send (io.EOF) means the stream already
	// failed: skip the body and let Recv say why.
	if sendFirst(stream, binds) == nil {
		r.sent.Store(int64(1 + len(binds)))
		requests := make(chan *toolgatev1.ValidateStreamRequest)
		senderDone = make(chan struct{})
		go r.source(requests)
		go r.send(requests, senderDone)
	}
	var receipt *toolgatev1.StreamEnd
	var results int64
	for {
		resp, err := stream.Recv()
		if err != nil {
			switch {
			case !errors.Is(err, io.EOF):
				r.fail(err)
			case !r.halfClosed.Load():
				// The calls still open would get no result, and the end
				// would look clean: fail closed.
				r.fail(errEndedEarly)
			default:
				if err := checkReceipt(receipt, r.sent.Load(), results); err != nil {
					r.fail(err)
				}
			}
			return false
		}
		if receipt != nil {
			r.fail(errAfterReceipt)
			return false
		}
		receipt = resp.GetEnd()
		if res := resp.GetResult(); res != nil {
			results++
			if !yield(res, nil) {
				return true
			}
		} // a response with neither is a kind of event this client does not know
	}
}

// checkReceipt returns nil when receipt, the last message of a stream that
// ended with OK, counts the messages sent and the results received, and
// otherwise the error that fails the stream closed.
func checkReceipt(receipt *toolgatev1.StreamEnd, sent, results int64) error {
	switch {
	case receipt == nil:
		return errNoReceipt
	case receipt.GetEvents() != sent || receipt.GetResults() != results:
		return status.Errorf(codes.Internal, "client: the server's receipt counts %d events and %d results; the client sent %d and received %d",
			receipt.GetEvents(), receipt.GetResults(), sent, results)
	}
	return nil
}

// sendFirst asks for the stream's receipt, then sends the bind messages,
// and stops at the first request that fails.
func sendFirst(stream grpc.BidiStreamingClient[toolgatev1.ValidateStreamRequest, toolgatev1.ValidateStreamResponse], binds []*toolgatev1.StreamBind) error {
	if err := stream.Send(&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Receipt{Receipt: &toolgatev1.ReceiptRequest{}}}); err != nil {
		return err
	}
	for _, b := range binds {
		if err := stream.Send(&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: b}}); err != nil {
			return err
		}
	}
	return nil
}

// read parses body into events and hands the sender their requests. It
// closes out at the clean end of body only, so that the sender half-closes
// the stream then and never after a failure. It may outlive the loop,
// blocked in body's Read: once that returns, it finds the stream's ctx
// done and ends, touching only what it owns (body, the SSEReader), ctx and
// fail.
func (r *providerStream) read(out chan<- *toolgatev1.ValidateStreamRequest) {
	n := 0 // the events body has had
	for {
		ev, err := r.sse.Next()
		if errors.Is(err, io.EOF) {
			if n == 0 && r.sse.fields {
				r.fail(&BodyError{Err: ErrNoEvents})
				return
			}
			close(out)
			return
		}
		if err != nil {
			// After the caller's ctx ended or the stream stopped, a read
			// error is the consequence (a cancelled request, a closed body),
			// not the cause.
			if r.parent.Err() == nil && r.ctx.Err() == nil {
				r.fail(&BodyError{Err: err})
			}
			r.cancel()
			return
		}
		n++
		if err := checkUTF8(ev, n); err != nil {
			r.fail(&BodyError{Err: err})
			return
		}
		if skipEvent(ev) {
			continue
		}
		select {
		case out <- providerRequest(r.provider, ev.Type, ev.Data):
		case <-r.ctx.Done():
			return
		}
	}
}

// providerRequest is the request of one raw event of provider p.
func providerRequest(p toolgatev1.Provider, name, data string) *toolgatev1.ValidateStreamRequest {
	return &toolgatev1.ValidateStreamRequest{
		Event: &toolgatev1.ValidateStreamRequest_ProviderEvent{ProviderEvent: &toolgatev1.ProviderEvent{
			Provider: p, EventJson: data, EventName: name,
		}},
	}
}

// send sends each request to the server, and half-closes the stream when
// requests is closed.
func (r *providerStream) send(requests <-chan *toolgatev1.ValidateStreamRequest, done chan<- struct{}) {
	defer close(done)
	for {
		select {
		case req, ok := <-requests:
			if !ok {
				r.halfClosed.Store(true)
				_ = r.stream.CloseSend()
				return
			}
			if err := r.stream.Send(req); err != nil {
				return // io.EOF: the stream ended, and Recv reports why
			}
			r.sent.Add(1)
		case <-r.ctx.Done():
			return
		}
	}
}

// checkUTF8 returns an error wrapping ErrInvalidUTF8 when the name or the
// data of ev, the n-th event of the body, is not valid UTF-8.
func checkUTF8(ev SSEEvent, n int) error {
	if utf8.ValidString(ev.Type) && utf8.ValidString(ev.Data) {
		return nil
	}
	field, text := "data", ev.Data
	if !utf8.ValidString(ev.Type) {
		field, text = "name", ev.Type
	}
	at := 0
	for at < len(text) {
		c, size := utf8.DecodeRuneInString(text[at:])
		if c == utf8.RuneError && size == 1 {
			break
		}
		at += size
	}
	return fmt.Errorf("%w: byte %d of the %s of event %d (%q)", ErrInvalidUTF8, at, field, n, ev.Type)
}

// skipEvent reports whether ev is not a provider event: one without a
// name whose data is empty. A named one goes to the server, which reads
// its name (see SSEReader), and so does OpenAI's "[DONE]", which ends an
// OpenAI stream there: the server decides what each provider's SDKs make
// of an event.
func skipEvent(ev SSEEvent) bool {
	return ev.Type == "" && strings.TrimSpace(ev.Data) == ""
}

// fail records err as the stream's failure unless one was recorded
// already, and ends the stream.
func (r *providerStream) fail(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
	r.cancel()
}

func (r *providerStream) failure() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// closeBody closes body if it is an io.Closer (a nil body is none).
func (r *providerStream) closeBody() {
	if c, ok := r.body.(io.Closer); ok {
		_ = c.Close()
	}
}
