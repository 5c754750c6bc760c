package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/benchdoc"
	"github.com/toolgate/toolgate/internal/fixtures"
)

func TestLoop(t *testing.T) {
	t.Parallel()
	root := fixtures.RepoRoot(t)
	// A root whose edit_file schema wants path to be an integer: toolgate
	// then rejects every valid document, which benchloop must not hide.
	wrongRoot := t.TempDir()
	wrong := filepath.Join(wrongRoot, benchdoc.SchemaFile)
	require.NoError(t, os.MkdirAll(filepath.Dir(wrong), 0o755))
	require.NoError(t, os.WriteFile(wrong, []byte(`{"inputSchema": {"type": "object", "properties": {"path": {"type": "integer"}}}}`), 0o644))
	for _, tc := range []struct {
		name    string
		args    []string
		stdout  string
		wantErr string // "" for success
	}{
		{"toolgate, small, rounded up", []string{"-doc", "small", "-impl", "toolgate", "-bytes", "1000", "-root", root}, "4\n", ""},
		{"toolgate rejects invalid", []string{"-doc", "invalid", "-bytes", "1", "-root", root}, "1\n", ""},
		{"jsonvalid accepts invalid", []string{"-doc", "invalid", "-impl", "jsonvalid", "-bytes", "1"}, "1\n", ""},
		{"jsonvalid rejects syntax", []string{"-doc", "syntax", "-impl", "jsonvalid", "-bytes", "60000"}, "2\n", ""},
		{"a wrong answer", []string{"-doc", "small", "-bytes", "1", "-root", wrongRoot}, "", "toolgate accepted small, a document that is valid, 0 times of 1"},
		{"no schema", []string{"-doc", "small", "-root", t.TempDir()}, "", "no such file"},
		{"unknown document", []string{"-doc", "huge"}, "", `no document "huge"`},
		{"unknown implementation", []string{"-impl", "goccy"}, "", `-impl "goccy"`},
		{"no bytes", []string{"-bytes", "0"}, "", "not positive"},
		{"unknown flag", []string{"-n", "3"}, "", "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout bytes.Buffer
			err := loop(tc.args, &stdout)
			if tc.wantErr != "" {
				assert.ErrorContains(t, err, tc.wantErr)
			} else {
				assert.NoError(t, err)
			}
			assert.Equal(t, tc.stdout, stdout.String())
		})
	}
}

func TestRepeat(t *testing.T) {
	t.Parallel()
	calls := 0
	accepted := repeat(func(doc []byte) bool { calls++; return calls%3 == 0 }, nil, 10)
	assert.Equal(t, 10, calls)
	assert.Equal(t, 3, accepted)
}
