package server_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

// TestStructJSONBounded: a schema_struct or arguments_struct whose message
// fits the message limit but whose JSON text does not (a control character
// is one byte on the wire and six in JSON) is RESOURCE_EXHAUSTED, as a
// *_json field that long would be, wherever a Struct is read; one whose
// text fits is checked as before.
func TestStructJSONBounded(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	c := client(t, server.Config{MaxMessageBytes: limit})
	ctx := context.Background()
	object, err := c.CompileSchema(ctx, compileJSON(`{"type":"object"}`))
	require.NoError(t, err)
	// 20,000 control characters: some 20 KB on the wire, 120 KB of JSON.
	control := &structpb.Struct{Fields: map[string]*structpb.Value{"a": structpb.NewStringValue(strings.Repeat("\x01", 20_000))}}
	schema := &structpb.Struct{Fields: map[string]*structpb.Value{"type": structpb.NewStringValue("object"),
		"description": structpb.NewStringValue(strings.Repeat("\x01", 20_000))}}
	byStruct := func(handle string, args *structpb.Struct) *toolgatev1.ValidateRequest {
		return &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: handle},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsStruct{ArgumentsStruct: args}}
	}
	compileStruct := func(s *structpb.Struct) *toolgatev1.CompileSchemaRequest {
		return &toolgatev1.CompileSchemaRequest{Schema: &toolgatev1.CompileSchemaRequest_SchemaStruct{SchemaStruct: s}}
	}
	require.Less(t, proto.Size(byStruct(object.Handle, control)), limit/2)

	t.Run("arguments_struct", func(t *testing.T) {
		_, err := c.Validate(ctx, byStruct(object.Handle, control))
		assert.Equal(t, codes.ResourceExhausted, code(err), "%v", err)
		assert.ErrorContains(t, err, "arguments_struct")
	})
	t.Run("schema_struct", func(t *testing.T) {
		_, err := c.CompileSchema(ctx, compileStruct(schema))
		assert.Equal(t, codes.ResourceExhausted, code(err), "%v", err)
		assert.ErrorContains(t, err, "schema_struct")
	})
	t.Run("inline schema_struct", func(t *testing.T) {
		_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileStruct(schema)},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
		assert.Equal(t, codes.ResourceExhausted, code(err), "%v", err)
	})
	t.Run("bind schema_struct", func(t *testing.T) {
		s, err := c.ValidateStream(ctx)
		require.NoError(t, err)
		require.NoError(t, s.Send(&toolgatev1.ValidateStreamRequest{Event: &toolgatev1.ValidateStreamRequest_Bind{Bind: &toolgatev1.StreamBind{
			Schemas: map[string]*toolgatev1.CompileSchemaRequest{"t": compileStruct(schema)}}}}))
		require.NoError(t, s.CloseSend())
		_, err = s.Recv()
		assert.Equal(t, codes.ResourceExhausted, code(err), "%v", err)
	})
	t.Run("text within the limit", func(t *testing.T) {
		fits := &structpb.Struct{Fields: map[string]*structpb.Value{"a": structpb.NewStringValue(strings.Repeat("\x01", 5_000))}}
		resp, err := c.Validate(ctx, byStruct(object.Handle, fits))
		require.NoError(t, err)
		assert.True(t, resp.Valid)
	})
}

// TestStructJSONRefused: a Struct that has no JSON text (a number that is
// not finite, a Value of no kind) is INVALID_ARGUMENT, and so is one nested
// past what the proto decoder reads; one nested past --max-depth is a
// "json" finding, as the same text would be.
func TestStructJSONRefused(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := context.Background()
	object, err := c.CompileSchema(ctx, compileJSON(`{"type":"object"}`))
	require.NoError(t, err)
	validate := func(v *structpb.Value) (*toolgatev1.ValidateResponse, error) {
		return c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: object.Handle},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsStruct{ArgumentsStruct: &structpb.Struct{Fields: map[string]*structpb.Value{"a": v}}}})
	}
	nested := func(n int) *structpb.Value {
		v := structpb.NewNullValue()
		for range n {
			v = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{v}})
		}
		return v
	}
	for name, v := range map[string]*structpb.Value{
		"NaN":                 structpb.NewNumberValue(math.NaN()),
		"infinity":            structpb.NewNumberValue(math.Inf(-1)),
		"no kind":             {},
		"no kind in a list":   structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{{}}}),
		"past proto's limits": nested(6_000),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := validate(v)
			assert.Equal(t, codes.InvalidArgument, code(err), "%v", err)
		})
	}
	t.Run("past --max-depth", func(t *testing.T) {
		resp, err := validate(nested(4_000))
		require.NoError(t, err)
		require.NotEmpty(t, resp.Errors)
		assert.Equal(t, "json", resp.Errors[0].Keyword)
	})
}
