package repocheck

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/fixtures"
)

// TestGoModIsTidy runs `go mod tidy -diff` offline (GOPROXY=off) and fails
// with its diff when go.mod or go.sum is not what tidy writes. Deciding
// needs every module that tidy loads (tests of dependencies included) in
// the module cache; when one is missing the test skips and says so, since
// that is a property of the machine, not of the repository: `go mod
// download all` (as .ci/run runs before make test) fills the cache.
func TestGoModIsTidy(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("go", "mod", "tidy", "-diff")
	cmd.Dir = fixtures.RepoRoot(t)
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err == nil {
		return
	}
	if strings.Contains(string(out), "GOPROXY=off") {
		t.Skipf("the module cache lacks modules tidy needs to decide offline; run `go mod download all` (.ci/run does): %s", firstLine(string(out)))
	}
	t.Errorf("go.mod or go.sum is not tidy; run `go mod tidy` and commit the result:\n%s", out)
}

// firstLine returns s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
