package pattern_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/pattern"
)

// nodeCorpus is testdata/ecma/corpus.json: V8's answers (see PROVENANCE.md).
type nodeCorpus struct {
	Texts []string `json:"texts"`
	Match []struct {
		Pattern string `json:"pattern"`
		Matches string `json:"matches"`
	} `json:"match"`
	Syntax []struct {
		Pattern string `json:"pattern"`
		Valid   bool   `json:"valid"`
	} `json:"syntax"`
}

func loadNodeCorpus(t *testing.T) nodeCorpus {
	t.Helper()
	data, err := os.ReadFile("testdata/ecma/corpus.json")
	require.NoError(t, err)
	var c nodeCorpus
	require.NoError(t, json.Unmarshal(data, &c))
	require.NotEmpty(t, c.Match)
	require.NotEmpty(t, c.Syntax)
	return c
}

// TestNodeCorpus checks the ECMA-262 translation against V8: every
// well-formed pattern of the corpus compiles and gives V8's verdict on every
// text, whole and written one byte at a time; every pattern of the syntax
// list is valid for Valid exactly when V8 accepts it.
func TestNodeCorpus(t *testing.T) {
	t.Parallel()
	c := loadNodeCorpus(t)
	t.Run("match", func(t *testing.T) {
		t.Parallel()
		for _, m := range c.Match {
			require.Len(t, m.Matches, len(c.Texts), m.Pattern)
			p, err := pattern.Compile(m.Pattern, pattern.ECMA262, pattern.Limits{})
			if !assert.NoError(t, err, m.Pattern) {
				continue
			}
			for i, text := range c.Texts {
				want := m.Matches[i] == '1'
				assert.Equal(t, want, p.MatchString(text), "/%s/u on %+q", m.Pattern, text)
				assert.Equal(t, want, matchBytewise(p, text), "/%s/u on %+q, byte by byte", m.Pattern, text)
			}
		}
	})
	t.Run("syntax", func(t *testing.T) {
		t.Parallel()
		for _, s := range c.Syntax {
			err := pattern.Valid(s.Pattern, pattern.Limits{})
			if s.Valid || annexB[s.Pattern] {
				assert.NoError(t, err, "/%s/u is valid, or an Annex B form toolgate reads", s.Pattern)
				continue
			}
			var perr *pattern.Error
			if assert.ErrorAs(t, err, &perr, "/%s/u is a SyntaxError", s.Pattern) {
				assert.Equal(t, pattern.Malformed, perr.Kind, s.Pattern)
			}
		}
	})
}

// annexB are the corpus's patterns that V8 refuses with the u flag and
// toolgate reads as ECMA-262 Annex B does (see TestAnnexBForms), each
// with the meaning V8 gives it without the u flag. [\p{L}-z] is not one:
// without the u flag \p is the letter p, and V8 refuses it in both modes.
var annexB = map[string]bool{
	`\_`: true, `\ `: true, `\-`: true, `{`: true, `}`: true, `]`: true, `a{`: true, `a{1`: true, `a{1,2`: true,
	`a{,2}`: true, `[]]`: true, `[\d-z]`: true, `[a-\d]`: true, `[\w-\d]`: true, `[\_]`: true,
}

// matchBytewise runs p over text one byte per Write.
func matchBytewise(p *pattern.Pattern, text string) bool {
	var m pattern.Matcher
	m.Reset(p)
	for i := 0; i < len(text); i++ {
		m.Write([]byte{text[i]})
	}
	return m.Matched()
}
