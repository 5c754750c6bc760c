package benchdoc

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The call every generated document is: a path, then the content string.
const (
	head = `{"path": "internal/orders/handler.go", "content": "`
	tail = `"}`
)

// MinSize is the smallest n Sized and Escapes accept: an empty content.
const MinSize = len(head) + len(tail)

// build returns a call of exactly n bytes whose content is line(0),
// line(1), ... each ending in a newline, as many whole lines as fit,
// escaped by appendEscaped, then padded with '/' (a comment). It panics
// when n < MinSize: a benchmark asked for a document that cannot exist.
func build(n int, line func(int) string, ascii bool) []byte {
	if n < MinSize {
		panic(fmt.Sprintf("benchdoc: a document of %d bytes is below MinSize (%d)", n, MinSize))
	}
	b := make([]byte, 0, n)
	b = append(b, head...)
	var enc []byte
	for i := 0; ; i++ {
		enc = appendEscaped(enc[:0], line(i)+"\n", ascii)
		if len(b)+len(enc)+len(tail) > n {
			break
		}
		b = append(b, enc...)
	}
	for len(b)+len(tail) < n {
		b = append(b, '/')
	}
	return append(b, tail...)
}

// appendEscaped appends s as the inside of a JSON string: `"` and `\` and
// control characters escaped (\n, \t, \r, else \u00XX), everything else as
// is, or, when ascii is set, every non-ASCII character as \uXXXX (a
// surrogate pair beyond the BMP).
func appendEscaped(dst []byte, s string, ascii bool) []byte {
	const hex = "0123456789abcdef"
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		case r < utf8.RuneSelf || !ascii:
			dst = utf8.AppendRune(dst, r)
		default:
			var units [2]uint16
			for _, u := range utf16.AppendRune(units[:0], r) {
				dst = append(dst, '\\', 'u', hex[u>>12], hex[u>>8&0xf], hex[u>>4&0xf], hex[u&0xf])
			}
		}
	}
	return dst
}

// goSourceLines is one handler of a Go HTTP service; goSource repeats it
// with a different number in each copy, so no two handlers are equal.
var goSourceLines = []string{
	`// HandleOrder{n} serves GET /v1/orders/{id} for shard {n}.`,
	`func (s *Server) HandleOrder{n}(w http.ResponseWriter, r *http.Request) {`,
	"\tctx, cancel := context.WithTimeout(r.Context(), {n}*time.Millisecond)",
	"\tdefer cancel()",
	"\tid := r.PathValue(\"id\")",
	"\tif id == \"\" {",
	"\t\thttp.Error(w, `missing \"id\" in the path`, http.StatusBadRequest)",
	"\t\treturn",
	"\t}",
	"\torder, err := s.store.Order(ctx, id)",
	"\tif err != nil {",
	"\t\ts.log.Printf(\"order %s: %v\\n\", id, err)",
	"\t\thttp.Error(w, \"order not found\", http.StatusNotFound)",
	"\t\treturn",
	"\t}",
	"\tw.Header().Set(\"Content-Type\", \"application/json\")",
	"\t_ = json.NewEncoder(w).Encode(map[string]any{\"id\": order.ID, \"total\": order.Total + {n}})",
	"}",
	"",
}

// goSource returns line i of the generated Go source.
func goSource(i int) string {
	return numbered(goSourceLines, i)
}

// proseLines are release notes in French, German, Japanese and Greek, with
// an emoji: text an ensure_ascii encoder writes almost entirely as \uXXXX.
var proseLines = []string{
	"Résumé de la réunion n°{n} : l’équipe a validé le déploiement à 14 h — prochaine étape : intégration.",
	"Änderungen in Version 2.{n}: Größenprüfung für Übertragungen, schnellere Straßenkarten.",
	"リリース{n}：検証エンジンを改善し、ストリームの遅延を減らしました。",
	"Σημείωση {n}: η επικύρωση ολοκληρώθηκε χωρίς σφάλματα ✅ 🚀",
}

// prose returns line i of the generated prose.
func prose(i int) string {
	return numbered(proseLines, i)
}

// numbered returns lines[i mod len] with {n} replaced by the copy number.
func numbered(lines []string, i int) string {
	return strings.ReplaceAll(lines[i%len(lines)], "{n}", strconv.Itoa(i/len(lines)+1))
}
