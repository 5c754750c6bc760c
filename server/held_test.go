package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/server"
)

// schemaBytes is what a compiled schema counts against
// Options.MaxStreamSchemaBytes, computed by the engine on its own.
func schemaBytes(t *testing.T, src string) int64 {
	t.Helper()
	res := schema.Compile(schema.ToolInput, []byte(src))
	require.NotNil(t, res.Schema, "%v", res.Errors)
	return res.Schema.Bytes
}

// TestStreamSchemaBytes: the schemas open streams hold are counted once
// each, however many streams hold them, whether bound inline, by handle or
// by a call's start; the one that would take them past
// MaxStreamSchemaBytes is RESOURCE_EXHAUSTED; a stream gives back what it
// holds when it ends.
func TestStreamSchemaBytes(t *testing.T) {
	t.Parallel()
	a := `{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]}}}`
	b := `{"type":"object","properties":{"b":{"type":"string","enum":["3","4"]},"c":{"type":"boolean"}}}`
	aBytes, bBytes := schemaBytes(t, a), schemaBytes(t, b)
	var svc *server.Service
	c := toolgatev1.NewValidationServiceClient(startService(t,
		server.Config{Options: server.Options{MaxStreamSchemaBytes: aBytes + bBytes - 1}},
		func(s *server.Service) { svc = s }))
	compiledB, err := c.CompileSchema(t.Context(), compileJSON(b))
	require.NoError(t, err)
	held := func() int64 { return server.StreamSchemaBytes(svc) }
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second) // a wait that never ends fails the test
	defer cancel()

	first, err := c.ValidateStream(ctx)
	require.NoError(t, err)
	send(t, first, askReceipt(), bindInline(map[string]string{"a": a}), startCall("1", "a", ""), delta("1", `{"a":"x"}`), end("1"))
	require.True(t, recvResult(t, first).GetValid())
	assert.Equal(t, aBytes, held())

	second, err := c.ValidateStream(ctx)
	require.NoError(t, err)
	send(t, second, bindInline(map[string]string{"again": a}), startInline("1", "x", a), delta("1", `{}`), end("1"))
	require.True(t, recvResult(t, second).GetValid())
	assert.Equal(t, aBytes, held(), "a schema two streams hold counts once")

	send(t, second, bind(map[string]string{"b": compiledB.Handle}))
	_, err = second.Recv()
	assert.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	assert.Contains(t, status.Convert(err).Message(), "bind: tool \"b\"")
	assert.Contains(t, status.Convert(err).Message(), "--max-stream-schema-bytes")
	assert.Equal(t, aBytes, held(), "the first stream still holds a")

	require.NoError(t, first.CloseSend())
	recvEnd(t, first, 5, 1)
	assert.Eventually(t, func() bool { return held() == 0 }, 5*time.Second, time.Millisecond, "streams give back what they held")

	third, err := c.ValidateStream(ctx)
	require.NoError(t, err)
	send(t, third, startInline("1", "b", b), delta("1", `{"b":"2"}`), end("1"))
	assert.False(t, recvResult(t, third).GetValid())
	assert.Equal(t, bBytes, held(), "with a given back, b fits")
	send(t, third, bindInline(map[string]string{"a": a}))
	_, err = third.Recv()
	assert.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	assert.Contains(t, status.Convert(err).Message(), "the schema of tool \"a\"")
}

// TestUnnamedCallBytesAcrossStreams: the text streams hold for provider
// calls whose tool is not named yet is bounded over all streams
// (MaxUnnamedCallBytes): a call on another stream that would pass it gets
// an early maxBytes result; a stream that ends, even by its caller leaving,
// gives back what it held.
func TestUnnamedCallBytesAcrossStreams(t *testing.T) {
	t.Parallel()
	var svc *server.Service
	c := toolgatev1.NewValidationServiceClient(startService(t,
		server.Config{Options: server.Options{MaxUnnamedCallBytes: 32}},
		func(s *server.Service) { svc = s }))
	unnamed := func(args string) *toolgatev1.ValidateStreamRequest {
		return providerEvent(toolgatev1.Provider_PROVIDER_OPENAI_CHAT,
			fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":%q}}]}}]}`, args))
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	firstCtx, leave := context.WithCancel(ctx)
	first, err := c.ValidateStream(firstCtx)
	require.NoError(t, err)
	held := strings.Repeat(" ", 20) + `{"action":` // 30 of the 32
	send(t, first, unnamed(held))
	assert.Eventually(t, func() bool { return server.UnnamedCallBytes(svc) == int64(len(held)) }, 5*time.Second, time.Millisecond)

	second, err := c.ValidateStream(ctx)
	require.NoError(t, err)
	send(t, second, unnamed(held))
	r := recvResult(t, second)
	assert.True(t, r.GetEarly())
	require.NotEmpty(t, r.GetErrors())
	assert.Equal(t, "maxBytes", r.GetErrors()[0].GetKeyword())
	assert.Equal(t, int64(32-len(held)), r.GetErrors()[0].GetOffset())

	leave()
	assert.Eventually(t, func() bool { return server.UnnamedCallBytes(svc) == 0 }, 5*time.Second, time.Millisecond,
		"a stream whose caller left gives back what it held")
	send(t, second, providerEvent(toolgatev1.Provider_PROVIDER_OPENAI_CHAT,
		`{"choices":[{"index":1,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":"}}]}}]}`))
	assert.Eventually(t, func() bool { return server.UnnamedCallBytes(svc) == int64(len(`{"a":`)) }, 5*time.Second, time.Millisecond,
		"with the room back, another call is held")
	require.NoError(t, second.CloseSend())
	for {
		if _, err := second.Recv(); err != nil {
			break
		}
	}
	assert.Zero(t, server.UnnamedCallBytes(svc))
}

// TestStreamSchemaBytesCountWhatIsOnTheHeap: a schema the store evicted
// while a stream holds it, compiled again for another stream, is a second
// schema on the heap, and counts twice.
func TestStreamSchemaBytesCountWhatIsOnTheHeap(t *testing.T) {
	t.Parallel()
	a := `{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]}}}`
	aBytes := schemaBytes(t, a)
	var svc *server.Service
	c := toolgatev1.NewValidationServiceClient(startService(t,
		server.Config{Options: server.Options{StoreEntries: 1}}, func(s *server.Service) { svc = s }))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	first, err := c.ValidateStream(ctx)
	require.NoError(t, err)
	send(t, first, bindInline(map[string]string{"a": a}), startCall("1", "a", ""), delta("1", `{}`), end("1"))
	require.True(t, recvResult(t, first).GetValid())
	_, err = c.CompileSchema(ctx, compileJSON(`{"type":"object","properties":{"b":{"type":"boolean"}}}`)) // evicts a
	require.NoError(t, err)
	second, err := c.ValidateStream(ctx)
	require.NoError(t, err)
	send(t, second, bindInline(map[string]string{"a": a}), startCall("1", "a", ""), delta("1", `{}`), end("1"))
	require.True(t, recvResult(t, second).GetValid())
	assert.Equal(t, 2*aBytes, server.StreamSchemaBytes(svc))
}
