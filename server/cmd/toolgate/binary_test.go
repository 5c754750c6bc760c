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
// per test run and set of flags) and returns the binary's path. Tests that
// build skip under -short.
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
		args := append(append([]string{"build"}, flags...), "-o", b.path, ".")
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}
