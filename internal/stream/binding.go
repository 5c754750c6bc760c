package stream

import (
	"fmt"
	"iter"
	"maps"
	"strconv"

	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// Binding is what a tool name (or a call) is validated against: a schema
// resolved when it was bound, so that a store evicting it later does not
// change the stream. Schema is nil when the server does not hold Handle
// (replicas share nothing): calls then get an in-band NOT_FOUND verdict
// rather than ending the stream.
type Binding struct {
	// Handle is the schema's handle, for messages.
	Handle string
	// Schema is the compiled schema, or nil when this server lacks it.
	Schema *schema.Schema
}

// Bind maps tool names to bindings for calls that name a tool. Later binds
// add to (and override) earlier ones. A stream may bind at most
// Limits.MaxTools distinct names over its life (each binding holds its
// schema for the stream's life); past it Bind is a ResourceExhausted error
// and binds nothing, as a name longer than Limits.MaxName is an
// InvalidArgument one (see CheckBind).
func (s *Session) Bind(tools map[string]Binding) error {
	if err := s.CheckBind(maps.Keys(tools)); err != nil {
		return err
	}
	maps.Copy(s.tools, tools)
	return nil
}

// CheckBind returns the error Bind would return for a bind of the tool
// names given (each once), and binds nothing: a server asks it before it
// compiles a bind's schemas, so that a bind past the limits costs no
// compile and stores no schema.
func (s *Session) CheckBind(names iter.Seq[string]) error {
	added := 0
	for name := range names {
		if len(name) > s.limits.MaxName {
			return errorf(InvalidArgument, "bind: a tool name of %d bytes is longer than the limit of %d", len(name), s.limits.MaxName)
		}
		if _, ok := s.tools[name]; !ok {
			added++
		}
	}
	if len(s.tools)+added > s.limits.MaxTools {
		return errorf(ResourceExhausted, "bind: the stream may bind at most %d tool names", s.limits.MaxTools)
	}
	return nil
}

// resolve gives c its tool and validator: against b when given, else
// against the binding of toolName. An unknown tool name, or a binding whose
// schema this server does not hold, is the call's verdict, early: the
// runtime can stop the call.
func (s *Session) resolve(c *call, toolName string, b *Binding) {
	if len(toolName) > s.limits.MaxName { // a provider's: Start refuses a client's
		c.tool = schema.Truncate(toolName, s.limits.MaxName)
		s.finish(c, true, []schema.Finding{{Code: schema.CodeValidation, Keyword: "tool_name", Offset: 0,
			Message: fmt.Sprintf("The tool name is longer than the limit of %d bytes, so the arguments cannot be validated.", s.limits.MaxName)}}, false)
		return
	}
	c.tool = toolName
	viaBind := b == nil
	if viaBind {
		bound, ok := s.tools[toolName]
		if !ok {
			s.finish(c, true, []schema.Finding{unknownTool(toolName)}, false)
			return
		}
		b = &bound
	}
	if b.Schema == nil {
		s.finish(c, true, []schema.Finding{notHeld(toolName, b.Handle, viaBind)}, false)
		return
	}
	c.v, c.profile = validator.New(b.Schema, s.limits.Validator), b.Schema.Profile
}

// quote quotes a name, an id or a handle for a message, cut to a length
// no message needs more of.
func quote(s string) string { return strconv.Quote(schema.Truncate(s, quoteLimit)) }

// quoteLimit is the most bytes of a name a message quotes.
const quoteLimit = 256

func unknownTool(name string) schema.Finding {
	return schema.Finding{Code: schema.CodeValidation, Keyword: "tool_name", Offset: 0,
		Message: fmt.Sprintf("The tool %s is not bound on this stream, so its arguments cannot be validated.", quote(name))}
}

// notHeld is the verdict on a call whose schema this server does not hold.
func notHeld(tool, handle string, viaBind bool) schema.Finding {
	msg := fmt.Sprintf("The call names the handle %s, which this server does not hold, so its arguments were not validated; send the schema inline (CallStart.inline) or compile it on this server first.", quote(handle))
	if viaBind {
		msg = fmt.Sprintf("The tool %s is bound to the handle %s, which this server does not hold, so its arguments were not validated; bind the tool's schema inline (StreamBind.schemas) or compile it on this server and bind it again.", quote(tool), quote(handle))
	}
	return schema.Finding{Code: schema.CodeNotFound, Keyword: "handle", Offset: 0, Message: msg}
}
