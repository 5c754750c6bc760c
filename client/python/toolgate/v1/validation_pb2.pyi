from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

ADMISSION_QUARANTINE: Admission
ADMISSION_STRICT: Admission
ADMISSION_UNSPECIFIED: Admission
DESCRIPTOR: _descriptor.FileDescriptor
ERROR_CODE_NOT_FOUND: ErrorCode
ERROR_CODE_UNSPECIFIED: ErrorCode
ERROR_CODE_UNSUPPORTED_CAPABILITY: ErrorCode
ERROR_CODE_VALIDATION: ErrorCode
PROFILE_JSON_SCHEMA: Profile
PROFILE_OUTPUT_BINDABLE: Profile
PROFILE_TOOL_INPUT: Profile
PROFILE_UNSPECIFIED: Profile
PROVIDER_ANTHROPIC: Provider
PROVIDER_BEDROCK: Provider
PROVIDER_COHERE: Provider
PROVIDER_GEMINI: Provider
PROVIDER_OPENAI_CHAT: Provider
PROVIDER_OPENAI_RESPONSES: Provider
PROVIDER_UNSPECIFIED: Provider

class CallDelta(_message.Message):
    __slots__ = ["call_id", "fragment"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    FRAGMENT_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    fragment: str
    def __init__(self, call_id: _Optional[str] = ..., fragment: _Optional[str] = ...) -> None: ...

class CallEnd(_message.Message):
    __slots__ = ["call_id"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    def __init__(self, call_id: _Optional[str] = ...) -> None: ...

class CallResult(_message.Message):
    __slots__ = ["bytes", "call_id", "code", "early", "errors", "errors_truncated", "tool_name", "valid"]
    BYTES_FIELD_NUMBER: _ClassVar[int]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    EARLY_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    ERRORS_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    bytes: int
    call_id: str
    code: ErrorCode
    early: bool
    errors: _containers.RepeatedCompositeFieldContainer[Error]
    errors_truncated: bool
    tool_name: str
    valid: bool
    def __init__(self, call_id: _Optional[str] = ..., tool_name: _Optional[str] = ..., valid: bool = ..., code: _Optional[_Union[ErrorCode, str]] = ..., errors: _Optional[_Iterable[_Union[Error, _Mapping]]] = ..., early: bool = ..., bytes: _Optional[int] = ..., errors_truncated: bool = ...) -> None: ...

class CallStart(_message.Message):
    __slots__ = ["call_id", "handle", "inline", "output", "tool_name"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    INLINE_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    handle: str
    inline: CompileSchemaRequest
    output: bool
    tool_name: str
    def __init__(self, call_id: _Optional[str] = ..., tool_name: _Optional[str] = ..., handle: _Optional[str] = ..., inline: _Optional[_Union[CompileSchemaRequest, _Mapping]] = ..., output: bool = ...) -> None: ...

class CompileSchemaRequest(_message.Message):
    __slots__ = ["format_assertion", "profile", "resources", "schema_json", "schema_struct"]
    class ResourcesEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    FORMAT_ASSERTION_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_STRUCT_FIELD_NUMBER: _ClassVar[int]
    format_assertion: bool
    profile: Profile
    resources: _containers.ScalarMap[str, str]
    schema_json: str
    schema_struct: _struct_pb2.Struct
    def __init__(self, profile: _Optional[_Union[Profile, str]] = ..., schema_json: _Optional[str] = ..., schema_struct: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., resources: _Optional[_Mapping[str, str]] = ..., format_assertion: bool = ...) -> None: ...

class CompileSchemaResponse(_message.Message):
    __slots__ = ["code", "errors", "errors_truncated", "handle", "warnings", "warnings_truncated"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    ERRORS_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    code: ErrorCode
    errors: _containers.RepeatedCompositeFieldContainer[Error]
    errors_truncated: bool
    handle: str
    warnings: _containers.RepeatedCompositeFieldContainer[Error]
    warnings_truncated: bool
    def __init__(self, handle: _Optional[str] = ..., code: _Optional[_Union[ErrorCode, str]] = ..., errors: _Optional[_Iterable[_Union[Error, _Mapping]]] = ..., warnings: _Optional[_Iterable[_Union[Error, _Mapping]]] = ..., errors_truncated: bool = ..., warnings_truncated: bool = ...) -> None: ...

class CompileToolsetRequest(_message.Message):
    __slots__ = ["admission", "format_assertion", "profile", "resources", "tools", "tools_list_json"]
    class ResourcesEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ADMISSION_FIELD_NUMBER: _ClassVar[int]
    FORMAT_ASSERTION_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    TOOLS_LIST_JSON_FIELD_NUMBER: _ClassVar[int]
    admission: Admission
    format_assertion: bool
    profile: Profile
    resources: _containers.ScalarMap[str, str]
    tools: ToolList
    tools_list_json: str
    def __init__(self, profile: _Optional[_Union[Profile, str]] = ..., tools_list_json: _Optional[str] = ..., tools: _Optional[_Union[ToolList, _Mapping]] = ..., admission: _Optional[_Union[Admission, str]] = ..., resources: _Optional[_Mapping[str, str]] = ..., format_assertion: bool = ...) -> None: ...

class CompileToolsetResponse(_message.Message):
    __slots__ = ["admitted", "bind", "more_pages", "tools"]
    class BindEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ADMITTED_FIELD_NUMBER: _ClassVar[int]
    BIND_FIELD_NUMBER: _ClassVar[int]
    MORE_PAGES_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    admitted: bool
    bind: _containers.ScalarMap[str, str]
    more_pages: bool
    tools: _containers.RepeatedCompositeFieldContainer[ToolResult]
    def __init__(self, tools: _Optional[_Iterable[_Union[ToolResult, _Mapping]]] = ..., bind: _Optional[_Mapping[str, str]] = ..., admitted: bool = ..., more_pages: bool = ...) -> None: ...

class Error(_message.Message):
    __slots__ = ["code", "instance_path", "keyword", "message", "offset", "schema_path"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    INSTANCE_PATH_FIELD_NUMBER: _ClassVar[int]
    KEYWORD_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_PATH_FIELD_NUMBER: _ClassVar[int]
    code: ErrorCode
    instance_path: str
    keyword: str
    message: str
    offset: int
    schema_path: str
    def __init__(self, code: _Optional[_Union[ErrorCode, str]] = ..., keyword: _Optional[str] = ..., schema_path: _Optional[str] = ..., instance_path: _Optional[str] = ..., message: _Optional[str] = ..., offset: _Optional[int] = ...) -> None: ...

class ProviderEvent(_message.Message):
    __slots__ = ["event_json", "event_name", "provider"]
    EVENT_JSON_FIELD_NUMBER: _ClassVar[int]
    EVENT_NAME_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    event_json: str
    event_name: str
    provider: Provider
    def __init__(self, provider: _Optional[_Union[Provider, str]] = ..., event_json: _Optional[str] = ..., event_name: _Optional[str] = ...) -> None: ...

class ReceiptRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class StreamBind(_message.Message):
    __slots__ = ["output_handle", "output_schema", "schemas", "strip_code_fence", "tools"]
    class SchemasEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: CompileSchemaRequest
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[CompileSchemaRequest, _Mapping]] = ...) -> None: ...
    class ToolsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    OUTPUT_HANDLE_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    SCHEMAS_FIELD_NUMBER: _ClassVar[int]
    STRIP_CODE_FENCE_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    output_handle: str
    output_schema: CompileSchemaRequest
    schemas: _containers.MessageMap[str, CompileSchemaRequest]
    strip_code_fence: bool
    tools: _containers.ScalarMap[str, str]
    def __init__(self, tools: _Optional[_Mapping[str, str]] = ..., output_handle: _Optional[str] = ..., strip_code_fence: bool = ..., schemas: _Optional[_Mapping[str, CompileSchemaRequest]] = ..., output_schema: _Optional[_Union[CompileSchemaRequest, _Mapping]] = ...) -> None: ...

class StreamEnd(_message.Message):
    __slots__ = ["events", "results"]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    events: int
    results: int
    def __init__(self, events: _Optional[int] = ..., results: _Optional[int] = ...) -> None: ...

class ToolList(_message.Message):
    __slots__ = ["tools"]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    tools: _containers.RepeatedCompositeFieldContainer[ToolSchema]
    def __init__(self, tools: _Optional[_Iterable[_Union[ToolSchema, _Mapping]]] = ...) -> None: ...

class ToolResult(_message.Message):
    __slots__ = ["code", "errors", "errors_truncated", "handle", "name", "warnings", "warnings_truncated"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    ERRORS_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    code: ErrorCode
    errors: _containers.RepeatedCompositeFieldContainer[Error]
    errors_truncated: bool
    handle: str
    name: str
    warnings: _containers.RepeatedCompositeFieldContainer[Error]
    warnings_truncated: bool
    def __init__(self, name: _Optional[str] = ..., handle: _Optional[str] = ..., code: _Optional[_Union[ErrorCode, str]] = ..., errors: _Optional[_Iterable[_Union[Error, _Mapping]]] = ..., warnings: _Optional[_Iterable[_Union[Error, _Mapping]]] = ..., errors_truncated: bool = ..., warnings_truncated: bool = ...) -> None: ...

class ToolSchema(_message.Message):
    __slots__ = ["name", "schema_json"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    name: str
    schema_json: str
    def __init__(self, name: _Optional[str] = ..., schema_json: _Optional[str] = ...) -> None: ...

class ValidateRequest(_message.Message):
    __slots__ = ["arguments_json", "arguments_struct", "handle", "inline"]
    ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_STRUCT_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    INLINE_FIELD_NUMBER: _ClassVar[int]
    arguments_json: str
    arguments_struct: _struct_pb2.Struct
    handle: str
    inline: CompileSchemaRequest
    def __init__(self, handle: _Optional[str] = ..., inline: _Optional[_Union[CompileSchemaRequest, _Mapping]] = ..., arguments_json: _Optional[str] = ..., arguments_struct: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ValidateResponse(_message.Message):
    __slots__ = ["code", "errors", "errors_truncated", "handle", "valid"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    ERRORS_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    code: ErrorCode
    errors: _containers.RepeatedCompositeFieldContainer[Error]
    errors_truncated: bool
    handle: str
    valid: bool
    def __init__(self, valid: bool = ..., code: _Optional[_Union[ErrorCode, str]] = ..., errors: _Optional[_Iterable[_Union[Error, _Mapping]]] = ..., handle: _Optional[str] = ..., errors_truncated: bool = ...) -> None: ...

class ValidateStreamRequest(_message.Message):
    __slots__ = ["bind", "delta", "end", "provider_event", "receipt", "start"]
    BIND_FIELD_NUMBER: _ClassVar[int]
    DELTA_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_EVENT_FIELD_NUMBER: _ClassVar[int]
    RECEIPT_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    bind: StreamBind
    delta: CallDelta
    end: CallEnd
    provider_event: ProviderEvent
    receipt: ReceiptRequest
    start: CallStart
    def __init__(self, bind: _Optional[_Union[StreamBind, _Mapping]] = ..., start: _Optional[_Union[CallStart, _Mapping]] = ..., delta: _Optional[_Union[CallDelta, _Mapping]] = ..., end: _Optional[_Union[CallEnd, _Mapping]] = ..., provider_event: _Optional[_Union[ProviderEvent, _Mapping]] = ..., receipt: _Optional[_Union[ReceiptRequest, _Mapping]] = ...) -> None: ...

class ValidateStreamResponse(_message.Message):
    __slots__ = ["end", "result"]
    END_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    end: StreamEnd
    result: CallResult
    def __init__(self, result: _Optional[_Union[CallResult, _Mapping]] = ..., end: _Optional[_Union[StreamEnd, _Mapping]] = ...) -> None: ...

class Profile(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ErrorCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Provider(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Admission(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
