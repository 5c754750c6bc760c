package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"

	"github.com/toolgate/toolgate/client"
)

// roundRobin is the service config of a client that spreads its calls over
// every address its resolver gives, as over the pods of a headless Service.
const roundRobin = `{"loadBalancingConfig": [{"round_robin": {}}]}`

// replicaCalls returns how many Validate calls a replica has answered with
// code, from its metrics.
func replicaCalls(t *testing.T, p *process, code string) float64 {
	t.Helper()
	_, scrape := httpGet(t, "http://"+p.metricsAddr+"/metrics")
	v, _ := sample(scrape, `grpc_server_handled_total{grpc_code="`+code+`",grpc_method="Validate",grpc_service="toolgate.v1.ValidationService",grpc_type="unary"}`)
	return v
}

// TestReplicasRestartedOneAtATime runs three replicas of the real binary on
// loopback behind one round_robin Go client, with callers validating
// continuously, and restarts the replicas one at a time (SIGTERM, drain,
// start again on the same port, with an empty store). Every call succeeds:
// a draining replica finishes its calls and refuses new ones, which the
// client sends to the others; a restarted replica answers NOT_FOUND for the
// handle, and the Validator re-sends the schema inline.
func TestReplicasRestartedOneAtATime(t *testing.T) {
	t.Parallel()
	const replicas = 3
	args := []string{"--metrics-addr", "127.0.0.1:0", "--shutdown-grace", "5s", "--log-level", "warn"}
	procs := make([]*process, replicas)
	var addrs []resolver.Address
	for i := range procs {
		procs[i] = startBinary(t, args...)
		addrs = append(addrs, resolver.Address{Addr: procs[i].addr})
	}
	r := manual.NewBuilderWithScheme("replicas")
	r.InitialState(resolver.State{Addresses: addrs})
	c, err := client.Dial("replicas:///toolgate", client.WithInsecure(),
		client.WithDialOptions(grpc.WithResolvers(r), grpc.WithDefaultServiceConfig(roundRobin)))
	require.NoError(t, err)
	defer c.Close()
	v := c.Validator()
	handle, _, err := v.Register(t.Context(), `{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}`)
	require.NoError(t, err)

	var calls, failures atomic.Int64
	var firstFailure sync.Once
	var failure error
	stop := make(chan struct{})
	var callers sync.WaitGroup
	for w := range 4 {
		callers.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				args, want := `{"n":1}`, true
				if (w+i)%2 == 1 {
					args, want = `{"n":0}`, false
				}
				resp, err := v.Validate(t.Context(), handle, args)
				calls.Add(1)
				if err == nil && resp.GetValid() != want {
					err = fmt.Errorf("%s: valid = %v", args, resp.GetValid())
				}
				if err != nil {
					failures.Add(1)
					firstFailure.Do(func() { failure = err })
				}
			}
		})
	}

	// waitServed waits until p has answered more Validate calls than it had.
	waitServed := func(p *process) {
		t.Helper()
		before := replicaCalls(t, p, "OK")
		deadline := time.Now().Add(30 * time.Second)
		for replicaCalls(t, p, "OK") <= before {
			require.True(t, time.Now().Before(deadline), "replica %s gets calls", p.addr)
			time.Sleep(50 * time.Millisecond)
		}
	}
	for _, p := range procs {
		waitServed(p)
	}
	for i, p := range procs {
		require.NoError(t, p.stop(t), "replica %d drains and exits cleanly", i)
		procs[i] = startBinary(t, append(args, "--addr", p.addr)...)
		waitServed(procs[i])
	}
	close(stop)
	callers.Wait()

	require.Zero(t, failures.Load(), "of %d calls, the first failure: %v", calls.Load(), failure)
	assert.Greater(t, calls.Load(), int64(100))
	for i, p := range procs {
		assert.Positive(t, replicaCalls(t, p, "NotFound"), "restarted replica %d did not hold the handle, and said so", i)
	}
}
