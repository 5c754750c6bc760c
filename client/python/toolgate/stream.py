"""Streams: validate tool calls, and structured output, while the model
generates them.

``Client.validate_stream(events, tools=..., provider=...)`` opens one
ValidateStream, binds ``tools`` (tool name to schema) inline, and sends each
event as soon as ``events`` yields it, while the returned ``ResultStream``
yields each call's ``CallResult`` as soon as the server decides it.
``Client.validate_output_stream`` does the same for the message text, bound
to an output schema. An early rejection (``result.early``) arrives while the
provider is still generating: close the ``ResultStream`` (or leave its
``with`` block, or ``break`` out of a ``for`` over it) and stop the
provider's response, and nothing more is sent or paid for.

Events are raw provider stream events (``str`` or ``bytes``: the payload of
one server-sent event's ``data:`` lines, with ``provider`` naming the API;
send OpenAI's ``[DONE]`` too, which ends an OpenAI stream where the SDKs
stop reading; empty payloads are ignored by the server), such a payload
with its event name (``Named``: send it when the stream names its events,
as Anthropic's does, so that the server reads each event as the provider's
SDK does; an ``error`` event without data as ``Named("error", "")``, which
cuts the answer as the SDKs raise on it), or explicit ``Start``, ``Delta`` and ``End`` events
for calls that the caller assembles itself (``Answer`` in place of ``Start``
for an output stream's answer). The kinds may be mixed.
"""

import collections
import dataclasses
import queue
import sys
import threading

import grpc

from toolgate.enums import Provider, to_number
from toolgate.jsontext import check_text
from toolgate.results import CallResult, from_message
from toolgate.rpcerror import ClientRpcError
from toolgate.v1 import validation_pb2 as pb


@dataclasses.dataclass(frozen=True)
class Start:
    """Starts call ``call_id`` (unique within the stream) of tool ``tool_name``."""

    call_id: str
    tool_name: str


@dataclasses.dataclass(frozen=True)
class Answer:
    """Starts the stream's structured-output answer as call ``call_id``, sent
    as plain deltas: its ``Delta`` events carry the message text (read from
    the provider by the caller), checked against the schema
    ``validate_output_stream`` binds, with its ``strip_code_fence``, as a
    raw provider answer is. Its result has this ``call_id`` and an empty
    ``tool_name``; a stream that binds no output ends ``INVALID_ARGUMENT``."""

    call_id: str


@dataclasses.dataclass(frozen=True)
class Delta:
    """Appends ``fragment`` (any piece of the arguments' JSON text) to a call."""

    call_id: str
    fragment: str


@dataclasses.dataclass(frozen=True)
class End:
    """Ends a call; one that received no argument bytes is validated as ``{}``."""

    call_id: str


@dataclasses.dataclass(frozen=True)
class Named:
    """A raw provider event with its name: ``data`` is the server-sent
    event's ``data:`` payload (``str`` or ``bytes``), ``name`` its
    ``event:`` field (or Bedrock's ``:event-type``). The server refuses an
    event whose name disagrees with its payload, as the provider's SDK
    would read it as another event (``ProviderEvent.event_name``)."""

    name: str
    data: "str | bytes"


class ReceiptError(ClientRpcError):
    """The failure of a stream that the server ended with OK, but not as a
    server that read every event does: without its receipt (the
    ``StreamEnd`` it sends last), with a receipt whose counts differ from
    the client's own (the request messages it sent, binds included; the
    results it received), or with a message after the receipt. A proxy (or
    a server) that ended the stream without reading it would otherwise look
    like one that read every event and found no calls.

    A stream that the server ended with OK before the client half-closed
    it (before ``events`` ended) fails with one too, whatever its receipt
    counts: the calls that were still to come were never validated.

    A ``grpc.RpcError``, as the stream's other failures: ``code()`` is
    ``grpc.StatusCode.INTERNAL`` and ``details()`` says which of the four.
    It also answers what generic handlers of ``grpc.RpcError`` ask a
    ``grpc.Call``: ``initial_metadata()`` and ``trailing_metadata()`` (an
    empty tuple: the error is the client's, not the server's) and
    ``debug_error_string()`` (its details).
    """

    status = grpc.StatusCode.INTERNAL


NO_RECEIPT = "the stream ended without the server's receipt for the events sent"
AFTER_RECEIPT = "the server sent a message after the stream's receipt"
ENDED_EARLY = "the server ended the stream before the events ended"


def receipt_failure(receipt, sent, results, half_closed):
    """Returns the ``ReceiptError`` of a stream that ended with OK after the
    client sent ``sent`` request messages and received ``results``
    CallResults, given its ``receipt`` (a ``StreamEnd``, None when none came)
    and whether the client had half-closed it (``half_closed``: its events
    had ended), or None when it had and the receipt counts both. A receipt
    proves what the server read, not that it read to the end: only the
    half-close tells an early OK end from a complete one."""
    if not half_closed:
        return ReceiptError(ENDED_EARLY)
    if receipt is None:
        return ReceiptError(NO_RECEIPT)
    if receipt.events != sent or receipt.results != results:
        return ReceiptError(f"the server's receipt counts {receipt.events} events and {receipt.results} results; "
                            f"the client sent {sent} and received {results}")
    return None


# Dropping the call: once a stream is closed or over, neither its
# ResultStream nor its _Requests holds the gRPC call, whose last reference
# then goes with the thread of _receive. gRPC's call takes a lock of its own
# when it is collected, which a daemon thread of gRPC's, frozen at
# interpreter exit, may hold: a closed stream still referenced then (by a
# module's global) must not take the call with it, nor cancel it again.


class ResultStream:
    """The ``CallResult`` of each call of one ValidateStream, as they arrive.

    Iterate over it (once). The server sends exactly one result per call;
    when ``events`` is exhausted the stream is half-closed, so calls still
    open are ended (an incomplete one is ``VALIDATION`` with keyword "json")
    and their results end the iteration. Once the stream is over (its last
    result, an error, its timeout), nothing more is pulled from ``events``
    and ``events`` is closed, as ``close()`` does, even while the caller is
    still busy with an earlier result.

    ``close()`` ends the stream at once (calls still open get no result) and
    the iteration with it, without an error; leaving a ``with`` block over the
    stream, or dropping the last reference to it, does the same. Nothing more
    is pulled from ``events``, and ``events`` is closed (its ``close()`` is
    called, if it has one, as generators do): at once, or, when a pull is in
    progress (a read from the provider's HTTP response), as soon as that
    pull returns; so also close the provider's response to stop the
    generation.

    A result with code ``ErrorCode.NOT_FOUND`` (keyword "handle", ``early``)
    is a call that was not validated: its tool was bound by a handle (the
    ``handles`` argument) that the replica serving the stream does not hold.
    Treat it as refused; tools bound inline (``tools``) never get it.

    Results are received on a thread of the stream's own as they arrive,
    whether or not the caller is iterating. Those received before the stream
    failed are yielded first; then iteration raises what ended the stream:
    the exception ``events`` raised (or the ``TypeError`` for an event of no
    known kind), or the stream's ``grpc.RpcError``: ``INVALID_ARGUMENT``
    for a schema that does not compile (naming the tool and its first
    finding), a malformed handle, a provider event the server cannot parse
    or a repeated call id, ``RESOURCE_EXHAUSTED`` past the server's limits,
    ``DEADLINE_EXCEEDED`` past ``timeout``; or, for a stream that ended with
    OK before ``events`` ended (before the client half-closed it), without
    the server's receipt for what was sent and received (the ``StreamEnd``
    it sends last, which is never yielded), with a receipt whose counts are
    not the client's, or with a message after it, a ``ReceiptError`` (a
    ``grpc.RpcError`` with code ``INTERNAL``). The exception ``events``
    raised may be any ``BaseException`` (``SystemExit``, gevent's
    ``GreenletExit``): it ends the stream, as an ``Exception`` does.
    """

    def __init__(self, call, requests):
        self._call = call
        self._requests = requests
        self._responses = queue.SimpleQueue()  # filled by _receive, then its _End
        self._closed = False
        self._ended = False  # the _End was taken
        self._failure = None  # what ended the stream, raised again on later pulls
        # The thread holds no reference to self, whose collection closes the stream.
        threading.Thread(target=_receive, args=(call, requests, self._responses), name="toolgate-results",
                         daemon=True).start()

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            if self._failure is not None:
                raise self._failure
            if self._closed or self._ended:
                raise StopIteration
            response = self._responses.get()
            if isinstance(response, _End):
                self._ended = True
                self._call = None  # over: see "Dropping the call"
                if not self._closed:  # its failure, or the events' that cancelled it
                    self._failure = self._requests.failure or response.error
            elif response.HasField("result"):
                return from_message(CallResult, response.result)
            # A response of a kind this client does not know: skip it.

    def close(self):
        """Ends the stream now and closes ``events``; idempotent, and harmless
        after its end."""
        self._closed = True
        call, self._call = self._call, None  # see "Dropping the call"
        # The events first: cancelling wakes _receive, which would close
        # them on its own thread, where what close() raises is not the caller's.
        try:
            self._requests.close()
        finally:
            if call is not None:
                call.cancel()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        # Only a stream still open: cancelling takes a lock of gRPC's, which
        # at interpreter exit a frozen daemon thread of gRPC's may hold.
        if not (self._closed or self._ended) and not sys.is_finalizing():
            self.close()


class _End:
    """The last item ``_receive`` queues: how the call ended."""

    def __init__(self, error):
        self.error = error  # the call's, or closing the events', exception; None when both ended well


def _receive(call, requests, responses):
    """Queues each response of ``call`` on ``responses`` as it arrives;
    once the call is over, closes ``requests`` and queues an ``_End``.

    Reading at once, rather than when the caller asks for the next result,
    keeps the results that arrived before a failure (a cancelled gRPC call
    drops those it has not handed out), and closes the events when the
    stream ends rather than when the caller next looks. Closing before the
    ``_End`` settles ``requests.failure`` before the caller reads it; what
    closing the events raises ends a stream that ended well.

    The receipt (``StreamEnd``) is kept, not queued: a call that ends with
    OK without it, or with counts other than ``requests.sent`` and the
    results queued, fails with a ``ReceiptError``, and so does one that
    sends a message after it, which cancels the call. A server ends with OK
    only once the client has half-closed, after the last request was
    pulled, so ``requests.sent`` is final by then; a call that ends with OK
    before that (``requests.half_closed`` unset) fails with a
    ``ReceiptError`` whatever its receipt says.
    """
    error = None
    receipt = None  # the StreamEnd, once received
    results = 0
    try:
        for response in call:
            if receipt is not None:
                error = ReceiptError(AFTER_RECEIPT)
                call.cancel()
                break
            if response.HasField("end"):
                receipt = response.end
                continue
            results += response.HasField("result")
            responses.put(response)
        else:
            error = receipt_failure(receipt, requests.sent, results, requests.half_closed)
    except Exception as err:  # noqa: BLE001 - raised to the reader of results
        error = err
    try:
        requests.close()
    except BaseException as err:  # noqa: BLE001 - the caller's own, as a pull's would be; the _End must follow
        error = error or err
    responses.put(_End(error))


def first_requests(binds):
    """The requests a stream begins with: the one that asks for its
    receipt (which the server sends only when asked, and counts), then
    ``binds``."""
    return [pb.ValidateStreamRequest(receipt=pb.ReceiptRequest()), *binds]


def open_stream(client, events, *, binds, provider, timeout):
    """Opens a ValidateStream that asks for its receipt, sends ``binds``
    (ValidateStreamRequests, see ``toolgate.binds``) and then ``events``,
    and returns its ``ResultStream``. ``provider`` is checked before the
    stream opens."""
    requests = _Requests(first_requests(binds), iter(events), provider_number(provider))
    call = client.stub.ValidateStream(requests, timeout=timeout, metadata=client._metadata)
    requests.attach(call)
    return ResultStream(call, requests)


class _Requests:
    """The request iterator that gRPC's sending thread pulls from: the binds,
    then one request per event, converted as it is pulled.

    A failure while pulling (the events' own exception, any
    ``BaseException`` included, or an event of no known kind) is kept in
    ``failure`` and cancels the call, rather than reaching gRPC, which would
    log it and end the call with UNKNOWN, or (for a ``BaseException`` that
    is not an ``Exception``) end its sending thread with the call left open.
    ``close`` stops the pulls and closes the events; a lock keeps it from
    closing them while a pull is in progress, which closes them instead.

    ``sent`` counts the requests handed to gRPC, binds included: what the
    server's receipt must count. gRPC sends each one it pulls unless the
    call is already over, and half-closes the call only after the pull that
    ends the iteration; ``half_closed`` is set by that pull, when the
    events ended (not when the stream was closed or failed).
    """

    def __init__(self, binds, events, provider):
        self._binds = collections.deque(binds)
        self._events = events
        self._provider = provider
        self._call = None
        self._attached = threading.Event()
        self._lock = threading.Lock()
        self._pulling = False
        self._closed = False
        self.failure = None
        self.sent = 0  # written only by gRPC's sending thread, the one that pulls
        self.half_closed = False  # the events ended; set by that thread before gRPC half-closes

    def attach(self, call):
        """Gives the iterator the call to cancel on failure."""
        self._call = call
        self._attached.set()

    def close(self):
        """Pulls no more events, and closes them now unless a pull is in
        progress (which then closes them). Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._call = None  # see "Dropping the call"
            if self._pulling:
                return
        _close(self._events)

    def __iter__(self):
        return self

    def __next__(self):
        if self._binds:
            self.sent += 1
            return self._binds.popleft()
        with self._lock:
            if self._closed:
                raise StopIteration
            self._pulling = True
        request = None
        try:
            request = event_request(next(self._events), self._provider)
        except StopIteration:
            self.half_closed = True  # gRPC half-closes the call next
        except BaseException as err:  # noqa: BLE001 - reported to the reader of results
            # Any BaseException too (SystemExit, gevent's GreenletExit): it
            # would end gRPC's sending thread with the call neither cancelled
            # nor half-closed, and the stream would hang. This is gRPC's
            # thread, where no KeyboardInterrupt is delivered: one that
            # ``events`` raises is the caller's, as its other exceptions are.
            self._fail(err)
        with self._lock:
            self._pulling = False
            closed = self._closed
        if closed:
            _close(self._events)
        if closed or request is None:
            raise StopIteration
        self.sent += 1
        return request

    def _fail(self, err):
        """Keeps ``err`` for the reader of results, unless the stream was
        closed first, and cancels the call."""
        self._attached.wait()
        with self._lock:
            if not self._closed:
                self.failure = err
            call = self._call  # None once closed: the stream is over or being cancelled
        if call is not None:
            call.cancel()


def provider_number(provider):
    """Returns the proto number of ``provider`` (a ``Provider`` or its name),
    or None for None (no raw provider events); raises ``ValueError`` for
    anything else, before the stream opens."""
    return None if provider is None else to_number(Provider, provider)


def event_request(event, provider):
    """Returns the ValidateStreamRequest that sends ``event``, one of the
    kinds the module docstring lists, with ``provider`` (a proto number, or
    None when no provider was named) for a raw provider event.

    Raises ``TypeError`` for an event of no known kind, a raw or ``Named``
    event without a provider, or a ``Named`` event whose name or data is of
    the wrong type, ``UnicodeDecodeError`` for bytes that are not UTF-8, and
    ``ValueError`` for a ``str`` that holds a lone surrogate (naming it, see
    ``check_text``).
    """
    name, kind = "", "a raw provider event's"
    if isinstance(event, Named):
        name, event, kind = event.name, event.data, "a Named event's"
        if not isinstance(name, str) or not isinstance(event, (str, bytes, bytearray)):
            raise TypeError("a Named event needs a str name and str or bytes data")
    if isinstance(event, (str, bytes, bytearray)):
        if provider is None:
            raise TypeError("a raw provider event needs provider=...")
        text = event if isinstance(event, str) else bytes(event).decode("utf-8")
        return pb.ValidateStreamRequest(
            provider_event=pb.ProviderEvent(provider=provider, event_json=check_text(text, f"{kind} data"),
                                            event_name=check_text(name, "a Named event's name"))
        )
    if isinstance(event, Start):
        start = pb.CallStart(call_id=check_text(event.call_id, "a Start event's call_id"),
                             tool_name=check_text(event.tool_name, "a Start event's tool_name"))
        return pb.ValidateStreamRequest(start=start)
    if isinstance(event, Answer):
        answer = pb.CallStart(call_id=check_text(event.call_id, "an Answer event's call_id"), output=True)
        return pb.ValidateStreamRequest(start=answer)
    if isinstance(event, Delta):
        delta = pb.CallDelta(call_id=check_text(event.call_id, "a Delta event's call_id"),
                             fragment=check_text(event.fragment, "a Delta event's fragment"))
        return pb.ValidateStreamRequest(delta=delta)
    if isinstance(event, End):
        return pb.ValidateStreamRequest(end=pb.CallEnd(call_id=check_text(event.call_id, "an End event's call_id")))
    raise TypeError(f"a stream event must be str, bytes, Named, Start, Answer, Delta or End; got {type(event).__name__}")


def _close(events):
    """Closes ``events`` if it can be closed (a generator can)."""
    close = getattr(events, "close", None)
    if callable(close):
        close()
