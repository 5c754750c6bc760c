package main

import (
	"fmt"
	"math"
	"slices"

	"github.com/toolgate/toolgate/internal/benchdoc"
)

// comparison is how a target's figure is held against its bar.
type comparison uint8

const (
	atMost  comparison = iota // figure <= bar
	atLeast                   // figure >= bar
	within                    // |figure - 1| <= bar
)

// target is one of issue 10's targets.
type target struct {
	// goal states the target as the issue does.
	goal string
	// The figure is num's median of unit divided by den's, or num's median
	// itself when den is empty.
	num, den, unit string
	cmp            comparison
	bar            float64
}

// status is a target's outcome.
type status string

const (
	met         status = "met"
	missed      status = "**missed**"
	notMeasured status = "not measured"
)

// outcome is a target evaluated on one run.
type outcome struct {
	target
	figure     float64
	lo, hi     float64 // the figure's range over rounds (ratios only)
	hasRange   bool
	status     status
	missingFor string // the benchmark without samples, when not measured
}

// Benchmark names, as go test prints them without the -N suffix.
func compareName(doc, impl string) string  { return "BenchmarkCompare/" + doc + "/" + impl }
func streamName(size, piece string) string { return "BenchmarkStream/" + size + "/" + piece }
func grpcName(rpc string) string           { return "BenchmarkGRPC/" + rpc }
func callgrindName(doc, impl string) string {
	return "BenchmarkCallgrind/" + doc + "/" + impl
}

// The benchmarks' grid, as the benchmark files define it.
var (
	compareImpls = []string{"toolgate", "toolgatefirst", "jsonvalid", "goccy", "santhosh", "unmarshal"}
	streamSizes  = []string{"64KiB", "1MiB"}
	streamPieces = []string{"1", "8", "32", "whole"}
	grpcRPCs     = []string{"HealthCheck", "ValidateHandle", "ValidateInline", "ValidateStream"}
	callgrindImp = []string{"toolgate", "jsonvalid"}
)

// docNames are benchdoc's documents, in order.
func docNames() []string {
	var names []string
	for _, d := range benchdoc.Docs() {
		names = append(names, d.Name)
	}
	return names
}

// issueTargets lists issue 10's targets, in the issue's order. The
// regression target needs a baseline and is evaluated by regressions.
func issueTargets() []target {
	var ts []target
	for _, doc := range docNames() {
		ts = append(ts, target{goal: "toolgate ≤ 1.0× jsonvalid on " + doc,
			num: compareName(doc, "toolgate"), den: compareName(doc, "jsonvalid"), unit: unitCPU, cmp: atMost, bar: 1})
	}
	for _, doc := range []string{"medium", "large"} {
		ts = append(ts, target{goal: "toolgate ≤ 0.6× jsonvalid on " + doc,
			num: compareName(doc, "toolgate"), den: compareName(doc, "jsonvalid"), unit: unitCPU, cmp: atMost, bar: 0.6})
	}
	for _, doc := range docNames() {
		if doc == "syntax" {
			continue
		}
		ts = append(ts, target{goal: "toolgate ≥ 5× faster than santhosh on " + doc,
			num: compareName(doc, "santhosh"), den: compareName(doc, "toolgate"), unit: unitCPU, cmp: atLeast, bar: 5})
	}
	for _, doc := range []string{"small", "medium", "large"} {
		ts = append(ts, target{goal: "0 allocs/op on valid " + doc,
			num: compareName(doc, "toolgate"), unit: "allocs/op", cmp: atMost, bar: 0})
	}
	ts = append(ts,
		target{goal: "invalid/toolgatefirst ≤ 0.1× medium/toolgate",
			num: compareName("invalid", "toolgatefirst"), den: compareName("medium", "toolgate"), unit: unitCPU, cmp: atMost, bar: 0.1},
		target{goal: "syntax/toolgate ≤ 2× syntax/jsonvalid",
			num: compareName("syntax", "toolgate"), den: compareName("syntax", "jsonvalid"), unit: unitCPU, cmp: atMost, bar: 2})
	for _, size := range streamSizes {
		for _, p := range []struct {
			piece string
			bar   float64
		}{{"1", 4}, {"8", 1.5}, {"32", 1.15}} {
			ts = append(ts, target{goal: fmt.Sprintf("stream %s: %s-byte pieces ≤ %g× whole, per byte", size, p.piece, p.bar),
				num: streamName(size, p.piece), den: streamName(size, "whole"), unit: unitCPUPerByte, cmp: atMost, bar: p.bar})
		}
	}
	for _, piece := range streamPieces {
		ts = append(ts, target{goal: "stream, pieces " + piece + ": 1MiB within ±20% of 64KiB, per byte",
			num: streamName("1MiB", piece), den: streamName("64KiB", piece), unit: unitCPUPerByte, cmp: within, bar: 0.2})
	}
	ts = append(ts,
		target{goal: "Validate by handle ≥ 0.9× the Health/Check throughput",
			num: grpcName("HealthCheck"), den: grpcName("ValidateHandle"), unit: unitCPU, cmp: atLeast, bar: 0.9},
		target{goal: "Validate inline (schema seen before) ≥ 0.85× the Health/Check throughput",
			num: grpcName("HealthCheck"), den: grpcName("ValidateInline"), unit: unitCPU, cmp: atLeast, bar: 0.85})
	return ts
}

// evaluate computes t's figure on r.
func (t target) evaluate(r *results) outcome {
	o := outcome{target: t, status: notMeasured}
	num, ok := r.median(t.num, t.unit)
	if !ok {
		o.missingFor = t.num
		return o
	}
	figure := num
	if t.den != "" {
		den, ok := r.median(t.den, t.unit)
		if !ok || den == 0 {
			o.missingFor = t.den
			return o
		}
		figure = num / den
		if rs := r.roundRatios(t.num, t.den, t.unit); len(rs) > 0 {
			o.lo, o.hi, o.hasRange = slices.Min(rs), slices.Max(rs), true
		}
	}
	o.figure, o.status = figure, missed
	if t.holds(figure) {
		o.status = met
	}
	return o
}

// holds reports whether figure meets t's bar.
func (t target) holds(figure float64) bool {
	switch t.cmp {
	case atMost:
		return figure <= t.bar
	case atLeast:
		return figure >= t.bar
	default:
		return math.Abs(figure-1) <= t.bar
	}
}

// barText writes t's bar: "≤ 1.00×", "≥ 5.00×", "±20%", "≤ 0".
func (t target) barText() string {
	switch {
	case t.cmp == within:
		return fmt.Sprintf("±%.0f%%", t.bar*100)
	case t.den == "":
		return "≤ " + formatCount(t.bar)
	case t.cmp == atLeast:
		return "≥ " + formatRatio(t.bar)
	default:
		return "≤ " + formatRatio(t.bar)
	}
}
