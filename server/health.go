package server

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
)

// drainingHealth is the server's grpc.health.v1.Health: grpc-go's health
// server, serving "" and toolgate.v1.ValidationService, whose Drain tells
// every checker that the server is leaving. grpc-go's Watch runs until its
// caller leaves, so on its own an open Watch (a client's health checking
// keeps one per replica) would hold GracefulStop for all of
// --shutdown-grace; after Drain each Watch sends NOT_SERVING and ends.
type drainingHealth struct {
	*health.Server
	served   map[string]bool // the service names it answers for, fixed from the start
	draining context.Context // done once Drain has run
	drain    context.CancelFunc
}

func newDrainingHealth() *drainingHealth {
	h := &drainingHealth{Server: health.NewServer()}
	h.draining, h.drain = context.WithCancel(context.Background())
	h.served = map[string]bool{"": true, toolgatev1.ValidationService_ServiceDesc.ServiceName: true}
	for name := range h.served {
		h.SetServingStatus(name, healthpb.HealthCheckResponse_SERVING)
	}
	return h
}

// Drain makes every service NOT_SERVING for good and ends every Watch,
// the ones to come included, each after it sent NOT_SERVING. Idempotent,
// as Shutdown and a CancelFunc are.
func (h *drainingHealth) Drain() {
	h.Shutdown()
	h.drain()
}

// unknownService is the name every Watch of a service the server does not
// serve is watched under.
const unknownService = "toolgate.health.unknown"

// Watch is grpc-go's, ended by Drain. A Watch of a service the server does
// not serve gets SERVICE_UNKNOWN and stays open, as the protocol says, but
// is watched under unknownService: grpc-go's keeps the name a Watch sent
// for as long as it is open, and health checks need no token, so without
// this anyone could pin a message's worth of name (4 MiB by default) per
// open Watch, a thousand per connection. No service the server does not
// serve from the start can become one it serves.
func (h *drainingHealth) Watch(req *healthpb.HealthCheckRequest, stream healthpb.Health_WatchServer) error {
	if !h.served[req.GetService()] {
		req = &healthpb.HealthCheckRequest{Service: unknownService}
	}
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	defer context.AfterFunc(h.draining, cancel)()
	err := h.Server.Watch(req, watchStream{stream, ctx})
	if h.draining.Err() == nil || stream.Context().Err() != nil {
		return err
	}
	// grpc-go's Watch may have ended on the cancel before it sent the
	// update Shutdown made: say it once more (the stream is still open).
	if err := stream.Send(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING}); err != nil {
		return err
	}
	return status.Error(codes.Unavailable, "the server is shutting down")
}

// watchStream is a Watch stream whose context Drain can end.
type watchStream struct {
	healthpb.Health_WatchServer
	ctx context.Context
}

func (s watchStream) Context() context.Context { return s.ctx }
