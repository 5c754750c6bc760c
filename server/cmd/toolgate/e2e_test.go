package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
)

// readmeAddr is the address the README's commands use.
const readmeAddr = "127.0.0.1:50051"

// process is the real toolgate binary, serving on a free loopback port.
type process struct {
	cmd    *exec.Cmd
	addr   string
	stderr *bytes.Buffer
	done   chan error
}

// startBinary builds server/cmd/toolgate and starts it with args.
func startBinary(t *testing.T, args ...string) *process {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "toolgate")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	cmd := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &process{cmd: cmd, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	addrLine := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			p.stderr.WriteString(line + "\n")
			if m := regexp.MustCompile(`msg=listening addr=(\S+)`).FindStringSubmatch(line); m != nil {
				addrLine <- m[1]
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	select {
	case p.addr = <-addrLine:
	case <-time.After(30 * time.Second):
		t.Fatalf("toolgate did not report its address; stderr:\n%s", p.stderr)
	}
	return p
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
// with the pinned grpcurl (built by make tools) against the real binary and compares the output
// with the README's, byte for byte.
func TestREADMEWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; run without -short")
	}
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
	if testing.Short() {
		t.Skip("builds the binary; run without -short")
	}
	p := startBinary(t, "--shutdown-grace", "5s")
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-p.done:
		assert.NoError(t, err, "exit status after SIGTERM; stderr:\n%s", p.stderr)
		p.done <- err // for the cleanup
	case <-time.After(10 * time.Second):
		t.Fatal("toolgate did not exit after SIGTERM")
	}
	assert.Contains(t, p.stderr.String(), "shutting down")
}
