package provider_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/provider"
)

// positionCase is a stream whose events at refused are each an
// *EventError without Key that produced nothing (none: every event is
// accepted), and the calls assembled after Close.
type positionCase struct {
	name    string
	events  []string
	refused []int
	want    []call
}

// runPositions runs each case through a new adapter for p.
func runPositions(t *testing.T, p provider.Provider, cases []positionCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			calls, _ := feedRefusingAs(t, p, tc.events, tc.refused)
			assert.Equal(t, tc.want, calls)
		})
	}
}

// feedRefusingAs feeds events to a new adapter for p: those at refused
// must be *EventErrors without Key that produced no event, every other
// one must be accepted. It returns the calls and outputs assembled after
// Close.
func feedRefusingAs(t *testing.T, p provider.Provider, events []string, refused []int) ([]call, []output) {
	t.Helper()
	a, err := provider.New(p)
	require.NoError(t, err)
	ck := newChecker()
	for i, e := range events {
		evs, err := a.Feed(nil, []byte(e))
		if !slices.Contains(refused, i) {
			require.NoError(t, err, "event %d: %s", i, e)
			require.NoError(t, ck.add(evs), "event %d", i)
			continue
		}
		var ee *provider.EventError
		require.ErrorAs(t, err, &ee, "event %d: %s", i, e)
		assert.Empty(t, ee.Key, "event %d is refused whole", i)
		assert.Empty(t, evs, "event %d", i)
	}
	require.NoError(t, ck.add(a.Close(nil)), "close")
	return ck.result(), ck.texts()
}

// cChunk is a Chat chunk of choices (see cChoice).
func cChunk(choices ...string) string {
	return `{"choices":[` + strings.Join(choices, ",") + `]}`
}

// cChoice is choice i (JSON) whose delta has the tool-call entries given
// (see cEntry), or an empty delta.
func cChoice(i string, entries ...string) string {
	if len(entries) == 0 {
		return `{"index":` + i + `,"delta":{}}`
	}
	return `{"index":` + i + `,"delta":{"tool_calls":[` + strings.Join(entries, ",") + `]}}`
}

// cEntry is a tool-call entry at index i ("" for none) with id, name and
// arguments (Go strings; id and name left out when empty).
func cEntry(i, id, name, args string) string {
	s := `{`
	if i != "" {
		s += `"index":` + i + `,`
	}
	if id != "" {
		s += `"id":"` + id + `","type":"function",`
	}
	fn := `"arguments":` + quoteJSON(args)
	if name != "" {
		fn = `"name":"` + name + `",` + fn
	}
	return s + `"function":{` + fn + `}}`
}

// cFinish ends choice i with finish_reason tool_calls.
func cFinish(i string) string {
	return `{"choices":[{"index":` + i + `,"delta":{},"finish_reason":"tool_calls"}]}`
}

// TestChatPositions: openai-python's stream helper finds a choice and a
// tool call by list position (choices[index], accumulate_delta's
// acc_value[index], with Python's indexing, list.insert past the end, and
// a first list kept as sent), toolgate by index, so a chunk whose
// choices or calls the helper would place elsewhere ends the stream.
// Before the fix, a tool call at index -1 was a call of its own (the
// helper appends it to the last call: read {"path":"/tmp/x/../../etc/shadow"}),
// and a first chunk listing index 1 then 0 had toolgate check read with
// the arguments that the helper gives write.
func TestChatPositions(t *testing.T) {
	t.Parallel()
	read := cChunk(cChoice("0", cEntry("0", "call_1", "read", `{"path":"/tmp/x`)))
	tail := cChunk(cChoice("0", cEntry("0", "", "", `"}`)))
	readX := call{Key: "choice0/tool0", ID: "call_1", Name: "read", Args: `{"path":"/tmp/x"}`}
	runPositions(t, provider.OpenAIChat, []positionCase{
		{"a tool call at index -1", []string{read, cChunk(cChoice("0", cEntry("-1", "", "", "/../../etc/shadow"))), tail, cFinish("0")},
			[]int{1}, []call{readX}},
		{"a choice at index -1", []string{read, cChunk(cChoice("-1", cEntry("0", "", "", "/../../etc/shadow"))), tail, cFinish("0")},
			[]int{1}, []call{readX}},
		{"a first list of calls out of order", []string{cChunk(cChoice("0", cEntry("1", "call_r", "read", ""), cEntry("0", "call_w", "write", "")))},
			[]int{0}, []call{}},
		{"a first call at index 3", []string{cChunk(cChoice("0", cEntry("3", "call_1", "read", `{"path":"/tmp/x`)))}, []int{0}, []call{}},
		{"a call at index 2 after one call", []string{read, cChunk(cChoice("0", cEntry("2", "call_2", "write", `{}`))), tail},
			[]int{1}, []call{readX}},
		{"new calls out of order after one", []string{read, cChunk(cChoice("0", cEntry("2", "call_3", "write", `{}`), cEntry("1", "call_2", "write", `{}`))), tail},
			[]int{1}, []call{readX}},
		{"an index repeated in a first list", []string{cChunk(cChoice("0", cEntry("0", "call_1", "read", `{"path":`), cEntry("0", "", "", `"/tmp/x"}`)))},
			[]int{0}, []call{}},
		{"a call index past the end of a list", []string{cChunk(cChoice("0", cEntry("0", "call_1", "read", `{}`), cEntry("2", "call_2", "write", `{}`)))},
			[]int{0}, []call{}},
		{"a first chunk's choices out of order", []string{cChunk(cChoice("1"), cChoice("0"))}, []int{0}, []call{}},
		{"a first chunk that repeats a choice", []string{cChunk(cChoice("0", cEntry("0", "call_1", "read", `{"path":"/etc/shadow"}`)), cChoice("0"))},
			[]int{0}, []call{}},
		{"a first choice at index 1", []string{cChunk(cChoice("1", cEntry("0", "call_1", "read", `{}`)))}, []int{0}, []call{}},
		{"a choice at index 2 after one", []string{read, cChunk(cChoice("2", cEntry("0", "call_2", "write", `{}`))), tail},
			[]int{1}, []call{readX}},
		{"a refused chunk's choices and calls are not counted", []string{
			cChunk(cChoice("0", cEntry("0", "call_1", "read", `{"path":"/tmp/x"}`)), cChoice("1", cEntry("-1", "", "", `x`))),
			cChunk(cChoice("1", cEntry("0", "call_2", "write", `{}`))),
			read,
			cChunk(cChoice("0", cEntry("1", "call_2", "write", `{}`)), cChoice("1", cEntry("1", "call_3", "write", `{}`))),
			cChunk(cChoice("0", cEntry("2", "call_4", "write", `{}`))),
			tail},
			[]int{0, 1, 3, 4}, []call{readX}},

		// What openai-python reads as toolgate does.
		{"an index repeated in a later list", []string{read, cChunk(cChoice("0", cEntry("0", "", "", `"`), cEntry("0", "", "", `}`)))},
			nil, []call{readX}},
		{"calls in any order once listed", []string{
			cChunk(cChoice("0", cEntry("0", "call_1", "read", ``), cEntry("1", "call_2", "write", ``))),
			cChunk(cChoice("0", cEntry("1", "", "", `{"path":"/etc/shadow"}`), cEntry("0", "", "", `{"path":"/tmp/x"}`), cEntry("2", "call_3", "noop", `{}`), cEntry("2", "", "", ``))),
			cFinish("0")},
			nil, []call{
				{Key: "choice0/tool0", ID: "call_1", Name: "read", Args: `{"path":"/tmp/x"}`},
				{Key: "choice0/tool1", ID: "call_2", Name: "write", Args: `{"path":"/etc/shadow"}`},
				{Key: "choice0/tool2", ID: "call_3", Name: "noop", Args: `{}`}}},
		{"Mistral's calls without index, whole, in one chunk", []string{
			cChunk(`{"index":0,"delta":{"role":"assistant","content":""}}`),
			`{"choices":[{"index":0,"delta":{"tool_calls":[` + cEntry("", "m1", "read", `{"path":"/tmp/x"}`) + `,` + cEntry("", "m2", "noop", `{}`) + `]},"finish_reason":"tool_calls"}]}`},
			nil, []call{{Key: "choice0/tool0", ID: "m1", Name: "read", Args: `{"path":"/tmp/x"}`}, {Key: "choice0/tool1", ID: "m2", Name: "noop", Args: `{}`}}},
		{"the id and name repeated on every chunk", []string{
			cChunk(cChoice("0", cEntry("0", "call_1", "read", `{"path":`))), cChunk(cChoice("0", cEntry("0", "call_1", "read", `"/tmp/x"}`))), cFinish("0")},
			nil, []call{readX}},
		{"parallel calls, each begun in its own chunk", []string{
			read, tail, cChunk(cChoice("0", cEntry("1", "call_2", "write", `{"path":"/etc/shadow"}`))), cFinish("0")},
			nil, []call{readX, {Key: "choice0/tool1", ID: "call_2", Name: "write", Args: `{"path":"/etc/shadow"}`}}},
		{"several choices, interleaved once listed", []string{
			cChunk(cChoice("0", cEntry("0", "call_a", "read", `{"path":"/tmp/x"}`)), cChoice("1", cEntry("0", "call_b", "write", ``))),
			cChunk(cChoice("2", cEntry("0", "call_c", "noop", `{}`))),
			cChunk(cChoice("1", cEntry("0", "", "", `{}`)), cChoice("0"), cChoice("2")),
			cFinish("1"), cFinish("0"), cFinish("2")},
			nil, []call{
				{Key: "choice0/tool0", ID: "call_a", Name: "read", Args: `{"path":"/tmp/x"}`},
				{Key: "choice1/tool0", ID: "call_b", Name: "write", Args: `{}`},
				{Key: "choice2/tool0", ID: "call_c", Name: "noop", Args: `{}`}}},
		{"a new choice repeated in a later chunk", []string{read, cChunk(cChoice("1", cEntry("0", "call_2", "write", `{`)), cChoice("1", cEntry("0", "", "", `}`))), tail},
			nil, []call{readX, {Key: "choice1/tool0", ID: "call_2", Name: "write", Args: `{}`}}},
		{"an empty first chunk", []string{`{"choices":[],"prompt_filter_results":[]}`, read, tail},
			nil, []call{readX}},
	})
}

// TestChatLateEntries: a choice's finish_reason ends its calls, but
// openai-python's stream state, which finds a call by its index, still
// applies a later entry to it: it appends the arguments (as the Vercel AI
// SDK does while the call's arguments do not parse) and joins the name to
// the call's. An entry that would so change a call toolgate has ended is
// refused whole: arguments for a call that ended with none, which was
// checked as {} (openai-python then runs {"cmd":"rm -rf /"}), or a name
// other than the call's, after the finish_reason or in the same chunk.
// Arguments after a call's own text are ignored, as before: a client's
// text is then no longer one JSON document; so are an empty or repeated
// name, and an entry with an id, which begins a call of its own.
func TestChatLateEntries(t *testing.T) {
	t.Parallel()
	const rm = `{"cmd":"rm -rf /"}`
	empty := cChunk(cChoice("0", cEntry("0", "call_1", "run", "")))
	emptyRun := call{Key: "choice0/tool0", ID: "call_1", Name: "run"}
	done := cChunk(cChoice("0", cEntry("0", "call_1", "run", "{}")))
	doneRun := call{Key: "choice0/tool0", ID: "call_1", Name: "run", Args: "{}"}
	legacy := func(name, args string) string {
		fn := `"arguments":` + quoteJSON(args)
		if name != "" {
			fn = `"name":"` + name + `",` + fn
		}
		return `{"choices":[{"index":0,"delta":{"function_call":{` + fn + `}}}]}`
	}
	runPositions(t, provider.OpenAIChat, []positionCase{
		{"arguments for a call that ended with none", []string{empty, cFinish("0"), cChunk(cChoice("0", cEntry("0", "", "", rm)))},
			[]int{2}, []call{emptyRun}},
		{"arguments for it in a chunk with other calls", []string{empty, cFinish("0"), cChunk(cChoice("0", cEntry("1", "call_2", "noop", "{}"), cEntry("0", "", "", rm)))},
			[]int{2}, []call{emptyRun}},
		// The refused chunk's calls and choices are not counted (see order):
		// the next call is at index 1, not 2.
		{"a refused chunk's new calls", []string{empty, cFinish("0"),
			cChunk(cChoice("0", cEntry("1", "call_2", "noop", "{}"), cEntry("0", "", "", rm)), cChoice("1")),
			cChunk(cChoice("0", cEntry("2", "call_3", "noop", "{}"))),
			cChunk(cChoice("2")),
			cChunk(cChoice("0", cEntry("1", "call_3", "noop", "{}")))},
			[]int{2, 3, 4}, []call{emptyRun, {Key: "choice0/tool1", ID: "call_3", Name: "noop", Args: "{}"}}},
		{"another name for an ended call", []string{done, cFinish("0"), cChunk(cChoice("0", cEntry("0", "", "un", "")))},
			[]int{2}, []call{doneRun}},
		{"arguments in the chunk of the finish_reason, after it", []string{empty,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"},` + cChoice("0", cEntry("0", "", "", rm)) + `]}`},
			[]int{1}, []call{emptyRun}},
		{"legacy arguments for a function call that ended with none", []string{legacy("run", ""), cFinish("0"), legacy("", rm)},
			[]int{2}, []call{{Key: "choice0/function", Name: "run"}}},

		// What openai-python cannot read as another call than toolgate checked.
		{"arguments after a call's own", []string{done, cFinish("0"), cChunk(cChoice("0", cEntry("0", "", "", rm)))},
			nil, []call{doneRun}},
		{"the same name, and an empty one", []string{done, cFinish("0"), cChunk(cChoice("0", cEntry("0", "", "run", ""))), cChunk(cChoice("0", cEntry("0", "", "", "")))},
			nil, []call{doneRun}},
		{"an entry with an id", []string{empty, cFinish("0"), cChunk(cChoice("0", cEntry("0", "call_2", "", rm)))},
			nil, []call{emptyRun, {Key: "choice0/tool0#2", ID: "call_2", Args: rm}}},
		{"an entry with an id, then one without, in one chunk", []string{empty, cFinish("0"),
			cChunk(cChoice("0", cEntry("0", "call_2", "run", `{"cmd":`), cEntry("0", "", "", `"ls"}`)))},
			nil, []call{emptyRun, {Key: "choice0/tool0#2", ID: "call_2", Name: "run", Args: `{"cmd":"ls"}`}}},
		{"a call at a new index after the finish_reason", []string{empty, cFinish("0"), cChunk(cChoice("0", cEntry("1", "", "", rm)))},
			nil, []call{emptyRun, {Key: "choice0/tool1", Args: rm}}},
	})
}
