package gencheck

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/fixtures"
)

// genDir is the folder buf.gen.yaml generates into, relative to the module
// root.
const genDir = "gen"

// TestGeneratedCodeIsCurrent runs `buf generate` with the repository's
// buf.gen.yaml into a temporary folder and compares the result byte for byte
// with the committed gen/. It leaves the work tree untouched.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping under -short: regenerates gen/ with buf, whose first build takes minutes; run `make checkgenerate` or go test without -short")
	}
	root := fixtures.RepoRoot(t)
	version := bufVersion(t, root)

	out := t.TempDir()
	// buf runs in the module root so that it reads buf.yaml and buf.gen.yaml
	// there and the plugins run as `go tool` of this module; --output moves
	// every plugin's `out` under the temporary folder, and clean: true then
	// only empties that copy.
	cmd := exec.Command("go", "run", "github.com/bufbuild/buf/cmd/buf@"+version,
		"generate", "--output", out)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stdout = &stderr
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, stderr.String())
	}

	want := readTree(t, filepath.Join(out, genDir))
	got := readTree(t, filepath.Join(root, genDir))
	if len(want) == 0 {
		t.Fatalf("buf generate produced no files under %s", filepath.Join(out, genDir))
	}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(want)) {
		committed, ok := got[name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("missing: %s", name))
		case !bytes.Equal(committed, want[name]):
			problems = append(problems, fmt.Sprintf("differs: %s (%s)", name, firstDifference(committed, want[name])))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			problems = append(problems, fmt.Sprintf("not generated (stale or hand-written): %s", name))
		}
	}
	if len(problems) > 0 {
		t.Errorf("gen/ is stale; run `make generate` and commit the result:\n  %s", strings.Join(problems, "\n  "))
	}
}

// bufVersionLine matches the pin in the Makefile, e.g. "BUF_VERSION := v1.75.0".
var bufVersionLine = regexp.MustCompile(`^BUF_VERSION\s*[:?]?=\s*(v\S+)\s*$`)

// bufVersion returns the buf version to run: $BUF_VERSION when set (the
// Makefile exports its pin, so `make` overrides reach the test), otherwise
// the pin read from the Makefile, the one place it is written.
func bufVersion(t *testing.T, root string) string {
	t.Helper()
	if v := os.Getenv("BUF_VERSION"); v != "" {
		return v
	}
	f, err := os.Open(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := bufVersionLine.FindStringSubmatch(sc.Text()); m != nil {
			return m[1]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatal("Makefile has no BUF_VERSION line")
	return ""
}

// readTree returns the regular files under dir, keyed by slash-separated
// path relative to dir. A missing dir is an empty tree.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := make(map[string][]byte)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == dir {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// firstDifference describes the first line at which a and b differ.
func firstDifference(a, b []byte) string {
	al := strings.Split(string(a), "\n")
	bl := strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d: committed %q, generated %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("committed has %d lines, generated %d", len(al), len(bl))
}
