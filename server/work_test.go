package server_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// progressRecorder is a Service's progress hook: it records every step of
// the request's work and, at the first one, holds the request until its
// context ends, as a slow engine would, so the test decides when it ends.
type progressRecorder struct {
	first chan struct{} // closed at the first step
	mu    sync.Mutex
	steps []int64 // the done figure of every step
	late  int     // steps taken after the request's context ended
}

func newProgressRecorder() *progressRecorder { return &progressRecorder{first: make(chan struct{})} }

func (p *progressRecorder) step(ctx context.Context, done int64) {
	p.mu.Lock()
	if ctx.Err() != nil {
		p.late++
	}
	p.steps = append(p.steps, done)
	n := len(p.steps)
	p.mu.Unlock()
	if n == 1 {
		close(p.first)
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second): // the request never ended: the test fails below
		}
	}
}

func (p *progressRecorder) recorded() ([]int64, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int64(nil), p.steps...), p.late
}

// handlerOutcomes is a unary interceptor that reports each handler's error,
// as the server returned it, so a test sees the server's status even when
// the client gave up first.
func handlerOutcomes(out chan<- error) grpc.ServerOption {
	return grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		out <- err
		return resp, err
	})
}

// toolsListOf returns a tools/list result of n tools that compile.
func toolsListOf(n int) string {
	tools := make([]string, n)
	for i := range tools {
		tools[i] = fmt.Sprintf(`{"name":"t%d","inputSchema":{"type":"object","properties":{"p%d":{"type":"string"}}}}`, i, i)
	}
	return `{"tools":[` + strings.Join(tools, ",") + `]}`
}

// TestRequestsEndWithTheirContext checks issue 9's "every request ends when
// its deadline passes or its caller leaves": a Validate of a large document
// and a CompileToolset of many tools, held at their first step until their
// context ends, take no further step and end with the context's code.
func TestRequestsEndWithTheirContext(t *testing.T) {
	t.Parallel()
	const chunks, tools = 64, 64
	args := `{"s":"` + strings.Repeat("x", chunks*server.CheckEvery) + `"}`
	rpcs := []struct {
		name  string
		call  func(context.Context, toolgatev1.ValidationServiceClient) error
		total int64 // the work of the whole request, in steps' units
	}{
		{"Validate", func(ctx context.Context, c toolgatev1.ValidationServiceClient) error {
			_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{
				Schema:    &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(`{"type":"object","properties":{"s":{"type":"string"}}}`)},
				Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: args}})
			return err
		}, int64(len(args))},
		{"CompileToolset", func(ctx context.Context, c toolgatev1.ValidationServiceClient) error {
			_, err := c.CompileToolset(ctx, toolsListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, toolsListOf(tools)))
			return err
		}, tools},
	}
	endings := []struct {
		name string
		want codes.Code
		// server lists the codes the server may end with: past a deadline,
		// the client's cancellation (sent as its deadline passed) can
		// reach the server before the server's own timer fires, which
		// counts from when the request arrived.
		server []codes.Code
		// begin returns the request's context; end is called once the
		// request has taken its first step.
		begin func(context.Context) (ctx context.Context, end func())
	}{
		{"deadline", codes.DeadlineExceeded, []codes.Code{codes.DeadlineExceeded, codes.Canceled}, func(parent context.Context) (context.Context, func()) {
			ctx, cancel := context.WithTimeout(parent, 200*time.Millisecond)
			return ctx, func() { t.Cleanup(cancel) }
		}},
		{"caller leaves", codes.Canceled, []codes.Code{codes.Canceled}, func(parent context.Context) (context.Context, func()) {
			return context.WithCancel(parent)
		}},
	}
	for _, rpc := range rpcs {
		for _, ending := range endings {
			t.Run(rpc.name+"/"+ending.name, func(t *testing.T) {
				t.Parallel()
				progress := newProgressRecorder()
				outcomes := make(chan error, 1)
				conn := startService(t, server.Config{MaxMessageBytes: 1 << 30, ServerOptions: []grpc.ServerOption{handlerOutcomes(outcomes)}},
					func(s *server.Service) { server.SetProgress(s, progress.step) })
				c := toolgatev1.NewValidationServiceClient(conn)
				ctx, end := ending.begin(t.Context())
				go func() {
					<-progress.first
					end()
				}()
				assert.Equal(t, ending.want, code(rpc.call(ctx, c)), "the client's status")
				select {
				case err := <-outcomes:
					assert.Contains(t, ending.server, code(err), "the server's status: %v", err)
				case <-time.After(10 * time.Second):
					t.Fatal("the handler did not return after its request ended")
				}
				steps, late := progress.recorded()
				require.Len(t, steps, 1, "no step after the one the request ended in")
				assert.Less(t, steps[0], rpc.total)
				assert.Zero(t, late)
			})
		}
	}
}

// TestEndedRequestsDoNoWork calls the Service directly with a context that
// has already ended: every unary RPC answers with its code and takes no
// step, and CompileSchema stores nothing.
func TestEndedRequestsDoNoWork(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	expired, cancelExpired := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancelExpired()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want codes.Code
	}{{"canceled", ctx, codes.Canceled}, {"deadline passed", expired, codes.DeadlineExceeded}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			progress := newProgressRecorder()
			srv, svc := server.NewGRPCServer(server.Config{})
			t.Cleanup(srv.Stop)
			server.SetProgress(svc, progress.step)
			_, err := svc.CompileSchema(c.ctx, compileJSON(todoSchema))
			assert.Equal(t, c.want, code(err), "CompileSchema")
			_, err = svc.Validate(c.ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(todoSchema)},
				Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"action":"list"}`}})
			assert.Equal(t, c.want, code(err), "Validate")
			_, err = svc.CompileToolset(c.ctx, toolsListRequest(toolgatev1.Profile_PROFILE_UNSPECIFIED, toolsListOf(3)))
			assert.Equal(t, c.want, code(err), "CompileToolset")
			steps, _ := progress.recorded()
			assert.Empty(t, steps)

			other, elsewhere := server.NewGRPCServer(server.Config{})
			t.Cleanup(other.Stop)
			compiled, err := elsewhere.CompileSchema(t.Context(), compileJSON(todoSchema))
			require.NoError(t, err)
			_, err = svc.Validate(t.Context(), &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: compiled.GetHandle()},
				Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
			assert.Equal(t, codes.NotFound, code(err), "nothing was compiled and stored")
		})
	}
}
