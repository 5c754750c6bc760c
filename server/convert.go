package server

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/structpb"

	toolgatev1 "github.com/toolgate/toolgate/gen/toolgate/v1"
	"github.com/toolgate/toolgate/internal/jsondoc"
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

// structJSON renders a Struct as compact JSON text, its members in
// sorted order, so that the same Struct is always the same text (finding
// offsets into it, and the compile cache's key, do not vary between
// builds as protojson's output does). Struct numbers are float64, so the
// exact *_json fields are preferred for numbers beyond 2^53.
//
// The text is bounded: past maxBytes it stops and the error is
// RESOURCE_EXHAUSTED, as a *_json field that long would be, since a
// Struct's text can be some 6 times its wire size (a control character is
// one byte on the wire and six, \u00XX, in JSON) and what the server
// bounds (the compile room, a Validate's work) is sized by the message
// limit. A NaN or infinite number, a Value that sets no kind, invalid
// UTF-8 or nesting past structMaxDepth is INVALID_ARGUMENT, as protojson
// refuses them. where names the field in the errors.
func structJSON(s *structpb.Struct, maxBytes int, where string) ([]byte, error) {
	if s == nil {
		return []byte("{}"), nil
	}
	e := structEncoder{max: maxBytes}
	if err := e.object(s, 0); err != nil {
		if errors.Is(err, errStructTooLong) {
			return nil, status.Errorf(codes.ResourceExhausted, "%s: its JSON text is longer than the limit of %d bytes (--max-message-bytes)", where, maxBytes)
		}
		return nil, status.Errorf(codes.InvalidArgument, "%s: %v", where, err)
	}
	return e.buf, nil
}

// structMaxDepth bounds the Structs, lists and values structJSON nests, as
// protobuf's decoder bounds the messages one request nests (each level of
// JSON is two or three of them), so that a Struct built in memory cannot
// recurse without end either.
const structMaxDepth = protowire.DefaultRecursionLimit

var errStructTooLong = errors.New("the JSON text is too long")

// structEncoder writes a Struct's JSON text into buf, within max bytes.
type structEncoder struct {
	buf []byte
	max int
}

// grew reports errStructTooLong once buf is past max.
func (e *structEncoder) grew() error {
	if len(e.buf) > e.max {
		return errStructTooLong
	}
	return nil
}

func (e *structEncoder) object(s *structpb.Struct, depth int) error {
	if depth >= structMaxDepth {
		return fmt.Errorf("the value nests deeper than %d levels", structMaxDepth)
	}
	keys := make([]string, 0, len(s.GetFields()))
	for k := range s.GetFields() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.string(k); err != nil {
			return err
		}
		e.buf = append(e.buf, ':')
		if err := e.value(s.GetFields()[k], depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return e.grew()
}

func (e *structEncoder) value(v *structpb.Value, depth int) error {
	if depth >= structMaxDepth {
		return fmt.Errorf("the value nests deeper than %d levels", structMaxDepth)
	}
	switch k := v.GetKind().(type) {
	case *structpb.Value_NullValue:
		e.buf = append(e.buf, "null"...)
	case *structpb.Value_BoolValue:
		e.buf = strconv.AppendBool(e.buf, k.BoolValue)
	case *structpb.Value_NumberValue:
		f := k.NumberValue
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("google.protobuf.Value.number_value: %v is not a JSON number", f)
		}
		e.buf = appendNumber(e.buf, f)
	case *structpb.Value_StringValue:
		return e.string(k.StringValue)
	case *structpb.Value_StructValue:
		return e.object(k.StructValue, depth+1)
	case *structpb.Value_ListValue:
		e.buf = append(e.buf, '[')
		for i, el := range k.ListValue.GetValues() {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if err := e.value(el, depth+1); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, ']')
	default:
		return errors.New("google.protobuf.Value: none of the oneof fields is set")
	}
	return e.grew()
}

// string writes s quoted, as jsondoc escapes a string: the quote, the
// backslash and control characters. It stops once the text is past max,
// so that a string of control characters does not grow buf to six times
// its size first.
func (e *structEncoder) string(s string) error {
	if !utf8.ValidString(s) {
		return errors.New("a string is not valid UTF-8")
	}
	if len(e.buf)+len(s)+2 > e.max { // its text is at least as long
		return errStructTooLong
	}
	e.buf = append(e.buf, '"')
	for len(s) > 0 {
		piece := s[:min(len(s), structStringPiece)]
		s = s[len(piece):]
		e.buf = jsondoc.AppendStringBody(e.buf, readOnlyBytes(piece))
		if err := e.grew(); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '"')
	return e.grew()
}

// structStringPiece is how much of a string structEncoder escapes before
// it checks the limit: the text passes max by at most six times as much.
const structStringPiece = 4096

// appendNumber writes a finite float64 as encoding/json (and protojson)
// do: the shortest text that reads back as f, in exponent form below 1e-6
// and from 1e21.
func appendNumber(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 is e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
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
