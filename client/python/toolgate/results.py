"""Results as plain, immutable Python values.

Every RPC answer is converted once, here, from its proto message into a frozen
dataclass whose fields have the proto field names: enums become names
(``ErrorCode`` members), repeated findings become tuples of ``Finding`` (and
a toolset's tools a tuple of ``ToolResult``), maps become ``dict``, int64
fields become ``int``. ``dataclasses.asdict(result)`` gives a dict that
``json.dumps`` writes as is.
"""

import dataclasses

from toolgate.enums import from_number, kind_of


@dataclasses.dataclass(frozen=True)
class Finding:
    """One finding about a schema or about arguments.

    ``code``, ``keyword``, ``schema_path`` and ``instance_path`` are the stable
    part to switch on; ``message`` is one sentence fit to hand back to the model
    as the tool error, and may change between releases.
    """

    code: str
    """An ``ErrorCode`` (never ``UNSPECIFIED``)."""
    keyword: str
    """The rule: a JSON Schema keyword, or a pseudo-keyword such as "json"."""
    schema_path: str
    """RFC 6901 pointer into the schema ("" when no schema location applies)."""
    instance_path: str
    """RFC 6901 pointer into the arguments ("" for the root, and for schema findings)."""
    message: str
    """Prose for the model; do not parse it."""
    offset: int
    """Byte offset into the arguments where it was detected (0 for schema findings)."""


@dataclasses.dataclass(frozen=True)
class CompileResult:
    """The outcome of compiling one schema (CompileSchemaResponse)."""

    handle: str
    """The content address of the compiled schema; "" unless it compiled."""
    code: str
    """``ErrorCode.UNSPECIFIED`` when it compiled, else the worst finding's code."""
    errors: tuple[Finding, ...]
    """Every finding, up to the server's cap; empty when it compiled."""
    warnings: tuple[Finding, ...]
    """Keywords accepted but not enforced; they do not prevent compilation."""
    errors_truncated: bool
    """True when the server had more findings than it sent."""
    warnings_truncated: bool
    """True when the server had more warnings than it sent."""


@dataclasses.dataclass(frozen=True)
class ValidationResult:
    """The verdict on one set of arguments (ValidateResponse)."""

    valid: bool
    """True exactly when the schema compiled and the arguments satisfy it."""
    code: str
    """``ErrorCode.UNSPECIFIED`` when valid, else the worst finding's code."""
    errors: tuple[Finding, ...]
    """Every violation in byte order (schema findings if an inline schema did not compile)."""
    handle: str
    """The handle the arguments were checked against ("" if an inline schema did not compile)."""
    errors_truncated: bool
    """True when the server had more findings than it sent."""


@dataclasses.dataclass(frozen=True)
class CallResult:
    """The verdict on one streamed tool call, sent as soon as it is known."""

    call_id: str
    """The call's id: the ``Start``'s, or the provider's tool-call id."""
    tool_name: str
    """The call's tool name ("" when nothing named it)."""
    valid: bool
    """True exactly when the call's complete arguments satisfy its schema."""
    code: str
    """``ErrorCode.UNSPECIFIED`` when valid, else the findings' code:
    ``ErrorCode.NOT_FOUND`` (keyword "handle") when the call was not
    validated at all, because its tool was bound by a handle that the
    replica serving the stream does not hold; bind the schema inline."""
    errors: tuple[Finding, ...]
    """The findings made at the byte that decided the verdict."""
    early: bool
    """True when rejected before the call ended: stop the generation."""
    bytes: int
    """Argument bytes received when the verdict was made."""
    errors_truncated: bool
    """True when the server had more findings than it sent."""


@dataclasses.dataclass(frozen=True)
class ToolResult:
    """The outcome for one tool of a toolset (ToolResult)."""

    name: str
    """The tool's name as given ("" when the tool had none)."""
    handle: str
    """The handle of the tool's compiled schema; "" unless it compiled."""
    code: str
    """``ErrorCode.UNSPECIFIED`` when the tool can be enforced,
    ``UNSUPPORTED_CAPABILITY`` when its schema uses something outside the
    profile, ``VALIDATION`` when the schema is malformed or the tool itself
    is (no name, a repeated name, no inputSchema)."""
    errors: tuple[Finding, ...]
    """Every finding, up to the server's cap. Schema paths point into the
    tool's schema (its inputSchema); findings about the tool itself have
    keyword "name" or "inputSchema" and an empty ``schema_path``."""
    warnings: tuple[Finding, ...]
    """Keywords accepted but not enforced; they do not prevent compilation."""
    errors_truncated: bool
    """True when the server had more findings than it sent."""
    warnings_truncated: bool
    """True when the server had more warnings than it sent."""


@dataclasses.dataclass(frozen=True)
class ToolsetResult:
    """The outcome of compiling a toolset (CompileToolsetResponse)."""

    tools: tuple[ToolResult, ...]
    """One result per tool of the request, in input order."""
    bind: dict[str, str]
    """Tool name to handle of every tool that compiled, for
    ``Client.validate_stream(handles=...)``: tools with findings, and every
    tool whose name occurs more than once, are left out; empty under
    ``Admission.STRICT`` unless every tool compiled.

    A plain ``dict``, this result's own copy of the response's map (a
    ``types.MappingProxyType`` would break ``dataclasses.asdict``): changing
    it changes nothing on the server, and, holding a dict, a
    ``ToolsetResult`` is not hashable."""
    admitted: bool
    """False only under ``Admission.STRICT`` when some tool did not compile
    (then ``bind`` is empty)."""
    more_pages: bool
    """True when the tools/list result is one page of a longer list (it has
    a non-empty ``nextCursor``): only that page's tools are here. Fetch
    every page and send their tools together to bind them all."""


# Each message that responses repeat, by proto name, with its dataclass.
_KINDS = {"Error": Finding, "ToolResult": ToolResult}


def from_message(kind, message):
    """Converts a proto ``message`` into the dataclass ``kind`` of the same shape.

    Each field of ``kind`` is read from the proto field of the same name: an
    enum becomes its name (an ``ErrorCode`` member, say), a repeated message
    a tuple of its dataclass (``Finding`` for ``Error``, ``ToolResult`` for
    ``ToolResult``), a map of strings (as every response map is) a ``dict``
    copy, a scalar stays as it is.
    """
    values = {}
    for field in dataclasses.fields(kind):
        value = getattr(message, field.name)
        descriptor = message.DESCRIPTOR.fields_by_name[field.name]
        if descriptor.enum_type is not None:
            value = from_number(kind_of(descriptor.enum_type), value)
        elif descriptor.message_type is not None and descriptor.message_type.GetOptions().map_entry:
            value = dict(value)
        elif descriptor.message_type is not None:
            item_kind = _KINDS[descriptor.message_type.name]
            value = tuple(from_message(item_kind, item) for item in value)
        values[field.name] = value
    return kind(**values)
