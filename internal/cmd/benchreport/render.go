package main

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/benchdoc"
)

// The lines between which the generated report stands in the document.
const (
	beginMarker = "<!-- benchmarks:begin -->"
	endMarker   = "<!-- benchmarks:end -->"
)

// splice replaces the text between the begin and end marker lines of doc
// with report. The document must hold each marker line exactly once, in
// that order.
func splice(doc, report string) (string, error) {
	lines := strings.SplitAfter(doc, "\n")
	begin, end := -1, -1
	for i, l := range lines {
		switch strings.TrimRight(l, "\r\n") {
		case beginMarker:
			if begin >= 0 {
				return "", errors.New("the document has two " + beginMarker + " lines")
			}
			begin = i
		case endMarker:
			if end >= 0 {
				return "", errors.New("the document has two " + endMarker + " lines")
			}
			end = i
		}
	}
	if begin < 0 || end < begin {
		return "", errors.New("the document needs one " + beginMarker + " line and, after it, one " + endMarker + " line")
	}
	return strings.Join(lines[:begin+1], "") + "\n" + report + "\n" + strings.Join(lines[end:], ""), nil
}

// report renders the generated part of BENCHMARKS.md: how the run was
// made, the targets, then one table per benchmark. base may be nil.
func report(now, base *results, commit string) string {
	var b strings.Builder
	rounds := 0
	for _, s := range now.samples {
		rounds = max(rounds, len(s))
	}
	fmt.Fprintf(&b, "Measured at `%s` on %s (%s/%s), %s; rounds: %d; every figure is a median over the rounds.\n",
		orDash(commit), orDash(now.config["cpu"]), orDash(now.config["goos"]), orDash(now.config["goarch"]), runtime.Version(), rounds)
	writeTargets(&b, now, base)
	writeCompare(&b, now)
	writeStream(&b, now)
	writeGRPC(&b, now)
	writeCallgrind(&b, now)
	writeOthers(&b, now)
	if base != nil {
		writeChanges(&b, changes(base, now))
	}
	return b.String()
}

func writeTargets(b *strings.Builder, now, base *results) {
	b.WriteString("\n### Targets\n\n")
	b.WriteString("Times are CPU times (package benchcpu). Figures are ratios of medians; the range is the same ratio taken round by round.\n\n")
	b.WriteString("| target | figure | range over rounds | bar | |\n|---|---:|---:|---:|---|\n")
	for _, t := range issueTargets() {
		o := t.evaluate(now)
		figure, spread := "–", "–"
		switch {
		case o.status == notMeasured:
			spread = "no samples of " + o.missingFor
		case t.den == "":
			figure = formatCount(o.figure)
		default:
			figure = formatRatio(o.figure)
			if o.hasRange {
				spread = formatRatio(o.lo) + " – " + formatRatio(o.hi)
			}
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", t.goal, figure, spread, t.barText(), o.status)
	}
	goal := fmt.Sprintf("no toolgate benchmark slower than the baseline (relative CPU time > +%.0f%%, instructions > +%.0f%%)", noise[unitCPU]*100, noise[unitInstr]*100)
	if base == nil {
		fmt.Fprintf(b, "| %s | – | no baseline given | – | %s |\n", goal, notMeasured)
		return
	}
	st, worse := regressions(changes(base, now))
	var names []string
	for _, c := range worse {
		names = append(names, fmt.Sprintf("%s %s", strings.TrimPrefix(c.name, "Benchmark"), formatRatio(c.relative())))
	}
	fmt.Fprintf(b, "| %s | %d slower | %s | 0 | %s |\n", goal, len(worse), orDash(strings.Join(names, ", ")), st)
}

func writeCompare(b *strings.Builder, r *results) {
	b.WriteString("\n### BenchmarkCompare\n\n")
	b.WriteString("| doc | bytes | impl | CPU/op | wall/op | MB/s | B/op | allocs/op | CPU × jsonvalid |\n|---|---:|---|---:|---:|---:|---:|---:|---:|\n")
	for _, d := range benchdoc.Docs() {
		base, _ := r.median(compareName(d.Name, "jsonvalid"), unitCPU)
		for _, impl := range compareImpls {
			name := compareName(d.Name, impl)
			if _, ok := r.samples[name]; !ok {
				continue
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", d.Name, formatCount(float64(len(d.Data))), impl,
				cell(r, name, unitCPU, formatTime), cell(r, name, unitWall, formatTime), cell(r, name, unitRate, formatSig),
				cell(r, name, "B/op", formatCount), cell(r, name, "allocs/op", formatCount), ratioTo(r, name, unitCPU, base))
		}
	}
}

func writeStream(b *strings.Builder, r *results) {
	b.WriteString("\n### BenchmarkStream\n\n")
	b.WriteString("| size | piece | CPU/op | wall/op | CPU ns/byte | B/op | allocs/op | per byte × whole |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, size := range streamSizes {
		whole, _ := r.median(streamName(size, "whole"), unitCPUPerByte)
		for _, piece := range streamPieces {
			name := streamName(size, piece)
			if _, ok := r.samples[name]; !ok {
				continue
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", size, piece,
				cell(r, name, unitCPU, formatTime), cell(r, name, unitWall, formatTime), cell(r, name, unitCPUPerByte, formatSig),
				cell(r, name, "B/op", formatCount), cell(r, name, "allocs/op", formatCount), ratioTo(r, name, unitCPUPerByte, whole))
		}
	}
}

func writeGRPC(b *strings.Builder, r *results) {
	b.WriteString("\n### BenchmarkGRPC\n\n")
	b.WriteString("| rpc | CPU/op | wall/op | B/op | allocs/op | throughput × HealthCheck (CPU) |\n|---|---:|---:|---:|---:|---:|\n")
	health, _ := r.median(grpcName("HealthCheck"), unitCPU)
	for _, rpc := range grpcRPCs {
		name := grpcName(rpc)
		cpu, ok := r.median(name, unitCPU)
		if !ok {
			continue
		}
		throughput := "–"
		if health > 0 && cpu > 0 {
			throughput = formatRatio(health / cpu)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", rpc, formatTime(cpu), cell(r, name, unitWall, formatTime),
			cell(r, name, "B/op", formatCount), cell(r, name, "allocs/op", formatCount), throughput)
	}
}

func writeCallgrind(b *strings.Builder, r *results) {
	b.WriteString("\n### Instructions (callgrind)\n\n")
	b.WriteString("Instructions executed inside the checking loop, per document and per byte: the figure machine load does not move.\n\n")
	b.WriteString("| doc | impl | instructions/op | instructions/byte | × json.Valid |\n|---|---|---:|---:|---:|\n")
	for _, d := range benchdoc.Docs() {
		base, _ := r.median(callgrindName(d.Name, "jsonvalid"), unitInstr)
		for _, impl := range callgrindImp {
			name := callgrindName(d.Name, impl)
			instr, ok := r.median(name, unitInstr)
			if !ok {
				continue
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", d.Name, impl, formatCount(math.Round(instr)),
				formatSig(instr/float64(len(d.Data))), ratioTo(r, name, unitInstr, base))
		}
	}
}

// writeOthers lists the benchmarks of the run that no table above shows
// (the packages' older benchmarks).
func writeOthers(b *strings.Builder, r *results) {
	var others []string
	for _, name := range r.names {
		if !strings.HasPrefix(name, "BenchmarkCompare/") && !strings.HasPrefix(name, "BenchmarkStream/") &&
			!strings.HasPrefix(name, "BenchmarkGRPC/") && !strings.HasPrefix(name, "BenchmarkCallgrind/") {
			others = append(others, name)
		}
	}
	if len(others) == 0 {
		return
	}
	b.WriteString("\n### Other benchmarks in the run\n\n")
	b.WriteString("| benchmark | wall/op | MB/s | B/op | allocs/op |\n|---|---:|---:|---:|---:|\n")
	for _, name := range others {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", strings.TrimPrefix(name, "Benchmark"),
			cell(r, name, unitWall, formatTime), cell(r, name, unitRate, formatSig), cell(r, name, "B/op", formatCount), cell(r, name, "allocs/op", formatCount))
	}
}

func writeChanges(b *strings.Builder, cs []change) {
	b.WriteString("\n### Against the baseline\n\n")
	b.WriteString("*relative* is *now × baseline* divided by the same for the reference, a benchmark of the same run whose code this project does not change; the regression target reads it.\n\n")
	b.WriteString("| benchmark | unit | baseline | now | now × baseline | reference | relative |\n|---|---|---:|---:|---:|---|---:|\n")
	for _, c := range cs {
		format := formatTime
		if c.unit == unitInstr {
			format = func(v float64) string { return formatCount(math.Round(v)) }
		}
		relative := formatRatio(c.relative())
		if c.regressed() {
			relative = "**" + relative + "**"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", strings.TrimPrefix(c.name, "Benchmark"), c.unit,
			format(c.base), format(c.now), formatRatio(c.ratio()), orDash(strings.TrimPrefix(c.ref, "Benchmark")), relative)
	}
}

// cell formats the median of name's unit, or "–" without samples.
func cell(r *results, name, unit string, format func(float64) string) string {
	v, ok := r.median(name, unit)
	if !ok {
		return "–"
	}
	return format(v)
}

// ratioTo formats name's median unit over base, or "–".
func ratioTo(r *results, name, unit string, base float64) string {
	v, ok := r.median(name, unit)
	if !ok || base <= 0 {
		return "–"
	}
	return formatRatio(v / base)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// formatSig writes v with three significant digits (at least the units).
func formatSig(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	decimals := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)))))
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// formatTime writes nanoseconds in the unit that keeps three significant
// digits short: "265 ns", "3.10 µs", "1.25 ms", "2.00 s".
func formatTime(ns float64) string {
	for _, u := range []struct {
		scale float64
		name  string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}} {
		if math.Abs(ns) >= u.scale {
			return formatSig(ns/u.scale) + " " + u.name
		}
	}
	return formatSig(ns) + " ns"
}

// formatRatio writes a ratio: "0.91×".
func formatRatio(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) + "×" }

// formatCount writes a number with thousands separators, and one decimal
// when it is not whole (a median of an even count of samples).
func formatCount(v float64) string {
	decimals := 0
	if v != math.Trunc(v) {
		decimals = 1
	}
	digits, fraction, _ := strings.Cut(strconv.FormatFloat(math.Abs(v), 'f', decimals, 64), ".")
	if fraction != "" {
		fraction = "." + fraction
	}
	var groups []string
	for len(digits) > 3 {
		groups = append(groups, digits[len(digits)-3:])
		digits = digits[:len(digits)-3]
	}
	groups = append(groups, digits)
	slices.Reverse(groups)
	sign := ""
	if v < 0 {
		sign = "-"
	}
	return sign + strings.Join(groups, ",") + fraction
}
