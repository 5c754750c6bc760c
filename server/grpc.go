package server

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"strings"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
)

// Config wires a grpc.Server around a Service.
type Config struct {
	// Service options: limits and store size.
	Options Options
	// Logger receives one line per RPC; nil discards them.
	Logger *slog.Logger
	// BearerToken, when set, must be sent by every caller as the
	// "authorization: Bearer <token>" metadata (the scheme name in any
	// case); health checks are exempt, reflection is not.
	// Wrong or missing tokens get UNAUTHENTICATED.
	BearerToken string
	// MaxMessageBytes bounds each received message; larger ones get
	// RESOURCE_EXHAUSTED. Default 4 MiB.
	MaxMessageBytes int
	// ServerOptions are appended (TLS credentials, keepalive, ...).
	ServerOptions []grpc.ServerOption
	// Metrics, when set, records the server's RPC and domain metrics (see
	// Metrics); nil records none.
	Metrics *Metrics
}

// DefaultMaxMessageBytes is the receive limit when Config sets none.
const DefaultMaxMessageBytes = 4 << 20

// NewGRPCServer returns a grpc.Server serving the ValidationService, the
// standard health service (SERVING for "" and the service name) and
// reflection. Interceptors run logging outermost, then authentication, then
// panic recovery (a panic becomes INTERNAL and is logged).
func NewGRPCServer(cfg Config) (*grpc.Server, *Service) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	maxMsg := cfg.MaxMessageBytes
	if maxMsg <= 0 {
		maxMsg = DefaultMaxMessageBytes
	}
	logOpts := []logging.Option{logging.WithLogOnEvents(logging.FinishCall)}
	recoverOpts := []recovery.Option{recovery.WithRecoveryHandlerContext(func(ctx context.Context, p any) error {
		logger.ErrorContext(ctx, "panic in handler", "panic", p)
		return status.Error(codes.Internal, "internal error")
	})}
	auth := bearerAuth(cfg.BearerToken)
	opts := append([]grpc.ServerOption{
		grpc.MaxRecvMsgSize(maxMsg),
		grpc.ChainUnaryInterceptor(
			logging.UnaryServerInterceptor(slogAdapter(logger), logOpts...),
			auth.unary,
			recovery.UnaryServerInterceptor(recoverOpts...),
		),
		grpc.ChainStreamInterceptor(
			logging.StreamServerInterceptor(slogAdapter(logger), logOpts...),
			auth.stream,
			recovery.StreamServerInterceptor(recoverOpts...),
		),
	}, cfg.ServerOptions...)
	opts = append(cfg.Metrics.serverOptions(), opts...) // outermost
	srv := grpc.NewServer(opts...)
	svc := NewService(cfg.Options)
	toolgatev1.RegisterValidationServiceServer(srv, svc)
	hs := health.NewServer()
	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	hs.SetServingStatus(toolgatev1.ValidationService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(srv, hs)
	reflection.Register(srv)
	cfg.Metrics.serve(srv, svc)
	return srv, svc
}

func slogAdapter(l *slog.Logger) logging.Logger {
	return logging.LoggerFunc(func(ctx context.Context, lvl logging.Level, msg string, fields ...any) {
		l.Log(ctx, slog.Level(lvl), msg, fields...)
	})
}

// bearerAuth checks the bearer token; an empty token admits everyone.
type bearerAuth string

func (a bearerAuth) check(ctx context.Context, method string) error {
	if a == "" || strings.HasPrefix(method, "/grpc.health.v1.Health/") {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	for _, v := range md.Get("authorization") {
		scheme, token, ok := strings.Cut(v, " ")
		if ok && strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(token), []byte(a)) == 1 {
			return nil
		}
	}
	return status.Error(codes.Unauthenticated, "a valid bearer token is required")
}

func (a bearerAuth) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err := a.check(ctx, info.FullMethod); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

func (a bearerAuth) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if err := a.check(ss.Context(), info.FullMethod); err != nil {
		return err
	}
	return handler(srv, ss)
}
