// Package client is the Go client for toolgate's ValidationService: it
// compiles tool schemas into handles and validates tool-call arguments
// against them over gRPC. Its Validator remembers the schemas it registered,
// so that a replica which has never seen a handle (or has restarted or
// evicted it) gets the schema again transparently.
//
// Usage:
//
//	c, err := client.Dial("toolgate.internal:50051", client.WithBearerToken(token))
//	if err != nil {
//		return err
//	}
//	defer c.Close()
//	v := c.Validator()
//	handle, _, err := v.Register(ctx, `{"type":"object","properties":{"city":{"type":"string"}}}`)
//	if err != nil {
//		return err
//	}
//	resp, err := v.Validate(ctx, handle, `{"city":"Oslo"}`)
//	if err != nil {
//		return err // the call itself failed: see status.Code(err)
//	}
//	if !resp.GetValid() {
//		// resp.GetErrors()[i].GetMessage() is fit to hand back to the model.
//	}
//
// Schema and argument problems are answers, not errors: they arrive in-band
// in the response's code and errors. Errors returned by this package are
// gRPC status errors (inspect them with status.Code) unless documented
// otherwise.
// Client.ValidateProviderStream validates the tool calls of a provider's live SSE stream as they arrive, and Client.ValidateOutputStream its structured-output answer.
// Client.CompileToolset compiles an MCP tools/list result tool by tool, and NewToolset turns the answer into the tools map of ValidateProviderStream, leaving out (and listing, with every finding) the tools that cannot be enforced.
package client

import (
	"context"
	"errors"

	"google.golang.org/grpc"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
)

// Client calls one toolgate ValidationService. It is a thin layer over the
// generated stub: each method is one RPC and returns the proto response as
// is. A Client is safe for concurrent use.
type Client struct {
	conn *grpc.ClientConn // owned connection, closed by Close; nil after New
	api  toolgatev1.ValidationServiceClient
}

// Dial returns a Client for target, which is any grpc.NewClient target
// ("host:port", "dns:///toolgate.svc:50051", ...). Dial does not connect:
// the connection is made on the first RPC, and a connection failure is
// reported as that RPC's error (codes.Unavailable).
//
// By default the connection uses TLS with the host's root certificates and
// sends no credentials; see WithInsecure, WithTLS, WithBearerToken and
// WithDialOptions. Dial returns an error if an option is invalid (for
// example an empty bearer token) or grpc.NewClient rejects the target.
// Close the Client to release the connection.
func Dial(target string, opts ...Option) (*Client, error) {
	cfg := dialConfig{transport: transportTLS}
	for _, o := range opts {
		o.applyToDial(&cfg)
	}
	dialOpts, err := cfg.dialOptions()
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(target, dialOpts...)
	if err != nil {
		return nil, err
	}
	return &Client{conn: conn, api: toolgatev1.NewValidationServiceClient(conn)}, nil
}

// New returns a Client that makes its calls on conn, for callers that build
// and own their connection (custom credentials, interceptors, bufconn in
// tests, a *grpc.ClientConn shared with other services). Close on such a
// Client does nothing: the caller closes conn. New panics if conn is nil.
func New(conn grpc.ClientConnInterface) *Client {
	if conn == nil {
		panic("client.New: nil connection")
	}
	return &Client{api: toolgatev1.NewValidationServiceClient(conn)}
}

// Close closes the connection that Dial opened; RPCs in flight fail with
// codes.Canceled. For a Client made by New it does nothing and returns nil.
// Close may be called more than once; later calls return the error grpc
// gives for closing a closed connection.
func (c *Client) Close() error {
	if c.conn == nil {
		return nil
	}
	return c.conn.Close()
}

// ServiceClient returns the generated stub the Client calls, for what this
// package does not wrap (ValidateStream, Struct-typed fields, call options).
func (c *Client) ServiceClient() toolgatev1.ValidationServiceClient {
	return c.api
}

// Compile compiles schemaJSON (one JSON Schema document, as text) with the
// CompileSchema RPC. The profile is tool input unless WithProfile says
// otherwise.
//
// A schema that does not compile is not an error: the response then has no
// handle, its code is ERROR_CODE_UNSUPPORTED_CAPABILITY or
// ERROR_CODE_VALIDATION, and its errors list every finding. The error
// return is for the call itself (codes.Unauthenticated, codes.Unavailable,
// codes.InvalidArgument for an unknown profile, ...).
func (c *Client) Compile(ctx context.Context, schemaJSON string, opts ...CompileOption) (*toolgatev1.CompileSchemaResponse, error) {
	return c.api.CompileSchema(ctx, compileRequest(schemaJSON, opts))
}

// Validate validates argumentsJSON (the tool call's arguments, one JSON
// object as text; "" means {}) against the schema the server holds under
// handle, with the Validate RPC.
//
// Invalid arguments are not an error: the response's Valid is false, its
// code is ERROR_CODE_VALIDATION, and its errors list every violation. The
// error return is for the call itself; a server that does not hold handle
// answers codes.NotFound. Validate does not retry: use a Validator to have
// the schema sent again to such a server.
func (c *Client) Validate(ctx context.Context, handle, argumentsJSON string) (*toolgatev1.ValidateResponse, error) {
	return c.api.Validate(ctx, &toolgatev1.ValidateRequest{
		Schema:    &toolgatev1.ValidateRequest_Handle{Handle: handle},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: argumentsJSON},
	})
}

// validateInline compiles the schema and validates the arguments in one
// Validate RPC; the server keeps the compiled schema and returns its handle.
func (c *Client) validateInline(ctx context.Context, schema *toolgatev1.CompileSchemaRequest, argumentsJSON string) (*toolgatev1.ValidateResponse, error) {
	return c.api.Validate(ctx, &toolgatev1.ValidateRequest{
		Schema:    &toolgatev1.ValidateRequest_Inline{Inline: schema},
		Arguments: &toolgatev1.ValidateRequest_ArgumentsJson{ArgumentsJson: argumentsJSON},
	})
}

func compileRequest(schemaJSON string, opts []CompileOption) *toolgatev1.CompileSchemaRequest {
	return keyOf(schemaJSON, newCompileConfig(opts)).request()
}

// errEmptyToken is returned by Dial for WithBearerToken("").
var errEmptyToken = errors.New("client: WithBearerToken: the token is empty")
