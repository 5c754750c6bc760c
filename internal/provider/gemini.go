package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// gemini adapts Google Gemini / Vertex AI streamGenerateContent responses.
type gemini struct {
	cands map[int]*geminiCand // by candidate index
	order []*geminiCand       // in order of first appearance, for close
	buf   []byte              // scratch for one part's argument text
}

// geminiCand is the state of one candidate.
type geminiCand struct {
	index int
	calls int   // calls begun, for keys
	c     *call // the call whose partialArgs are streaming, or nil
	w     argWriter
}

type geminiChunk struct {
	Candidates []struct {
		Index   int `json:"index"`
		Content struct {
			Parts []struct {
				FunctionCall *geminiCall `json:"functionCall"`
				Text         string      `json:"text"`
				Thought      bool        `json:"thought"` // a thought summary, never text
			} `json:"parts"`
		} `json:"content"`
		FinishReason string `json:"finishReason"`
		// state is the candidate's, found by place (never decoded).
		state *geminiCand
	} `json:"candidates"`
	// Error is the chunk Gemini sends when the stream fails after it began
	// (an HTTP 200 stream cannot change its status): the SDKs raise on it.
	Error json.RawMessage `json:"error"`
}

type geminiCall struct {
	ID           string             `json:"id"`
	Name         string             `json:"name"`
	Args         json.RawMessage    `json:"args"`
	PartialArgs  []geminiPartialArg `json:"partialArgs"`
	WillContinue bool               `json:"willContinue"`
}

type geminiPartialArg struct {
	JSONPath     string          `json:"jsonPath"`
	StringValue  *string         `json:"stringValue"`
	NumberValue  json.RawMessage `json:"numberValue"`
	BoolValue    *bool           `json:"boolValue"`
	NullValue    json.RawMessage `json:"nullValue"`
	WillContinue bool            `json:"willContinue"`
}

// feed keys a call by candidate index and the call's number within the
// candidate ("cand0/call1"). A functionCall part with a name (or with args)
// begins a new call and ends the one streaming in that candidate. With args
// it is whole: the compacted args object is its text and it ends at once.
// Without args it streams: the text starts with "{", each partialArgs entry
// appends its member (see argWriter), and the call ends, with the closing
// brackets, at the first part without a top-level willContinue — the empty
// functionCall {} terminator, or a last partialArgs part. A call that
// still promised more (willContinue) when a new call, the candidate's
// finishReason or Close ends it was cut off: it ends without its closing
// brackets, an incomplete document, as another provider's call cut off by
// its token limit is (see cutOff). A call with neither args nor
// partialArgs therefore has the text "{}". Bare {willContinue: true} parts
// change nothing. A part with args and also partialArgs or willContinue
// is both whole and streamed, and a streamed part that names a tool while
// a call streams renames that call in ADK: either chunk is refused whole
// (see checkParts), so a new call that cuts a streaming one off is a
// whole one. The text parts of a
// candidate, except those with thought: true, are its output
// ("output/<candidate index>"), ended by its finishReason (cut unless it
// is STOP). An {"error": …} chunk ends every call and cuts every output.
// A chunk whose candidates would pass the place limit is refused whole
// (see place).
func (g *gemini) feed(t *tracker, event []byte) error {
	var ev geminiChunk
	if err := t.decode(event, &ev); err != nil {
		return err
	}
	if len(ev.Error) > 0 && string(ev.Error) != "null" {
		t.abort("error")
		return nil
	}
	if err := g.checkParts(t, &ev); err != nil {
		return err
	}
	if err := g.place(t, &ev); err != nil {
		return err
	}
	var first error
	for i := range ev.Candidates {
		cand := &ev.Candidates[i]
		gc := cand.state
		for _, part := range cand.Content.Parts {
			if part.Text != "" && !part.Thought {
				t.write(t.output(gc.prefix()+"output", gc.index), part.Text)
			}
			if part.FunctionCall == nil {
				continue
			}
			if err := g.part(t, gc, part.FunctionCall); err != nil && first == nil {
				first = err
			}
		}
		if cand.FinishReason != "" {
			g.cutOff(t, gc)
			if cand.FinishReason != "STOP" {
				t.cut(gc.prefix(), cand.FinishReason) // MAX_TOKENS, SAFETY, RECITATION, …
			}
			t.endGroup(gc.prefix())
		}
	}
	return first
}

// checkParts refuses, before anything changes, a chunk with a
// functionCall part that ADK reads as another call than this adapter.
// ADK streams a call that has partialArgs or willContinue, ignoring its
// args, and gathers the partialArgs that follow into it until a part
// without willContinue; a streamed part that names a tool meanwhile
// renames the call (its id, if any, re-identifies it), and its
// partialArgs join the call's. So a part that is both whole and streamed
// (args with partialArgs, or with willContinue), which this adapter would
// end whole with its args, and a streamed part that names a tool while a
// call of its candidate still streams, which this adapter would begin as
// another call with that part's arguments alone, are refused: the two
// would run and check different arguments.
func (g *gemini) checkParts(t *tracker, ev *geminiChunk) error {
	// now holds whether a call streams in each candidate checked so far,
	// for a chunk that lists more than one: made for the chunk alone, as
	// its indices are not yet checked against the place limit.
	var now map[int]bool
	for i := range ev.Candidates {
		cand := &ev.Candidates[i]
		streams, seen := now[cand.Index]
		if gc := g.cands[cand.Index]; !seen && gc != nil {
			streams = gc.c != nil
		}
		for _, part := range cand.Content.Parts {
			fc := part.FunctionCall
			if fc == nil {
				continue
			}
			streamed := len(fc.PartialArgs) > 0 || fc.WillContinue
			switch {
			case fc.hasArgs() && len(fc.PartialArgs) > 0:
				return t.errorf("", "functionCall has both args and partialArgs")
			case fc.hasArgs() && fc.WillContinue:
				return t.errorf("", "functionCall has both args and willContinue")
			case streams && streamed && fc.Name != "":
				return t.errorf("", "functionCall names the tool %s while the call before it streams: ADK would gather its partialArgs into that call", quoteName(fc.Name))
			}
			// What part does with the call streaming in the candidate.
			if fc.Name != "" || fc.hasArgs() || streams || len(fc.PartialArgs) > 0 {
				streams = fc.WillContinue && !fc.hasArgs()
			}
		}
		if cand.FinishReason != "" {
			streams = false
		}
		if len(ev.Candidates) > 1 {
			if now == nil {
				now = map[int]bool{}
			}
			now[cand.Index] = streams
		}
	}
	return nil
}

// part handles one functionCall part of candidate gc.
func (g *gemini) part(t *tracker, gc *geminiCand, fc *geminiCall) error {
	hasArgs := fc.hasArgs()
	var buf []byte
	switch {
	case fc.Name != "" || hasArgs || (gc.c == nil && len(fc.PartialArgs) > 0):
		// A new call; partialArgs with no opening part make a call whose
		// name never came.
		g.cutOff(t, gc)
		c := t.begin(numbered(gc.prefix()+"call", gc.calls), fc.ID, fc.Name)
		gc.calls++
		if hasArgs {
			t.write(c, compactJSON(fc.Args))
			t.end(c)
			return nil
		}
		gc.c = c
		buf = gc.w.open(g.buf[:0])
	case gc.c == nil:
		return nil // a terminator or bare willContinue with no call streaming
	default:
		t.identify(gc.c, fc.ID, "")
		buf = g.buf[:0]
	}
	var first error
	for i := range fc.PartialArgs {
		var err error
		if buf, err = gc.w.add(buf, &fc.PartialArgs[i]); err != nil && first == nil {
			first = &EventError{Provider: t.p, Key: gc.c.key, Reason: err.Error()}
		}
	}
	if fc.WillContinue {
		t.write(gc.c, string(buf))
	} else {
		buf = gc.w.close(buf)
		t.write(gc.c, string(buf))
		t.end(gc.c)
		gc.c = nil
	}
	g.buf = buf
	return first
}

// prefix is the group of the candidate's calls and output ("cand0/").
func (gc *geminiCand) prefix() string { return numbered("cand", gc.index) + "/" }

// hasArgs reports whether fc carries a whole args value.
func (fc *geminiCall) hasArgs() bool {
	return len(fc.Args) > 0 && string(fc.Args) != "null"
}

// cutOff ends gc's streaming call, if any, before the part without
// willContinue that would have closed it: its text stays without its
// closing brackets, so its validation finds an incomplete document. The
// provider promised more; closing the brackets here would validate what it
// left unsaid as complete (a path cut at "/home/user").
func (g *gemini) cutOff(t *tracker, gc *geminiCand) {
	if gc.c == nil {
		return
	}
	t.end(gc.c)
	gc.c = nil
}

// place finds the state of each candidate of chunk ev, made at the
// candidate's first appearance and kept for the stream's life. A chunk
// may name any candidate index, so one that would take the stream past
// its place limit is refused whole (see Adapter.LimitPlaces), the
// candidates it made before it forgotten.
func (g *gemini) place(t *tracker, ev *geminiChunk) error {
	had := len(g.order)
	for i := range ev.Candidates {
		cand := &ev.Candidates[i]
		if cand.state = g.cand(t, cand.Index); len(g.order) <= t.maxPlaces {
			continue
		}
		for _, gc := range g.order[had:] {
			delete(g.cands, gc.index)
		}
		clear(g.order[had:])
		g.order = g.order[:had]
		return t.tooManyPlaces("stream's candidates")
	}
	return nil
}

// cand returns the state of the candidate with index, made at its first
// appearance. It is a map lookup: an event may name many candidates.
func (g *gemini) cand(t *tracker, index int) *geminiCand {
	t.work++
	if gc := g.cands[index]; gc != nil {
		return gc
	}
	if g.cands == nil {
		g.cands = map[int]*geminiCand{}
	}
	gc := &geminiCand{index: index}
	g.cands[index] = gc
	g.order = append(g.order, gc)
	return gc
}

func (g *gemini) close(t *tracker) {
	for _, gc := range g.order {
		g.cutOff(t, gc)
	}
}

// argWriter turns a call's partialArgs entries into JSON text, in the order
// they arrive. Entries are expected in document order, as Gemini sends them:
// a path shares a prefix with the open containers, members of an object come
// one after another, array elements come in index order from 0. The writer
// closes the containers the new path leaves, opens the ones it enters, and
// writes the member. Strings for the same jsonPath are concatenated; the
// string closes at the entry without willContinue (Gemini sends a final
// stringValue "") or when another path arrives. numberValue is written with
// the exact digits sent, boolValue as true/false, nullValue as null.
//
// A path that goes back into an object already closed writes that object's
// key a second time: the text then has a duplicate key, which the validator
// rejects, as it should, because the provider's object is not what the text
// says. A path that skips or goes back to an array element cannot be written
// in order and is an error.
type argWriter struct {
	frames  []frame   // open containers; frames[0] is the arguments object
	str     string    // jsonPath of the string value still open
	strOpen bool      // a string value is open
	segs    []pathSeg // scratch for parsePath
}

// frame is an open object or array.
type frame struct {
	seg   pathSeg // the member of the parent that holds this container
	array bool
	n     int // members written so far
}

// pathSeg is one step of a jsonPath: an object key or an array index.
type pathSeg struct {
	key     string
	index   int
	isIndex bool
}

// open starts a call's arguments object.
func (w *argWriter) open(dst []byte) []byte {
	w.frames = append(w.frames[:0], frame{})
	w.strOpen = false
	return append(dst, '{')
}

// close ends the open string and every open container.
func (w *argWriter) close(dst []byte) []byte {
	return w.closeTo(w.closeString(dst), 0)
}

func (w *argWriter) closeString(dst []byte) []byte {
	if w.strOpen {
		w.strOpen = false
		dst = append(dst, '"')
	}
	return dst
}

// closeTo closes containers until depth remain open.
func (w *argWriter) closeTo(dst []byte, depth int) []byte {
	for len(w.frames) > depth {
		if w.frames[len(w.frames)-1].array {
			dst = append(dst, ']')
		} else {
			dst = append(dst, '}')
		}
		w.frames = w.frames[:len(w.frames)-1]
	}
	return dst
}

// add appends the text for one partialArgs entry.
func (w *argWriter) add(dst []byte, a *geminiPartialArg) ([]byte, error) {
	value, isString, err := a.value()
	if err != nil {
		return dst, err
	}
	if w.strOpen && a.JSONPath == w.str && (isString || value == nil) {
		if isString {
			dst = appendEscaped(dst, *a.StringValue)
		}
		if !a.WillContinue {
			dst = w.closeString(dst)
		}
		return dst, nil
	}
	if !isString && value == nil {
		return dst, nil // an entry without a value says nothing
	}
	dst = w.closeString(dst)
	segs, err := parsePath(w.segs[:0], a.JSONPath)
	w.segs = segs
	if err != nil {
		return dst, err
	}
	if len(segs) == 0 || segs[0].isIndex {
		return dst, fmt.Errorf("jsonPath %s does not name a member of the arguments object", quoteName(a.JSONPath))
	}
	if len(w.frames) == 0 {
		return dst, errors.New("partialArgs after the arguments object closed")
	}
	// frames[k] is the container at segs[k-1]; keep those that are still on
	// the path, with the kind the path needs.
	k := 1
	for k < len(w.frames) && k < len(segs) && w.frames[k].seg == segs[k-1] && w.frames[k].array == segs[k].isIndex {
		k++
	}
	// Array elements must come in index order: the next one of the array
	// that stays open, and [0] of any array the path opens. Check before
	// writing, so that a rejected entry writes nothing.
	if top := w.frames[k-1]; top.array && segs[k-1].index != top.n {
		return dst, fmt.Errorf("jsonPath %s is out of order: the next array element is [%d]", quoteName(a.JSONPath), top.n)
	}
	for _, s := range segs[k:] {
		if s.isIndex && s.index != 0 {
			return dst, fmt.Errorf("jsonPath %s is out of order: the next array element is [0]", quoteName(a.JSONPath))
		}
	}
	dst = w.closeTo(dst, k)
	for j := k - 1; j < len(segs)-1; j++ {
		dst = w.member(dst, segs[j])
		w.frames = append(w.frames, frame{seg: segs[j], array: segs[j+1].isIndex})
		if segs[j+1].isIndex {
			dst = append(dst, '[')
		} else {
			dst = append(dst, '{')
		}
	}
	dst = w.member(dst, segs[len(segs)-1])
	if !isString {
		return append(dst, value...), nil
	}
	dst = append(dst, '"')
	dst = appendEscaped(dst, *a.StringValue)
	if a.WillContinue {
		w.strOpen, w.str = true, a.JSONPath
	} else {
		dst = append(dst, '"')
	}
	return dst, nil
}

// member starts the next member of the innermost open container: a comma
// when it is not the first, and the key for an object. add has checked that
// seg fits the container.
func (w *argWriter) member(dst []byte, seg pathSeg) []byte {
	top := &w.frames[len(w.frames)-1]
	if top.n > 0 {
		dst = append(dst, ',')
	}
	top.n++
	if !top.array {
		dst = appendQuoted(dst, seg.key)
		dst = append(dst, ':')
	}
	return dst
}

// value returns the JSON text of a non-string value, or isString; nil text
// and false when the entry has no value.
func (a *geminiPartialArg) value() (text []byte, isString bool, err error) {
	n := 0
	if a.StringValue != nil {
		n, isString = n+1, true
	}
	if len(a.NumberValue) > 0 && string(a.NumberValue) != "null" {
		n++
		if c := a.NumberValue[0]; c != '-' && (c < '0' || c > '9') {
			return nil, false, fmt.Errorf("numberValue %s at %s is not a JSON number", clipped(string(a.NumberValue)), quoteName(a.JSONPath))
		}
		text = a.NumberValue
	}
	if a.BoolValue != nil {
		n++
		text = []byte(strconv.FormatBool(*a.BoolValue))
	}
	if len(a.NullValue) > 0 {
		n++
		text = []byte("null")
	}
	if n > 1 {
		return nil, false, fmt.Errorf("partialArgs entry at %s has more than one value", quoteName(a.JSONPath))
	}
	return text, isString, nil
}

// parsePath appends the steps of a jsonPath such as `$.recipe.steps[4]` or
// `$['a key']` to segs.
func parsePath(segs []pathSeg, p string) ([]pathSeg, error) {
	bad := func(why string) ([]pathSeg, error) {
		return segs, fmt.Errorf("jsonPath %s: %s", quoteName(p), why)
	}
	if p == "" || p[0] != '$' {
		return bad("does not start with $")
	}
	for i := 1; i < len(p); {
		switch {
		case p[i] == '.':
			j := i + 1
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			if j == i+1 {
				return bad("empty name")
			}
			segs = append(segs, pathSeg{key: p[i+1 : j]})
			i = j
		case p[i] == '[' && i+1 < len(p) && (p[i+1] == '\'' || p[i+1] == '"'):
			end := strings.IndexByte(p[i+2:], p[i+1])
			if end < 0 || i+2+end+1 >= len(p) || p[i+2+end+1] != ']' {
				return bad("unterminated quoted name")
			}
			key := p[i+2 : i+2+end]
			if strings.IndexByte(key, '\\') >= 0 {
				return bad("escapes in quoted names are not supported")
			}
			segs = append(segs, pathSeg{key: key})
			i += 2 + end + 2
		case p[i] == '[':
			j := i + 1
			for j < len(p) && p[j] >= '0' && p[j] <= '9' {
				j++
			}
			if j == i+1 || j-i-1 > 9 || j >= len(p) || p[j] != ']' {
				return bad("bad array index")
			}
			n, _ := strconv.Atoi(p[i+1 : j])
			segs = append(segs, pathSeg{index: n, isIndex: true})
			i = j + 1
		default:
			return bad("unexpected " + strconv.QuoteRune(rune(p[i])))
		}
	}
	return segs, nil
}
