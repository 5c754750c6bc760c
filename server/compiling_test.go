package server_test

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/hostile"
	"github.com/toolgate/toolgate/server"
)

// compilingClient serves a Service whose room to compile is room bytes and
// returns a client and the Service.
func compilingClient(t *testing.T, room int64) (toolgatev1.ValidationServiceClient, *server.Service) {
	t.Helper()
	var svc *server.Service
	conn := startService(t, server.Config{Options: server.Options{MaxCompilingBytes: room}},
		func(s *server.Service) { svc = s })
	return toolgatev1.NewValidationServiceClient(conn), svc
}

// soon is a context that ends in a fifth of a second, for a compile that
// waits for room no one gives back (the ones that must not wait have no
// deadline: a test that fails must not be a slow machine).
func soon(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	t.Cleanup(cancel)
	return ctx
}

// TestCompilesWaitForRoom: with the room to compile taken, a schema not
// compiled before waits (here until its deadline: DEADLINE_EXCEEDED) in
// CompileSchema, an inline Validate, a stream's bind and CompileToolset; a
// schema in the compile cache is answered at once; once the room is given
// back, the compiles run.
func TestCompilesWaitForRoom(t *testing.T) {
	t.Parallel()
	c, svc := compilingClient(t, 1<<10)
	_, err := c.CompileSchema(t.Context(), compileJSON(todoSchema))
	require.NoError(t, err)

	giveBack := server.TakeCompileRoom(t, svc, 1<<10)
	fresh := `{"type":"object","properties":{"q":{"type":"string"}}}`
	_, err = c.CompileSchema(soon(t), compileJSON(fresh))
	assert.Equal(t, codes.DeadlineExceeded, code(err), "CompileSchema: %v", err)
	_, err = c.Validate(soon(t), &toolgatev1.ValidateRequest{
		Schema:    &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(fresh)},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
	assert.Equal(t, codes.DeadlineExceeded, code(err), "Validate inline: %v", err)
	_, err = c.CompileToolset(soon(t), &toolgatev1.CompileToolsetRequest{Source: &toolgatev1.CompileToolsetRequest_Tools{
		Tools: &toolgatev1.ToolList{Tools: []*toolgatev1.ToolSchema{{Name: "q", SchemaJson: fresh}}}}})
	assert.Equal(t, codes.DeadlineExceeded, code(err), "CompileToolset: %v", err)
	s, err := c.ValidateStream(soon(t))
	require.NoError(t, err)
	require.NoError(t, s.Send(&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Bind{
		Bind: &toolgatev1.StreamBind{Schemas: map[string]*toolgatev1.CompileSchemaRequest{"q": compileJSON(fresh)}}}}))
	_, err = s.Recv()
	assert.Equal(t, codes.DeadlineExceeded, code(err), "a stream's bind: %v", err)

	_, err = c.CompileSchema(t.Context(), compileJSON(todoSchema))
	assert.NoError(t, err, "a schema compiled before needs no room")

	giveBack()
	_, err = c.CompileSchema(t.Context(), compileJSON(fresh))
	assert.NoError(t, err, "with the room back, the compile runs")
}

// TestCompileLargerThanTheRoom: a schema larger than the whole room still
// compiles, alone: it waits while any other compile holds part of it.
func TestCompileLargerThanTheRoom(t *testing.T) {
	t.Parallel()
	c, svc := compilingClient(t, 16)
	resp, err := c.CompileSchema(t.Context(), compileJSON(todoSchema))
	require.NoError(t, err)
	assert.NotEmpty(t, resp.Handle)

	giveBack := server.TakeCompileRoom(t, svc, 1)
	other := `{"type":"object","properties":{"a":{"type":"integer"}}}`
	_, err = c.CompileSchema(soon(t), compileJSON(other))
	assert.Equal(t, codes.DeadlineExceeded, code(err), "%v", err)
	giveBack()
	_, err = c.CompileSchema(t.Context(), compileJSON(other))
	assert.NoError(t, err)
}

// TestPatternsCountAgainstTheRoom: a short schema of patterns counts the
// automata it may build against the room, so it waits where a schema of
// its size without patterns compiles at once.
func TestPatternsCountAgainstTheRoom(t *testing.T) {
	t.Parallel()
	c, svc := compilingClient(t, 2*server.PatternBytes)
	giveBack := server.TakeCompileRoom(t, svc, server.PatternBytes+1)
	patterned := jsonSchemaRequest(`{"type":"string","pattern":"^[a-q][^u-z]{10}$"}`, nil, false)
	plain := jsonSchemaRequest(`{"type":"string","description":"[a-q][^u-z]{10}"}`, nil, false)
	_, err := c.CompileSchema(soon(t), patterned)
	assert.Equal(t, codes.DeadlineExceeded, code(err), "a schema of patterns: %v", err)
	_, err = c.CompileSchema(t.Context(), plain)
	assert.NoError(t, err, "a schema of its size without patterns")
	giveBack()
	_, err = c.CompileSchema(t.Context(), patterned)
	assert.NoError(t, err, "with the room back, the schema of patterns compiles")
}

// TestPatternCompilesBoundTheHeap: distinct short schemas of heavy
// patterns, compiled all at once, hold the heap the room allows (some 150
// bytes per byte of room), not each one's automata times their number.
// Each is refused past the pattern limits, so that what they hold is the
// compile's alone, not a stored schema's. Room for four such compiles,
// and 24 of them: before the room counted patterns, the peak grew with
// the 24, some 5 MB each; now with the four. It does not run in parallel,
// so the heap it samples is its own. The last compiles wait for five
// rounds of four before them, which on a loaded machine can pass the
// default --max-request-time: this test is about the heap, so its server
// allows ten minutes.
func TestPatternCompilesBoundTheHeap(t *testing.T) {
	room := 4 * server.PatternBytes
	conn := startService(t, server.Config{Options: server.Options{
		MaxCompilingBytes: room, MaxRequestTime: 10 * time.Minute}}, nil)
	c := toolgatev1.NewValidationServiceClient(conn)
	const schemas = 24
	docs := make([]string, schemas)
	for i := range docs {
		// 45 automata of some 100 KB each: past the pattern limits together
		docs[i] = objectSchema(45, func(j int) string {
			return fmt.Sprintf(`{"type":"string","pattern":"[a-q][^u-z]{10}x%d_%d"}`, j, i)
		})
	}
	defer debug.SetGCPercent(debug.SetGCPercent(5)) // the heap sampled is what is live, give or take 5%
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	for _, doc := range docs {
		wg.Go(func() {
			resp, err := c.CompileSchema(t.Context(), jsonSchemaRequest(doc, nil, false))
			if assert.NoError(t, err) {
				assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, resp.GetErrors()[0].GetCode())
			}
		})
	}
	wg.Wait()
	close(done)
	<-sampled
	grown := int64(peak.Load()) - int64(base)
	bound := 2 * room * 150 // twice what the room allows, for the heap's garbage
	t.Logf("%d compiles in a room of %d bytes: the heap grew %.1f MB at its peak (bound %.1f MB)",
		schemas, room, float64(grown)/1e6, float64(bound)/1e6)
	assert.Less(t, grown, bound)
}

// TestCompileStopsWhenTheCallerLeaves: a deadline that passes while a
// schema compiles stops the compile there (schema.CompileContext), in
// CompileSchema and in CompileToolset: the answer is DEADLINE_EXCEEDED,
// nothing is stored, and the same schema compiles in full for a caller
// that waits.
func TestCompileStopsWhenTheCallerLeaves(t *testing.T) {
	t.Parallel()
	wide := objectSchema(20_000, func(int) string { return `{"type":"integer"}` })
	svc := server.NewService(server.Options{})
	leaves := func() *hostile.Countdown {
		return hostile.NewCountdown(context.Background(), 8, context.DeadlineExceeded)
	} // the first looks are before the compile
	_, err := svc.CompileSchema(leaves(), jsonSchemaRequest(wide, nil, false))
	assert.Equal(t, codes.DeadlineExceeded, code(err), "CompileSchema: %v", err)
	tools := &toolgatev1.CompileToolsetRequest{Profile: toolgatev1.Profile_PROFILE_JSON_SCHEMA,
		Source: &toolgatev1.CompileToolsetRequest_Tools{Tools: &toolgatev1.ToolList{
			Tools: []*toolgatev1.ToolSchema{{Name: "wide", SchemaJson: wide}}}}}
	_, err = svc.CompileToolset(leaves(), tools)
	assert.Equal(t, codes.DeadlineExceeded, code(err), "CompileToolset: %v", err)
	assert.Zero(t, server.StoredSchemas(svc), "a compile given up stores nothing")

	resp, err := svc.CompileSchema(t.Context(), jsonSchemaRequest(wide, nil, false))
	require.NoError(t, err)
	assert.NotEmpty(t, resp.GetHandle(), "%v", resp.GetErrors())
}

// objectSchema is an object schema of n properties p0, p1, …, property i
// of the schema property(i).
func objectSchema(n int, property func(i int) string) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":%s`, i, property(i))
	}
	b.WriteString(`}}`)
	return b.String()
}

// TestHeapBound checks the sum HeapBound states: 150 bytes per byte of
// the larger of the compile room and one message, and each pool's bound,
// defaults filled in.
func TestHeapBound(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	assert.Equal(t, int64(150*4*mib+256*mib+256*mib+512*mib+64*mib), server.Options{}.HeapBound(4*mib), "the defaults")
	assert.Equal(t, int64(150*8*mib+256*mib+256*mib+512*mib+64*mib), server.Options{}.HeapBound(8*mib), "a message larger than the room compiles alone")
	o := server.Options{MaxCompilingBytes: 16 * mib, StoreBytes: 1, MaxStreamSchemaBytes: 2, MaxOpenStateBytes: 3, MaxUnnamedCallBytes: 4}
	assert.Equal(t, int64(150*16*mib+10), o.HeapBound(4*mib))
}

// TestToolsListTextCountsAgainstTheRoom: a CompileToolset parses its whole
// tools_list_json (descriptions, annotations and all) before it compiles a
// tool, and that parse holds a multiple of the text on the heap, so the
// text counts against the room, not only the schemas in it: a list of
// 3 KiB whose schemas are 17 bytes waits while 2 of the 4 KiB are taken,
// and a list of more tools than --max-toolset-tools is read within the
// room too before it is refused.
func TestToolsListTextCountsAgainstTheRoom(t *testing.T) {
	t.Parallel()
	c, svc := compilingClient(t, 4<<10)
	described := `{"tools":[{"name":"a","description":"` + strings.Repeat("x", 3<<10) + `","inputSchema":{"type":"object"}}]}`
	tooMany := `{"tools":[` + strings.Repeat(`{},`, server.DefaultMaxToolsetTools) + `{}]}`
	giveBack := server.TakeCompileRoom(t, svc, 2<<10)
	for name, doc := range map[string]string{"described": described, "too many tools": tooMany} {
		_, err := c.CompileToolset(soon(t), toolsListRequest(0, doc))
		assert.Equal(t, codes.DeadlineExceeded, code(err), "%s: %v", name, err)
	}
	giveBack()
	resp, err := c.CompileToolset(t.Context(), toolsListRequest(0, described))
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, mapsKeys(resp.GetBind()))
	_, err = c.CompileToolset(t.Context(), toolsListRequest(0, tooMany))
	assert.Equal(t, codes.ResourceExhausted, code(err), "%v", err)
}
