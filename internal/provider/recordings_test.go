package provider_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/provider/recording"
)

// recordingDirs maps a recordings directory to its provider.
var recordingDirs = recording.Dirs

// expectedCall is one element of a recording's .expected.json.
type expectedCall struct {
	ID        *string `json:"id"` // null: the recording states no id
	Name      string  `json:"name"`
	Arguments string  `json:"arguments"`
}

// TestRealRecordings runs every real recording in the repository's
// testdata/provider-streams (see its PROVENANCE.md).
func TestRealRecordings(t *testing.T) {
	t.Parallel()
	runRecordings(t, fixtures.Testdata(t, "provider-streams"))
}

// TestSyntheticRecordings runs the small hand-written recordings in testdata,
// which exist in every clone.
func TestSyntheticRecordings(t *testing.T) {
	t.Parallel()
	runRecordings(t, "testdata")
}

func runRecordings(t *testing.T, dir string) {
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	n := 0
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "fuzz" {
			continue
		}
		p, ok := recordingDirs[e.Name()]
		if !assert.True(t, ok, "no provider for directory %s", e.Name()) {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, e.Name(), "*.jsonl"))
		require.NoError(t, err)
		for _, f := range files {
			n++
			name := e.Name() + "/" + strings.TrimSuffix(filepath.Base(f), ".jsonl")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				checkRecording(t, p, f)
			})
		}
	}
	require.NotZero(t, n, "no recordings under %s", dir)
}

func checkRecording(t *testing.T, p provider.Provider, path string) {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var events []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			events = append(events, string(line))
		}
	}
	want, err := os.ReadFile(strings.TrimSuffix(path, ".jsonl") + ".expected.json")
	require.NoError(t, err)
	var expected []expectedCall
	require.NoError(t, json.Unmarshal(want, &expected))

	_, got := stream(t, p, events...)
	require.Len(t, got, len(expected), "calls: %+v", got)
	for i, w := range expected {
		assert.Equal(t, w.Arguments, got[i].Args, "call %d (%s) arguments", i, got[i].Key)
		assert.Equal(t, w.Name, got[i].Name, "call %d name", i)
		if w.ID != nil {
			assert.Equal(t, *w.ID, got[i].ID, "call %d id", i)
		}
	}
}
