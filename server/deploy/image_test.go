package deploy

import (
	"bytes"
	"crypto/rand"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
)

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	keyword string // upper case: FROM, RUN, ...
	args    string
}

// parseDockerfile splits a Dockerfile into its instructions, skipping
// comments and blank lines and joining lines that end in a backslash.
func parseDockerfile(src string) []instruction {
	var out []instruction
	var cur strings.Builder
	for line := range strings.SplitSeq(src, "\n") {
		trimmed := strings.TrimSpace(line)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasSuffix(trimmed, `\`) {
			cur.WriteString(strings.TrimSuffix(trimmed, `\`) + " ")
			continue
		}
		cur.WriteString(trimmed)
		keyword, args, _ := strings.Cut(cur.String(), " ")
		out = append(out, instruction{strings.ToUpper(keyword), strings.TrimSpace(args)})
		cur.Reset()
	}
	return out
}

// stages splits instructions at each FROM.
func stages(ins []instruction) [][]instruction {
	var out [][]instruction
	for _, in := range ins {
		if in.keyword == "FROM" {
			out = append(out, nil)
		}
		if len(out) > 0 {
			out[len(out)-1] = append(out[len(out)-1], in)
		}
	}
	return out
}

func find(stage []instruction, keyword string) []instruction {
	var out []instruction
	for _, in := range stage {
		if in.keyword == keyword {
			out = append(out, in)
		}
	}
	return out
}

func readDockerfile(t *testing.T) (root string, ins []instruction) {
	t.Helper()
	root = fixtures.RepoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "server", "deploy", "Dockerfile"))
	require.NoError(t, err)
	return root, parseDockerfile(string(data))
}

// TestDockerfile checks the image's shape without building it: two
// stages, a Go toolchain of go.mod's version, a static binary on
// distroless (or scratch) as a non-root user, health through the binary.
func TestDockerfile(t *testing.T) {
	t.Parallel()
	root, ins := readDockerfile(t)
	st := stages(ins)
	require.Len(t, st, 2, "a build stage and the image")
	build, image := st[0], st[1]

	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	goLine := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(goMod)
	require.NotNil(t, goLine)
	var goVersionArg string
	for _, in := range ins {
		if in.keyword == "ARG" && strings.HasPrefix(in.args, "GO_VERSION=") {
			goVersionArg = strings.TrimPrefix(in.args, "GO_VERSION=")
		}
	}
	assert.Equal(t, string(goLine[1]), goVersionArg, "the build stage's Go is go.mod's")
	assert.Equal(t, "golang:${GO_VERSION} AS build", build[0].args)

	assert.Regexp(t, `^(gcr\.io/distroless/static[-\w]*:nonroot|scratch)$`, image[0].args, "a static base with no shell and no package manager")
	user := find(image, "USER")
	require.Len(t, user, 1)
	assert.Regexp(t, `^[1-9]\d*:[1-9]\d*$`, user[0].args, "a numeric non-root user and group, so runAsNonRoot can check it")
	assert.Equal(t, []instruction{{"COPY", "--from=build /out/toolgate /toolgate"}}, find(image, "COPY"))
	assert.Equal(t, []instruction{{"ENTRYPOINT", `["/toolgate"]`}}, find(image, "ENTRYPOINT"))

	health := find(image, "HEALTHCHECK")
	require.Len(t, health, 1)
	_, cmd, found := strings.Cut(health[0].args, "CMD ")
	require.True(t, found)
	var argv []string
	require.NoError(t, json.Unmarshal([]byte(cmd), &argv), "exec form: distroless has no shell")
	assert.Equal(t, []string{"/toolgate", "health"}, argv[:2])

	env := find(image, "ENV")
	require.Len(t, env, 1)
	addr := strings.TrimPrefix(env[0].args, "TOOLGATE_ADDR=")
	assert.Equal(t, "0.0.0.0:50051", addr, "listen on the container's interfaces")
	assert.Equal(t, []instruction{{"EXPOSE", "50051"}}, find(image, "EXPOSE"), "the port of TOOLGATE_ADDR")
}

// buildLine returns the build stage's go build command line.
func buildLine(t *testing.T, ins []instruction) string {
	t.Helper()
	for _, in := range stages(ins)[0] {
		if in.keyword == "RUN" && strings.Contains(in.args, "go build") {
			return in.args
		}
	}
	t.Fatal("the build stage has no RUN ... go build")
	return ""
}

// TestDockerfileBuildsAStaticBinary runs the build stage's go build line
// on this machine, as the image's shell would (its ARGs in the
// environment), and checks that it makes a static executable that reports
// the version it was given.
func TestDockerfileBuildsAStaticBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary; run without -short")
	}
	root, ins := readDockerfile(t)
	line := buildLine(t, ins)
	require.Contains(t, line, "CGO_ENABLED=0")
	require.Contains(t, line, " -o /out/toolgate ")
	bin := filepath.Join(t.TempDir(), "toolgate")
	cmd := exec.Command("/bin/sh", "-c", strings.Replace(line, " -o /out/toolgate ", " -o "+bin+" ", 1))
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "VERSION=v0.0.0-image-test", "REVISION=0123abcd", "REVISION_TIME=2026-12-01T09:22:00Z")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s\n%s", line, out)

	f, err := elf.Open(bin)
	require.NoError(t, err)
	defer f.Close()
	for _, p := range f.Progs {
		assert.NotEqual(t, elf.PT_INTERP, p.Type, "a static binary has no dynamic loader")
	}
	libs, err := f.ImportedLibraries()
	require.NoError(t, err)
	assert.Empty(t, libs, "a static binary needs no shared library")
	assert.Nil(t, f.Section(".symtab"), "-s strips the symbol table")

	version, err := exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	assert.Regexp(t, `^toolgate v0\.0\.0-image-test, revision 0123abcd \(2026-12-01T09:22:00Z\), `, string(version))
}

// docker runs the docker client and returns its trimmed output.
func docker(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("docker", args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "docker %s: %s", strings.Join(args, " "), stderr.String())
	return strings.TrimSpace(stdout.String())
}

// TestImage builds the image and runs it: the container becomes healthy
// through its HEALTHCHECK, runs as its non-root user and answers
// --version. It needs a Docker daemon; without one it skips and says why.
func TestImage(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("no docker client on PATH, so the image cannot be built here; TestDockerfile and TestDockerfileBuildsAStaticBinary still check it")
	}
	if out, err := exec.Command("docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		t.Skipf("no Docker daemon answers (%s), so the image cannot be built here; TestDockerfile and TestDockerfileBuildsAStaticBinary still check it",
			strings.TrimSpace(string(out)))
	}
	root := fixtures.RepoRoot(t)
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	tag := "toolgate-image-test:" + hex.EncodeToString(suffix)
	docker(t, "build", "--quiet", "-f", filepath.Join(root, "server", "deploy", "Dockerfile"),
		"--build-arg", "VERSION=v0.0.0-image-test", "-t", tag, root)
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", "-f", tag).Run() })

	assert.Equal(t, "65532:65532", docker(t, "image", "inspect", "--format", "{{.Config.User}}", tag))
	assert.Contains(t, docker(t, "run", "--rm", tag, "--version"), "toolgate v0.0.0-image-test, ")

	id := docker(t, "run", "-d", "--read-only", "--cap-drop", "ALL", tag)
	t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", id).Run() })
	deadline := time.Now().Add(90 * time.Second)
	var health string
	for time.Now().Before(deadline) {
		if health = docker(t, "inspect", "--format", "{{.State.Health.Status}}", id); health == "healthy" {
			break
		}
		time.Sleep(time.Second)
	}
	assert.Equal(t, "healthy", health, "the HEALTHCHECK (toolgate health) reports SERVING; logs:\n%s",
		func() string { out, _ := exec.Command("docker", "logs", id).CombinedOutput(); return string(out) }())
}
