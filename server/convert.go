package server

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/provider"
	"github.com/toolgate/toolgate/internal/schema"
	"github.com/toolgate/toolgate/internal/stream"
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

// findingsToProto converts findings; schema findings (offset -1) get offset 0.
func findingsToProto(fs []schema.Finding) []*toolgatev1.Error {
	if len(fs) == 0 {
		return nil
	}
	out := make([]*toolgatev1.Error, len(fs))
	for i, f := range fs {
		out[i] = &toolgatev1.Error{
			Code:         codeToProto(f.Code),
			Keyword:      f.Keyword,
			SchemaPath:   f.SchemaPath,
			InstancePath: f.InstancePath,
			Message:      f.Message,
			Offset:       max(f.Offset, 0),
		}
	}
	return out
}

// findingsToProtoCapped converts at most n findings and reports whether any
// were left out.
func findingsToProtoCapped(fs []schema.Finding, n int) ([]*toolgatev1.Error, bool) {
	if len(fs) > n {
		return findingsToProto(fs[:n]), true
	}
	return findingsToProto(fs), false
}

// structJSON renders a Struct as JSON text. Struct numbers are float64, so
// the exact *_json fields are preferred for numbers beyond 2^53.
func structJSON(s *structpb.Struct) ([]byte, error) {
	if s == nil {
		return []byte("{}"), nil
	}
	return protojson.Marshal(s)
}

func validateResponse(r validator.Result, handle string) *toolgatev1.ValidateResponse {
	return &toolgatev1.ValidateResponse{
		Valid:           r.Valid(),
		Code:            codeToProto(r.Code()),
		Errors:          findingsToProto(r.Findings),
		Handle:          handle,
		ErrorsTruncated: r.Truncated,
	}
}

func callResultToProto(r *stream.Result) *toolgatev1.ValidateStreamResponse {
	return &toolgatev1.ValidateStreamResponse{Event: &toolgatev1.ValidateStreamResponse_Result{Result: &toolgatev1.CallResult{
		CallId:          r.CallID,
		ToolName:        r.ToolName,
		Valid:           r.Valid(),
		Code:            codeToProto(schema.Summarize(r.Findings)),
		Errors:          findingsToProto(r.Findings),
		Early:           r.Early,
		Bytes:           r.Bytes,
		ErrorsTruncated: r.Truncated,
	}}}
}
