//go:build soak

package server_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

var (
	soakDuration = flag.Duration("soak.duration", 30*time.Second, "how long TestSoak runs its load")
	soakWorkers  = flag.Int("soak.workers", 4, "how many unary and how many streaming workers TestSoak runs")
)

// soakSchemas are the schemas the load compiles, each with arguments that
// satisfy it and arguments that do not.
var soakSchemas = []struct{ schema, valid, invalid string }{
	{todoSchema, `{"action":"update","id":"7","status":"completed"}`, `{"action":"update","status":"done"}`},
	{`{"type":"object","properties":{"path":{"type":"string"},"n":{"type":"integer","minimum":1}},"required":["path"],"additionalProperties":false}`,
		`{"path":"/tmp/x","n":3}`, `{"path":"/tmp/x","n":0,"mode":"w"}`},
	{`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"q":{"type":"number"}},"required":["q"]}}}}`,
		`{"items":[{"q":1.5},{"q":-2}]}`, `{"items":[{"q":1.5},{"r":2}]}`},
}

// latencies collects the durations of one kind of operation.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

func (l *latencies) quantile(q float64) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return 0
	}
	d := slices.Clone(l.d)
	slices.Sort(d)
	return d[min(len(d)-1, int(q*float64(len(d))))]
}

// TestSoak runs mixed unary and streaming load against a real server on
// loopback TCP for -soak.duration: every call must succeed with the
// expected verdict, and afterwards the server's goroutines and heap must be
// back to what they were before the load. It reports p50 and p99 per kind
// of call. Run it with make soak (build tag soak); it is not part of make
// test.
func TestSoak(t *testing.T) {
	conn, err := grpc.NewClient(serveTCP(t, server.Config{}), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer func() { _ = conn.Close() }()
	c := toolgatev1.NewValidationServiceClient(conn)

	handles := make([]string, len(soakSchemas))
	for i, s := range soakSchemas {
		resp, err := c.CompileSchema(t.Context(), compileJSON(s.schema))
		require.NoError(t, err)
		require.NotEmpty(t, resp.GetHandle())
		handles[i] = resp.GetHandle()
	}
	// One round of each kind first, so that pools and the connection are
	// warm when the baseline is taken.
	require.NoError(t, soakUnary(t.Context(), c, handles, 0))
	require.NoError(t, soakStream(t.Context(), c, handles, 0))
	goroutines, heap := settle()

	kinds := map[string]*latencies{"unary": {}, "stream": {}}
	var errMu sync.Mutex
	var errs []error
	ctx, cancel := context.WithTimeout(t.Context(), *soakDuration)
	defer cancel()
	var wg sync.WaitGroup
	for w := range *soakWorkers {
		for kind, run := range map[string]func(context.Context, toolgatev1.ValidationServiceClient, []string, int) error{"unary": soakUnary, "stream": soakStream} {
			wg.Go(func() {
				for round := w; ctx.Err() == nil; round += *soakWorkers {
					start := time.Now()
					err := run(context.WithoutCancel(ctx), c, handles, round)
					kinds[kind].add(time.Since(start))
					if err != nil {
						errMu.Lock()
						errs = append(errs, fmt.Errorf("%s round %d: %w", kind, round, err))
						errMu.Unlock()
					}
				}
			})
		}
	}
	wg.Wait()
	for kind, what := range map[string]string{"unary": "1 CompileSchema and 4 Validate", "stream": "one ValidateStream of 6 calls"} {
		l := kinds[kind]
		t.Logf("%s rounds (%s): %d, %.0f/s, p50 %v, p99 %v", kind, what, len(l.d), float64(len(l.d))/soakDuration.Seconds(), l.quantile(0.5), l.quantile(0.99))
	}
	assert.Empty(t, errs, "every call succeeds with the expected verdict")

	after, heapAfter := settle()
	t.Logf("goroutines %d before the load, %d after; heap %d KiB before, %d KiB after", goroutines, after, heap>>10, heapAfter>>10)
	assert.LessOrEqual(t, after, goroutines, "goroutines are back to the baseline")
	assert.LessOrEqual(t, heapAfter, heap+heap/2+4<<20, "the heap is back near the baseline")
}

// settle collects garbage until the goroutine count stops falling (streams
// that just ended take a moment to unwind) and returns it with the heap in
// use.
func settle() (goroutines int, heap uint64) {
	goroutines = runtime.NumGoroutine()
	for range 50 {
		time.Sleep(20 * time.Millisecond)
		runtime.GC()
		n := runtime.NumGoroutine()
		if n >= goroutines {
			break
		}
		goroutines = n
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return goroutines, ms.HeapAlloc
}

// soakUnary is one round of unary calls: a compile, then valid and invalid
// arguments by handle and inline, checking each verdict.
func soakUnary(ctx context.Context, c toolgatev1.ValidationServiceClient, handles []string, round int) error {
	i := round % len(soakSchemas)
	s := soakSchemas[i]
	compiled, err := c.CompileSchema(ctx, compileJSON(s.schema))
	if err != nil {
		return err
	}
	if compiled.GetHandle() != handles[i] {
		return fmt.Errorf("handle %q, want %q", compiled.GetHandle(), handles[i])
	}
	for _, arg := range []struct {
		json  string
		valid bool
	}{{s.valid, true}, {s.invalid, false}} {
		byHandle, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: handles[i]},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: arg.json}})
		if err != nil {
			return err
		}
		inline, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(s.schema)},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: arg.json}})
		if err != nil {
			return err
		}
		if byHandle.GetValid() != arg.valid || inline.GetValid() != arg.valid {
			return fmt.Errorf("%s: valid %v by handle and %v inline, want %v", arg.json, byHandle.GetValid(), inline.GetValid(), arg.valid)
		}
	}
	return nil
}

// soakStream is one stream: every schema bound as a tool, one valid and
// one invalid call per tool, each fed in two deltas, and then the stream
// closed; every call must get its verdict.
func soakStream(ctx context.Context, c toolgatev1.ValidationServiceClient, handles []string, round int) error {
	s, err := c.ValidateStream(ctx)
	if err != nil {
		return err
	}
	tools := map[string]string{}
	for i, h := range handles {
		tools[fmt.Sprintf("tool%d", i)] = h
	}
	reqs := []*toolgatev1.ValidateStreamRequest{askReceipt(), {Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: &toolgatev1.StreamBind{Tools: tools}}}}
	want := map[string]bool{}
	for i, sch := range soakSchemas {
		for _, arg := range []struct {
			json  string
			valid bool
		}{{sch.valid, true}, {sch.invalid, false}} {
			id := fmt.Sprintf("r%d-t%d-%v", round, i, arg.valid)
			want[id] = arg.valid
			cut := len(arg.json) / 2
			reqs = append(reqs,
				&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{CallId: id, ToolName: fmt.Sprintf("tool%d", i)}}},
				&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Delta{Delta: &toolgatev1.CallDelta{CallId: id, Fragment: arg.json[:cut]}}},
				&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Delta{Delta: &toolgatev1.CallDelta{CallId: id, Fragment: arg.json[cut:]}}},
				&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_End{End: &toolgatev1.CallEnd{CallId: id}}})
		}
	}
	for _, r := range reqs {
		if err := s.Send(r); err != nil {
			return err
		}
	}
	if err := s.CloseSend(); err != nil {
		return err
	}
	results := 0
	for {
		resp, err := s.Recv()
		if err != nil {
			return err // io.EOF too: the receipt comes first
		}
		if end := resp.GetEnd(); end != nil {
			if end.GetEvents() != int64(len(reqs)) || end.GetResults() != int64(results) {
				return fmt.Errorf("receipt %v for %d events and %d results", end, len(reqs), results)
			}
			if _, err := s.Recv(); !errors.Is(err, io.EOF) {
				return fmt.Errorf("after the receipt: %v", err)
			}
			break
		}
		results++
		r := resp.GetResult()
		valid, ok := want[r.GetCallId()]
		if !ok || r.GetValid() != valid {
			return fmt.Errorf("call %q: valid %v (%v)", r.GetCallId(), r.GetValid(), r.GetErrors())
		}
		delete(want, r.GetCallId())
	}
	if len(want) > 0 {
		return fmt.Errorf("no result for %d calls", len(want))
	}
	return nil
}
