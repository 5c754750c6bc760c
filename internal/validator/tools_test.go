package validator_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// toolCase is one entry of a <tool>.cases.json file. Arguments stay raw so
// their numbers are exactly as written.
type toolCase struct {
	Arguments json.RawMessage `json:"arguments"`
	Valid     bool            `json:"valid"`
	Why       string          `json:"why"`
}

// runToolDir compiles every <tool>.json in dir and checks every case of its
// <tool>.cases.json, the schema and the arguments read from memory the
// process cannot write (fixtures.ReadOnly: neither step writes to its
// input).
func runToolDir(t *testing.T, dir string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.cases.json"))
	require.NoError(t, err)
	require.NotEmpty(t, paths, "no cases in %s", dir)
	for _, casesPath := range paths {
		name := strings.TrimSuffix(filepath.Base(casesPath), ".cases.json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var tool struct {
				InputSchema json.RawMessage `json:"inputSchema"`
			}
			require.NoError(t, json.Unmarshal(readFile(t, filepath.Join(dir, name+".json")), &tool))
			res := schema.Compile(schema.ToolInput, fixtures.ReadOnly(t, tool.InputSchema)[0])
			require.Empty(t, res.Errors, "the %s schema must compile", name)
			var cases []toolCase
			require.NoError(t, json.Unmarshal(readFile(t, casesPath), &cases))
			for _, c := range cases {
				got := validator.Validate(res.Schema, fixtures.ReadOnly(t, c.Arguments)[0], validator.Options{})
				assert.Equal(t, c.Valid, got.Valid(), "%s: %s (%s); findings %+v", name, c.Arguments, c.Why, got.Findings)
			}
		})
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func TestSigmaTools(t *testing.T) {
	t.Parallel()
	runToolDir(t, fixtures.Testdata(t, "sigma-tools"))
}

func TestOwnTools(t *testing.T) {
	t.Parallel()
	runToolDir(t, fixtures.Testdata(t, "tools"))
}

func readAll(path string) ([]byte, error) { return os.ReadFile(path) }
