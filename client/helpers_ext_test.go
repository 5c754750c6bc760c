package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/toolgate/toolgate/client"
	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// Schemas and arguments shared by the tests and examples.
const (
	weatherSchema = `{"type":"object","properties":{
		"city":{"type":"string","description":"City name"},
		"days":{"type":"integer","minimum":1}},
		"required":["city"],"additionalProperties":false}`
	// weatherSchemaRespelled is weatherSchema with its keys reordered and
	// its whitespace changed: the same schema, so the same handle.
	weatherSchemaRespelled = `{"additionalProperties":false,"required":["city"],"type":"object","properties":{"days":{"minimum":1,"type":"integer"},"city":{"description":"City name","type":"string"}}}`
	// patternSchema is legal JSON Schema that the tool input profile
	// does not support.
	patternSchema = `{"type":"object","properties":{"q":{"type":"string","pattern":"^a"}}}`
)

// replica is one toolgate server on an in-memory listener, with its own
// schema store.
type replica struct {
	lis  *bufconn.Listener
	srv  *grpc.Server
	done chan struct{}
}

// startReplica serves cfg until stop; it needs no *testing.T so that the
// examples can use it.
func startReplica(cfg server.Config) *replica {
	r := &replica{lis: bufconn.Listen(1 << 20), done: make(chan struct{})}
	r.srv, _ = server.NewGRPCServer(cfg)
	go func() {
		defer close(r.done)
		_ = r.srv.Serve(r.lis)
	}()
	return r
}

// dial is a context dialer that reaches this replica.
func (r *replica) dial(ctx context.Context, _ string) (net.Conn, error) {
	return r.lis.DialContext(ctx)
}

// dialOption routes a connection to this replica.
func (r *replica) dialOption() grpc.DialOption {
	return grpc.WithContextDialer(r.dial)
}

// stop stops the server and waits for Serve to return.
func (r *replica) stop() {
	r.srv.Stop()
	<-r.done
}

// newReplica starts a replica that is stopped when the test ends.
func newReplica(t *testing.T, cfg server.Config) *replica {
	t.Helper()
	r := startReplica(cfg)
	t.Cleanup(r.stop)
	return r
}

// dialReplica returns a client.Dial'ed Client for r (plaintext), closed when
// the test ends; opts come after the ones that reach r.
func dialReplica(t *testing.T, r *replica, opts ...client.Option) *client.Client {
	t.Helper()
	opts = append([]client.Option{client.WithInsecure(), client.WithDialOptions(r.dialOption())}, opts...)
	c, err := client.Dial("passthrough:///bufnet", opts...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// connTo returns a plain grpc connection to r, closed when the test ends.
func connTo(t *testing.T, r *replica, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	opts = append([]grpc.DialOption{r.dialOption(), grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)
	conn, err := grpc.NewClient("passthrough:///bufnet", opts...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// fakeService is a ValidationService that misbehaves on purpose: each
// hook the test sets answers its RPC (the others are unimplemented).
type fakeService struct {
	toolgatev1.UnimplementedValidationServiceServer
	compile  func(context.Context, *toolgatev1.CompileSchemaRequest) (*toolgatev1.CompileSchemaResponse, error)
	validate func(context.Context, *toolgatev1.ValidateRequest) (*toolgatev1.ValidateResponse, error)
	stream   func(grpc.BidiStreamingServer[toolgatev1.ValidateStreamRequest, toolgatev1.ValidateStreamResponse]) error
}

func (f *fakeService) CompileSchema(ctx context.Context, req *toolgatev1.CompileSchemaRequest) (*toolgatev1.CompileSchemaResponse, error) {
	return f.compile(ctx, req)
}

func (f *fakeService) Validate(ctx context.Context, req *toolgatev1.ValidateRequest) (*toolgatev1.ValidateResponse, error) {
	return f.validate(ctx, req)
}

func (f *fakeService) ValidateStream(s grpc.BidiStreamingServer[toolgatev1.ValidateStreamRequest, toolgatev1.ValidateStreamResponse]) error {
	return f.stream(s)
}

// dialFake serves f on an in-memory listener until the test ends, and
// returns a Client for it.
func dialFake(t *testing.T, f *fakeService) *client.Client {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	toolgatev1.RegisterValidationServiceServer(srv, f)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(lis)
	}()
	t.Cleanup(func() {
		srv.Stop()
		<-done
	})
	conn, err := grpc.NewClient("passthrough:///fake", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return client.New(conn)
}

// rpc is one unary call as the client saw it.
type rpc struct {
	Method string     // "CompileSchema" or "Validate"
	By     string     // for Validate: "handle" or "inline"
	Code   codes.Code // the call's status code
}

func (c rpc) String() string { return fmt.Sprintf("%s(%s)=%s", c.Method, c.By, c.Code) }

// recorder is a unary client interceptor that records every call.
type recorder struct {
	mu       sync.Mutex
	calls    []rpc
	profiles []toolgatev1.Profile // of each CompileSchema request
}

func (r *recorder) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	c := rpc{Method: method[strings.LastIndexByte(method, '/')+1:], Code: status.Code(err)}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch m := req.(type) {
	case *toolgatev1.ValidateRequest:
		c.By = "handle"
		if m.GetInline() != nil {
			c.By = "inline"
		}
	case *toolgatev1.CompileSchemaRequest:
		r.profiles = append(r.profiles, m.GetProfile())
	}
	r.calls = append(r.calls, c)
	return err
}

// option installs the recorder on a connection.
func (r *recorder) option() grpc.DialOption {
	return grpc.WithChainUnaryInterceptor(r.intercept)
}

// Calls returns the calls recorded so far, as strings, in order.
func (r *recorder) Calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.calls))
	for i, c := range r.calls {
		out[i] = c.String()
	}
	return out
}

// switchConn is a grpc.ClientConnInterface that sends every call on the
// connection currently selected: a load balancer under the test's control.
type switchConn struct {
	cur atomic.Pointer[grpc.ClientConn]
}

func (s *switchConn) route(conn *grpc.ClientConn) { s.cur.Store(conn) }

func (s *switchConn) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	return s.cur.Load().Invoke(ctx, method, args, reply, opts...)
}

func (s *switchConn) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return s.cur.Load().NewStream(ctx, desc, method, opts...)
}

// heldBody returns a provider body that yields head, then holds until the
// caller closes rejected (or 10 s pass, which fails the write), then yields
// tail. A rejection that reaches the caller while the body is held provably
// arrived before the body ended. wrote reports the writer's outcome.
func heldBody(head, tail string) (body *io.PipeReader, rejected chan struct{}, wrote chan error) {
	pr, pw := io.Pipe()
	rejected, wrote = make(chan struct{}), make(chan error, 1)
	go func() {
		wrote <- func() error {
			if _, err := io.WriteString(pw, head); err != nil {
				return err
			}
			select {
			case <-rejected:
			case <-time.After(10 * time.Second):
				err := errors.New("the rejection did not arrive while the body was open")
				pw.CloseWithError(err)
				return err
			}
			if _, err := io.WriteString(pw, tail); err != nil {
				return err
			}
			return pw.Close()
		}()
	}()
	return pr, rejected, wrote
}
