package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

// repeated joins n renderings of format (given the index) with commas.
func repeated(n int, format string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// TestBookkeepingIsLinear: one event of about 2 MB that names tens of
// thousands of candidates, choices or blocks costs the adapter work in
// proportion to its entries, not to their square. (A Gemini event of 4 MB
// once took 54 s: each candidate was found by a scan of all the others.)
func TestBookkeepingIsLinear(t *testing.T) {
	t.Parallel()
	const n = 20_000
	cases := []struct {
		name   string
		p      provider.Provider
		events []string
	}{
		{"gemini candidates", provider.Gemini, []string{
			`{"candidates":[` + repeated(n, `{"index":%d,"content":{"parts":[{"functionCall":{"name":"f","willContinue":true}}]}}`) + `]}`,
			`{"candidates":[` + repeated(n, `{"index":%d,"content":{"parts":[{"functionCall":{}}]},"finishReason":"STOP"}`) + `]}`,
		}},
		{"openai chat choices ended one by one", provider.OpenAIChat, []string{
			`{"choices":[` + repeated(n, `{"index":%d,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{}"}}]}}`) + `]}`,
			`{"choices":[` + repeated(n, `{"index":%d,"delta":{},"finish_reason":"tool_calls"}`) + `]}`,
		}},
		{"anthropic blocks stopped in reverse order", provider.Anthropic, func() []string {
			evs := []string{`{"type":"message_start","message":{"content":[]}}`}
			for i := range n / 10 {
				evs = append(evs, fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`, i))
			}
			for i := n/10 - 1; i >= 0; i-- {
				evs = append(evs, fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
			}
			return evs
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := provider.New(tc.p)
			require.NoError(t, err)
			ck := newChecker()
			for _, ev := range tc.events {
				evs, err := a.Feed(nil, []byte(ev))
				require.NoError(t, err)
				require.NoError(t, ck.add(evs))
			}
			require.NoError(t, ck.add(a.Close(nil)))
			calls := len(ck.result())
			require.Positive(t, calls)
			assert.LessOrEqual(t, provider.Work(a), 4*calls, "bookkeeping steps for %d calls", calls)
		})
	}
}

// TestStrictReadingIsLinearInNames: an object of many members costs the
// strict reading a bounded number of steps per name (a set past the
// first names, not a comparison with every name before), and a name
// repeated far into such an object is still found.
func TestStrictReadingIsLinearInNames(t *testing.T) {
	t.Parallel()
	const members = 50_000
	names := repeated(members, `"x%[1]d":%[1]d`)
	event := func(extra string) []byte {
		return []byte(`{"choices":[{"index":0,"delta":{` + names + `,` + extra + `"content":"x"}}]}`)
	}
	a, err := provider.New(provider.OpenAIChat)
	require.NoError(t, err)
	_, err = a.Feed(nil, event(""))
	require.NoError(t, err)
	steps := provider.StrictSteps(a)
	t.Logf("%d members: %d steps", members, steps)
	assert.LessOrEqual(t, steps, 3*members, "steps for %d members", members)

	_, err = a.Feed(nil, event(`"x40000":1,`))
	var ee *provider.EventError
	require.ErrorAs(t, err, &ee)
	assert.Contains(t, ee.Reason, `the member "x40000" appears twice in the object at "/choices/0/delta"`)
}
