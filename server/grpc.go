package server

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
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
	// RESOURCE_EXHAUSTED. It bounds the JSON text a schema_struct or an
	// arguments_struct renders to as well (RESOURCE_EXHAUSTED past it), as
	// it bounds the *_json fields: a Struct's JSON can be some 6 times its
	// wire size. Default 4 MiB.
	MaxMessageBytes int
	// MaxConcurrentStreams bounds the RPCs one connection may have in
	// flight (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS): a client past it
	// waits for one of them to end. grpc-go's own default is unlimited, so
	// that one connection could hold any number of handlers and their
	// messages (each up to MaxMessageBytes). Default
	// DefaultMaxConcurrentStreams.
	MaxConcurrentStreams int
	// MaxHeaderBytes bounds the header list of each received request (its
	// metadata, HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE); a client that sends
	// more gets its call refused before any handler runs. grpc-go's own
	// default is 16 MiB a request. Default DefaultMaxHeaderBytes.
	MaxHeaderBytes int
	// Keepalive sets the HTTP/2 keepalive pings the server allows and sends.
	Keepalive Keepalive
	// RPCWorkers is how many goroutines are kept to serve RPCs (grpc-go's
	// stream workers): 0 means one per usable CPU (GOMAXPROCS), a negative
	// number none. A kept goroutine keeps the stack it grew, where a new
	// goroutine per RPC grows its stack again each time: about a tenth of
	// the CPU a unary Validate costs over loopback, and 15% of a health
	// check's (docs/BENCHMARKS.md). When every worker is busy (a long
	// ValidateStream holds one for its life), an RPC gets a goroutine of
	// its own, so workers never queue or limit calls. At most MaxRPCWorkers
	// are kept.
	RPCWorkers int
	// ServerOptions are appended (TLS credentials, ...); they win over the
	// options NewGRPCServer derives.
	ServerOptions []grpc.ServerOption
	// Metrics, when set, records the server's RPC and domain metrics (see
	// Metrics); nil records none.
	Metrics *Metrics
}

// DefaultMaxMessageBytes is the receive limit when Config sets none.
const DefaultMaxMessageBytes = 4 << 20

// DefaultMaxConcurrentStreams is Config.MaxConcurrentStreams's default:
// room for a runtime that runs a thousand model streams over one channel,
// four times Go's own HTTP/2 server default (250).
const DefaultMaxConcurrentStreams = 1000

// DefaultMaxHeaderBytes is Config.MaxHeaderBytes's default: room for a
// bearer token, a traceparent and the metadata clients send, far below
// grpc-go's 16 MiB.
const DefaultMaxHeaderBytes = 16 << 10

// MaxRPCWorkers bounds Config.RPCWorkers: goroutines kept beyond what the
// CPUs can run only hold memory.
const MaxRPCWorkers = 1024

// Keepalive configures HTTP/2 keepalive. Zero fields take the defaults
// listed.
type Keepalive struct {
	// MinTime is the shortest interval at which a client may ping, also on
	// a connection with no call in flight; a client that pings more often
	// gets GOAWAY "too_many_pings" and its calls fail UNAVAILABLE. Default
	// DefaultKeepaliveMinTime (5 s): half the 10 s that clients commonly
	// set (and the least grpc-go clients allow), so their pings never come
	// too early. grpc-go's own default, 5 minutes, closed the idle streams
	// of clients pinging every 10 s after about 30 s.
	MinTime time.Duration
	// Time is how long a connection may be silent before the server pings
	// the client. Default DefaultKeepaliveTime (1 minute); grpc-go allows no
	// less than 1 s.
	Time time.Duration
	// Timeout is how long the server waits for the answer to a ping before
	// it closes the connection, ending its calls. Default
	// DefaultKeepaliveTimeout (20 s).
	Timeout time.Duration
}

// Defaults for Keepalive.
const (
	DefaultKeepaliveMinTime = 5 * time.Second
	DefaultKeepaliveTime    = time.Minute
	DefaultKeepaliveTimeout = 20 * time.Second
)

// serverOptions returns the keepalive policy and parameters.
func (k Keepalive) serverOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: orDefault(k.MinTime, DefaultKeepaliveMinTime), PermitWithoutStream: true}),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: orDefault(k.Time, DefaultKeepaliveTime), Timeout: orDefault(k.Timeout, DefaultKeepaliveTimeout)}),
	}
}

// rpcWorkers resolves RPCWorkers to grpc-go's NumStreamWorkers, where 0
// means none.
func (cfg Config) rpcWorkers() uint32 {
	switch {
	case cfg.RPCWorkers < 0:
		return 0
	case cfg.RPCWorkers == 0:
		return uint32(min(runtime.GOMAXPROCS(0), MaxRPCWorkers))
	}
	return uint32(min(cfg.RPCWorkers, MaxRPCWorkers))
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// NewGRPCServer returns a grpc.Server serving the ValidationService, the
// standard health service (SERVING for "" and the service name) and
// reflection. Interceptors run logging outermost, then the cut of error
// messages (statusCut), then authentication, then panic recovery (a panic
// becomes INTERNAL and is logged). A request that
// cannot be decoded (invalid UTF-8 in a string field) is INVALID_ARGUMENT,
// not grpc-go's INTERNAL (see decodeErrors). The server keeps its RPC
// workers (Config.RPCWorkers) from the start, serving or not: Stop it when
// done.
func NewGRPCServer(cfg Config) (*grpc.Server, *Service) {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	maxMsg := cfg.MaxMessageBytes
	if maxMsg <= 0 {
		maxMsg = DefaultMaxMessageBytes
	}
	maxStreams := cfg.MaxConcurrentStreams
	if maxStreams <= 0 {
		maxStreams = DefaultMaxConcurrentStreams
	}
	maxHeader := cfg.MaxHeaderBytes
	if maxHeader <= 0 {
		maxHeader = DefaultMaxHeaderBytes
	}
	// gRPC takes both as 32-bit numbers: past them is as many as it can.
	maxStreams, maxHeader = min(maxStreams, math.MaxUint32), min(maxHeader, math.MaxUint32)
	logOpts := []logging.Option{logging.WithLogOnEvents(logging.FinishCall)}
	recoverOpts := []recovery.Option{recovery.WithRecoveryHandlerContext(func(ctx context.Context, p any) error {
		logger.ErrorContext(ctx, "panic in handler", "panic", p)
		return status.Error(codes.Internal, "internal error")
	})}
	svc := NewService(cfg.Options)
	svc.maxStructBytes = maxMsg // a Struct's JSON text may be no longer than a *_json field
	cfg.Metrics.record(svc)
	auth := bearerAuth(cfg.BearerToken)
	cut := statusCut(svc.opts.MaxFindingMessage)
	decode := newDecodeErrors()
	svc.decode = decode
	opts := append([]grpc.ServerOption{
		grpc.MaxRecvMsgSize(maxMsg),
		grpc.MaxConcurrentStreams(uint32(maxStreams)),
		grpc.MaxHeaderListSize(uint32(maxHeader)),
		grpc.NumStreamWorkers(cfg.rpcWorkers()),
		grpc.ForceServerCodecV2(decode),
		grpc.ChainUnaryInterceptor(
			logging.UnaryServerInterceptor(slogAdapter(logger), logOpts...),
			cut.unary,
			auth.unary,
			requestTimeLimit(svc.opts.MaxRequestTime),
			recovery.UnaryServerInterceptor(recoverOpts...),
		),
		grpc.ChainStreamInterceptor(
			logging.StreamServerInterceptor(slogAdapter(logger), logOpts...),
			cut.stream,
			auth.stream,
			recovery.StreamServerInterceptor(recoverOpts...),
		),
	}, cfg.Keepalive.serverOptions()...)
	opts = append(opts, cfg.ServerOptions...)
	opts = append(cfg.Metrics.serverOptions(), opts...) // outermost
	// NewServer starts the RPC workers, so what can panic (cfg.Metrics
	// serving a second server) came first.
	srv := grpc.NewServer(opts...)
	srv.RegisterService(decode.wrap(&toolgatev1.ValidationService_ServiceDesc), svc)
	svc.health = newDrainingHealth()
	srv.RegisterService(decode.wrap(&healthpb.Health_ServiceDesc), svc.health)
	reflection.Register(srv)
	cfg.Metrics.serve(srv)
	return srv, svc
}

// statusCut bounds the message of every error status a call ends with to
// that many bytes (Options.MaxFindingMessage), cut as a finding's is: an
// error may quote what the request sent (a handle, an id, a URI), and
// neither the answer nor the log line should grow with it.
type statusCut int

func (n statusCut) bound(err error) error {
	st, ok := status.FromError(err)
	if !ok || len(st.Message()) <= int(n) {
		return err
	}
	return status.Error(st.Code(), cutMessage(st.Message(), int(n)))
}

func (n statusCut) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	return resp, n.bound(err)
}

func (n statusCut) stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return n.bound(handler(srv, ss))
}

func slogAdapter(l *slog.Logger) logging.Logger {
	return logging.LoggerFunc(func(ctx context.Context, lvl logging.Level, msg string, fields ...any) {
		l.Log(ctx, slog.Level(lvl), msg, fields...)
	})
}

// bearerAuth checks the bearer token, which a request must carry in one
// authorization value; an empty token admits everyone.
type bearerAuth string

func (a bearerAuth) check(ctx context.Context, method string) error {
	if a == "" || strings.HasPrefix(method, "/grpc.health.v1.Health/") {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	// One authorization value exactly: several would let one request try
	// many tokens, and which one a proxy forwards is anyone's guess.
	if v := md.Get("authorization"); len(v) == 1 {
		scheme, token, ok := strings.Cut(v[0], " ")
		if ok && strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare([]byte(token), []byte(a)) == 1 {
			return nil
		}
	}
	return status.Error(codes.Unauthenticated, "a valid bearer token is required, in one authorization header")
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
