package stream_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/stream"
)

// TestNamesAreBounded: a stream keeps every call id and tool name it
// sees and echoes them in results, so each is bounded (Limits.MaxName). A
// client's longer id or name is InvalidArgument; a provider's refuses its
// call (keyword "call_id" or "tool_name"), whose result carries it cut; a
// provider key that long (a Responses item id) refuses the event. Error
// messages quote unknown ids cut.
func TestNamesAreBounded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 65)
	t.Run("a client's", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{MaxName: 64})
		assert.Equal(t, stream.InvalidArgument, kinds(h.Start(long, "todo", nil)))
		assert.Equal(t, stream.InvalidArgument, kinds(h.Start("c1", long, nil)))
		assert.Equal(t, stream.InvalidArgument, kinds(h.Bind(map[string]stream.Binding{long: h.bound["todo"]})))
		require.NoError(t, h.Start(long[:64], long[:64], h.binding("todo")), "at the limit")
		huge := strings.Repeat("\x01", 1<<20)
		err := h.Delta(huge, []byte("{}"))
		assert.Equal(t, stream.InvalidArgument, kinds(err))
		assert.Less(t, len(err.Error()), 2<<10, "the unknown id is quoted cut")
	})
	t.Run("a provider's", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{MaxName: 64})
		feedAll(t, h, provider.OpenAIChat,
			chatCall(0, long+strings.Repeat("y", 1<<20), "todo", `{"action":"list"}`),
			chatCall(1, "c2", long, `{"action":"list"}`),
			chatCall(2, "c3", "todo", `{"action":"list"}`))
		assert.Equal(t, []verdict{{long[:64] + "…", "call_id", false}, {"c2", "tool_name", false}, {"c3", "", true}}, verdicts(h))
		assert.Equal(t, long[:64]+"…", h.results[1].ToolName)
	})
	t.Run("a cut id spells no id within the limit", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{MaxName: 64})
		cut := strings.Repeat("x", 61) + "…" // 64 bytes: what a cut at 64 gives
		require.NoError(t, h.Start(cut, "todo", nil))
		require.NoError(t, h.ProviderEvent(provider.OpenAIChat, []byte(chatCall(0, strings.Repeat("x", 61)+"😀", "todo", `{"action":"list"}`))))
		require.NoError(t, h.Delta(cut, []byte(`{"action":"list"}`)))
		require.NoError(t, h.End(cut))
		require.Len(t, h.results, 2)
		assert.Greater(t, len(h.results[0].CallID), 64, "the refused call's id is cut past the limit")
		assert.Equal(t, "call_id", h.results[0].Findings[0].Keyword)
		assert.Equal(t, cut, h.results[1].CallID)
		assert.True(t, h.results[1].Valid())
	})
	t.Run("a provider's key", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, stream.Limits{MaxName: 64})
		err := h.ProviderEvent(provider.OpenAIResponses, []byte(`{"type":"response.function_call_arguments.delta","item_id":"`+long+`","delta":"{"}`))
		assert.Equal(t, stream.InvalidArgument, kinds(err))
		assert.Contains(t, err.Error(), "longer than the limit of 64")
	})
}
