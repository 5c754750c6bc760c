package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
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
