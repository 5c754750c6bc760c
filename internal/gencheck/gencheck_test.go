package gencheck

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
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
// with the committed gen/. It leaves the work tree untouched. buf is the
// binary `make tools` built (the test skips, saying so, without it).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	root := fixtures.RepoRoot(t)
	buf := fixtures.Tool(t, "buf", "BUF_VERSION")

	out := t.TempDir()
	// buf runs in the module root so that it reads buf.yaml and buf.gen.yaml
	// there and the plugins run as `go tool` of this module; --output moves
	// every plugin's `out` under the temporary folder, and clean: true then
	// only empties that copy.
	cmd := exec.Command(buf, "generate", "--output", out)
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
