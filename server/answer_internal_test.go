package server

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/schema"
)

func TestCutMessage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, msg string
		n         int
		want      string
	}{
		{"short enough", "abc", 3, "abc"},
		{"cut with the count", "abcdef", 4, "abcd… (2 more bytes)"},
		{"never inside a character", "ab€de", 4, "ab… (5 more bytes)"}, // € is 3 bytes
		{"a character that ends at the cut stays", "ab€de", 5, "ab€… (2 more bytes)"},
		{"nothing fits", "€", 2, "… (3 more bytes)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, c.want, cutMessage(c.msg, c.n))
		})
	}
}

// cutCount reads the "… (N more bytes)" ending of a cut message.
var cutCount = regexp.MustCompile(`… \((\d+) more bytes\)$`)

// TestAnswerBounds checks, on random findings, every promise of answer:
// messages are prefixes of the engine's with an exact count of what was
// left out, pointers are ancestors of the engine's, each text is bounded,
// the findings kept are the first ones and fit the budget (the first
// always kept), and truncation is reported exactly when some were left out.
func TestAnswerBounds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 9))
	text := func(alphabet []string) string {
		var b strings.Builder
		for range rng.IntN(3) * rng.IntN(400) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	pointer := func(alphabet []string) string {
		if p := text(alphabet); p != "" {
			return "/" + p
		}
		return ""
	}
	for i := range 500 {
		fs := make([]schema.Finding, rng.IntN(12))
		for j := range fs {
			fs[j] = schema.Finding{Code: schema.CodeValidation, Keyword: text([]string{"k", "é"}),
				SchemaPath: pointer([]string{"/a", "/~1", "b", "/"}), InstancePath: pointer([]string{"/0", "/x~0", "y"}),
				Message: text([]string{"m", "€", "🙂", " "}), Offset: int64(j) - 1}
		}
		a := &answer{maxFindings: 1 + rng.IntN(12), maxText: 1 + rng.IntN(300), left: rng.IntN(3000)}
		budget, maxText := a.left, a.maxText
		out, truncated := a.findings(fs)
		name := "case " + strconv.Itoa(i)
		require.LessOrEqual(t, len(out), len(fs), name)
		assert.Equal(t, len(out) < len(fs), truncated, name)
		if len(fs) > 0 {
			assert.NotEmpty(t, out, "%s: the first finding is always kept", name)
		}
		assert.LessOrEqual(t, len(out), a.maxFindings, name)
		total := 0
		for j, e := range out {
			f := fs[j]
			assert.Equal(t, max(f.Offset, 0), e.GetOffset(), name)
			for _, p := range []struct{ got, orig string }{{e.GetSchemaPath(), f.SchemaPath}, {e.GetInstancePath(), f.InstancePath}} {
				assert.LessOrEqual(t, len(p.got), maxText, name)
				assert.True(t, p.got == p.orig || strings.HasPrefix(p.orig, p.got+"/"), "%s: %q is not an ancestor of %q", name, p.got, p.orig)
			}
			msg := e.GetMessage()
			assert.True(t, utf8.ValidString(msg), name)
			if msg != f.Message {
				m := cutCount.FindStringSubmatch(msg)
				require.NotNil(t, m, "%s: %q", name, msg)
				kept := strings.TrimSuffix(msg, m[0])
				assert.LessOrEqual(t, len(kept), maxText, name)
				assert.True(t, strings.HasPrefix(f.Message, kept), name)
				assert.Equal(t, strconv.Itoa(len(f.Message)-len(kept)), m[1], name)
			}
			assert.True(t, e.GetKeyword() == f.Keyword || len(e.GetKeyword()) <= maxText+len("…"), name)
			total += findingOverhead + len(e.GetKeyword()) + len(e.GetSchemaPath()) + len(e.GetInstancePath()) + len(msg)
		}
		if len(out) > 1 {
			assert.LessOrEqual(t, total, budget, "%s: the findings past the first fit the budget", name)
		}
	}
}

// TestAnswerSharedBudget checks that one answer's lists draw on one budget:
// once it is spent, a later list keeps nothing, not even its first finding.
func TestAnswerSharedBudget(t *testing.T) {
	t.Parallel()
	f := schema.Finding{Code: schema.CodeValidation, Keyword: "type", Message: strings.Repeat("m", 100)}
	a := &answer{maxFindings: 100, maxText: 1000, left: 3 * (findingOverhead + 104)}
	first, truncated := a.findings([]schema.Finding{f, f})
	assert.Len(t, first, 2)
	assert.False(t, truncated)
	second, truncated := a.findings([]schema.Finding{f, f})
	assert.Len(t, second, 1)
	assert.True(t, truncated)
	third, truncated := a.findings([]schema.Finding{f})
	assert.Empty(t, third)
	assert.True(t, truncated)
}
