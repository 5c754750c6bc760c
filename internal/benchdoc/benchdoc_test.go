package benchdoc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/benchdoc"
	"github.com/toolgate/toolgate/internal/fixtures"
)

// oracle compiles the edit_file schema with santhosh-tekuri/jsonschema, an
// implementation independent of toolgate's engine.
func oracle(t *testing.T) *jsonschema.Schema {
	t.Helper()
	text, err := benchdoc.Schema(fixtures.RepoRoot(t))
	require.NoError(t, err)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	require.NoError(t, c.AddResource("edit.json", doc))
	s, err := c.Compile("edit.json")
	require.NoError(t, err)
	return s
}

// oracleError validates doc with the oracle; nil means valid.
func oracleError(s *jsonschema.Schema, doc []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

func TestDocs(t *testing.T) {
	t.Parallel()
	s := oracle(t)
	sizes := map[string][2]int{
		"small":   {250, 350},
		"medium":  {benchdoc.MediumSize, benchdoc.MediumSize},
		"escapes": {benchdoc.MediumSize, benchdoc.MediumSize},
		"large":   {benchdoc.LargeSize, benchdoc.LargeSize},
		"invalid": {benchdoc.MediumSize - 100, benchdoc.MediumSize},
		"syntax":  {benchdoc.MediumSize, benchdoc.MediumSize},
	}
	docs := benchdoc.Docs()
	var names []string
	for _, d := range docs {
		names = append(names, d.Name)
	}
	require.Equal(t, []string{"small", "medium", "escapes", "large", "invalid", "syntax"}, names)
	for _, d := range docs {
		t.Run(d.Name, func(t *testing.T) {
			t.Parallel()
			size := sizes[d.Name]
			assert.GreaterOrEqual(t, len(d.Data), size[0])
			assert.LessOrEqual(t, len(d.Data), size[1])
			assert.Equal(t, d.Verdict != benchdoc.SyntaxError, json.Valid(d.Data), "encoding/json's view of the syntax")
			err := oracleError(s, d.Data)
			switch d.Verdict {
			case benchdoc.Valid:
				assert.NoError(t, err)
				assert.EqualValues(t, -1, d.Deciding)
			case benchdoc.Violation:
				var ve *jsonschema.ValidationError
				require.ErrorAs(t, err, &ve)
				require.Len(t, ve.Causes, 1, "one violation: %v", err)
				assert.Equal(t, []string{"path"}, ve.Causes[0].InstanceLocation)
				assert.Less(t, d.Deciding, int64(20), "a violation in the first 20 bytes")
				assert.Equal(t, `{"path": 1`, string(d.Data[:d.Deciding+1]), "the number starts at the deciding byte")
			case benchdoc.SyntaxError:
				var se *json.SyntaxError
				require.True(t, errors.As(json.Unmarshal(d.Data, new(any)), &se))
				assert.Equal(t, d.Deciding+1, se.Offset, "encoding/json reports the bytes read, the bad one included")
			}
			again, ok := benchdoc.Lookup(d.Name)
			require.True(t, ok)
			assert.Equal(t, d, again, "documents are deterministic")
		})
	}
	_, ok := benchdoc.Lookup("huge")
	assert.False(t, ok)
}

// TestMediumTextNeedsEscapes checks that the documents exercise what they
// are named for: source code with \n, \t and \" escapes, and prose written
// as \u escapes in pure ASCII.
func TestMediumTextNeedsEscapes(t *testing.T) {
	t.Parallel()
	medium := benchdoc.Sized(benchdoc.MediumSize)
	for esc, least := range map[string]int{`\n`: 500, `\t`: 500, `\"`: 500, `\\`: 20} {
		assert.Greater(t, bytes.Count(medium, []byte(esc)), least, "medium's count of %s", esc)
	}
	assert.True(t, utf8.Valid(medium))
	escapes := benchdoc.Escapes(benchdoc.MediumSize)
	for i, c := range escapes {
		require.Less(t, c, byte(utf8.RuneSelf), "escapes is ASCII: byte %d", i)
	}
	assert.Greater(t, bytes.Count(escapes, []byte(`\u`)), benchdoc.MediumSize/10, "more than one \\u escape per 10 bytes")
	assert.Contains(t, string(escapes), `\ud83d\ude80`, "characters beyond the BMP are surrogate pairs")
}

// TestSizedIsExact is a property test: for sizes from the smallest possible
// up, both generators return exactly that many bytes of valid arguments
// whose content decodes to whole lines of text, then '/' padding.
func TestSizedIsExact(t *testing.T) {
	t.Parallel()
	s := oracle(t)
	r := rand.New(rand.NewPCG(10, 0))
	sizes := []int{benchdoc.MinSize, benchdoc.MinSize + 1, 64 << 10}
	for range 200 {
		sizes = append(sizes, benchdoc.MinSize+r.IntN(4000))
	}
	for _, gen := range []struct {
		name string
		fn   func(int) []byte
	}{{"Sized", benchdoc.Sized}, {"Escapes", benchdoc.Escapes}} {
		for _, n := range sizes {
			doc := gen.fn(n)
			require.Len(t, doc, n, "%s(%d)", gen.name, n)
			require.NoError(t, oracleError(s, doc), "%s(%d)", gen.name, n)
			var args struct{ Path, Content string }
			require.NoError(t, json.Unmarshal(doc, &args))
			text := strings.TrimRight(args.Content, "/")
			assert.True(t, text == "" || strings.HasSuffix(text, "\n"), "%s(%d) holds whole lines", gen.name, n)
		}
	}
	assert.Panics(t, func() { benchdoc.Sized(benchdoc.MinSize - 1) })
}

func TestSchema(t *testing.T) {
	t.Parallel()
	text, err := benchdoc.Schema(fixtures.RepoRoot(t))
	require.NoError(t, err)
	var schema map[string]any
	require.NoError(t, json.Unmarshal(text, &schema))
	assert.Equal(t, "object", schema["type"])
	assert.ElementsMatch(t, []any{"path", "content"}, schema["required"])

	for _, tc := range []struct {
		name, file string // file is nothing when empty
		wantErr    string
	}{
		{"no file", "", "no such file"},
		{"not JSON", "{", "unexpected end of JSON input"},
		{"no inputSchema", `{"name": "edit"}`, "no inputSchema object"},
		{"inputSchema not an object", `{"inputSchema": true}`, "no inputSchema object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			if tc.file != "" {
				path := filepath.Join(root, benchdoc.SchemaFile)
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(tc.file), 0o644))
			}
			_, err := benchdoc.Schema(root)
			assert.ErrorContains(t, err, tc.wantErr)
		})
	}
}

func TestVerdictString(t *testing.T) {
	t.Parallel()
	for v, want := range map[benchdoc.Verdict]string{
		benchdoc.Valid: "valid", benchdoc.Violation: "violation", benchdoc.SyntaxError: "syntax error", 7: "Verdict(7)",
	} {
		assert.Equal(t, want, v.String())
	}
}
