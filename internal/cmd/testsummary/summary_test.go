package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeModule writes files (path → content) into a fresh module and
// returns its folder.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/probe\n\ngo 1.26\n"
	for name, content := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return dir
}

// TestRealGoTestRun feeds the summary what the go command itself writes
// for a module with passing, skipping and failing tests, a package without
// tests and one that does not compile.
func TestRealGoTestRun(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"probe_test.go": `package probe

import "testing"

func TestPasses(t *testing.T) { t.Log("chatter nobody needs") }

func TestSkips(t *testing.T) { t.Skip("no Docker daemon: cannot connect") }

func TestFails(t *testing.T) { t.Error("boom") }

func TestSubtests(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("skipped", func(t *testing.T) { t.Skipf("needs %s", "buf") })
}
`,
		"empty/empty.go":    "package empty\n",
		"broken/broken.go":  "package broken\n\nfunc f() int { return \"x\" }\n",
		"broken/b_test.go":  "package broken\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { _ = f() }\n",
		"passing/p_test.go": "package passing\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) {}\n",
	})
	cmd := exec.Command("go", "test", "-json", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	raw, err := cmd.Output()
	require.Error(t, err, "go test fails: one test fails and one package does not build")

	var out bytes.Buffer
	status := run(bytes.NewReader(raw), &out)
	got := out.String()
	assert.Equal(t, 1, status)
	assert.Regexp(t, `--- FAIL: TestFails \([0-9.]+s\)\n    probe_test.go:9: boom\n`, got)
	assert.NotContains(t, got, "chatter nobody needs", "a passing test's log stays hidden, as in plain go test")
	assert.NotContains(t, got, "=== RUN")
	assert.Regexp(t, `(?m)^ok  \texample.com/probe/passing\t`, got)
	assert.Regexp(t, `(?m)^\?   \texample.com/probe/empty\t\[no test files\]`, got)
	assert.Regexp(t, `(?m)^FAIL\texample.com/probe\t`, got)
	assert.Contains(t, got, "FAIL\texample.com/probe/broken [build failed]")
	assert.Contains(t, got, "broken.go:3", "the compiler's message for the broken package")
	assert.Contains(t, got, "\nskipped (2):\n")
	assert.Contains(t, got, "  example.com/probe TestSkips: probe_test.go:7: no Docker daemon: cannot connect\n")
	assert.Contains(t, got, "  example.com/probe TestSubtests/skipped: probe_test.go:13: needs buf\n")
	assert.True(t, strings.HasSuffix(got, "\ntests: 4 passed, 2 skipped, 1 failed\n"), "counts line last: %q", got)
}

func TestSummaryLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		in     string
		want   string
		status int
	}{
		{"not an event is copied", "go: downloading x v1\n", "go: downloading x v1\n\ntests: 0 passed, 0 skipped, 0 failed\n", 0},
		{"JSON without an action is copied", `{"Package":"p"}` + "\n", `{"Package":"p"}` + "\n\ntests: 0 passed, 0 skipped, 0 failed\n", 0},
		{"bare PASS is left out", `{"Action":"output","Package":"p","Output":"PASS\n"}` + "\n" +
			`{"Action":"output","Package":"p","Output":"ok  \tp\t0.1s\n"}` + "\n" + `{"Action":"pass","Package":"p"}` + "\n",
			"ok  \tp\t0.1s\n\ntests: 0 passed, 0 skipped, 0 failed\n", 0},
		{"a package failure without a test fails the run", `{"Action":"output","Package":"p","Output":"panic: x\n"}` + "\n" + `{"Action":"fail","Package":"p"}` + "\n",
			"panic: x\n\ntests: 0 passed, 0 skipped, 0 failed\n", 1},
		{"a build failure fails the run", `{"Action":"build-output","ImportPath":"p","Output":"p.go:1: bad\n"}` + "\n" + `{"Action":"build-fail","ImportPath":"p"}` + "\n",
			"p.go:1: bad\n\ntests: 0 passed, 0 skipped, 0 failed\n", 1},
		{"a skip without a message", `{"Action":"run","Package":"p","Test":"T"}` + "\n" + `{"Action":"output","Package":"p","Test":"T","Output":"--- SKIP: T (0.00s)\n"}` + "\n" + `{"Action":"skip","Package":"p","Test":"T"}` + "\n",
			"\nskipped (1):\n  p T: (no reason given)\n\ntests: 0 passed, 1 skipped, 0 failed\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			assert.Equal(t, tc.status, run(strings.NewReader(tc.in), &out))
			assert.Equal(t, tc.want, out.String())
		})
	}
}

// FuzzSummary: any input is summarised without a panic and ends with the
// counts line, and input that cannot hold an event (no "{" at all) is
// copied through line by line (a CR before a line's end is dropped).
func FuzzSummary(f *testing.F) {
	f.Add([]byte(`{"Action":"fail","Package":"p","Test":"T"}` + "\n"))
	f.Add([]byte(`{"Action":"skip","Package":"p","Test":"T"}` + "\nplain\n"))
	f.Add([]byte("{\"Action\":\"output\",\"Test\":\"T\",\"Output\":\"=== RUN\"}\n{"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		status := run(bytes.NewReader(in), &out)
		if status != 0 && status != 1 {
			t.Fatalf("status %d", status)
		}
		if !strings.Contains(out.String(), "\ntests: ") {
			t.Fatalf("no counts line in %q", out.String())
		}
		if !bytes.Contains(in, []byte("{")) && len(in) < maxLine {
			for _, line := range strings.Split(strings.TrimSuffix(string(in), "\n"), "\n") {
				line = strings.TrimSuffix(line, "\r") // a line may end in CRLF
				if !strings.Contains(out.String(), line) {
					t.Fatalf("line %q of input without events was not copied", line)
				}
			}
		}
	})
}
