package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/toolset"
	"github.com/toolgate/toolgate/server"
)

// Exit statuses of toolgate check.
const (
	// checkOK: every schema and tool compiled (warnings allowed), or
	// --summary printed its report, or -h printed the usage.
	checkOK = 0
	// checkRefused: something is unsupported or malformed.
	checkRefused = 1
	// checkTrouble: a usage error, or a file that could not be read. It wins
	// over checkRefused, since then not everything was checked.
	checkTrouble = 2
)

const checkUsage = `Usage: toolgate check [--profile tool_input|output_bindable|json_schema] [--summary] [--format-assertion] [--resource URI=FILE]... [limit flags] FILE...

Compiles each FILE offline, without a server, and prints every finding.
A FILE is either one JSON schema or an MCP tools/list result
({"tools": [{"name", "inputSchema", ...}, ...]}).

Output, on stdout (POINTER is an RFC 6901 pointer into FILE, empty for the
whole document; in a tools/list result it leads through the tool, like
/tools/3/inputSchema/properties/url/format):
  FILE:POINTER: CODE KEYWORD: MESSAGE      a finding; CODE is UNSUPPORTED_CAPABILITY or VALIDATION
  FILE:POINTER: WARNING KEYWORD: MESSAGE   accepted but not enforced (output_bindable), an
                                           unknown keyword (json_schema), or a schema that
                                           constrains nothing
  FILE:POINTER: ... and N more, not listed
                                           after a schema's first 100 findings, or its
                                           first 100 warnings: the rest are only counted
  FILE: N of M tools can be enforced       the last line for a tools/list result
                                           (... on this page (nextCursor: the list goes
                                           on) for one page of a paginated list)
  FILE: ok                                 the last line for a schema (or: cannot be enforced (...))
Usage and I/O errors go to stderr.

With --summary, prints instead a Markdown report over all files: how many
tools can be enforced, and what blocks the rest, counting every finding
(none is left out), and which files are one page of a paginated list.
With --summary, --profile may list several profiles,
comma-separated, compared side by side.

Exit status: 0 when everything compiles (warnings allowed) and always after
--summary or -h; 1 when anything is unsupported or malformed; 2 for a usage
error or a file that cannot be read.

Flags (flags come before the files; they have no TOOLGATE_* fallbacks):
`

// runCheck is the "toolgate check" subcommand: it compiles schema files and
// MCP tools/list results offline and returns the exit status (checkOK,
// checkRefused or checkTrouble). Findings, warnings, per-file summaries and
// the --summary report go to stdout; usage and I/O errors to stderr (the
// usage itself goes to stdout when asked for with -h).
//
// A file is read as a tools/list result when toolset.ParseToolsList accepts
// it (a JSON object whose "tools" member is an array, or a JSON-RPC
// response carrying one), even if a tool in it lacks a name or an
// inputSchema, so that such a tool is reported as a VALIDATION finding at
// its own pointer. A JSON-RPC response that carries no tools/list result
// (an error response), or an object with a "tools" array that
// ParseToolsList refuses (see refusedListFinding), is one VALIDATION
// finding, keyword "tools". Anything
// else, including a file that is not JSON, is compiled as one schema, and
// the compiler reports what is wrong with it.
// Each tool's findings point into the file: tool.Pointer + "/inputSchema" +
// the finding's schema path, or tool.Pointer itself for findings about the
// tool (keyword "name" or "inputSchema").
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolgate check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	profileName := fs.String("profile", schema.ToolInput.String(), "the profile to compile for: tool_input, output_bindable or json_schema (with --summary, a comma-separated list)")
	summary := fs.Bool("summary", false, "print a Markdown report of what can be enforced and what blocks the rest, instead of the findings")
	formatAssertion := fs.Bool("format-assertion", false, "assert the standard formats and refuse an unknown one, as a request's format_assertion does (json_schema only)")
	resources := resourceFlag{}
	fs.Var(resources, "resource", "a document the schemas may refer to, as a request's resources are: FILE's text at the absolute URI, given as `URI=FILE` (json_schema only; repeatable)")
	maxFileBytes := fs.Int64("max-file-bytes", server.DefaultMaxMessageBytes, "largest FILE or --resource file read, in bytes (the default is the server's --max-message-bytes)")
	maxTools := fs.Int("max-toolset-tools", server.DefaultMaxToolsetTools, "most tools of a tools/list result, as the server's --max-toolset-tools")
	var limits server.Options
	compileLimitFlags(fs, &limits)
	usage := func(w io.Writer) {
		fmt.Fprint(w, checkUsage)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	fs.Usage = func() {} // printed below, on the right stream
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return checkOK
		}
		usage(stderr) // the flag package has printed the error itself
		return checkTrouble
	}
	if err := checkLimits(fs); err != nil {
		fmt.Fprintf(stderr, "toolgate check: %v\n", err)
		return checkTrouble
	}
	var profiles []schema.Profile
	for _, name := range strings.Split(*profileName, ",") {
		p, ok := parseProfile(name)
		if !ok {
			fmt.Fprintf(stderr, "toolgate check: unknown profile %q; use tool_input, output_bindable or json_schema\n", name)
			return checkTrouble
		}
		profiles = append(profiles, p)
	}
	if len(profiles) > 1 && !*summary {
		fmt.Fprintln(stderr, "toolgate check: several profiles are compared only with --summary")
		return checkTrouble
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "toolgate check: no files given")
		usage(stderr)
		return checkTrouble
	}
	if name, ok := flagAfterFiles(fs, args); ok {
		fmt.Fprintf(stderr, "toolgate check: %s comes after the files; flags come before them (a file whose name starts with - goes after --)\n", name)
		return checkTrouble
	}
	if (*formatAssertion || len(resources) > 0) && !slices.Contains(profiles, schema.JSONSchema) {
		fmt.Fprintln(stderr, "toolgate check: --format-assertion and --resource apply to the json_schema profile only")
		return checkTrouble
	}
	docs, err := resources.read(*maxFileBytes)
	if err != nil {
		fmt.Fprintf(stderr, "toolgate check: --resource: %v\n", err)
		return checkTrouble
	}
	status := checkOK
	reports := make([][]fileReport, len(profiles))
	// Findings past the cap are counted, not listed.
	opts := schema.Options{Limits: limits.SchemaLimits()}
	if *summary {
		// The report counts every finding (a blocker's occurrences, the
		// tools it alone blocks), so it keeps them all: the files are the
		// user's own, read by a process of their own.
		opts.MaxFindings = math.MaxInt32
	}
	for _, name := range fs.Args() {
		data, err := readFile(name, *maxFileBytes)
		if err != nil {
			fmt.Fprintf(stderr, "toolgate check: %v\n", err)
			status = checkTrouble
			continue
		}
		for i, profile := range profiles {
			profileOpts := opts
			if profile == schema.JSONSchema {
				profileOpts.FormatAssertion, profileOpts.Resources = *formatAssertion, docs
			}
			r := checkFile(profile, name, data, profileOpts, *maxTools)
			if !*summary {
				r.print(stdout)
			}
			if !r.enforceable() && status == checkOK {
				status = checkRefused
			}
			reports[i] = append(reports[i], r)
		}
	}
	if !*summary {
		return status
	}
	if status == checkTrouble {
		return status // a report over some of the files would mislead
	}
	writeSummary(stdout, profiles, reports)
	return checkOK
}

// flagAfterFiles returns the first of fs's files, left over from parsing
// args, that names one of fs's flags (-profile, --summary=true): the flag
// package stops at the first file, so such a flag would be read as a file
// and every file before it checked without it, under the default profile.
// After a "--" every argument is a file.
func flagAfterFiles(fs *flag.FlagSet, args []string) (string, bool) {
	files := fs.Args()
	if n := len(args) - len(files); n > 0 && args[n-1] == "--" {
		return "", false
	}
	for _, f := range files {
		name, isFlag := strings.CutPrefix(f, "-")
		name = strings.TrimPrefix(name, "-")
		name, _, _ = strings.Cut(name, "=")
		if isFlag && (fs.Lookup(name) != nil || name == "h" || name == "help") {
			return f, true
		}
	}
	return "", false
}

// readFile reads the file name, refusing one of more than limit bytes
// before reading past it: /dev/zero, or a file no server would take in a
// request.
func readFile(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than --max-file-bytes (%d bytes)", name, limit)
	}
	return data, nil
}

// resourceFlag is --resource: the document's absolute URI (an empty
// fragment dropped, see schema.ResourceDocument) → the file named after
// the "=", read once the flags are parsed (see read). A URI may hold "="
// (in its query) and so may a file name: the "=" is the one after which
// a file exists, and two such are a usage error; with none, the first.
type resourceFlag map[string]string

func (r resourceFlag) String() string { return "" }

func (r resourceFlag) Set(v string) error {
	uri, file, err := splitResource(v)
	if err != nil {
		return err
	}
	doc, err := schema.ResourceDocument(uri)
	if err != nil {
		return err
	}
	if _, dup := r[doc]; dup {
		return fmt.Errorf("%s is given twice", doc)
	}
	r[doc] = file
	return nil
}

// read returns each document's text, its file read within limit bytes.
func (r resourceFlag) read(limit int64) (map[string][]byte, error) {
	docs := make(map[string][]byte, len(r))
	for doc, file := range r {
		data, err := readFile(file, limit)
		if err != nil {
			return nil, err
		}
		docs[doc] = data
	}
	return docs, nil
}

// splitResource splits a --resource value URI=FILE (see resourceFlag).
func splitResource(v string) (uri, file string, err error) {
	var splits [][2]string
	for i := strings.IndexByte(v, '='); i >= 0; i = nextByte(v, i+1, '=') {
		if st, err := os.Stat(v[i+1:]); err == nil && !st.IsDir() {
			splits = append(splits, [2]string{v[:i], v[i+1:]})
		}
	}
	switch len(splits) {
	case 0:
		var ok bool
		if uri, file, ok = strings.Cut(v, "="); !ok {
			return "", "", errors.New("want URI=FILE")
		}
	case 1:
		uri, file = splits[0][0], splits[0][1]
	default:
		return "", "", fmt.Errorf("%q names a file after more than one =, as %q and %q: rename one", v, splits[0][1], splits[1][1])
	}
	if uri == "" || file == "" {
		return "", "", errors.New("want URI=FILE")
	}
	return uri, file, nil
}

// nextByte returns the index of the first c in s at or after from, or -1.
func nextByte(s string, from int, c byte) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// parseProfile returns the profile whose String() is name.
func parseProfile(name string) (schema.Profile, bool) {
	for _, p := range []schema.Profile{schema.ToolInput, schema.OutputBindable, schema.JSONSchema} {
		if p.String() == name {
			return p, true
		}
	}
	return 0, false
}

// fileReport is the outcome for one file.
type fileReport struct {
	name string
	// list is true for a tools/list result; otherwise tools holds one
	// result, for the whole document, with an empty Pointer.
	list  bool
	tools []toolset.Result
	// morePages is true for a tools/list result that is one page of a
	// longer list (it has a nextCursor).
	morePages bool
}

// checkFile compiles a file, a tools/list result or one schema, with opts.
func checkFile(profile schema.Profile, name string, data []byte, opts schema.Options, maxTools int) fileReport {
	tools, cursor, err := toolset.ParseToolsList(data, maxTools)
	var tooMany *toolset.TooManyToolsError
	if errors.As(err, &tooMany) {
		return findingReport(name, toolsFinding(fmt.Sprintf("The tools/list result has %d tools, more than the %d one CompileToolset request may hold (--max-toolset-tools).", tooMany.Tools, maxTools)))
	}
	if err == nil {
		return fileReport{name: name, list: true, tools: toolset.CompileWith(profile, tools, opts), morePages: cursor != ""}
	}
	if finding, ok := refusedListFinding(data, err); ok {
		return findingReport(name, finding)
	}
	return fileReport{name: name, tools: []toolset.Result{{Compiled: schema.CompileWith(profile, data, opts)}}}
}

// findingReport is the report of a file that one finding about the whole
// of it, f, decides.
func findingReport(name string, f schema.Finding) fileReport {
	return fileReport{name: name, tools: []toolset.Result{{Compiled: &schema.Result{Errors: []schema.Finding{f}}}}}
}

// toolsFinding is a VALIDATION finding, keyword "tools", about a file's
// tools/list as a whole.
func toolsFinding(msg string) schema.Finding {
	return schema.Finding{Code: schema.CodeValidation, Keyword: "tools", Message: msg, Offset: -1}
}

// refusedListFinding reports a file that ParseToolsList refused for err
// although it is meant as a tools/list: a JSON-RPC response (an object
// with a "jsonrpc" member), or an object with a "tools" member that is an
// array, what the README calls a tools/list result. Compiled as a schema
// it would pass with warnings (under json_schema, "tools" is an unknown
// keyword), while CompileToolset refuses it with INVALID_ARGUMENT: a
// server that answered tools/list with an error (a Streamable HTTP server
// asked without a session) listed no tools, and a list with a malformed
// nextCursor, or beside an "error", is read two ways.
func refusedListFinding(data []byte, err error) (schema.Finding, bool) {
	var response struct {
		JSONRPC *json.RawMessage `json:"jsonrpc"`
		Error   *struct {
			Code    json.Number `json:"code"`
			Message string      `json:"message"`
		} `json:"error"`
		Tools json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(data, &response) != nil {
		return schema.Finding{}, false
	}
	switch tools := bytes.TrimSpace(response.Tools); {
	case response.JSONRPC != nil && response.Error != nil:
		e := response.Error
		return toolsFinding(fmt.Sprintf("The file is a JSON-RPC error response (code %s: %q), which lists no tools.", e.Code, e.Message)), true
	case response.JSONRPC != nil:
		return toolsFinding("The file is a JSON-RPC response but " + err.Error() + "."), true
	case len(tools) > 0 && tools[0] == '[':
		f := toolsFinding("The file is a tools/list result (its \"tools\" member is an array) that CompileToolset refuses: " + err.Error() + ".")
		if de, ok := errors.AsType[*toolset.DocumentError](err); ok {
			f.SchemaPath = de.Pointer // printed as where in the file
		}
		return f, true
	}
	return schema.Finding{}, false
}

// schemaPointer is where a tool's schema starts in the file.
func (r *fileReport) schemaPointer(t *toolset.Result) string {
	if !r.list {
		return ""
	}
	return t.Pointer + "/inputSchema"
}

func (r *fileReport) enforceable() bool {
	for i := range r.tools {
		if r.tools[i].Code() != schema.CodeNone {
			return false
		}
	}
	return true
}

// print writes the file's findings, warnings and summary line.
func (r *fileReport) print(w io.Writer) {
	enforced, warnings, errs := 0, 0, 0
	for i := range r.tools {
		t := &r.tools[i]
		for _, f := range t.Problems {
			printFinding(w, r.name, t.Pointer, f.Code.String(), f)
		}
		errs += len(t.Findings()) + t.Omitted()
		if t.Code() == schema.CodeNone {
			enforced++
		}
		if t.Compiled == nil {
			continue
		}
		at := r.schemaPointer(t)
		for _, f := range t.Compiled.Errors {
			printFinding(w, r.name, at+f.SchemaPath, f.Code.String(), f)
		}
		printOmitted(w, r.name, at, t.Compiled.ErrorsOmitted)
		for _, f := range t.Compiled.Warnings {
			printFinding(w, r.name, at+f.SchemaPath, "WARNING", f)
		}
		printOmitted(w, r.name, at, t.Compiled.WarningsOmitted)
		warnings += len(t.Compiled.Warnings) + t.Compiled.WarningsOmitted
	}
	var line string
	switch {
	case r.list:
		line = fmt.Sprintf("%d of %d tools can be enforced", enforced, len(r.tools))
		if r.morePages {
			line += " on this page (nextCursor: the list goes on)"
		}
	case errs == 0:
		line = "ok"
	default:
		line = fmt.Sprintf("cannot be enforced (%s, %s)", r.tools[0].Code(), plural(errs, "finding"))
	}
	if warnings > 0 {
		line += ", " + plural(warnings, "warning")
	}
	fmt.Fprintf(w, "%s: %s\n", r.name, line)
}

func printFinding(w io.Writer, file, pointer, code string, f schema.Finding) {
	fmt.Fprintf(w, "%s:%s: %s %s: %s\n", file, pointer, code, f.Keyword, f.Message)
}

// printOmitted says how many findings of the schema at pointer the
// compiler counted past its cap (schema.DefaultMaxFindings) without
// listing them; nothing when there are none.
func printOmitted(w io.Writer, file, pointer string, omitted int) {
	if omitted > 0 {
		fmt.Fprintf(w, "%s:%s: ... and %d more, not listed\n", file, pointer, omitted)
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// blocker is one row of the --summary report.
type blocker struct {
	label       string
	tools       int // tools with at least one finding in the row
	only        int // tools all of whose findings are in the row
	occurrences int // distinct schema paths with a finding in the row
}

// writeSummary prints the Markdown report of --summary: for each profile
// (reports[i] holds the files compiled under profiles[i]) how many tools
// can be enforced, side by side, then what blocks the rest under each.
func writeSummary(w io.Writer, profiles []schema.Profile, reports [][]fileReport) {
	tallies := make([]tally, len(profiles))
	for i, p := range profiles {
		tallies[i] = tallyReports(p, reports[i])
	}
	files := reports[0]
	var heads []string
	for i, p := range profiles {
		heads = append(heads, fmt.Sprintf("**%d of %d** under `%s`", tallies[i].enforced, tallies[i].total, p))
	}
	fmt.Fprintf(w, "Tools in %s that can be enforced: %s.\n\n", plural(len(files), "file"), strings.Join(heads, ", "))
	fmt.Fprint(w, "| file | tools |")
	for _, p := range profiles {
		fmt.Fprintf(w, " `%s` |", p)
	}
	fmt.Fprint(w, "\n|---|---:|"+strings.Repeat("---:|", len(profiles))+"\n")
	for f, r := range files {
		fmt.Fprintf(w, "| `%s` | %d |", filepath.Base(r.name), len(r.tools))
		for i := range profiles {
			fmt.Fprintf(w, " %d |", tallies[i].perFile[f])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "| **total** | **%d** |", tallies[0].total)
	for i := range profiles {
		fmt.Fprintf(w, " **%d** |", tallies[i].enforced)
	}
	fmt.Fprintln(w)
	var pages []string
	for _, r := range files {
		if r.morePages {
			pages = append(pages, "`"+filepath.Base(r.name)+"`")
		}
	}
	switch {
	case len(pages) == 1:
		fmt.Fprintf(w, "\n%s is one page of a paginated tools/list (it has a `nextCursor`): the tools on its later pages are not counted.\n", pages[0])
	case len(pages) > 1:
		fmt.Fprintf(w, "\n%s are each one page of a paginated tools/list (they have a `nextCursor`): the tools on their later pages are not counted.\n",
			strings.Join(pages, ", "))
	}
	blocked := false
	for i, p := range profiles {
		t := tallies[i]
		if t.enforced == t.total {
			continue
		}
		blocked = true
		fmt.Fprintf(w, "\nWhat blocks the other %d under `%s`:\n\n", t.total-t.enforced, p)
		fmt.Fprint(w, "| blocker | tools | only blocker | occurrences |\n|---|---:|---:|---:|\n")
		for _, b := range t.blockers {
			fmt.Fprintf(w, "| %s | %d | %d | %d |\n", b.label, b.tools, b.only, b.occurrences)
		}
	}
	if blocked {
		fmt.Fprint(w, summaryNotes)
	}
}

// tally is what one profile makes of the files of a report.
type tally struct {
	total, enforced int
	perFile         []int      // tools enforced, per file
	blockers        []*blocker // sorted, most tools first
}

// tallyReports counts the tools of reports (sorted by file name, in place)
// that profile can enforce, and what blocks the others.
func tallyReports(profile schema.Profile, reports []fileReport) tally {
	slices.SortStableFunc(reports, func(a, b fileReport) int {
		return strings.Compare(filepath.Base(a.name), filepath.Base(b.name))
	})
	var t tally
	rows := map[string]*blocker{}
	for _, r := range reports {
		fileEnforced := 0
		for i := range r.tools {
			tool := &r.tools[i]
			t.total++
			if tool.Code() == schema.CodeNone {
				t.enforced++
				fileEnforced++
				continue
			}
			// The labels and schema paths of this tool's findings.
			paths := map[string]map[string]bool{}
			for _, f := range tool.Problems {
				addPath(paths, toolLabel(f), "")
			}
			if tool.Compiled != nil {
				for _, f := range tool.Compiled.Errors {
					addPath(paths, schemaLabel(profile, f), f.SchemaPath)
				}
			}
			for label, ps := range paths {
				b := rows[label]
				if b == nil {
					b = &blocker{label: label}
					rows[label] = b
				}
				b.tools++
				b.occurrences += len(ps)
				if len(paths) == 1 {
					b.only++
				}
			}
		}
		t.perFile = append(t.perFile, fileEnforced)
	}
	for _, b := range rows {
		t.blockers = append(t.blockers, b)
	}
	slices.SortFunc(t.blockers, func(a, b *blocker) int {
		return cmp.Or(cmp.Compare(b.tools, a.tools), cmp.Compare(b.occurrences, a.occurrences),
			strings.Compare(a.label, b.label))
	})
	return t
}

// summaryNotes says what the --summary report counts.
const summaryNotes = `
How to read it: each row counts error findings of ` + "`toolgate check`" + `; warnings
never block a tool. A finding at a keyword (` + "`/properties/url/format`" + `) counts
in that keyword's row; for a keyword the profile knows, such as ` + "`type`" + `, the
row counts the uses it refuses (a list of types, ` + "`\"null\"`" + `, a keyword beside
` + "`oneOf`" + `, a keyword on a type it cannot constrain). A finding at a whole schema
(` + "`/properties/filter`" + `) is an *untyped schema* under the tool input profile
(keyword ` + "`type`" + `: no ` + "`type`" + ` and no ` + "`oneOf`" + `, so it would accept any value), a
*boolean schema* (keyword ` + "`schema`" + `), or else its keyword marked *whole schema*.
Paths are read by position, so ` + "`/properties/type`" + `, a property named ` + "`type`" + `, is
a whole schema. Keywords inside a refused keyword's value, such as the
members of an ` + "`anyOf`" + `, are not examined, so not counted. **tools**: tools
with a finding in the row, each counted once (a tool blocked by two rows
counts in both); **only blocker**: tools whose findings are all in the row;
**occurrences**: distinct schema paths in the row, over all tools.
`

func addPath(paths map[string]map[string]bool, label, path string) {
	if paths[label] == nil {
		paths[label] = map[string]bool{}
	}
	paths[label][path] = true
}

// toolLabel is the report row of a finding about a tool itself.
func toolLabel(f schema.Finding) string {
	if f.Keyword == "name" {
		return "tool without a unique `name`"
	}
	return "tool without `" + f.Keyword + "`"
}

// schemaLabel is the report row of a finding about a tool's schema.
func schemaLabel(profile schema.Profile, f schema.Finding) string {
	kw := "`" + f.Keyword + "`"
	switch {
	case f.Code == schema.CodeValidation:
		return kw + " (malformed)"
	case !leadsToSchema(f.SchemaPath):
		return kw
	case f.Keyword == "schema":
		return "boolean schema"
	case f.Keyword == "type" && profile == schema.ToolInput:
		return "untyped schema (no `type` or `oneOf`)"
	default:
		return kw + " (whole schema)"
	}
}

// leadsToSchema reports whether ptr, an RFC 6901 pointer into a schema,
// leads to a (sub)schema rather than to a keyword or into a keyword's value.
// It reads the pointer by position: from a schema, "properties" followed by
// a name, "oneOf" followed by an index, and "items" lead to a schema; any
// other token is a keyword. So /properties/type is the schema of a property
// named "type", and /properties/a/type is a keyword.
func leadsToSchema(ptr string) bool {
	if ptr == "" {
		return true
	}
	tokens := strings.Split(ptr[1:], "/")
	for i := 0; i < len(tokens); i++ {
		switch tokens[i] {
		case "properties", "oneOf":
			if i+1 == len(tokens) {
				return false
			}
			i++ // the property name or branch index
		case "items":
		default:
			return false
		}
	}
	return true
}
