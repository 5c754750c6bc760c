package server_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// TestSchemaLargerThanTheStore: a schema whose compiled form alone is
// larger than --store-bytes cannot be held, so CompileSchema answers
// RESOURCE_EXHAUSTED instead of a handle that is NOT_FOUND at once (it
// answered one before); an inline Validate still checks the arguments,
// and answers without a handle. With room for it, both give the handle,
// and Validate by it works.
func TestSchemaLargerThanTheStore(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	const text = `{"type":"object","properties":{"path":{"type":"string"},"n":{"type":"integer"}},"required":["path"]}`
	var svc *server.Service
	measure := toolgatev1.NewValidationServiceClient(startService(t, server.Config{}, func(s *server.Service) { svc = s }))
	_, err := measure.CompileSchema(ctx, compileJSON(text))
	require.NoError(t, err)
	need := server.StoredBytes(svc)
	require.Positive(t, need)

	inline := func(args string) *toolgatev1.ValidateRequest {
		return &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(text)},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: args}}
	}
	for _, tc := range []struct {
		name       string
		storeBytes int64
		held       bool
	}{
		{"room for it", need, true},
		{"a byte short", need - 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var svc *server.Service
			c := toolgatev1.NewValidationServiceClient(startService(t, server.Config{Options: server.Options{StoreBytes: tc.storeBytes}},
				func(s *server.Service) { svc = s }))
			compiled, err := c.CompileSchema(ctx, compileJSON(text))
			if tc.held {
				require.NoError(t, err)
				require.NotEmpty(t, compiled.GetHandle())
				_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: compiled.GetHandle()},
					Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"path":"a"}`}})
				assert.NoError(t, err, "the handle answered is held")
			} else {
				assert.Equal(t, codes.ResourceExhausted, code(err), "%v", err)
				assert.Contains(t, status.Convert(err).Message(), fmt.Sprintf("more than the store's bound of %d bytes (--store-bytes)", tc.storeBytes))
				assert.Zero(t, server.StoredSchemas(svc), "nothing is stored")
			}
			valid, err := c.Validate(ctx, inline(`{"path":"a","n":2}`))
			require.NoError(t, err)
			assert.True(t, valid.GetValid())
			invalid, err := c.Validate(ctx, inline(`{"n":2.5}`))
			require.NoError(t, err)
			assert.False(t, invalid.GetValid())
			assert.Len(t, invalid.GetErrors(), 2, "the missing path and the fraction: %v", invalid.GetErrors())
			if tc.held {
				assert.Equal(t, compiled.GetHandle(), valid.GetHandle())
			} else {
				assert.Empty(t, valid.GetHandle(), "no handle the store does not hold")
				assert.Empty(t, invalid.GetHandle())
			}
		})
	}
}
