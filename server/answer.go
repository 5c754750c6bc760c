package server

import (
	"fmt"
	"unicode/utf8"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/schema"
)

// answer bounds the findings of one answer, whatever the engine produced
// (a oneOf message can list every branch's reason; a pointer can be as long
// as the request): at most maxFindings per list, each keyword, pointer and
// message cut past maxText bytes, and left bytes of findings in all. The
// first finding of an answer is always kept, so a rejection always says
// why. See Options.MaxFindingMessage and Options.MaxAnswerBytes.
type answer struct {
	maxFindings int
	maxText     int
	left        int // bytes of findings this answer may still carry
	kept        int // findings kept so far
}

// findingOverhead is what one finding costs besides its text: its code,
// offset and field framing.
const findingOverhead = 16

// findings converts fs within the budget and reports whether any were left
// out. Schema findings (offset -1) get offset 0.
func (a *answer) findings(fs []schema.Finding) ([]*toolgatev1.Error, bool) {
	if len(fs) == 0 {
		return nil, false
	}
	out := make([]*toolgatev1.Error, 0, min(len(fs), a.maxFindings))
	for i, f := range fs {
		if i == a.maxFindings {
			return out, true
		}
		e := &toolgatev1.Error{
			Code:         codeToProto(f.Code),
			Keyword:      schema.Truncate(f.Keyword, a.maxText),
			SchemaPath:   schema.CutPointer(f.SchemaPath, a.maxText),
			InstancePath: schema.CutPointer(f.InstancePath, a.maxText),
			Message:      cutMessage(f.Message, a.maxText),
			Offset:       max(f.Offset, 0),
		}
		size := findingOverhead + len(e.Keyword) + len(e.SchemaPath) + len(e.InstancePath) + len(e.Message)
		if a.kept > 0 && size > a.left {
			return out, true
		}
		a.left -= size
		a.kept++
		out = append(out, e)
	}
	return out, false
}

// compileFindings converts a compile's errors or warnings (or a tool's
// findings) like findings, and reports whether any were left out: by this
// answer's bounds, or by the compiler's (omitted, schema.Result's
// ErrorsOmitted or WarningsOmitted, counts those past
// schema.Options.MaxFindings).
func (a *answer) compileFindings(fs []schema.Finding, omitted int) ([]*toolgatev1.Error, bool) {
	out, cut := a.findings(fs)
	return out, cut || omitted > 0
}

// cutMessage cuts msg on a UTF-8 boundary after at most n bytes and says
// how many bytes were left out.
func cutMessage(msg string, n int) string {
	if len(msg) <= n {
		return msg
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", msg[:cut], len(msg)-cut)
}
