"""Request messages, built in one place: schemas and arguments always travel
in the exact ``*_json`` fields, enums by checked name."""

from collections.abc import Mapping

from toolgate.enums import Admission, Profile, to_number
from toolgate.jsontext import check_text, json_text
from toolgate.v1 import validation_pb2 as pb


def compile_request(schema, profile, resources=None, format_assertion=False):
    """Returns the CompileSchemaRequest for ``schema`` (see ``json_text``)
    under ``profile`` (a ``Profile`` or its name).

    ``resources`` (default none) maps absolute URIs, as ``$ref`` and
    ``$schema`` name them, to further schema documents (JSON text or dicts);
    ``format_assertion`` (default false) asserts ``format``. Both are for
    ``Profile.JSON_SCHEMA``: the server refuses them under other profiles
    with ``INVALID_ARGUMENT``.

    Raises ``ValueError`` or ``TypeError`` for a profile, schema, resource or
    flag that cannot be sent as meant.
    """
    options = _compile_options(profile, resources, format_assertion)
    return pb.CompileSchemaRequest(schema_json=json_text(schema, "schema"), **options)


def toolset_request(tools, profile, admission, resources=None, format_assertion=False):
    """Returns the CompileToolsetRequest for ``tools`` under ``profile`` and
    ``admission`` (an ``Admission`` or its name), with ``resources`` and
    ``format_assertion`` as in ``compile_request``.

    ``tools`` takes the forms that ``Client.compile_toolset`` lists: a
    tools/list document (text, or a mapping that ``_is_tools_document``
    recognises) is sent as ``tools_list_json``, any other mapping of tool
    names to schemas as a ``ToolList`` in its order.

    Raises ``TypeError`` for tools of neither kind or a tool name that is
    not a ``str``, ``ValueError`` for one that holds a lone surrogate, and
    ``ValueError`` or ``TypeError`` for a profile, admission, schema,
    resource or flag that cannot be sent as meant.
    """
    request = pb.CompileToolsetRequest(admission=to_number(Admission, admission),
                                       **_compile_options(profile, resources, format_assertion))
    if isinstance(tools, (str, bytes, bytearray)) or _is_tools_document(tools):
        request.tools_list_json = json_text(tools, "tools")
        return request
    if not isinstance(tools, Mapping):
        raise TypeError("tools must be a tools/list result (JSON text or a dict) or map tool names to schemas; "
                        f"got {type(tools).__name__}")
    request.tools.SetInParent()  # no tools is still a ToolList, answered with no results
    for name, schema in tools.items():
        if not isinstance(name, str):
            raise TypeError(f"a tool name must be a str; got {name!r}")
        check_text(name, "a tool name")
        request.tools.tools.add(name=name, schema_json=json_text(schema, f"the schema of tool {name!r}"))
    return request


def _is_tools_document(tools):
    """Whether ``tools`` is a mapping that holds a tools/list document rather
    than tool names to schemas: it has a "tools" list (no schema is a list),
    a "jsonrpc" member, or a "result" with a "tools" list."""
    if not isinstance(tools, Mapping):
        return False
    return _has_tools_list(tools) or "jsonrpc" in tools or _has_tools_list(tools.get("result"))


def _has_tools_list(value):
    """Whether ``value`` is a mapping whose "tools" member is a list."""
    return isinstance(value, Mapping) and isinstance(value.get("tools"), (list, tuple))


def _compile_options(profile, resources, format_assertion):
    """The fields that every compile request has, checked, by field name."""
    return {
        "profile": to_number(Profile, profile),
        "resources": _resource_texts(resources),
        "format_assertion": flag(format_assertion, "format_assertion"),
    }


def flag(value, what):
    """Returns ``value`` if it is a ``bool``, and raises ``TypeError`` naming
    ``what`` otherwise: a truthy string or number is not sent as true."""
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be a bool; got {type(value).__name__}")
    return value


def _resource_texts(resources):
    """Returns ``resources`` as a dict of URI to JSON text."""
    if resources is None:
        return {}
    if not isinstance(resources, Mapping):
        raise TypeError(f"resources must map URIs to schema documents; got {type(resources).__name__}")
    texts = {}
    for uri, document in resources.items():
        if not isinstance(uri, str):
            raise TypeError(f"resources has a URI that is not a str: {uri!r}")
        check_text(uri, "a resource URI")
        texts[uri] = json_text(document, f"resource {uri!r}")
    return texts


def validate_request(arguments, *, handle=None, inline=None):
    """Returns the ValidateRequest for ``arguments`` against ``handle`` or
    against ``inline``, a CompileSchemaRequest (exactly one of the two)."""
    arguments_json = json_text(arguments, "arguments")
    check_text(handle, "handle")
    if inline is not None:
        return pb.ValidateRequest(inline=inline, arguments_json=arguments_json)
    return pb.ValidateRequest(handle=handle, arguments_json=arguments_json)
