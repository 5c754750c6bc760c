package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc, want, wantErr string
	}{
		{"replaces the old report", "# B\n\n" + beginMarker + "\nold\nlines\n" + endMarker + "\nafter\n",
			"# B\n\n" + beginMarker + "\n\nNEW\n\n" + endMarker + "\nafter\n", ""},
		{"empty section", beginMarker + "\n" + endMarker + "\n", beginMarker + "\n\nNEW\n\n" + endMarker + "\n", ""},
		{"CRLF marker lines", "a\r\n" + beginMarker + "\r\nold\r\n" + endMarker + "\r\n", "a\r\n" + beginMarker + "\r\n\nNEW\n\n" + endMarker + "\r\n", ""},
		{"no markers", "# B\n", "", "needs one"},
		{"end before begin", endMarker + "\n" + beginMarker + "\n", "", "needs one"},
		{"two begins", beginMarker + "\n" + beginMarker + "\n" + endMarker + "\n", "", "two " + beginMarker},
		{"two ends", beginMarker + "\n" + endMarker + "\n" + endMarker + "\n", "", "two " + endMarker},
		{"marker inside a line does not count", "x " + beginMarker + "\n" + endMarker + "\n", "", "needs one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := splice(tc.doc, "NEW\n")
			if tc.wantErr != "" {
				assert.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ got, want string }{
		{formatTime(265.4), "265 ns"},
		{formatTime(3.5), "3.50 ns"},
		{formatTime(3100), "3.10 µs"},
		{formatTime(137204), "137 µs"},
		{formatTime(1.25e6), "1.25 ms"},
		{formatTime(2e9), "2.00 s"},
		{formatSig(0), "0"},
		{formatSig(0.0123), "0.0123"},
		{formatSig(16568.38), "16568"},
		{formatRatio(0.914), "0.91×"},
		{formatCount(0), "0"},
		{formatCount(999), "999"},
		{formatCount(1000), "1,000"},
		{formatCount(7175760), "7,175,760"},
		{formatCount(-1234), "-1,234"},
		{formatCount(0.5), "0.5"},
		{formatCount(2015819.5), "2,015,819.5"},
	} {
		assert.Equal(t, tc.want, tc.got)
	}
}

// TestReport renders a small run and checks that each figure lands in its
// table, computed from the input.
func TestReport(t *testing.T) {
	t.Parallel()
	now := resultsOf(t,
		"BenchmarkCompare/medium/toolgate ns/op=55,65,45 cpu-ns/op=50,60,40 MB/s=545.5,461.5,666.7",
		"BenchmarkCompare/medium/jsonvalid ns/op=100,100,100 cpu-ns/op=100,100,100",
		"BenchmarkStream/64KiB/1 ns/op=6553600 cpu-ns/op=6553600 MB/s=10",
		"BenchmarkStream/64KiB/whole ns/op=1310720 cpu-ns/op=655360 MB/s=50",
		"BenchmarkGRPC/HealthCheck ns/op=200000 cpu-ns/op=100000",
		"BenchmarkGRPC/ValidateHandle ns/op=150000 cpu-ns/op=125000",
		"BenchmarkCallgrind/small/toolgate instr/op=28000",
		"BenchmarkCallgrind/small/jsonvalid instr/op=14000",
		"BenchmarkValidate/toolgate/300B ns/op=3000 B/op=1874.5")
	now.config["cpu"] = "Test CPU"
	text := report(now, nil, "abc123")
	for _, want := range []string{
		"Measured at `abc123` on Test CPU",
		"rounds: 3;",
		"| toolgate ≤ 1.0× jsonvalid on medium | 0.50× | 0.40× – 0.60× | ≤ 1.00× | met |",
		"| toolgate ≤ 1.0× jsonvalid on small | – | no samples of BenchmarkCompare/small/toolgate | ≤ 1.00× | not measured |",
		// CPU per byte: 6553600 ns and 655360 ns over 65536 bytes each (MB/s × ns/op ÷ 1000).
		"| stream 64KiB: 1-byte pieces ≤ 4× whole, per byte | 10.00× | 10.00× – 10.00× | ≤ 4.00× | **missed** |",
		"| Validate by handle ≥ 0.9× the Health/Check throughput | 0.80× |",
		"| medium | 30,000 | toolgate | 50.0 ns | 55.0 ns | 546 | – | – | 0.50× |",
		"| 64KiB | 1 | 6.55 ms | 6.55 ms | 100 | – | – | 10.00× |",
		"| 64KiB | whole | 655 µs | 1.31 ms | 10.0 | – | – | 1.00× |",
		"| ValidateHandle | 125 µs | 150 µs | – | – | 0.80× |",
		"| small | toolgate | 28,000 | 100 | 2.00× |",
		"| Validate/toolgate/300B | 3.00 µs | – | 1,874.5 | – |",
		"no baseline given",
	} {
		assert.Contains(t, text, want)
	}
	assert.NotContains(t, text, "Against the baseline")

	base := resultsOf(t, "BenchmarkCompare/medium/toolgate cpu-ns/op=40", "BenchmarkCompare/medium/jsonvalid cpu-ns/op=80",
		"BenchmarkCallgrind/small/toolgate instr/op=28000")
	text = report(now, base, "abc123")
	goal := "| no toolgate benchmark slower than the baseline (relative CPU time > +10%, instructions > +1%) | "
	assert.Contains(t, text, goal+"0 slower | – | 0 | met |")
	// 40 → 50 ns against jsonvalid's 80 → 100: relative 1.00.
	assert.Contains(t, text, "| Compare/medium/toolgate | cpu-ns/op | 40.0 ns | 50.0 ns | 1.25× | Compare/medium/jsonvalid | 1.00× |")
	assert.Contains(t, text, "| Callgrind/small/toolgate | instr/op | 28,000 | 28,000 | 1.00× | – | 1.00× |")

	base = resultsOf(t, "BenchmarkCompare/medium/toolgate cpu-ns/op=40", "BenchmarkCompare/medium/jsonvalid cpu-ns/op=100")
	text = report(now, base, "abc123")
	assert.Contains(t, text, goal+"1 slower | Compare/medium/toolgate 1.25× | 0 | **missed** |")
	assert.Contains(t, text, "| Compare/medium/toolgate | cpu-ns/op | 40.0 ns | 50.0 ns | 1.25× | Compare/medium/jsonvalid | **1.25×** |")
}

func TestRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "results.txt")
	require.NoError(t, os.WriteFile(in, []byte(twoRounds), 0o644))
	doc := filepath.Join(dir, "BENCHMARKS.md")
	require.NoError(t, os.WriteFile(doc, []byte("# B\n"+beginMarker+"\n"+endMarker+"\ntail\n"), 0o644))
	empty := filepath.Join(dir, "empty.txt")
	require.NoError(t, os.WriteFile(empty, []byte("PASS\n"), 0o644))
	noMarkers := filepath.Join(dir, "plain.md")
	require.NoError(t, os.WriteFile(noMarkers, []byte("# B\n"), 0o644))

	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-in", in, "-commit", "c0ffee", "-doc", doc}, &stdout, &stderr), stderr.String())
	written, err := os.ReadFile(doc)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(written), "# B\n"+beginMarker+"\n\nMeasured at `c0ffee`"))
	assert.True(t, strings.HasSuffix(string(written), "\n"+endMarker+"\ntail\n"))
	assert.Contains(t, string(written), "| small | 280 | toolgate | 3.10 µs | 3.20 µs | 87.6 | 0 | 0 | 3.10× |")
	assert.Empty(t, stdout.String())

	stdout.Reset()
	require.Equal(t, 0, run([]string{"-in", in, "-baseline", in}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "### Against the baseline")

	for _, tc := range []struct {
		name     string
		args     []string
		status   int
		inStderr string
	}{
		{"no input", nil, 2, "usage"},
		{"unknown flag", []string{"-in", in, "-x"}, 2, "usage"},
		{"extra argument", []string{"-in", in, "more"}, 2, "usage"},
		{"missing input", []string{"-in", filepath.Join(dir, "absent.txt")}, 1, "no such file"},
		{"missing baseline", []string{"-in", in, "-baseline", filepath.Join(dir, "absent.txt")}, 1, "no such file"},
		{"no results", []string{"-in", empty}, 1, "holds no benchmark results"},
		{"document without markers", []string{"-in", in, "-doc", noMarkers}, 1, "needs one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tc.status, run(tc.args, &stdout, &stderr))
			assert.Contains(t, stderr.String(), tc.inStderr)
		})
	}
}
