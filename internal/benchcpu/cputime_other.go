//go:build !unix

package benchcpu

// cpuTime cannot measure CPU time on this system.
func cpuTime() (int64, bool) { return 0, false }
