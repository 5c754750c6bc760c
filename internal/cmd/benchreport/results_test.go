package main

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/benchcpu"
)

func TestCPUUnitIsBenchcpus(t *testing.T) {
	t.Parallel()
	assert.Equal(t, benchcpu.Unit, unitCPU)
}

// twoRounds is go test output of two rounds, with the lines a real run
// mixes in.
const twoRounds = `goos: linux
goarch: amd64
pkg: github.com/toolgate/toolgate/internal/validator
cpu: AMD EPYC
BenchmarkCompare/small/toolgate-2         	   77215	      3100 ns/op	  90.33 MB/s	      3000 cpu-ns/op	       0 B/op	       0 allocs/op
BenchmarkCompare/small/jsonvalid-2        	  232561	      1200 ns/op	 229.21 MB/s	      1000 cpu-ns/op	       0 B/op	       0 allocs/op
PASS
ok  	github.com/toolgate/toolgate/internal/validator	4.367s
goos: linux
BenchmarkCompare/small/toolgate-2         	   77215	      3300 ns/op	  84.85 MB/s	      3200 cpu-ns/op	       0 B/op	       0 allocs/op
BenchmarkCompare/small/jsonvalid-2        	  232561	      1000 ns/op	 280.00 MB/s	      1000 cpu-ns/op	       0 B/op	       0 allocs/op
BenchmarkGRPC/ValidateStream-2      	     117	     95737 ns/op	   2.92 MB/s	         9.000 deltas/op	   15115 B/op	     260 allocs/op
BenchmarkCallgrind/small/toolgate 10715 34027.8 instr/op
`

func TestParse(t *testing.T) {
	t.Parallel()
	r, err := parse(strings.NewReader(twoRounds))
	require.NoError(t, err)
	assert.Equal(t, []string{"BenchmarkCompare/small/toolgate", "BenchmarkCompare/small/jsonvalid", "BenchmarkGRPC/ValidateStream", "BenchmarkCallgrind/small/toolgate"}, r.names)
	assert.Equal(t, []float64{3100, 3300}, r.values("BenchmarkCompare/small/toolgate", "ns/op"))
	assert.Equal(t, []float64{9}, r.values("BenchmarkGRPC/ValidateStream", "deltas/op"))
	assert.Equal(t, []float64{34027.8}, r.values("BenchmarkCallgrind/small/toolgate", "instr/op"))
	assert.Empty(t, r.values("BenchmarkCallgrind/small/toolgate", "ns/op"))
	assert.Equal(t, map[string]string{"goos": "linux", "goarch": "amd64", "pkg": "github.com/toolgate/toolgate/internal/validator", "cpu": "AMD EPYC"}, r.config)
	assert.InDeltaSlice(t, []float64{1e3 / 90.33, 1e3 / 84.85}, r.values("BenchmarkCompare/small/toolgate", "ns/B"), 1e-12, "ns/B is derived from MB/s")
	assert.InDeltaSlice(t, []float64{3000 / (90.33 * 3100 / 1e3), 3200 / (84.85 * 3300 / 1e3)}, r.values("BenchmarkCompare/small/toolgate", "cpu-ns/B"), 1e-12,
		"cpu-ns/B is CPU time over the bytes per op, which MB/s and ns/op give")
	assert.Empty(t, r.values("BenchmarkGRPC/ValidateStream", "cpu-ns/B"), "no CPU time")

	m, ok := r.median("BenchmarkCompare/small/toolgate", "ns/op")
	require.True(t, ok)
	assert.InDelta(t, 3200, m, 1e-9)
	_, ok = r.median("BenchmarkCompare/small/goccy", "ns/op")
	assert.False(t, ok)
	assert.Equal(t, []float64{3100.0 / 1200, 3300.0 / 1000}, r.roundRatios("BenchmarkCompare/small/toolgate", "BenchmarkCompare/small/jsonvalid", "ns/op"))
}

func TestParseResultLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		name string // "" when the line is not a result
		s    sample
	}{
		{"BenchmarkA-8 10 5 ns/op", "BenchmarkA", sample{"ns/op": 5}},
		{"BenchmarkA/b-c 10 5 ns/op", "BenchmarkA/b-c", sample{"ns/op": 5}},
		{"BenchmarkA/x-1/y 10 5 ns/op 2 B/op", "BenchmarkA/x-1/y", sample{"ns/op": 5, "B/op": 2}},
		{"BenchmarkA- 10 5 ns/op", "BenchmarkA-", sample{"ns/op": 5}},
		{"BenchmarkA 1 -2.5e3 x/op", "BenchmarkA", sample{"x/op": -2500}},
		{"BenchmarkA", "", nil},
		{"BenchmarkA-2 \t", "", nil},
		{"Benchmark 10 5 ns/op", "", nil},
		{"Benchmark-2 10 5 ns/op", "", nil},
		{"BenchmarkA 0 5 ns/op", "", nil},
		{"BenchmarkA ten 5 ns/op", "", nil},
		{"BenchmarkA 10 five ns/op", "", nil},
		{"BenchmarkA 10 NaN ns/op", "", nil},
		{"BenchmarkA 10 +Inf ns/op", "", nil},
		{"BenchmarkA 10 5 ns/op 3", "", nil},
		{"    BenchmarkA 10 5 ns/op", "BenchmarkA", sample{"ns/op": 5}},
		{"--- FAIL: BenchmarkA", "", nil},
	} {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			name, s, ok := parseResult(tc.line)
			assert.Equal(t, tc.name != "", ok)
			assert.Equal(t, tc.name, name)
			assert.Equal(t, tc.s, s)
		})
	}
}

func TestParseConfigLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line, key, value string
	}{
		{"cpu: AMD EPYC 7B13", "cpu", "AMD EPYC 7B13"},
		{"goos:linux", "goos", "linux"},
		{"commit-id: a:b", "commit-id", "a:b"},
		{"Goos: linux", "", ""},
		{"go os: linux", "", ""},
		{"gOos: linux", "", ""},
		{": linux", "", ""},
		{"PASS", "", ""},
	} {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			key, value, ok := parseConfig(tc.line)
			assert.Equal(t, tc.key != "", ok)
			assert.Equal(t, tc.key, key)
			assert.Equal(t, tc.value, value)
		})
	}
}

func TestMedian(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{1, 100, 2, 3, 1000}, 3},
	} {
		in := append([]float64(nil), tc.in...)
		got, ok := median(in)
		require.True(t, ok)
		assert.Equal(t, tc.want, got)
		assert.Equal(t, tc.in, in, "median leaves its input alone")
	}
	_, ok := median(nil)
	assert.False(t, ok)
}

// FuzzParse checks that any input parses without panicking, and that
// every sample it keeps has finite values under a name go test could
// print.
func FuzzParse(f *testing.F) {
	f.Add(twoRounds)
	f.Add("BenchmarkA-2 1 1 ns/op\ncpu: x\n")
	f.Add("Benchmark\x00 1 1e308 ns/op 1e-308 B/op")
	f.Fuzz(func(t *testing.T, in string) {
		r, err := parse(strings.NewReader(in))
		if err != nil {
			if !strings.Contains(err.Error(), "token too long") {
				t.Fatal(err)
			}
			return
		}
		require.Len(t, r.samples, len(r.names))
		for _, name := range r.names {
			require.True(t, strings.HasPrefix(name, "Benchmark") && len(name) > len("Benchmark"), name)
			for _, s := range r.samples[name] {
				require.NotEmpty(t, s)
				for unit, v := range s {
					require.False(t, math.IsNaN(v) || math.IsInf(v, 0), "%s %s", name, unit)
				}
			}
		}
	})
}
