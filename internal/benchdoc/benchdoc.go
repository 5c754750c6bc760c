// Package benchdoc builds the documents the performance benchmarks of issue
// 10 measure: calls of the edit_file tool (testdata/sigma-tools/edit.json)
// whose arguments carry source-code text, from ~300 bytes to 1 MiB. They are
// generated deterministically, so every run and every implementation reads
// the same bytes, and none is committed as a large file.
//
// The documents, by name (see Docs):
//
//	small    a 280-byte call replacing a few lines (old_content and content)
//	medium   30,000 bytes of source code in content, with \n, \t and \" escapes
//	escapes  30,000 bytes of prose written as \uXXXX escapes (ensure_ascii JSON)
//	large    medium's text grown to 1 MiB (1,048,576 bytes)
//	invalid  medium with path a number: a violation at byte 9
//	syntax   medium with a raw line feed at byte 13: a syntax error there
//
// Sized builds medium-like documents of any size, for the stream benchmarks.
package benchdoc

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// SchemaFile is the edit_file tool descriptor, relative to the repository
// root: {"name", "description", "inputSchema"}.
const SchemaFile = "testdata/sigma-tools/edit.json"

// Schema returns the edit_file tool's inputSchema as JSON text, read from
// SchemaFile under root (the directory holding go.mod). It fails when the
// file cannot be read or has no inputSchema object.
func Schema(root string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(root, SchemaFile))
	if err != nil {
		return nil, err
	}
	var tool struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(data, &tool); err != nil {
		return nil, fmt.Errorf("%s: %w", SchemaFile, err)
	}
	if len(tool.InputSchema) == 0 || tool.InputSchema[0] != '{' {
		return nil, fmt.Errorf("%s: no inputSchema object", SchemaFile)
	}
	return tool.InputSchema, nil
}

// Verdict is what a document is: valid, schema-invalid JSON, or not JSON.
type Verdict uint8

const (
	// Valid documents satisfy the edit_file schema.
	Valid Verdict = iota
	// Violation documents are well-formed JSON that breaks the schema.
	Violation
	// SyntaxError documents are not JSON.
	SyntaxError
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case Valid:
		return "valid"
	case Violation:
		return "violation"
	case SyntaxError:
		return "syntax error"
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// Doc is one benchmark document.
type Doc struct {
	// Name is the document's sub-benchmark name (small, medium, ...).
	Name string
	// Data is the document's bytes; callers must not modify them.
	Data []byte
	// Verdict is what a correct validator says about Data.
	Verdict Verdict
	// Deciding is the offset of the byte at which a Violation or
	// SyntaxError becomes certain: no completion of the bytes before it is
	// wrong yet, and none of the bytes up to it can be completed into a
	// valid document. -1 for Valid.
	Deciding int64
}

// Sizes of the generated documents.
const (
	MediumSize = 30_000
	LargeSize  = 1 << 20
)

// Offsets of the defects in the invalid and syntax documents.
const (
	InvalidAt = 9  // the first digit of "path": 17
	SyntaxAt  = 13 // the raw line feed inside path's string
)

// Docs returns the six documents of BenchmarkCompare, in the order.
func Docs() []Doc {
	return []Doc{
		{Name: "small", Data: Small(), Verdict: Valid, Deciding: -1},
		{Name: "medium", Data: Sized(MediumSize), Verdict: Valid, Deciding: -1},
		{Name: "escapes", Data: Escapes(MediumSize), Verdict: Valid, Deciding: -1},
		{Name: "large", Data: Sized(LargeSize), Verdict: Valid, Deciding: -1},
		{Name: "invalid", Data: Invalid(), Verdict: Violation, Deciding: InvalidAt},
		{Name: "syntax", Data: Syntax(), Verdict: SyntaxError, Deciding: SyntaxAt},
	}
}

// Lookup returns the document of Docs named name.
func Lookup(name string) (Doc, bool) {
	for _, d := range Docs() {
		if d.Name == name {
			return d, true
		}
	}
	return Doc{}, false
}

// Small returns a 280-byte edit_file call that replaces four lines of Go
// with six, the size of a typical small edit.
func Small() []byte {
	var b []byte
	b = append(b, `{"path": "internal/orders/handler.go", "old_content": `...)
	b = appendQuoted(b, "\tif id == \"\" {\n\t\treturn nil\n\t}\n\tlog.Print(id)")
	b = append(b, `, "content": `...)
	b = appendQuoted(b, "\tif id == \"\" {\n\t\treturn fmt.Errorf(\"order: missing \\\"id\\\"\")\n\t}\n\tlog.Printf(\"order %s\\n\", id)\n\ts.metrics.Inc(\"orders_read_total\")\n")
	return append(b, '}')
}

// Sized returns a valid edit_file call of exactly n bytes (n >= 64): a path
// and content holding Go source code, JSON-escaped as encoding/json does
// without HTML escaping (\n, \t, \", \\), padded with a comment line to
// the exact size.
func Sized(n int) []byte { return build(n, goSource, false) }

// Escapes returns a valid edit_file call of exactly n bytes (n >= 64) whose
// content is multilingual prose written as Python's json.dumps writes it by
// default (ensure_ascii): every non-ASCII character a \uXXXX escape,
// characters beyond the BMP a surrogate pair.
func Escapes(n int) []byte { return build(n, prose, true) }

// Invalid returns medium with the path a number, "path": 17, so the
// arguments break the schema at byte InvalidAt and nowhere else.
func Invalid() []byte {
	doc := Sized(MediumSize)
	return append([]byte(`{"path": 17, "content": "`), doc[len(head):]...)
}

// Syntax returns medium with its byte SyntaxAt, inside the path string,
// replaced by a raw line feed: the syntax error a model makes when it
// forgets to escape a newline.
func Syntax() []byte {
	doc := Sized(MediumSize)
	doc[SyntaxAt] = '\n'
	return doc
}

// appendQuoted appends s as a JSON string.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, false)
	return append(dst, '"')
}
