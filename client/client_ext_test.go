package client_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/toolgate/toolgate/client"
	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/server"
)

func TestCompile(t *testing.T) {
	t.Parallel()
	r := newReplica(t, server.Config{})
	c := dialReplica(t, r)

	t.Run("ok", func(t *testing.T) {
		t.Parallel()
		resp, err := c.Compile(t.Context(), weatherSchema)
		require.NoError(t, err)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED, resp.GetCode())
		assert.Empty(t, resp.GetErrors())
		assert.True(t, strings.HasPrefix(resp.GetHandle(), "tg1_"), "handle %q", resp.GetHandle())
	})
	t.Run("same schema respelled, same handle", func(t *testing.T) {
		t.Parallel()
		a, err := c.Compile(t.Context(), weatherSchema)
		require.NoError(t, err)
		b, err := c.Compile(t.Context(), weatherSchemaRespelled)
		require.NoError(t, err)
		require.NotEmpty(t, a.GetHandle())
		assert.Equal(t, a.GetHandle(), b.GetHandle())
	})
	t.Run("unsupported schema is answered in-band", func(t *testing.T) {
		t.Parallel()
		resp, err := c.Compile(t.Context(), patternSchema)
		require.NoError(t, err)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, resp.GetCode())
		assert.Empty(t, resp.GetHandle())
		require.Len(t, resp.GetErrors(), 1)
		assert.Equal(t, "pattern", resp.GetErrors()[0].GetKeyword())
		assert.Equal(t, "/properties/q/pattern", resp.GetErrors()[0].GetSchemaPath())
	})
	t.Run("malformed schema is answered in-band", func(t *testing.T) {
		t.Parallel()
		resp, err := c.Compile(t.Context(), `{"type":"object","properties":{"q":{"type":5}}}`)
		require.NoError(t, err)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, resp.GetCode())
		assert.Empty(t, resp.GetHandle())
	})
	t.Run("unknown profile fails the call", func(t *testing.T) {
		t.Parallel()
		_, err := c.Compile(t.Context(), weatherSchema, client.WithProfile(toolgatev1.Profile(99)))
		assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
	})
}

func TestWithProfile(t *testing.T) {
	t.Parallel()
	r := newReplica(t, server.Config{})
	var rec recorder
	c := dialReplica(t, r, client.WithDialOptions(rec.option()))

	_, err := c.Compile(t.Context(), weatherSchema)
	require.NoError(t, err)
	_, err = c.Compile(t.Context(), weatherSchema, client.WithProfile(toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE))
	require.NoError(t, err)
	_, _, err = c.Validator().Register(t.Context(), weatherSchema, client.WithProfile(toolgatev1.Profile_PROFILE_TOOL_INPUT))
	require.NoError(t, err)
	assert.Equal(t, []toolgatev1.Profile{
		toolgatev1.Profile_PROFILE_UNSPECIFIED, // the default: tool input
		toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE,
		toolgatev1.Profile_PROFILE_TOOL_INPUT,
	}, rec.profiles)
}

// TestJSONSchemaOptions checks WithResources and WithFormatAssertion: they
// reach the server in Compile, Validator.Register, Validator.ValidateSchema
// and CompileTools, and a Validator that recompiles on a replica without
// the handle sends them again.
func TestJSONSchemaOptions(t *testing.T) {
	t.Parallel()
	const ref = `{"type":"object","properties":{"port":{"$ref":"https://example.com/port.json"}}}`
	port := client.WithResources(map[string]string{"https://example.com/port.json": `{"type":"integer","maximum":65535}`})
	full := client.WithProfile(toolgatev1.Profile_PROFILE_JSON_SCHEMA)
	a, b := newReplica(t, server.Config{}), newReplica(t, server.Config{})

	t.Run("Compile", func(t *testing.T) {
		t.Parallel()
		c := dialReplica(t, a)
		resp, err := c.Compile(t.Context(), ref, full, port)
		require.NoError(t, err)
		assert.NotEmpty(t, resp.GetHandle(), "%v", resp.GetErrors())
		missing, err := c.Compile(t.Context(), ref, full)
		require.NoError(t, err)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, missing.GetCode(), "without the document")
		unknown, err := c.Compile(t.Context(), `{"type":"object","properties":{"d":{"format":"x-unknown"}}}`, full, client.WithFormatAssertion())
		require.NoError(t, err)
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY, unknown.GetCode(), "format assertion on")
		_, err = c.Compile(t.Context(), weatherSchema, client.WithFormatAssertion())
		assert.Equal(t, codes.InvalidArgument, status.Code(err), "only the JSON Schema profile takes it")
	})
	t.Run("a Validator re-sends them to a replica without the handle", func(t *testing.T) {
		t.Parallel()
		sw := &switchConn{}
		sw.route(connTo(t, a))
		v := client.New(sw).Validator()
		handle, _, err := v.Register(t.Context(), ref, full, port)
		require.NoError(t, err)
		sw.route(connTo(t, b))
		resp, err := v.Validate(t.Context(), handle, `{"port":70000}`)
		require.NoError(t, err)
		assert.Equal(t, handle, resp.GetHandle(), "the same schema, documents included")
		require.Len(t, resp.GetErrors(), 1)
		assert.Equal(t, "maximum", resp.GetErrors()[0].GetKeyword())
		again, err := v.ValidateSchema(t.Context(), ref, `{"port":1}`, full, port)
		require.NoError(t, err)
		assert.True(t, again.GetValid())
	})
	t.Run("CompileTools", func(t *testing.T) {
		t.Parallel()
		resp, err := dialReplica(t, a).CompileTools(t.Context(), []client.ToolSchema{{Name: "listen", SchemaJSON: ref}}, full, port)
		require.NoError(t, err)
		assert.Equal(t, []string{"listen"}, sortedKeys(resp.GetBind()))
	})
}

// TestWithAdmission checks that WithAdmission reaches CompileToolset and
// CompileTools: under ADMISSION_STRICT one tool that does not compile
// leaves nothing bound, while the default binds what compiled.
func TestWithAdmission(t *testing.T) {
	t.Parallel()
	c := dialReplica(t, newReplica(t, server.Config{}))
	tools := []client.ToolSchema{{Name: "weather", SchemaJSON: weatherSchema}, {Name: "grep", SchemaJSON: patternSchema}}
	toolsList := `{"tools":[{"name":"weather","inputSchema":` + weatherSchema + `},{"name":"grep","inputSchema":` + patternSchema + `}]}`
	strict := client.WithAdmission(toolgatev1.Admission_ADMISSION_STRICT)
	for name, compile := range map[string]func(...client.CompileOption) (*toolgatev1.CompileToolsetResponse, error){
		"CompileTools": func(opts ...client.CompileOption) (*toolgatev1.CompileToolsetResponse, error) {
			return c.CompileTools(t.Context(), tools, opts...)
		},
		"CompileToolset": func(opts ...client.CompileOption) (*toolgatev1.CompileToolsetResponse, error) {
			return c.CompileToolset(t.Context(), toolsList, opts...)
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			quarantine, err := compile()
			require.NoError(t, err)
			assert.True(t, quarantine.GetAdmitted())
			assert.Equal(t, []string{"weather"}, sortedKeys(client.NewToolset(quarantine).Bind()))

			resp, err := compile(strict)
			require.NoError(t, err)
			assert.False(t, resp.GetAdmitted())
			assert.Empty(t, resp.GetBind())
			assert.Empty(t, client.NewToolset(resp).Bind())
			assert.Len(t, client.NewToolset(resp).Refused(), 2)
			assert.Equal(t, quarantine.GetTools()[0].GetHandle(), resp.GetTools()[0].GetHandle(), "the compiled tool still reports its handle")

			_, err = compile(client.WithAdmission(toolgatev1.Admission(9)))
			assert.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	r := newReplica(t, server.Config{})
	c := dialReplica(t, r)
	compiled, err := c.Compile(t.Context(), weatherSchema)
	require.NoError(t, err)
	handle := compiled.GetHandle()
	require.NotEmpty(t, handle)

	t.Run("valid", func(t *testing.T) {
		t.Parallel()
		resp, err := c.Validate(t.Context(), handle, `{"city":"Oslo","days":3}`)
		require.NoError(t, err)
		assert.True(t, resp.GetValid())
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED, resp.GetCode())
		assert.Empty(t, resp.GetErrors())
		assert.Equal(t, handle, resp.GetHandle())
	})
	t.Run("violation is answered in-band", func(t *testing.T) {
		t.Parallel()
		resp, err := c.Validate(t.Context(), handle, `{"city":"Oslo","days":0}`)
		require.NoError(t, err)
		assert.False(t, resp.GetValid())
		assert.Equal(t, toolgatev1.ErrorCode_ERROR_CODE_VALIDATION, resp.GetCode())
		require.Len(t, resp.GetErrors(), 1)
		assert.Equal(t, "minimum", resp.GetErrors()[0].GetKeyword())
		assert.Equal(t, "/days", resp.GetErrors()[0].GetInstancePath())
		assert.NotEmpty(t, resp.GetErrors()[0].GetMessage())
	})
	t.Run("every violation is listed", func(t *testing.T) {
		t.Parallel()
		resp, err := c.Validate(t.Context(), handle, `{"days":"3","units":"C"}`)
		require.NoError(t, err)
		assert.False(t, resp.GetValid())
		var keywords []string
		for _, e := range resp.GetErrors() {
			keywords = append(keywords, e.GetKeyword())
		}
		assert.ElementsMatch(t, []string{"required", "type", "additionalProperties"}, keywords)
	})
	t.Run("empty arguments are the empty object", func(t *testing.T) {
		t.Parallel()
		resp, err := c.Validate(t.Context(), handle, "")
		require.NoError(t, err)
		assert.False(t, resp.GetValid())
		require.NotEmpty(t, resp.GetErrors())
		assert.Equal(t, "required", resp.GetErrors()[0].GetKeyword())
	})
	t.Run("unknown handle is NotFound", func(t *testing.T) {
		t.Parallel()
		_, err := c.Validate(t.Context(), "tg1_"+strings.Repeat("0", 64), `{}`)
		assert.Equal(t, codes.NotFound, status.Code(err), "%v", err)
	})
}

func TestBearerToken(t *testing.T) {
	t.Parallel()
	r := newReplica(t, server.Config{BearerToken: "s3cret"})

	tests := []struct {
		name string
		opts []client.Option
		want codes.Code
	}{
		{name: "no token", want: codes.Unauthenticated},
		{name: "wrong token", opts: []client.Option{client.WithBearerToken("guess")}, want: codes.Unauthenticated},
		{name: "right token", opts: []client.Option{client.WithBearerToken("s3cret")}, want: codes.OK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := dialReplica(t, r, tt.opts...)
			resp, err := c.Compile(t.Context(), weatherSchema)
			require.Equal(t, tt.want, status.Code(err), "%v", err)
			if tt.want != codes.OK {
				return
			}
			v, err := c.Validate(t.Context(), resp.GetHandle(), `{"city":"Oslo"}`)
			require.NoError(t, err)
			assert.True(t, v.GetValid())
		})
	}
	t.Run("empty token is a Dial error", func(t *testing.T) {
		t.Parallel()
		c, err := client.Dial("passthrough:///bufnet", client.WithInsecure(), client.WithBearerToken(""))
		assert.Error(t, err)
		assert.Nil(t, c)
	})
}

func TestTransport(t *testing.T) {
	t.Parallel()
	plain := newReplica(t, server.Config{})
	cert, roots := selfSigned(t, "toolgate.test")
	tlsReplica := newReplica(t, server.Config{
		BearerToken:   "s3cret",
		ServerOptions: []grpc.ServerOption{grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}}))},
	})
	trusted := &tls.Config{RootCAs: roots, ServerName: "toolgate.test"}

	tests := []struct {
		name string
		r    *replica
		opts []client.Option
		ok   bool
	}{
		{name: "default is TLS, so a plaintext server fails", r: plain},
		{name: "WithInsecure reaches a plaintext server", r: plain, opts: []client.Option{client.WithInsecure()}, ok: true},
		{name: "last of WithInsecure and WithTLS wins: insecure", r: plain, opts: []client.Option{client.WithTLS(trusted), client.WithInsecure()}, ok: true},
		{name: "default TLS does not trust a private CA", r: tlsReplica, opts: []client.Option{client.WithBearerToken("s3cret")}},
		{name: "WithTLS with the CA and a token", r: tlsReplica, opts: []client.Option{client.WithTLS(trusted), client.WithBearerToken("s3cret")}, ok: true},
		{name: "last of WithInsecure and WithTLS wins: TLS", r: tlsReplica, opts: []client.Option{client.WithInsecure(), client.WithTLS(trusted), client.WithBearerToken("s3cret")}, ok: true},
		{name: "WithInsecure cannot reach a TLS server", r: tlsReplica, opts: []client.Option{client.WithInsecure(), client.WithBearerToken("s3cret")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := append([]client.Option{client.WithDialOptions(tt.r.dialOption())}, tt.opts...)
			c, err := client.Dial("passthrough:///bufnet", opts...)
			require.NoError(t, err)
			t.Cleanup(func() { _ = c.Close() })
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			resp, err := c.Compile(ctx, weatherSchema)
			if !tt.ok {
				assert.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
				return
			}
			require.NoError(t, err)
			assert.NotEmpty(t, resp.GetHandle())
		})
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	r := newReplica(t, server.Config{})
	conn := connTo(t, r)
	c := client.New(conn)

	resp, err := c.Compile(t.Context(), weatherSchema)
	require.NoError(t, err)
	require.NoError(t, c.Close(), "Close of a Client made by New")
	_, err = c.Validate(t.Context(), resp.GetHandle(), `{"city":"Oslo"}`)
	assert.NoError(t, err, "Close must leave the caller's connection open")

	assert.Panics(t, func() { client.New(nil) })
}

func TestClose(t *testing.T) {
	t.Parallel()
	r := newReplica(t, server.Config{})
	c, err := client.Dial("passthrough:///bufnet", client.WithInsecure(), client.WithDialOptions(r.dialOption()))
	require.NoError(t, err)
	_, err = c.Compile(t.Context(), weatherSchema)
	require.NoError(t, err)
	require.NoError(t, c.Close())
	_, err = c.Compile(t.Context(), weatherSchema)
	assert.Equal(t, codes.Canceled, status.Code(err), "%v", err)
	assert.Error(t, c.Close(), "second Close")
}

func TestServiceClient(t *testing.T) {
	t.Parallel()
	r := newReplica(t, server.Config{})
	c := dialReplica(t, r)
	compiled, err := c.Compile(t.Context(), weatherSchema)
	require.NoError(t, err)

	// ValidateStream is not wrapped; the generated stub serves it.
	stream, err := c.ServiceClient().ValidateStream(t.Context())
	require.NoError(t, err)
	for _, ev := range []*toolgatev1.ValidateStreamRequest{
		{Event: &toolgatev1.ValidateStreamRequest_Start{Start: &toolgatev1.CallStart{CallId: "c1", Handle: compiled.GetHandle()}}},
		{Event: &toolgatev1.ValidateStreamRequest_Delta{Delta: &toolgatev1.CallDelta{CallId: "c1", Fragment: `{"city":"Os`}}},
		{Event: &toolgatev1.ValidateStreamRequest_Delta{Delta: &toolgatev1.CallDelta{CallId: "c1", Fragment: `lo"}`}}},
		{Event: &toolgatev1.ValidateStreamRequest_End{End: &toolgatev1.CallEnd{CallId: "c1"}}},
	} {
		require.NoError(t, stream.Send(ev))
	}
	require.NoError(t, stream.CloseSend())
	got, err := stream.Recv()
	require.NoError(t, err)
	assert.Equal(t, "c1", got.GetResult().GetCallId())
	assert.True(t, got.GetResult().GetValid())
}

// selfSigned returns a certificate for name and a pool that trusts it.
func selfSigned(t *testing.T, name string) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		DNSNames:              []string{name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	leaf, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
