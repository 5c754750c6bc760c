package server_test

import (
	"io"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/proto"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/benchcpu"
	"github.com/toolgate/toolgate/internal/benchdoc"
	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/server"
)

// streamBenchCalls is how many calls BenchmarkGRPC/ValidateStream sends on
// one stream before it opens the next: below the default limit of calls
// per stream (1,024), so the server runs with its defaults.
const streamBenchCalls = 1000

// streamBenchPiece is the delta size of BenchmarkGRPC/ValidateStream, a
// provider's typical token-sized fragment.
const streamBenchPiece = 32

// loopbackConn serves cfg on a real TCP listener on 127.0.0.1 and returns
// a client connection to it, both closed when tb ends.
func loopbackConn(tb testing.TB, cfg server.Config) *grpc.ClientConn {
	tb.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	srv, _ := server.NewGRPCServer(cfg)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(tb, err)
	tb.Cleanup(func() {
		_ = conn.Close()
		srv.Stop()
	})
	return conn
}

// grpcBench is what BenchmarkGRPC's cases share: one server, one
// connection, the edit_file schema compiled, and its small call.
type grpcBench struct {
	health   healthpb.HealthClient
	tg       toolgatev1.ValidationServiceClient
	compile  *toolgatev1.CompileSchemaRequest
	handle   string
	args     string
	argPiece []string
}

func newGRPCBench(tb testing.TB) *grpcBench {
	tb.Helper()
	conn := loopbackConn(tb, server.Config{})
	text, err := benchdoc.Schema(fixtures.RepoRoot(tb))
	require.NoError(tb, err)
	g := &grpcBench{
		health:  healthpb.NewHealthClient(conn),
		tg:      toolgatev1.NewValidationServiceClient(conn),
		compile: compileJSON(string(text)),
		args:    string(benchdoc.Small()),
	}
	resp, err := g.tg.CompileSchema(tb.Context(), g.compile)
	require.NoError(tb, err)
	require.NotEmpty(tb, resp.GetHandle(), "%v", resp.GetErrors())
	g.handle = resp.GetHandle()
	for i := 0; i < len(g.args); i += streamBenchPiece {
		g.argPiece = append(g.argPiece, g.args[i:min(i+streamBenchPiece, len(g.args))])
	}
	return g
}

func (g *grpcBench) byHandle() *toolgatev1.ValidateRequest {
	return &toolgatev1.ValidateRequest{
		Schema:    &toolgatev1.ValidateRequest_Handle{Handle: g.handle},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: g.args},
	}
}

// byHandlePadded is byHandle with the arguments led by as many spaces as
// the inline request is longer: a request of inline's size that is
// validated by handle, so BenchmarkGRPCPaired can tell what inline costs
// for its size (the transport, the codec) from what it costs for being
// inline (the nested message, the compile cache).
func (g *grpcBench) byHandlePadded() *toolgatev1.ValidateRequest {
	return &toolgatev1.ValidateRequest{
		Schema: &toolgatev1.ValidateRequest_Handle{Handle: g.handle},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{
			ArgumentsJson: strings.Repeat(" ", proto.Size(g.inline())-proto.Size(g.byHandle())) + g.args,
		},
	}
}

func (g *grpcBench) inline() *toolgatev1.ValidateRequest {
	return &toolgatev1.ValidateRequest{
		Schema:    &toolgatev1.ValidateRequest_Inline{Inline: g.compile},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: g.args},
	}
}

// streamCalls validates calls on one ValidateStream, each sent as start,
// its deltas and end, then waits for its result; it stops at the first
// error or invalid result and then closes the stream.
func (g *grpcBench) streamCalls(tb testing.TB, calls int) error {
	s, err := g.tg.ValidateStream(tb.Context())
	if err != nil {
		return err
	}
	for i := range calls {
		id := strconv.Itoa(i)
		if err := s.Send(startCall(id, "", g.handle)); err != nil {
			return err
		}
		for _, p := range g.argPiece {
			if err := s.Send(delta(id, p)); err != nil {
				return err
			}
		}
		if err := s.Send(end(id)); err != nil {
			return err
		}
		resp, err := s.Recv()
		if err != nil {
			return err
		}
		if r := resp.GetResult(); r.GetCallId() != id || !r.GetValid() {
			tb.Fatalf("call %s: %v", id, r)
		}
	}
	if err := s.CloseSend(); err != nil {
		return err
	}
	if _, err := s.Recv(); err != io.EOF {
		return err
	}
	return nil
}

// TestGRPCBenchCasesWork runs each BenchmarkGRPC case once, so the
// benchmark measures successful calls.
func TestGRPCBenchCasesWork(t *testing.T) {
	t.Parallel()
	g := newGRPCBench(t)
	h, err := g.health.Check(t.Context(), &healthpb.HealthCheckRequest{})
	require.NoError(t, err)
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, h.GetStatus())
	for _, req := range []*toolgatev1.ValidateRequest{g.byHandle(), g.byHandlePadded(), g.inline()} {
		resp, err := g.tg.Validate(t.Context(), req)
		require.NoError(t, err)
		require.True(t, resp.GetValid(), "%v", resp.GetErrors())
		require.Equal(t, g.handle, resp.GetHandle())
	}
	require.Greater(t, len(g.argPiece), 5, "the call is split into several deltas")
	require.NoError(t, g.streamCalls(t, 3))
}

// BenchmarkGRPC measures RPCs one at a time over a real TCP loopback
// connection (issue 10), with the standard health Check as the baseline of
// the same run: what a request costs for transport, framing and the
// server's interceptors alone. CPU time (benchcpu) counts the client's and
// the server's goroutines, both in this process. The Validate cases carry benchdoc.Small, a
// 280-byte edit_file call: Validate by handle, Validate with the schema
// inline (compiled before, by CompileSchema), and ValidateStream, where
// one op is one call (start, 32-byte deltas, end, its result) on a stream
// that carries streamBenchCalls calls.
func BenchmarkGRPC(b *testing.B) {
	g := newGRPCBench(b)
	ctx := b.Context()
	b.Run("HealthCheck", func(b *testing.B) {
		b.ReportAllocs()
		req := &healthpb.HealthCheckRequest{}
		stop := benchcpu.Start(b)
		for b.Loop() {
			if r, err := g.health.Check(ctx, req); err != nil || r.GetStatus() != healthpb.HealthCheckResponse_SERVING {
				b.Fatal(r, err)
			}
		}
		stop()
	})
	for _, tc := range []struct {
		name string
		req  *toolgatev1.ValidateRequest
	}{{"ValidateHandle", g.byHandle()}, {"ValidateInline", g.inline()}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(g.args)))
			b.ReportAllocs()
			stop := benchcpu.Start(b)
			for b.Loop() {
				if r, err := g.tg.Validate(ctx, tc.req); err != nil || !r.GetValid() {
					b.Fatal(r, err)
				}
			}
			stop()
		})
	}
	b.Run("ValidateStream", func(b *testing.B) {
		b.SetBytes(int64(len(g.args)))
		b.ReportAllocs()
		b.ReportMetric(float64(len(g.argPiece)), "deltas/op")
		stop := benchcpu.Start(b)
		for n := b.N; n > 0; n -= streamBenchCalls {
			if err := g.streamCalls(b, min(n, streamBenchCalls)); err != nil {
				b.Fatal(err)
			}
		}
		stop()
	})
}

// pairedBlock is how many calls BenchmarkGRPCPaired makes in a row of one
// kind: enough that the CPU clock's granularity and a call's tail spilling
// into the next block are noise, few enough that the machine's load stays
// put across a pair of blocks.
const pairedBlock = 200

// BenchmarkGRPCPaired measures the throughput ratio of BenchmarkGRPC's
// unary Validate cells against Health/Check in one interleaved loop: an op
// is a block of pairedBlock health checks and a block of as many calls of
// the cell, in alternating order, each block timed in CPU (benchcpu.Now).
// BenchmarkGRPC runs each cell for its own second, so load that drifts
// over seconds falls on the cells unevenly; here it falls on both blocks
// of an op alike. It reports the CPU per call of each and x-health, the
// health check's CPU over the cell's (the ratio the issue 10 targets
// read). ValidateHandlePadded, a by-handle request of the inline one's
// size, is not a target: it splits the inline cell's gap into size and
// inlining.
func BenchmarkGRPCPaired(b *testing.B) {
	g := newGRPCBench(b)
	ctx := b.Context()
	health := func() {
		if r, err := g.health.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil || r.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			b.Fatal(r, err)
		}
	}
	for _, tc := range []struct {
		name string
		req  *toolgatev1.ValidateRequest
	}{{"ValidateHandle", g.byHandle()}, {"ValidateHandlePadded", g.byHandlePadded()}, {"ValidateInline", g.inline()}} {
		b.Run(tc.name, func(b *testing.B) {
			call := func() {
				if r, err := g.tg.Validate(ctx, tc.req); err != nil || !r.GetValid() {
					b.Fatal(r, err)
				}
			}
			block := func(do func()) int64 {
				start, _ := benchcpu.Now()
				for range pairedBlock {
					do()
				}
				end, _ := benchcpu.Now()
				return end - start
			}
			if _, ok := benchcpu.Now(); !ok {
				b.Skip("this system does not report the process's CPU time")
			}
			var healthCPU, cellCPU int64
			odd := false
			for b.Loop() {
				if odd {
					cellCPU += block(call)
					healthCPU += block(health)
				} else {
					healthCPU += block(health)
					cellCPU += block(call)
				}
				odd = !odd
			}
			calls := float64(b.N * pairedBlock)
			b.ReportMetric(float64(healthCPU)/calls, "health-cpu-ns/call")
			b.ReportMetric(float64(cellCPU)/calls, "cpu-ns/call")
			b.ReportMetric(float64(healthCPU)/float64(cellCPU), "x-health")
		})
	}
}
