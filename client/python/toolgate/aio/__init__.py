"""toolgate.aio: the asyncio client for toolgate's ValidationService, on
``grpc.aio``, for agent runtimes that run on an event loop. Needs Python
3.11 or later (``Task.cancelling`` tells the stream's own cancellation from
its call's).

It promises what the sync client (``toolgate``) promises, with coroutines
in place of blocking calls::

    import toolgate.aio

    async def main():
        async with toolgate.aio.Client.connect("127.0.0.1:50051", insecure=True) as client:
            validator = client.validator()
            handle = (await validator.register({"type": "object", "properties": {"city": {"type": "string"}}})).handle
            result = await validator.validate(handle, '{"city": "Oslo"}')

            async with client.validate_stream(events, tools=tools, provider=toolgate.Provider.ANTHROPIC) as results:
                async for call in results:
                    if call.early:
                        break  # the stream ends, and events is closed, at the with block's exit

The same arguments and keywords, the same results (the frozen dataclasses
of ``toolgate.results``), the same errors (``grpc.RpcError``: a
``grpc.aio.AioRpcError`` is one; ``toolgate.SchemaError`` from
``Validator.register``; ``toolgate.ReceiptError`` from a stream that ended
without the server's receipt), and the same ``ValueError``/``TypeError`` before
anything is sent. Stream events are the same kinds (``toolgate.Start``,
``Answer``, ``Delta``, ``End``, ``Named``, raw payloads), from an async iterable or a
plain one. The enums, results and event kinds are the sync package's own,
re-exported here.
"""

import toolgate
from toolgate.aio.client import Client
from toolgate.aio.stream import ResultStream
from toolgate.aio.validator import Validator
from toolgate.enums import Admission, ErrorCode, Profile, Provider
from toolgate.results import CallResult, CompileResult, Finding, ToolResult, ToolsetResult, ValidationResult
from toolgate.stream import Answer, Delta, End, Named, ReceiptError, Start
from toolgate.validator import SchemaError

# The sync package's public names: the enums, results and event kinds are
# its own, and Client, ResultStream and Validator these asyncio ones.
__all__ = list(toolgate.__all__)
