// Command benchreport turns the output of issue 10's benchmarks into the
// generated part of docs/BENCHMARKS.md: the targets, each marked
// met or missed, and one table per benchmark, every figure a median over
// the rounds in the input (ratios are ratios of medians). `make
// benchmarks` runs it; see docs/BENCHMARKS.md.
//
// Usage:
//
//	benchreport -in results.txt [-baseline old.txt] [-commit ID] [-doc docs/BENCHMARKS.md]
//
// The input is Go benchmark output (any number of rounds, other lines
// ignored) plus BenchmarkCallgrind/<doc>/<impl> lines whose instr/op unit
// counts callgrind instructions. With -baseline the report also compares
// every benchmark with an earlier run's medians. With -doc the report
// replaces the part of that file between the lines
// "<!-- benchmarks:begin -->" and "<!-- benchmarks:end -->"; without it the
// report goes to stdout. The exit status is 1 on any error, 2 for a usage
// error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks errors that exit with status 2.
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) int {
	if err := generate(args, stdout); err != nil {
		fmt.Fprintln(stderr, "benchreport:", err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func generate(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	in := fs.String("in", "", "benchmark output to report on (required)")
	baseline := fs.String("baseline", "", "an earlier run's output to compare with")
	commit := fs.String("commit", "", "the commit measured, for the report's first line")
	doc := fs.String("doc", "", "the Markdown file whose generated part to replace (default: print the report)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *in == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: benchreport -in FILE [-baseline FILE] [-commit ID] [-doc FILE]", errUsage)
	}
	now, err := parseFile(*in)
	if err != nil {
		return err
	}
	if len(now.names) == 0 {
		return fmt.Errorf("%s holds no benchmark results", *in)
	}
	var base *results
	if *baseline != "" {
		if base, err = parseFile(*baseline); err != nil {
			return err
		}
	}
	text := report(now, base, *commit)
	if *doc == "" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	old, err := os.ReadFile(*doc)
	if err != nil {
		return err
	}
	updated, err := splice(string(old), text)
	if err != nil {
		return fmt.Errorf("%s: %w", *doc, err)
	}
	return os.WriteFile(*doc, []byte(updated), 0o644)
}

func parseFile(path string) (*results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}
