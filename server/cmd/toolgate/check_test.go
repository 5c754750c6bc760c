package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixtures"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/toolset"
	"github.com/toolgate/toolgate/server"
)

// check runs "toolgate check args..." in process.
func check(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = runCheck(args, &out, &errOut)
	return status, out.String(), errOut.String()
}

// The messages of the findings in testdata/mcp, as the compiler words them.
const (
	notSupported = `is not supported by the tool input profile; toolgate never ignores a keyword, so this schema cannot be enforced here.`
	untypedMsg   = `This schema has no type and would accept any value; the tool input profile needs a type (or oneOf) on every schema.`
)

func TestCheckOwnFiles(t *testing.T) {
	t.Parallel()
	small := fixtures.Testdata(t, "mcp/small.json")
	ok := fixtures.Testdata(t, "mcp/ok.json")
	dup := fixtures.Testdata(t, "mcp/duplicate.json")
	extraction := fixtures.Testdata(t, "mcp/extraction.json")
	tmp := t.TempDir()
	notJSON := filepath.Join(tmp, "not.json")
	require.NoError(t, os.WriteFile(notJSON, []byte("{\"type\": \"object\",}"), 0o600))
	empty := filepath.Join(tmp, "empty.json")
	require.NoError(t, os.WriteFile(empty, []byte(`{"tools": []}`), 0o600))
	missing := filepath.Join(tmp, "missing.json")
	page := filepath.Join(tmp, "page.json")
	require.NoError(t, os.WriteFile(page, []byte(`{"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "2"}`), 0o600))
	envelope := filepath.Join(tmp, "envelope.json")
	require.NoError(t, os.WriteFile(envelope, []byte(`{"jsonrpc": "2.0", "id": 1, "result": {"tools": [
		{"name": "a", "inputSchema": {"type": "object", "properties": {"u": {"type": "string", "format": "uri"}}}},
		{"name": "b", "inputSchema": {"type": "object"}}, {"name": "c"}]}}`), 0o600))
	twiceInSchema := filepath.Join(tmp, "twice-in-schema.json")
	require.NoError(t, os.WriteFile(twiceInSchema, []byte(`{"tools": [
		{"name": "a", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "type": "integer"}}}},
		{"name": "b", "inputSchema": {"type": "object"}}]}`), 0o600))
	twiceOutside := filepath.Join(tmp, "twice-outside.json")
	require.NoError(t, os.WriteFile(twiceOutside, []byte(`{"tools": [{"name": "a", "name": "b", "inputSchema": {"type": "object"}}]}`), 0o600))

	smallLines := []string{ // in document order
		small + `:/tools/1/inputSchema/properties/url/format: UNSUPPORTED_CAPABILITY format: The keyword "format" ` + notSupported,
		small + `:/tools/1/inputSchema/properties/retries/maximum: UNSUPPORTED_CAPABILITY maximum: The keyword "maximum" ` + notSupported,
		small + `:/tools/1/inputSchema/properties/a~1b/pattern: UNSUPPORTED_CAPABILITY pattern: The keyword "pattern" ` + notSupported,
		small + `:/tools/2/inputSchema/properties/type: UNSUPPORTED_CAPABILITY type: ` + untypedMsg,
		small + `:/tools/3: VALIDATION inputSchema: This tool has no inputSchema.`,
		small + `: 1 of 4 tools can be enforced`,
	}
	cases := []struct {
		name   string
		args   []string
		status int
		stdout []string // every line, exactly
		stderr string   // a substring; "" means stderr is empty
	}{
		{"tools/list with findings", []string{small}, 1, smallLines, ""},
		{"profile flag, explicit default", []string{"--profile", "tool_input", small}, 1, smallLines, ""},
		{"every tool enforced", []string{ok}, 0, []string{ok + `: 2 of 2 tools can be enforced`}, ""},
		{"empty tools/list", []string{empty}, 0, []string{empty + `: 0 of 0 tools can be enforced`}, ""},
		{"one page of a paginated tools/list", []string{page}, 0, []string{page + `: 1 of 1 tools can be enforced on this page (nextCursor: the list goes on)`}, ""},
		{"repeated and missing names", []string{dup}, 1, []string{
			dup + `:/tools/0: VALIDATION name: The tool name "search" occurs 2 times; a call could not be matched to one schema.`,
			dup + `:/tools/1: VALIDATION name: The tool name "search" occurs 2 times; a call could not be matched to one schema.`,
			dup + `:/tools/1/inputSchema/properties/q/minLength: UNSUPPORTED_CAPABILITY minLength: The keyword "minLength" ` + notSupported,
			dup + `:/tools/2: VALIDATION name: This tool has no name, so no call can name it.`,
			dup + `: 0 of 3 tools can be enforced`,
		}, ""},
		{"one schema", []string{extraction}, 1, []string{
			extraction + `:/properties/placed_on/format: UNSUPPORTED_CAPABILITY format: The keyword "format" ` + notSupported,
			extraction + `: cannot be enforced (UNSUPPORTED_CAPABILITY, 1 finding)`,
		}, ""},
		{"one schema, output_bindable: a warning", []string{"--profile", "output_bindable", extraction}, 0, []string{
			extraction + `:/properties/placed_on/format: WARNING format: The keyword "format" is accepted but not enforced by the output bindable profile: values are not checked against it.`,
			extraction + `: ok, 1 warning`,
		}, ""},
		{"profile flag with =", []string{"--profile=output_bindable", ok}, 1, []string{
			ok + `:/tools/1/inputSchema: UNSUPPORTED_CAPABILITY properties: An object without properties is not bindable: declare the fields the model must fill in under properties.`,
			ok + `: 1 of 2 tools can be enforced`,
		}, ""},
		{"not JSON", []string{notJSON}, 1, []string{
			notJSON + `:: VALIDATION json: The schema is not valid JSON: invalid character '}' looking for beginning of object key string at byte 18.`,
			notJSON + `: cannot be enforced (VALIDATION, 1 finding)`,
		}, ""},
		{"a whole JSON-RPC response", []string{envelope}, 1, []string{
			envelope + `:/result/tools/0/inputSchema/properties/u/format: UNSUPPORTED_CAPABILITY format: The keyword "format" ` + notSupported,
			envelope + `:/result/tools/2: VALIDATION inputSchema: This tool has no inputSchema.`,
			envelope + `: 1 of 3 tools can be enforced`,
		}, ""},
		{"a member twice inside a schema: that tool's finding", []string{twiceInSchema}, 1, []string{
			twiceInSchema + `:/tools/0/inputSchema/properties/q: VALIDATION json: The schema object at "/properties/q" has the member "type" twice.`,
			twiceInSchema + `: 1 of 2 tools can be enforced`,
		}, ""},
		{"a member twice outside the schemas: a tools/list result CompileToolset refuses", []string{twiceOutside}, 1, []string{
			twiceOutside + `:/tools/0: VALIDATION tools: The file is a tools/list result (its "tools" member is an array) that CompileToolset refuses: the member "name" occurs twice in the object at "/tools/0".`,
			twiceOutside + `: cannot be enforced (VALIDATION, 1 finding)`,
		}, ""},
		{"several files", []string{ok, extraction}, 1, []string{
			ok + `: 2 of 2 tools can be enforced`,
			extraction + `:/properties/placed_on/format: UNSUPPORTED_CAPABILITY format: The keyword "format" ` + notSupported,
			extraction + `: cannot be enforced (UNSUPPORTED_CAPABILITY, 1 finding)`,
		}, ""},
		// Usage and I/O errors: status 2, on stderr.
		{"missing file among others", []string{ok, missing, extraction}, 2, []string{
			ok + `: 2 of 2 tools can be enforced`,
			extraction + `:/properties/placed_on/format: UNSUPPORTED_CAPABILITY format: The keyword "format" ` + notSupported,
			extraction + `: cannot be enforced (UNSUPPORTED_CAPABILITY, 1 finding)`,
		}, "toolgate check: open " + missing + ": no such file or directory"},
		{"a directory", []string{tmp}, 2, nil, "is a directory"},
		{"unknown profile", []string{"--profile", "full", ok}, 2, nil, `toolgate check: unknown profile "full"; use tool_input, output_bindable or json_schema`},
		{"several profiles without --summary", []string{"--profile", "tool_input,json_schema", ok}, 2, nil, "several profiles are compared only with --summary"},
		{"no files", nil, 2, nil, "toolgate check: no files given\nUsage: toolgate check"},
		{"unknown flag", []string{"--strict", ok}, 2, nil, "flag provided but not defined: -strict\nUsage: toolgate check"},
		{"flag without value", []string{"--profile"}, 2, nil, "flag needs an argument: -profile"},
		{"summary with a missing file", []string{"--summary", ok, missing}, 2, nil, "no such file or directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			status, stdout, stderr := check(t, c.args...)
			assert.Equal(t, c.status, status)
			assert.Equal(t, c.stdout, lines(t, stdout))
			if c.stderr == "" {
				assert.Empty(t, stderr)
			} else {
				assert.Contains(t, stderr, c.stderr)
			}
		})
	}
}

func lines(t *testing.T, s string) []string {
	t.Helper()
	if s == "" {
		return nil
	}
	require.True(t, strings.HasSuffix(s, "\n"), "output ends with a newline: %q", s)
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// TestCheckHelp checks that -h prints the usage on stdout and succeeds, and
// that it lists each of the server's compile limit flags.
func TestCheckHelp(t *testing.T) {
	t.Parallel()
	limits := flag.NewFlagSet("limits", flag.ContinueOnError)
	compileLimitFlags(limits, &server.Options{})
	names := 0
	limits.VisitAll(func(*flag.Flag) { names++ })
	require.Equal(t, 14, names, "max-width, four schema limits, seven pattern limits, max-multipleof-digits, max-schema-path-ratio")
	for _, arg := range []string{"-h", "--help"} {
		status, stdout, stderr := check(t, arg)
		assert.Equal(t, 0, status)
		assert.Empty(t, stderr)
		assert.True(t, strings.HasPrefix(stdout, "Usage: toolgate check [--profile tool_input|output_bindable|json_schema] [--summary] [--format-assertion] [--resource URI=FILE]... [limit flags] FILE...\n"), stdout)
		for _, s := range []string{"-profile string", `(default "tool_input")`, "-summary", "-format-assertion", "-resource URI=FILE", "Exit status: 0", "FILE:POINTER: CODE KEYWORD: MESSAGE"} {
			assert.Contains(t, stdout, s)
		}
		limits.VisitAll(func(f *flag.Flag) {
			assert.Contains(t, stdout, fmt.Sprintf("  -%s int\n", f.Name))
			assert.Contains(t, stdout, fmt.Sprintf("(default %s)", f.DefValue))
		})
	}
}

// TestCheckSummaryOwnFiles checks the --summary report on the project's own
// files, in any argument order.
func TestCheckSummaryOwnFiles(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(fixtures.Testdata(t, "mcp"), "*.json"))
	require.NoError(t, err)
	require.Len(t, paths, 4)
	want := "Tools in 4 files that can be enforced: **3 of 10** under `tool_input`.\n" + `
| file | tools | ` + "`tool_input`" + ` |
|---|---:|---:|
| ` + "`duplicate.json`" + ` | 3 | 0 |
| ` + "`extraction.json`" + ` | 1 | 0 |
| ` + "`ok.json`" + ` | 2 | 2 |
| ` + "`small.json`" + ` | 4 | 1 |
| **total** | **10** | **3** |

What blocks the other 7 under ` + "`tool_input`" + `:

| blocker | tools | only blocker | occurrences |
|---|---:|---:|---:|
| tool without a unique ` + "`name`" + ` | 3 | 2 | 3 |
| ` + "`format`" + ` | 2 | 1 | 2 |
| ` + "`maximum`" + ` | 1 | 0 | 1 |
| ` + "`minLength`" + ` | 1 | 0 | 1 |
| ` + "`pattern`" + ` | 1 | 0 | 1 |
| tool without ` + "`inputSchema`" + ` | 1 | 1 | 1 |
| untyped schema (no ` + "`type`" + ` or ` + "`oneOf`" + `) | 1 | 1 | 1 |
` + summaryNotes
	for _, args := range [][]string{paths, {paths[3], paths[1], paths[0], paths[2]}} {
		status, stdout, stderr := check(t, append([]string{"--summary"}, args...)...)
		assert.Equal(t, 0, status, "--summary succeeds although tools are refused")
		assert.Empty(t, stderr)
		assert.Equal(t, want, stdout)
	}

	// Everything enforced: no blocker table.
	status, stdout, _ := check(t, "--summary", fixtures.Testdata(t, "mcp/ok.json"))
	assert.Equal(t, 0, status)
	assert.Equal(t, "Tools in 1 file that can be enforced: **2 of 2** under `tool_input`.\n\n"+
		"| file | tools | `tool_input` |\n|---|---:|---:|\n| `ok.json` | 2 | 2 |\n| **total** | **2** | **2** |\n", stdout)

	// Profiles side by side: each column counts its own profile.
	status, stdout, _ = check(t, append([]string{"--summary", "--profile", "tool_input,json_schema"}, paths...)...)
	assert.Equal(t, 0, status)
	assert.Contains(t, stdout, "Tools in 4 files that can be enforced: **3 of 10** under `tool_input`, **")
	assert.Contains(t, stdout, "| file | tools | `tool_input` | `json_schema` |\n")
	assert.Contains(t, stdout, "| `ok.json` | 2 | 2 | 2 |\n", "ok.json compiles under both")
}

// TestCheckSummaryNamesPages: the --summary report names each file that is
// one page of a paginated tools/list, whose later pages it cannot count.
func TestCheckSummaryNamesPages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	page := filepath.Join(dir, "page.json")
	require.NoError(t, os.WriteFile(page, []byte(`{"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "2"}`), 0o600))
	last := filepath.Join(dir, "last.json")
	require.NoError(t, os.WriteFile(last, []byte(`{"tools": [{"name": "b", "inputSchema": {"type": "object"}}], "nextCursor": null}`), 0o600))
	page2 := filepath.Join(dir, "page2.json")
	require.NoError(t, os.WriteFile(page2, []byte(`{"tools": [], "nextCursor": "3"}`), 0o600))
	status, stdout, stderr := check(t, "--summary", page, last)
	assert.Equal(t, 0, status)
	assert.Empty(t, stderr)
	assert.Equal(t, "Tools in 2 files that can be enforced: **2 of 2** under `tool_input`.\n\n"+
		"| file | tools | `tool_input` |\n|---|---:|---:|\n| `last.json` | 1 | 1 |\n| `page.json` | 1 | 1 |\n| **total** | **2** | **2** |\n\n"+
		"`page.json` is one page of a paginated tools/list (it has a `nextCursor`): the tools on its later pages are not counted.\n", stdout)

	status, stdout, _ = check(t, "--summary", page, last, page2)
	assert.Equal(t, 0, status)
	assert.Contains(t, stdout, "\n`page.json`, `page2.json` are each one page of a paginated tools/list (they have a `nextCursor`): "+
		"the tools on their later pages are not counted.\n")
}

func TestLeadsToSchema(t *testing.T) {
	t.Parallel()
	for ptr, want := range map[string]bool{
		"":                                 true,
		"/properties/type":                 true, // a property named "type"
		"/properties/a/type":               false,
		"/properties/properties":           true,
		"/properties":                      false,
		"/properties/a/items":              true,
		"/properties/a/items/oneOf/1":      true,
		"/properties/a/items/oneOf":        false,
		"/properties/a/oneOf/0/properties": false,
		"/required/0":                      false,
		"/anyOf/0":                         false,
		"/properties/a~1b/format":          false,
		"/properties/a~1b":                 true,
	} {
		assert.Equal(t, want, leadsToSchema(ptr), ptr)
	}
}

// TestCheckRealMCPTools runs the check on every real MCP tools/list
// document and checks each finding line's pointer against the file itself.
func TestCheckRealMCPTools(t *testing.T) {
	t.Parallel()
	dir := fixtures.Testdata(t, "mcp-tools")
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.Len(t, paths, 7)
	status, stdout, stderr := check(t, paths...)
	assert.Equal(t, 1, status)
	assert.Empty(t, stderr)
	out := lines(t, stdout)

	summaries := map[string]string{}
	findings := 0
	docs := map[string]any{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		var doc any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&doc))
		docs[p] = doc
		tools, _, err := toolset.ParseToolsList(data, 0)
		require.NoError(t, err)
		for _, r := range toolset.Compile(schema.ToolInput, tools) {
			findings += len(r.Findings())
		}
	}
	for _, line := range out {
		file, rest, found := strings.Cut(line, ":")
		require.True(t, found, line)
		require.Contains(t, docs, file, line)
		if !strings.HasPrefix(rest, "/") {
			summaries[filepath.Base(file)] = strings.TrimPrefix(rest, " ")
			continue
		}
		findings--
		ptr, rest, _ := strings.Cut(rest, ": ")
		assert.True(t, strings.HasPrefix(rest, "UNSUPPORTED_CAPABILITY "), line)
		v, ok := fixtures.Resolve(docs[file], ptr)
		require.True(t, ok, "the pointer of %q is in the file", line)
		keyword := strings.Fields(rest)[1]
		keyword = strings.TrimSuffix(keyword, ":")
		if leadsToSchema(strings.SplitN(ptr, "/inputSchema", 2)[1]) {
			assert.IsType(t, map[string]any{}, v, "a finding about a whole schema: %s", line)
		} else {
			assert.True(t, strings.HasSuffix(ptr, "/"+keyword), "a finding at its keyword: %s", line)
		}
	}
	assert.Zero(t, findings, "one line per finding")
	assert.Equal(t, map[string]string{
		"cloudflare-browser.json": "0 of 1 tools can be enforced",
		"cloudflare-radar.json":   "0 of 5 tools can be enforced",
		"github-mcp-server.json":  "8 of 33 tools can be enforced",
		"mcp-server-fetch.json":   "0 of 1 tools can be enforced",
		"server-filesystem.json":  "0 of 14 tools can be enforced",
		"server-memory.json":      "0 of 9 tools can be enforced",
		"server-puppeteer.json":   "7 of 7 tools can be enforced",
	}, summaries)
	fetch := filepath.Join(dir, "mcp-server-fetch.json")
	assert.Contains(t, out, fetch+`:/tools/0/inputSchema/properties/url/format: UNSUPPORTED_CAPABILITY format: The keyword "format" `+notSupported)
	assert.Contains(t, out, fetch+`:/tools/0/inputSchema/title: UNSUPPORTED_CAPABILITY title: The keyword "title" `+notSupported)
	github := filepath.Join(dir, "github-mcp-server.json")
	assert.Contains(t, out, github+`:/tools/1/inputSchema/properties/type: UNSUPPORTED_CAPABILITY type: `+untypedMsg)

	// Every one of them is accepted by the bindable output profile or not,
	// but never a usage error.
	status, _, stderr = check(t, append([]string{"--profile", "output_bindable"}, paths...)...)
	assert.Equal(t, 1, status)
	assert.Empty(t, stderr)
}

// TestREADMEMCPReport checks that the README's MCP report is what
// "make mcp-report" writes from testdata/mcp-tools today.
func TestREADMEMCPReport(t *testing.T) {
	t.Parallel()
	dir := fixtures.Testdata(t, "mcp-tools")
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	status, stdout, stderr := check(t, append([]string{"--summary", "--profile", "tool_input,json_schema"}, paths...)...)
	require.Equal(t, 0, status, stderr)

	readme, err := os.ReadFile(filepath.Join(fixtures.RepoRoot(t), "README.md"))
	require.NoError(t, err)
	const begin, end = "<!-- mcp-report:begin -->\n", "<!-- mcp-report:end -->\n"
	require.Equal(t, 1, strings.Count(string(readme), begin), "one begin marker line")
	require.Equal(t, 1, strings.Count(string(readme), end), "one end marker line")
	_, section, _ := strings.Cut(string(readme), begin)
	section, _, _ = strings.Cut(section, end)
	assert.Equal(t, "\n"+stdout+"\n", section, "README.md's MCP report is out of date: run make mcp-report")
}

// TestREADMECheckExample checks the README's example of toolgate check,
// run from the repository root as the README shows it.
func TestREADMECheckExample(t *testing.T) {
	root := fixtures.RepoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	const command = "$ toolgate check testdata/mcp/small.json\n"
	_, example, found := strings.Cut(string(readme), "```text\n"+command)
	require.True(t, found, "README shows %q in a text block", command)
	example, _, found = strings.Cut(example, "```\n")
	require.True(t, found)

	t.Chdir(root)
	status, stdout, stderr := check(t, "testdata/mcp/small.json")
	assert.Equal(t, 1, status)
	assert.Empty(t, stderr)
	assert.Equal(t, example, stdout)
}

// TestCheckBinary runs the check subcommand of the built binary: the exit
// status reaches the shell, and the server's flags and environment do not
// apply to it.
func TestCheckBinary(t *testing.T) {
	bin := toolgateBinary(t)

	root := fixtures.RepoRoot(t)
	run := func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "TOOLGATE_ADDR=not an address", "TOOLGATE_MAX_DEPTH=oops")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil {
			require.True(t, errors.As(err, &exit), "%v", err)
			return exit.ExitCode(), stdout.String(), stderr.String()
		}
		return 0, stdout.String(), stderr.String()
	}

	t.Chdir(root)
	for _, args := range [][]string{
		{"check", "testdata/mcp/small.json"},
		{"check", "testdata/mcp/ok.json"},
		{"check", "--profile", "output_bindable", "testdata/mcp/extraction.json", "testdata/mcp/ok.json"},
		{"check", "--summary", "testdata/mcp/ok.json", "testdata/mcp/small.json"},
		{"check", "-h"},
		{"check"},
		{"check", "--profile", "nope", "testdata/mcp/ok.json"},
		{"check", "testdata/mcp/absent.json"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			status, stdout, stderr := run(args...)
			wantStatus, wantStdout, wantStderr := check(t, args[1:]...)
			assert.Equal(t, wantStatus, status)
			assert.Equal(t, wantStdout, stdout)
			assert.Equal(t, wantStderr, stderr)
		})
	}
	status, _, _ := run("check", "testdata/mcp/small.json")
	assert.Equal(t, 1, status)
	status, _, _ = run("check")
	assert.Equal(t, 2, status)

	// Without the subcommand, the binary is the server: here its
	// environment is wrong, and it says so, as it does for a wrong flag.
	status, _, stderr := run("--addr", "127.0.0.1:0")
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, "TOOLGATE_MAX_DEPTH")
}

// TestCheckOmittedFindings: past a schema's first schema.DefaultMaxFindings
// findings (or warnings), check lists none and says how many more there
// are, and its counts include them.
func TestCheckOmittedFindings(t *testing.T) {
	t.Parallel()
	const n = schema.DefaultMaxFindings + 3
	props := func(prop string) string {
		var b strings.Builder
		b.WriteString(`{"type": "object", "properties": {`)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"p%d": %s`, i, prop)
		}
		return b.String() + "}}"
	}
	write := tempFiles(t)
	untyped := write("untyped.json", props("{}"))
	list := write("list.json", `{"tools": [{"name": "a", "inputSchema": `+props("{}")+`}]}`)
	titled := write("titled.json", props(`{"type": "string", "title": "t"}`))

	for _, tc := range []struct {
		name    string
		args    []string
		status  int
		listed  int    // finding or warning lines
		omitted string // the line after them
		last    string
	}{
		{"a schema", []string{untyped}, 1, schema.DefaultMaxFindings, untyped + ":: ... and 3 more, not listed",
			untyped + fmt.Sprintf(": cannot be enforced (UNSUPPORTED_CAPABILITY, %d findings)", n)},
		{"a tools/list result", []string{list}, 1, schema.DefaultMaxFindings, list + ":/tools/0/inputSchema: ... and 3 more, not listed",
			list + ": 0 of 1 tools can be enforced"},
		{"warnings", []string{"--profile", "output_bindable", titled}, 0, schema.DefaultMaxFindings, titled + ":: ... and 3 more, not listed",
			titled + fmt.Sprintf(": ok, %d warnings", n)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			status, stdout, stderr := check(t, tc.args...)
			assert.Equal(t, tc.status, status)
			assert.Empty(t, stderr)
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			require.Len(t, lines, tc.listed+2, stdout)
			assert.Equal(t, tc.omitted, lines[tc.listed], "after the listed ones")
			assert.Equal(t, tc.last, lines[tc.listed+1])
		})
	}

	t.Run("--summary counts them all", func(t *testing.T) {
		t.Parallel()
		mixed := write("mixed.json", `{"tools": [{"name": "a", "inputSchema": `+props("{}")+`},
			{"name": "b", "inputSchema": {"type": "object", "properties": {"u": {"type": "string", "format": "uri"}, "v": {}}}}]}`)
		status, stdout, stderr := check(t, "--summary", mixed)
		assert.Equal(t, 0, status)
		assert.Empty(t, stderr)
		assert.Contains(t, stdout, fmt.Sprintf("| untyped schema (no `type` or `oneOf`) | 2 | 1 | %d |\n", n+1),
			"every untyped property of a, and b's one")
		assert.Contains(t, stdout, "| `format` | 1 | 0 | 1 |\n")
	})
}

// TestCheckCompileOptions: check compiles under the limit flags it shares
// with the server (compileLimitFlags), and --format-assertion and
// --resource give the json_schema profile what a request's
// format_assertion and resources give it.
func TestCheckCompileOptions(t *testing.T) {
	t.Parallel()
	write := tempFiles(t)
	nested := write("nested.json", `{"type": "object", "properties": {"a": {"type": "string", "pattern": "((((a))))"}}}`)
	wide := write("wide.json", `{"type": "object", "allOf": [{"required": ["a"]}, {"required": ["b"]}, {"required": ["c"]}]}`)
	list := write("list.json", `{"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {"s": {"type": "string", "pattern": "((((a))))"}}}}]}`)
	unknownFormat := write("format.json", `{"type": "object", "properties": {"d": {"type": "string", "format": "no-such"}}}`)
	ref := write("ref.json", `{"type": "object", "properties": {"r": {"$ref": "https://example.com/r.json"}}}`)
	resource := write("r.json", `{"type": "integer"}`)
	const refURI = "https://example.com/r.json"
	queryRef := write("query-ref.json", `{"type": "object", "properties": {"r": {"$ref": "https://example.com/r.json?v=2"}}}`)
	equalsName := write("v=2.json", `{"type": "integer"}`)

	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stdout string // a line stdout holds
		stderr string // what stderr holds, or nothing when empty
	}{
		{"defaults admit the pattern", []string{"--profile", "json_schema", nested}, checkOK, nested + ": ok", ""},
		{"--max-pattern-nesting refuses it", []string{"--profile", "json_schema", "--max-pattern-nesting", "3", nested}, checkRefused,
			nested + ":/properties/a/pattern: UNSUPPORTED_CAPABILITY limit: The pattern cannot be enforced: it nests more than 3 levels deep", ""},
		{"in a tools/list too", []string{"--profile", "output_bindable", "--max-pattern-nesting", "3", list}, checkRefused,
			list + ":/tools/0/inputSchema/properties/s/pattern: UNSUPPORTED_CAPABILITY limit:", ""},
		{"defaults admit the width", []string{"--profile", "json_schema", wide}, checkOK, wide + ": ok", ""},
		{"--max-width refuses it", []string{"--profile", "json_schema", "--max-width", "2", wide}, checkRefused,
			wide + ":: UNSUPPORTED_CAPABILITY limit:", ""},
		{"an unknown format is an annotation", []string{"--profile", "json_schema", unknownFormat}, checkOK, unknownFormat + ": ok", ""},
		{"--format-assertion refuses it", []string{"--profile", "json_schema", "--format-assertion", unknownFormat}, checkRefused,
			unknownFormat + `:/properties/d/format: UNSUPPORTED_CAPABILITY format: The format "no-such" is not one toolgate can assert`, ""},
		{"a reference to a document not given", []string{"--profile", "json_schema", ref}, checkRefused,
			ref + ":/properties/r/$ref: UNSUPPORTED_CAPABILITY $ref:", ""},
		{"--resource gives it", []string{"--profile", "json_schema", "--resource", refURI + "=" + resource, ref}, checkOK, ref + ": ok", ""},
		{"--resource needs json_schema", []string{"--resource", refURI + "=" + resource, ref}, checkTrouble, "",
			"--format-assertion and --resource apply to the json_schema profile only"},
		{"--format-assertion needs json_schema", []string{"--profile", "tool_input,output_bindable", "--summary", "--format-assertion", ref}, checkTrouble, "",
			"--format-assertion and --resource apply to the json_schema profile only"},
		{"--resource of a missing file", []string{"--profile", "json_schema", "--resource", refURI + "=" + filepath.Join(filepath.Dir(resource), "none.json"), ref}, checkTrouble, "",
			"no such file"},
		{"--resource without a file", []string{"--profile", "json_schema", "--resource", refURI, ref}, checkTrouble, "", "want URI=FILE"},
		{"--resource given twice", []string{"--profile", "json_schema", "--resource", refURI + "=" + resource, "--resource", refURI + "=" + resource, ref},
			checkTrouble, "", refURI + " is given twice"},
		{"--resource given twice, once with an empty fragment", []string{"--profile", "json_schema", "--resource", refURI + "=" + resource, "--resource", refURI + "#=" + resource, ref},
			checkTrouble, "", refURI + " is given twice"},
		{"--resource with a relative URI", []string{"--profile", "json_schema", "--resource", "port.json=" + resource, ref},
			checkTrouble, "", `"port.json" is not an absolute URI`},
		{"--resource with a fragment", []string{"--profile", "json_schema", "--resource", refURI + "#/x=" + resource, ref},
			checkTrouble, "", "has a fragment"},
		{"--resource of a URI with = in its query", []string{"--profile", "json_schema", "--resource", refURI + "?v=2=" + resource, queryRef},
			checkOK, queryRef + ": ok", ""},
		{"--resource of a file with = in its name", []string{"--profile", "json_schema", "--resource", refURI + "=" + equalsName, ref},
			checkOK, ref + ": ok", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			status, stdout, stderr := check(t, tc.args...)
			assert.Equal(t, tc.status, status, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			if tc.stdout != "" {
				assert.Contains(t, "\n"+stdout, "\n"+tc.stdout)
			}
			if tc.stderr == "" {
				assert.Empty(t, stderr)
			} else {
				assert.Contains(t, stderr, tc.stderr)
			}
		})
	}

	t.Run("--summary applies them to json_schema alone", func(t *testing.T) {
		t.Parallel()
		status, stdout, stderr := check(t, "--summary", "--profile", "output_bindable,json_schema", "--max-pattern-nesting", "3",
			"--format-assertion", nested, unknownFormat)
		assert.Equal(t, checkOK, status)
		assert.Empty(t, stderr)
		assert.Contains(t, stdout, "**1 of 2** under `output_bindable`, **0 of 2** under `json_schema`",
			"the limit refuses the pattern in both; the format is asserted under json_schema only")
	})
}

// TestSplitResource: the "=" of URI=FILE is the one after which a file
// exists; with two such the value is ambiguous, with none the first "="
// splits it (and reading the file fails).
func TestSplitResource(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, name := range []string{"b", "a=b", "c=d"} {
		require.NoError(t, os.WriteFile(name, []byte("{}"), 0o600))
	}
	for v, want := range map[string][2]string{
		"https://x/s?q=1=b": {"https://x/s?q=1", "b"},
		"https://x/s=c=d":   {"https://x/s", "c=d"},
		"https://x/s=none":  {"https://x/s", "none"},
	} {
		uri, file, err := splitResource(v)
		require.NoError(t, err, v)
		assert.Equal(t, want, [2]string{uri, file}, v)
	}
	_, _, err := splitResource("https://x/s=a=b")
	assert.ErrorContains(t, err, `names a file after more than one =, as "a=b" and "b"`)
	for _, v := range []string{"https://x/s", "=b", "https://x/s="} {
		_, _, err := splitResource(v)
		assert.ErrorContains(t, err, "want URI=FILE", v)
	}
}

// TestCheckJSONRPCResponseWithoutTools: a JSON-RPC error response (what a
// Streamable HTTP server answers to tools/list without a session) is no
// schema; compiled as one it passed with warnings under json_schema, so a
// CI step that checked it passed for a server that listed no tools.
//
// The same holds for an object with a "tools" array that ParseToolsList
// refuses (a malformed nextCursor, an "error" beside the list): the server
// refuses it, so check must not pass it as a schema with warnings.
func TestCheckJSONRPCResponseWithoutTools(t *testing.T) {
	t.Parallel()
	const badTool = `{"name":"grep","inputSchema":{"type":"object","properties":{"q":{"type":"string","pattern":"("}}}}`
	write := tempFiles(t)
	for name, c := range map[string]struct{ doc, msg string }{
		"error.json":  {`{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`, `a JSON-RPC error response (code -32000: "Bad Request: No valid session ID provided"), which lists no tools.`},
		"result.json": {`{"jsonrpc":"2.0","id":1,"result":{"cursor":"x"}}`, `a JSON-RPC response but not a tools/list result`},
		// A tools array that CompileToolset refuses is no schema either:
		// its malformed pattern went unchecked, and the file passed.
		"cursor.json": {`{"tools":[` + badTool + `],"nextCursor":5}`, `a tools/list result (its "tools" member is an array) that CompileToolset refuses: nextCursor must be a string`},
		"beside-error.json": {`{"tools":[` + badTool + `],"error":{"code":-32603,"message":"x"}}`,
			`a tools/list result (its "tools" member is an array) that CompileToolset refuses: a JSON-RPC response with an "error" member`},
	} {
		path := write(name, c.doc)
		for _, profile := range []string{"json_schema", "tool_input"} {
			status, stdout, stderr := check(t, "--profile", profile, path)
			assert.Equal(t, checkRefused, status, "%s %s: %s", name, profile, stdout)
			assert.Empty(t, stderr)
			out := lines(t, stdout)
			require.Len(t, out, 2, stdout)
			assert.Contains(t, out[0], path+":: VALIDATION tools: The file is "+c.msg)
			assert.Equal(t, path+": cannot be enforced (VALIDATION, 1 finding)", out[1])
		}
	}
}

// TestCheckFlagAfterFiles: a flag after the files is a usage error, before
// any file is checked, not a file that cannot be opened after the files
// before it were checked under the default profile; after "--" it is a
// file.
func TestCheckFlagAfterFiles(t *testing.T) {
	t.Chdir(fixtures.RepoRoot(t))
	for _, args := range [][]string{
		{"testdata/mcp/small.json", "--profile", "json_schema"},
		{"testdata/mcp/small.json", "-profile=json_schema"},
		{"testdata/mcp/ok.json", "--summary"},
		{"testdata/mcp/ok.json", "-h"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			status, stdout, stderr := check(t, args...)
			assert.Equal(t, checkTrouble, status)
			assert.Empty(t, stdout, "no file is checked")
			assert.Contains(t, stderr, args[1]+" comes after the files")
		})
	}
	status, stdout, stderr := check(t, "--", "testdata/mcp/ok.json", "--summary")
	assert.Equal(t, checkTrouble, status)
	assert.Contains(t, stdout, "testdata/mcp/ok.json: ")
	assert.Contains(t, stderr, "open --summary: no such file or directory")
}

// TestCheckFileLimits: a FILE or --resource file past --max-file-bytes is
// refused (exit 2) without being read whole, /dev/zero included, and a
// tools/list result of more tools than --max-toolset-tools is refused
// (exit 1) as the server's CompileToolset refuses it.
func TestCheckFileLimits(t *testing.T) {
	t.Parallel()
	write := tempFiles(t)
	schemaFile := write("schema.json", `{"type":"object"}`) // 17 bytes
	status, _, stderr := check(t, "--max-file-bytes", "17", schemaFile)
	assert.Equal(t, checkOK, status, "a file at the limit is read: %s", stderr)
	status, stdout, stderr := check(t, "--max-file-bytes", "16", schemaFile)
	assert.Equal(t, checkTrouble, status)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, schemaFile+" is larger than --max-file-bytes (16 bytes)")

	status, _, stderr = check(t, "/dev/zero")
	assert.Equal(t, checkTrouble, status)
	assert.Contains(t, stderr, "/dev/zero is larger than --max-file-bytes (4194304 bytes)", "the default is the server's --max-message-bytes")

	resource := write("defs.json", `{"$defs":{"n":{"type":"object"}}}`)
	ref := write("ref.json", `{"$ref":"https://example.com/defs.json#/$defs/n"}`)
	status, _, stderr = check(t, "--profile", "json_schema", "--resource", "https://example.com/defs.json="+resource, ref)
	assert.Equal(t, checkOK, status, stderr)
	status, _, stderr = check(t, "--profile", "json_schema", "--max-file-bytes", "20", "--resource", "https://example.com/defs.json="+resource, ref)
	assert.Equal(t, checkTrouble, status)
	assert.Contains(t, stderr, "--resource: "+resource+" is larger than --max-file-bytes (20 bytes)")

	tools := write("tools.json", `{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}},{"name":"c","inputSchema":{"type":"object"}}]}`)
	status, stdout, _ = check(t, "--max-toolset-tools", "3", tools)
	assert.Equal(t, checkOK, status, stdout)
	status, stdout, _ = check(t, "--max-toolset-tools", "2", tools)
	assert.Equal(t, checkRefused, status)
	assert.Equal(t, []string{
		tools + ":: VALIDATION tools: The tools/list result has 3 tools, more than the 2 one CompileToolset request may hold (--max-toolset-tools).",
		tools + ": cannot be enforced (VALIDATION, 1 finding)",
	}, lines(t, stdout))
}

// tempFiles returns a function that writes a file of text under a new
// temporary directory of t and returns its path.
func tempFiles(t *testing.T) func(name, text string) string {
	t.Helper()
	dir := t.TempDir()
	return func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
		return path
	}
}
