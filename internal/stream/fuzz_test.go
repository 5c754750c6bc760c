package stream_test

import (
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
)

// FuzzOutputSplit streams an arbitrary answer text as an output, with and
// without code-fence stripping, whole and cut at a rune boundary: nothing
// panics, there is exactly one result, and the cut changes neither the
// verdict nor its findings; the same text sent as plain deltas
// (StartOutput), cut there too, gets the same verdict and findings.
func FuzzOutputSplit(f *testing.F) {
	for _, seed := range []string{
		"{\"x\":1}", "```json\n{\"x\":1}\n```", " ```\n{\"x\":\"`\"}```\n", "Here: {}", "{\"x\":1}\n{\"x\":2}",
		"```json", "```py\n{}\n```", "``", "{\"tag\":\"\\\"```\"}", "",
	} {
		f.Add(seed, uint16(3), true)
		f.Add(seed, uint16(1), false)
	}
	res := schema.Compile(schema.ToolInput, []byte(pointSchema))
	if len(res.Errors) > 0 {
		f.Fatal(res.Errors)
	}
	f.Fuzz(func(t *testing.T, text string, cut uint16, strip bool) {
		if !utf8.ValidString(text) {
			return // a provider's text is UTF-8 (JSON strings carry it)
		}
		at := int(cut) % (len(text) + 1)
		for at > 0 && at < len(text) && !utf8.RuneStart(text[at]) {
			at--
		}
		whole := outputVerdict(t, res.Schema, strip, text)
		sameVerdict(t, text, at, "split", whole, outputVerdict(t, res.Schema, strip, text[:at], text[at:]))
		if text != "" { // an empty text is no provider answer, and a plain one's json finding
			sameVerdict(t, text, at, "plain", whole, plainVerdict(t, res.Schema, strip, text[:at], text[at:]))
		}
	})
}

// sameVerdict fails t unless got has want's verdict and findings.
func sameVerdict(t *testing.T, text string, at int, how string, want, got stream.Result) {
	t.Helper()
	if want.Valid() != got.Valid() || len(want.Findings) != len(got.Findings) {
		t.Fatalf("%q cut at %d: whole %+v, %s %+v", text, at, want.Findings, how, got.Findings)
	}
	for i, f := range fixtures.Stable(want.Findings) {
		if f != fixtures.Stable(got.Findings)[i] {
			t.Fatalf("%q cut at %d: whole %+v, %s %+v", text, at, want.Findings, how, got.Findings)
		}
	}
}

// plainVerdict sends pieces as a plain-delta answer and returns its one
// result.
func plainVerdict(t *testing.T, s *schema.Schema, strip bool, pieces ...string) stream.Result {
	var got []stream.Result
	sess := stream.NewSession(t.Context(), stream.Limits{}, func(r *stream.Result) { got = append(got, *r) })
	sess.BindOutput(stream.Binding{Handle: "h", Schema: s}, strip)
	if err := sess.StartOutput("answer"); err != nil {
		t.Fatal(err)
	}
	for _, p := range pieces {
		if err := sess.Delta("answer", []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.End("answer"); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d results for one answer", len(got))
	}
	return got[0]
}

// outputVerdict streams pieces as choice 0's text and returns the one result.
func outputVerdict(t *testing.T, s *schema.Schema, strip bool, pieces ...string) stream.Result {
	var got []stream.Result
	sess := stream.NewSession(t.Context(), stream.Limits{}, func(r *stream.Result) { got = append(got, *r) })
	sess.BindOutput(stream.Binding{Handle: "h", Schema: s}, strip)
	for _, p := range pieces {
		if p == "" {
			continue
		}
		if err := sess.ProviderEvent(provider.OpenAIChat, chatText(0, p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.ProviderEvent(provider.OpenAIChat, chatFinish(0, "stop")); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	if len(got) > 1 {
		t.Fatalf("%d results for one output", len(got))
	}
	if len(got) == 0 {
		return stream.Result{} // an empty text is no output
	}
	return got[0]
}
