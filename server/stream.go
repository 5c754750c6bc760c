package server

import (
	"context"
	"errors"
	"io"
	"iter"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/store"
	"github.com/toolgate/toolgate/internal/stream"
)

// validateStream is the bidirectional stream of ValidateStream.
type validateStream = grpc.BidiStreamingServer[toolgatev1.ValidateStreamRequest, toolgatev1.ValidateStreamResponse]

// ValidateStream validates tool calls while they stream; see DESIGN.md §2.
// The stream ends with DEADLINE_EXCEEDED when the client sends nothing for
// Options.StreamIdleTimeout, or when a result has waited for the client to
// read it longer than Options.StreamSendTimeout, so that neither an
// abandoned stream nor a client that stopped reading holds the handler.
// Once the stream's context is done, or one event has taken longer than
// Options.MaxRequestTime (then DEADLINE_EXCEEDED), validation stops
// within a few KiB of the delta it is in. A stream the client half-closes
// ends, once every call has its result, with OK, after a StreamEnd receipt
// counting the requests read and the results sent when the client asked
// for one (a ReceiptRequest).
func (s *Service) ValidateStream(srv validateStream) error {
	clock, release := newEventClock(srv.Context(), s.opts.MaxRequestTime)
	defer release()
	ctx := context.Context(clock.ctx) // the stream's, whose Err also says when one event took too long
	sm := s.metrics.openStream()
	defer sm.close()
	out := newResultSender(srv, s.opts.StreamSendTimeout, s.opts.answer)
	defer out.close()
	var receipt toolgatev1.StreamEnd // the requests read and results sent
	wantReceipt := false             // a receipt request came
	sess := stream.NewSession(ctx, stream.Limits{
		MaxCalls:     s.opts.MaxCallsPerStream,
		MaxCallBytes: s.opts.MaxCallBytes,
		MaxTools:     s.opts.MaxToolsPerStream,
		Held:         s.unnamed,
		MaxState:     s.opts.MaxStreamStateBytes,
		State:        s.state,
		MaxName:      s.opts.MaxNameBytes,
		MaxPlaces:    s.opts.MaxProviderPlaces,
		Validator:    s.opts.validatorOptions(),
	}, func(r *stream.Result) {
		sm.result(r)
		receipt.Results++
		out.send(r)
	})
	sm.watch(sess)
	defer sess.Release()
	holds := s.streamSchemas.stream(s.opts.streamSchemaCount())
	defer holds.release()
	requests := receive(srv)
	idle := time.NewTimer(s.opts.StreamIdleTimeout)
	defer idle.Stop()
	for {
		var in received
		select {
		case in = <-requests:
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		case <-idle.C:
			return status.Errorf(codes.DeadlineExceeded, "the stream sent nothing for %s", s.opts.StreamIdleTimeout)
		case <-out.stalled:
			return out.failure()
		}
		idle.Reset(s.opts.StreamIdleTimeout)
		if errors.Is(in.err, io.EOF) {
			clock.start()
			sess.Close()
			clock.stop()
			if clock.over() {
				return overTime(clock.limit)
			}
			if wantReceipt {
				out.end(&receipt)
			}
			return out.flush()
		}
		if in.err != nil {
			return in.err
		}
		if in.req.GetReceipt() != nil {
			wantReceipt = true
			receipt.Events++
			continue
		}
		clock.start()
		err := s.streamEvent(ctx, sess, holds, in.req)
		clock.stop()
		sm.event(in.req)
		receipt.Events++
		if clock.over() {
			err = overTime(clock.limit)
		}
		if err != nil {
			// The results made before the bad event are the client's: send
			// them (within the send timeout) before the error ends the stream.
			_ = out.flush()
			return streamStatus(err)
		}
		if err := out.failure(); err != nil {
			return err
		}
	}
}

// received is one Recv outcome.
type received struct {
	req *toolgatev1.ValidateStreamRequest
	err error
}

// receive reads the stream on its own goroutine, so the handler can also
// wait for the idle timer. The goroutine ends with the stream: once the
// handler returns, Recv fails and the last send finds the buffer or the
// stream's context done.
func receive(srv validateStream) <-chan received {
	out := make(chan received, 1)
	go func() {
		for {
			req, err := srv.Recv()
			select {
			case out <- received{req, err}:
			case <-srv.Context().Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return out
}

// streamEvent applies one request to the stream's session; the schemas it
// binds are counted in holds first.
func (s *Service) streamEvent(ctx context.Context, sess *stream.Session, holds *streamHolds, req *toolgatev1.ValidateStreamRequest) error {
	switch ev := req.GetEvent().(type) {
	case *toolgatev1.ValidateStreamRequest_Bind:
		if err := sess.CheckBind(bindNames(ev.Bind)); err != nil {
			return err // before any schema of the bind is compiled or stored
		}
		tools, err := s.bindTools(ctx, holds, ev.Bind)
		if err != nil {
			return err
		}
		if err := s.bindOutput(ctx, sess, holds, ev.Bind); err != nil {
			return err
		}
		return sess.Bind(tools)
	case *toolgatev1.ValidateStreamRequest_Start:
		if st := ev.Start; st.GetOutput() {
			if st.GetToolName() != "" || st.GetHandle() != "" || st.GetInline() != nil {
				return status.Error(codes.InvalidArgument, "start: an output call is held to the stream's output bind: tool_name, handle and inline must be empty")
			}
			return sess.StartOutput(st.GetCallId())
		}
		b, err := s.startBinding(ctx, holds, ev.Start)
		if err != nil {
			return err
		}
		return sess.Start(ev.Start.GetCallId(), ev.Start.GetToolName(), b)
	case *toolgatev1.ValidateStreamRequest_Delta:
		return sess.Delta(ev.Delta.GetCallId(), []byte(ev.Delta.GetFragment()))
	case *toolgatev1.ValidateStreamRequest_End:
		return sess.End(ev.End.GetCallId())
	case *toolgatev1.ValidateStreamRequest_ProviderEvent:
		pe := ev.ProviderEvent
		return sess.NamedProviderEvent(providerFromProto(pe.GetProvider()), pe.GetEventName(), []byte(pe.GetEventJson()))
	}
	return status.Error(codes.InvalidArgument, "a stream request must set one event")
}

// bindTools resolves a bind's tools: each handle in the store (one this
// replica does not hold is bound all the same, and its calls get an in-band
// NOT_FOUND), each inline schema through compile, so that a stream works on
// any replica. A name in both maps takes its inline schema. A malformed
// handle, or an inline schema that does not compile, is INVALID_ARGUMENT
// naming the tool; a schema past Options.MaxStreamSchemaBytes is
// RESOURCE_EXHAUSTED.
func (s *Service) bindTools(ctx context.Context, holds *streamHolds, bind *toolgatev1.StreamBind) (map[string]stream.Binding, error) {
	tools := make(map[string]stream.Binding, len(bind.GetTools())+len(bind.GetSchemas()))
	for name, h := range bind.GetTools() {
		b, err := s.handleBinding(holds, h, "bind: tool %q", name)
		if err != nil {
			return nil, err
		}
		tools[name] = b
	}
	for name, req := range bind.GetSchemas() {
		b, err := s.inlineBinding(ctx, holds, req, "bind: the schema of tool %q", name)
		if err != nil {
			return nil, err
		}
		tools[name] = b
	}
	return tools, nil
}

// bindNames yields each tool name a bind binds, once: those of its
// handles and of its inline schemas.
func bindNames(bind *toolgatev1.StreamBind) iter.Seq[string] {
	return func(yield func(string) bool) {
		for name := range bind.GetTools() {
			if !yield(name) {
				return
			}
		}
		for name := range bind.GetSchemas() {
			if _, both := bind.GetTools()[name]; !both && !yield(name) {
				return
			}
		}
	}
}

// bindOutput binds the stream's message outputs when the bind names an
// output schema: inline (output_schema, which wins) or by handle.
func (s *Service) bindOutput(ctx context.Context, sess *stream.Session, holds *streamHolds, bind *toolgatev1.StreamBind) error {
	var b stream.Binding
	var err error
	switch {
	case bind.GetOutputSchema() != nil:
		b, err = s.inlineBinding(ctx, holds, bind.GetOutputSchema(), "bind: the output schema")
	case bind.GetOutputHandle() != "":
		b, err = s.handleBinding(holds, bind.GetOutputHandle(), "bind: the output")
	default:
		return nil
	}
	if err != nil {
		return err
	}
	sess.BindOutput(b, bind.GetStripCodeFence())
	return nil
}

// startBinding resolves what a CallStart names: its inline schema, else
// its handle, else nil (the bind map decides).
func (s *Service) startBinding(ctx context.Context, holds *streamHolds, start *toolgatev1.CallStart) (*stream.Binding, error) {
	var b stream.Binding
	var err error
	switch {
	case start.GetInline() != nil:
		b, err = s.inlineBinding(ctx, holds, start.GetInline(), "start: the inline schema of call %q", start.GetCallId())
	case start.GetHandle() != "":
		b, err = s.handleBinding(holds, start.GetHandle(), "start: call %q", start.GetCallId())
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &b, nil
}

// handleBinding binds a handle: its schema when the store holds it, none
// otherwise. A malformed handle is INVALID_ARGUMENT, as in Validate; where
// says what named it. The schema is counted in holds.
func (s *Service) handleBinding(holds *streamHolds, h, where string, args ...any) (stream.Binding, error) {
	if !store.IsHandle(h) {
		return stream.Binding{}, status.Errorf(codes.InvalidArgument, where+": handle %q is not a toolgate handle (tg1_ and 64 hex digits)", append(args, h)...)
	}
	sch, _ := s.store.Get(h)
	return holdBinding(holds, stream.Binding{Handle: h, Schema: sch}, where, args)
}

// inlineBinding compiles an inline schema (or finds it compiled: handles
// are content addresses) and stores it, as Validate does. A schema that
// does not compile is INVALID_ARGUMENT with its first finding. The schema
// is counted in holds.
func (s *Service) inlineBinding(ctx context.Context, holds *streamHolds, req *toolgatev1.CompileSchemaRequest, where string, args ...any) (stream.Binding, error) {
	c, err := s.compile(ctx, req)
	if err != nil {
		return stream.Binding{}, status.Errorf(status.Code(err), where+": %s", append(args, status.Convert(err).Message())...)
	}
	if c.res.Schema == nil {
		f := c.res.Errors[0]
		return stream.Binding{}, status.Errorf(codes.InvalidArgument, where+" does not compile (%s, %d findings): %s %s", append(args, codeToProto(c.res.Code()), len(c.res.Errors)+c.res.ErrorsOmitted, f.Keyword, f.Message)...)
	}
	return holdBinding(holds, stream.Binding{Handle: c.handle, Schema: c.res.Schema}, where, args)
}

// holdBinding counts b in holds, or answers RESOURCE_EXHAUSTED saying
// where.
func holdBinding(holds *streamHolds, b stream.Binding, where string, args []any) (stream.Binding, error) {
	if err := holds.hold(b); err != nil {
		return stream.Binding{}, status.Errorf(codes.ResourceExhausted, where+": %v", append(args, err)...)
	}
	return b, nil
}

// streamStatus maps a session error to a gRPC status; a context error
// (the stream's context ended inside an event) maps as its context does.
func streamStatus(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return status.FromContextError(err).Err()
	}
	var se *stream.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Kind {
	case stream.ResourceExhausted:
		return status.Error(codes.ResourceExhausted, se.Msg)
	}
	return status.Error(codes.InvalidArgument, se.Msg)
}

// resultSender sends a stream's results on a goroutine of its own, so that
// a client that stops reading (gRPC flow control then blocks Send) cannot
// hold the handler: a Send that waits longer than the timeout marks the
// stream stalled, and the handler returns DEADLINE_EXCEEDED, which ends the
// stream and with it the blocked Send. Results keep their order.
type resultSender struct {
	srv     validateStream
	answer  func() *answer // a fresh budget for each result's findings
	timeout time.Duration
	queue   chan *toolgatev1.ValidateStreamResponse
	stalled chan struct{} // closed once a Send has waited past timeout
	stall   func()
	done    chan struct{} // closed when the goroutine has returned
	close   func()        // closes queue: no result follows

	mu  sync.Mutex
	err error // the first failure: a Send error, or the stall
}

// sendQueue is how many results may wait for the sender (HeapBound's doc
// and the README's "Sizing memory" count it).
const sendQueue = 16

func newResultSender(srv validateStream, timeout time.Duration, ans func() *answer) *resultSender {
	r := &resultSender{srv: srv, timeout: timeout, answer: ans, queue: make(chan *toolgatev1.ValidateStreamResponse, sendQueue),
		stalled: make(chan struct{}), done: make(chan struct{})}
	r.stall = sync.OnceFunc(func() {
		r.fail(status.Errorf(codes.DeadlineExceeded, "the client did not read its results for %s", timeout))
		close(r.stalled)
	})
	// The goroutine returns once the queue is drained, or once Send fails,
	// as it does when the handler has returned; close may be called twice.
	r.close = sync.OnceFunc(func() { close(r.queue) })
	go r.run()
	return r
}

// send queues a result. It waits while the queue is full, until the
// sender takes one or the stream stalls or fails; a result that cannot be
// queued then is dropped, and failure reports why.
func (r *resultSender) send(res *stream.Result) {
	r.enqueue(callResultToProto(res, r.answer()))
}

// end queues the stream's receipt, its last message.
func (r *resultSender) end(receipt *toolgatev1.StreamEnd) {
	r.enqueue(&toolgatev1.ValidateStreamResponse{Event: &toolgatev1.ValidateStreamResponse_End{End: receipt}})
}

func (r *resultSender) enqueue(resp *toolgatev1.ValidateStreamResponse) {
	select {
	case r.queue <- resp:
	case <-r.stalled:
	case <-r.done:
	}
}

func (r *resultSender) run() {
	defer close(r.done)
	for res := range r.queue {
		timer := time.AfterFunc(r.timeout, r.stall)
		err := r.srv.Send(res)
		timer.Stop()
		if err != nil {
			r.fail(err)
			return
		}
	}
}

// flush waits until every queued result is sent, and returns the stream's
// failure, if any.
func (r *resultSender) flush() error {
	r.close()
	select {
	case <-r.done:
	case <-r.stalled:
	}
	return r.failure()
}

func (r *resultSender) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// failure returns the first failure: a Send error or the stall.
func (r *resultSender) failure() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}
