package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/toolgate/toolgate/server"
)

// logger returns the RPC logger, at --log-level, writing to w.
func (c *config) logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: c.level}))
}

// errTLSHalf refuses --tls-cert without --tls-key, or the reverse, in the
// server and in toolgate health: they name one key pair.
var errTLSHalf = errors.New("--tls-cert and --tls-key go together: give both")

// serverOptions returns TLS credentials when configured.
func (c *config) serverOptions() ([]grpc.ServerOption, error) {
	if c.tlsCert == "" && c.tlsKey == "" {
		if c.clientCA != "" {
			return nil, errors.New("--client-ca needs --tls-cert and --tls-key")
		}
		return nil, nil
	}
	if c.tlsCert == "" || c.tlsKey == "" {
		return nil, errTLSHalf
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
	if i := strings.IndexFunc(token, func(r rune) bool { return r < ' ' || r > '~' }); i >= 0 {
		// gRPC clients refuse to send such a header: every call would be
		// UNAUTHENTICATED while the probes, which need no token, pass.
		return "", fmt.Errorf("--token-file: %s holds a byte no client can send in an authorization header (byte %d: only printable ASCII can)", c.token, i)
	}
	return token, nil
}

// serve runs the server until the first of signals arrives, then drains
// for up to --shutdown-grace; a second signal ends the drain at once,
// closing the calls still in flight. The lines that say where it listens,
// that it is shutting down and that it closes calls are logged at every
// log level: an operator who asks for errors only still learns the
// address that --addr :0 picked, and that calls were cut.
func serve(signals <-chan os.Signal, c *config, stderr io.Writer) error {
	logger := c.logger(stderr)
	announce := slog.New(slog.NewTextHandler(stderr, nil))
	serverOpts, err := c.serverOptions()
	if err != nil {
		return err
	}
	token, err := c.bearerToken()
	if err != nil {
		return err
	}
	metrics, err := c.startMetrics(announce, logger)
	if err != nil {
		return err
	}
	defer metrics.stop()
	srv, svc := server.NewGRPCServer(server.Config{
		Options: c.opts, Logger: logger, BearerToken: token,
		MaxMessageBytes: c.maxMessageBytes, MaxConcurrentStreams: c.maxConcurrentStreams, MaxHeaderBytes: c.maxHeaderBytes, RPCWorkers: c.rpcWorkers, Keepalive: c.keepalive, ServerOptions: serverOpts,
		Metrics: metrics.metrics(),
	})
	lis, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	id := identity()
	announce.Info("listening", "addr", lis.Addr().String(), "tls", c.tlsCert != "", "auth", token != "",
		"version", id.Version, "revision", id.Revision)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	select {
	case err := <-served:
		return err
	case sig := <-signals:
		announce.Info("shutting down", "signal", sig.String(), "grace", c.shutdownGrace)
	}
	svc.Drain() // health says NOT_SERVING, and its Watches end
	drained := make(chan struct{})
	go func() {
		srv.GracefulStop()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(c.shutdownGrace):
		announce.Warn("grace period over; closing remaining calls")
		srv.Stop()
	case sig := <-signals:
		announce.Warn("second signal; closing remaining calls", "signal", sig.String())
		srv.Stop()
	}
	return nil
}
