// Package server is toolgate's gRPC layer: the ValidationService, the
// conversion between proto messages and the engine, and the interceptors
// and wiring of a grpc.Server. The engine itself lives under internal/.
package server

import (
	"context"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/store"
	"github.com/toolgate/toolgate/internal/toolset"
	"github.com/toolgate/toolgate/internal/validator"
)

// Service implements toolgate.v1.ValidationService. It is safe for
// concurrent use; its only state is the store of compiled schemas.
type Service struct {
	toolgatev1.UnimplementedValidationServiceServer
	opts    Options
	store   *store.Store[*schema.Schema]
	metrics *Metrics // nil: none
}

// NewService returns a Service with its own schema store.
func NewService(opts Options) *Service {
	opts = opts.withDefaults()
	return &Service{opts: opts, store: store.New[*schema.Schema](opts.StoreEntries, opts.StoreBytes)}
}

// compiled is the outcome of compiling a request's schema.
type compiled struct {
	handle string
	res    *schema.Result
}

// compile compiles a CompileSchemaRequest and stores the schema under its
// handle. Problems with the schema are in res; an error is a problem with the
// request itself.
func (s *Service) compile(req *toolgatev1.CompileSchemaRequest) (compiled, error) {
	profile, err := profileFromProto(req.GetProfile())
	if err != nil {
		return compiled{}, err
	}
	var doc []byte
	switch src := req.GetSchema().(type) {
	case *toolgatev1.CompileSchemaRequest_SchemaJson:
		doc = []byte(src.SchemaJson)
	case *toolgatev1.CompileSchemaRequest_SchemaStruct:
		var err error
		if doc, err = structJSON(src.SchemaStruct); err != nil {
			return compiled{}, status.Errorf(codes.InvalidArgument, "schema_struct: %v", err)
		}
	default:
		return compiled{}, status.Error(codes.InvalidArgument, "a schema is required: set schema_json or schema_struct")
	}
	start := time.Now()
	res := schema.Compile(profile, doc)
	s.metrics.compileTime(profile, sourceSchema, start)
	s.metrics.compiled(profile, res.Code())
	if res.Schema == nil {
		return compiled{res: res}, nil
	}
	return compiled{handle: s.put(profile, res), res: res}, nil
}

// put stores a compiled schema under its handle and returns the handle.
func (s *Service) put(profile schema.Profile, res *schema.Result) string {
	h := store.Handle(profile.String(), res.Canonical)
	s.store.Put(h, res.Schema, int64(len(res.Canonical)))
	return h
}

// CompileSchema checks a schema against a profile and returns its handle,
// or every finding that keeps it from compiling.
func (s *Service) CompileSchema(_ context.Context, req *toolgatev1.CompileSchemaRequest) (*toolgatev1.CompileSchemaResponse, error) {
	c, err := s.compile(req)
	if err != nil {
		return nil, err
	}
	resp := &toolgatev1.CompileSchemaResponse{Handle: c.handle, Code: codeToProto(c.res.Code())}
	resp.Errors, resp.ErrorsTruncated = findingsToProtoCapped(c.res.Errors, s.opts.MaxFindings)
	resp.Warnings, _ = findingsToProtoCapped(c.res.Warnings, s.opts.MaxFindings)
	return resp, nil
}

// Validate checks arguments against a stored (by handle) or inline schema.
// An empty arguments_json is the empty object, as a provider sends for a tool
// without parameters.
func (s *Service) Validate(_ context.Context, req *toolgatev1.ValidateRequest) (*toolgatev1.ValidateResponse, error) {
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
		c, err := s.compile(src.Inline)
		if err != nil {
			return nil, err
		}
		if c.res.Schema == nil {
			resp := &toolgatev1.ValidateResponse{Code: codeToProto(c.res.Code())}
			resp.Errors, resp.ErrorsTruncated = findingsToProtoCapped(c.res.Errors, s.opts.MaxFindings)
			return resp, nil
		}
		sch, handle = c.res.Schema, c.handle
	default:
		return nil, status.Error(codes.InvalidArgument, "a schema is required: set handle or inline")
	}
	var args []byte
	switch a := req.GetArguments().(type) {
	case *toolgatev1.ValidateRequest_ArgumentsJson:
		args = []byte(a.ArgumentsJson)
		if len(args) == 0 {
			args = []byte("{}")
		}
	case *toolgatev1.ValidateRequest_ArgumentsStruct:
		var err error
		if args, err = structJSON(a.ArgumentsStruct); err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "arguments_struct: %v", err)
		}
	default:
		return nil, status.Error(codes.InvalidArgument, "arguments are required: set arguments_json or arguments_struct")
	}
	res := validator.Validate(sch, args, s.opts.validatorOptions())
	s.metrics.verdict(rpcValidate, sch.Profile, res.Code())
	return validateResponse(res, handle), nil
}

// CompileToolset compiles every tool of a tools/list result or tool list and
// binds the ones that can be enforced.
func (s *Service) CompileToolset(_ context.Context, req *toolgatev1.CompileToolsetRequest) (*toolgatev1.CompileToolsetResponse, error) {
	profile, err := profileFromProto(req.GetProfile())
	if err != nil {
		return nil, err
	}
	var tools []toolset.Tool
	switch src := req.GetSource().(type) {
	case *toolgatev1.CompileToolsetRequest_ToolsListJson:
		var err error
		if tools, err = toolset.ParseToolsList([]byte(src.ToolsListJson)); err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "tools_list_json: %v", err)
		}
	case *toolgatev1.CompileToolsetRequest_Tools:
		for _, t := range src.Tools.GetTools() {
			tool := toolset.Tool{Name: t.GetName()}
			if t.GetSchemaJson() != "" {
				tool.Schema = []byte(t.GetSchemaJson())
			}
			tools = append(tools, tool)
		}
	default:
		return nil, status.Error(codes.InvalidArgument, "tools are required: set tools_list_json or tools")
	}
	resp := &toolgatev1.CompileToolsetResponse{Bind: map[string]string{}, Admitted: true}
	start := time.Now()
	results := toolset.Compile(profile, tools)
	s.metrics.compileTime(profile, sourceToolset, start)
	for _, r := range results {
		s.metrics.compiled(profile, r.Code())
		tr := &toolgatev1.ToolResult{Name: r.Name, Code: codeToProto(r.Code())}
		tr.Errors, tr.ErrorsTruncated = findingsToProtoCapped(r.Findings(), s.opts.MaxFindings)
		if r.Compiled != nil {
			tr.Warnings, _ = findingsToProtoCapped(r.Compiled.Warnings, s.opts.MaxFindings)
		}
		if r.Code() == schema.CodeNone {
			tr.Handle = s.put(profile, r.Compiled)
			resp.Bind[r.Name] = tr.Handle
		}
		resp.Tools = append(resp.Tools, tr)
	}
	return resp, nil
}
