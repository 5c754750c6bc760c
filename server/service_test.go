package server_test

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

const todoSchema = `{"type":"object","properties":{
	"action":{"type":"string","enum":["add","update","complete","remove","list","clear"]},
	"id":{"type":"string"},"content":{"type":"string"},
	"status":{"type":"string","enum":["pending","in_progress","completed"]}},"required":["action"]}`

// start serves cfg on an in-memory listener and returns a connection to it.
func start(t *testing.T, cfg server.Config) *grpc.ClientConn {
	t.Helper()
	return startService(t, cfg, nil)
}

// startService is start with a hook that sees the Service before it serves.
func startService(t *testing.T, cfg server.Config, setup func(*server.Service)) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv, svc := server.NewGRPCServer(cfg)
	if setup != nil {
		setup(svc)
	}
	srv.RegisterService(&panicService, struct{}{})
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = conn.Close()
		srv.Stop()
	})
	return conn
}

func client(t *testing.T, cfg server.Config) toolgatev1.ValidationServiceClient {
	return toolgatev1.NewValidationServiceClient(start(t, cfg))
}

// panicService has one method that panics, to exercise the recovery
// interceptor through the server's real interceptor chain.
var panicService = grpc.ServiceDesc{
	ServiceName: "toolgate.test.Panic",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{MethodName: "Boom", Handler: func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		in := new(emptypb.Empty)
		if err := dec(in); err != nil {
			return nil, err
		}
		info := &grpc.UnaryServerInfo{Server: srv, FullMethod: "/toolgate.test.Panic/Boom"}
		return interceptor(ctx, in, info, func(context.Context, any) (any, error) { panic("boom") })
	}}},
}

func code(err error) codes.Code { return status.Code(err) }

func compileJSON(src string) *toolgatev1.CompileSchemaRequest {
	return &toolgatev1.CompileSchemaRequest{Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: src}}
}

func TestCompileSchema(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := t.Context()

	t.Run("ok returns a handle", func(t *testing.T) {
		resp, err := c.CompileSchema(ctx, compileJSON(todoSchema))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(resp.Handle, "tg1_"), resp.Handle)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED, resp.Code)
		assert.Empty(t, resp.Errors)
	})
	t.Run("the handle ignores key order and white space", func(t *testing.T) {
		a, err := c.CompileSchema(ctx, compileJSON(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`))
		require.NoError(t, err)
		b, err := c.CompileSchema(ctx, compileJSON(` { "properties" : { "b" : {"type":"integer"}, "a":{"type":"string"} }, "type":"object" } `))
		require.NoError(t, err)
		assert.Equal(t, a.Handle, b.Handle)
		p, err := c.CompileSchema(ctx, &toolgatev1.CompileSchemaRequest{Profile: toolgatev1.Profile_PROFILE_TOOL_INPUT,
			Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`}})
		require.NoError(t, err)
		assert.Equal(t, a.Handle, p.Handle, "UNSPECIFIED is the tool input profile")
	})
	t.Run("big numbers stay exact in the handle", func(t *testing.T) {
		a, err := c.CompileSchema(ctx, compileJSON(`{"type":"object","properties":{"n":{"type":"integer","minimum":9007199254740992}}}`))
		require.NoError(t, err)
		b, err := c.CompileSchema(ctx, compileJSON(`{"type":"object","properties":{"n":{"type":"integer","minimum":9007199254740993}}}`))
		require.NoError(t, err)
		assert.NotEqual(t, a.Handle, b.Handle)
	})
	t.Run("unsupported keywords are in-band findings", func(t *testing.T) {
		resp, err := c.CompileSchema(ctx, compileJSON(`{"type":"object","properties":{"a":{"type":"string","pattern":"x"},"b":{"type":7}}}`))
		require.NoError(t, err)
		assert.Empty(t, resp.Handle)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, resp.Code)
		require.Len(t, resp.Errors, 2)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, resp.Errors[0].Code)
		assert.Equal(t, "/properties/a/pattern", resp.Errors[0].SchemaPath)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, resp.Errors[1].Code)
		assert.Equal(t, "/properties/b/type", resp.Errors[1].SchemaPath)
	})
	t.Run("malformed schema", func(t *testing.T) {
		resp, err := c.CompileSchema(ctx, compileJSON(`{"type":"object",`))
		require.NoError(t, err)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, resp.Code)
		assert.Equal(t, "json", resp.Errors[0].Keyword)
	})
	t.Run("struct form", func(t *testing.T) {
		st, err := structpb.NewStruct(map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}})
		require.NoError(t, err)
		resp, err := c.CompileSchema(ctx, &toolgatev1.CompileSchemaRequest{Schema: &toolgatev1.CompileSchemaRequest_SchemaStruct{SchemaStruct: st}})
		require.NoError(t, err)
		same, err := c.CompileSchema(ctx, compileJSON(`{"type":"object","properties":{"a":{"type":"string"}}}`))
		require.NoError(t, err)
		assert.Equal(t, same.Handle, resp.Handle)
	})
	t.Run("no schema is INVALID_ARGUMENT", func(t *testing.T) {
		_, err := c.CompileSchema(ctx, &toolgatev1.CompileSchemaRequest{})
		assert.Equal(t, codes.InvalidArgument, code(err))
	})
	t.Run("unknown profile is INVALID_ARGUMENT", func(t *testing.T) {
		_, err := c.CompileSchema(ctx, &toolgatev1.CompileSchemaRequest{Profile: 42, Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: `{}`}})
		assert.Equal(t, codes.InvalidArgument, code(err))
		assert.Contains(t, status.Convert(err).Message(), "profile 42")
	})
	t.Run("findings cap is reported", func(t *testing.T) {
		c := client(t, server.Config{Options: server.Options{MaxFindings: 2}})
		resp, err := c.CompileSchema(ctx, compileJSON(`{"type":"object","title":"t","$id":"x","default":{}}`))
		require.NoError(t, err)
		assert.Len(t, resp.Errors, 2)
		assert.True(t, resp.ErrorsTruncated)
	})
	t.Run("warnings cap is reported, from the compile cache too", func(t *testing.T) {
		c := client(t, server.Config{Options: server.Options{MaxFindings: 2}})
		for _, tc := range []struct {
			schema    string
			warnings  int
			truncated bool
		}{
			{`{"type":"object","title":"t","examples":[{}],"properties":{"a":{"type":"string","format":"email"}}}`, 2, true},
			{`{"type":"object","title":"t","properties":{"a":{"type":"string","format":"email"}}}`, 2, false},
		} {
			req := compileJSON(tc.schema)
			req.Profile = toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE
			for _, round := range []string{"compiled", "cached"} {
				resp, err := c.CompileSchema(ctx, req)
				require.NoError(t, err)
				require.NotEmpty(t, resp.Handle, "%s: %v", tc.schema, resp.Errors)
				assert.Len(t, resp.Warnings, tc.warnings, "%s %s", round, tc.schema)
				assert.Equal(t, tc.truncated, resp.WarningsTruncated, "%s %s", round, tc.schema)
				assert.False(t, resp.ErrorsTruncated, "%s %s", round, tc.schema)
			}
		}
	})
}

func TestValidate(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := t.Context()
	compiled, err := c.CompileSchema(ctx, compileJSON(todoSchema))
	require.NoError(t, err)
	byHandle := func(args string) *toolgatev1.ValidateRequest {
		return &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: compiled.Handle},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: args}}
	}

	t.Run("valid by handle", func(t *testing.T) {
		resp, err := c.Validate(ctx, byHandle(`{"action":"add","content":"x"}`))
		require.NoError(t, err)
		assert.True(t, resp.Valid)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED, resp.Code)
		assert.Equal(t, compiled.Handle, resp.Handle)
	})
	t.Run("every violation with paths and a sentence", func(t *testing.T) {
		resp, err := c.Validate(ctx, byHandle(`{"status":"done","id":1}`))
		require.NoError(t, err)
		assert.False(t, resp.Valid)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, resp.Code)
		require.Len(t, resp.Errors, 3)
		assert.Equal(t, "enum", resp.Errors[0].Keyword)
		assert.Equal(t, "/status", resp.Errors[0].InstancePath)
		assert.Equal(t, `/status must be one of "pending", "in_progress", "completed"; got "done".`, resp.Errors[0].Message)
		assert.Equal(t, int64(11), resp.Errors[0].Offset)
		assert.Equal(t, "type", resp.Errors[1].Keyword)
		assert.Equal(t, "required", resp.Errors[2].Keyword)
	})
	t.Run("empty arguments are the empty object", func(t *testing.T) {
		resp, err := c.Validate(ctx, byHandle(``))
		require.NoError(t, err)
		assert.Equal(t, "required", resp.Errors[0].Keyword)
	})
	t.Run("arguments struct", func(t *testing.T) {
		st, err := structpb.NewStruct(map[string]any{"action": "list"})
		require.NoError(t, err)
		resp, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: compiled.Handle},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsStruct{ArgumentsStruct: st}})
		require.NoError(t, err)
		assert.True(t, resp.Valid)
	})
	t.Run("inline schema returns its handle", func(t *testing.T) {
		resp, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(todoSchema)},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{"action":"list"}`}})
		require.NoError(t, err)
		assert.True(t, resp.Valid)
		assert.Equal(t, compiled.Handle, resp.Handle)
	})
	t.Run("inline unsupported schema", func(t *testing.T) {
		resp, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: compileJSON(`{"type":"object","anyOf":[]}`)},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
		require.NoError(t, err)
		assert.False(t, resp.Valid)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, resp.Code)
		assert.Empty(t, resp.Handle)
	})
	t.Run("unknown handle is NOT_FOUND", func(t *testing.T) {
		_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: "tg1_" + strings.Repeat("0", 64)},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
		assert.Equal(t, codes.NotFound, code(err))
	})
	t.Run("malformed handle is INVALID_ARGUMENT", func(t *testing.T) {
		for _, h := range []string{"", "tg1_nope", "TG1_" + strings.Repeat("0", 64)} {
			_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: h},
				Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
			assert.Equal(t, codes.InvalidArgument, code(err), "handle %q", h)
		}
	})
	t.Run("no schema is INVALID_ARGUMENT", func(t *testing.T) {
		_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
		assert.Equal(t, codes.InvalidArgument, code(err))
	})
	t.Run("no arguments is INVALID_ARGUMENT", func(t *testing.T) {
		_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: compiled.Handle}})
		assert.Equal(t, codes.InvalidArgument, code(err))
	})
	t.Run("inline with unknown profile is INVALID_ARGUMENT", func(t *testing.T) {
		inline := compileJSON(todoSchema)
		inline.Profile = 9
		_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: inline},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
		assert.Equal(t, codes.InvalidArgument, code(err))
		assert.Contains(t, status.Convert(err).Message(), "profile 9")
	})
}

func TestLimitsAndAuth(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	t.Run("oversized message is RESOURCE_EXHAUSTED", func(t *testing.T) {
		c := client(t, server.Config{MaxMessageBytes: 1024})
		_, err := c.CompileSchema(ctx, compileJSON(`{"type":"object","description":"`+strings.Repeat("x", 2048)+`"}`))
		assert.Equal(t, codes.ResourceExhausted, code(err))
	})
	t.Run("arguments nested past MaxDepth are a json finding", func(t *testing.T) {
		c := client(t, server.Config{Options: server.Options{MaxDepth: 3}})
		validate := func(args string) *toolgatev1.ValidateResponse {
			inline := compileJSON(`{}`)
			inline.Profile = toolgatev1.Profile_PROFILE_JSON_SCHEMA
			resp, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Inline{Inline: inline},
				Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: args}})
			require.NoError(t, err)
			return resp
		}
		assert.True(t, validate(`{"a":{"b":[1]}}`).GetValid(), "3 levels are within the limit")
		past := validate(`{"a":{"b":[{}]}}`)
		require.False(t, past.GetValid())
		require.NotEmpty(t, past.GetErrors())
		assert.Equal(t, "json", past.GetErrors()[0].GetKeyword())
		assert.Contains(t, past.GetErrors()[0].GetMessage(), "limit of 3")
	})
	t.Run("bearer token", func(t *testing.T) {
		conn := start(t, server.Config{BearerToken: "s3cret"})
		c := toolgatev1.NewValidationServiceClient(conn)
		_, err := c.CompileSchema(ctx, compileJSON(todoSchema))
		assert.Equal(t, codes.Unauthenticated, code(err))
		bad := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer nope")
		_, err = c.CompileSchema(bad, compileJSON(todoSchema))
		assert.Equal(t, codes.Unauthenticated, code(err))
		good := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer s3cret")
		_, err = c.CompileSchema(good, compileJSON(todoSchema))
		assert.NoError(t, err)
		lower := metadata.AppendToOutgoingContext(ctx, "authorization", "bearer s3cret")
		_, err = c.CompileSchema(lower, compileJSON(todoSchema))
		assert.NoError(t, err, "the scheme name is case-insensitive")
		twice := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer wrong", "authorization", "Bearer s3cret")
		_, err = c.CompileSchema(twice, compileJSON(todoSchema))
		assert.Equal(t, codes.Unauthenticated, code(err), "one request may not try several tokens")
		stream, err := c.ValidateStream(ctx)
		require.NoError(t, err)
		_, err = stream.Recv()
		assert.Equal(t, codes.Unauthenticated, code(err))
		hc := healthpb.NewHealthClient(conn)
		resp, err := hc.Check(ctx, &healthpb.HealthCheckRequest{})
		require.NoError(t, err, "health checks need no token")
		assert.Equal(t, healthpb.HealthCheckResponse_SERVING, resp.Status)
	})
	t.Run("an error quotes the request cut", func(t *testing.T) {
		c, s := openStream(t, server.Config{Options: server.Options{MaxFindingMessage: 200}})
		huge := strings.Repeat("\x01", 3<<20)
		_, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: huge},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: `{}`}})
		assert.Equal(t, codes.InvalidArgument, code(err))
		assert.Less(t, len(status.Convert(err).Message()), 300, "a status message is cut at MaxFindingMessage")
		assert.Contains(t, status.Convert(err).Message(), "more bytes)")
		send(t, s, delta(huge, "{}"))
		_, err = s.Recv()
		assert.Equal(t, codes.InvalidArgument, code(err))
		assert.Less(t, len(status.Convert(err).Message()), 300)
	})
	t.Run("a panic is INTERNAL", func(t *testing.T) {
		conn := start(t, server.Config{})
		err := conn.Invoke(ctx, "/toolgate.test.Panic/Boom", &emptypb.Empty{}, &emptypb.Empty{})
		assert.Equal(t, codes.Internal, code(err))
	})
	t.Run("health is SERVING for the service", func(t *testing.T) {
		hc := healthpb.NewHealthClient(start(t, server.Config{}))
		resp, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: "toolgate.v1.ValidationService"})
		require.NoError(t, err)
		assert.Equal(t, healthpb.HealthCheckResponse_SERVING, resp.Status)
	})
}

func TestOutputBindableProfile(t *testing.T) {
	t.Parallel()
	c := client(t, server.Config{})
	ctx := t.Context()
	src := `{"type":"object","required":["order_id","urgency"],"properties":{
		"order_id":{"type":["string","null"],"description":"or null if missing"},
		"urgency":{"type":"string","enum":["low","normal","high"]},
		"date":{"type":"string","format":"date"}}}`
	out, err := c.CompileSchema(ctx, &toolgatev1.CompileSchemaRequest{Profile: toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE,
		Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: src}})
	require.NoError(t, err)
	require.NotEmpty(t, out.Handle)
	assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED, out.Code)
	require.Len(t, out.Warnings, 1, "format is accepted but not enforced")
	assert.Equal(t, "/properties/date/format", out.Warnings[0].SchemaPath)
	assert.Equal(t, "format", out.Warnings[0].Keyword)

	in, err := c.CompileSchema(ctx, compileJSON(src))
	require.NoError(t, err)
	assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, in.Code, "the tool input profile refuses null types and format")

	validate := func(args string) *toolgatev1.ValidateResponse {
		resp, err := c.Validate(ctx, &toolgatev1.ValidateRequest{Schema: &toolgatev1.ValidateRequest_Handle{Handle: out.Handle},
			Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: args}})
		require.NoError(t, err)
		return resp
	}
	assert.True(t, validate(`{"order_id":null,"urgency":"low","date":"tomorrow"}`).Valid)
	missing := validate(`{"urgency":"low"}`)
	require.Len(t, missing.Errors, 1)
	assert.Equal(t, "required", missing.Errors[0].Keyword)
	assert.Equal(t, `The output object is missing the required property "order_id".`, missing.Errors[0].Message)

	nested, err := c.CompileSchema(ctx, &toolgatev1.CompileSchemaRequest{Profile: toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE,
		Schema: &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: `{"type":"object","properties":{"address":{"type":"object","properties":{"city":{"type":"string"}}}}}`}})
	require.NoError(t, err)
	assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, nested.Code)
	assert.Contains(t, nested.Errors[0].Message, "flatten")
}
