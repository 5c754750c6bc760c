package schema

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/jsondoc"
)

// TestCount: a count keyword's value is any non-negative integer, exact
// up to math.MaxInt64 and saturated there beyond it, with the schema's
// value kept for messages; anything else is not a count.
func TestCount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"-0", 0, true},
		{"0e5", 0, true},
		{"7", 7, true},
		{"1.0", 1, true},
		{"1e2", 100, true},
		{"25e-1", 0, false},
		{"999999999999999999", 999_999_999_999_999_999, true},
		{"1000000000000000000", 1_000_000_000_000_000_000, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"9223372036854775808", math.MaxInt64, true},
		{"9999999999999999999", math.MaxInt64, true},
		{"99999999999999999999", math.MaxInt64, true},
		{"1e30", math.MaxInt64, true},
		{"1e999999", math.MaxInt64, true},
		{"-1", 0, false},
		{"1.5", 0, false},
		{`"1"`, 0, false},
		{"null", 0, false},
	} {
		t.Run(tc.text, func(t *testing.T) {
			t.Parallel()
			v, err := jsondoc.Parse([]byte(tc.text), 8)
			require.NoError(t, err)
			n := &Node{}
			k, ok := count(n, "maxLength", v)
			assert.Equal(t, tc.ok, ok)
			if tc.ok {
				assert.Equal(t, tc.want, k)
			}
			if saturated := n.Saturated["maxLength"]; tc.ok && k == math.MaxInt64 && tc.text != "9223372036854775807" {
				require.NotNil(t, saturated, "a saturated count keeps the schema's value")
				assert.Equal(t, 0, saturated.Cmp(v.Num))
			} else {
				assert.Nil(t, n.Saturated, "an exact count keeps nothing")
			}
		})
	}
}
