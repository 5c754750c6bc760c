// Package benchcpu reports the CPU time a benchmark's loop takes per op,
// beside the wall-clock ns/op of package testing. On a machine shared with
// other work, wall time also counts the time the benchmark waited for a
// core; CPU time does not, so ratios of CPU times stay put while the load
// comes and goes.
package benchcpu

import "testing"

// Unit is the unit of the metric Start reports: nanoseconds of CPU time
// (user and system, every thread of the process) per op.
const Unit = "cpu-ns/op"

// Start begins measuring the process's CPU time: call it just before the
// benchmark loop, and the function it returns just after, which reports
// the CPU time over b.N as the metric Unit. Every thread counts: the
// garbage collector's, and in a client-server benchmark the server's
// goroutines, as they are part of the cost of an op. Where the system
// cannot tell (see cpuTime), nothing is reported.
func Start(b *testing.B) (stop func()) {
	begin, ok := cpuTime()
	return func() {
		end, endOK := cpuTime()
		if ok && endOK && b.N > 0 {
			b.ReportMetric(float64(end-begin)/float64(b.N), Unit)
		}
	}
}

// Now returns the CPU time the process has used so far, in nanoseconds
// (user and system, every thread), and false where the system cannot tell:
// for a benchmark that times its own pieces of work, as Start times the
// loop.
func Now() (int64, bool) { return cpuTime() }
