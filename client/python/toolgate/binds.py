"""The bind messages that open a stream: schemas inline, so that a stream is
validated on whichever replica it reaches.

A stream helper never binds a tool by handle unless the caller asks: a
handle is held only by the replicas that compiled it, and behind a load
balancer a stream may reach any other. Each tool's ``CompileSchemaRequest``
travels in ``StreamBind.schemas`` and the output schema in
``StreamBind.output_schema``; the replica compiles them, or finds them
compiled (handles are content addresses), before the first event.
"""

from collections.abc import Mapping

from toolgate.enums import Profile, to_number
from toolgate.jsontext import check_text
from toolgate.messages import compile_request, flag
from toolgate.v1 import validation_pb2 as pb

MAX_BIND_BYTES = 1 << 20
"""The most schema bytes (tool names and encoded schema requests) that one
bind message carries, so that a large toolset bound inline stays far below a
server's message limit (4 MiB by default); more schemas go in further binds.
A single schema larger than this goes alone in its own bind."""


def bind_requests(*, tools=None, handles=None, output=None, strip_code_fence=False):
    """Returns the ValidateStreamRequests that bind a stream, in order.

    ``tools`` maps tool names to CompileSchemaRequests, bound inline, in
    binds of at most ``MAX_BIND_BYTES`` each, in the order given;
    ``handles`` maps tool names to handles, bound by handle in one further
    bind; ``output``, a CompileSchemaRequest, is bound to the message
    output (with ``strip_code_fence``) in the first bind. Default none of
    them; nothing to bind gives no request.

    Raises ``TypeError`` for ``handles`` that is not a mapping, a handle or a
    tool name that is not a ``str``, and ``ValueError`` for one that holds a
    lone surrogate and for a name in both ``tools`` and ``handles``, which
    would leave the schema of its calls to a rule of the server's.
    """
    if handles is not None and not isinstance(handles, Mapping):
        raise TypeError(f"handles must map tool names to handles; got {type(handles).__name__}")
    tools, handles = dict(tools or {}), dict(handles or {})
    for name, handle in handles.items():
        if not isinstance(name, str) or not isinstance(handle, str):
            raise TypeError(f"handles must map tool names to handles, both str; got {name!r}: {handle!r}")
        check_text(name, "a tool name")
        check_text(handle, f"the handle of tool {name!r}")
    for name in tools:
        if not isinstance(name, str):
            raise TypeError(f"a tool name must be a str; got {name!r}")
        check_text(name, "a tool name")
    both = sorted(tools.keys() & handles.keys())
    if both:
        raise ValueError(f"tools and handles both name {', '.join(map(repr, both))}: bind each tool one way")

    binds = []
    if output is not None:
        binds.append(pb.StreamBind(output_schema=output, strip_code_fence=strip_code_fence))
    size = MAX_BIND_BYTES  # no bind of schemas is open yet
    for name, request in tools.items():
        n = len(name.encode("utf-8")) + request.ByteSize()
        if size + n > MAX_BIND_BYTES:
            binds.append(pb.StreamBind())
            size = 0
        binds[-1].schemas[name].CopyFrom(request)
        size += n
    if handles:
        binds.append(pb.StreamBind(tools=handles))
    return [pb.ValidateStreamRequest(bind=bind) for bind in binds]


def tool_binds(tools, handles, profile, resources, format_assertion, **output):
    """Returns the binds of a stream's tools, checked as
    ``Client.validate_stream`` documents: ``tools`` (a mapping of tool names
    to schemas) compiled under ``profile`` with ``resources`` and
    ``format_assertion``, and ``handles``; ``output`` is the output
    schema's arguments of ``bind_requests``.

    Raises ``ValueError`` or ``TypeError``, before anything is sent, for
    what ``compile_request`` and ``bind_requests`` refuse, for ``tools``
    that is not a mapping, and for a ``profile`` that is not a ``Profile``
    (checked even when there are no tools to compile).
    """
    to_number(Profile, profile)
    if not isinstance(tools or {}, Mapping):
        raise TypeError(f"tools must map tool names to schemas; got {type(tools).__name__}")
    tools = {name: compile_request(schema, profile, resources, format_assertion)
             for name, schema in (tools or {}).items()}
    return bind_requests(tools=tools, handles=handles, **output)


def output_binds(schema, tools, handles, profile, tool_profile, resources, format_assertion, strip_code_fence):
    """Returns the binds of a structured-output stream, checked as
    ``Client.validate_output_stream`` documents: the output ``schema``
    compiled under ``profile``, bound with ``strip_code_fence``, and the
    tools beside it as ``tool_binds`` binds them under ``tool_profile``;
    ``resources`` and ``format_assertion`` go with every schema.

    Raises ``ValueError`` or ``TypeError`` as ``tool_binds`` does, and for
    an output schema or a ``strip_code_fence`` that cannot be sent.
    """
    output = compile_request(schema, profile, resources, format_assertion)
    return tool_binds(tools, handles, tool_profile, resources, format_assertion, output=output,
                      strip_code_fence=flag(strip_code_fence, "strip_code_fence"))
