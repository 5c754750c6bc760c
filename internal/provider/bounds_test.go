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

// each returns n renderings of format (given the index).
func each(n int, format string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(format, i)
	}
	return out
}

// TestBookkeepingIsLinear: one event of about 2 MB that names tens of
// thousands of candidates, choices or blocks costs the adapter work in
// proportion to its entries, not to their square. (A Gemini event of 4 MB
// once took 54 s: each candidate was found by a scan of all the others.)
// The place limit is raised to let so many through (see TestPlaceLimit).
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
			a.LimitPlaces(n)
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

// TestPlaceLimit: an adapter keeps state for every choice (OpenAI Chat),
// candidate (Gemini) or output item (Responses, per response) that an
// event names, whatever its index, call or no call: up to the place limit
// it takes them, and the event that would name one more is refused whole,
// an *EventError without Key wrapping ErrTooManyPlaces, changing nothing
// (the events after it are read as if it never came). Before, 16.9 MB of
// Gemini events naming new candidates held 142.8 MB. Anthropic, Bedrock and
// Cohere keep no state per block or index but its call, which the session
// counts, and take any number.
func TestPlaceLimit(t *testing.T) {
	t.Parallel()
	const n = 3
	chat := func(indices ...int) string {
		var choices []string
		for _, i := range indices {
			choices = append(choices, fmt.Sprintf(`{"index":%d,"delta":{}}`, i))
		}
		return `{"choices":[` + strings.Join(choices, ",") + `]}`
	}
	gemini := func(indices ...int) string {
		var cands []string
		for _, i := range indices {
			cands = append(cands, fmt.Sprintf(`{"index":%d}`, i))
		}
		return `{"candidates":[` + strings.Join(cands, ",") + `]}`
	}
	reasoning := func(at int, id string) string {
		return fmt.Sprintf(`{"type":"response.output_item.added","output_index":%d,"item":{"type":"reasoning","id":%q}}`, at, id)
	}
	emptyText := func(at int, id string) string {
		return fmt.Sprintf(`{"type":"response.output_text.delta","item_id":%q,"output_index":%d,"content_index":0,"delta":""}`, id, at)
	}
	for _, c := range []struct {
		name   string
		p      provider.Provider
		events []string // n places, or any number where no limit applies: accepted
		past   string   // the event with one place more: refused, or "" for none
		after  []string // accepted after it, as if it never came
	}{
		{"chat choices one by one", provider.OpenAIChat, []string{chat(0), chat(1), chat(2), chat(0, 2, 1)}, chat(3), []string{chat(2, 0)}},
		{"chat choices in one chunk", provider.OpenAIChat, nil, chat(0, 1, 2, 3), []string{chat(0, 1, 2)}},
		{"chat choices past some", provider.OpenAIChat, []string{chat(0)}, chat(1, 2, 3), []string{chat(1), chat(2)}},
		{"gemini candidates of any index", provider.Gemini, []string{gemini(7), gemini(70, 7), gemini(700, 70, 7, 7)}, gemini(7, 7000), []string{gemini(700)}},
		{"gemini candidates in one chunk", provider.Gemini, nil, gemini(0, 1, 2, 3), []string{gemini(3, 4, 5)}},
		{"gemini candidates named twice count once", provider.Gemini, []string{gemini(0, 0, 1, 1, 2, 2)}, gemini(3), nil},
		{"responses items added", provider.OpenAIResponses, []string{rCreated(), reasoning(0, "rs_0"), reasoning(1, "rs_1"), reasoning(2, "rs_2")},
			reasoning(3, "rs_3"), []string{rCreated(), reasoning(0, "rs_4"), reasoning(1, "rs_5"), reasoning(2, "rs_6")}},
		{"responses items added without id", provider.OpenAIResponses, []string{rCreated(), rAdded("0", "reasoning", ""), rAdded("1", "reasoning", ""), rAdded("2", "reasoning", "")},
			rAdded("3", "reasoning", ""), []string{rCreated()}},
		{"responses items of response.created", provider.OpenAIResponses, []string{rCreated(`{"id":"a"}`, `{"id":"b"}`, `{"id":"c"}`)},
			rCreated(`{"id":"a"}`, `{"id":"b"}`, `{"id":"c"}`, `{"id":"d"}`), []string{rCreated(), reasoning(0, "d")}},
		{"responses items that events name", provider.OpenAIResponses, []string{rCreated(), emptyText(0, "m0"), emptyText(1, "m1"), emptyText(2, "m2"), emptyText(2, "m2")},
			emptyText(3, "m3"), []string{emptyText(0, "m0")}},
		{"anthropic blocks", provider.Anthropic, func() []string {
			evs := []string{aMsgStart}
			for i := range 10 * n {
				evs = append(evs, aStart(fmt.Sprint(i), `{"type":"text","text":""}`), aStop(fmt.Sprint(i)))
			}
			return evs
		}(), "", nil},
		{"bedrock blocks", provider.Bedrock, each(10*n, `{"contentBlockDelta":{"contentBlockIndex":%d,"delta":{"text":""}}}`), "", nil},
		{"cohere indices", provider.Cohere, each(10*n, `{"type":"content-delta","index":%d,"delta":{"message":{"content":{"text":""}}}}`), "", nil},
	} {
		t.Run(c.p.String()+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			a, err := provider.New(c.p)
			require.NoError(t, err)
			a.LimitPlaces(n)
			feed := func(events []string) {
				for i, e := range events {
					_, err := a.Feed(nil, []byte(e))
					require.NoError(t, err, "event %d: %s", i, e)
				}
			}
			feed(c.events)
			if c.past == "" {
				return
			}
			evs, err := a.Feed(nil, []byte(c.past))
			require.ErrorIs(t, err, provider.ErrTooManyPlaces)
			var ee *provider.EventError
			require.ErrorAs(t, err, &ee)
			assert.Empty(t, ee.Key)
			assert.Contains(t, ee.Reason, "past the limit of 3")
			assert.Empty(t, evs)
			feed(c.after)
		})
	}
}

// TestPlaceLimitDefault: without LimitPlaces, the adapter takes
// DefaultMaxPlaces places and refuses the next.
func TestPlaceLimitDefault(t *testing.T) {
	t.Parallel()
	a, err := provider.New(provider.Gemini)
	require.NoError(t, err)
	_, err = a.Feed(nil, []byte(`{"candidates":[`+repeated(provider.DefaultMaxPlaces, `{"index":%d}`)+`]}`))
	require.NoError(t, err)
	_, err = a.Feed(nil, []byte(fmt.Sprintf(`{"candidates":[{"index":%d}]}`, provider.DefaultMaxPlaces)))
	assert.ErrorIs(t, err, provider.ErrTooManyPlaces)
}
