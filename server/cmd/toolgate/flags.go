package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/toolgate/toolgate/internal/pattern"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/internal/validator"
	"github.com/toolgate/toolgate/server"
)

// config is the server's command line, after environment fallbacks.
type config struct {
	addr, logLevel                   string
	level                            slog.Level // logLevel, parsed
	tlsCert, tlsKey, clientCA, token string
	maxMessageBytes, rpcWorkers      int
	maxConcurrentStreams             int
	maxHeaderBytes                   int
	opts                             server.Options
	keepalive                        server.Keepalive
	shutdownGrace                    time.Duration
	metricsAddr                      string
	pprof                            bool
	version                          bool
}

// serverFlags defines the server's flags on a new FlagSet that writes
// parse errors to output. To add a flag, add one line here: help, the
// TOOLGATE_* fallback and the README's table (a test compares) follow.
func serverFlags(c *config, output io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("toolgate", flag.ContinueOnError)
	fs.SetOutput(output)
	fs.Usage = func() {} // the caller prints the usage, on the right stream
	str := func(p *string, name, def, usage string) { fs.StringVar(p, name, def, usage) }
	num := func(p *int, name string, def int, usage string) { fs.IntVar(p, name, def, usage) }
	num64 := func(p *int64, name string, def int64, usage string) { fs.Int64Var(p, name, def, usage) }
	dur := func(p *time.Duration, name, def, usage string) { fs.DurationVar(p, name, mustDuration(def), usage) }
	boolean := func(p *bool, name string, def bool, usage string) { fs.BoolVar(p, name, def, usage) }
	str(&c.addr, "addr", "127.0.0.1:50051", "address to listen on (host:port; port 0 picks a free one)")
	str(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	str(&c.tlsCert, "tls-cert", "", "PEM certificate file; with --tls-key, serve TLS")
	str(&c.tlsKey, "tls-key", "", "PEM private key file for --tls-cert")
	str(&c.clientCA, "client-ca", "", "PEM CA file; with TLS, require client certificates it signed (mTLS)")
	str(&c.token, "token-file", "", "file holding a bearer token every caller must send")
	num(&c.maxMessageBytes, "max-message-bytes", server.DefaultMaxMessageBytes, "largest request message, in bytes")
	num(&c.maxConcurrentStreams, "max-concurrent-streams", server.DefaultMaxConcurrentStreams, "most RPCs one connection may have in flight (more wait)")
	num(&c.maxHeaderBytes, "max-header-bytes", server.DefaultMaxHeaderBytes, "largest request metadata (header list), in bytes")
	num(&c.rpcWorkers, "rpc-workers", 0, "goroutines kept to serve RPCs, at most 1024 (0: one per CPU; negative: a new one per RPC)")
	num(&c.opts.MaxDepth, "max-depth", 128, "deepest nesting of arguments")
	num(&c.opts.MaxFindings, "max-findings", 100, "most findings in one answer")
	num(&c.opts.MaxFindingMessage, "max-finding-message", server.DefaultMaxFindingMessage, "longest finding message, in bytes (longer ones are cut)")
	num(&c.opts.MaxAnswerBytes, "max-answer-bytes", server.DefaultMaxAnswerBytes, "most bytes of findings in one answer")
	num64(&c.opts.MaxCompilingBytes, "max-compiling-bytes", server.DefaultMaxCompilingBytes, "most schema bytes compiled at once, over all requests (more wait)")
	num(&c.opts.StoreEntries, "store-entries", server.DefaultStoreEntries, "most compiled schemas kept")
	num64(&c.opts.StoreBytes, "store-bytes", server.DefaultStoreBytes, "most bytes of compiled schemas kept (the heap they hold)")
	num(&c.opts.MaxCallsPerStream, "max-calls-per-stream", 1024, "most calls one ValidateStream may start")
	num64(&c.opts.MaxCallBytes, "max-call-bytes", 4<<20, "most argument bytes of one streamed call")
	compileLimitFlags(fs, &c.opts)
	num64(&c.opts.MaxUnnamedCallBytes, "max-unnamed-call-bytes", server.DefaultMaxUnnamedCallBytes, "most argument bytes held, over all streams, for provider calls whose tool is not named yet")
	num64(&c.opts.MaxCallStateBytes, "max-call-state-bytes", validator.DefaultMaxState, "most validation state, in bytes, one call (a Validate, or a streamed call) may hold")
	num64(&c.opts.MaxStreamStateBytes, "max-stream-state-bytes", stream.DefaultMaxState, "most validation state, in bytes, the open calls of one ValidateStream may hold together")
	num64(&c.opts.MaxOpenStateBytes, "max-open-state-bytes", server.DefaultMaxOpenStateBytes, "most validation state, in bytes, the open streamed calls of every ValidateStream may hold together")
	num(&c.opts.MaxNameBytes, "max-name-bytes", stream.DefaultMaxName, "longest call id or tool name on a stream or in a toolset, in bytes")
	num(&c.opts.MaxProviderPlaces, "max-provider-places", stream.DefaultMaxPlaces, "most choices, candidates or output items one ValidateStream's provider events may name")
	num(&c.opts.MaxToolsetTools, "max-toolset-tools", server.DefaultMaxToolsetTools, "most tools in one CompileToolset request (at most --store-entries)")
	num(&c.opts.MaxToolsPerStream, "max-tools-per-stream", 1024, "most tool names one ValidateStream may bind")
	num64(&c.opts.MaxStreamSchemaBytes, "max-stream-schema-bytes", server.DefaultMaxStreamSchemaBytes, "most bytes of compiled schemas open streams hold, over all streams")
	dur(&c.shutdownGrace, "shutdown-grace", "10s", "how long SIGTERM waits for calls in flight")
	dur(&c.opts.StreamIdleTimeout, "stream-idle-timeout", "5m", "end a ValidateStream that sends nothing for this long")
	dur(&c.opts.StreamSendTimeout, "stream-send-timeout", "30s", "end a ValidateStream whose client leaves a result unread this long")
	dur(&c.opts.MaxRequestTime, "max-request-time", server.DefaultMaxRequestTime.String(), "end a unary call, or a ValidateStream, that takes longer than this to process one request or event")
	dur(&c.keepalive.MinTime, "keepalive-min-time", server.DefaultKeepaliveMinTime.String(), "shortest interval at which clients may ping")
	dur(&c.keepalive.Time, "keepalive-time", server.DefaultKeepaliveTime.String(), "ping a client whose connection is silent this long")
	dur(&c.keepalive.Timeout, "keepalive-timeout", server.DefaultKeepaliveTimeout.String(), "close a connection whose ping is not answered in this time")
	str(&c.metricsAddr, "metrics-addr", "", "address to serve Prometheus metrics on, at /metrics (host:port); off when empty")
	boolean(&c.pprof, "pprof", false, "also serve the runtime profiles of net/http/pprof under /debug/pprof/ on --metrics-addr")
	boolean(&c.version, "version", false, "print the version and exit")
	return fs
}

// compileLimitFlags defines on fs the flags that bound one schema's
// compile, writing o's fields: the server's and toolgate check's, so that
// check judges a schema under the limits a server given the same flags
// applies.
func compileLimitFlags(fs *flag.FlagSet, o *server.Options) {
	num := func(p *int, name string, def int, usage string) { fs.IntVar(p, name, def, usage) }
	num(&o.MaxWidth, "max-width", schema.DefaultMaxWidth, "most subschemas that may evaluate one argument value at once (work per byte)")
	num(&o.MaxSchemaBytes, "max-schema-bytes", schema.DefaultMaxBytes, "largest JSON Schema profile document, in bytes")
	num(&o.MaxSchemaDepth, "max-schema-depth", schema.DefaultSchemaDepth, "deepest nesting of a JSON Schema profile document")
	num(&o.MaxSchemaNodes, "max-schema-nodes", schema.DefaultMaxNodes, "most subschemas of a JSON Schema, and dynamic anchor bindings of its dynamic scopes")
	num(&o.MaxSchemaRefs, "max-schema-refs", schema.DefaultMaxRefs, "most references of a JSON Schema")
	num(&o.MaxPatternSteps, "max-pattern-steps", schema.DefaultMaxPatternSteps, "most work compiling one schema's patterns together, in steps of 10-40 ns")
	num(&o.MaxPatternBytes, "max-pattern-bytes", schema.DefaultMaxPatternBytes, "most memory one schema's pattern automata hold together")
	num(&o.MaxPatternNesting, "max-pattern-nesting", pattern.DefaultMaxNesting, "deepest nesting of one regular expression")
	num(&o.MaxPatternProgram, "max-pattern-program", pattern.DefaultMaxProgram, "most instructions of one regular expression (or patternProperties set), repetitions expanded")
	num(&o.MaxPatternAutomatonBytes, "max-pattern-automaton-bytes", pattern.DefaultMaxDFABytes, "most memory of one pattern automaton")
	num(&o.MaxPatternAutomatonSteps, "max-pattern-automaton-steps", pattern.DefaultMaxCompileSteps, "most work building one pattern automaton, in steps of 10-40 ns")
	num(&o.MaxPatternSetParts, "max-pattern-set-parts", pattern.DefaultMaxSetParts, "most automata one patternProperties set may be split into")
	num(&o.MaxMultipleOfDigits, "max-multipleof-digits", schema.DefaultMaxMultipleOfDigits, "most significant digits of a JSON Schema's multipleOf")
	num(&o.MaxSchemaPathRatio, "max-schema-path-ratio", schema.DefaultMaxPathRatio, "most bytes of JSON pointers a schema's subschemas lie under together, per byte of the schema")
}

// withoutEnvironment lists the server flags that have no TOOLGATE_*
// variable.
var withoutEnvironment = []string{"version"}

func mustDuration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(fmt.Sprintf("flag default %q: %v", s, err))
	}
	return d
}

// usageError is a command line that cannot be parsed: the command prints
// it with a pointer to the help and exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// parseFlags reads the server's command line, then fills each flag the
// command line did not set from its TOOLGATE_* variable. It returns
// flag.ErrHelp for -h and --help, and a usageError for a flag or a
// variable that does not parse or is out of range (naming the variable
// for one). It prints nothing: the caller prints the error once.
func parseFlags(args []string) (*config, error) {
	c := &config{}
	fs := serverFlags(c, io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err}
	}
	if fs.NArg() > 0 {
		return nil, usageError{fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))}
	}
	if err := applyEnvironment(fs, withoutEnvironment...); err != nil {
		return nil, usageError{err}
	}
	if err := checkLimits(fs); err != nil {
		return nil, usageError{err}
	}
	if err := c.level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return nil, usageError{fmt.Errorf("--log-level: %w", err)}
	}
	if c.addr == "" {
		// net.Listen would take "" for ":0": every interface, on a port
		// nobody asked for (an empty TOOLGATE_ADDR from a template).
		return nil, usageError{errors.New("--addr is empty; give host:port (port 0 picks a free one)")}
	}
	if _, _, err := net.SplitHostPort(c.addr); err != nil {
		return nil, usageError{fmt.Errorf("--addr %q: %w; give host:port", c.addr, err)}
	}
	if err := emptySecurityFlags(fs); err != nil {
		return nil, usageError{err}
	}
	return c, nil
}

// securityFlags turn a protection on. Given empty (an empty variable from
// a template or a secret reference that rendered nothing), each would
// turn it off without a word, so that is a usage error, as an empty
// --addr is: leave a flag out to go without it.
var securityFlags = []string{"token-file", "tls-cert", "tls-key", "client-ca"}

// emptySecurityFlags reports each of securityFlags that a flag or a
// variable set to "".
func emptySecurityFlags(fs *flag.FlagSet) error {
	var errs []error
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(securityFlags, f.Name) && f.Value.String() == "" {
			errs = append(errs, fmt.Errorf("--%s (or %s) is set but empty, which would turn it off; leave it out to go without it", f.Name, envName(f.Name)))
		}
	})
	return errors.Join(errs...)
}

// mayBeZero lists the number and duration flags for which zero or less
// means something: one goroutine per RPC, stopping at once on SIGTERM.
// Every other one is a limit, which must be positive: zero would not mean
// "no limit" but fall back to the default without a word.
var mayBeZero = []string{"rpc-workers", "shutdown-grace"}

// flagMaxima holds the largest value a flag can mean: gRPC takes the
// first two as 32-bit numbers, the server keeps at most
// server.MaxRPCWorkers workers, and the pattern engine caps the others.
var flagMaxima = map[string]int64{
	"max-concurrent-streams":      math.MaxUint32,
	"max-header-bytes":            math.MaxUint32,
	"rpc-workers":                 server.MaxRPCWorkers,
	"max-pattern-program":         pattern.MaxProgramCap,
	"max-pattern-automaton-bytes": pattern.MaxDFABytesCap,
}

// checkLimits refuses every number or duration flag of fs set to zero or
// less (unless listed in mayBeZero), or past its maximum in flagMaxima.
func checkLimits(fs *flag.FlagSet) error {
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		var n int64
		switch v := g.Get().(type) {
		case int:
			n = int64(v)
		case int64:
			n = v
		case time.Duration:
			n = int64(v)
		default:
			return
		}
		switch hi, capped := flagMaxima[f.Name]; {
		case n <= 0 && !slices.Contains(mayBeZero, f.Name):
			errs = append(errs, fmt.Errorf("--%s is %s: a limit must be positive", f.Name, f.Value))
		case capped && n > hi:
			errs = append(errs, fmt.Errorf("--%s is %s: at most %d", f.Name, f.Value, hi))
		}
	})
	return errors.Join(errs...)
}

// envName is the variable that stands in for a flag: TOOLGATE_ and the
// flag's name in upper case with dashes as underscores.
func envName(flagName string) string {
	return "TOOLGATE_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// applyEnvironment sets every flag of fs that the command line did not set,
// and that is not listed in without, from its variable when that is set,
// with the flag's own parser. It reports every variable that does not
// parse.
func applyEnvironment(fs *flag.FlagSet, without ...string) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		if set[f.Name] || slices.Contains(without, f.Name) {
			return
		}
		v, ok := os.LookupEnv(envName(f.Name))
		if !ok {
			return
		}
		if err := fs.Set(f.Name, v); err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: invalid value for --%s: %w", envName(f.Name), v, f.Name, err))
		}
	})
	return errors.Join(errs...)
}

// printFlags prints each flag of fs with its argument type, usage,
// default and, unless listed in without, its variable.
func printFlags(w io.Writer, fs *flag.FlagSet, without ...string) {
	fs.VisitAll(func(f *flag.Flag) {
		typ, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s", f.Name)
		if typ != "" {
			fmt.Fprintf(w, " %s", typ)
		}
		fmt.Fprintf(w, "\n      %s", usage)
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		if !slices.Contains(without, f.Name) {
			fmt.Fprintf(w, "\n      environment: %s", envName(f.Name))
		}
		fmt.Fprintln(w)
	})
}
