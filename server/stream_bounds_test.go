package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/hostile"
	"github.com/toolgate/toolgate/server"
)

// contextStream gives a handler another context.
type contextStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *contextStream) Context() context.Context { return s.ctx }

// TestStreamStopsInsideHugeDelta: a stream whose context ends while the
// server validates one 3 MiB delta stops there — it does not validate the
// rest of the delta (whose last bytes would be an early rejection) — and
// ends with CANCELLED. The handler's context reports Canceled after five
// looks, as a client that leaves mid-delta makes it.
func TestStreamStopsInsideHugeDelta(t *testing.T) {
	t.Parallel()
	countdown := grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx := hostile.NewCountdown(ss.Context(), 5, context.Canceled)
		return handler(srv, &contextStream{ServerStream: ss, ctx: ctx})
	})
	c, s := openStream(t, server.Config{ServerOptions: []grpc.ServerOption{countdown}})
	h := compileTodo(t, c)
	doc := `{"action":"add","content":"` + strings.Repeat("x", 3<<20) + `","status":"nope"}`
	send(t, s, startCall("c", "", h), delta("c", doc))
	_, err := s.Recv()
	assert.Equal(t, codes.Canceled, code(err), "no verdict on the delta's last bytes: %v", err)
}

// TestStreamSendTimeout: a client that never reads its results must not
// park the handler in Send: once a result has waited for the client longer
// than the send timeout, the stream ends with DEADLINE_EXCEEDED, and the
// goroutine that was blocked sending ends too. (Not parallel, so that the
// goroutine check sees this test's goroutines only.)
func TestStreamSendTimeout(t *testing.T) {
	returned := make(chan error, 1)
	observe := grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		err := handler(srv, ss)
		if strings.HasSuffix(info.FullMethod, "/ValidateStream") {
			returned <- err
		}
		return err
	})
	srv, _ := server.NewGRPCServer(server.Config{
		Options:       server.Options{StreamSendTimeout: 100 * time.Millisecond, MaxNameBytes: 16 << 10},
		ServerOptions: []grpc.ServerOption{observe},
	})
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	// Fixed 64 KiB windows (no BDP growth), so unread results fill them.
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithInitialWindowSize(64<<10), grpc.WithInitialConnWindowSize(64<<10))
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = conn.Close()
		srv.Stop()
	})
	s, err := toolgatev1.NewValidationServiceClient(conn).ValidateStream(t.Context())
	require.NoError(t, err)
	// Each call names an unbound 8 KiB tool name: a result of about 8 KiB
	// at once. 40 of them are far more than the windows hold.
	long := strings.Repeat("t", 8<<10)
	for i := range 40 {
		send(t, s, startCall("c"+strings.Repeat("0", i), long, ""))
	}
	select {
	case err := <-returned:
		assert.Equal(t, codes.DeadlineExceeded, status.Code(err), "%v", err)
		assert.Contains(t, status.Convert(err).Message(), "did not read")
	case <-time.After(20 * time.Second):
		t.Fatal("the handler is still blocked sending to a client that does not read")
	}
	assert.Eventually(t, func() bool {
		buf := make([]byte, 1<<20)
		return !strings.Contains(string(buf[:runtime.Stack(buf, true)]), "(*resultSender).run")
	}, 10*time.Second, 10*time.Millisecond, "the sender goroutine ends with the stream")
}

// TestMaxConcurrentStreams: a connection may have Config.MaxConcurrentStreams
// RPCs in flight; one more waits (here until its deadline) and starts as
// soon as one of them ends.
func TestMaxConcurrentStreams(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{MaxConcurrentStreams: 2})
	open := func(ctx context.Context) (toolgatev1.ValidationService_ValidateStreamClient, error) {
		s, err := c.ValidateStream(ctx)
		if err != nil {
			return nil, err
		}
		// A bind the server answers proves the stream is running there.
		if err := s.Send(&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Start{
			Start: &toolgatev1.CallStart{CallId: "1", Handle: "tg1_" + strings.Repeat("0", 64)}}}); err != nil {
			return nil, err
		}
		_, err = s.Recv()
		return s, err
	}
	var held []toolgatev1.ValidationService_ValidateStreamClient
	for range 2 {
		s, err := open(t.Context())
		require.NoError(t, err)
		held = append(held, s)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	_, err := open(ctx)
	assert.Equal(t, codes.DeadlineExceeded, status.Code(err), "a third stream waits: %v", err)

	require.NoError(t, held[0].CloseSend())
	for {
		if _, err := held[0].Recv(); err != nil {
			break
		}
	}
	s, err := open(t.Context())
	require.NoError(t, err, "once one ends, the next starts")
	require.NoError(t, s.CloseSend())
}

// TestMaxHeaderBytes: metadata within Config.MaxHeaderBytes is served; past
// it a grpc-go client refuses to send it (the server advertises the limit),
// and a client that sends it anyway has its stream reset before any handler
// runs.
func TestMaxHeaderBytes(t *testing.T) {
	t.Parallel()
	cfg := server.Config{MaxHeaderBytes: 4 << 10}
	c := client(t, cfg)
	within := metadata.AppendToOutgoingContext(t.Context(), "x-note", strings.Repeat("a", 2<<10))
	_, err := c.CompileSchema(within, compileJSON(todoSchema))
	require.NoError(t, err)
	past := metadata.AppendToOutgoingContext(t.Context(), "x-note", strings.Repeat("a", 8<<10))
	_, err = c.CompileSchema(past, compileJSON(todoSchema))
	assert.Equal(t, codes.Internal, status.Code(err), "%v", err)
	assert.Contains(t, status.Convert(err).Message(), "header list size")

	t.Run("a client that ignores the limit", func(t *testing.T) {
		srv, _ := server.NewGRPCServer(cfg)
		lis := bufconn.Listen(1 << 20)
		go func() { _ = srv.Serve(lis) }()
		t.Cleanup(srv.Stop)
		conn, err := lis.Dial()
		require.NoError(t, err)
		defer conn.Close()
		require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
		_, err = conn.Write([]byte(http2.ClientPreface))
		require.NoError(t, err)
		fr := http2.NewFramer(conn, conn)
		fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
		require.NoError(t, fr.WriteSettings())
		var block bytes.Buffer
		enc := hpack.NewEncoder(&block)
		fields := []hpack.HeaderField{
			{Name: ":method", Value: "POST"}, {Name: ":scheme", Value: "http"},
			{Name: ":path", Value: "/toolgate.v1.ValidationService/CompileSchema"}, {Name: ":authority", Value: "toolgate"},
			{Name: "content-type", Value: "application/grpc"}, {Name: "te", Value: "trailers"},
		}
		for i := range 16 { // 8 KiB in all, each well within the limit
			fields = append(fields, hpack.HeaderField{Name: fmt.Sprintf("x-note-%d", i), Value: strings.Repeat("a", 512)})
		}
		for _, f := range fields {
			require.NoError(t, enc.WriteField(f))
		}
		require.NoError(t, fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block.Bytes(), EndHeaders: true}))
		for {
			f, err := fr.ReadFrame()
			require.NoError(t, err, "the server answers the stream")
			switch f := f.(type) {
			case *http2.MetaHeadersFrame:
				t.Fatalf("the server answered headers %v: a handler ran", f.Fields)
			case *http2.RSTStreamFrame:
				assert.Equal(t, uint32(1), f.StreamID)
				assert.Equal(t, http2.ErrCodeFrameSize, f.ErrCode)
				return
			}
		}
	})
}

// TestStreamNameAndOpenStateLimits: Options.MaxNameBytes and
// MaxOpenStateBytes reach the streams: a longer call id is
// INVALID_ARGUMENT, and a call whose state passes the bound over all
// streams gets an early "limit" result.
func TestStreamNameAndOpenStateLimits(t *testing.T) {
	t.Parallel()
	t.Run("names", func(t *testing.T) {
		t.Parallel()
		c, s := openStream(t, server.Config{Options: server.Options{MaxNameBytes: 8}})
		send(t, s, startCall("123456789", "todo", compileTodo(t, c)))
		_, err := s.Recv()
		assert.Equal(t, codes.InvalidArgument, status.Code(err))
		assert.Contains(t, status.Convert(err).Message(), "longer than the limit of 8")
	})
	t.Run("open state", func(t *testing.T) {
		t.Parallel()
		c, s := openStream(t, server.Config{Options: server.Options{MaxOpenStateBytes: 1}})
		send(t, s, startCall("c1", "todo", compileTodo(t, c)), delta("c1", `{"action":"li`))
		res := recvResult(t, s)
		require.NotEmpty(t, res.GetErrors())
		assert.Equal(t, "limit", res.GetErrors()[0].GetKeyword())
		assert.Contains(t, res.GetErrors()[0].GetMessage(), "over every stream")
	})
}

// TestRefusedBindCompilesNothing: a bind past MaxToolsPerStream, or with a
// name past MaxNameBytes, is refused before any of its inline schemas is
// compiled or stored, so that it cannot fill the store (evicting other
// callers' schemas) on its way to the refusal. A name that a bind gives
// both a handle and an inline schema counts once.
func TestRefusedBindCompilesNothing(t *testing.T) {
	t.Parallel()
	const max = 3
	schemas := func(n int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprint("t", i)] = fmt.Sprintf(`{"type":"object","description":"%d"}`, i)
		}
		return m
	}
	longName := map[string]string{strings.Repeat("n", 40): `{"type":"object"}`, "short": `{"type":"object","description":"s"}`}
	for _, tc := range []struct {
		name string
		bind *toolgatev1.ValidateStreamRequest
		want codes.Code
	}{
		{"past the tool limit", bindInline(schemas(max + 1)), codes.ResourceExhausted},
		{"a name past the limit", bindInline(longName), codes.InvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var svc *server.Service
			conn := startService(t, server.Config{Options: server.Options{MaxToolsPerStream: max, MaxNameBytes: 32}}, func(s *server.Service) { svc = s })
			s, err := toolgatev1.NewValidationServiceClient(conn).ValidateStream(t.Context())
			require.NoError(t, err)
			send(t, s, tc.bind)
			_, err = s.Recv()
			assert.Equal(t, tc.want, code(err), "%v", err)
			assert.Zero(t, server.StoredSchemas(svc), "the refused bind compiled and stored schemas")
		})
	}
	t.Run("a name in both maps counts once", func(t *testing.T) {
		t.Parallel()
		c, s := openStream(t, server.Config{Options: server.Options{MaxToolsPerStream: max}})
		h := compileTodo(t, c)
		b := bindInline(schemas(max))
		b.GetBind().Tools = map[string]string{"t0": h, "t1": h}
		send(t, s, b, startCall("a", "t0", ""), delta("a", `{}`), end("a"))
		r := recvResult(t, s)
		assert.True(t, r.GetValid(), "t0 takes its inline schema: %v", r)
	})
}

// TestStreamProviderPlacesBounded: provider events that name ever more
// choices, candidates or output items — state the stream keeps, with no
// call started, so that no other limit counts it — hold what
// Options.MaxProviderPlaces places take, no more: the stream answers up to
// the limit, and the event past it ends the stream with
// RESOURCE_EXHAUSTED. Before, one Gemini event of 250,000 candidates held
// 34 MB for the stream's life, 100,000 Responses reasoning items 104 MB
// and 2,000,000 empty Chat choices 17 MB (audit D1); here the same shapes,
// smaller. Not parallel: it measures the heap.
func TestStreamProviderPlacesBounded(t *testing.T) {
	const n = 500
	id := strings.Repeat("r", 900) // within --max-name-bytes
	for _, c := range []struct {
		name string
		p    toolgatev1.Provider
		// events name the places from..to-1; past is how many the events
		// past the limit name.
		events func(from, to int) []string
		past   int
	}{
		{"gemini candidates", toolgatev1.Provider_PROVIDER_GEMINI, func(from, to int) []string {
			return []string{`{"candidates":[` + places(from, to, `{"index":%d}`) + `]}`}
		}, 50 * n},
		{"responses items", toolgatev1.Provider_PROVIDER_OPENAI_RESPONSES, func(from, to int) []string {
			var evs []string
			for i := from; i < to; i++ {
				evs = append(evs, fmt.Sprintf(`{"type":"response.output_item.added","output_index":%d,"item":{"type":"reasoning","id":"%s%d"}}`, i, id, i))
			}
			return evs
		}, 1},
		{"chat choices", toolgatev1.Provider_PROVIDER_OPENAI_CHAT, func(from, to int) []string {
			return []string{`{"choices":[` + places(from, to, `{"index":%d,"delta":{}}`) + `]}`}
		}, 50 * n},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, s := openStream(t, server.Config{Options: server.Options{MaxProviderPlaces: n}})
			sendAll := func(events []string) {
				for _, ev := range events {
					send(t, s, providerEvent(c.p, ev))
				}
			}
			roundTrip(t, s, "warm")
			before := heapNow()
			for from := 0; from < n; from += n / 5 {
				sendAll(c.events(from, from+n/5))
			}
			roundTrip(t, s, "sync")
			held := int64(heapNow()) - int64(before)
			t.Logf("%d places: the server holds %d KB more", n, held>>10)
			assert.Less(t, held, int64(4<<20), "a stream's places should cost what %d take", n)

			sendAll(c.events(n, n+c.past))
			_ = s.Send(startCall("after", "nope", "")) // answered only if the stream went on
			resp, err := s.Recv()
			assert.Equal(t, codes.ResourceExhausted, code(err), "%v %v", resp, err)
			assert.Contains(t, status.Convert(err).Message(), fmt.Sprintf("past the limit of %d", n))
		})
	}
}

// places joins the renderings of format for the indices from..to-1 with
// commas.
func places(from, to int, format string) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		if i > from {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// roundTrip makes sure the server has handled every event sent so far: a
// call of an unbound tool gets its result at once.
func roundTrip(t *testing.T, s bidi, id string) {
	t.Helper()
	send(t, s, startCall(id, "nope", ""))
	require.Equal(t, id, recvResult(t, s).GetCallId())
}

// heapNow is the live heap after a collection.
func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestStreamRebindBounded: binding one tool name, or the output, to
// schema after schema holds each for the stream's life, so the schemas
// one stream holds are counted: past --max-tools-per-stream plus
// --max-calls-per-stream plus one output, the bind is RESOURCE_EXHAUSTED.
// Binding a name to the schema it holds already costs nothing.
func TestStreamRebindBounded(t *testing.T) {
	t.Parallel()
	opts := server.Options{MaxToolsPerStream: 2, MaxCallsPerStream: 2} // 5 schemas
	tool := func(i int) *toolgatev1.ValidateStreamRequest {
		return bindInline(map[string]string{"t": fmt.Sprintf(`{"type":"object","description":"%d"}`, i)})
	}
	output := func(i int) *toolgatev1.ValidateStreamRequest {
		src := fmt.Sprintf(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false,"description":"%d"}`, i)
		return &toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: &toolgatev1.StreamBind{
			OutputSchema: &toolgatev1.CompileSchemaRequest{Profile: toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE,
				Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: src}}}}}
	}
	for name, rebind := range map[string]func(int) *toolgatev1.ValidateStreamRequest{"tool": tool, "output": output} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, s := openStream(t, server.Config{Options: opts})
			for range 10 {
				send(t, s, rebind(0)) // the same schema: held once
			}
			for i := 1; i <= 5; i++ {
				send(t, s, rebind(i))
			}
			require.NoError(t, s.CloseSend())
			_, err := s.Recv()
			assert.Equal(t, codes.ResourceExhausted, code(err), "%v", err)
			assert.ErrorContains(t, err, "--max-tools-per-stream")
		})
	}
	t.Run("within the count", func(t *testing.T) {
		t.Parallel()
		_, s := openStream(t, server.Config{Options: opts})
		for i := range 5 {
			send(t, s, tool(i))
		}
		require.NoError(t, s.CloseSend())
		_, err := s.Recv()
		assert.ErrorIs(t, err, io.EOF)
	})
}
