"""Request messages, built in one place: schemas and arguments always travel
in the exact ``*_json`` fields, enums by checked name."""

from collections.abc import Mapping

from toolgate.enums import Profile, to_number
from toolgate.jsontext import json_text
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
    return pb.CompileSchemaRequest(
        profile=to_number(Profile, profile),
        schema_json=json_text(schema, "schema"),
        resources=_resource_texts(resources),
        format_assertion=flag(format_assertion, "format_assertion"),
    )


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
        texts[uri] = json_text(document, f"resource {uri!r}")
    return texts


def validate_request(arguments, *, handle=None, inline=None):
    """Returns the ValidateRequest for ``arguments`` against ``handle`` or
    against ``inline``, a CompileSchemaRequest (exactly one of the two)."""
    arguments_json = json_text(arguments, "arguments")
    if inline is not None:
        return pb.ValidateRequest(inline=inline, arguments_json=arguments_json)
    return pb.ValidateRequest(handle=handle, arguments_json=arguments_json)
