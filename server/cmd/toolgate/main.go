// Command toolgate serves toolgate.v1.ValidationService over gRPC.
//
// Every flag can also be set by an environment variable named TOOLGATE_
// and the flag's name in upper case with dashes as underscores (--max-depth
// is TOOLGATE_MAX_DEPTH); a flag on the command line wins. The server logs
// "listening" with the bound address once it is ready, answers health checks
// with SERVING from then on, and on SIGINT or SIGTERM stops taking calls and
// drains those in flight for up to --shutdown-grace.
//
// "toolgate check [--profile P] [--summary] FILE..." checks schema files and
// MCP tools/list results offline instead of serving: it prints each finding
// with its pointer into the file and exits 0 (everything compiles), 1
// (something is unsupported or malformed) or 2 (usage or I/O error); see
// "toolgate check -h".
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/toolgate/toolgate/server"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "check" {
		os.Exit(runCheck(os.Args[2:], os.Stdout, os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h printed the usage
		}
		fmt.Fprintln(os.Stderr, "toolgate:", err)
		os.Exit(1)
	}
}

// config is the command line, after environment fallbacks.
type config struct {
	addr, logLevel                   string
	tlsCert, tlsKey, clientCA, token string
	maxMessageBytes                  int
	opts                             server.Options
	shutdownGrace                    time.Duration
}

// parseFlags reads args with TOOLGATE_* environment fallbacks.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("toolgate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{}
	var envErr error
	str := func(p *string, name, def, usage string) {
		fs.StringVar(p, name, envString(name, def), usage)
	}
	num := func(p *int, name string, def int, usage string) {
		v, err := envInt(name, def)
		envErr = errors.Join(envErr, err)
		fs.IntVar(p, name, v, usage)
	}
	num64 := func(p *int64, name string, def int64, usage string) {
		v, err := envInt(name, int(def))
		envErr = errors.Join(envErr, err)
		fs.Int64Var(p, name, int64(v), usage)
	}
	str(&c.addr, "addr", "127.0.0.1:50051", "address to listen on (host:port; port 0 picks a free one)")
	str(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	str(&c.tlsCert, "tls-cert", "", "PEM certificate file; with --tls-key, serve TLS")
	str(&c.tlsKey, "tls-key", "", "PEM private key file for --tls-cert")
	str(&c.clientCA, "client-ca", "", "PEM CA file; with TLS, require client certificates it signed (mTLS)")
	str(&c.token, "token-file", "", "file holding a bearer token every caller must send")
	num(&c.maxMessageBytes, "max-message-bytes", server.DefaultMaxMessageBytes, "largest request message, in bytes")
	num(&c.opts.MaxDepth, "max-depth", 128, "deepest nesting of arguments")
	num(&c.opts.MaxFindings, "max-findings", 100, "most findings in one answer")
	num(&c.opts.StoreEntries, "store-entries", server.DefaultStoreEntries, "most compiled schemas kept")
	num64(&c.opts.StoreBytes, "store-bytes", server.DefaultStoreBytes, "most bytes of compiled schemas kept (canonical JSON length)")
	num(&c.opts.MaxCallsPerStream, "max-calls-per-stream", 1024, "most calls one ValidateStream may start")
	num64(&c.opts.MaxCallBytes, "max-call-bytes", 4<<20, "most argument bytes of one streamed call")
	num(&c.opts.MaxToolsPerStream, "max-tools-per-stream", 1024, "most tool names one ValidateStream may bind")
	dur := func(p *time.Duration, name, def, usage string) {
		v, err := time.ParseDuration(envString(name, def))
		if err != nil {
			envErr = errors.Join(envErr, fmt.Errorf("%s: %w", envName(name), err))
		}
		fs.DurationVar(p, name, v, usage)
	}
	dur(&c.shutdownGrace, "shutdown-grace", "10s", "how long SIGTERM waits for calls in flight")
	dur(&c.opts.StreamIdleTimeout, "stream-idle-timeout", "5m", "end a ValidateStream that sends nothing for this long")
	dur(&c.opts.StreamSendTimeout, "stream-send-timeout", "30s", "end a ValidateStream whose client leaves a result unread this long")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if envErr != nil {
		return nil, envErr
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	return c, nil
}

func envName(flagName string) string {
	return "TOOLGATE_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func envString(flagName, def string) string {
	if v, ok := os.LookupEnv(envName(flagName)); ok {
		return v
	}
	return def
}

func envInt(flagName string, def int) (int, error) {
	v, ok := os.LookupEnv(envName(flagName))
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return def, fmt.Errorf("%s: %q is not a whole number", envName(flagName), v)
	}
	return n, nil
}

func (c *config) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), nil
}

// serverOptions returns TLS credentials when configured.
func (c *config) serverOptions() ([]grpc.ServerOption, error) {
	if c.tlsCert == "" && c.tlsKey == "" {
		if c.clientCA != "" {
			return nil, errors.New("--client-ca needs --tls-cert and --tls-key")
		}
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(c.tlsCert, c.tlsKey)
	if err != nil {
		return nil, fmt.Errorf("TLS key pair: %w", err)
	}
	tc := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if c.clientCA != "" {
		pem, err := os.ReadFile(c.clientCA)
		if err != nil {
			return nil, fmt.Errorf("--client-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--client-ca: no PEM certificates in %s", c.clientCA)
		}
		tc.ClientCAs, tc.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	return []grpc.ServerOption{grpc.Creds(credentials.NewTLS(tc))}, nil
}

func (c *config) bearerToken() (string, error) {
	if c.token == "" {
		return "", nil
	}
	b, err := os.ReadFile(c.token)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("--token-file: %s is empty", c.token)
	}
	return token, nil
}

// run serves until ctx is done, then drains.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logger, err := c.logger(stderr)
	if err != nil {
		return err
	}
	serverOpts, err := c.serverOptions()
	if err != nil {
		return err
	}
	token, err := c.bearerToken()
	if err != nil {
		return err
	}
	srv, _ := server.NewGRPCServer(server.Config{
		Options: c.opts, Logger: logger, BearerToken: token,
		MaxMessageBytes: c.maxMessageBytes, ServerOptions: serverOpts,
	})
	lis, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	logger.Info("listening", "addr", lis.Addr().String(), "tls", c.tlsCert != "", "auth", token != "")
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", "grace", c.shutdownGrace)
	drained := make(chan struct{})
	go func() {
		srv.GracefulStop()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(c.shutdownGrace):
		logger.Warn("grace period over; closing remaining calls")
		srv.Stop()
	}
	return nil
}
