package server_test

import (
	"context"
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
	send(t, first, bindInline(map[string]string{"a": a}), startCall("1", "a", ""), delta("1", `{"a":"x"}`), end("1"))
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
	_, err = first.Recv()
	require.Error(t, err)
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
