"""Streams on asyncio: validate tool calls, and structured output, while the
model generates them, without blocking the event loop.

``toolgate.aio.Client.validate_stream`` opens one ValidateStream, as
``toolgate.Client.validate_stream`` does, and returns a ``ResultStream``::

    async with client.validate_stream(events, tools=tools, provider=Provider.OPENAI_CHAT) as results:
        async for call in results:
            if call.early:
                break  # leaving the with block ends the stream and closes events

``events`` is an async iterable (an async generator reading the provider's
response, say) or a plain iterable (a list), of the kinds
``toolgate.stream`` lists: ``str``/``bytes`` payloads, ``Named``, or
``Start``/``Delta``/``End``. The stream pulls it on a task of its own and
sends each event as soon as it is pulled, while another task of its own
receives each call's ``CallResult`` as soon as the server decides it: an
early rejection arrives while the provider is still generating.

A plain iterable is pulled on the event loop, between sends: it must not
block (a list, or a generator that computes its events). Events that
arrive from the network belong in an async iterable.
"""

import asyncio
import inspect

import grpc
from grpc.aio import AioRpcError, Metadata

from toolgate.results import CallResult, from_message
from toolgate.stream import AFTER_RECEIPT, ReceiptError, event_request, first_requests, provider_number, receipt_failure


class ResultStream:
    """The ``CallResult`` of each call of one ValidateStream, as they
    arrive: an async iterator and an async context manager.

    Iterate over it (once) with ``async for``, inside ``async with``. It
    promises what ``toolgate.ResultStream`` promises, on asyncio:

    - The server sends exactly one result per call. When ``events`` is
      exhausted the stream is half-closed, so calls still open are ended (an
      incomplete one is ``VALIDATION`` with keyword "json") and their
      results end the iteration.
    - Results are received on a task of the stream's own as they arrive,
      whether or not the caller is iterating. Those received before the
      stream failed are yielded first; then iteration raises what ended the
      stream, and raises it again on every later ``__anext__``: the
      exception ``events`` raised (or the ``TypeError`` for an event of no
      known kind), else the stream's ``grpc.RpcError`` (a
      ``grpc.aio.AioRpcError``): ``INVALID_ARGUMENT`` for a schema that does
      not compile (naming the tool and its first finding), a malformed
      handle, a provider event the server cannot parse or a repeated call
      id, ``RESOURCE_EXHAUSTED`` past the server's limits,
      ``DEADLINE_EXCEEDED`` past ``timeout``, ``CANCELLED`` when the
      channel was closed (``Client.close()``); or, for a stream that ended
      with OK before ``events`` ended (before the client half-closed it),
      without the server's receipt for what was sent and received (the
      ``StreamEnd`` it sends last, which is never yielded), with a receipt
      whose counts are not the client's, or with a message after it, a
      ``toolgate.ReceiptError`` (a ``grpc.RpcError`` with code
      ``INTERNAL``).
    - ``events`` that raise any ``BaseException`` (``SystemExit``, a
      ``CancelledError`` of their own, gevent's ``GreenletExit``), pulling
      an event or being closed, end the stream as an ``Exception`` does:
      the call is cancelled and iteration raises it. A
      ``KeyboardInterrupt`` or ``SystemExit`` is also raised from the
      stream's own task at once, which stops the event loop, as asyncio has
      it from any task. Only the cancellation of the stream's own task (by
      ``close()``, or the loop's shutdown) is not the events' failure.
    - Once the stream is over (its last result, an error, its timeout),
      nothing more is pulled from ``events`` and ``events`` is closed then,
      even while the caller is busy elsewhere, before the iteration ends.
      What closing them raises ends a stream that ended well: iteration
      raises it after the results.
    - ``await close()`` ends the stream at once (calls still open get no
      result) and the iteration with it, without an error; leaving the
      ``async with`` block does the same, so a ``break`` out of the
      ``async for`` ends the stream at the block's exit. Nothing more is
      pulled from ``events``, and ``events`` is closed before ``close()``
      returns: a pull in progress (``anext`` of an async iterable, a read
      from the provider's response) is cancelled, so an async generator
      sees ``asyncio.CancelledError`` at its ``await`` and its ``finally``
      runs; then ``aclose()`` (or ``close()``) is called, if ``events`` has
      one. What that raises, ``close()`` raises. Close the provider's
      response too, to stop the generation.
    - Cancelling the task that awaits the next result (``asyncio.timeout``,
      ``Task.cancel``, a ``TaskGroup`` failing) closes the stream as
      ``close()`` does, and the ``CancelledError`` goes on; so does leaving
      the ``async with`` block by cancellation. Either way what closing
      ``events`` raises is dropped, so as not to stop the cancellation.
    - Once the iteration has ended or ``close()`` has returned, the
      stream's own tasks are done and its RPC is over (gRPC's bookkeeping
      of a cancelled call, a task of its own, ends moments later).
    - Dropping the last reference to an open stream cancels its RPC; its
      tasks then close ``events``. Prefer ``async with``.

    A result with code ``ErrorCode.NOT_FOUND`` (keyword "handle",
    ``early``) is a call that was not validated: its tool was bound by a
    handle (the ``handles`` argument) that the replica serving the stream
    does not hold. Treat it as refused; tools bound inline (``tools``)
    never get it.
    """

    def __init__(self, session):
        self._session = session
        self._closed = False
        self._ended = False  # the _End was taken
        self._failure = None  # what ended the stream, raised again on later pulls

    def __aiter__(self):
        return self

    async def __anext__(self):
        """Returns the next ``CallResult``; raises ``StopAsyncIteration`` at
        the end, or what ended the stream (see the class)."""
        while True:
            if self._failure is not None:
                raise self._failure
            if self._closed or self._ended:
                raise StopAsyncIteration
            try:
                response = await self._session.responses.get()
            except asyncio.CancelledError:
                await self._close(quiet=True)
                raise
            if isinstance(response, _End):
                self._ended = True
                if not self._closed:  # its failure, or the events' that cancelled it
                    self._failure = self._session.failure or response.error
            elif response.HasField("result"):
                return from_message(CallResult, response.result)
            # A response of a kind this client does not know: skip it.

    async def close(self):
        """Ends the stream now, closes ``events`` and returns when both are
        done; raises what closing ``events`` raised. Idempotent, and
        harmless after the stream's end."""
        await self._close(quiet=False)

    async def __aenter__(self):
        return self

    async def __aexit__(self, exc_type, exc, traceback):
        await self._close(quiet=exc_type is not None and issubclass(exc_type, asyncio.CancelledError))

    def __del__(self):
        if not self._closed and not self._ended:
            self._session.abandon()

    async def _close(self, quiet):
        """Closes the stream; raises what closing ``events`` raised, when
        this close closed them, unless ``quiet``."""
        self._closed = True
        error = await self._session.end(by_caller=True)
        if error is not None and not quiet:
            raise error


class _End:
    """The last item a session queues: how the call ended."""

    def __init__(self, error):
        self.error = error  # the call's, or closing the events', exception; None when both ended well


class _Session:
    """One ValidateStream's call and the two tasks that drive it: a sender
    (binds, then each event as pulled) and a receiver (each response queued
    as it arrives, then an ``_End``). The tasks hold the session, never the
    ``ResultStream``, whose collection abandons the stream.

    ``failure`` is what pulling or converting an event raised (the
    stream's failure, raised before the call's); ``closed`` says the
    caller ended the stream, which then has no failure. The stream ends
    once, in ``_finish``: the call cancelled, the sender stopped and the
    events closed. ``sent`` counts the requests the call took, binds
    included: what the server's receipt must count; ``half_closed`` says
    the events ended and the sender half-closed the call.
    """

    def __init__(self, call, binds, events, provider):
        self.call = call
        self.responses = asyncio.Queue()  # filled by _receive, then its _End
        self.failure = None
        self.closed = False
        self.close_error = None  # what a pull raised while the stream ended
        self.sent = 0
        self.half_closed = False
        self._events = events
        self._is_async = hasattr(events, "__anext__")
        self._provider = provider
        self._ending = False  # the sender's pulls and sends are over
        self._finishing = None  # the task of _finish, once the stream ends
        loop = asyncio.get_running_loop()
        self._sender = loop.create_task(self._send(binds), name="toolgate-events")
        self._receiver = loop.create_task(self._receive(), name="toolgate-results")

    async def end(self, by_caller):
        """Ends the stream (once; later calls wait for that end) and waits
        for both tasks. Returns what closing the events raised when this
        call (``by_caller``: the caller's close) closed them, else None."""
        self.closed = self.closed or by_caller
        first = self._finishing is None
        finishing = self._start_finish()
        # asyncio.wait, not await: a cancelled caller must not cancel the end.
        await asyncio.wait({finishing, self._receiver})
        return _outcome(finishing) if first and by_caller else None

    def abandon(self):
        """Cancels the call, from ``ResultStream.__del__``: the receiver
        then ends the stream. Never raises."""
        self.closed = True
        try:
            self.call.cancel()
        except Exception:  # noqa: BLE001 - a closed loop or channel: nothing is left to cancel
            pass

    def _start_finish(self):
        if self._finishing is None:
            self._finishing = asyncio.get_running_loop().create_task(self._finish(), name="toolgate-end")
        return self._finishing

    async def _finish(self):
        """Ends the stream: cancels the call and the sender (a pull in
        progress with it) and closes the events. Returns what closing the
        events raised (the sender's pull, cancelled, or ``aclose()``), or
        None."""
        self._ending = True
        self.call.cancel()
        self._sender.cancel()
        await asyncio.wait({self._sender})
        error = self.close_error
        if not self._sender.cancelled() and self._sender.exception() is not None:
            error = error or self._sender.exception()  # none is expected: reported rather than lost
        try:
            await _close(self._events)
        except BaseException as err:  # noqa: BLE001 - the caller's own, as a pull's would be
            if isinstance(err, asyncio.CancelledError) and asyncio.current_task().cancelling():
                raise  # the loop is shutting down
            error = error or err
            if isinstance(err, (KeyboardInterrupt, SystemExit)):
                raise
        return error

    async def _send(self, binds):
        """Sends the binds and then each event as it is pulled, and
        half-closes the call when the events are exhausted.

        A failed pull or an event of no known kind is the stream's
        ``failure`` and cancels the call: whatever the pull raised, any
        ``BaseException`` too (``SystemExit``, a ``CancelledError`` of the
        events' own), except the cancellation of this task by ``_finish``,
        which goes on. ``KeyboardInterrupt`` and ``SystemExit`` are then
        raised again, from this task, as asyncio has them stop the loop. While
        the stream ends, what a pull raises (an async generator's answer to
        the cancellation of its ``await``) is what closing the events raised,
        kept in ``close_error`` for ``_finish``. A send that fails because
        the call is over ends the sender quietly: the receiver reports how
        it ended.
        """
        for bind in binds:
            if not await self._write(bind):
                return
        while True:
            try:
                event = await anext(self._events) if self._is_async else next(self._events)
            except (StopIteration, StopAsyncIteration):
                break
            except BaseException as err:  # noqa: BLE001 - reported to the reader of results
                if isinstance(err, asyncio.CancelledError) and asyncio.current_task().cancelling():
                    raise  # _finish cancelled this task (or the loop is shutting down)
                if self._ending:
                    self.close_error = err
                else:
                    self._fail(err)
                if isinstance(err, (KeyboardInterrupt, SystemExit)):
                    raise
                return
            if self._ending:
                return  # an async generator that answered the cancellation with an event
            try:
                request = event_request(event, self._provider)
            except BaseException as err:  # noqa: BLE001 - reported to the reader of results
                self._fail(err)
                if isinstance(err, (KeyboardInterrupt, SystemExit)):
                    raise
                return
            if not await self._write(request):
                return
        # Set before the half-close, which the server may answer (and the
        # receiver read) before done_writing returns.
        self.half_closed = True
        await self._write(None)

    async def _write(self, request):
        """Sends ``request``, or half-closes the call for None; returns
        whether the call took it. A call that is over refuses it quietly; a
        failure of another kind is the stream's."""
        try:
            if request is None:
                await self.call.done_writing()
            else:
                await self.call.write(request)
        except (grpc.RpcError, asyncio.InvalidStateError):
            return False
        except Exception as err:  # noqa: BLE001 - reported to the reader of results
            self._fail(err)
            return False
        if request is not None:
            self.sent += 1
        return True

    def _fail(self, err):
        """Keeps ``err`` for the reader of results, unless the caller closed
        the stream first, and cancels the call."""
        if not self.closed and self.failure is None:
            self.failure = err
        self.call.cancel()

    async def _receive(self):
        """Queues each response as it arrives; once the call is over, ends
        the stream (which closes the events) and queues an ``_End``.

        Reading at once, rather than when the caller asks, keeps the results
        that arrived before a failure (a cancelled call drops those not yet
        read) and ends the stream when the call ends rather than when the
        caller next looks. Ending before the ``_End`` settles ``failure``
        before the caller reads it.

        The receipt (``StreamEnd``) is kept, not queued: a call that ends
        with OK (``EOF``) without it, or with counts other than ``sent`` and
        the results queued, fails with a ``ReceiptError``, and so does one
        that sends a message after it, which ends the stream at once. A
        server ends with OK only once the sender has half-closed, after its
        last write, so ``sent`` is final by then; a call that ends with OK
        before (``half_closed`` unset) fails with a ``ReceiptError`` whatever
        its receipt says.

        ``grpc.aio`` reports a call cancelled on the client's side as
        ``asyncio.CancelledError``. When this task was cancelled, that goes
        on; when the session cancelled the call (``_fail``, ``_finish``,
        ``abandon``), the stream ends as they say; any other cancellation
        (the channel's ``close()``, or the call's own ``cancel()``) is the
        stream's failure, a ``grpc.RpcError`` with code ``CANCELLED``.
        """
        error = None
        receipt = None  # the StreamEnd, once received
        results = 0
        try:
            while True:
                response = await self.call.read()
                if response is grpc.aio.EOF:
                    error = receipt_failure(receipt, self.sent, results, self.half_closed)
                    break
                if receipt is not None:
                    error = ReceiptError(AFTER_RECEIPT)
                    break  # _finish cancels the call
                if response.HasField("end"):
                    receipt = response.end
                    continue
                results += response.HasField("result")
                self.responses.put_nowait(response)
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():
                raise  # this task was cancelled, not the call (by _fail or _finish)
            if not (self._ending or self.closed or self.failure is not None):
                error = cancelled_error()  # not by this session: the channel was closed
        except Exception as err:  # noqa: BLE001 - raised to the reader of results
            error = err
        finishing = self._start_finish()
        await asyncio.wait({finishing})
        self.responses.put_nowait(_End(error or _outcome(finishing)))


def cancelled_error():
    """The ``grpc.RpcError`` (a ``grpc.aio.AioRpcError``) with code
    ``CANCELLED`` of a call that ``grpc.aio`` ended with
    ``asyncio.CancelledError`` although the task awaiting it was not
    cancelled: the call's channel was closed (``Client.close()``), or the
    call was cancelled through it."""
    return AioRpcError(grpc.StatusCode.CANCELLED, Metadata(), Metadata(),
                       details="the call was cancelled on the client's side (its channel was closed)",
                       debug_error_string="CANCELLED: locally cancelled, not by the awaiting task")


def _outcome(finishing):
    """What the done task of ``_Session._finish`` returned, or the
    exception it raised (a ``KeyboardInterrupt`` that closing the events
    raised); None if it was cancelled (the loop is shutting down)."""
    if finishing.cancelled():
        return None
    return finishing.exception() or finishing.result()


async def _close(events):
    """Closes ``events``: awaits its ``aclose()`` (an async generator has
    one), or calls its ``close()`` (a generator's), awaiting what that
    returns if it is awaitable; does nothing for events that have neither."""
    aclose = getattr(events, "aclose", None)
    if callable(aclose):
        await aclose()
        return
    close = getattr(events, "close", None)
    if callable(close):
        closing = close()
        if inspect.isawaitable(closing):
            await closing


def open_stream(client, events, *, binds, provider, timeout):
    """Opens a ValidateStream through ``client`` (a ``toolgate.aio.Client``)
    that asks for its receipt, sends ``binds`` (ValidateStreamRequests, see
    ``toolgate.binds``) and then ``events``, and returns its
    ``ResultStream``.

    ``provider`` and ``events`` are checked before the stream opens:
    ``ValueError`` for a provider that is not a ``Provider``, ``TypeError``
    for events that are neither an async iterable nor an iterable; and
    ``RuntimeError`` when no event loop is running (call it from a
    coroutine).
    """
    number = provider_number(provider)
    if hasattr(events, "__aiter__"):
        events = aiter(events)
    else:
        try:
            events = iter(events)
        except TypeError:
            raise TypeError(f"events must be an async iterable or an iterable; got {type(events).__name__}") from None
    asyncio.get_running_loop()
    call = client.stub.ValidateStream(timeout=timeout, metadata=client._metadata)
    return ResultStream(_Session(call, first_requests(binds), events, number))
