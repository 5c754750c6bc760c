"""The API's enums as names: every member is the ``str`` of its proto name.

Members compare equal to the proto names (``ErrorCode.VALIDATION ==
"ERROR_CODE_VALIDATION"``), the spelling grpcurl and the protobuf JSON mapping
print, so results read the same in every language. Arguments that take an enum
accept a member or its exact name; anything else is a ``ValueError``, never a
silent 0.
"""

import enum

from toolgate.v1 import validation_pb2 as pb


class Profile(enum.StrEnum):
    """The JSON Schema subset a schema is compiled under."""

    UNSPECIFIED = "PROFILE_UNSPECIFIED"
    """Not set; the server treats it exactly as TOOL_INPUT. The default."""
    TOOL_INPUT = "PROFILE_TOOL_INPUT"
    """The strict tool input subset."""
    OUTPUT_BINDABLE = "PROFILE_OUTPUT_BINDABLE"
    """The bindable output subset for LLM structured output."""
    JSON_SCHEMA = "PROFILE_JSON_SCHEMA"
    """Full JSON Schema (2020-12, 2019-09, draft-07, -06, -04)."""


class ErrorCode(enum.StrEnum):
    """The classification of a finding, and of a result as a whole."""

    UNSPECIFIED = "ERROR_CODE_UNSPECIFIED"
    """No error: a result has it exactly when it has no errors."""
    UNSUPPORTED_CAPABILITY = "ERROR_CODE_UNSUPPORTED_CAPABILITY"
    """The schema uses something the profile cannot honour."""
    VALIDATION = "ERROR_CODE_VALIDATION"
    """A malformed schema, or arguments that do not satisfy it."""
    NOT_FOUND = "ERROR_CODE_NOT_FOUND"
    """A stream call that was not validated: the handle its tool is bound to
    is not held by the replica serving the stream (keyword "handle"). Only
    tools bound by handle get it; bind schemas inline."""


class Provider(enum.StrEnum):
    """The model provider's streaming API that raw stream events come from."""

    UNSPECIFIED = "PROVIDER_UNSPECIFIED"
    """Not set; the server refuses it with INVALID_ARGUMENT."""
    OPENAI_CHAT = "PROVIDER_OPENAI_CHAT"
    """OpenAI Chat Completions chunks, and OpenAI-compatible servers."""
    OPENAI_RESPONSES = "PROVIDER_OPENAI_RESPONSES"
    """OpenAI Responses API events."""
    ANTHROPIC = "PROVIDER_ANTHROPIC"
    """Anthropic Messages stream events."""
    GEMINI = "PROVIDER_GEMINI"
    """Google Gemini streamGenerateContent responses."""
    BEDROCK = "PROVIDER_BEDROCK"
    """Amazon Bedrock ConverseStream events, as JSON."""
    COHERE = "PROVIDER_COHERE"
    """Cohere v2 chat stream events."""


class Admission(enum.StrEnum):
    """What ``Client.compile_toolset`` binds when some tools do not compile."""

    UNSPECIFIED = "ADMISSION_UNSPECIFIED"
    """Not set; the server treats it exactly as QUARANTINE. The default."""
    QUARANTINE = "ADMISSION_QUARANTINE"
    """Bind every tool that compiled; the others stay unbound (their calls
    get keyword "tool_name")."""
    STRICT = "ADMISSION_STRICT"
    """Bind nothing unless every tool compiled."""


# Each enum with the generated wrapper that maps its names to numbers.
_WRAPPERS = {Profile: pb.Profile, ErrorCode: pb.ErrorCode, Provider: pb.Provider, Admission: pb.Admission}


def to_number(kind, value):
    """Returns the proto number of ``value``, a member of ``kind`` or its name.

    Raises ``ValueError`` naming the accepted names for anything else (an
    int, a lower-case or unknown name), so that a typo is never sent as 0.
    """
    try:
        member = kind(value) if isinstance(value, str) else None
    except ValueError:
        member = None
    if member is None:
        names = ", ".join(m.value for m in kind)
        raise ValueError(f"{kind.__name__} must be one of {names}; got {value!r}")
    return _WRAPPERS[kind].Value(member.value)


def kind_of(enum_descriptor):
    """Returns the enum class of a generated enum descriptor: ``ErrorCode`` for
    ``toolgate.v1.ErrorCode``. Raises ``KeyError`` for an enum this module lacks.
    """
    return {kind.__name__: kind for kind in _WRAPPERS}[enum_descriptor.name]


def from_number(kind, number):
    """Returns the member of ``kind`` for a proto ``number`` from a response.

    A number this client's stubs do not know (a newer server) is returned as
    its decimal ``str``, as the protobuf JSON mapping prints it, rather than
    failing: results still carry ``valid``.
    """
    try:
        return kind(_WRAPPERS[kind].Name(number))
    except ValueError:
        return str(number)
