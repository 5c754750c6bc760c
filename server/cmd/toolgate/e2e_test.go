package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/toolgate/toolgate/client"
	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/fixtures"
)

// readmeAddr is the address the README's commands use.
const readmeAddr = "127.0.0.1:50051"

// process is the real toolgate binary, serving.
type process struct {
	cmd         *exec.Cmd
	addr        string // the gRPC address it logged
	metricsAddr string // the metrics address it logged, or ""
	exited      chan struct{}
	err         error // cmd.Wait's result, once exited is closed

	mu     sync.Mutex
	stderr strings.Builder
}

var (
	listeningLine = regexp.MustCompile(`msg=listening addr=(\S+)`)
	metricsLine   = regexp.MustCompile(`msg="serving metrics" addr=(\S+)`)
)

// startBinary starts the built server/cmd/toolgate with args, on a free
// loopback port unless args name an --addr, and waits for its "listening"
// line.
func startBinary(t *testing.T, args ...string) *process {
	t.Helper()
	return startProcess(t, nil, args...)
}

// startProcess is startBinary with extra environment variables.
func startProcess(t *testing.T, env []string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(toolgateBinary(t), append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &process{cmd: cmd, exited: make(chan struct{})}
	addrLine := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.stderr.WriteString(line + "\n")
			p.mu.Unlock()
			if m := metricsLine.FindStringSubmatch(line); m != nil {
				p.metricsAddr = m[1] // before the listening line, so before addrLine
			}
			if m := listeningLine.FindStringSubmatch(line); m != nil {
				addrLine <- m[1]
			}
		}
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.exited
	})
	select {
	case p.addr = <-addrLine:
	case <-p.exited:
		t.Fatalf("toolgate exited before listening (%v); stderr:\n%s", p.err, p.log())
	case <-time.After(30 * time.Second):
		t.Fatalf("toolgate did not report its address; stderr:\n%s", p.log())
	}
	return p
}

// log returns what the process has written to stderr so far.
func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// stop sends SIGTERM and returns the exit error once the process is gone.
func (p *process) stop(t *testing.T) error {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.exited:
		return p.err
	case <-time.After(30 * time.Second):
		t.Fatalf("toolgate did not exit after SIGTERM; stderr:\n%s", p.log())
		return nil
	}
}

// consoleCommand is one "$ command" of a README console block and the output
// shown after it.
type consoleCommand struct {
	command, output string
}

// readmeCommands returns the commands of the README's console blocks.
func readmeCommands(t *testing.T) []consoleCommand {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures.RepoRoot(t), "README.md"))
	require.NoError(t, err)
	var cmds []consoleCommand
	var cur *consoleCommand
	inBlock, heredoc := false, ""
	flush := func() {
		if cur != nil {
			cmds = append(cmds, *cur)
			cur = nil
		}
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		switch {
		case !inBlock:
			inBlock = line == "```console"
		case heredoc != "":
			cur.command += "\n" + line
			if line == heredoc {
				heredoc = ""
			}
		case line == "```":
			flush()
			inBlock = false
		case strings.HasPrefix(line, "$ "):
			flush()
			cur = &consoleCommand{command: strings.TrimPrefix(line, "$ ")}
			if m := regexp.MustCompile(`<<'(\w+)'$`).FindStringSubmatch(line); m != nil {
				heredoc = m[1]
			}
		default:
			cur.output += line + "\n"
		}
	}
	return cmds
}

// TestREADMEWalkthrough runs every command of the README's console blocks
// with the pinned grpcurl (which make tools builds) against the real binary
// and compares the output with the README's, byte for byte.
func TestREADMEWalkthrough(t *testing.T) {
	grpcurl := fixtures.Tool(t, "grpcurl", "GRPCURL_VERSION")
	p := startBinary(t)
	cmds := readmeCommands(t)
	require.GreaterOrEqual(t, len(cmds), 8, "the walkthrough has list, describe, compile, validate, unsupported, violation, not found and streaming")
	for i, c := range cmds {
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			require.True(t, strings.HasPrefix(c.command, "grpcurl "), "README console commands are grpcurl calls: %s", c.command)
			script := grpcurl + strings.TrimPrefix(strings.ReplaceAll(c.command, readmeAddr, p.addr), "grpcurl")
			out, _ := exec.Command("bash", "-c", script).CombinedOutput()
			assert.Equal(t, c.output, string(out), "README command:\n%s", c.command)
		})
	}
}

// TestSIGTERMDrains checks that the binary answers health checks, then exits
// cleanly on SIGTERM.
func TestSIGTERMDrains(t *testing.T) {
	p := startBinary(t, "--shutdown-grace", "5s")
	assert.NoError(t, p.stop(t), "exit status after SIGTERM; stderr:\n%s", p.log())
	assert.Contains(t, p.log(), "shutting down")
}

// TestHealthWatchDoesNotHoldTheDrain: with no call in flight but a
// client's health Watch (client-side health checking keeps one per
// replica), SIGTERM tells the watcher NOT_SERVING and the drain ends at
// once, not after --shutdown-grace with "closing remaining calls".
func TestHealthWatchDoesNotHoldTheDrain(t *testing.T) {
	t.Parallel()
	p := startBinary(t, "--shutdown-grace", "10m")
	conn, err := grpc.NewClient(p.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second) // bounds the wait below when the drain fails
	defer cancel()
	w, err := healthpb.NewHealthClient(conn).Watch(ctx, &healthpb.HealthCheckRequest{Service: "toolgate.v1.ValidationService"})
	require.NoError(t, err)
	first, err := w.Recv()
	require.NoError(t, err)
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, first.GetStatus())
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	var last healthpb.HealthCheckResponse_ServingStatus
	for {
		r, err := w.Recv()
		if err != nil {
			break
		}
		last = r.GetStatus()
	}
	assert.Equal(t, healthpb.HealthCheckResponse_NOT_SERVING, last, "the watcher heard the replica is leaving")
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("a health Watch held the drain; stderr:\n%s", p.log())
	}
	assert.NoError(t, p.err)
	assert.NotContains(t, p.log(), "grace period over", "a health Watch is no call to wait for")
}

// TestSecondSignalEndsTheDrain checks that a drain waits for a stream in
// flight, and that a second SIGTERM closes it at once instead of after
// --shutdown-grace.
func TestSecondSignalEndsTheDrain(t *testing.T) {
	t.Parallel()
	p := startBinary(t, "--shutdown-grace", "10m")
	c, err := client.Dial(p.addr, client.WithInsecure())
	require.NoError(t, err)
	defer c.Close()
	stream, err := c.ServiceClient().ValidateStream(t.Context())
	require.NoError(t, err)
	// A call of a tool the stream did not bind is answered at once, and
	// the stream stays open.
	start := &toolgatev1.CallStart{CallId: "c1", ToolName: "unbound"}
	require.NoError(t, stream.Send(&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Start{Start: start}}))
	res, err := stream.Recv()
	require.NoError(t, err)
	require.Equal(t, "c1", res.GetResult().GetCallId())

	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	require.Eventually(t, func() bool { return strings.Contains(p.log(), "shutting down") }, 30*time.Second, 10*time.Millisecond)
	select {
	case <-p.exited:
		t.Fatalf("exited with a stream in flight; stderr:\n%s", p.log())
	case <-time.After(300 * time.Millisecond):
	}
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("toolgate did not exit after a second SIGTERM; stderr:\n%s", p.log())
	}
	assert.NoError(t, p.err, "a forced end is still a clean exit")
	assert.Contains(t, p.log(), "second signal; closing remaining calls")
	_, err = stream.Recv()
	assert.Error(t, err, "the stream was closed")
}
