package stream_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/provider/recording"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/internal/validator"
)

// The schemas of these tests are derived from each answer's own text,
// independently of the engine: encoding/json reads the first JSON value
// (after one fence, for a fenced answer), and derive writes the schema that
// value satisfies exactly — every key required, no other key allowed.

// firstValue returns the first JSON value in text (inside its fence, if it
// has one), or nil when there is none.
func firstValue(text string) any {
	body := strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(body, "```json"); ok {
		body = strings.TrimSuffix(rest, "```")
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// firstBreak returns the offset of the first byte of text after which it
// cannot be one JSON document (encoding/json's reading), or -1.
func firstBreak(text string) int64 {
	dec := json.NewDecoder(strings.NewReader(text))
	var v any
	if err := dec.Decode(&v); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return syn.Offset - 1
		}
		return int64(len(text)) // unexpected end
	}
	rest := text[dec.InputOffset():]
	if trimmed := strings.TrimLeft(rest, " \t\r\n"); trimmed != "" {
		return dec.InputOffset() + int64(len(rest)-len(trimmed))
	}
	return -1
}

// derive returns the schema v satisfies exactly, as a Go value.
func derive(v any) map[string]any {
	switch x := v.(type) {
	case map[string]any:
		props, required := map[string]any{}, []string{}
		for k, e := range x {
			props[k] = derive(e)
			required = append(required, k)
		}
		return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
	case []any:
		items := map[string]any{"type": "string"}
		if len(x) > 0 {
			items = derive(x[0])
		}
		return map[string]any{"type": "array", "items": items}
	case string:
		return map[string]any{"type": "string"}
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return map[string]any{"type": "number"}
		}
		return map[string]any{"type": "integer"}
	case bool:
		return map[string]any{"type": "boolean"}
	}
	panic("derive: null is not in the recordings")
}

// flat reports whether v is an object of primitives and arrays of
// primitives: what the bindable output profile can describe.
func flat(v any) bool {
	obj, ok := v.(map[string]any)
	if !ok || len(obj) == 0 {
		return false
	}
	for _, e := range obj {
		switch x := e.(type) {
		case map[string]any:
			return false
		case []any:
			for _, item := range x {
				if _, ok := item.(map[string]any); ok {
					return false
				}
			}
		}
	}
	return true
}

// compileFor compiles the derived schema under the bindable output profile
// when it can describe the value (the natural profile for outputs), under
// the tool input profile otherwise. In the bindable profile,
// additionalProperties is accepted but not enforced, so it is left out.
func compileFor(t *testing.T, v any, mutate func(map[string]any)) *schema.Schema {
	t.Helper()
	s := derive(v)
	profile := schema.ToolInput
	if flat(v) {
		profile = schema.OutputBindable
		delete(s, "additionalProperties")
	}
	if mutate != nil {
		mutate(s)
	}
	doc, err := json.Marshal(s)
	require.NoError(t, err)
	res := schema.Compile(profile, doc)
	require.Empty(t, res.Errors, "%s", doc)
	return res.Schema
}

// schemaFor returns the schema derived from the answer's first value,
// changed by mutate, or — for a refusal, with no value, or a top-level
// array, whose schema no profile compiles (every root is an object,
// DESIGN.md §3 and §8) — a permissive object schema.
func schemaFor(t *testing.T, text string, mutate func(map[string]any)) *schema.Schema {
	t.Helper()
	if v, ok := firstValue(text).(map[string]any); ok {
		return compileFor(t, v, mutate)
	}
	res := schema.Compile(schema.ToolInput, []byte(`{"type":"object"}`))
	require.Empty(t, res.Errors)
	return res.Schema
}

// mismatch changes the type of the value of the answer's first key, so
// that no completion of the text can match.
func mismatch(text string) func(map[string]any) {
	return func(s map[string]any) {
		props, ok := s["properties"].(map[string]any)
		if !ok {
			return // a top-level array: refused at its first byte anyway
		}
		key := firstKey(text)
		if props[key].(map[string]any)["type"] == "string" {
			props[key] = map[string]any{"type": "integer"}
		} else {
			props[key] = map[string]any{"type": "string"}
		}
	}
}

// firstKey returns the first member name of the first JSON object in text.
func firstKey(text string) string {
	i := strings.IndexByte(text, '{')
	dec := json.NewDecoder(strings.NewReader(text[i:]))
	_, _ = dec.Token() // {
	tok, _ := dec.Token()
	return tok.(string)
}

// streamRecording feeds a recording's events to a session with its output
// bound to s (stripping a fence when strip), one provider event at a time,
// and returns the results by call id.
func streamRecording(t *testing.T, p provider.Provider, events []string, s *schema.Schema, strip bool) map[string]stream.Result {
	t.Helper()
	got := map[string]stream.Result{}
	sess := stream.NewSession(t.Context(), stream.Limits{}, func(r *stream.Result) {
		_, dup := got[r.CallID]
		require.False(t, dup, "one result per output: %s", r.CallID)
		got[r.CallID] = *r
	})
	sess.BindOutput(stream.Binding{Handle: "h", Schema: s}, strip)
	for _, ev := range events {
		require.NoError(t, sess.ProviderEvent(p, []byte(ev)))
	}
	sess.Close()
	return got
}

// TestOutputRecordingVerdicts: every recorded answer, validated while it
// streams under the schema derived from its own text, gets the verdict its
// .expected.json implies: valid where json is true; a "json" finding at the
// first byte that breaks one JSON document where it is false (a fence, a
// second document); the refusal its own finding. With strip_code_fence the
// fenced answer is valid.
func TestOutputRecordingVerdicts(t *testing.T) {
	t.Parallel()
	for _, rec := range recording.All(t) {
		t.Run(rec.Name, func(t *testing.T) {
			t.Parallel()
			outs := rec.Outputs()
			s := schemaFor(t, outs[0].Text, nil)
			got := streamRecording(t, rec.Provider, rec.Events, s, false)
			require.Len(t, got, len(outs))
			for _, out := range outs {
				r, ok := got[out.Key]
				require.True(t, ok, "no result for %s", out.Key)
				assert.Empty(t, r.ToolName)
				switch {
				case out.Refusal != nil:
					require.Len(t, r.Findings, 1)
					assert.Equal(t, "refusal", r.Findings[0].Keyword)
					assert.True(t, r.Early)
				case strings.HasPrefix(strings.TrimSpace(out.Text), "["):
					// Documented exception: every profile's root is an
					// object (DESIGN.md §3, §8), so a top-level array answer
					// cannot be bound; it is refused at its first byte.
					require.NotEmpty(t, r.Findings)
					assert.Equal(t, "type", r.Findings[0].Keyword)
					assert.Equal(t, int64(0), r.Findings[0].Offset)
				case out.JSON:
					assert.True(t, r.Valid(), "%s: %+v", out.Key, r.Findings)
					assert.False(t, r.Early)
					assert.Equal(t, int64(len(out.Text)), r.Bytes)
				default:
					require.NotEmpty(t, r.Findings, "%s", out.Key)
					assert.Equal(t, "json", r.Findings[0].Keyword)
					assert.Equal(t, firstBreak(out.Text), r.Findings[0].Offset, "%s: the first byte that breaks one document", out.Key)
					assert.True(t, r.Early, "known before the message ended")
				}
			}
			if strings.HasPrefix(outs[0].Text, "```") {
				stripped := streamRecording(t, rec.Provider, rec.Events, s, true)
				r := stripped[outs[0].Key]
				assert.True(t, r.Valid(), "fence stripped: %+v", r.Findings)
			}
		})
	}
}

// TestOutputRecordingsRejectEarly: under a schema that cannot match (the
// first key's value of the wrong type), every recorded answer is rejected
// while it streams, at the first byte after which no completion can be
// valid — the first finding of a whole-document Validate of the same text,
// with the same findings at that byte.
func TestOutputRecordingsRejectEarly(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, rec := range recording.All(t) {
		outs := rec.Outputs()
		if firstValue(outs[0].Text) == nil {
			continue // a refusal: nothing to mismatch (its verdict is above)
		}
		checked++
		t.Run(rec.Name, func(t *testing.T) {
			t.Parallel()
			s := schemaFor(t, outs[0].Text, mismatch(outs[0].Text))
			got := streamRecording(t, rec.Provider, rec.Events, s, false)
			for _, out := range outs {
				r := got[out.Key]
				whole := validator.Validate(s, []byte(out.Text), validator.Options{})
				require.False(t, whole.Valid(), "the schema cannot match %s", out.Key)
				first := whole.Findings[0].Offset
				var atFirst []schema.Finding
				for _, f := range whole.Findings {
					if f.Offset == first {
						atFirst = append(atFirst, f)
					}
				}
				assert.Equal(t, fixtures.Stable(atFirst), fixtures.Stable(r.Findings), out.Key)
				assert.True(t, r.Early, "%s rejected before its message ended", out.Key)
				assert.Less(t, first, int64(len(out.Text)), "decided inside the text")
			}
		})
	}
	require.Equal(t, 19, checked, "every recording but the two refusals")
}

// TestOutputRecordingSplitInvariance: the verdict on each recorded answer
// does not depend on how its text was cut into deltas. Each answer's text,
// re-split at random rune boundaries (a provider's deltas are whole UTF-8)
// and streamed as OpenAI Chat content deltas, gets the verdict the
// recording's own events got, under the derived schema and under the
// mismatched one.
func TestOutputRecordingSplitInvariance(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(20261201, 12))
	for _, rec := range recording.All(t) {
		outs := rec.Outputs()
		if firstValue(outs[0].Text) == nil {
			continue
		}
		seeds := [2]uint64{r.Uint64(), r.Uint64()}
		t.Run(rec.Name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(seeds[0], seeds[1]))
			for _, mutate := range []func(map[string]any){nil, mismatch(outs[0].Text)} {
				s := schemaFor(t, outs[0].Text, mutate)
				want := streamRecording(t, rec.Provider, rec.Events, s, false)
				for range 8 {
					events := rechunk(r, outs)
					got := streamRecording(t, provider.OpenAIChat, events, s, false)
					require.Len(t, got, len(want))
					for key, w := range want {
						g := got[key]
						require.Equal(t, fixtures.Stable(w.Findings), fixtures.Stable(g.Findings), "%s in %d events", key, len(events))
						require.Equal(t, w.Early, g.Early, key)
					}
				}
			}
		})
	}
}

// rechunk renders outs as an OpenAI Chat stream, choice n for output n,
// each text cut at random rune boundaries (sometimes one rune per delta)
// and the choices interleaved at random, then each choice's finish. A
// first chunk opens choices 0 to the last one in order, as openai-python
// places choices by position (see package provider): a choice
// seen first after a later one would be read as another.
func rechunk(r *rand.Rand, outs []recording.Output) []string {
	pieces := make([][]string, len(outs))
	for i, out := range outs {
		text, oneRune := out.Text, r.IntN(4) == 0
		for text != "" {
			n := 1 + r.IntN(min(len(text), 24))
			if oneRune {
				_, n = utf8.DecodeRuneInString(text)
			}
			for n < len(text) && !utf8.RuneStart(text[n]) {
				n++
			}
			pieces[i], text = append(pieces[i], text[:n]), text[n:]
		}
	}
	events := []string{openChoices(outs)}
	for left := len(outs); left > 0; {
		i := r.IntN(len(outs))
		if len(pieces[i]) == 0 {
			continue
		}
		events = append(events, string(chatText(choiceOf(outs[i]), pieces[i][0])))
		if pieces[i] = pieces[i][1:]; len(pieces[i]) == 0 {
			events = append(events, string(chatFinish(choiceOf(outs[i]), "stop")))
			left--
		}
	}
	return events
}

// openChoices is a Chat chunk with an empty delta for every choice up to
// the last of outs, in order.
func openChoices(outs []recording.Output) string {
	last := 0
	for _, out := range outs {
		last = max(last, choiceOf(out))
	}
	choices := make([]string, last+1)
	for i := range choices {
		choices[i] = `{"index":` + strconv.Itoa(i) + `,"delta":{}}`
	}
	return `{"choices":[` + strings.Join(choices, ",") + `]}`
}

// choiceOf returns n of an output keyed "output/<n>".
func choiceOf(out recording.Output) int {
	var n int
	_ = json.Unmarshal([]byte(strings.TrimPrefix(out.Key, "output/")), &n)
	return n
}
