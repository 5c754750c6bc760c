//go:build unix

package benchcpu

import "syscall"

// cpuTime returns the user and system CPU time the process has used, in
// nanoseconds, from getrusage(RUSAGE_SELF).
func cpuTime() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
