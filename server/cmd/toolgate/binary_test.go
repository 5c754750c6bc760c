package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// buildDir holds the binaries the tests build, for the whole test run.
var buildDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "toolgate-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	buildDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// build is one go build of this command, made once per set of flags.
type build struct {
	once sync.Once
	path string
	err  error
}

var (
	builds     sync.Map // strings.Join(flags, " ") → *build
	buildCount atomic.Int64
)

// toolgateBinary builds this command with the extra go build flags (once
// per test run and set of flags) and returns the binary's path. It builds
// as the image does (CGO_ENABLED=0, -trimpath; see server/deploy), so the
// tests run the binary the image ships and share the build cache with its
// test. Tests that build skip under -short.
func toolgateBinary(t *testing.T, flags ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; run without -short")
	}
	key := strings.Join(flags, " ")
	v, _ := builds.LoadOrStore(key, &build{})
	b := v.(*build)
	b.once.Do(func() {
		b.path = filepath.Join(buildDir, fmt.Sprintf("toolgate-%d", buildCount.Add(1)))
		args := append(append([]string{"build", "-trimpath"}, flags...), "-o", b.path, ".")
		cmd := exec.Command("go", args...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}
