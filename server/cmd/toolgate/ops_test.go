package main

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/client"
	"github.com/toolgate/toolgate/internal/fixtures"
)

// runBinary runs the built binary to its end with extra environment
// variables and returns its exit status and output.
func runBinary(t *testing.T, env []string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(toolgateBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return status, out.String(), errOut.String()
}

// TestListeningLoggedAtEveryLevel: the bound address is logged whatever
// --log-level says, and the RPC log lines follow the level.
func TestListeningLoggedAtEveryLevel(t *testing.T) {
	t.Parallel()
	for _, level := range []string{"debug", "info", "warn", "error"} {
		t.Run(level, func(t *testing.T) {
			t.Parallel()
			p := startBinary(t, "--log-level", level) // waits for the address
			status, stdout, _ := runBinary(t, nil, "health", "--addr", p.addr)
			require.Equal(t, exitOK, status, stdout)
			require.NoError(t, p.stop(t))
			assert.Regexp(t, `level=INFO msg=listening addr=127\.0\.0\.1:\d+ `, p.log())
			assert.Contains(t, p.log(), "msg=\"shutting down\"")
			if level == "debug" || level == "info" {
				assert.Contains(t, p.log(), "grpc.method=Check", "an RPC log line at %s", level)
			} else {
				assert.NotContains(t, p.log(), "grpc.method=Check", "no RPC log line at %s", level)
			}
		})
	}
}

// sample finds a sample's value in a scrape, on its line "name{labels} value".
func sample(scrape, name string) (float64, bool) {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindStringSubmatch(scrape)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// metricValue is a sample's value; the scrape must have it.
func metricValue(t *testing.T, scrape, name string) float64 {
	t.Helper()
	v, ok := sample(scrape, name)
	require.True(t, ok, "no sample %s in the scrape", name)
	return v
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

// TestMetricsEndpoint scrapes the binary's --metrics-addr over HTTP: the
// counters move with the calls made, and pprof is there only with --pprof.
func TestMetricsEndpoint(t *testing.T) {
	t.Parallel()
	p := startBinary(t, "--metrics-addr", "127.0.0.1:0", "--pprof")
	require.NotEmpty(t, p.metricsAddr, "the metrics address is logged")
	metricsURL := "http://" + p.metricsAddr + "/metrics"
	const verdicts = `toolgate_verdicts_total{code="VALIDATION",profile="tool_input",rpc="Validate"}`
	const handled = `grpc_server_handled_total{grpc_code="OK",grpc_method="Validate",grpc_service="toolgate.v1.ValidationService",grpc_type="unary"}`
	status, before := httpGet(t, metricsURL)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, 0.0, metricValue(t, before, handled), "methods start at zero")

	c, err := client.Dial(p.addr, client.WithInsecure())
	require.NoError(t, err)
	defer c.Close()
	v := c.Validator()
	for range 3 {
		resp, err := v.ValidateSchema(t.Context(), `{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`, `{"n":0}`)
		require.NoError(t, err)
		require.False(t, resp.GetValid())
	}
	_, after := httpGet(t, metricsURL)
	earlier, _ := sample(before, verdicts) // a labelled counter appears once it counts
	assert.Equal(t, 3.0, metricValue(t, after, verdicts)-earlier)
	assert.Equal(t, 3.0, metricValue(t, after, handled))
	assert.Positive(t, metricValue(t, after, `toolgate_store_entries`))
	assert.Positive(t, metricValue(t, after, `go_goroutines`))

	status, index := httpGet(t, "http://"+p.metricsAddr+"/debug/pprof/")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, index, "goroutine")
	status, _ = httpGet(t, "http://"+p.metricsAddr+"/debug/pprof/heap?debug=1")
	assert.Equal(t, http.StatusOK, status)

	plain := startBinary(t, "--metrics-addr", "127.0.0.1:0")
	status, _ = httpGet(t, "http://"+plain.metricsAddr+"/debug/pprof/")
	assert.Equal(t, http.StatusNotFound, status, "no pprof without --pprof")
	status, _ = httpGet(t, "http://"+plain.metricsAddr+"/metrics")
	assert.Equal(t, http.StatusOK, status)

	status, _, stderr := runBinary(t, nil, "--pprof")
	assert.Equal(t, exitFailed, status)
	assert.Contains(t, stderr, "--pprof needs --metrics-addr")
}

// TestHealthCommand runs toolgate health against a running server, as a
// container health check would: SERVING exits 0, and anything else,
// including no server, exits 1.
func TestHealthCommand(t *testing.T) {
	t.Parallel()
	p := startBinary(t)
	_, port, err := net.SplitHostPort(p.addr)
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		env    []string
		args   []string
		status int
		stdout string
		stderr string
	}{
		{"the flag", nil, []string{"--addr", p.addr}, exitOK, "SERVING\n", ""},
		{"the server's variable, unspecified host", []string{"TOOLGATE_ADDR=0.0.0.0:" + port}, nil, exitOK, "SERVING\n", ""},
		{"the server's variable, no host", []string{"TOOLGATE_ADDR=:" + port}, nil, exitOK, "SERVING\n", ""},
		{"the service", nil, []string{"--addr", p.addr, "--service", "toolgate.v1.ValidationService"}, exitOK, "SERVING\n", ""},
		{"an unknown service", nil, []string{"--addr", p.addr, "--service", "no.Such"}, exitFailed, "", "NotFound"},
		{"a stray argument", nil, []string{"now"}, exitUsage, "", "unexpected arguments"},
		{"a bad address", nil, []string{"--addr", "nowhere"}, exitFailed, "", `--addr "nowhere"`},
		{"a certificate without its key", []string{"TOOLGATE_TLS_CERT=cert.pem"}, nil, exitUsage, "", "--tls-cert and --tls-key go together"},
		{"a key without its certificate", nil, []string{"--tls-key", "key.pem"}, exitUsage, "", "--tls-cert and --tls-key go together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, stdout, stderr := runBinary(t, tc.env, append([]string{"health"}, tc.args...)...)
			assert.Equal(t, tc.status, status, stderr)
			assert.Equal(t, tc.stdout, stdout)
			assert.Contains(t, stderr, tc.stderr)
		})
	}
	require.NoError(t, p.stop(t))
	status, _, stderr := runBinary(t, nil, "health", "--addr", p.addr, "--timeout", "300ms")
	assert.Equal(t, exitFailed, status, "no server")
	assert.Contains(t, stderr, "DeadlineExceeded")
}

// TestHealthCommandTLS: with the server's certificate the probe speaks
// TLS and trusts that certificate only.
func TestHealthCommandTLS(t *testing.T) {
	t.Parallel()
	cert, key := fixtures.SelfSignedPEM(t, t.TempDir(), "toolgate.internal")
	other, otherKey := fixtures.SelfSignedPEM(t, t.TempDir(), "toolgate.internal")
	p := startBinary(t, "--tls-cert", cert, "--tls-key", key)
	status, stdout, stderr := runBinary(t, []string{"TOOLGATE_TLS_CERT=" + cert, "TOOLGATE_TLS_KEY=" + key}, "health", "--addr", p.addr)
	assert.Equal(t, exitOK, status, stderr)
	assert.Equal(t, "SERVING\n", stdout)

	status, _, stderr = runBinary(t, nil, "health", "--addr", p.addr, "--tls-cert", other, "--tls-key", otherKey, "--timeout", "2s")
	assert.Equal(t, exitFailed, status, "another certificate is not trusted")
	assert.Contains(t, stderr, "did not present the certificate of --tls-cert")
	status, _, _ = runBinary(t, nil, "health", "--addr", p.addr, "--timeout", "500ms")
	assert.Equal(t, exitFailed, status, "plaintext against TLS")
}

// TestVersionFromLdflags: a build without VCS information (the image's)
// reports the ldflags variables.
func TestVersionFromLdflags(t *testing.T) {
	t.Parallel()
	bin := toolgateBinary(t, "-buildvcs=false", "-ldflags=-X main.version=v9.8.7 -X main.revision=0123abcd -X main.revisionTime=2026-12-01T09:22:00Z")
	out, err := exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	assert.Regexp(t, `^toolgate v9\.8\.7, revision 0123abcd \(2026-12-01T09:22:00Z\), go1\.\S+ \S+/\S+\n$`, string(out))
}

// TestVersionFromVCS: a build from a git checkout reports its revision and
// commit time (and "modified" for a work tree with changes).
func TestVersionFromVCS(t *testing.T) {
	t.Parallel()
	root := fixtures.RepoRoot(t)
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout, so no VCS revision to compare with: %v", err)
	}
	if info, err := os.Stat(filepath.Join(root, ".git")); err != nil || !info.IsDir() {
		t.Skip("go stamps VCS information only where .git is a folder, and here it is not (a git worktree)")
	}
	out, err := exec.Command(toolgateBinary(t, "-buildvcs=true"), "--version").Output()
	require.NoError(t, err)
	rev := strings.TrimSpace(string(head))
	// The version is a pseudo-version that go derives from the commit (with
	// +dirty for a modified work tree), or (devel).
	assert.Regexp(t, `^toolgate \S+, revision `+rev+` \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ(, modified)?\), go1\.\S+ \S+/\S+\n$`, string(out))
}

// TestMetricsListenerTimeouts: the metrics listener bounds every wait a
// connection can make it do — its headers, its whole request, the idle
// time before its next request (without IdleTimeout nothing bounds that:
// 500 connections that each made one request stayed open, a goroutine and
// a file descriptor each, for as long as they liked) and the time to take
// an answer.
func TestMetricsListenerTimeouts(t *testing.T) {
	t.Parallel()
	discard := slog.New(slog.DiscardHandler)
	ms, err := (&config{metricsAddr: "127.0.0.1:0"}).startMetrics(discard, discard)
	require.NoError(t, err)
	defer ms.stop()
	for name, d := range map[string]time.Duration{
		"ReadHeaderTimeout": ms.srv.ReadHeaderTimeout, "ReadTimeout": ms.srv.ReadTimeout,
		"IdleTimeout": ms.srv.IdleTimeout, "WriteTimeout": ms.srv.WriteTimeout,
	} {
		assert.Positive(t, d, name)
		assert.LessOrEqual(t, d, 2*time.Minute, name)
	}
}
