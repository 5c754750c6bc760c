// Command benchloop checks one benchmark document of package benchdoc
// over and over, with toolgate or with encoding/json.Valid, and does
// nothing else: `make benchmarks` runs it under valgrind's callgrind with
// --toggle-collect=main.repeat, so that only the checking loop is counted,
// to get the instructions a byte costs, the figure machine load does not
// move. It checks the document as many times as it takes to cover -bytes
// (default 3,000,000) and prints that count on stdout.
//
// Usage (from the repository root):
//
//	benchloop -doc small|medium|escapes|large|invalid|syntax -impl toolgate|jsonvalid [-bytes N] [-root DIR]
//
// The exit status is 1 on any error: a check that gives the wrong answer
// for the document, an unknown flag, document or implementation.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/toolgate/toolgate/internal/benchdoc"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

func main() {
	if err := loop(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchloop:", err)
		os.Exit(1)
	}
}

func loop(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("benchloop", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	docName := fs.String("doc", "small", "the benchdoc document")
	impl := fs.String("impl", "toolgate", "toolgate or jsonvalid")
	total := fs.Int("bytes", 3_000_000, "how many bytes to check in all")
	root := fs.String("root", ".", "the repository root, for the schema file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	doc, ok := benchdoc.Lookup(*docName)
	if !ok {
		return fmt.Errorf("no document %q", *docName)
	}
	if *total <= 0 {
		return fmt.Errorf("-bytes %d is not positive", *total)
	}
	n := (*total + len(doc.Data) - 1) / len(doc.Data)
	check, want, err := checker(*impl, *root, doc.Verdict)
	if err != nil {
		return err
	}
	if got := repeat(check, doc.Data, n); got != n*boolInt(want) {
		return fmt.Errorf("%s accepted %s, a document that is %s, %d times of %d", *impl, doc.Name, doc.Verdict, got, n)
	}
	_, err = fmt.Fprintln(stdout, n)
	return err
}

// checker returns the check named impl and the answer it must give for a
// document of verdict v.
func checker(impl, root string, v benchdoc.Verdict) (func([]byte) bool, bool, error) {
	switch impl {
	case "jsonvalid":
		return json.Valid, v != benchdoc.SyntaxError, nil
	case "toolgate":
		text, err := benchdoc.Schema(root)
		if err != nil {
			return nil, false, err
		}
		res := schema.Compile(schema.ToolInput, text)
		if len(res.Errors) > 0 {
			return nil, false, fmt.Errorf("%s does not compile: %v", benchdoc.SchemaFile, res.Errors)
		}
		val := validator.New(res.Schema, validator.Options{})
		return func(doc []byte) bool {
			val.Reset()
			val.Write(doc)
			return val.Close().Valid()
		}, v == benchdoc.Valid, nil
	}
	return nil, false, fmt.Errorf("-impl %q is neither toolgate nor jsonvalid", impl)
}

// repeat runs check on doc n times and counts the acceptances.
//
//go:noinline
func repeat(check func([]byte) bool, doc []byte, n int) int {
	accepted := 0
	for range n {
		if check(doc) {
			accepted++
		}
	}
	return accepted
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
