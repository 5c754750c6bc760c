// Command toolgate serves toolgate.v1.ValidationService over gRPC.
//
// Every flag can also be set by an environment variable named TOOLGATE_
// and the flag's name in upper case with dashes as underscores (--max-depth
// is TOOLGATE_MAX_DEPTH); a flag on the command line wins. The server logs
// "listening" with the bound address once it is ready (at every log level),
// answers health checks with SERVING from then on, and on SIGINT or SIGTERM
// stops taking calls and drains those in flight for up to --shutdown-grace.
// With --metrics-addr it serves Prometheus metrics at /metrics there (and,
// with --pprof, the runtime profiles under /debug/pprof/).
//
// Subcommands: "toolgate check" checks schema files and MCP tools/list
// results offline; "toolgate health" asks a running server's health service,
// for container health checks; "toolgate help [COMMAND]" prints the usage.
// "toolgate --version" prints the module version, VCS revision and time.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit statuses of the server and of help.
const (
	exitOK = 0
	// exitFailed: the server could not start with settings that parse (a
	// file that cannot be read, TLS half configured, an address in use) or
	// stopped with an error.
	exitFailed = 1
	// exitUsage: a flag or a TOOLGATE_* variable does not parse or is out
	// of range, or the command line names no command.
	exitUsage = 2
)

func main() {
	os.Exit(toolgate(os.Args[1:], os.Stdout, os.Stderr))
}

// toolgate runs the command line args and returns the exit status.
func toolgate(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return runCheck(args[1:], stdout, stderr)
		case "health":
			return runHealth(args[1:], stdout, stderr)
		case "help":
			return runHelp(args[1:], stdout, stderr)
		}
	}
	c, err := parseFlags(args)
	var usage usageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(stdout)
		return exitOK
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "toolgate: %v\nRun 'toolgate help' for usage.\n", err)
		return exitUsage
	case err != nil:
		fmt.Fprintln(stderr, "toolgate:", err)
		return exitFailed
	}
	if c.version {
		fmt.Fprintln(stdout, "toolgate", identity())
		return exitOK
	}
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	if err := serve(signals, c, stderr); err != nil {
		fmt.Fprintln(stderr, "toolgate:", err)
		return exitFailed
	}
	return exitOK
}

const usageHeader = `toolgate validates LLM tool-call arguments and structured output against
JSON Schema profiles, over gRPC (toolgate.v1.ValidationService).

Usage:
  toolgate [flags]                serve, until SIGINT or SIGTERM
  toolgate check [flags] FILE...  check schema files and MCP tools/list results offline
  toolgate health [flags]         ask a running server's gRPC health service (exit 0: SERVING)
  toolgate help [COMMAND]         print this help, or a command's
  toolgate --version              print the version, VCS revision and time

Every server flag can also be set by its environment variable; a flag on
the command line wins.

Server flags:
`

// printUsage prints the server's usage: the commands, then every flag with
// its default and its variable.
func printUsage(w io.Writer) {
	fmt.Fprint(w, usageHeader)
	printFlags(w, serverFlags(&config{}, io.Discard), withoutEnvironment...)
}

// runHelp is "toolgate help [COMMAND]": the usage, on stdout, with exit
// status 0; an unknown command is a usage error.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stdout)
		return exitOK
	}
	if len(args) == 1 {
		switch args[0] {
		case "check":
			return runCheck([]string{"-h"}, stdout, stderr)
		case "health":
			return runHealth([]string{"-h"}, stdout, stderr)
		case "help":
			printUsage(stdout)
			return exitOK
		}
	}
	fmt.Fprintf(stderr, "toolgate help: no command %q; the commands are check and health\n", args[0])
	return exitUsage
}
