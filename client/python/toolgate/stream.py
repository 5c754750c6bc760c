"""Streams: validate tool calls while the model generates them.

``Client.validate_stream(events, tools=..., provider=...)`` opens one
ValidateStream, binds ``tools`` (tool name to schema), and sends each event as
soon as ``events`` yields it, while the returned ``ResultStream`` yields each
call's ``CallResult`` as soon as the server decides it. An early rejection
(``result.early``) arrives while the provider is still generating: close the
``ResultStream`` (or leave its ``with`` block, or ``break`` out of a ``for``
over it) and stop the provider's response, and nothing more is sent or paid
for.

Events are raw provider stream events (``str`` or ``bytes``: the payload of
one server-sent event's ``data:`` lines, with ``provider`` naming the API;
OpenAI's ``[DONE]`` and empty payloads are ignored by the server) or explicit
``Start``, ``Delta`` and ``End`` events for calls that the caller assembles
itself. Both kinds may be mixed.
"""

import dataclasses
import threading

import grpc

from toolgate.enums import Profile, Provider, to_number
from toolgate.messages import compile_request
from toolgate.results import CallResult, from_message
from toolgate.v1 import validation_pb2 as pb
from toolgate.validator import SchemaError


@dataclasses.dataclass(frozen=True)
class Start:
    """Starts call ``call_id`` (unique within the stream) of tool ``tool_name``."""

    call_id: str
    tool_name: str


@dataclasses.dataclass(frozen=True)
class Delta:
    """Appends ``fragment`` (any piece of the arguments' JSON text) to a call."""

    call_id: str
    fragment: str


@dataclasses.dataclass(frozen=True)
class End:
    """Ends a call; one that received no argument bytes is validated as ``{}``."""

    call_id: str


class ResultStream:
    """The ``CallResult`` of each call of one ValidateStream, as they arrive.

    Iterate over it (once). The server sends exactly one result per call;
    when ``events`` is exhausted the stream is half-closed, so calls still
    open are ended (an incomplete one is ``VALIDATION`` with keyword "json")
    and their results end the iteration.

    ``close()`` ends the stream at once (calls still open get no result) and
    the iteration with it, without an error; leaving a ``with`` block over the
    stream, or dropping the last reference to it, does the same. Events that
    ``events`` is still producing are then not sent; a pull from ``events``
    already in progress (a read from the provider's HTTP response) ends only
    when that iterator returns, so also close the provider's response to stop
    the generation.

    Iteration raises the exception ``events`` raised (or the ``TypeError``
    for an event of no known kind), which ends the stream, and otherwise the
    stream's ``grpc.RpcError``: ``INVALID_ARGUMENT`` for a provider event the
    server cannot parse or a repeated call id, ``RESOURCE_EXHAUSTED`` past
    the server's limits, ``DEADLINE_EXCEEDED`` past ``timeout``.
    """

    def __init__(self, call, requests):
        self._call = call
        self._requests = requests
        self._closed = False

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            try:
                response = next(self._call)
            except grpc.RpcError:
                if self._closed:
                    raise StopIteration from None
                if self._requests.failure is not None:
                    raise self._requests.failure from None
                raise
            if response.HasField("result"):
                return from_message(CallResult, response.result)
            # A response of a kind this client does not know: skip it.

    def close(self):
        """Ends the stream now; idempotent, and harmless after its end."""
        self._closed = True
        self._call.cancel()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        self.close()


def open_stream(client, events, *, tools, provider, profile, timeout):
    """Opens the ValidateStream of ``Client.validate_stream``, which documents
    the arguments; every one is checked before the stream opens."""
    provider_number = None if provider is None else to_number(Provider, provider)
    to_number(Profile, profile)  # checked even when there are no tools to compile
    bind = _bind(client, tools or {}, profile, timeout)
    requests = _Requests(bind, iter(events), provider_number)
    call = client.stub.ValidateStream(requests, timeout=timeout, metadata=client._metadata)
    requests.attach(call)
    return ResultStream(call, requests)


def _bind(client, tools, profile, timeout):
    """Returns the bind request for ``tools``, or None when there are none.

    Each schema is compiled first and bound by handle.
    """
    if not tools:
        return None
    handles = {}
    for name, schema in tools.items():
        result = client._compile(compile_request(schema, profile), timeout)
        if not result.handle:
            raise SchemaError(result)
        handles[name] = result.handle
    return pb.ValidateStreamRequest(bind=pb.StreamBind(tools=handles))


class _Requests:
    """The request iterator that gRPC's sending thread pulls from: the bind,
    then one request per event, converted as it is pulled.

    A failure while pulling (the events' own exception, or an event of no
    known kind) is kept in ``failure`` and cancels the call, rather than
    reaching gRPC, which would log it and end the call with UNKNOWN.
    """

    def __init__(self, bind, events, provider):
        self._bind = bind
        self._events = events
        self._provider = provider
        self._call = None
        self._attached = threading.Event()
        self.failure = None

    def attach(self, call):
        """Gives the iterator the call to cancel on failure."""
        self._call = call
        self._attached.set()

    def __iter__(self):
        return self

    def __next__(self):
        if self._bind is not None:
            bind, self._bind = self._bind, None
            return bind
        try:
            return self._request(next(self._events))
        except StopIteration:
            raise
        except Exception as err:  # noqa: BLE001 - reported to the reader of results
            self.failure = err
            self._attached.wait()
            self._call.cancel()
            raise StopIteration from None

    def _request(self, event):
        if isinstance(event, (str, bytes, bytearray)):
            if self._provider is None:
                raise TypeError("a raw provider event needs validate_stream(provider=...)")
            text = event if isinstance(event, str) else bytes(event).decode("utf-8")
            return pb.ValidateStreamRequest(
                provider_event=pb.ProviderEvent(provider=self._provider, event_json=text)
            )
        if isinstance(event, Start):
            return pb.ValidateStreamRequest(start=pb.CallStart(call_id=event.call_id, tool_name=event.tool_name))
        if isinstance(event, Delta):
            return pb.ValidateStreamRequest(delta=pb.CallDelta(call_id=event.call_id, fragment=event.fragment))
        if isinstance(event, End):
            return pb.ValidateStreamRequest(end=pb.CallEnd(call_id=event.call_id))
        raise TypeError(f"a stream event must be str, bytes, Start, Delta or End; got {type(event).__name__}")
