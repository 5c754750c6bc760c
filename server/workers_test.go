package server_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// rpcWorkers counts the goroutines grpc-go keeps as stream workers, in
// every server of the process.
func rpcWorkers() int {
	buf := make([]byte, 8<<20)
	n := runtime.Stack(buf, true)
	return strings.Count(string(buf[:n]), "grpc.(*Server).serverWorker(")
}

// settledRPCWorkers waits until the process's worker count holds still
// for a while (the workers of a stopped server end soon after Stop) and
// returns it.
func settledRPCWorkers(t *testing.T) int {
	t.Helper()
	last, since := rpcWorkers(), time.Now()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if n := rpcWorkers(); n != last {
			last, since = n, time.Now()
		} else if time.Since(since) > 200*time.Millisecond {
			return n
		}
	}
	t.Fatalf("the worker count never settled (last %d)", last)
	return 0
}

// TestRPCWorkers checks how many goroutines Config.RPCWorkers keeps: one
// per CPU by default, none when negative, at most MaxRPCWorkers, and
// none once the server stops. Not parallel: it counts the goroutines of
// the whole process against those it found before starting its server,
// so no other test may start or stop one meanwhile.
func TestRPCWorkers(t *testing.T) {
	for _, tc := range []struct {
		workers, want int
	}{
		{0, runtime.GOMAXPROCS(0)},
		{3, 3},
		{-1, 0},
		{server.MaxRPCWorkers + 1, server.MaxRPCWorkers},
	} {
		before := settledRPCWorkers(t)
		srv, _ := server.NewGRPCServer(server.Config{RPCWorkers: tc.workers})
		require.Eventually(t, func() bool { return rpcWorkers() == before+tc.want }, 10*time.Second, 10*time.Millisecond,
			"RPCWorkers %d: %d workers, want %d", tc.workers, rpcWorkers()-before, tc.want)
		srv.Stop()
		require.Eventually(t, func() bool { return rpcWorkers() == before }, 10*time.Second, 10*time.Millisecond,
			"RPCWorkers %d: the workers outlive Stop", tc.workers)
	}
}

// TestRPCWorkersNeverQueueCalls checks that a call does not wait for a
// worker: with the only one held by an open ValidateStream, a unary
// Validate is answered at once.
func TestRPCWorkersNeverQueueCalls(t *testing.T) {
	t.Parallel()
	tg := toolgatev1.NewValidationServiceClient(start(t, server.Config{RPCWorkers: 1}))
	resp, err := tg.CompileSchema(t.Context(), compileJSON(todoSchema))
	require.NoError(t, err)
	s, err := tg.ValidateStream(t.Context())
	require.NoError(t, err)
	require.NoError(t, s.Send(startCall("held", "", resp.GetHandle())))
	require.NoError(t, s.Send(delta("held", `{"action":`)))

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	got, err := tg.Validate(ctx, &toolgatev1.ValidateRequest{
		Schema:    &toolgatev1.ValidateRequest_Handle{Handle: resp.GetHandle()},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"action":"list"}`},
	})
	require.NoError(t, err)
	require.True(t, got.GetValid(), "%v", got.GetErrors())

	require.NoError(t, s.Send(delta("held", `"add"}`)))
	require.NoError(t, s.Send(end("held")))
	r, err := s.Recv()
	require.NoError(t, err)
	require.True(t, r.GetResult().GetValid(), "%v", r.GetResult())
	require.NoError(t, s.CloseSend())
}
