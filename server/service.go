// Package server is toolgate's gRPC layer: the ValidationService, the
// conversion between proto messages and the engine, and the interceptors
// and wiring of a grpc.Server. The engine itself lives under internal/.
package server

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/store"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/internal/toolset"
)

// Service implements toolgate.v1.ValidationService. It is safe for
// concurrent use; its state is the store of compiled schemas and the
// bounds its requests share (compile room, what open streams hold).
type Service struct {
	toolgatev1.UnimplementedValidationServiceServer
	opts  Options
	store *store.Store[*schema.Schema]
	cache *store.Store[cached] // request digest -> handle (see cache.go)
	// compiling bounds the schema bytes compiled at once.
	compiling *compileRoom
	// streamSchemas counts the schemas open streams hold.
	streamSchemas *heldSchemas
	// unnamed bounds the text streams hold for calls not named yet.
	unnamed *stream.HeldBytes
	// state bounds the validation state of streams' open calls.
	state   *stream.HeldBytes
	metrics *Metrics // nil: none
	// health is the grpc.Server's health service, when NewGRPCServer
	// made one (see Drain).
	health *drainingHealth
	// maxStructBytes bounds the JSON text of a schema_struct or an
	// arguments_struct: the server's message limit (Config.MaxMessageBytes),
	// which bounds the *_json fields (see structJSON).
	maxStructBytes int
	// decode is the codec NewGRPCServer made for the server (nil for a
	// Service made alone); tests count the failures it holds.
	decode *decodeErrors
	// progress, when set (by tests), is told after each bounded step of a
	// unary request's work how far it got; see step.
	progress func(ctx context.Context, done int64)
}

// Drain readies the server NewGRPCServer made with s to stop: its health
// checks answer NOT_SERVING from now on, and each health Watch gets
// NOT_SERVING and ends, so that clients' health checking learns at once
// that the replica is leaving and an open Watch does not hold
// grpc.Server.GracefulStop. Call it before GracefulStop; it does nothing
// for a Service that serves no health service.
func (s *Service) Drain() {
	if s.health != nil {
		s.health.Drain()
	}
}

// NewService returns a Service with its own schema store. The JSON text
// of a *_struct field it is sent is bounded by DefaultMaxMessageBytes;
// NewGRPCServer bounds it by its Config.MaxMessageBytes.
func NewService(opts Options) *Service {
	opts = opts.withDefaults()
	return &Service{opts: opts, maxStructBytes: DefaultMaxMessageBytes, store: store.New[*schema.Schema](opts.StoreEntries, opts.StoreBytes),
		cache: newCompileCache(opts.StoreEntries), compiling: newCompileRoom(opts.MaxCompilingBytes), streamSchemas: newHeldSchemas(opts.MaxStreamSchemaBytes),
		unnamed: stream.NewHeldBytes(opts.MaxUnnamedCallBytes), state: stream.NewHeldBytes(opts.MaxOpenStateBytes)}
}

// compiled is the outcome of compiling a request's schema.
type compiled struct {
	handle string
	res    *schema.Result
	// unstored: the schema compiled but its compiled form alone is larger
	// than Options.StoreBytes, so the store does not hold it under handle.
	unstored bool
}

// compile compiles a CompileSchemaRequest and stores the schema under its
// handle. Problems with the schema are in res; an error is a problem with the
// request itself, or ctx's end (checked before compiling: one compilation
// is bounded by the message size limit and the engine's own limits). A
// schema not compiled before waits for room (Options.MaxCompilingBytes);
// one found in the cache needs none.
func (s *Service) compile(ctx context.Context, req *toolgatev1.CompileSchemaRequest) (compiled, error) {
	profile, err := profileFromProto(req.GetProfile())
	if err != nil {
		return compiled{}, err
	}
	opts, err := s.opts.compileOptions(profile, req.GetResources(), req.GetFormatAssertion())
	if err != nil {
		return compiled{}, err
	}
	var doc []byte
	switch src := req.GetSchema().(type) {
	case *toolgatev1.CompileSchemaRequest_SchemaJson:
		doc = readOnlyBytes(src.SchemaJson)
	case *toolgatev1.CompileSchemaRequest_SchemaStruct:
		var err error
		if doc, err = structJSON(src.SchemaStruct, s.maxStructBytes, "schema_struct"); err != nil {
			return compiled{}, err
		}
	default:
		return compiled{}, status.Error(codes.InvalidArgument, "a schema is required: set schema_json or schema_struct")
	}
	if err := alive(ctx); err != nil {
		return compiled{}, err
	}
	key := requestKey(profile, opts, doc)
	if c, ok := s.cache.Get(key); ok {
		if sch, ok := s.store.Get(c.handle); ok {
			return compiled{handle: c.handle, res: &schema.Result{Schema: sch, Warnings: c.warnings, WarningsOmitted: c.warningsOmitted}}, nil
		}
	}
	leave, err := s.compiling.enter(ctx, compileBytes(profile, doc, opts), s.metrics)
	if err != nil {
		return compiled{}, err
	}
	start := time.Now()
	res, err := func() (*schema.Result, error) {
		defer leave() // also when the compiler panics: the room outlives the request
		return schema.CompileContext(ctx, profile, doc, opts)
	}()
	if err != nil {
		return compiled{}, alive(ctx)
	}
	s.metrics.compileTime(profile, sourceSchema, start)
	s.metrics.compiled(profile, res.Code())
	if res.Schema == nil {
		return compiled{res: res}, nil
	}
	h := handleOf(profile, res)
	if !s.store.Put(h, res.Schema, res.Schema.Bytes) {
		return compiled{handle: h, res: res, unstored: true}, nil
	}
	entry := cached{handle: h, warnings: res.Warnings, warningsOmitted: res.WarningsOmitted}
	s.cache.Put(key, entry, cacheSize(entry))
	return compiled{handle: h, res: res}, nil
}

// handleOf returns the handle a compiled schema is stored under. It
// covers res.Key (the canonical schema, and for the JSON Schema profile
// the options and documents that change what it accepts); the store
// counts the heap the compiled schema holds (Schema.Bytes), so that
// Options.StoreBytes bounds memory, not text.
func handleOf(profile schema.Profile, res *schema.Result) string {
	return store.Handle(profile.String(), res.Key)
}

// CompileSchema checks a schema against a profile and returns its handle,
// or every finding that keeps it from compiling (within Options'
// answer bounds: errors first, then warnings). A schema whose compiled
// form alone is larger than Options.StoreBytes is RESOURCE_EXHAUSTED: the
// store cannot hold it, and a handle no call could use is no answer.
func (s *Service) CompileSchema(ctx context.Context, req *toolgatev1.CompileSchemaRequest) (*toolgatev1.CompileSchemaResponse, error) {
	c, err := s.compile(ctx, req)
	if err != nil {
		return nil, err
	}
	if c.unstored {
		return nil, status.Errorf(codes.ResourceExhausted, "the compiled schema holds %d bytes, more than the store's bound of %d bytes (--store-bytes), so no handle to it can be held; send it inline, or raise --store-bytes", c.res.Schema.Bytes, s.opts.StoreBytes)
	}
	resp := &toolgatev1.CompileSchemaResponse{Handle: c.handle, Code: codeToProto(c.res.Code())}
	a := s.opts.answer()
	resp.Errors, resp.ErrorsTruncated = a.compileFindings(c.res.Errors, c.res.ErrorsOmitted)
	resp.Warnings, resp.WarningsTruncated = a.compileFindings(c.res.Warnings, c.res.WarningsOmitted)
	return resp, nil
}

// Validate checks arguments against a stored (by handle) or inline schema;
// an inline schema too large for the store (Options.StoreBytes) is checked
// all the same, and answered without a handle.
// An empty arguments_json is the empty object, as a provider sends for a tool
// without parameters. The arguments are fed to the validator in bounded
// chunks (see validate), so a request ends with DEADLINE_EXCEEDED or
// CANCELLED soon after its deadline passes or its caller leaves.
func (s *Service) Validate(ctx context.Context, req *toolgatev1.ValidateRequest) (*toolgatev1.ValidateResponse, error) {
	var sch *schema.Schema
	var handle string
	switch src := req.GetSchema().(type) {
	case *toolgatev1.ValidateRequest_Handle:
		if !store.IsHandle(src.Handle) {
			return nil, status.Errorf(codes.InvalidArgument, "handle %q is not a toolgate handle (tg1_ and 64 hex digits)", src.Handle)
		}
		var ok bool
		if sch, ok = s.store.Get(src.Handle); !ok {
			return nil, status.Errorf(codes.NotFound, "handle %q is not held by this server; compile the schema again", src.Handle)
		}
		handle = src.Handle
	case *toolgatev1.ValidateRequest_Inline:
		c, err := s.compile(ctx, src.Inline)
		if err != nil {
			return nil, err
		}
		if c.res.Schema == nil {
			resp := &toolgatev1.ValidateResponse{Code: codeToProto(c.res.Code())}
			resp.Errors, resp.ErrorsTruncated = s.opts.answer().compileFindings(c.res.Errors, c.res.ErrorsOmitted)
			return resp, nil
		}
		sch = c.res.Schema
		if !c.unstored { // a handle the store does not hold is none to answer
			handle = c.handle
		}
	default:
		return nil, status.Error(codes.InvalidArgument, "a schema is required: set handle or inline")
	}
	var args []byte
	switch a := req.GetArguments().(type) {
	case *toolgatev1.ValidateRequest_ArgumentsJson:
		args = readOnlyBytes(a.ArgumentsJson)
		if len(args) == 0 {
			args = []byte("{}")
		}
	case *toolgatev1.ValidateRequest_ArgumentsStruct:
		var err error
		if args, err = structJSON(a.ArgumentsStruct, s.maxStructBytes, "arguments_struct"); err != nil {
			return nil, err
		}
	default:
		return nil, status.Error(codes.InvalidArgument, "arguments are required: set arguments_json or arguments_struct")
	}
	r, err := s.validate(ctx, sch, args)
	if err != nil {
		return nil, err
	}
	s.metrics.verdict(rpcValidate, sch.Profile, r.Code())
	return validateResponse(r, handle, s.opts.answer()), nil
}

// CompileToolset compiles every tool of a tools/list result or tool list,
// tool by tool (checking ctx before each), and binds the ones that can be
// enforced: all of them under ADMISSION_QUARANTINE, none unless every tool
// compiled under ADMISSION_STRICT. The tools' findings share one answer
// budget (Options.MaxAnswerBytes); the whole request waits once for room
// to compile (Options.MaxCompilingBytes), before it reads its tools: the
// parse of a tools_list_json holds a multiple of its text. Every handle it
// answers is in the store when it answers: a toolset whose compiled
// schemas together hold more than Options.StoreBytes, which would evict
// one another, is RESOURCE_EXHAUSTED and stores nothing.
func (s *Service) CompileToolset(ctx context.Context, req *toolgatev1.CompileToolsetRequest) (*toolgatev1.CompileToolsetResponse, error) {
	profile, err := profileFromProto(req.GetProfile())
	if err != nil {
		return nil, err
	}
	opts, err := s.opts.compileOptions(profile, req.GetResources(), req.GetFormatAssertion())
	if err != nil {
		return nil, err
	}
	strict, err := strictAdmission(req.GetAdmission())
	if err != nil {
		return nil, err
	}
	leave, err := s.compiling.enter(ctx, toolsetBytes(profile, req, opts), s.metrics)
	if err != nil {
		return nil, err
	}
	defer leave()
	tools, morePages, err := toolsFromProto(req, s.opts.MaxToolsetTools)
	if err != nil {
		return nil, err
	}
	resp := &toolgatev1.CompileToolsetResponse{Bind: map[string]string{}, Admitted: true, MorePages: morePages}
	a := s.opts.answer()
	opts = toolset.Shared(opts) // the tools' patterns and subschemas share one budget
	start := time.Now()
	toStore := map[string]*schema.Schema{} // the tools that compiled, by handle (a schema tools share counts once)
	var storeBytes int64
	results := toolset.Check(tools)
	for i := range results {
		if r := &results[i]; len(r.Name) > s.opts.MaxNameBytes {
			r.Name = schema.Truncate(r.Name, s.opts.MaxNameBytes)
			r.Problems = append(r.Problems, schema.Finding{Code: schema.CodeValidation, Keyword: "name", Offset: -1,
				Message: fmt.Sprintf("The tool name is longer than the limit of %d bytes, so no stream could bind it.", s.opts.MaxNameBytes)})
		}
	}
	for i := range results {
		if err := alive(ctx); err != nil {
			return nil, err
		}
		r := &results[i]
		if err := r.Compile(ctx, profile, opts); err != nil {
			return nil, alive(ctx)
		}
		s.step(ctx, int64(i+1))
		s.metrics.compiled(profile, r.Code())
		tr := &toolgatev1.ToolResult{Name: r.Name, Code: codeToProto(r.Code())}
		tr.Errors, tr.ErrorsTruncated = a.compileFindings(r.Findings(), r.Omitted())
		if r.Compiled != nil {
			tr.Warnings, tr.WarningsTruncated = a.compileFindings(r.Compiled.Warnings, r.Compiled.WarningsOmitted)
		}
		if r.Code() == schema.CodeNone {
			tr.Handle = handleOf(profile, r.Compiled)
			resp.Bind[r.Name] = tr.Handle
			if _, ok := toStore[tr.Handle]; !ok {
				toStore[tr.Handle] = r.Compiled.Schema
				storeBytes += r.Compiled.Schema.Bytes
			}
		} else if strict {
			resp.Admitted = false
		}
		resp.Tools = append(resp.Tools, tr)
	}
	s.metrics.compileTime(profile, sourceToolset, start)
	if storeBytes > s.opts.StoreBytes {
		return nil, status.Errorf(codes.ResourceExhausted, "the toolset's compiled schemas hold %d bytes, more than the store's bound of %d bytes (--store-bytes), so its handles would evict one another", storeBytes, s.opts.StoreBytes)
	}
	for h, sch := range toStore {
		s.store.Put(h, sch, sch.Bytes)
	}
	if !resp.Admitted {
		clear(resp.Bind)
	}
	return resp, nil
}
