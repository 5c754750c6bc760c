package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resultsOf builds results from specs "name unit=v1,v2,... unit=...": one
// sample (a round) per position, holding every unit's value at it.
func resultsOf(t *testing.T, specs ...string) *results {
	t.Helper()
	var b strings.Builder
	for _, spec := range specs {
		f := strings.Fields(spec)
		require.GreaterOrEqual(t, len(f), 2, spec)
		var units []string
		var values [][]string
		for _, uv := range f[1:] {
			unit, vs, ok := strings.Cut(uv, "=")
			require.True(t, ok, spec)
			units = append(units, unit)
			values = append(values, strings.Split(vs, ","))
		}
		for i := range values[0] {
			fmt.Fprintf(&b, "%s-2 1", f[0])
			for u, unit := range units {
				require.Len(t, values[u], len(values[0]), spec)
				fmt.Fprintf(&b, " %s %s", values[u][i], unit)
			}
			b.WriteString("\n")
		}
	}
	r, err := parse(strings.NewReader(b.String()))
	require.NoError(t, err)
	return r
}

func TestTargetEvaluate(t *testing.T) {
	t.Parallel()
	ratio := target{num: "BenchmarkA", den: "BenchmarkB", unit: "ns/op", cmp: atMost, bar: 1}
	for _, tc := range []struct {
		name       string
		target     target
		specs      []string
		want       status
		figure     float64
		lo, hi     float64
		missingFor string
	}{
		{"ratio under the bar", ratio, []string{"BenchmarkA ns/op=90,100,80", "BenchmarkB ns/op=100,100,100"}, met, 0.9, 0.8, 1, ""},
		{"ratio at the bar", ratio, []string{"BenchmarkA ns/op=100", "BenchmarkB ns/op=100"}, met, 1, 1, 1, ""},
		{"ratio over the bar", ratio, []string{"BenchmarkA ns/op=101,150,99", "BenchmarkB ns/op=100,100,100"}, missed, 1.01, 0.99, 1.5, ""},
		{"no numerator", ratio, []string{"BenchmarkB ns/op=100"}, notMeasured, 0, 0, 0, "BenchmarkA"},
		{"no denominator", ratio, []string{"BenchmarkA ns/op=100"}, notMeasured, 0, 0, 0, "BenchmarkB"},
		{"other unit only", ratio, []string{"BenchmarkA B/op=1", "BenchmarkB ns/op=1"}, notMeasured, 0, 0, 0, "BenchmarkA"},
		{"at least, met", target{num: "BenchmarkA", den: "BenchmarkB", unit: "ns/op", cmp: atLeast, bar: 5},
			[]string{"BenchmarkA ns/op=500", "BenchmarkB ns/op=100"}, met, 5, 5, 5, ""},
		{"at least, missed", target{num: "BenchmarkA", den: "BenchmarkB", unit: "ns/op", cmp: atLeast, bar: 5},
			[]string{"BenchmarkA ns/op=499", "BenchmarkB ns/op=100"}, missed, 4.99, 4.99, 4.99, ""},
		{"within, below", target{num: "BenchmarkA", den: "BenchmarkB", unit: "ns/op", cmp: within, bar: 0.2},
			[]string{"BenchmarkA ns/op=81", "BenchmarkB ns/op=100"}, met, 0.81, 0.81, 0.81, ""},
		{"within, too far above", target{num: "BenchmarkA", den: "BenchmarkB", unit: "ns/op", cmp: within, bar: 0.2},
			[]string{"BenchmarkA ns/op=121", "BenchmarkB ns/op=100"}, missed, 1.21, 1.21, 1.21, ""},
		{"absolute, met", target{num: "BenchmarkA", unit: "allocs/op", cmp: atMost, bar: 0},
			[]string{"BenchmarkA allocs/op=0,1,0"}, met, 0, 0, 0, ""},
		{"absolute, missed", target{num: "BenchmarkA", unit: "allocs/op", cmp: atMost, bar: 0},
			[]string{"BenchmarkA allocs/op=1,1,0"}, missed, 1, 0, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := tc.target.evaluate(resultsOf(t, tc.specs...))
			assert.Equal(t, tc.want, o.status)
			assert.InDelta(t, tc.figure, o.figure, 1e-9)
			assert.InDelta(t, tc.lo, o.lo, 1e-9)
			assert.InDelta(t, tc.hi, o.hi, 1e-9)
			assert.Equal(t, tc.missingFor, o.missingFor)
			assert.Equal(t, tc.target.den != "" && tc.want != notMeasured, o.hasRange)
		})
	}
}

// TestIssueTargetsNameRealBenchmarks checks that every target names
// benchmarks of the grid the benchmark files define, and that the list has
// the issue's count: 6 + 2 jsonvalid, 5 santhosh, 3 allocation, 2
// rejection, 6 piece and 4 size stream, 2 gRPC targets.
func TestIssueTargetsNameRealBenchmarks(t *testing.T) {
	t.Parallel()
	known := map[string]bool{}
	for _, doc := range docNames() {
		for _, impl := range compareImpls {
			known[compareName(doc, impl)] = true
		}
	}
	for _, size := range streamSizes {
		for _, piece := range streamPieces {
			known[streamName(size, piece)] = true
		}
	}
	for _, rpc := range grpcRPCs {
		known[grpcName(rpc)] = true
	}
	ts := issueTargets()
	assert.Len(t, ts, 6+2+5+3+2+6+4+2)
	goals := map[string]bool{}
	for _, tg := range ts {
		assert.True(t, known[tg.num], "%s: %s", tg.goal, tg.num)
		assert.True(t, tg.den == "" || known[tg.den], "%s: %s", tg.goal, tg.den)
		assert.False(t, goals[tg.goal], "goal %q twice", tg.goal)
		goals[tg.goal] = true
	}
}

func TestBarText(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "≤ 0.60×", target{den: "B", cmp: atMost, bar: 0.6}.barText())
	assert.Equal(t, "≥ 5.00×", target{den: "B", cmp: atLeast, bar: 5}.barText())
	assert.Equal(t, "±20%", target{den: "B", cmp: within, bar: 0.2}.barText())
	assert.Equal(t, "≤ 0", target{cmp: atMost, bar: 0}.barText())
}
