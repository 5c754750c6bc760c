package client

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
)

// A Validator validates arguments by handle and remembers, for every handle
// it registered, the schema behind it. Handles are content addresses that
// every replica computes alike, so replicas share no state (DESIGN.md §5):
// when the server answers a Validate with codes.NotFound (a replica that
// never saw the schema, restarted, or evicted it), the Validator sends the
// remembered schema along with the arguments and retries once.
//
// A Validator keeps every schema given to Register or ValidateSchema until
// Forget (memory grows with the number of distinct schemas, not calls); it
// is safe for concurrent use. Create one with Client.Validator; the zero value
// is not usable.
type Validator struct {
	c        *Client
	mu       sync.RWMutex
	byHandle map[string]schemaKey // handle -> schema behind it
	bySchema map[schemaKey]string // schema -> handle, for ValidateSchema
	// forgets counts the calls of Forget: a call that sends a schema
	// inline remembers the answer only if none came while it was in
	// flight, so that it cannot undo one.
	forgets uint64
}

// schemaKey is a schema as registered: its exact text and how it is
// compiled (profile, format assertion, extra documents).
type schemaKey struct {
	profile         toolgatev1.Profile
	json            string
	formatAssertion bool
	resources       string // the extra documents, see packResources; "" for none
}

// keyOf returns the key of schemaJSON compiled as cfg says.
func keyOf(schemaJSON string, cfg compileConfig) schemaKey {
	return schemaKey{profile: cfg.profile, json: schemaJSON, formatAssertion: cfg.formatAssertion, resources: packResources(cfg.resources)}
}

// packResources writes documents, URI to text, as one comparable string:
// each URI in order and its text, each preceded by its length. The bytes
// are kept as they are (as json.Marshal would not keep invalid UTF-8: the
// server would have compiled a document the caller never wrote).
func packResources(documents map[string]string) string {
	var b []byte
	for _, uri := range slices.Sorted(maps.Keys(documents)) {
		for _, part := range []string{uri, documents[uri]} {
			b = append(strconv.AppendInt(b, int64(len(part)), 10), ':')
			b = append(b, part...)
		}
	}
	return string(b)
}

// unpackResources reads what packResources wrote.
func unpackResources(packed string) map[string]string {
	if packed == "" {
		return nil
	}
	documents := map[string]string{}
	next := func() string {
		n, rest, _ := strings.Cut(packed, ":")
		size, _ := strconv.Atoi(n)
		part := rest[:size]
		packed = rest[size:]
		return part
	}
	for packed != "" {
		uri := next()
		documents[uri] = next()
	}
	return documents
}

// request returns the CompileSchemaRequest that compiles the key's schema.
func (k schemaKey) request() *toolgatev1.CompileSchemaRequest {
	req := &toolgatev1.CompileSchemaRequest{
		Profile:         k.profile,
		Schema:          &toolgatev1.CompileSchemaRequest_SchemaJson{SchemaJson: k.json},
		FormatAssertion: k.formatAssertion,
	}
	req.Resources = unpackResources(k.resources)
	return req
}

// Validator returns a new Validator that calls the server through c and
// starts with no schemas remembered. Validators made from the same Client
// share its connection but not their memory of schemas.
func (c *Client) Validator() *Validator {
	return &Validator{c: c, byHandle: map[string]schemaKey{}, bySchema: map[schemaKey]string{}}
}

// Register compiles schemaJSON with the CompileSchema RPC (tool input
// profile unless WithProfile says otherwise), remembers the schema under
// the handle the server returns, and returns that handle together with the
// server's response (warnings included).
//
// If the server does not compile the schema, Register returns an empty
// handle, the response with every finding, and a *SchemaError. If the call
// itself fails it returns the gRPC status error and a nil response.
// Registering a schema again compiles it again on the server; it is
// harmless.
func (v *Validator) Register(ctx context.Context, schemaJSON string, opts ...CompileOption) (string, *toolgatev1.CompileSchemaResponse, error) {
	key := keyOf(schemaJSON, newCompileConfig(opts))
	resp, err := v.c.api.CompileSchema(ctx, key.request())
	if err != nil {
		return "", nil, err
	}
	if resp.GetHandle() == "" || resp.GetCode() != toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED {
		return "", resp, &SchemaError{Response: resp}
	}
	v.mu.Lock()
	v.byHandle[resp.GetHandle()] = key
	v.bySchema[key] = resp.GetHandle()
	v.mu.Unlock()
	return resp.GetHandle(), resp, nil
}

// Validate validates argumentsJSON ("" means {}) against the schema held
// under handle, like Client.Validate. If the server answers
// codes.NotFound and handle was registered through this Validator, Validate
// sends the remembered schema inline with the arguments, so that the server
// compiles it, keeps it, and validates in the same call; it retries only
// once. The response's Handle is the one that server computed, which is
// handle unless the two run different handle versions.
//
// Invalid arguments are answered in-band, as by Client.Validate. A
// codes.NotFound for a handle this Validator never registered, and any
// other failed call, is returned as the gRPC status error it is.
func (v *Validator) Validate(ctx context.Context, handle, argumentsJSON string) (*toolgatev1.ValidateResponse, error) {
	resp, err := v.c.Validate(ctx, handle, argumentsJSON)
	if status.Code(err) != codes.NotFound {
		return resp, err
	}
	v.mu.RLock()
	key, ok := v.byHandle[handle]
	forgets := v.forgets
	v.mu.RUnlock()
	if !ok {
		return nil, err
	}
	return v.validateInline(ctx, key, argumentsJSON, forgets)
}

// ValidateSchema validates argumentsJSON ("" means {}) against schemaJSON
// (tool input profile unless WithProfile says otherwise). The first call
// for a schema sends it inline, so the server compiles and validates in one
// RPC, and remembers the handle the server returns; later calls with the
// same schema text (byte for byte) and profile validate by that handle, as
// Validate does, recovering from codes.NotFound the same way.
//
// A schema the server does not compile is answered in-band: the response
// is not valid and carries the schema's code and findings (nothing is
// remembered then). The error return is for the call itself.
func (v *Validator) ValidateSchema(ctx context.Context, schemaJSON, argumentsJSON string, opts ...CompileOption) (*toolgatev1.ValidateResponse, error) {
	key := keyOf(schemaJSON, newCompileConfig(opts))
	v.mu.RLock()
	handle, ok := v.bySchema[key]
	forgets := v.forgets
	v.mu.RUnlock()
	if ok {
		resp, err := v.Validate(ctx, handle, argumentsJSON)
		if status.Code(err) != codes.NotFound {
			return resp, err
		}
		// Forget ran while the call was in flight, so Validate had no
		// schema to send again: this call has it.
		v.mu.RLock()
		forgets = v.forgets
		v.mu.RUnlock()
	}
	return v.validateInline(ctx, key, argumentsJSON, forgets)
}

// Forget drops what the Validator remembers about handle; a later Validate
// by handle no longer recovers from codes.NotFound. It does not touch any
// server. Forgetting an unknown handle does nothing.
//
// Forget wins over the calls in flight: a Validate recovering from
// codes.NotFound, or a ValidateSchema sending its schema inline, when
// Forget is called still returns its answer but remembers nothing of it,
// whichever handle it was for (a later ValidateSchema sends that schema
// inline again). A Register in flight still remembers its schema.
func (v *Validator) Forget(handle string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.forgets++
	delete(v.byHandle, handle)
	for k, h := range v.bySchema {
		if h == handle {
			delete(v.bySchema, k)
		}
	}
}

// validateInline validates with the schema inline and remembers the handle
// the server computed for it, unless Forget was called since forgets was
// read.
func (v *Validator) validateInline(ctx context.Context, key schemaKey, argumentsJSON string, forgets uint64) (*toolgatev1.ValidateResponse, error) {
	resp, err := v.c.validateInline(ctx, key.request(), argumentsJSON)
	if err != nil {
		return nil, err
	}
	if h := resp.GetHandle(); h != "" {
		v.mu.Lock()
		if v.forgets == forgets {
			v.byHandle[h] = key
			v.bySchema[key] = h
		}
		v.mu.Unlock()
	}
	return resp, nil
}

// A SchemaError reports that the server did not compile a schema given to
// Validator.Register. Response holds the server's answer: its code
// (ERROR_CODE_UNSUPPORTED_CAPABILITY or ERROR_CODE_VALIDATION) and every
// finding.
type SchemaError struct {
	Response *toolgatev1.CompileSchemaResponse
}

// Error names the code and the first finding's message.
func (e *SchemaError) Error() string {
	errs := e.Response.GetErrors()
	switch len(errs) {
	case 0:
		return fmt.Sprintf("client: schema not compiled: %s", e.Response.GetCode())
	case 1:
		return fmt.Sprintf("client: schema not compiled: %s: %s", e.Response.GetCode(), errs[0].GetMessage())
	}
	return fmt.Sprintf("client: schema not compiled: %s: %s (and %d more findings)", e.Response.GetCode(), errs[0].GetMessage(), len(errs)-1)
}
