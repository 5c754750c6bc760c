package client_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/toolgate/toolgate/client"
	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// TestValidatorTwoReplicas registers a schema on replica A, then sends the
// Validator's calls to replica B (separate store), which must answer
// NOT_FOUND underneath and compile the remembered schema.
func TestValidatorTwoReplicas(t *testing.T) {
	t.Parallel()
	a := newReplica(t, server.Config{})
	b := newReplica(t, server.Config{})
	var onA, onB recorder
	lb := new(switchConn)
	connA := connTo(t, a, onA.option())
	connB := connTo(t, b, onB.option())
	v := client.New(lb).Validator()

	// Register on A.
	lb.route(connA)
	handle, compiled, err := v.Register(t.Context(), weatherSchema)
	require.NoError(t, err)
	require.NotEmpty(t, handle)
	assert.Equal(t, compiled.GetHandle(), handle)
	assert.Equal(t, []string{"CompileSchema()=OK"}, onA.Calls())

	// The connection now goes to B, which has never seen the schema.
	lb.route(connB)
	resp, err := v.Validate(t.Context(), handle, `{"city":"Oslo"}`)
	require.NoError(t, err)
	assert.True(t, resp.GetValid())
	assert.Equal(t, handle, resp.GetHandle(), "B computed the handle A computed")
	assert.Equal(t, []string{"Validate(handle)=NotFound", "Validate(inline)=OK"}, onB.Calls(),
		"B answered NOT_FOUND, then compiled the schema sent inline")
	assert.Equal(t, []string{"CompileSchema()=OK"}, onA.Calls(), "nothing more went to A")

	// B now holds the schema: no second NOT_FOUND, and violations are
	// still answered in-band.
	resp, err = v.Validate(t.Context(), handle, `{"city":"Oslo","days":0}`)
	require.NoError(t, err)
	assert.False(t, resp.GetValid())
	assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, resp.GetCode())
	assert.Equal(t, []string{"Validate(handle)=NotFound", "Validate(inline)=OK", "Validate(handle)=OK"}, onB.Calls())

	// Compiled on B directly, the same schema gets the same handle.
	onB2, err := client.New(connB).Compile(t.Context(), weatherSchema)
	require.NoError(t, err)
	assert.Equal(t, handle, onB2.GetHandle())
}

func TestValidatorRecoversConcurrently(t *testing.T) {
	t.Parallel()
	a := newReplica(t, server.Config{})
	b := newReplica(t, server.Config{})
	lb := new(switchConn)
	lb.route(connTo(t, a))
	v := client.New(lb).Validator()
	handle, _, err := v.Register(t.Context(), weatherSchema)
	require.NoError(t, err)
	lb.route(connTo(t, b))

	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			resp, err := v.Validate(t.Context(), handle, `{"city":"Oslo"}`)
			if assert.NoError(t, err) {
				assert.True(t, resp.GetValid())
			}
		})
	}
	wg.Wait()
}

func TestValidatorValidate(t *testing.T) {
	t.Parallel()
	r := newReplica(t, server.Config{})

	t.Run("unknown handle returns NotFound as is", func(t *testing.T) {
		t.Parallel()
		var rec recorder
		v := dialReplica(t, r, client.WithDialOptions(rec.option())).Validator()
		_, err := v.Validate(t.Context(), "tg1_"+strings.Repeat("0", 64), `{}`)
		assert.Equal(t, codes.NotFound, status.Code(err), "%v", err)
		assert.Equal(t, []string{"Validate(handle)=NotFound"}, rec.Calls(), "no retry")
	})
	t.Run("a handle registered elsewhere is not retried", func(t *testing.T) {
		t.Parallel()
		other := newReplica(t, server.Config{})
		handle, _, err := dialReplica(t, other).Validator().Register(t.Context(), weatherSchema)
		require.NoError(t, err)
		var rec recorder
		v := dialReplica(t, r, client.WithDialOptions(rec.option())).Validator()
		_, err = v.Validate(t.Context(), handle, `{"city":"Oslo"}`)
		assert.Equal(t, codes.NotFound, status.Code(err), "%v", err)
		assert.Equal(t, []string{"Validate(handle)=NotFound"}, rec.Calls())
	})
	t.Run("forgotten handle is not retried", func(t *testing.T) {
		t.Parallel()
		lb := new(switchConn)
		lb.route(connTo(t, newReplica(t, server.Config{})))
		v := client.New(lb).Validator()
		handle, _, err := v.Register(t.Context(), weatherSchema)
		require.NoError(t, err)
		v.Forget(handle)
		v.Forget("never registered")
		lb.route(connTo(t, r))
		_, err = v.Validate(t.Context(), handle, `{"city":"Oslo"}`)
		assert.Equal(t, codes.NotFound, status.Code(err), "%v", err)
	})
	t.Run("other errors are returned", func(t *testing.T) {
		t.Parallel()
		locked := newReplica(t, server.Config{BearerToken: "s3cret"})
		v := dialReplica(t, locked).Validator()
		_, _, err := v.Register(t.Context(), weatherSchema)
		assert.Equal(t, codes.Unauthenticated, status.Code(err), "%v", err)
		_, err = v.Validate(t.Context(), "tg1_x", `{}`)
		assert.Equal(t, codes.Unauthenticated, status.Code(err), "%v", err)
		_, err = v.ValidateSchema(t.Context(), weatherSchema, `{}`)
		assert.Equal(t, codes.Unauthenticated, status.Code(err), "%v", err)
	})
}

func TestValidatorRegister(t *testing.T) {
	t.Parallel()
	r := newReplica(t, server.Config{})
	v := dialReplica(t, r).Validator()

	t.Run("rejected schema is a SchemaError", func(t *testing.T) {
		t.Parallel()
		handle, resp, err := v.Register(t.Context(), patternSchema)
		assert.Empty(t, handle)
		var se *client.SchemaError
		require.ErrorAs(t, err, &se)
		assert.Same(t, resp, se.Response)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, resp.GetCode())
		assert.Contains(t, err.Error(), "ERROR_CODE_UNSUPPORTED_CAPABILITY")
		assert.Equal(t, codes.Unknown, status.Code(err), "a SchemaError is not a gRPC status")
	})
	t.Run("respelled schema gets the same handle", func(t *testing.T) {
		t.Parallel()
		h1, _, err := v.Register(t.Context(), weatherSchema)
		require.NoError(t, err)
		h2, _, err := v.Register(t.Context(), weatherSchemaRespelled)
		require.NoError(t, err)
		assert.Equal(t, h1, h2)
	})
}

func TestValidatorValidateSchema(t *testing.T) {
	t.Parallel()

	t.Run("first call inline, then by handle", func(t *testing.T) {
		t.Parallel()
		var rec recorder
		v := dialReplica(t, newReplica(t, server.Config{}), client.WithDialOptions(rec.option())).Validator()
		first, err := v.ValidateSchema(t.Context(), weatherSchema, `{"city":"Oslo"}`)
		require.NoError(t, err)
		assert.True(t, first.GetValid())
		require.NotEmpty(t, first.GetHandle())
		second, err := v.ValidateSchema(t.Context(), weatherSchema, `{"city":7}`)
		require.NoError(t, err)
		assert.False(t, second.GetValid())
		assert.Equal(t, first.GetHandle(), second.GetHandle())
		assert.Equal(t, []string{"Validate(inline)=OK", "Validate(handle)=OK"}, rec.Calls())

		// The handle it learnt is usable with Validate.
		third, err := v.Validate(t.Context(), first.GetHandle(), `{"city":"Oslo"}`)
		require.NoError(t, err)
		assert.True(t, third.GetValid())
	})
	t.Run("recovers on another replica", func(t *testing.T) {
		t.Parallel()
		var onB recorder
		lb := new(switchConn)
		lb.route(connTo(t, newReplica(t, server.Config{})))
		v := client.New(lb).Validator()
		_, err := v.ValidateSchema(t.Context(), weatherSchema, `{"city":"Oslo"}`)
		require.NoError(t, err)
		lb.route(connTo(t, newReplica(t, server.Config{}), onB.option()))
		resp, err := v.ValidateSchema(t.Context(), weatherSchema, `{"city":"Oslo"}`)
		require.NoError(t, err)
		assert.True(t, resp.GetValid())
		assert.Equal(t, []string{"Validate(handle)=NotFound", "Validate(inline)=OK"}, onB.Calls())
	})
	t.Run("rejected schema is answered in-band and not remembered", func(t *testing.T) {
		t.Parallel()
		var rec recorder
		v := dialReplica(t, newReplica(t, server.Config{}), client.WithDialOptions(rec.option())).Validator()
		for range 2 {
			resp, err := v.ValidateSchema(t.Context(), patternSchema, `{"q":"a"}`)
			require.NoError(t, err)
			assert.False(t, resp.GetValid())
			assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, resp.GetCode())
			assert.Empty(t, resp.GetHandle())
		}
		assert.Equal(t, []string{"Validate(inline)=OK", "Validate(inline)=OK"}, rec.Calls())
	})
	t.Run("profile is part of the schema's identity", func(t *testing.T) {
		t.Parallel()
		var rec recorder
		v := dialReplica(t, newReplica(t, server.Config{}), client.WithDialOptions(rec.option())).Validator()
		_, err := v.ValidateSchema(t.Context(), weatherSchema, `{"city":"Oslo"}`)
		require.NoError(t, err)
		_, err = v.ValidateSchema(t.Context(), weatherSchema, `{"city":"Oslo"}`, client.WithProfile(toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE))
		require.NoError(t, err)
		assert.Equal(t, []string{"Validate(inline)=OK", "Validate(inline)=OK"}, rec.Calls())
	})
}

// forgetful is a server that holds no schema: it answers NotFound to every
// Validate by handle, and holds the first inline one until release is
// closed. It records how each Validate came, "handle" or "inline".
type forgetful struct {
	held    chan struct{} // closed when the first inline Validate arrives
	release chan struct{}
	once    sync.Once
	mu      sync.Mutex
	calls   []string
}

// newForgetful serves a forgetful until the test ends, and returns it
// and a Validator that calls it.
func newForgetful(t *testing.T) (*forgetful, *client.Validator) {
	t.Helper()
	f := &forgetful{held: make(chan struct{}), release: make(chan struct{})}
	c := dialFake(t, &fakeService{
		compile: func(context.Context, *toolgatev1.CompileSchemaRequest) (*toolgatev1.CompileSchemaResponse, error) {
			return &toolgatev1.CompileSchemaResponse{Handle: forgetfulHandle}, nil
		},
		validate: func(_ context.Context, req *toolgatev1.ValidateRequest) (*toolgatev1.ValidateResponse, error) {
			by := "handle"
			if req.GetInline() != nil {
				by = "inline"
			}
			f.mu.Lock()
			f.calls = append(f.calls, by)
			f.mu.Unlock()
			if by == "handle" {
				return nil, status.Error(codes.NotFound, "no such handle")
			}
			f.once.Do(func() { close(f.held) })
			<-f.release
			return &toolgatev1.ValidateResponse{Valid: true, Handle: forgetfulHandle}, nil
		},
	})
	return f, c.Validator()
}

// forgetfulHandle is the handle forgetful computes for every schema.
var forgetfulHandle = "tg1_" + strings.Repeat("a", 64)

// Calls returns how each Validate came, in order.
func (f *forgetful) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// TestValidatorForgetWins: a Forget while a call that sends its schema
// inline is in flight is not undone when that call's answer arrives.
func TestValidatorForgetWins(t *testing.T) {
	t.Parallel()
	t.Run("a recovery in flight", func(t *testing.T) {
		t.Parallel()
		f, v := newForgetful(t)
		handle, _, err := v.Register(t.Context(), weatherSchema)
		require.NoError(t, err)
		done := make(chan error, 1)
		go func() {
			_, err := v.Validate(t.Context(), handle, `{"city":"Oslo"}`)
			done <- err
		}()
		<-f.held
		v.Forget(handle)
		close(f.release)
		require.NoError(t, <-done, "the call in flight still gets its answer")
		_, err = v.Validate(t.Context(), handle, `{"city":"Oslo"}`)
		assert.Equal(t, codes.NotFound, status.Code(err), "%v", err)
		assert.Equal(t, []string{"handle", "inline", "handle"}, f.Calls(), "no second recovery")
	})
	t.Run("a first ValidateSchema in flight", func(t *testing.T) {
		t.Parallel()
		f, v := newForgetful(t)
		done := make(chan error, 1)
		go func() {
			_, err := v.ValidateSchema(t.Context(), weatherSchema, `{"city":"Oslo"}`)
			done <- err
		}()
		<-f.held
		v.Forget(forgetfulHandle)
		close(f.release)
		require.NoError(t, <-done)
		resp, err := v.ValidateSchema(t.Context(), weatherSchema, `{"city":"Oslo"}`)
		require.NoError(t, err)
		assert.True(t, resp.GetValid())
		assert.Equal(t, []string{"inline", "inline"}, f.Calls(), "the handle was not remembered")
	})
}

// TestValidateSchemaForgetInFlight: a ValidateSchema by a remembered
// handle whose handle another goroutine forgets while the call is in
// flight, on a replica that answers NOT_FOUND, still validates: it holds
// the schema and sends it inline (it returned the NOT_FOUND, as Validate
// had nothing to send again).
func TestValidateSchemaForgetInFlight(t *testing.T) {
	t.Parallel()
	handle := "tg1_" + strings.Repeat("b", 64)
	var v *client.Validator
	c := dialFake(t, &fakeService{
		validate: func(_ context.Context, req *toolgatev1.ValidateRequest) (*toolgatev1.ValidateResponse, error) {
			if req.GetInline() != nil {
				return &toolgatev1.ValidateResponse{Valid: true, Handle: handle}, nil
			}
			v.Forget(handle) // another goroutine forgets while this call is in flight
			return nil, status.Error(codes.NotFound, "no such handle")
		},
	})
	v = c.Validator()
	_, err := v.ValidateSchema(t.Context(), weatherSchema, `{"city":"Oslo"}`) // inline: learns the handle
	require.NoError(t, err)
	resp, err := v.ValidateSchema(t.Context(), weatherSchema, `{"city":"Oslo"}`) // by handle
	require.NoError(t, err, "ValidateSchema holds its schema: it never fails with NOT_FOUND")
	assert.True(t, resp.GetValid())
}

// TestResourcesSentAsWritten: documents given WithResources reach the
// server byte for byte, through Compile, Register and ValidateSchema
// alike: one that is not UTF-8 is refused as CompileTools refuses it
// (the Validator's memory used to write it through encoding/json, which
// turned the bad byte into U+FFFD, so another document was compiled).
func TestResourcesSentAsWritten(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	opts := []client.CompileOption{client.WithProfile(toolgatev1.Profile_PROFILE_JSON_SCHEMA),
		client.WithResources(map[string]string{"https://example.com/c.json": "{\"const\":\"a\xffb\"}", "https://example.com/d.json": `{"type":"string"}`})}
	const schema = `{"type":"object","properties":{"s":{"$ref":"https://example.com/c.json"}}}`
	resp, err := c.Compile(t.Context(), schema, opts...)
	assert.True(t, err != nil || resp.GetHandle() == "", "a resource that is not UTF-8 compiled as another document: %v", resp)
	_, _, err = c.Validator().Register(t.Context(), schema, opts...)
	assert.Error(t, err)
	// Well-formed documents, several of them, arrive as written.
	good := []client.CompileOption{client.WithProfile(toolgatev1.Profile_PROFILE_JSON_SCHEMA),
		client.WithResources(map[string]string{"https://example.com/c.json": `{"const":"a:b"}`, "https://example.com/9:x.json": `{"type":"integer"}`})}
	const both = `{"type":"object","properties":{"s":{"$ref":"https://example.com/c.json"},"n":{"$ref":"https://example.com/9:x.json"}}}`
	v := c.Validator()
	for _, args := range []struct {
		json  string
		valid bool
	}{{`{"s":"a:b","n":1}`, true}, {`{"s":"a:c"}`, false}, {`{"n":"1"}`, false}} {
		r, err := v.ValidateSchema(t.Context(), both, args.json, good...)
		require.NoError(t, err)
		assert.Equal(t, args.valid, r.GetValid(), "%s: %v", args.json, r.GetErrors())
	}
}
