package client

import (
	"context"
	"crypto/tls"
	"maps"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
)

// An Option configures Dial.
type Option interface {
	applyToDial(*dialConfig)
}

// A CompileOption configures how a schema is compiled: by Client.Compile,
// Validator.Register, Validator.ValidateSchema, Client.CompileToolset and
// Client.CompileTools (which compile every tool with the same options).
type CompileOption interface {
	applyToCompile(*compileConfig)
}

type transport int

const (
	transportTLS transport = iota
	transportInsecure
)

type dialConfig struct {
	transport transport
	tlsConfig *tls.Config
	bearer    *string
	extra     []grpc.DialOption
}

func (cfg *dialConfig) dialOptions() ([]grpc.DialOption, error) {
	var creds credentials.TransportCredentials
	if cfg.transport == transportInsecure {
		creds = insecure.NewCredentials()
	} else {
		tc := cfg.tlsConfig
		if tc == nil {
			tc = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		creds = credentials.NewTLS(tc) // clones tc
	}
	opts := []grpc.DialOption{grpc.WithTransportCredentials(creds)}
	if cfg.bearer != nil {
		if *cfg.bearer == "" {
			return nil, errEmptyToken
		}
		opts = append(opts, grpc.WithPerRPCCredentials(bearerToken(*cfg.bearer)))
	}
	return append(opts, cfg.extra...), nil
}

type compileConfig struct {
	profile         toolgatev1.Profile
	admission       toolgatev1.Admission
	resources       map[string]string
	formatAssertion bool
}

// newCompileConfig applies opts, in order, to the defaults.
func newCompileConfig(opts []CompileOption) compileConfig {
	var cfg compileConfig
	for _, o := range opts {
		o.applyToCompile(&cfg)
	}
	return cfg
}

type dialOptionFunc func(*dialConfig)

func (f dialOptionFunc) applyToDial(cfg *dialConfig) { f(cfg) }

type compileOptionFunc func(*compileConfig)

func (f compileOptionFunc) applyToCompile(cfg *compileConfig) { f(cfg) }

// WithInsecure makes Dial use a plaintext connection (no TLS), as a local
// toolgate on 127.0.0.1:50051 listens by default. Without it Dial uses
// TLS (see WithTLS). Of WithInsecure and WithTLS, the last one given wins.
func WithInsecure() Option {
	return dialOptionFunc(func(cfg *dialConfig) {
		cfg.transport = transportInsecure
		cfg.tlsConfig = nil
	})
}

// WithTLS makes Dial use TLS configured by config, for example with a
// private RootCAs pool or a client certificate for mTLS. config is cloned
// when Dial runs; a nil config means the default: TLS 1.2 or later,
// verified against the host's root certificates, with the server name taken
// from the target. Of WithInsecure and WithTLS, the last one given wins.
func WithTLS(config *tls.Config) Option {
	return dialOptionFunc(func(cfg *dialConfig) {
		cfg.transport = transportTLS
		cfg.tlsConfig = config
	})
}

// WithBearerToken sends "authorization: Bearer <token>" metadata with every
// RPC, as a server started with a bearer token requires (it answers
// codes.Unauthenticated otherwise). By default no token is sent.
//
// The token is sent on plaintext connections too (WithInsecure), where
// anyone on the path can read it: use it without TLS only on a loopback or
// otherwise trusted network. Dial returns an error if token is empty.
func WithBearerToken(token string) Option {
	return dialOptionFunc(func(cfg *dialConfig) {
		cfg.bearer = &token
	})
}

// WithDialOptions appends grpc.DialOptions to those Dial derives from the
// other options (transport credentials first, then the bearer token), for
// interceptors, keepalive, a load-balancing service config, a custom
// dialer and the like. They are applied after the derived ones, so a
// grpc.WithTransportCredentials given here replaces the transport that
// WithInsecure or WithTLS chose. Repeated uses accumulate. Default: none.
func WithDialOptions(opts ...grpc.DialOption) Option {
	return dialOptionFunc(func(cfg *dialConfig) {
		cfg.extra = append(cfg.extra, opts...)
	})
}

// WithProfile compiles the schema with profile p. The default,
// toolgatev1.Profile_PROFILE_UNSPECIFIED, is the tool input profile (the
// same as toolgatev1.Profile_PROFILE_TOOL_INPUT); use
// toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE for structured-output schemas
// and toolgatev1.Profile_PROFILE_JSON_SCHEMA for full JSON Schema (see
// WithResources and WithFormatAssertion). A value the server does not know
// makes the call fail with codes.InvalidArgument.
func WithProfile(p toolgatev1.Profile) CompileOption {
	return compileOptionFunc(func(cfg *compileConfig) {
		cfg.profile = p
	})
}

// WithAdmission sets what Client.CompileToolset and Client.CompileTools
// bind when some tools cannot be enforced (other calls ignore it). The
// default, toolgatev1.Admission_ADMISSION_UNSPECIFIED, is
// ADMISSION_QUARANTINE: every tool that compiled is bound and the others
// are reported. With ADMISSION_STRICT nothing is bound unless every tool
// compiled: the response's bind map is then empty and its admitted false,
// though each compiled tool still reports its handle. A value the server
// does not know makes the call fail with codes.InvalidArgument.
func WithAdmission(a toolgatev1.Admission) CompileOption {
	return compileOptionFunc(func(cfg *compileConfig) {
		cfg.admission = a
	})
}

// WithResources supplies documents that a PROFILE_JSON_SCHEMA schema may
// refer to, from absolute URI (as $ref or $schema names them, without a
// fragment) to the document's JSON text; the server never fetches anything
// over the network. Documents the schema never refers to are not compiled
// and do not change the handle. The other profiles refuse them with
// codes.InvalidArgument. Repeated uses add to the map (a URI given again
// takes the later document); the map is copied. Default: none.
func WithResources(resources map[string]string) CompileOption {
	return compileOptionFunc(func(cfg *compileConfig) {
		if cfg.resources == nil {
			cfg.resources = make(map[string]string, len(resources))
		}
		maps.Copy(cfg.resources, resources)
	})
}

// WithFormatAssertion makes a PROFILE_JSON_SCHEMA schema assert "format"
// for the standard formats (an unknown format is then
// ERROR_CODE_UNSUPPORTED_CAPABILITY) instead of treating it as an
// annotation; it is part of the handle. The other profiles refuse it with
// codes.InvalidArgument. Default: off.
func WithFormatAssertion() CompileOption {
	return compileOptionFunc(func(cfg *compileConfig) {
		cfg.formatAssertion = true
	})
}

// bearerToken is per-RPC credentials carrying a bearer token.
type bearerToken string

// GetRequestMetadata implements credentials.PerRPCCredentials.
func (t bearerToken) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(t)}, nil
}

// RequireTransportSecurity is false so that the token also works over a
// plaintext connection to a local server; WithBearerToken documents the risk.
func (bearerToken) RequireTransportSecurity() bool { return false }
