package benchcpu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spin burns CPU time in a way the compiler cannot drop.
func spin(n int) uint64 {
	x := uint64(1)
	for i := range n {
		x = x*6364136223846793005 + uint64(i)
	}
	return x
}

func TestCPUTimeGrowsWithWork(t *testing.T) {
	t.Parallel()
	before, ok := Now()
	require.True(t, ok)
	sink := spin(50_000_000)
	after, ok := Now()
	require.True(t, ok)
	assert.NotZero(t, sink)
	assert.Greater(t, after, before, "50 million multiplications take CPU time")
}

// TestStartReportsPerOp runs a benchmark through testing.Benchmark and
// checks the metric against the wall-clock time of the same run: a loop
// that only computes uses about as much CPU time as it takes, never much
// more (one goroutine runs it).
func TestStartReportsPerOp(t *testing.T) {
	r := testing.Benchmark(func(b *testing.B) {
		stop := Start(b)
		for b.Loop() {
			spin(100_000)
		}
		stop()
	})
	cpu, ok := r.Extra[Unit]
	require.True(t, ok, "%v", r.Extra)
	wall := float64(r.T.Nanoseconds()) / float64(r.N)
	assert.Greater(t, cpu, 0.0)
	assert.Less(t, cpu, 1.5*wall, "cpu %.0f ns/op, wall %.0f ns/op", cpu, wall)
}
