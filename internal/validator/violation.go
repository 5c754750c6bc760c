package validator

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontok"
	"github.com/toolgate/toolgate/internal/schema"
)

// excerptLen is how many bytes of a received value a message quotes.
const excerptLen = 48

// excerpt keeps the first bytes of a string, name or number as it streams,
// for messages. It never allocates.
type excerpt struct {
	buf  [excerptLen]byte
	n    uint8
	more bool // bytes were dropped
}

func (e *excerpt) reset() { e.n, e.more = 0, false }

func (e *excerpt) write(p []byte) {
	c := copy(e.buf[e.n:], p)
	e.n += uint8(c)
	if c < len(p) {
		e.more = true
	}
}

func (e *excerpt) len() int { return int(e.n) }

// whole returns the kept bytes without a UTF-8 sequence cut at their end.
func (e *excerpt) whole() string {
	b := e.buf[:e.n]
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return string(b)
}

// truncate keeps the first n bytes (n may exceed what is kept).
func (e *excerpt) truncate(n int) {
	if n < int(e.n) {
		e.n, e.more = uint8(n), false
	}
}

func (e *excerpt) set(p []byte) {
	e.reset()
	e.write(p)
}

// quoted renders the excerpt as a JSON string, marking a cut with "…".
// complete is false while the value is still arriving.
func (e *excerpt) quoted(complete bool) string {
	s := strconv.Quote(e.whole())
	if e.more || !complete {
		s = s[:len(s)-1] + `…"`
	}
	return s
}

func (e *excerpt) text(complete bool) string {
	s := e.whole()
	if e.more || !complete {
		s += "…"
	}
	return s
}

// violation is one failed rule, recorded without formatting: formatting (and
// the allocation it costs) happens only when the violation is reported, and
// never for oneOf branches that fail silently.
type violation struct {
	keyword  string
	node     *schema.Node
	off      int64
	got      jsontok.Kind // the received value's kind (type, enum)
	excerpt  excerpt      // the received value or name
	complete bool         // the excerpt holds the whole value
	name     string       // required: the missing name; json: the repeated name
	oneOf    *oneOfOutcome
}

// oneOfOutcome explains a failed oneOf.
type oneOfOutcome struct {
	matched []int       // branches that matched (when more than one)
	reasons []violation // why each branch failed (when none matched)
}

// schemaPath returns the pointer of the violated keyword in the schema.
func (v *violation) schemaPath() string {
	if v.keyword == "json" || v.node == nil {
		return ""
	}
	return v.node.Path + "/" + v.keyword
}

// describe states what is wrong, without the subject.
func (v *violation) describe() string {
	n := v.node
	switch v.keyword {
	case "type":
		return fmt.Sprintf("must be %s; got %s", typeArticle(n.Types), v.gotText())
	case "enum":
		return fmt.Sprintf("must be one of %s; got %s", n.Enum.Text, v.gotText())
	case "minimum":
		return fmt.Sprintf("must be at least %s; got %s", n.Minimum, v.excerpt.text(true))
	case "maximum":
		return fmt.Sprintf("must be at most %s; got %s", n.Maximum, v.excerpt.text(true))
	case "minLength":
		return fmt.Sprintf("must be at least %d characters long; got %s", n.MinLength, v.excerpt.quoted(v.complete))
	case "maxLength":
		return fmt.Sprintf("must be at most %d characters long; got %s", n.MaxLength, v.excerpt.quoted(v.complete))
	case "pattern":
		return fmt.Sprintf("must match the pattern %q; got %s", n.Pattern, v.excerpt.quoted(v.complete))
	case "required":
		if slices.Contains(n.RequiredForbidden, v.name) {
			return fmt.Sprintf("requires the property %q, which additionalProperties: false forbids, so no value is valid", v.name)
		}
		return fmt.Sprintf("is missing the required property %q", v.name)
	case "additionalProperties":
		if n.ClosedProperties && len(n.KeyNames) > 0 {
			return fmt.Sprintf("does not allow the property %s; allowed properties are %s", v.excerpt.quoted(v.complete), quoteList(n.KeyNames))
		}
		return fmt.Sprintf("does not allow the property %s", v.excerpt.quoted(v.complete))
	case "oneOf":
		return v.describeOneOf()
	case "json": // the only "json" violation a machine-independent check makes
		return fmt.Sprintf("has the property %q more than once; duplicate names are not allowed", v.name)
	}
	return "is invalid"
}

func (v *violation) describeOneOf() string {
	o := v.oneOf
	if len(o.matched) > 1 {
		return fmt.Sprintf("must match exactly one of %d oneOf branches; it matched branches %s", len(v.node.OneOf), joinInts(o.matched))
	}
	parts := make([]string, len(o.reasons))
	for i, r := range o.reasons {
		parts[i] = fmt.Sprintf("branch %d: %s", i, r.describe())
	}
	return fmt.Sprintf("must match exactly one of %d oneOf branches; it matched none (%s)", len(v.node.OneOf), strings.Join(parts, "; "))
}

func (v *violation) gotText() string {
	switch {
	case v.got == jsontok.String && (v.excerpt.n > 0 || v.complete):
		return v.excerpt.quoted(v.complete)
	case v.got == jsontok.String:
		return "a string"
	case v.got == jsontok.Number && v.excerpt.n > 0:
		return v.excerpt.text(v.complete)
	}
	switch v.got {
	case jsontok.Number:
		return "a number"
	case jsontok.Object:
		return "an object"
	case jsontok.Array:
		return "an array"
	}
	return v.got.String()
}

// finding formats v at the given instance path; root names the document
// in messages about its root.
func (v *violation) finding(instancePath, root string) schema.Finding {
	subject := instancePath
	if subject == "" {
		subject = root
	}
	return schema.Finding{
		Code:         schema.CodeValidation,
		Keyword:      v.keyword,
		SchemaPath:   v.schemaPath(),
		InstancePath: instancePath,
		Message:      subject + " " + v.describe() + ".",
		Offset:       v.off,
	}
}

func typeArticle(t schema.Types) string {
	s := t.String()
	if s == "" {
		return "a value"
	}
	if strings.IndexByte("aeiou", s[0]) >= 0 {
		return "an " + s
	}
	return "a " + s
}

func quoteList(names []string) string {
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, strconv.Quote(n))
	}
	return schema.Truncate(strings.Join(parts, ", "), 200)
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, " and ")
}
