package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/server"
)

// TestFlagDefaults: with no flags and no environment, every limit has its
// documented default.
func TestFlagDefaults(t *testing.T) {
	c, err := parseFlags(nil)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:50051", c.addr)
	assert.Equal(t, "info", c.logLevel)
	assert.Equal(t, server.DefaultMaxMessageBytes, c.maxMessageBytes)
	assert.Zero(t, c.rpcWorkers, "one per CPU")
	assert.Equal(t, server.DefaultMaxConcurrentStreams, c.maxConcurrentStreams)
	assert.Equal(t, server.DefaultMaxHeaderBytes, c.maxHeaderBytes)
	assert.Equal(t, server.Options{MaxDepth: 128, MaxFindings: 100, MaxFindingMessage: server.DefaultMaxFindingMessage,
		MaxAnswerBytes: server.DefaultMaxAnswerBytes, MaxCompilingBytes: server.DefaultMaxCompilingBytes, StoreEntries: server.DefaultStoreEntries,
		StoreBytes: server.DefaultStoreBytes, MaxCallsPerStream: 1024, MaxCallBytes: 4 << 20, MaxToolsPerStream: 1024, MaxUnnamedCallBytes: server.DefaultMaxUnnamedCallBytes, MaxStreamSchemaBytes: server.DefaultMaxStreamSchemaBytes,
		MaxCallStateBytes: 16 << 20, MaxStreamStateBytes: 64 << 20, MaxOpenStateBytes: 512 << 20, MaxNameBytes: 1 << 10, MaxProviderPlaces: 1024, MaxToolsetTools: 1024,
		StreamIdleTimeout: server.DefaultStreamIdleTimeout, StreamSendTimeout: server.DefaultStreamSendTimeout, MaxRequestTime: server.DefaultMaxRequestTime, MaxWidth: schema.DefaultMaxWidth, MaxSchemaBytes: schema.DefaultMaxBytes,
		MaxSchemaDepth: schema.DefaultSchemaDepth, MaxSchemaNodes: schema.DefaultMaxNodes, MaxSchemaRefs: schema.DefaultMaxRefs,
		MaxPatternSteps: schema.DefaultMaxPatternSteps, MaxPatternBytes: schema.DefaultMaxPatternBytes, MaxMultipleOfDigits: schema.DefaultMaxMultipleOfDigits,
		MaxPatternNesting: 1000, MaxPatternProgram: 10_000, MaxPatternAutomatonBytes: 2 << 20, MaxPatternAutomatonSteps: 10_000_000,
		MaxPatternSetParts: 8, MaxSchemaPathRatio: 64}, c.opts)
	assert.Equal(t, server.Keepalive{MinTime: server.DefaultKeepaliveMinTime, Time: server.DefaultKeepaliveTime,
		Timeout: server.DefaultKeepaliveTimeout}, c.keepalive)
	assert.Equal(t, 10*time.Second, c.shutdownGrace)
}

// TestFlagEnvironmentFallbacks: TOOLGATE_* variables set every flag, and a
// flag on the command line wins over its variable.
func TestFlagEnvironmentFallbacks(t *testing.T) {
	t.Setenv("TOOLGATE_ADDR", "0.0.0.0:9000")
	t.Setenv("TOOLGATE_MAX_DEPTH", "7")
	t.Setenv("TOOLGATE_MAX_FINDINGS", "3")
	t.Setenv("TOOLGATE_STORE_BYTES", "1024")
	t.Setenv("TOOLGATE_STREAM_IDLE_TIMEOUT", "30s")
	t.Setenv("TOOLGATE_STREAM_SEND_TIMEOUT", "2s")
	t.Setenv("TOOLGATE_LOG_LEVEL", "debug")
	t.Setenv("TOOLGATE_MAX_ANSWER_BYTES", "4096")
	t.Setenv("TOOLGATE_KEEPALIVE_MIN_TIME", "15s")
	t.Setenv("TOOLGATE_MAX_WIDTH", "50")
	t.Setenv("TOOLGATE_RPC_WORKERS", "-1")
	t.Setenv("TOOLGATE_MAX_PATTERN_STEPS", "5000")
	t.Setenv("TOOLGATE_MAX_CALL_STATE_BYTES", "65536")
	t.Setenv("TOOLGATE_MAX_PROVIDER_PLACES", "16")
	c, err := parseFlags([]string{"--max-depth", "9", "--keepalive-time", "2m"})
	require.NoError(t, err)
	assert.Equal(t, "0.0.0.0:9000", c.addr)
	assert.Equal(t, 9, c.opts.MaxDepth, "the flag wins")
	assert.Equal(t, 3, c.opts.MaxFindings)
	assert.Equal(t, int64(1024), c.opts.StoreBytes)
	assert.Equal(t, 30*time.Second, c.opts.StreamIdleTimeout)
	assert.Equal(t, 2*time.Second, c.opts.StreamSendTimeout)
	assert.Equal(t, "debug", c.logLevel)
	assert.Equal(t, 4096, c.opts.MaxAnswerBytes)
	assert.Equal(t, 15*time.Second, c.keepalive.MinTime)
	assert.Equal(t, 50, c.opts.MaxWidth)
	assert.Equal(t, -1, c.rpcWorkers)
	assert.Equal(t, 5000, c.opts.MaxPatternSteps)
	assert.Equal(t, int64(65536), c.opts.MaxCallStateBytes)
	assert.Equal(t, 16, c.opts.MaxProviderPlaces)
	assert.Equal(t, 2*time.Minute, c.keepalive.Time)
}

func TestFlagErrors(t *testing.T) {
	for name, env := range map[string][2]string{
		"not a number":   {"TOOLGATE_MAX_DEPTH", "deep"},
		"not a duration": {"TOOLGATE_SHUTDOWN_GRACE", "soon"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(env[0], env[1])
			_, err := parseFlags(nil)
			assert.ErrorContains(t, err, env[0])
		})
	}
	_, err := parseFlags([]string{"stray"})
	assert.ErrorContains(t, err, "unexpected arguments")
	_, err = parseFlags([]string{"--log-level", "loud"})
	assert.ErrorContains(t, err, `--log-level: slog: level string "loud"`)
	var c *config
	for _, args := range [][]string{{"--tls-cert", "cert.pem"}, {"--tls-key", "key.pem"}} {
		// It said "TLS key pair: open : no such file or directory".
		c, err = parseFlags(args)
		require.NoError(t, err)
		_, err = c.serverOptions()
		assert.EqualError(t, err, "--tls-cert and --tls-key go together: give both", "%v", args)
	}
	c, err = parseFlags([]string{"--client-ca", "ca.pem"})
	require.NoError(t, err)
	_, err = c.serverOptions()
	assert.ErrorContains(t, err, "--client-ca needs")
}

// TestFlagLimitsMustMeanSomething: a limit of zero or less, or past what
// it can mean, is a usage error, not a silent default (zero fell back to
// it) or a silent wrap (gRPC takes 32-bit numbers: 4294967296 streams
// meant no limit, and as many header bytes refused every call); from the
// environment too. The flags for which zero or less means something keep
// it.
func TestFlagLimitsMustMeanSomething(t *testing.T) {
	for _, args := range [][]string{
		{"--max-depth", "0"},
		{"--max-concurrent-streams", "-5"},
		{"--max-message-bytes", "-1"},
		{"--max-calls-per-stream", "0"},
		{"--stream-send-timeout", "-1s"},
		{"--max-request-time", "0s"},
		{"--keepalive-time", "0s"},
		{"--max-concurrent-streams", "4294967296"},
		{"--max-header-bytes", "4294967296"},
		{"--max-pattern-program", "99999999"},
		{"--max-width", "0"},
		{"--max-provider-places", "0"},
		{"--rpc-workers", "5000"}, // kept 1,024 without a word
	} {
		_, err := parseFlags(args)
		var ue usageError
		require.ErrorAs(t, err, &ue, "%v", args)
		assert.ErrorContains(t, err, args[0], "%v", args)
	}
	t.Run("an empty address", func(t *testing.T) {
		// It listened on every interface, on a random port.
		t.Setenv("TOOLGATE_ADDR", "")
		_, err := parseFlags(nil)
		var ue usageError
		require.ErrorAs(t, err, &ue)
		assert.ErrorContains(t, err, "--addr is empty")
		_, err = parseFlags([]string{"--addr", ""})
		require.ErrorAs(t, err, &ue)
	})
	t.Run("an address that is no host:port", func(t *testing.T) {
		// It failed only at net.Listen, exit 1, as if it could not start.
		for _, addr := range []string{" ", "127.0.0.1", "::1"} {
			_, err := parseFlags([]string{"--addr", addr})
			var ue usageError
			require.ErrorAs(t, err, &ue, "%q", addr)
			assert.ErrorContains(t, err, "give host:port", "%q", addr)
		}
	})
	t.Run("an empty security flag", func(t *testing.T) {
		// An empty variable from a template turned the protection off:
		// TOOLGATE_TOKEN_FILE= served without a token, TLS_CERT= plaintext.
		for _, name := range []string{"token-file", "tls-cert", "tls-key", "client-ca"} {
			var ue usageError
			t.Run(name, func(t *testing.T) {
				t.Setenv(envName(name), "")
				_, err := parseFlags(nil)
				require.ErrorAs(t, err, &ue)
				assert.ErrorContains(t, err, "--"+name+" (or "+envName(name)+") is set but empty")
			})
			_, err := parseFlags([]string{"--" + name, ""})
			require.ErrorAs(t, err, &ue, name)
		}
	})
	t.Run("from the environment", func(t *testing.T) {
		t.Setenv("TOOLGATE_MAX_NAME_BYTES", "-1")
		_, err := parseFlags(nil)
		assert.ErrorContains(t, err, "--max-name-bytes is -1: a limit must be positive")
	})

	c, err := parseFlags([]string{"--rpc-workers", "-1", "--shutdown-grace", "0s", "--max-concurrent-streams", "4294967295"})
	require.NoError(t, err)
	assert.Equal(t, -1, c.rpcWorkers)
	assert.Zero(t, c.shutdownGrace)
	c, err = parseFlags([]string{"--rpc-workers", "1024"})
	require.NoError(t, err)
	assert.Equal(t, 1024, c.rpcWorkers)
}

// TestTokenFileMustBeSendable: a token a gRPC client cannot send (a
// control byte or a byte past ASCII inside it) is refused at startup; the
// server used to start, pass its probes (health needs no token) and
// answer every call UNAUTHENTICATED. White space around it is trimmed.
func TestTokenFileMustBeSendable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i, tc := range []struct {
		text, want string // want "" : accepted as that token
		token      string
	}{
		{text: "s3cret\n", token: "s3cret"},
		{text: "  a b  \r\n", token: "a b"},
		{text: "a\nb\n", want: "byte 1"},
		{text: "\xff\xfe\n", want: "byte 0"},
		{text: "tök\n", want: "byte 1"},
	} {
		path := filepath.Join(dir, fmt.Sprint("token", i))
		require.NoError(t, os.WriteFile(path, []byte(tc.text), 0o600))
		token, err := (&config{token: path}).bearerToken()
		if tc.want == "" {
			require.NoError(t, err, "%q", tc.text)
			assert.Equal(t, tc.token, token)
			continue
		}
		assert.ErrorContains(t, err, "holds a byte no client can send", "%q", tc.text)
		assert.ErrorContains(t, err, tc.want, "%q", tc.text)
	}
}
