package repocheck

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
)

// goBlocks returns the contents of the README's ```go code blocks,
// indented ones (in a list item) included.
func goBlocks(readme string) []string {
	var blocks []string
	var cur *strings.Builder
	for line := range strings.SplitSeq(readme, "\n") {
		fence := strings.TrimSpace(line)
		switch {
		case cur == nil && fence == "```go":
			cur = &strings.Builder{}
		case cur != nil && fence == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	return blocks
}

// TestREADMEGoCodeCompiles builds every ```go block of the README as its
// own package inside this module, so a block may import the module's
// packages (client/) as a user's code would. Each block is a whole Go file
// (it starts with its package clause). The files reach the compiler through
// go build -overlay: nothing is written into the work tree.
func TestREADMEGoCodeCompiles(t *testing.T) {
	t.Parallel()
	root := fixtures.RepoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	blocks := goBlocks(string(readme))
	require.NotEmpty(t, blocks, "the README's From Go section has Go code")
	tmp := t.TempDir()
	for i, block := range blocks {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			require.True(t, strings.HasPrefix(block, "package "), "a README Go block is a whole file, starting with its package clause:\n%s", block)
			src := filepath.Join(tmp, fmt.Sprintf("block%d.go", i))
			require.NoError(t, os.WriteFile(src, []byte(block), 0o644))
			pkgDir := filepath.Join(root, "internal", "repocheck", fmt.Sprintf("readme_block_%d", i))
			overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(pkgDir, "main.go"): src}})
			require.NoError(t, err)
			overlayFile := filepath.Join(tmp, fmt.Sprintf("overlay%d.json", i))
			require.NoError(t, os.WriteFile(overlayFile, overlay, 0o644))
			cmd := exec.Command("go", "build", "-overlay", overlayFile, "-o", os.DevNull, pkgDir)
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			assert.NoError(t, err, "README Go block %d does not compile:\n%s\n%s", i, out, block)
		})
	}
}

func TestGoBlocks(t *testing.T) {
	t.Parallel()
	readme := "text\n```go\npackage a\n```\n```console\n$ x\n```\n```go\npackage b\n\nfunc f() {}\n```\n```gopher\nnot go\n```\n- item\n\n  ```go\n  package c\n  ```\n"
	assert.Equal(t, []string{"package a\n", "package b\n\nfunc f() {}\n", "  package c\n"}, goBlocks(readme))
}
