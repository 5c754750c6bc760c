"""Request messages, built in one place: schemas and arguments always travel
in the exact ``*_json`` fields, enums by checked name."""

from toolgate.enums import Profile, to_number
from toolgate.jsontext import json_text
from toolgate.v1 import validation_pb2 as pb


def compile_request(schema, profile):
    """Returns the CompileSchemaRequest for ``schema`` (see ``json_text``)
    under ``profile`` (a ``Profile`` or its name).

    Raises ``ValueError`` or ``TypeError`` for a profile or schema that cannot
    be sent as meant.
    """
    return pb.CompileSchemaRequest(profile=to_number(Profile, profile), schema_json=json_text(schema, "schema"))


def validate_request(arguments, *, handle=None, inline=None):
    """Returns the ValidateRequest for ``arguments`` against ``handle`` or
    against ``inline``, a CompileSchemaRequest (exactly one of the two)."""
    arguments_json = json_text(arguments, "arguments")
    if inline is not None:
        return pb.ValidateRequest(inline=inline, arguments_json=arguments_json)
    return pb.ValidateRequest(handle=handle, arguments_json=arguments_json)
