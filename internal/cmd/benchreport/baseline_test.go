package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMeasuresToolgate(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"BenchmarkCompare/small/toolgate":      true,
		"BenchmarkCompare/small/toolgatefirst": true,
		"BenchmarkCompare/small/jsonvalid":     false,
		"BenchmarkCompare/large/goccy":         false,
		"BenchmarkCompare/large/santhosh":      false,
		"BenchmarkCompare/large/unmarshal":     false,
		"BenchmarkGRPC/HealthCheck":            false,
		"BenchmarkGRPC/ValidateHandle":         true,
		"BenchmarkValidate/json.Valid/300B":    false,
		"BenchmarkValidate/toolgate/300B":      true,
		"BenchmarkStream/1MiB/1":               true,
		"BenchmarkCallgrind/small/jsonvalid":   false,
	} {
		assert.Equal(t, want, measuresToolgate(name), name)
	}
}

func TestReference(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"BenchmarkCompare/small/toolgate":     "BenchmarkCompare/small/jsonvalid",
		"BenchmarkCompare/syntax/santhosh":    "BenchmarkCompare/syntax/jsonvalid",
		"BenchmarkGRPC/ValidateInline":        "BenchmarkGRPC/HealthCheck",
		"BenchmarkValidate/toolgate/300B":     "BenchmarkValidate/json.Valid/300B",
		"BenchmarkStream/1MiB/1":              "BenchmarkCompare/large/jsonvalid",
		"BenchmarkStreamPieces/64KiB/piece=1": "BenchmarkCompare/large/jsonvalid",
		"BenchmarkCallgrind/small/toolgate":   "",
	} {
		assert.Equal(t, want, reference(name), name)
	}
}

func TestRegressions(t *testing.T) {
	t.Parallel()
	base := resultsOf(t,
		"BenchmarkCompare/small/toolgate cpu-ns/op=100",
		"BenchmarkCompare/small/jsonvalid cpu-ns/op=100",
		"BenchmarkCompare/large/jsonvalid ns/op=1000 cpu-ns/op=1000",
		"BenchmarkStream/1MiB/1 cpu-ns/op=1000",
		"BenchmarkStreamPieces/64KiB/piece=1 ns/op=1000",
		"BenchmarkCallgrind/small/toolgate instr/op=10000",
		"BenchmarkGone cpu-ns/op=5")
	for _, tc := range []struct {
		name  string
		now   []string
		want  status
		worse []string
	}{
		{"slower, and so is the reference", []string{
			"BenchmarkCompare/small/toolgate cpu-ns/op=150",
			"BenchmarkCompare/small/jsonvalid cpu-ns/op=140"}, met, nil},
		{"slower than the reference", []string{
			"BenchmarkCompare/small/toolgate cpu-ns/op=120",
			"BenchmarkCompare/small/jsonvalid cpu-ns/op=100"}, missed, []string{"BenchmarkCompare/small/toolgate"}},
		{"faster than the reference", []string{
			"BenchmarkCompare/small/toolgate cpu-ns/op=105",
			"BenchmarkCompare/small/jsonvalid cpu-ns/op=150"}, met, nil},
		{"no reference in the run: read as it is", []string{
			"BenchmarkCompare/small/toolgate cpu-ns/op=111"}, missed, []string{"BenchmarkCompare/small/toolgate"}},
		{"streams against large/jsonvalid", []string{
			"BenchmarkCompare/large/jsonvalid ns/op=2000 cpu-ns/op=1500",
			"BenchmarkStream/1MiB/1 cpu-ns/op=1600",
			"BenchmarkStreamPieces/64KiB/piece=1 ns/op=2300"}, missed, []string{"BenchmarkStreamPieces/64KiB/piece=1"}},
		{"instructions need no reference", []string{
			"BenchmarkCallgrind/small/toolgate instr/op=10101"}, missed, []string{"BenchmarkCallgrind/small/toolgate"}},
		{"instructions within noise", []string{
			"BenchmarkCallgrind/small/toolgate instr/op=10100"}, met, nil},
		{"only other implementations in common", []string{"BenchmarkCompare/small/jsonvalid cpu-ns/op=100", "BenchmarkNew cpu-ns/op=1"}, notMeasured, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cs := changes(base, resultsOf(t, tc.now...))
			for i, c := range cs {
				if i > 0 && measuresToolgate(c.name) {
					assert.True(t, measuresToolgate(cs[i-1].name), "toolgate's changes come first")
				}
			}
			st, worse := regressions(cs)
			assert.Equal(t, tc.want, st)
			var names []string
			for _, c := range worse {
				names = append(names, c.name)
			}
			assert.Equal(t, tc.worse, names)
		})
	}
}
