package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
)

// cli runs the command line in process (never one that serves).
func cli(args ...string) (status int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	status = toolgate(args, &out, &errOut)
	return status, out.String(), errOut.String()
}

// serverFlagNames lists the server's flags.
func serverFlagNames() []string {
	var names []string
	serverFlags(&config{}, io.Discard).VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// TestHelp: toolgate help, --help and -h print the same usage on stdout,
// exit 0, and name every subcommand, every flag and every flag's variable.
func TestHelp(t *testing.T) {
	t.Parallel()
	status, usage, stderr := cli("help")
	require.Equal(t, exitOK, status)
	assert.Empty(t, stderr)
	for _, sub := range []string{"toolgate check", "toolgate health", "toolgate help", "toolgate --version"} {
		assert.Contains(t, usage, sub)
	}
	for _, name := range serverFlagNames() {
		assert.Regexp(t, `\n  --`+name+`( \w+)?\n`, usage, "flag %s", name)
		if !slices.Contains(withoutEnvironment, name) {
			assert.Contains(t, usage, "environment: "+envName(name), "flag %s", name)
		}
	}
	assert.NotContains(t, usage, "TOOLGATE_VERSION")
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help", "help"}} {
		status, stdout, stderr := cli(args...)
		assert.Equal(t, exitOK, status, args)
		assert.Equal(t, usage, stdout, args)
		assert.Empty(t, stderr, args)
	}
}

func TestHelpSubcommands(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args   []string
		status int
		stdout string // a line it contains
		stderr string
	}{
		{[]string{"help", "check"}, exitOK, "Usage: toolgate check", ""},
		{[]string{"check", "-h"}, exitOK, "Usage: toolgate check", ""},
		{[]string{"help", "health"}, exitOK, "Usage: toolgate health", ""},
		{[]string{"health", "--help"}, exitOK, "environment: TOOLGATE_ADDR", ""},
		{[]string{"help", "serve"}, exitUsage, "", `no command "serve"`},
		{[]string{"help", "check", "extra"}, exitUsage, "", `no command "check"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			status, stdout, stderr := cli(tc.args...)
			assert.Equal(t, tc.status, status)
			assert.Contains(t, stdout, tc.stdout)
			assert.Contains(t, stderr, tc.stderr)
		})
	}
}

// TestUsageErrors: a command line or a variable that does not parse
// exits 2 and points at the help, wherever the value came from.
func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"--no-such-flag"}, {"serve"}, {"--max-depth", "deep"}} {
		status, stdout, stderr := cli(args...)
		assert.Equal(t, exitUsage, status, args)
		assert.Empty(t, stdout, args)
		assert.Contains(t, stderr, "Run 'toolgate help' for usage.", args)
		assert.Len(t, strings.Split(strings.TrimSuffix(stderr, "\n"), "\n"), 2, "the error once, then the pointer to the help: %q", stderr)
	}
	status, _, stderr := cli("--log-level", "verbose")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, stderr, "--log-level: ")
	t.Setenv("TOOLGATE_MAX_DEPTH", "deep")
	status, _, stderr = cli()
	assert.Equal(t, exitUsage, status, "a variable as its flag")
	assert.Contains(t, stderr, `TOOLGATE_MAX_DEPTH="deep": invalid value for --max-depth`)
}

// TestEveryFlagHasItsVariable sets each server flag through its TOOLGATE_*
// variable alone and checks the flag took the value.
func TestEveryFlagHasItsVariable(t *testing.T) {
	// A value of the right type for each kind of flag, other than its default.
	values := map[string]string{"string": "127.0.0.1:1", "int": "7", "int64": "7", "duration": "7s", "": "true"}
	for _, name := range serverFlagNames() {
		if slices.Contains(withoutEnvironment, name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			fs := serverFlags(&config{}, io.Discard)
			typ, _ := flag.UnquoteUsage(fs.Lookup(name))
			value, ok := values[typ]
			require.True(t, ok, "no test value for a flag of type %q", typ)
			t.Setenv(envName(name), value)
			require.NoError(t, fs.Parse(nil))
			require.NoError(t, applyEnvironment(fs, withoutEnvironment...))
			assert.Equal(t, value, fs.Lookup(name).Value.String())
		})
	}
}

// TestREADMEFlagTable: the README's table under "Running it" names every
// server flag, and only those.
func TestREADMEFlagTable(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(fixtures.RepoRoot(t), "README.md"))
	require.NoError(t, err)
	_, section, found := strings.Cut(string(data), "\n## Running it\n")
	require.True(t, found)
	section, _, _ = strings.Cut(section, "\n## ")
	var inTable []string
	for line := range strings.SplitSeq(section, "\n") {
		if !strings.HasPrefix(line, "| `--") {
			continue
		}
		first := strings.Split(line, "|")[1]
		for _, m := range regexp.MustCompile("`--([a-z-]+)`").FindAllStringSubmatch(first, -1) {
			inTable = append(inTable, m[1])
		}
	}
	slices.Sort(inTable)
	assert.Equal(t, serverFlagNames(), inTable)
}

func TestVersionFlag(t *testing.T) {
	t.Parallel()
	status, stdout, stderr := cli("--version")
	assert.Equal(t, exitOK, status)
	assert.Empty(t, stderr)
	assert.Equal(t, "toolgate "+identity().String()+"\n", stdout)
	assert.Contains(t, stdout, runtime.Version())
}

func TestIdentity(t *testing.T) {
	t.Parallel()
	goVersion := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	vcs := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123abcd"},
		{Key: "vcs.time", Value: "2026-12-01T09:22:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name                string
		bi                  *debug.BuildInfo
		version, rev, revAt string
		want                string
	}{
		{"no build information", nil, "", "", "", "(devel), revision unknown, " + goVersion},
		{"a checkout without VCS stamping", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "", "", "(devel), revision unknown, " + goVersion},
		{"VCS stamping", vcs, "", "", "", "v1.2.3, revision 0123abcd (2026-12-01T09:22:00Z, modified), " + goVersion},
		{"ldflags win", vcs, "v2.0.0", "ffff", "2027-01-01T00:00:00Z", "v2.0.0, revision ffff (2027-01-01T00:00:00Z, modified), " + goVersion},
		{"ldflags without build information", nil, "v2.0.0", "ffff", "", "v2.0.0, revision ffff, " + goVersion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, identityOf(tc.bi, tc.version, tc.rev, tc.revAt).String())
		})
	}
}
