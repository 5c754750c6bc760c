package server

import (
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
	"github.com/toolgate/toolgate/internal/toolset"
	"github.com/toolgate/toolgate/internal/validator"
)

// This file is the one place where proto and engine types meet.

// profileFromProto maps the API's profile; UNSPECIFIED means tool input.
// An unknown value is INVALID_ARGUMENT.
func profileFromProto(p toolgatev1.Profile) (schema.Profile, error) {
	switch p {
	case toolgatev1.Profile_PROFILE_UNSPECIFIED, toolgatev1.Profile_PROFILE_TOOL_INPUT:
		return schema.ToolInput, nil
	case toolgatev1.Profile_PROFILE_OUTPUT_BINDABLE:
		return schema.OutputBindable, nil
	case toolgatev1.Profile_PROFILE_JSON_SCHEMA:
		return schema.JSONSchema, nil
	}
	return 0, status.Errorf(codes.InvalidArgument, "profile %d is not a known Profile", p)
}

func providerFromProto(p toolgatev1.Provider) provider.Provider {
	switch p {
	case toolgatev1.Provider_PROVIDER_OPENAI_CHAT:
		return provider.OpenAIChat
	case toolgatev1.Provider_PROVIDER_OPENAI_RESPONSES:
		return provider.OpenAIResponses
	case toolgatev1.Provider_PROVIDER_ANTHROPIC:
		return provider.Anthropic
	case toolgatev1.Provider_PROVIDER_GEMINI:
		return provider.Gemini
	case toolgatev1.Provider_PROVIDER_BEDROCK:
		return provider.Bedrock
	case toolgatev1.Provider_PROVIDER_COHERE:
		return provider.Cohere
	}
	return provider.Unspecified
}

func codeToProto(c schema.Code) toolgatev1.ErrorCode {
	switch c {
	case schema.CodeUnsupported:
		return toolgatev1.ErrorCode_ERROR_CODE_UNSUPPORTED_CAPABILITY
	case schema.CodeValidation:
		return toolgatev1.ErrorCode_ERROR_CODE_VALIDATION
	case schema.CodeNotFound:
		return toolgatev1.ErrorCode_ERROR_CODE_NOT_FOUND
	}
	return toolgatev1.ErrorCode_ERROR_CODE_UNSPECIFIED
}

// structJSON renders a Struct as JSON text. Struct numbers are float64, so
// the exact *_json fields are preferred for numbers beyond 2^53.
func structJSON(s *structpb.Struct) ([]byte, error) {
	if s == nil {
		return []byte("{}"), nil
	}
	return protojson.Marshal(s)
}

func validateResponse(r validator.Result, handle string, a *answer) *toolgatev1.ValidateResponse {
	resp := &toolgatev1.ValidateResponse{Valid: r.Valid(), Code: codeToProto(r.Code()), Handle: handle}
	resp.Errors, resp.ErrorsTruncated = a.findings(r.Findings)
	resp.ErrorsTruncated = resp.ErrorsTruncated || r.Truncated
	return resp
}

func callResultToProto(r *stream.Result, a *answer) *toolgatev1.ValidateStreamResponse {
	res := &toolgatev1.CallResult{
		CallId:   r.CallID,
		ToolName: r.ToolName,
		Valid:    r.Valid(),
		Code:     codeToProto(schema.Summarize(r.Findings)),
		Early:    r.Early,
		Bytes:    r.Bytes,
	}
	res.Errors, res.ErrorsTruncated = a.findings(r.Findings)
	res.ErrorsTruncated = res.ErrorsTruncated || r.Truncated
	return &toolgatev1.ValidateStreamResponse{Event: &toolgatev1.ValidateStreamResponse_Result{Result: res}}
}

// compileOptions returns the schema compile options of a request: the
// server's schema limits and findings cap (so the compiler builds no more
// findings than an answer lists), and for PROFILE_JSON_SCHEMA the
// request's extra documents (resources) and format assertion. The other
// profiles reject those two with INVALID_ARGUMENT, as the proto says.
func (o Options) compileOptions(profile schema.Profile, resources map[string]string, formatAssertion bool) (schema.Options, error) {
	opts := schema.Options{Limits: o.SchemaLimits(), MaxFindings: o.MaxFindings}
	if profile != schema.JSONSchema {
		if len(resources) > 0 {
			return opts, status.Errorf(codes.InvalidArgument, "resources: only PROFILE_JSON_SCHEMA takes extra schema documents, not the %s profile", profile)
		}
		if formatAssertion {
			return opts, status.Errorf(codes.InvalidArgument, "format_assertion: only PROFILE_JSON_SCHEMA asserts format, not the %s profile", profile)
		}
		return opts, nil
	}
	opts.FormatAssertion = formatAssertion
	if len(resources) > 0 {
		opts.Resources = make(map[string][]byte, len(resources))
		for uri, doc := range resources {
			opts.Resources[uri] = []byte(doc)
		}
		if err := schema.CheckResources(opts.Resources); err != nil {
			return opts, status.Errorf(codes.InvalidArgument, "resources: %v", err)
		}
	}
	return opts, nil
}

// strictAdmission maps the API's admission mode: true for ADMISSION_STRICT,
// false for ADMISSION_QUARANTINE and UNSPECIFIED; an unknown value is
// INVALID_ARGUMENT.
func strictAdmission(a toolgatev1.Admission) (bool, error) {
	switch a {
	case toolgatev1.Admission_ADMISSION_UNSPECIFIED, toolgatev1.Admission_ADMISSION_QUARANTINE:
		return false, nil
	case toolgatev1.Admission_ADMISSION_STRICT:
		return true, nil
	}
	return false, status.Errorf(codes.InvalidArgument, "admission %d is not a known Admission", a)
}

// toolsFromProto reads a CompileToolsetRequest's tools, and whether they
// are one page of a longer tools/list (see CompileToolsetResponse's
// more_pages); a tools_list_json that is not a tools/list document, or a
// request without tools, is INVALID_ARGUMENT, and one with more than
// maxTools tools RESOURCE_EXHAUSTED, before any tool is built.
func toolsFromProto(req *toolgatev1.CompileToolsetRequest, maxTools int) (_ []toolset.Tool, morePages bool, _ error) {
	switch src := req.GetSource().(type) {
	case *toolgatev1.CompileToolsetRequest_ToolsListJson:
		tools, cursor, err := toolset.ParseToolsList(readOnlyBytes(src.ToolsListJson), maxTools)
		var tooMany *toolset.TooManyToolsError
		if errors.As(err, &tooMany) {
			return nil, false, status.Error(codes.ResourceExhausted, tooMany.Error())
		}
		if err != nil {
			return nil, false, status.Errorf(codes.InvalidArgument, "tools_list_json: %v", err)
		}
		return tools, cursor != "", nil
	case *toolgatev1.CompileToolsetRequest_Tools:
		list := src.Tools.GetTools()
		if len(list) > maxTools {
			return nil, false, status.Error(codes.ResourceExhausted, (&toolset.TooManyToolsError{Tools: len(list), Max: maxTools}).Error())
		}
		tools := make([]toolset.Tool, 0, len(list))
		for _, t := range list {
			tool := toolset.Tool{Name: t.GetName()}
			if t.GetSchemaJson() != "" {
				tool.Schema = readOnlyBytes(t.GetSchemaJson())
			}
			tools = append(tools, tool)
		}
		return tools, false, nil
	}
	return nil, false, status.Error(codes.InvalidArgument, "tools are required: set tools_list_json or tools")
}
