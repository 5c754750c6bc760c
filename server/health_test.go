package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/toolgate/toolgate/server"
)

// TestDrainEndsHealthWatches: after Service.Drain, a health Check answers
// NOT_SERVING, and each Watch, one open before and one begun after, gets
// NOT_SERVING and then ends (UNAVAILABLE): grpc-go's Watch runs until its
// caller leaves, so an open one held GracefulStop for the whole
// --shutdown-grace, and its checker never heard that the replica left.
func TestDrainEndsHealthWatches(t *testing.T) {
	t.Parallel()
	var svc *server.Service
	hc := healthpb.NewHealthClient(startService(t, server.Config{}, func(s *server.Service) { svc = s }))
	const name = "toolgate.v1.ValidationService"
	before, err := hc.Watch(t.Context(), &healthpb.HealthCheckRequest{Service: name})
	require.NoError(t, err)
	first, err := before.Recv()
	require.NoError(t, err)
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, first.GetStatus())

	svc.Drain()
	svc.Drain() // idempotent
	after, err := hc.Watch(t.Context(), &healthpb.HealthCheckRequest{Service: name})
	require.NoError(t, err)
	for what, w := range map[string]healthpb.Health_WatchClient{"open before": before, "begun after": after} {
		var statuses []healthpb.HealthCheckResponse_ServingStatus
		for {
			r, err := w.Recv()
			if err != nil {
				assert.Equal(t, codes.Unavailable, code(err), "%s: %v", what, err)
				break
			}
			statuses = append(statuses, r.GetStatus())
		}
		require.NotEmpty(t, statuses, what)
		assert.Equal(t, healthpb.HealthCheckResponse_NOT_SERVING, statuses[len(statuses)-1], "%s: its last word", what)
	}
	for _, service := range []string{"", name} {
		resp, err := hc.Check(t.Context(), &healthpb.HealthCheckRequest{Service: service})
		require.NoError(t, err)
		assert.Equal(t, healthpb.HealthCheckResponse_NOT_SERVING, resp.GetStatus(), "%q", service)
	}
}

// TestHealthWatchHoldsNoName: a Watch of a service the server does not
// serve gets SERVICE_UNKNOWN and stays open, but holds nothing of the name
// it sent: health checks need no token, and grpc-go's Watch kept each name
// for as long as its Watch was open, so open Watches of megabyte names
// pinned a megabyte each. (Not parallel, so that the heap is this test's.)
func TestHealthWatchHoldsNoName(t *testing.T) {
	hc := healthpb.NewHealthClient(start(t, server.Config{BearerToken: "secret"}))
	const watches, nameBytes = 16, 1 << 20
	name := strings.Repeat("n", nameBytes)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	before := heapNow()
	for range watches {
		w, err := hc.Watch(ctx, &healthpb.HealthCheckRequest{Service: name})
		require.NoError(t, err)
		r, err := w.Recv()
		require.NoError(t, err)
		require.Equal(t, healthpb.HealthCheckResponse_SERVICE_UNKNOWN, r.GetStatus())
	}
	grown := int64(heapNow()) - int64(before)
	assert.Less(t, grown, int64(watches*nameBytes/4), "heap bytes held by %d open Watches of %d-byte names", watches, nameBytes)
}
