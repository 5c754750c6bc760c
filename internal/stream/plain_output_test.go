package stream_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/stream"
)

// TestPlainDeltaOutputRules: an answer without text is an incomplete
// document, not the "{}" a call without arguments is; its findings speak
// of the output; an answer needs an output bound, and its id is checked
// as a call's is.
func TestPlainDeltaOutputRules(t *testing.T) {
	t.Parallel()
	t.Run("no text", func(t *testing.T) {
		h := outputSession(t, emptySchema, false)
		require.NoError(t, h.StartOutput("a"))
		require.NoError(t, h.End("a"))
		require.Len(t, h.results, 1)
		require.False(t, h.results[0].Valid(), "an empty answer is no document, though {} would be valid")
		assert.Equal(t, "json", h.results[0].Findings[0].Keyword)
	})
	t.Run("findings speak of the output", func(t *testing.T) {
		for text, want := range map[string]string{
			`{"x":1,,`: "The output is not valid JSON: ",
			`[1]`:      "The output must be an object; got an array.",
		} {
			h := outputSession(t, pointSchema, false)
			require.NoError(t, h.StartOutput("a"))
			require.NoError(t, h.Delta("a", []byte(text)))
			require.Len(t, h.results, 1, text)
			assert.Contains(t, h.results[0].Findings[0].Message, want, text)
		}
	})
	t.Run("half-close ends it as an answer", func(t *testing.T) {
		h := outputSession(t, pointSchema, true)
		require.NoError(t, h.StartOutput("a"))
		require.NoError(t, h.Delta("a", []byte("```json\n{\"x\":1}\n")))
		h.Close()
		require.Len(t, h.results, 1)
		assert.Equal(t, "json", h.results[0].Findings[0].Keyword, "the fence was not closed: %+v", h.results[0].Findings)
	})
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, h *harness)
		id    string
	}{
		{"no output bound", nil, "a"},
		{"an empty id", func(*testing.T, *harness) {}, ""},
		{"a reserved id", func(*testing.T, *harness) {}, "output/0"},
		{"an id started already", func(t *testing.T, h *harness) { require.NoError(t, h.Start("a", "todo", nil)) }, "a"},
		{"a provider call's id", func(t *testing.T, h *harness) {
			require.NoError(t, h.ProviderEvent(provider.OpenAIChat,
				[]byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"todo","arguments":""}}]}}]}`)))
		}, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, stream.Limits{})
			if tc.setup != nil {
				h = outputSession(t, pointSchema, false)
				tc.setup(t, h)
			}
			err := h.StartOutput(tc.id)
			require.Error(t, err)
			assert.Equal(t, stream.InvalidArgument, kinds(err), "%v", err)
		})
	}
}
