package jsontok_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/internal/fixtures"
)

// TestJSONTestSuite runs JSONTestSuite's parsing corpus (nst/JSONTestSuite,
// testdata/json-test-suite): every y_ document is accepted and decodes to
// what encoding/json decodes, every n_ document is refused, and each i_
// document gets the decision fixtures.ImplementationDefined writes down,
// with its reason as the error. Each verdict holds whole, one byte at a
// time and (for documents up to maxSplitChecked bytes) at every split
// (checkSplits).
func TestJSONTestSuite(t *testing.T) {
	t.Parallel()
	const maxSplitChecked = 4096
	decided := 0
	for i, c := range fixtures.JSONTestSuite(t) {
		t.Run(c.Name, func(t *testing.T) {
			var out string
			if len(c.Doc) <= maxSplitChecked {
				out = checkSplits(t, c.Doc, 0, rand.New(rand.NewPCG(uint64(i), 2)))
			} else {
				out = feed(t, c.Doc, 0, nil)
				assert.Equal(t, out, feed(t, c.Doc, 0, bytewiseCuts(len(c.Doc))), "one byte at a time")
			}
			assert.NotContains(t, out, "PROBLEM")
			verdict := lastLine(out)
			switch {
			case c.Accept:
				assert.Empty(t, verdict, "must be accepted")
				if strings.HasPrefix(c.Name, "y_") {
					compareWithEncodingJSON(t, c.Doc)
				}
			case c.Error != "":
				assert.Contains(t, verdict, c.Error)
			default:
				assert.True(t, strings.HasPrefix(verdict, "error @"), "must be refused: %s", verdict)
			}
		})
		if strings.HasPrefix(c.Name, "i_") {
			decided++
		}
	}
	assert.Len(t, fixtures.ImplementationDefined, decided, "a decision for a document the suite does not have")
}
