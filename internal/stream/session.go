// Package stream validates tool calls, and structured output, while they
// are being generated: a Session assembles any number of concurrent calls
// from argument deltas (or from raw provider events, through package
// provider), and the message text of each provider output as one JSON
// document, and runs one streaming validator per call or output, so each
// verdict is known at the first byte no valid completion could follow.
package stream

import (
	"context"
	"fmt"

	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/validator"
)

// Defaults for Limits.
const (
	DefaultMaxCalls     = 1024
	DefaultMaxCallBytes = 4 << 20
	DefaultMaxTools     = 1024
	DefaultMaxState     = 64 << 20
	DefaultMaxName      = provider.DefaultMaxName
	DefaultMaxPlaces    = provider.DefaultMaxPlaces
)

// Limits bound what one stream may hold. Zero fields take the defaults.
type Limits struct {
	// MaxCalls is the most calls one stream may start over its life,
	// counting a provider's call from its first event, named or not; the
	// next start is a ResourceExhausted error. Default DefaultMaxCalls.
	MaxCalls int
	// MaxCallBytes is the most argument bytes one call may carry; a call
	// past it is rejected (keyword "maxBytes", at offset MaxCallBytes),
	// unless its bytes within the limit hold a violation, which is then
	// the verdict however the text was split into deltas. It also bounds the text the
	// stream holds, all calls together, for provider calls whose tool is not
	// named yet: the call whose text would pass it is rejected the same way.
	// Default DefaultMaxCallBytes.
	MaxCallBytes int64
	// MaxTools is the most distinct tool names one stream may bind over its
	// life; the bind past it is a ResourceExhausted error. Default
	// DefaultMaxTools.
	MaxTools int
	// Held, when set, bounds the text held for provider calls whose tool
	// is not named yet over every session that shares it, as MaxCallBytes
	// does for one session: the call whose text would pass it is rejected
	// the same way (keyword "maxBytes"). A session gives its part back as
	// its calls are named or end, and whatever is left at Release.
	Held *HeldBytes
	// MaxState is the most validation state (validator.Validator.State)
	// the stream's open calls may hold together, as Validator.MaxState
	// bounds it for each: the call whose delta takes them past it is
	// rejected (keyword "limit"). Default DefaultMaxState.
	MaxState int64
	// State, when set, bounds the validation state of open calls over
	// every session that shares it, as MaxState does for one session: the
	// call whose delta would pass it is rejected the same way (keyword
	// "limit"). A session claims it 64 KiB at a time (see claimState),
	// gives back what its calls no longer need, and the rest at Release.
	State *HeldBytes
	// MaxName is the longest call id or tool name, in bytes, a stream may
	// use: a CallStart's, a bind's, or one a provider's events give (then
	// that call is refused, keyword "call_id" or "tool_name"). Every one is
	// kept for the stream's life and echoed in results. Default
	// DefaultMaxName.
	MaxName int
	// MaxPlaces is the most places each provider's adapter keeps state
	// for on the stream: OpenAI Chat choices and Gemini candidates over
	// the stream's life, the output items of a Responses response (see
	// provider.Adapter.LimitPlaces); the provider event that would name
	// one more is a ResourceExhausted error. Default DefaultMaxPlaces.
	MaxPlaces int
	// Validator configures each call's validator; StopAtFirst is always set.
	Validator validator.Options
}

func (l Limits) withDefaults() Limits {
	if l.MaxCalls <= 0 {
		l.MaxCalls = DefaultMaxCalls
	}
	if l.MaxCallBytes <= 0 {
		l.MaxCallBytes = DefaultMaxCallBytes
	}
	if l.MaxTools <= 0 {
		l.MaxTools = DefaultMaxTools
	}
	if l.MaxState <= 0 {
		l.MaxState = DefaultMaxState
	}
	if l.MaxName <= 0 {
		l.MaxName = DefaultMaxName
	}
	if l.MaxPlaces <= 0 {
		l.MaxPlaces = DefaultMaxPlaces
	}
	l.Validator.StopAtFirst = true
	return l
}

// Result is the verdict on one call. Each call gets exactly one.
type Result struct {
	// CallID identifies the call as the client or the provider named it.
	CallID string
	// ToolName is the call's tool, when known.
	ToolName string
	// Findings are the violations that decided the verdict; empty when valid.
	Findings []schema.Finding
	// Truncated reports that more findings existed than the cap.
	Truncated bool
	// Early is true when the call was rejected before it ended.
	Early bool
	// Bytes counts the argument bytes received when the verdict was made.
	Bytes int64
	// Profile is the profile of the call's schema; 0 for a call that never
	// had one (an unknown tool).
	Profile schema.Profile
}

// Valid reports whether the call's arguments satisfied its schema.
func (r *Result) Valid() bool { return len(r.Findings) == 0 }

// ErrorKind classifies a Session error: a problem with the stream itself,
// as opposed to a verdict on a call.
type ErrorKind uint8

const (
	// InvalidArgument: an event that breaks the protocol (unknown call,
	// repeated start, malformed provider event).
	InvalidArgument ErrorKind = iota + 1
	// ResourceExhausted: a stream limit was reached.
	ResourceExhausted
)

// Error is a problem with the stream; the stream cannot go on.
type Error struct {
	Kind ErrorKind
	Msg  string
}

// Error implements error.
func (e *Error) Error() string { return e.Msg }

func errorf(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// call is one call in flight.
type call struct {
	id, tool string
	v        *validator.Validator
	profile  schema.Profile
	bytes    int64
	state    int64 // v.State() when last looked at, counted in Session.state
	done     bool  // its result was sent
	// unnamed marks a provider call whose tool is not named yet: it has no
	// validator, and held is its text so far.
	unnamed bool
	held    []byte
	keyID   bool // id is the adapter's key, standing in for a provider id
	// output marks a message output (see BindOutput); fence, when the bind
	// strips one, and shift, the text bytes before the validator's first.
	output bool
	fence  *fence
	shift  int64
	cut    string // the provider stopped the output early, for this reason (see cutShort)
}

// chunk bounds the argument bytes validated between two looks at the
// session's context, so that a stream stops soon after its context ends
// even inside one delta of megabytes. A delta counts as deltaWeight bytes
// besides its own: about what its handling costs, so that a stream of tiny
// deltas is checked as often for the same work, not once per delta.
const (
	chunk       = 4 << 10
	deltaWeight = 32
)

// Session is one stream's state. It is not safe for concurrent use: a
// stream's events arrive in order on one goroutine.
type Session struct {
	ctx     context.Context
	limits  Limits
	emit    func(*Result)
	tools   map[string]Binding
	calls   map[string]*call
	order   []*call // open calls in start order, for Close
	started int
	held    int64 // bytes held for unnamed calls, all together
	state   int64 // validation state of the open calls, all together (see Limits.MaxState)
	claimed int64 // what the session holds of Limits.State, at least state (see claimState)
	ignored int64 // argument bytes of calls that had their verdict
	// budget is what may be validated before ctx is looked at again (see
	// chunk).
	budget int
	// last is the call lookup found last, as lastID: a stream's deltas
	// mostly continue one call.
	last    *call
	lastID  string
	adapter providerAdapters
	// output is the binding of message outputs, nil when none is bound.
	output     *Binding
	stripFence bool
}

// NewSession returns a Session that reports each call's verdict to emit,
// synchronously. Argument text is validated in chunks of a few KiB with
// ctx checked between them (a run of small deltas makes one chunk, so a
// delta costs no context lookup of its own): once ctx is done, Delta and
// ProviderEvent stop and return ctx's error (the stream cannot go on).
func NewSession(ctx context.Context, limits Limits, emit func(*Result)) *Session {
	return &Session{ctx: ctx, limits: limits.withDefaults(), emit: emit,
		tools: map[string]Binding{}, calls: map[string]*call{}}
}

// Start begins a call, validated against b when it is not nil, or else
// against the binding of toolName. An unknown tool name, and a schema this
// server does not hold, are the call's verdict (keyword "tool_name" or
// "handle", early), not stream errors. A callID already started, one a
// provider call of the stream has, and one in the answers' namespace
// ("output/…") are InvalidArgument: no two results share an id; so are
// an id or a name longer than Limits.MaxName.
func (s *Session) Start(callID, toolName string, b *Binding) error {
	if len(toolName) > s.limits.MaxName {
		return errorf(InvalidArgument, "start: tool_name is %d bytes, longer than the limit of %d", len(toolName), s.limits.MaxName)
	}
	c, err := s.startClientCall(callID)
	if err != nil {
		return err
	}
	s.resolve(c, toolName, b)
	return nil
}

// startClientCall begins a call the client started as callID, once it
// has checked the id as Start says.
func (s *Session) startClientCall(callID string) (*call, error) {
	switch {
	case callID == "":
		return nil, errorf(InvalidArgument, "start: call_id is empty")
	case len(callID) > s.limits.MaxName:
		return nil, errorf(InvalidArgument, "start: call_id is %d bytes, longer than the limit of %d", len(callID), s.limits.MaxName)
	}
	if _, ok := s.calls[callID]; ok {
		return nil, errorf(InvalidArgument, "start: call %s was already started", quote(callID))
	}
	if isOutputID(callID) {
		return nil, errorf(InvalidArgument, "start: call_id %s is reserved: %s<n> names an answer's result", quote(callID), outputPrefix)
	}
	if _, ok := s.adapter.ids[callID]; ok {
		return nil, errorf(InvalidArgument, "start: call_id %s is a provider call's id in this stream", quote(callID))
	}
	c, err := s.newCall(callID)
	if err != nil {
		return nil, err
	}
	s.calls[callID] = c
	return c, nil
}

// newCall counts a call toward MaxCalls and puts it in start order.
// Provider calls are not in s.calls: their ids are the provider's and may
// repeat across providers.
func (s *Session) newCall(callID string) (*call, error) {
	if s.started >= s.limits.MaxCalls {
		return nil, errorf(ResourceExhausted, "start: the stream reached its limit of %d calls", s.limits.MaxCalls)
	}
	s.started++
	c := &call{id: callID}
	s.order = append(s.order, c)
	return c, nil
}

// startUnnamed begins a provider call whose tool is not named yet; its text
// is held (within MaxCallBytes) until name resolves it.
func (s *Session) startUnnamed(callID string, keyID bool) (*call, error) {
	c, err := s.newCall(callID)
	if err != nil {
		return nil, err
	}
	c.unnamed, c.keyID = true, keyID
	return c, nil
}

// name resolves an unnamed call once its provider names the tool, and
// validates the text held for it.
func (s *Session) name(c *call, callID, toolName string) error {
	if c.done || !c.unnamed {
		return nil
	}
	if c.keyID && callID != "" {
		if c.id = callID; !s.claimID(c) {
			return nil
		}
	}
	held := c.held
	s.release(c)
	if s.resolve(c, toolName, nil); c.done {
		return nil
	}
	return s.write(c, held)
}

// lookup returns the call started as callID.
func (s *Session) lookup(callID string) (*call, bool) {
	if s.last != nil && s.lastID == callID {
		return s.last, true
	}
	c, ok := s.calls[callID]
	if ok {
		s.last, s.lastID = c, callID
	}
	return c, ok
}

// release frees the text held for an unnamed call.
func (s *Session) release(c *call) {
	s.held -= int64(len(c.held))
	s.limits.Held.give(int64(len(c.held)))
	c.unnamed, c.held = false, nil
}

// Release gives back to Limits.Held the text the session still holds for
// unnamed calls, and to Limits.State the state of its open calls, which a
// stream that ends without Close (an error, its caller gone) leaves there. Call it once the stream is over, Close or
// not; the session is not used after it.
func (s *Session) Release() {
	for _, c := range s.order {
		if c.unnamed && !c.done {
			s.release(c)
		}
	}
	s.limits.State.give(s.claimed)
	s.state, s.claimed = 0, 0
	s.order = nil
}

// Delta appends a fragment of a call's arguments. Fragments of a call that
// already has its verdict are accepted and ignored.
func (s *Session) Delta(callID string, fragment []byte) error {
	c, ok := s.lookup(callID)
	if !ok {
		return errorf(InvalidArgument, "delta: call %s was not started", quote(callID))
	}
	return s.delta(c, fragment)
}

func (s *Session) delta(c *call, fragment []byte) error {
	if c.done {
		s.ignored += int64(len(fragment))
		return nil
	}
	n, room := int64(len(fragment)), s.limits.MaxCallBytes-c.bytes
	if c.unnamed {
		if n > room {
			s.tooLong(c, n, s.limits.MaxCallBytes, s.tooLongMessage(c))
		} else {
			s.hold(c, fragment)
		}
		return nil
	}
	// The bytes within MaxCallBytes are validated even when the delta
	// passes it, so that a violation among them is the verdict, as it is
	// when the same text comes in smaller deltas: the verdict does not
	// depend on where the text was split.
	at := c.bytes
	c.bytes += n
	fit := fragment[:min(n, room)]
	var err error
	if c.fence != nil {
		err = s.writeFenced(c, fit, at)
	} else {
		err = s.write(c, fit)
	}
	if err != nil || c.done || n <= room {
		return err
	}
	s.tooLong(c, 0, s.limits.MaxCallBytes, s.tooLongMessage(c))
	return nil
}

// tooLongMessage is the message of a call, or an output, whose text passes
// MaxCallBytes.
func (s *Session) tooLongMessage(c *call) string {
	doc := "The arguments are"
	if c.output {
		doc = "The output is"
	}
	return fmt.Sprintf("%s longer than the limit of %d bytes.", doc, s.limits.MaxCallBytes)
}

// hold keeps an unnamed call's fragment until its tool is named, within
// what the stream (MaxCallBytes) and every stream together (Held) may
// hold; the call whose text would pass either is rejected.
func (s *Session) hold(c *call, fragment []byte) {
	n := int64(len(fragment))
	if s.held+n > s.limits.MaxCallBytes {
		s.tooLong(c, n, c.bytes+s.limits.MaxCallBytes-s.held,
			fmt.Sprintf("The stream holds more than the limit of %d bytes of arguments for calls whose tool is not named yet.", s.limits.MaxCallBytes))
		return
	}
	if ok, free := s.limits.Held.take(n); !ok {
		s.tooLong(c, n, c.bytes+free,
			fmt.Sprintf("The server holds more than its limit of %d bytes of arguments, over all streams, for calls whose tool is not named yet.", s.limits.Held.max))
		return
	}
	c.bytes += n
	s.held += n
	c.held = append(c.held, fragment...)
}

// tooLong rejects c, early, for a delta of n bytes that takes it past a
// bound on argument bytes at offset at (keyword "maxBytes").
func (s *Session) tooLong(c *call, n, at int64, msg string) {
	c.bytes += n
	s.finish(c, true, []schema.Finding{{Code: schema.CodeValidation, Keyword: "maxBytes", Offset: at, Message: msg}}, false)
}

// write feeds text to c's validator, at most a chunk between two looks at
// the session's context, and sends the verdict once it is known. It
// returns the context's error when the context is done.
func (s *Session) write(c *call, p []byte) error {
	s.budget -= deltaWeight
	// Most deltas: no look at ctx is due. This is the loop's body without
	// the loop, written out: the loop costs 10% more instructions per
	// 1-byte delta, and a helper shared by both 4% (callgrind,
	// BenchmarkStream/64KiB/1).
	if 0 < len(p) && len(p) < s.budget {
		s.budget -= len(p)
		c.v.Write(p)
		if c.v.State() != c.state && s.overState(c) {
			return nil
		}
		if c.v.Rejected() {
			s.verdict(c, true, c.v.Result())
		}
		return nil
	}
	for len(p) > 0 {
		if s.budget <= 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
			s.budget = chunk
		}
		n := min(len(p), s.budget)
		c.v.Write(p[:n])
		p, s.budget = p[n:], s.budget-n
		if c.v.State() != c.state && s.overState(c) {
			return nil
		}
		if c.v.Rejected() {
			s.verdict(c, true, c.v.Result())
			return nil
		}
	}
	return nil
}

// overState counts c's validation state toward the stream's, and rejects
// c (keyword "limit") and reports true when that takes the stream past
// Limits.MaxState.
func (s *Session) overState(c *call) bool {
	st := c.v.State()
	s.state += st - c.state
	c.state = st
	if !s.claimState() {
		s.finish(c, true, []schema.Finding{{Code: schema.CodeValidation, Keyword: "limit", Offset: c.bytes,
			Message: fmt.Sprintf("The server's open calls, over every stream, need more than the limit of %d bytes of validation state together: this call, the one that passed it, is refused.", s.limits.State.max)}}, false)
		return true
	}
	if s.state <= s.limits.MaxState {
		return false
	}
	s.finish(c, true, []schema.Finding{{Code: schema.CodeValidation, Keyword: "limit", Offset: c.bytes,
		Message: fmt.Sprintf("The stream's open calls need more than the limit of %d bytes of validation state together: this call, the one that passed it, is refused.", s.limits.MaxState)}}, false)
	return true
}

// stateQuantum is the least the session claims of Limits.State at once,
// and the most it keeps beyond its state: the counter all streams share
// is touched when a stream's state moves by that much, not at every delta
// whose state changes.
const stateQuantum = 64 << 10

// claimState brings the session's claim on Limits.State to cover s.state,
// and reports whether the bound allowed it. It claims at least a quantum
// at a time, or exactly what is missing where a quantum no longer fits,
// and gives back all it holds beyond s.state once that is over a quantum.
func (s *Session) claimState() bool {
	switch need := s.state - s.claimed; {
	case need > 0:
		if ok, _ := s.limits.State.take(max(need, stateQuantum)); ok {
			s.claimed += max(need, stateQuantum)
			return true
		}
		if ok, _ := s.limits.State.take(need); !ok {
			return false
		}
		s.claimed += need
	case -need > stateQuantum:
		s.limits.State.give(-need)
		s.claimed = s.state
	}
	return true
}

// End ends a call and sends its verdict, unless it was sent already.
func (s *Session) End(callID string) error {
	c, ok := s.lookup(callID)
	if !ok {
		return errorf(InvalidArgument, "end: call %s was not started", quote(callID))
	}
	s.end(c)
	return nil
}

func (s *Session) end(c *call) {
	if c.done {
		return
	}
	if c.output {
		s.endOutput(c)
		return
	}
	if c.unnamed {
		s.finish(c, false, []schema.Finding{{Code: schema.CodeValidation, Keyword: "tool_name", Offset: c.bytes,
			Message: "The call ended without naming its tool, so its arguments cannot be validated."}}, false)
		return
	}
	if c.bytes == 0 {
		c.v.Write([]byte("{}")) // a call without arguments is a call with none
	}
	s.verdict(c, false, c.v.Close())
}

// verdict sends the validator's verdict on c. The validator's offsets
// count from the first byte it was given; a fenced output's from the first
// byte of its text, shift bytes earlier.
func (s *Session) verdict(c *call, early bool, r validator.Result) {
	findings := r.Findings
	if c.shift > 0 {
		findings = shifted(findings, c.shift)
	}
	s.finish(c, early, findings, r.Truncated)
}

// Close ends every open call, in start order, as a half-closed stream does:
// an incomplete document is a "json" violation.
func (s *Session) Close() {
	s.flushProviders()
	for _, c := range s.order {
		s.end(c)
	}
	s.order = s.order[:0]
}

// finish sends a call's one result and frees its validator.
func (s *Session) finish(c *call, early bool, findings []schema.Finding, truncated bool) {
	if c.unnamed {
		s.release(c)
	}
	if c.cut != "" && len(findings) == 0 {
		findings = []schema.Finding{cutShort(c.cut, c.bytes)}
	}
	c.done = true
	s.state -= c.state
	c.state = 0
	s.claimState() // gives back, never fails
	r := &Result{CallID: c.id, ToolName: c.tool, Findings: findings, Truncated: truncated, Early: early, Bytes: c.bytes, Profile: c.profile}
	s.emit(r)
	c.v = nil
}

// shifted returns findings with offsets moved on by n: the validator's
// offsets count from the first byte it was given, a fenced output's from the
// first byte of its text.
func shifted(findings []schema.Finding, n int64) []schema.Finding {
	out := make([]schema.Finding, len(findings))
	for i, f := range findings {
		if f.Offset >= 0 {
			f.Offset += n
		}
		out[i] = f
	}
	return out
}
