package hostile_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/hostile"
)

// TestReadmeTable checks that testdata/hostile/README.md lists every shape
// as the generator describes it. Run with -update to rewrite the table.
func TestReadmeTable(t *testing.T) {
	t.Parallel()
	path := fixtures.Testdata(t, "hostile/README.md")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	const begin, end = "<!-- shapes:begin -->\n", "<!-- shapes:end -->"
	before, rest, ok := strings.Cut(string(data), begin)
	require.True(t, ok, "the README has a %q line", begin)
	table, after, ok := strings.Cut(rest, end)
	require.True(t, ok, "the README has a %q line", end)
	want := "\n" + hostile.Table() + "\n"
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(before+begin+want+end+after), 0o644))
		return
	}
	assert.Equal(t, want, table, "testdata/hostile/README.md is out of date: go test ./internal/hostile -run TestReadmeTable -update")
}

// TestShapes checks what each shape promises: a unique name, a known
// owner and method, the parts that method needs, and JSON where JSON is
// meant (invalid UTF-8 only in the shapes about it). Sequences are read
// only in part, since some run to hundreds of megabytes.
func TestShapes(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, s := range hostile.Shapes() {
		require.False(t, seen[s.Name], "%s: a unique name", s.Name)
		seen[s.Name] = true
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			got, ok := hostile.Lookup(s.Name)
			require.True(t, ok)
			assert.Equal(t, s.Summary, got.Summary)
			assert.Contains(t, []hostile.Owner{hostile.Server, hostile.Engine, hostile.Streams, hostile.Store}, s.Owner)
			assert.GreaterOrEqual(t, s.Finding, 0)
			assert.LessOrEqual(t, s.Finding, 8)
			assert.NotEmpty(t, s.Summary)
			r := s.Generate()
			aboutUTF8 := strings.HasPrefix(s.Name, "invalid-utf8-")
			jsonPart := func(what string, b []byte) {
				t.Helper()
				if aboutUTF8 && !utf8.Valid(b) {
					return
				}
				assert.True(t, json.Valid(b), "%s is JSON", what)
			}
			switch s.RPC {
			case "CompileSchema":
				require.True(t, r.Schema != nil || r.Schemas != nil)
			case "Validate":
				require.True(t, r.Schema != nil || r.Handle != "")
				require.NotNil(t, r.Arguments)
				jsonPart("arguments", r.Arguments)
			case "CompileToolset":
				require.NotNil(t, r.ToolsList)
				jsonPart("tools list", r.ToolsList)
			case "ValidateStream":
				require.NotEmpty(t, r.Tools)
				require.NotEmpty(t, r.Provider)
				require.NotNil(t, r.Events)
				n := 0
				for ev := range r.Events {
					jsonPart("event", ev)
					if n++; n == 5 {
						break
					}
				}
				assert.Positive(t, n)
			default:
				t.Fatalf("unknown RPC %q", s.RPC)
			}
			if r.Schema != nil {
				jsonPart("schema", r.Schema)
			}
			for name, schema := range r.Tools {
				assert.True(t, json.Valid(schema), "tool %q", name)
			}
			if r.Schemas != nil {
				for schema := range r.Schemas {
					assert.True(t, json.Valid(schema))
					break
				}
			}
			assert.Equal(t, aboutUTF8, !validUTF8(r), "only invalid-utf8-* shapes carry invalid UTF-8")
		})
	}
}

// validUTF8 reports whether every part of r that is sent as a string is
// valid UTF-8 (reading at most the first few events).
func validUTF8(r hostile.Request) bool {
	for _, b := range [][]byte{r.Schema, r.Arguments, []byte(r.Handle), r.ToolsList} {
		if !utf8.Valid(b) {
			return false
		}
	}
	if r.Events != nil {
		n := 0
		for ev := range r.Events {
			if !utf8.Valid(ev) {
				return false
			}
			if n++; n == 5 {
				break
			}
		}
	}
	return true
}
