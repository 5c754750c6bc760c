package main

import (
	"bufio"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// sample is one result line: its values by unit ("ns/op", "MB/s", ...).
type sample map[string]float64

// Units of the samples: those go test prints, the CPU time package
// benchcpu reports, callgrind's instruction count, and two derived per byte
// (see values).
const (
	unitWall        = "ns/op"
	unitCPU         = "cpu-ns/op" // benchcpu.Unit
	unitInstr       = "instr/op"
	unitRate        = "MB/s"
	unitWallPerByte = "ns/B"     // 1000 ÷ MB/s
	unitCPUPerByte  = "cpu-ns/B" // cpu-ns/op ÷ bytes/op, bytes/op = MB/s × ns/op ÷ 1000
)

// results holds every sample of a benchmark run, by benchmark name
// (without the -GOMAXPROCS suffix), in the order the lines came: sample i
// of two names is from the same round when each round runs every
// benchmark once.
type results struct {
	samples map[string][]sample
	names   []string          // in order of first appearance
	config  map[string]string // "cpu", "goos", ... (the last value seen)
}

// maxLine bounds one line of input; benchmark lines are far shorter.
const maxLine = 1 << 20

// parse reads benchmark output in the Go benchmark format
// (https://go.googlesource.com/proposal/+/master/design/14313-benchmark-format.md):
// result lines "BenchmarkName[-N] iterations value unit [value unit...]"
// and configuration lines "key: value". Every other line is ignored, as the
// format says, so test logs, PASS/ok lines and make's chatter may be mixed
// in. Only a read error is an error.
func parse(r io.Reader) (*results, error) {
	res := &results{samples: map[string][]sample{}, config: map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for sc.Scan() {
		line := sc.Text()
		if name, s, ok := parseResult(line); ok {
			if _, seen := res.samples[name]; !seen {
				res.names = append(res.names, name)
			}
			res.samples[name] = append(res.samples[name], s)
		} else if key, value, ok := parseConfig(line); ok {
			res.config[key] = value
		}
	}
	return res, sc.Err()
}

// parseResult parses one result line.
func parseResult(line string) (string, sample, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 {
		return "", nil, false
	}
	name := trimProcs(f[0])
	if !strings.HasPrefix(name, "Benchmark") || len(name) == len("Benchmark") {
		return "", nil, false
	}
	if n, err := strconv.ParseUint(f[1], 10, 64); err != nil || n == 0 {
		return "", nil, false
	}
	s := sample{}
	for i := 2; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return "", nil, false
		}
		s[f[i+1]] = v
	}
	return name, s, true
}

// trimProcs drops the "-N" GOMAXPROCS suffix go test adds to a name.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// parseConfig parses a "key: value" line whose key starts with a lower-case
// letter and holds no space or upper-case letter.
func parseConfig(line string) (string, string, bool) {
	key, value, ok := strings.Cut(line, ":")
	if !ok || key == "" || key[0] < 'a' || key[0] > 'z' {
		return "", "", false
	}
	for _, c := range key {
		if c == ' ' || c == '\t' || (c >= 'A' && c <= 'Z') {
			return "", "", false
		}
	}
	return key, strings.TrimSpace(value), true
}

// values returns the unit's values over the samples of name, in order; a
// sample without the unit (or what it is derived from) is skipped.
func (r *results) values(name, unit string) []float64 {
	var out []float64
	for _, s := range r.samples[name] {
		if v, ok := s.value(unit); ok {
			out = append(out, v)
		}
	}
	return out
}

// value returns the sample's unit, deriving the per-byte units from the
// throughput go test reports for benchmarks that call SetBytes.
func (s sample) value(unit string) (float64, bool) {
	rate := s[unitRate]
	switch unit {
	case unitWallPerByte:
		return 1e3 / rate, rate > 0
	case unitCPUPerByte:
		cpu, okCPU := s[unitCPU]
		bytesPerOp := rate * s[unitWall] / 1e3
		return cpu / bytesPerOp, okCPU && bytesPerOp > 0
	}
	v, ok := s[unit]
	return v, ok
}

// median returns the unit's median over the samples of name, and whether
// there was any.
func (r *results) median(name, unit string) (float64, bool) {
	return median(r.values(name, unit))
}

// median returns the median of vs (the mean of the middle two for an even
// count), and false when vs is empty.
func median(vs []float64) (float64, bool) {
	if len(vs) == 0 {
		return 0, false
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid], true
	}
	return (s[mid-1] + s[mid]) / 2, true
}

// roundRatios returns num's unit divided by den's, round by round (sample i
// of one with sample i of the other), as far as both have samples.
func (r *results) roundRatios(num, den, unit string) []float64 {
	a, b := r.values(num, unit), r.values(den, unit)
	var out []float64
	for i := range min(len(a), len(b)) {
		if b[i] != 0 {
			out = append(out, a[i]/b[i])
		}
	}
	return out
}
