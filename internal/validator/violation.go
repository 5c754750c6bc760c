package validator

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/decimal"
	"github.com/toolgate/toolgate/internal/jsondoc"
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

// appendExcerptOf appends to b what an excerpt of p keeps of it, packed
// among others: its first excerptLen+1 bytes, the last of which only
// tells set that p was cut. set on the appended bytes rebuilds the
// excerpt.
func appendExcerptOf(b, p []byte) []byte { return append(b, p[:min(len(p), excerptLen+1)]...) }

func (e *excerpt) set(p []byte) {
	e.reset()
	e.write(p)
}

// quoted renders the excerpt as a JSON string, marking a cut with "…".
// complete is false while the value is still arriving.
func (e *excerpt) quoted(complete bool) string {
	s := jsonQuote(e.whole())
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
// never for pass/fail evaluations that fail silently.
type violation struct {
	keyword  string
	node     *schema.Node
	off      int64
	got      jsontok.Kind // the received value's kind (type, enum)
	excerpt  excerpt      // the received value or name
	complete bool         // the excerpt holds the whole value
	name     string       // required: the missing name; json: the repeated name; dependentRequired: the present name
	never    bool         // the node is the false schema
	about    part         // the value it is about, when not the evaluation's own
	spelled  string       // how the schema spells keyword, when it differs ("dependencies")
	count    int64        // the count a bound was checked against (items, properties, contains)
	reason   *violation   // why a subschema failed (propertyNames, not-applicable branches, then, else, ...)
	where    pointerTail  // as a reason: the value it is about, below the value the failed subschema evaluated
	branches *branchOutcome
}

// quoteRead makes r, and the reasons under it, quote x where they quote
// the name or scalar value of kind that begins at byte from: x is what
// was read of it, all of it when complete. A reason found inside that
// value quoted it up to its deciding byte; a full validation that has
// read further quotes what it read (see defers and noteCut). A reason
// decided before from is about another value, and keeps its quote.
func (r *violation) quoteRead(kind jsontok.Kind, from int64, x *excerpt, complete bool) {
	r.requote(func(v *violation) bool { return v.got == kind && v.off >= from }, x, complete)
}

// requote makes r, and each reason under it, quote x, all of it when
// complete, where quotes says it quotes the name or value x was read of.
func (r *violation) requote(quotes func(*violation) bool, x *excerpt, complete bool) {
	if quotes(r) {
		r.excerpt, r.complete = *x, complete
	}
	if r.reason != nil {
		r.reason.requote(quotes, x, complete)
	}
	if b := r.branches; b != nil {
		for i := range b.reasons {
			b.reasons[i].requote(quotes, x, complete)
		}
	}
}

// aboutName reports whether r is a closed object's or propertyNames'
// refusal of the current member name (it quotes the name, with no kind).
func (r *violation) aboutName() bool {
	return r.got == 0 && (r.keyword == "additionalProperties" || r.keyword == "propertyNames")
}

// quoteName makes r, and the reasons under it, quote x where they quote
// the member name that begins at byte from (see quoteRead): r itself when
// it refuses that name, or when it is a keyword of propertyNames on the
// name's text (a string: found inside the name, it is about the name).
func (r *violation) quoteName(from int64, x *excerpt, complete bool) {
	r.requote(func(v *violation) bool { return (v.aboutName() || v.got == jsontok.String) && v.off >= from }, x, complete)
}

// pointerTailLen is how many bytes of a reason's pointer (see
// violation.where) a violation keeps: with its length and flag, the tail
// takes 32 bytes of every violation, and of every evaluation's failure.
const pointerTailLen = 30

// pointerTail is a JSON pointer kept inside a violation without allocating,
// built from its last token up as a failure passes to the evaluations of
// the containers above it. A token that does not fit is kept as "…" (the
// pointer reads "/n/…/x"), and once not even that fits, the tokens above
// are lost: the pointer is rendered with "/…" before what was kept.
type pointerTail struct {
	buf  [pointerTailLen]byte // the pointer is buf[pointerTailLen-n:]
	n    uint8
	lost bool
}

// elided stands for a token that did not fit.
const elided = "/…"

// prepend puts the token of a member name, or of an array index when name
// is nil, before the pointer, escaped (RFC 6901).
func (p *pointerTail) prepend(name []byte, index int64) {
	if p.lost {
		return
	}
	var digits [20]byte
	token := name
	if name == nil {
		token = strconv.AppendInt(digits[:0], index, 10)
	}
	i := pointerTailLen - int(p.n)
	if 1+len(token)+bytes.Count(token, []byte{'~'})+bytes.Count(token, []byte{'/'}) > i {
		switch kept := p.buf[i:]; {
		case bytes.HasPrefix(kept, []byte(elided)): // one "…" stands for both
		case len(elided) <= i:
			p.n += uint8(copy(p.buf[i-len(elided):i], elided))
		default:
			p.lost = true
		}
		return
	}
	var scratch [pointerTailLen]byte
	escaped := jsondoc.AppendPointerToken(scratch[:0], token) // fits scratch: it fits the tail
	i -= copy(p.buf[i-len(escaped):i], escaped)
	i--
	p.buf[i] = '/'
	p.n = uint8(pointerTailLen - i)
}

// none reports whether the pointer is empty: the violation is about the
// value the failed subschema evaluated.
func (p *pointerTail) none() bool { return p.n == 0 && !p.lost }

// under renders the pointer below base, the pointer of the value the
// failed subschema evaluated.
func (p *pointerTail) under(base string) string {
	kept := string(p.buf[pointerTailLen-int(p.n):])
	if p.lost && !strings.HasPrefix(kept, elided) {
		return base + elided + kept
	}
	return base + kept
}

// part names the value a violation of an object or an array is about when
// that is not the container itself: a member or element the container's
// keywords refuse before its value begins.
type part uint8

const (
	_               part = iota // the evaluation's own value
	currentMember               // the member whose name was just read (see refuseMember)
	promisedElement             // the element a ',' promises (see moreElements)
)

// branchOutcome explains a failed anyOf or oneOf.
type branchOutcome struct {
	matched      []int       // oneOf: the first shownPositions positions that matched (when more than one)
	matchedCount int         // how many positions matched
	reasons      []violation // why failed branches failed (the first maxReasons+1)
	branchOf     []int       // the branch of each reason
	failed       int         // how many branches failed
}

// maxReasons is how many branch failures a message explains before it
// only counts the rest, so that a message stays small however many
// branches the schema has.
const maxReasons = 8

// schemaPath returns the pointer of the violated keyword in the schema,
// or its longest ancestor of at most max bytes.
func (v *violation) schemaPath(max int) string {
	switch {
	case v.keyword == "json" || v.node == nil:
		return ""
	case v.never:
		return schema.CutPointer(v.node.Path, max)
	case v.keyword == "additionalProperties" && v.node.AdditionalKeyword != "":
		return childPointer(v.node.Path, v.node.AdditionalKeyword, max)
	case v.spelled != "":
		return childPointer(v.node.Path, jsondoc.EscapePointerToken(v.spelled), max)
	}
	return childPointer(v.node.Path, jsondoc.EscapePointerToken(v.keyword), max)
}

// childPointer is parent/token, or its longest ancestor of at most max
// bytes, built only when it fits.
func childPointer(parent, token string, max int) string {
	if len(parent)+1+len(token) <= max {
		return parent + "/" + token
	}
	return schema.CutPointer(parent, max)
}

// maxNesting is how many levels of nested reasons (a oneOf branch whose
// own oneOf failed, ...) a message explains; deeper ones are only named.
// With maxReasons this bounds every message, whatever the schema nests.
const maxNesting = 2

// maxMessage bounds a message's length in bytes.
const maxMessage = 2048

// describe states what is wrong, without the subject, the value at base
// (its pointer, or "" when it was cut).
func (v *violation) describe(base string) string {
	return schema.Truncate(v.describeAt(0, base), maxMessage)
}

// describeAt describes v as a reason nested depth levels deep, about the
// value at base (see describe).
func (v *violation) describeAt(depth int, base string) string {
	n := v.node
	if v.never {
		return v.describeNever()
	}
	switch v.keyword {
	case "type":
		return fmt.Sprintf("must be %s; got %s", typeArticle(n.Types), v.gotText())
	case "enum":
		if n.Enum.Text == "" { // "enum": [] allows nothing
			return fmt.Sprintf("cannot have any value: its enum is empty; got %s", v.gotText())
		}
		return fmt.Sprintf("must be one of %s; got %s", n.Enum.Text, v.gotText())
	case "const":
		return fmt.Sprintf("must be %s; got %s", n.Const.Text, v.gotText())
	case "minimum":
		return fmt.Sprintf("must be at least %s; got %s", briefNumber(n.Minimum), v.excerpt.text(v.complete))
	case "maximum":
		return fmt.Sprintf("must be at most %s; got %s", briefNumber(n.Maximum), v.excerpt.text(v.complete))
	case "exclusiveMinimum":
		return fmt.Sprintf("must be greater than %s; got %s", briefNumber(n.ExclusiveMinimum), v.excerpt.text(v.complete))
	case "exclusiveMaximum":
		return fmt.Sprintf("must be less than %s; got %s", briefNumber(n.ExclusiveMaximum), v.excerpt.text(v.complete))
	case "multipleOf":
		return fmt.Sprintf("must be a multiple of %s; got %s", briefNumber(n.MultipleOf), v.excerpt.text(true))
	case "minLength":
		return fmt.Sprintf("must be at least %s long; got %s", countOf(n, "minLength", n.MinLength, "character"), v.excerpt.quoted(v.complete))
	case "maxLength":
		return fmt.Sprintf("must be at most %s long; got %s", countOf(n, "maxLength", n.MaxLength, "character"), v.excerpt.quoted(v.complete))
	case "pattern":
		return fmt.Sprintf("must match the pattern %s; got %s", jsonQuote(brief(n.Pattern.Source)), v.excerpt.quoted(v.complete))
	case "format":
		return fmt.Sprintf("must be a valid %s; got %s", n.Format.Name, v.excerpt.quoted(v.complete))
	case "required":
		if slices.Contains(n.RequiredForbidden, v.name) {
			return fmt.Sprintf("requires the property %s, which additionalProperties: false forbids, so no value is valid", jsonQuote(brief(v.name)))
		}
		return fmt.Sprintf("is missing the required property %s", jsonQuote(brief(v.name)))
	case "dependentRequired":
		return fmt.Sprintf("has the property %s, which requires the property %s, but it is missing", jsonQuote(brief(v.name)), jsonQuote(v.excerpt.whole()))
	case "dependentSchemas":
		return fmt.Sprintf("has the property %s, so it must match the schema for it, but %s", jsonQuote(brief(v.name)), v.reasonText(depth, base))
	case "additionalProperties":
		allowed := allowedNames(n).Names()
		if len(allowed) == 0 && n.PatternProperties == nil && !v.complete && v.excerpt.whole() == "" {
			return "allows no properties" // refused at the opening quote of the first
		}
		if len(allowed) > 0 && n.PatternProperties == nil {
			return fmt.Sprintf("does not allow the property %s; allowed properties are %s", v.excerpt.quoted(v.complete), quoteList(allowed))
		}
		return fmt.Sprintf("does not allow the property %s", v.excerpt.quoted(v.complete))
	case "unevaluatedProperties":
		if v.reason != nil && v.reason.never {
			return fmt.Sprintf("does not allow the property %s, which no other keyword of the schema evaluates", v.excerpt.quoted(true))
		}
		return fmt.Sprintf("has the property %s, which no other keyword evaluates and which does not match unevaluatedProperties: %s", v.excerpt.quoted(true), v.reasonText(depth, base))
	case "unevaluatedItems":
		if v.reason != nil && v.reason.never {
			return fmt.Sprintf("does not allow the item at index %d, which no other keyword of the schema evaluates", v.count)
		}
		return fmt.Sprintf("has an item at index %d that no other keyword evaluates and that does not match unevaluatedItems: %s", v.count, v.reasonText(depth, base))
	case "propertyNames":
		if v.reason == nil || depth >= maxNesting { // a branch's failure: no reason was kept
			return fmt.Sprintf("has the property name %s, which propertyNames does not allow", v.excerpt.quoted(v.complete))
		}
		return fmt.Sprintf("has a property name that is not allowed: the name %s", v.reasonText(depth, base))
	case "minProperties":
		return fmt.Sprintf("must have at least %s; got %d", countOf(n, "minProperties", n.MinProperties, "property"), v.count)
	case "maxProperties":
		return fmt.Sprintf("must have at most %s; got more", countOf(n, "maxProperties", n.MaxProperties, "property"))
	case "minItems":
		return fmt.Sprintf("must have at least %s; got %d", countOf(n, "minItems", n.MinItems, "item"), v.count)
	case "maxItems":
		return fmt.Sprintf("must have at most %s; got more", countOf(n, "maxItems", n.MaxItems, "item"))
	case "uniqueItems":
		return fmt.Sprintf("must have unique items; the item at index %d repeats an earlier one", v.count)
	case "contains", "minContains", "maxContains":
		return v.describeContains()
	case "oneOf", "anyOf":
		return v.describeBranches(depth, base)
	case "not":
		return "must not match the schema under not, but it does"
	case "then":
		return fmt.Sprintf("matches the if schema, so it must match then, but %s", v.reasonText(depth, base))
	case "else":
		return fmt.Sprintf("does not match the if schema, so it must match else, but %s", v.reasonText(depth, base))
	case "json": // the only "json" violation a schema-independent check makes
		return fmt.Sprintf("has the property %s more than once; duplicate names are not allowed", jsonQuote(brief(v.name)))
	}
	return "is invalid"
}

// describeNever explains a false schema.
func (v *violation) describeNever() string {
	switch v.node.Keyword {
	case "additionalProperties":
		return fmt.Sprintf("does not allow the property %s", v.excerpt.quoted(v.complete))
	case "":
		return "is not allowed: the schema is false, so no value is valid"
	}
	return fmt.Sprintf("is not allowed here: the schema at %s is false", jsonQuote(brief(v.node.Path)))
}

func (v *violation) describeContains() string {
	n := v.node
	switch {
	case v.keyword == "maxContains":
		return fmt.Sprintf("must have at most %s matching contains; got more", countOf(n, "maxContains", n.MaxContains, "item"))
	case n.MinContains == 1:
		return "must have an item that matches contains; none does"
	}
	return fmt.Sprintf("must have at least %s matching contains; got %d", countOf(n, "minContains", n.MinContains, "item"), v.count)
}

// reasonText describes the violation behind this one, or says nothing
// more when there is none.
func (v *violation) reasonText(depth int, base string) string {
	if v.reason == nil || depth >= maxNesting {
		return "it does not"
	}
	return v.reason.nested(depth+1, base)
}

// nested describes v as the reason depth levels deep for a subschema that
// failed on the value at base, led by the pointer of the value v is about
// when that is another, inside it: "/pet/kind must be …".
func (v *violation) nested(depth int, base string) string {
	if v.where.none() {
		return v.describeAt(depth, base)
	}
	at := v.where.under(base)
	return at + " " + v.describeAt(depth, at)
}

func (v *violation) describeBranches(depth int, base string) string {
	o := v.branches
	total, kw, phrase := v.node.OneOfCount, "oneOf", "exactly one"
	if v.keyword == "anyOf" {
		total, kw, phrase = v.node.AnyOfCount, "anyOf", "at least one"
	}
	switch {
	case v.count > 1 && o != nil:
		return fmt.Sprintf("must match exactly one of %d oneOf branches; it matched branches %s", total, joinInts(o.matched, o.matchedCount))
	case v.count > 1:
		return fmt.Sprintf("must match exactly one of %d oneOf branches; it matched %d", total, v.count)
	case depth >= maxNesting || o == nil:
		return fmt.Sprintf("must match %s of %d %s branches; it matched none", phrase, total, kw)
	}
	branches := v.node.OneOf
	if v.keyword == "anyOf" {
		branches = v.node.AnyOf
	}
	var parts []string
	for i, r := range o.reasons {
		if i == maxReasons {
			parts = append(parts, fmt.Sprintf("and %d more", o.failed-maxReasons))
			break
		}
		pos := branches[o.branchOf[i]].Positions
		parts = append(parts, fmt.Sprintf("branch %s: %s", joinInts(pos, len(pos)), r.nested(depth+1, base)))
	}
	return fmt.Sprintf("must match %s of %d %s branches; it matched none (%s)", phrase, total, kw, strings.Join(parts, "; "))
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

// briefLen is how many bytes of a schema's name, pattern or pointer a
// message quotes, and briefDigits how many significant digits of its
// numbers: the message is cut at maxMessage anyway, and what it quotes is
// cut first, so a finding never formats a megabyte to keep two kilobytes.
const (
	briefLen    = 256
	briefDigits = 40
)

// brief is s as a message quotes it.
func brief(s string) string { return schema.Truncate(s, briefLen) }

// briefBytes is brief of b, without copying b whole.
func briefBytes(b []byte) string { return brief(string(b[:min(len(b), briefLen+utf8.UTFMax)])) }

// briefNumber is d as a message quotes it.
func briefNumber(d *decimal.Decimal) string { return string(d.AppendBrief(nil, briefDigits)) }

// countOf is the count k of keyword kw of n as a message quotes it,
// followed by noun, plural unless the count is 1 ("1 character", "0
// properties"): the schema's own value where k saturated
// (schema.Node.Saturated), so "minLength": 1e20 reads
// 100000000000000000000, not math.MaxInt64.
func countOf(n *schema.Node, kw string, k int64, noun string) string {
	count := strconv.FormatInt(k, 10)
	if d := n.Saturated[kw]; d != nil {
		count = briefNumber(d)
	}
	switch {
	case count == "1":
	case strings.HasSuffix(noun, "y"):
		noun = noun[:len(noun)-1] + "ies"
	default:
		noun += "s"
	}
	return count + " " + noun
}

// subject names the value at instancePath in a message: the pointer, or
// for the document itself "The arguments object" ("The arguments" when the
// violation received another kind, got); a pointer cut to an ancestor
// (cut) names a value inside that ancestor.
func subject(instancePath string, cut bool, w *docWords, got jsontok.Kind) string {
	switch {
	case cut && instancePath == "":
		return "A value inside the " + w.name + " object"
	case cut:
		return "A value inside " + instancePath
	case instancePath == "" && got != 0 && got != jsontok.Object:
		// Not "The arguments object must be an object; got an array".
		return "The " + w.name
	case instancePath == "":
		return "The " + w.name + " object"
	}
	return instancePath
}

// finding formats v at the given instance path (cut to maxPointer bytes
// already, when cut is set), which its message names in words w.
func (v *violation) finding(instancePath string, cut bool, w *docWords, maxPointer int) schema.Finding {
	base := instancePath
	if cut {
		base += "/…" // the pointer was cut: what a reason's pointer adds below it is not known whole
	}
	return schema.Finding{
		Code:         schema.CodeValidation,
		Keyword:      v.findingKeyword(),
		SchemaPath:   v.schemaPath(maxPointer),
		InstancePath: instancePath,
		Message:      validUTF8(subject(instancePath, cut, w, v.got) + " " + v.describe(base) + "."),
		Offset:       v.off,
	}
}

// findingKeyword is the keyword a finding names: the applicator whose
// subschema is false, for a false schema.
func (v *violation) findingKeyword() string {
	if v.never && v.node.Keyword == "" {
		return "schema"
	}
	return v.keyword
}

// typeArticle names the types t allows after "must be": "a string or
// null", "an integer", "null".
func typeArticle(t schema.Types) string {
	s := t.String()
	switch {
	case s == "":
		return "a value"
	case t == schema.TypeNull:
		return s
	case strings.IndexByte("aeiou", s[0]) >= 0:
		return "an " + s
	}
	return "a " + s
}

func quoteList(names []string) string {
	parts := make([]string, 0, min(len(names), 32))
	for _, n := range names {
		if len(parts) == 32 {
			break
		}
		parts = append(parts, jsonQuote(brief(n)))
	}
	return schema.Truncate(strings.Join(parts, ", "), 200)
}

// joinInts quotes the first shownPositions of xs, ascending, and says how
// many more of total there are.
func joinInts(xs []int, total int) string {
	xs = xs[:min(len(xs), shownPositions)]
	parts := make([]string, 0, len(xs)+1)
	for _, x := range xs {
		parts = append(parts, strconv.Itoa(x))
	}
	if total > len(xs) {
		parts = append(parts, fmt.Sprintf("%d more", total-len(xs)))
	}
	return strings.Join(parts, " and ")
}
