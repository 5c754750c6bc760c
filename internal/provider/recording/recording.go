// Package recording reads the structured-output stream recordings of
// testdata/output-streams (real provider streams, see its PROVENANCE.md),
// for the tests of the packages that adapt and validate them. It holds no
// expectations of its own: each recording's .expected.json does.
package recording

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/provider"
)

// Dirs maps a recordings folder to the provider whose events it holds.
var Dirs = map[string]provider.Provider{
	"openai-chat":            provider.OpenAIChat,
	"openai-chat-compatible": provider.OpenAIChat,
	"openai-responses":       provider.OpenAIResponses,
	"anthropic":              provider.Anthropic,
	"gemini":                 provider.Gemini,
	"bedrock":                provider.Bedrock,
	"cohere":                 provider.Cohere,
}

// Expected is one element of a recording's .expected.json.
type Expected struct {
	// Output is the choice, candidate, Responses output or content-block
	// index the text belongs to.
	Output int `json:"output"`
	// Text is the answer text, concatenated exactly as streamed.
	Text string `json:"text"`
	// JSON says whether Text is one JSON value (white space around it
	// allowed).
	JSON bool `json:"json"`
	// Refusal is the refusal text, when the model refused.
	Refusal *string `json:"refusal"`
}

// Output is one document the adapter reports for a recording.
type Output struct {
	// Key is the adapter's Event.Key ("output/0").
	Key string
	// Text is the document's text; JSON and Refusal as in Expected.
	Text    string
	JSON    bool
	Refusal *string
}

// Recording is one recorded stream.
type Recording struct {
	Name     string // "<folder>/<file without .jsonl>"
	Provider provider.Provider
	Events   []string // one event payload per line
	Expected []Expected
}

// Outputs returns the documents of r: one per expected entry, keyed
// "output/<n>", except for Anthropic and Cohere, where one message is one
// document, the concatenation of its text blocks' texts, "output/0".
func (r *Recording) Outputs() []Output {
	if r.Provider == provider.Anthropic || r.Provider == provider.Cohere {
		var text strings.Builder
		for _, e := range r.Expected {
			text.WriteString(e.Text)
		}
		return []Output{{Key: "output/0", Text: text.String(), JSON: json.Valid([]byte(text.String()))}}
	}
	out := make([]Output, len(r.Expected))
	for i, e := range r.Expected {
		out[i] = Output{Key: "output/" + strconv.Itoa(e.Output), Text: e.Text, JSON: e.JSON, Refusal: e.Refusal}
	}
	return out
}

// All reads every recording of testdata/output-streams, in name order.
func All(t testing.TB) []Recording {
	t.Helper()
	dir := fixtures.Testdata(t, "output-streams")
	var recs []Recording
	for name, p := range Dirs {
		files, err := filepath.Glob(filepath.Join(dir, name, "*.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			recs = append(recs, read(t, name, p, f))
		}
	}
	slices.SortFunc(recs, func(a, b Recording) int { return strings.Compare(a.Name, b.Name) })
	return recs
}

func read(t testing.TB, dir string, p provider.Provider, file string) Recording {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rec := Recording{Name: dir + "/" + strings.TrimSuffix(filepath.Base(file), ".jsonl"), Provider: p}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			rec.Events = append(rec.Events, string(line))
		}
	}
	want, err := os.ReadFile(strings.TrimSuffix(file, ".jsonl") + ".expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &rec.Expected); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return rec
}
