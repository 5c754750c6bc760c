// Command testsummary reads the output of `go test -json` on stdin and
// prints what a plain `go test` prints (each package's result line, and the
// output of every failed test), then every skipped test with the reason it
// gave, then one line of counts. `make test` pipes its test run through it,
// so a skip is always visible with its reason instead of hiding behind an
// "ok" line.
//
// Lines that are not test2json events (a message go test wrote around its
// events) are copied through unchanged. The exit status is 1 when a test,
// a package or a build failed, else 0.
//
// Usage:
//
//	go test -json ./... | go run ./internal/cmd/testsummary
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Stdin, os.Stdout))
}
