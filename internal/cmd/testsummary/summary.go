package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// event is one test2json event (see `go doc test2json`); only the fields
// the summary needs.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// testKey names one test or subtest of one package.
type testKey struct {
	pkg, test string
}

// skip is a skipped test and the reason it logged.
type skip struct {
	testKey
	reason string
}

// summary follows a test run event by event. Output of a test is held until
// the test ends: printed if it failed, kept as the reason if it skipped,
// dropped if it passed, so memory is bounded by the output of the tests
// running at once.
type summary struct {
	out                 io.Writer
	pending             map[testKey][]string
	skips               []skip
	passed, failedTests int
	failed              bool
}

func newSummary(out io.Writer) *summary {
	return &summary{out: out, pending: map[testKey][]string{}}
}

// maxLine bounds one line of input; go test's events are far shorter.
const maxLine = 4 << 20

// run reads a whole `go test -json` stream from in, writes the summary to
// out and returns the exit status.
func run(in io.Reader, out io.Writer) int {
	s := newSummary(out)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for sc.Scan() {
		s.line(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(out, "testsummary: reading the test output: %v\n", err)
		s.failed = true
	}
	return s.finish()
}

// line takes one line of input.
func (s *summary) line(b []byte) {
	var e event
	if !bytes.HasPrefix(b, []byte("{")) || json.Unmarshal(b, &e) != nil || e.Action == "" {
		fmt.Fprintf(s.out, "%s\n", b)
		return
	}
	s.event(e)
}

// event takes one test2json event.
func (s *summary) event(e event) {
	k := testKey{e.Package, e.Test}
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.out, e.Output)
	case "build-fail":
		s.failed = true
	case "output":
		if e.Test == "" {
			s.packageOutput(e.Output)
			return
		}
		s.pending[k] = append(s.pending[k], e.Output)
	case "pass":
		if e.Test != "" {
			s.passed++
		}
		delete(s.pending, k)
	case "skip":
		if e.Test != "" {
			s.skips = append(s.skips, skip{k, reason(s.pending[k])})
		}
		delete(s.pending, k)
	case "fail":
		s.failed = true
		if e.Test != "" {
			s.failedTests++
			s.printFailure(s.pending[k])
		}
		delete(s.pending, k)
	}
}

// packageOutput prints a package's own lines as plain go test does: its
// result line ("ok", "FAIL", "?") and anything the test binary printed
// outside a test, such as a panic or a timeout; the bare PASS and FAIL lines
// that only -v shows are left out.
func (s *summary) packageOutput(line string) {
	if line == "PASS\n" || line == "FAIL\n" {
		return
	}
	fmt.Fprint(s.out, line)
}

// printFailure prints a failed test's output as plain go test does: its
// "--- FAIL" line, then what it logged.
func (s *summary) printFailure(lines []string) {
	for _, line := range lines {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "--- FAIL") {
			fmt.Fprint(s.out, line)
		}
	}
	for _, line := range lines {
		if !isFraming(line) {
			fmt.Fprint(s.out, line)
		}
	}
}

// finish prints the skipped tests and the counts, and returns the exit
// status.
func (s *summary) finish() int {
	if len(s.skips) > 0 {
		fmt.Fprintf(s.out, "\nskipped (%d):\n", len(s.skips))
		for _, sk := range s.skips {
			fmt.Fprintf(s.out, "  %s %s: %s\n", sk.pkg, sk.test, sk.reason)
		}
	}
	fmt.Fprintf(s.out, "\ntests: %d passed, %d skipped, %d failed\n", s.passed, len(s.skips), s.failedTests)
	if s.failed {
		return 1
	}
	return 0
}

// isFraming reports whether line is one of the lines go test -v adds
// around a test's own output ("=== RUN", "--- PASS: ...", indented for
// subtests).
func isFraming(line string) bool {
	t := strings.TrimLeft(line, " ")
	return strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ")
}

// reason joins what a skipped test logged, without the framing lines: the
// message it gave t.Skip, with the file:line prefix go test adds.
func reason(lines []string) string {
	var parts []string
	for _, line := range lines {
		if isFraming(line) {
			continue
		}
		if t := strings.TrimSpace(line); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " ")
}
