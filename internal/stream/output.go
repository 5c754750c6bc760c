package stream

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// outputPrefix begins the result id of every answer ("output/0"); no call
// may have such an id, so that no call's verdict can pass for an answer's
// (see Start and claimID).
const outputPrefix = "output/"

// isOutputID reports whether id is in the answers' namespace.
func isOutputID(id string) bool { return strings.HasPrefix(id, outputPrefix) }

// BindOutput binds the stream's message outputs — the text of each
// provider choice, candidate, message or item — to b: each output that
// begins afterwards is validated as one JSON document and reported as a
// Result with CallID "output/<n>" and no ToolName (see ProviderEvent).
// With stripFence, one surrounding ``` or ```json code fence is allowed
// (see fence); without it a fence, like any preamble, is a "json" finding
// at its first byte. A later BindOutput replaces the binding for outputs
// that begin after it; outputs that begin while none is bound are not
// validated.
func (s *Session) BindOutput(b Binding, stripFence bool) {
	s.output, s.stripFence = &b, stripFence
}

// startOutput begins the output key, counted toward MaxCalls like a call
// whether or not an output is bound (so that no stream holds outputs
// without limit), and validated against the output binding, with a result
// id of its own (see answerID) — or, with none, done already, so that its
// events change nothing and it gets no result.
func (s *Session) startOutput(key string) (*call, error) {
	c, err := s.newCall(key)
	if err != nil {
		return nil, err
	}
	if s.output == nil {
		c.done = true
		return c, nil
	}
	c.id = s.adapter.answerID(key)
	s.bindAnswer(c)
	return c, nil
}

// StartOutput begins an answer the client sends itself, as plain deltas
// (Delta, End) under callID: the text of a structured-output answer it
// read from its provider. It is validated against the output binding as a
// provider's answer is (see BindOutput): with the bind's fence rule,
// messages that speak of the output, and an empty text a "json" finding,
// not "{}". Its Result has CallID callID and no ToolName. callID is
// checked as Start checks it; with no output bound, StartOutput is
// InvalidArgument, since the answer has no schema to be held to.
func (s *Session) StartOutput(callID string) error {
	if s.output == nil {
		return errorf(InvalidArgument, "start: call %s is the output, but the stream has no output bound (StreamBind.output_handle or output_schema)", quote(callID))
	}
	c, err := s.startClientCall(callID)
	if err != nil {
		return err
	}
	s.bindAnswer(c)
	return nil
}

// bindAnswer makes c an answer, validated against the output binding (or,
// for a handle this server does not hold, given its NOT_FOUND verdict).
func (s *Session) bindAnswer(c *call) {
	c.output = true
	if s.output.Schema == nil {
		s.finish(c, true, []schema.Finding{{Code: schema.CodeNotFound, Keyword: "handle", Offset: 0,
			Message: fmt.Sprintf("The output is bound to the handle %s, which this server does not hold, so it was not validated; bind the output schema inline (StreamBind.output_schema) or compile it on this server and bind it again.", quote(s.output.Handle))}}, false)
		return
	}
	opts := s.limits.Validator
	opts.Output = true // its messages speak of the output, not of arguments
	c.v, c.profile = validator.New(s.output.Schema, opts), s.output.Schema.Profile
	if s.stripFence {
		c.fence = &fence{}
	}
}

// refuse is the verdict on an output whose model refused to answer: its
// own finding, not text to validate.
func (s *Session) refuse(c *call, text string) {
	if c.done {
		return
	}
	msg := "The model refused to answer, so there is no JSON document to validate."
	if text != "" {
		msg = fmt.Sprintf("The model refused to answer (%q), so there is no JSON document to validate.", schema.Truncate(text, 60))
	}
	s.finish(c, true, []schema.Finding{{Code: schema.CodeValidation, Keyword: "refusal", Offset: c.bytes, Message: msg}}, false)
}

// writeFenced feeds an output's text through its fence: the document's
// bytes to the validator (in chunks, with the context checked, as write
// does), the fence's skipped, the verdict as soon as it is known. at is
// the text offset of p[0].
func (s *Session) writeFenced(c *call, p []byte, at int64) error {
	run := 0 // start of the document bytes not yet written
	for i := 0; i < len(p) && !c.done; i++ {
		act := c.fence.step(p[i])
		if act == passByte {
			continue
		}
		if err := s.writeDocument(c, p[run:i]); err != nil || c.done {
			return err
		}
		run = i + 1
		switch act {
		case closeDoc:
			s.closeDocument(c, true)
		case badByte:
			s.finish(c, true, []schema.Finding{fenceFinding(at+int64(i), c.fence.badMessage())}, false)
		}
	}
	if c.done || c.fence.state == fenceClosing {
		return nil
	}
	return s.writeDocument(c, p[run:])
}

// writeDocument writes document bytes of a fenced output; the validator's
// offsets then lag the text's by the opening fence (see finish).
func (s *Session) writeDocument(c *call, doc []byte) error {
	c.shift = c.fence.skipped
	return s.write(c, doc)
}

// closeDocument ends an output's document and sends its verdict when it is
// a rejection (or, at the end of the text, any verdict).
func (s *Session) closeDocument(c *call, early bool) {
	r := c.v.Close()
	if !r.Valid() {
		s.verdict(c, early, r)
		return
	}
	c.v = nil // valid so far; the fence's end decides
}

// endOutput applies the end rules of an output: the text, from its first
// byte, must be one JSON document (in one fence, when stripping). There is
// no "{}" for an empty text, as there is for a call without arguments: an
// answer with no document is incomplete.
func (s *Session) endOutput(c *call) {
	if c.fence == nil {
		s.verdict(c, false, c.v.Close())
		return
	}
	if c.v != nil {
		if c.fence.state == fenceOpening {
			s.finish(c, false, []schema.Finding{fenceFinding(c.bytes, c.fence.endProblem())}, false)
			return
		}
		if s.closeDocument(c, false); c.done {
			return
		}
	}
	if problem := c.fence.endProblem(); problem != "" {
		s.finish(c, false, []schema.Finding{fenceFinding(c.bytes, problem)}, false)
		return
	}
	s.finish(c, false, nil, false)
}

func fenceFinding(at int64, msg string) schema.Finding {
	return schema.Finding{Code: schema.CodeValidation, Keyword: "json", Offset: at, Message: msg}
}
