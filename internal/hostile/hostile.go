// Package hostile generates toolgate's hostile corpus: the requests that
// broke it when it was attacked as a hostile caller would (issue 9's eight
// findings, and those found since), each at the size that broke it, named
// with the layer that must bound it. Tests generate the shapes in memory;
// cmd/hostilegen writes them to testdata/hostile/ for other tools.
//
// Every generator is deterministic, so a shape is the same bytes wherever
// it is generated.
package hostile

import (
	"fmt"
	"iter"
	"strings"
)

// Owner names the layer that must bound a shape's work, memory or status.
type Owner string

// The owners.
const (
	// Server is package server: deadlines, answer size, status codes,
	// toolsets.
	Server Owner = "server"
	// Engine is the validator and the schema compiler: work per argument
	// byte, and what a compile or a finding may cost.
	Engine Owner = "engine"
	// Streams is the stream session and the provider adapters.
	Streams Owner = "streams"
	// Store is the store of compiled schemas.
	Store Owner = "store"
)

// Shape is one hostile request.
type Shape struct {
	// Name is the shape's stable name, also its files' stem.
	Name string
	// Finding is the issue 9 finding it reproduces (1 to 8), or 0 for one
	// found since.
	Finding int
	// Owner is the layer that must bound it.
	Owner Owner
	// RPC is the method it calls: CompileSchema, Validate, CompileToolset
	// or ValidateStream.
	RPC string
	// Summary says what it is and what it cost.
	Summary string
	// Generate builds the request.
	Generate func() Request
}

// Request is a shape's request, in parts; which are set depends on RPC.
type Request struct {
	// Profile is the profile to compile the schemas under, as in the
	// Profile enum without its prefix ("JSON_SCHEMA"); empty means tool
	// input.
	Profile string
	// Schema is the schema_json to compile (for Validate, compiled first
	// and then used by handle, unless Handle is set). It may be invalid
	// UTF-8.
	Schema []byte
	// Arguments is Validate's arguments_json; it may be invalid UTF-8.
	Arguments []byte
	// Handle, when set, is the handle Validate sends instead of compiling
	// Schema.
	Handle string
	// ToolsList is CompileToolset's tools_list_json.
	ToolsList []byte
	// Tools are the stream's tool names and schemas, to compile and bind.
	Tools map[string][]byte
	// Provider is the provider of Events, as in the Provider enum without
	// its prefix ("OPENAI_CHAT"); empty for explicit call events.
	Provider string
	// Events are the stream's events, in order: provider payloads, or
	// for explicit calls the fragments of one call (see Fragments).
	Events iter.Seq[[]byte]
	// Schemas are the schemas of a shape that compiles many (CompileSchema
	// once each).
	Schemas iter.Seq[[]byte]
}

// Shapes returns every shape, in a fixed order: by finding, then name.
func Shapes() []Shape {
	return []Shape{
		oneOfBranchesEscapes, validatePastDeadline, compilePastDeadline, enumStrings, numericEnumNumber, numericEnumArray, nestedOneOf,
		unnamedCalls,
		splitToolName, responsesDoneMismatch,
		oneOfMessage, longPointers, longPointersSmall,
		storeCompiledSize,
		toolsetRepeatedMembers, geminiBigEvent,
		neverReads,
		invalidUTF8Arguments, invalidUTF8Schema, invalidUTF8Delta, malformedHandle,
		duplicateMemberPointers, multipleOfDigits, patternFlood,
	}
}

// Lookup returns the shape called name.
func Lookup(name string) (Shape, bool) {
	for _, s := range Shapes() {
		if s.Name == name {
			return s, true
		}
	}
	return Shape{}, false
}

// Table renders the shapes as the Markdown table of testdata/hostile's
// README.
func Table() string {
	var b strings.Builder
	b.WriteString("| shape | finding | owner | RPC | what |\n|---|---:|---|---|---|\n")
	for _, s := range Shapes() {
		finding := "new"
		if s.Finding > 0 {
			finding = fmt.Sprint(s.Finding)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", s.Name, finding, s.Owner, s.RPC, s.Summary)
	}
	return b.String()
}

// once returns a sequence of the given pieces.
func once(pieces ...[]byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for _, p := range pieces {
			if !yield(p) {
				return
			}
		}
	}
}

// list joins n items made by item with commas.
func list(n int, item func(i int) string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item(i))
	}
	return b.String()
}

// repeat joins n copies of item with commas.
func repeat(n int, item string) string {
	return list(n, func(int) string { return item })
}

// object wraps a property schema as the only property "a" of an object
// schema.
func object(property string) []byte {
	return []byte(`{"type":"object","properties":{"a":` + property + `}}`)
}
