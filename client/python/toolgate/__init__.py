"""toolgate: the Python client for toolgate's ValidationService.

toolgate checks LLM tool-call arguments against JSON Schema before a tool
runs, on whole documents and on live provider streams::

    import toolgate

    with toolgate.Client.connect("127.0.0.1:50051", insecure=True) as client:
        validator = client.validator()
        handle = validator.register({"type": "object", "properties": {"city": {"type": "string"}}}).handle
        result = validator.validate(handle, '{"city": "Oslo"}')
        if not result.valid:
            print(result.errors[0].message)  # fit to hand back to the model

Schemas and arguments travel as exact JSON text (``str``, or a ``dict``
written by ``json.dumps``), never as a lossy protobuf Struct; results are
frozen dataclasses with enums as names (``ErrorCode.VALIDATION ==
"ERROR_CODE_VALIDATION"``). Schema and argument problems are answers; failed
calls raise ``grpc.RpcError`` (a stream that the server ended without its
receipt for what was sent raises ``ReceiptError``, one with code
``INTERNAL``). The generated stubs are in ``toolgate.v1``.

``toolgate.aio`` is the same client on asyncio (``grpc.aio``): coroutines
for the calls, async iteration for streams.

Needs ``grpcio`` and ``protobuf`` (Debian: python3-grpcio, python3-protobuf).
"""

from toolgate.client import Client
from toolgate.enums import Admission, ErrorCode, Profile, Provider
from toolgate.results import CallResult, CompileResult, Finding, ToolResult, ToolsetResult, ValidationResult
from toolgate.stream import Answer, Delta, End, Named, ReceiptError, ResultStream, Start
from toolgate.validator import SchemaError, Validator

__all__ = [
    "Admission",
    "Answer",
    "CallResult",
    "Client",
    "CompileResult",
    "Delta",
    "End",
    "ErrorCode",
    "Finding",
    "Named",
    "Profile",
    "Provider",
    "ReceiptError",
    "ResultStream",
    "SchemaError",
    "Start",
    "ToolResult",
    "ToolsetResult",
    "ValidationResult",
    "Validator",
]

from toolgate import aio  # noqa: E402 - after the modules it builds on, and __all__, which it shares
