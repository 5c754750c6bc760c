package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

const healthUsage = `Usage: toolgate health [flags]

Asks a running toolgate's gRPC health service (grpc.health.v1.Health/Check)
whether it is SERVING, as a container health check does (the image's
HEALTHCHECK runs it). Exit status: 0 when SERVING; 1 when not, or when the
server cannot be reached in time; 2 for a usage error.

It reads the server's own TOOLGATE_ADDR, TOOLGATE_TLS_CERT and
TOOLGATE_TLS_KEY, so inside the server's container it needs no flags. An
unspecified host (0.0.0.0, [::] or none, as in :50051) is dialled on
loopback. With a certificate it speaks TLS, trusts exactly that certificate
and presents it as its client certificate (which a --client-ca server
accepts when that CA signed it and the certificate allows client
authentication: extended key usage clientAuth, or none).

Flags:
`

// healthFlags are the flags of toolgate health.
type healthFlags struct {
	addr, tlsCert, tlsKey, service string
	timeout                        time.Duration
}

// healthWithoutEnvironment lists the health flags that have no TOOLGATE_*
// variable: the others share the server's.
var healthWithoutEnvironment = []string{"service", "timeout"}

func newHealthFlags(h *healthFlags, output io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("toolgate health", flag.ContinueOnError)
	fs.SetOutput(output)
	fs.Usage = func() {}
	fs.StringVar(&h.addr, "addr", "127.0.0.1:50051", "the server's address")
	fs.StringVar(&h.tlsCert, "tls-cert", "", "the server's PEM certificate; with --tls-key, speak TLS")
	fs.StringVar(&h.tlsKey, "tls-key", "", "the private key of --tls-cert")
	fs.StringVar(&h.service, "service", "", `the service to ask about; "" is the whole server`)
	fs.DurationVar(&h.timeout, "timeout", 3*time.Second, "how long to wait for the answer")
	return fs
}

// runHealth is "toolgate health": it returns the exit status.
func runHealth(args []string, stdout, stderr io.Writer) int {
	var h healthFlags
	fs := newHealthFlags(&h, stderr)
	usage := func(w io.Writer) {
		fmt.Fprint(w, healthUsage)
		printFlags(w, newHealthFlags(&healthFlags{}, io.Discard), healthWithoutEnvironment...)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return exitOK
		}
		usage(stderr)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "toolgate health: unexpected arguments; run 'toolgate help health'")
		return exitUsage
	}
	if err := applyEnvironment(fs, healthWithoutEnvironment...); err != nil {
		fmt.Fprintln(stderr, "toolgate health:", err)
		return exitUsage
	}
	if (h.tlsCert == "") != (h.tlsKey == "") {
		fmt.Fprintln(stderr, "toolgate health:", errTLSHalf)
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(context.Background(), h.timeout)
	defer cancel()
	status, err := h.check(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "toolgate health:", err)
		return exitFailed
	}
	fmt.Fprintln(stdout, status)
	if status != healthpb.HealthCheckResponse_SERVING {
		return exitFailed
	}
	return exitOK
}

// check asks the health service once.
func (h *healthFlags) check(ctx context.Context) (healthpb.HealthCheckResponse_ServingStatus, error) {
	creds, err := h.credentials()
	if err != nil {
		return 0, err
	}
	target, err := dialAddr(h.addr)
	if err != nil {
		return 0, err
	}
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: h.service}, grpc.WaitForReady(true))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", target, err)
	}
	return resp.GetStatus(), nil
}

// credentials are plaintext, or TLS pinned to the server's own certificate.
func (h *healthFlags) credentials() (credentials.TransportCredentials, error) {
	if h.tlsCert == "" && h.tlsKey == "" {
		return insecure.NewCredentials(), nil
	}
	pair, err := tls.LoadX509KeyPair(h.tlsCert, h.tlsKey)
	if err != nil {
		return nil, fmt.Errorf("TLS key pair: %w", err)
	}
	return credentials.NewTLS(&tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{pair},
		// The server is known exactly: accept its certificate and no other,
		// whatever names it carries.
		InsecureSkipVerify: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 || !bytes.Equal(raw[0], pair.Certificate[0]) {
				return errors.New("the server did not present the certificate of --tls-cert")
			}
			return nil
		},
	}), nil
}

// dialAddr turns a listening address into one to dial: an unspecified or
// empty host becomes loopback.
func dialAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
