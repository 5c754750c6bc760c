package main

import (
	"slices"
	"strings"
)

// change is one benchmark's median against a baseline's, and the same for
// its reference (see reference), when it has one in both runs.
type change struct {
	name, unit string
	base, now  float64
	ref        string // "" when the change is read as it is
	refBase    float64
	refNow     float64
}

// ratio is now over base.
func (c change) ratio() float64 { return c.now / c.base }

// relative is the ratio over the reference's ratio: how much the benchmark
// moved against what the same run measured beside it.
func (c change) relative() float64 {
	if c.ref == "" {
		return c.ratio()
	}
	return c.ratio() / (c.refNow / c.refBase)
}

// noise is how far a relative change may go and still count as none:
// times move a lot on a shared machine even against a reference of the
// same run, instruction counts hardly at all.
var noise = map[string]float64{unitCPU: 0.10, unitWall: 0.10, unitInstr: 0.01}

// regressed reports whether c grew past its unit's noise.
func (c change) regressed() bool { return c.relative() > 1+noise[c.unit] }

// reference names the benchmark a change is divided by: one measured in
// the same round, on code this project does not change, so that a run on a
// busier or slower machine does not read as a regression (between two runs
// on the shared machine, json.Valid's own CPU time moved by up to 1.3× and
// goccy's by 1.7×). Instruction counts need none.
func reference(name string) string {
	parts := strings.Split(name, "/")
	switch {
	case parts[0] == "BenchmarkCallgrind":
		return ""
	case parts[0] == "BenchmarkCompare" && len(parts) == 3:
		return compareName(parts[1], "jsonvalid")
	case parts[0] == "BenchmarkGRPC":
		return grpcName("HealthCheck")
	case parts[0] == "BenchmarkValidate" && len(parts) == 3:
		return "BenchmarkValidate/json.Valid/" + parts[2]
	}
	return compareName("large", "jsonvalid")
}

// otherImpls are the sub-benchmark name parts that measure something
// other than toolgate.
var otherImpls = []string{"jsonvalid", "goccy", "santhosh", "unmarshal", "HealthCheck", "json.Valid"}

// measuresToolgate reports whether the benchmark name times toolgate
// rather than one of the implementations it is compared with.
func measuresToolgate(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if slices.Contains(otherImpls, part) {
			return false
		}
	}
	return true
}

// changes compares every benchmark present in both runs, toolgate's first
// and then the others, each in the current run's order, by its median CPU
// time per op, or instructions for callgrind lines, or wall time for
// benchmarks that report neither; each against its reference in the same
// unit where both runs have one.
func changes(base, now *results) []change {
	var out []change
	for _, name := range now.names {
		for _, unit := range []string{unitCPU, unitInstr, unitWall} {
			b, okB := base.median(name, unit)
			n, okN := now.median(name, unit)
			if !okB || !okN || b <= 0 {
				continue
			}
			c := change{name: name, unit: unit, base: b, now: n}
			if ref := reference(name); ref != "" && ref != name {
				rb, okRB := base.median(ref, unit)
				rn, okRN := now.median(ref, unit)
				if okRB && okRN && rb > 0 && rn > 0 {
					c.ref, c.refBase, c.refNow = ref, rb, rn
				}
			}
			out = append(out, c)
			break
		}
	}
	slices.SortStableFunc(out, func(a, b change) int {
		ta, tb := measuresToolgate(a.name), measuresToolgate(b.name)
		switch {
		case ta == tb:
			return 0
		case ta:
			return -1
		default:
			return 1
		}
	})
	return out
}

// regressions evaluates the last target: toolgate's benchmarks
// present in the baseline do not get slower, against their references,
// beyond noise.
func regressions(cs []change) (status, []change) {
	var worse []change
	compared := 0
	for _, c := range cs {
		if !measuresToolgate(c.name) {
			continue
		}
		compared++
		if c.regressed() {
			worse = append(worse, c)
		}
	}
	switch {
	case compared == 0:
		return notMeasured, nil
	case len(worse) > 0:
		return missed, worse
	}
	return met, nil
}
