package server_test

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// serveTCP serves cfg on a loopback TCP listener and returns its address.
func serveTCP(t *testing.T, cfg server.Config) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv, _ := server.NewGRPCServer(cfg)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

// TestKeepaliveIdleStream reproduces issue 13's keepalive finding with a
// real grpc-go client pinging every 10 s (the least grpc-go allows, and a
// common setting) on an idle ValidateStream. Under grpc-go's default
// enforcement (5 minutes) the server counts every ping after the first as
// a strike and sends GOAWAY too_many_pings past the second strike, so the
// stream fails UNAVAILABLE after 30 to 40 s; under toolgate's default
// policy the stream outlives that and still validates. grpc-go raises a
// client's keepalive time to at least 10 s, so the test cannot be made
// faster with a real client: it takes about 45 s, and -short skips it.
func TestKeepaliveIdleStream(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 45 s for keepalive pings")
	}
	t.Parallel()
	pinging := grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 10 * time.Second, Timeout: 5 * time.Second, PermitWithoutStream: true})
	openIdleStream := func(t *testing.T, cfg server.Config) (bidi, string) {
		conn, err := grpc.NewClient(serveTCP(t, cfg), grpc.WithTransportCredentials(insecure.NewCredentials()), pinging)
		require.NoError(t, err)
		t.Cleanup(func() { _ = conn.Close() })
		c := toolgatev1.NewValidationServiceClient(conn)
		compiled, err := c.CompileSchema(t.Context(), compileJSON(todoSchema))
		require.NoError(t, err)
		s, err := c.ValidateStream(t.Context())
		require.NoError(t, err)
		return s, compiled.GetHandle()
	}

	t.Run("grpc-go's default policy closes the stream", func(t *testing.T) {
		t.Parallel()
		// A zero EnforcementPolicy is grpc-go's default, as the server had
		// before it set one.
		s, _ := openIdleStream(t, server.Config{ServerOptions: []grpc.ServerOption{grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{})}})
		ended := make(chan error, 1)
		go func() {
			_, err := s.Recv()
			ended <- err
		}()
		select {
		case err := <-ended:
			assert.Equal(t, codes.Unavailable, code(err), "%v", err)
			assert.ErrorContains(t, err, "too_many_pings")
		case <-time.After(60 * time.Second):
			t.Fatal("the stream was not closed: grpc-go's default policy accepted pings every 10 s")
		}
	})
	t.Run("toolgate's default policy keeps it", func(t *testing.T) {
		t.Parallel()
		s, handle := openIdleStream(t, server.Config{})
		time.Sleep(45 * time.Second) // four pings and more, with no call in flight
		require.NoError(t, s.Send(&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{
			CallId: "late", Handle: handle}}}), "the stream is still open")
		require.NoError(t, s.Send(&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Delta{Delta: &toolgatev1.CallDelta{
			CallId: "late", Fragment: `{"action":"list"}`}}}))
		require.NoError(t, s.CloseSend())
		resp, err := s.Recv()
		require.NoError(t, err)
		assert.True(t, resp.GetResult().GetValid(), "%v", resp)
	})
}

// blackhole is a TCP proxy that forwards until cut, then silently drops
// everything in both directions without closing: a client that vanished
// without a FIN, as behind a NAT that forgot the connection.
type blackhole struct {
	cut   atomic.Bool
	mu    sync.Mutex
	conns []net.Conn
}

func newBlackhole(t *testing.T, target string) (addr string, b *blackhole) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	b = &blackhole{}
	t.Cleanup(func() {
		_ = lis.Close()
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, c := range b.conns {
			_ = c.Close()
		}
	})
	go func() {
		for {
			in, err := lis.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				_ = in.Close()
				return
			}
			b.mu.Lock()
			b.conns = append(b.conns, in, out)
			b.mu.Unlock()
			go b.forward(out, in)
			go b.forward(in, out)
		}
	}()
	return lis.Addr().String(), b
}

func (b *blackhole) forward(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if err != nil {
			return
		}
		if !b.cut.Load() {
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
	}
}

// TestKeepaliveServerPings checks the server's own pings: once the client's
// connection goes silent (cut without a FIN), the server pings it, gets no
// answer and closes the connection, ending the stream the client held open,
// instead of holding it until the stream's idle timeout.
func TestKeepaliveServerPings(t *testing.T) {
	t.Parallel()
	handlerStarted, handlerDone := make(chan struct{}, 1), make(chan error, 1)
	addr := serveTCP(t, server.Config{
		Keepalive: server.Keepalive{Time: time.Second, Timeout: time.Second},
		ServerOptions: []grpc.ServerOption{grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
			handlerStarted <- struct{}{}
			err := handler(srv, ss)
			handlerDone <- err
			return err
		})},
	})
	proxy, hole := newBlackhole(t, addr)
	conn, err := grpc.NewClient(proxy, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c := toolgatev1.NewValidationServiceClient(conn)
	compiled, err := c.CompileSchema(ctx, compileJSON(todoSchema))
	require.NoError(t, err)
	s, err := c.ValidateStream(ctx)
	require.NoError(t, err)
	require.NoError(t, s.Send(&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{
		CallId: "held", Handle: compiled.GetHandle()}}}))
	// The connection goes silent once the server holds the stream (a cut
	// before the stream reached it would leave no handler to end).
	select {
	case <-handlerStarted:
	case <-time.After(20 * time.Second):
		t.Fatal("the stream never reached the server")
	}
	hole.cut.Store(true)
	select {
	case err := <-handlerDone:
		require.Error(t, err)
		assert.False(t, errors.Is(err, io.EOF))
		assert.Contains(t, []codes.Code{codes.Canceled, codes.Unavailable}, code(err), "%v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not end the stream of a client that stopped answering pings")
	}
}
