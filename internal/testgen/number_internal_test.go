package testgen

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNumberTowardReachesEveryTarget checks numberToward both ways: every
// prefix of every spelling of x can be finished into x, and a tail it
// returns for another target y spells y exactly.
func TestNumberTowardReachesEveryTarget(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(30, 31))
	targets := []string{"0", "1", "-1", "120", "1.2", "-0.5", "1e-30", "12345678901234567890.5", "1e40", "100", "0.001", "-250"}
	for _, lit := range append(targets, bounds...) {
		x := Num(lit)
		for range 40 {
			spelled := string(Encode(r, x))
			for k := 1; k <= len(spelled); k++ {
				prefix := []byte(spelled[:k])
				if !numberMayStart(prefix) {
					continue
				}
				tail, ok := numberToward(prefix, x)
				require.True(t, ok, "%q is a prefix of %q, a spelling of %s", prefix, spelled, lit)
				got, ok := new(big.Rat).SetString(string(prefix) + tail)
				require.True(t, ok && numberComplete([]byte(string(prefix)+tail)), "%q + %q is not a number", prefix, tail)
				assert.Zero(t, got.Cmp(x), "%q + %q is not %s", prefix, tail, lit)
				y := Num(pick(r, targets))
				if tail, ok := numberToward(prefix, y); ok {
					got, _ := new(big.Rat).SetString(string(prefix) + tail)
					assert.Zero(t, got.Cmp(y), "%q + %q is not %s", prefix, tail, y.RatString())
				}
			}
		}
	}
}

// numberMayStart reports whether t is a prefix of a JSON number as
// spelled by Encode (which may add whitespace around it).
func numberMayStart(t []byte) bool {
	for i := 1; i < len(t); i++ {
		if !numberMayContinue(t[:i], t[i]) {
			return false
		}
	}
	return len(t) > 0 && (t[0] == '-' || t[0] >= '0' && t[0] <= '9')
}
