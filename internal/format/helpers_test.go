package format_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/format"
)

// formatCase is one string and whether a format accepts it, with the rule
// it exercises as the subtest name.
type formatCase struct {
	why   string
	value string
	valid bool
}

// valid and invalid build formatCases.
func valid(why, value string) formatCase   { return formatCase{why, value, true} }
func invalid(why, value string) formatCase { return formatCase{why, value, false} }

// checkFormat runs cases against the named format of dialect d.
func checkFormat(t *testing.T, d format.Dialect, name string, cases []formatCase) {
	t.Helper()
	check, ok := format.Assertions{}.Lookup(d, name)
	require.True(t, ok, "Lookup(%s, %q)", d, name)
	for _, tc := range cases {
		t.Run(tc.why, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.valid, check(tc.value), "%s %q", name, tc.value)
		})
	}
}
