"""What the asyncio interop tests share: a test case on replica A that
leaves no task behind, and events that record how they were pulled and
closed."""

import asyncio
import unittest

import grpc

import toolgate.aio

from tests.support import SwitchChannel, replica_address


def others():
    """The tasks of the running loop other than the current one."""
    return asyncio.all_tasks() - {asyncio.current_task()}


class AioTestCase(unittest.IsolatedAsyncioTestCase):
    """``self.client`` calls replica A on a channel of its own; every test
    ends with no task left running (a stream's sender and receiver, gRPC's
    own)."""

    async def asyncSetUp(self):
        self.client = toolgate.aio.Client.connect(replica_address("A"), insecure=True)

    async def asyncTearDown(self):
        try:
            await self.assert_no_tasks_soon()
        finally:
            await self.client.close()

    def assert_no_tasks(self):
        """Fails if a task of the client's streams (named "toolgate-...")
        is still running."""
        self.assertEqual({t for t in others() if t.get_name().startswith("toolgate-")}, set(), "tasks left running")

    async def assert_no_tasks_soon(self, ours_at_once=True):
        """Fails if a task of the client's streams is still running (unless
        not ``ours_at_once``), or if any task (gRPC's bookkeeping of a
        cancelled call) still runs a second later."""
        if ours_at_once:
            self.assert_no_tasks()
        for _ in range(100):
            if not others():
                return
            await asyncio.sleep(0.01)
        self.assertEqual(others(), set(), "tasks left running")

    async def until(self, event, timeout=10):
        """Waits for ``event`` (an ``asyncio.Event``), failing the test
        after ``timeout`` seconds."""
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            self.fail(f"waited {timeout} s in vain")


class Replicas(AioTestCase):
    """Adds ``self.switch``, a SwitchChannel over a ``grpc.aio`` channel to
    each of replicas A and B (routed to A), and ``self.direct``, a Client
    on each."""

    async def asyncSetUp(self):
        await super().asyncSetUp()
        self.channels = {name: grpc.aio.insecure_channel(replica_address(name)) for name in ("A", "B")}
        self.switch = SwitchChannel(**self.channels)
        self.switch.route("A")
        self.direct = {name: toolgate.aio.Client(channel) for name, channel in self.channels.items()}

    async def asyncTearDown(self):
        try:
            await super().asyncTearDown()
        finally:
            for channel in self.channels.values():
                await channel.close()

    async def assert_not_held(self, replica, handle):
        with self.assertRaises(grpc.RpcError) as caught:
            await self.direct[replica].validate(handle, "{}")
        self.assertEqual(caught.exception.code(), grpc.StatusCode.NOT_FOUND, f"replica {replica} holds {handle}")


class Events:
    """An async iterator over ``events`` that, after ``more`` (when given),
    yields ``more`` every 10 ms without end; it records what was pulled
    (``pulled``), when it was closed (``closed``), and the pulls after
    that (``late``). ``aclose_error`` is raised by ``aclose()``."""

    def __init__(self, events, more=None, aclose_error=None):
        self._events, self._more, self._aclose_error = iter(events), more, aclose_error
        self.pulled = 0
        self.late = 0
        self.closed = asyncio.Event()

    def __aiter__(self):
        return self

    async def __anext__(self):
        self.late += self.closed.is_set()
        event = next(self._events, self._more)
        if event is None:
            raise StopAsyncIteration
        if event is self._more:
            await asyncio.sleep(0.01)
        self.pulled += 1
        return event

    async def aclose(self):
        self.closed.set()
        if self._aclose_error is not None:
            raise self._aclose_error


class Gated:
    """A provider still generating, as an async generator: yields
    ``events[:stop_after + 1]``, then sets ``waiting`` and waits for
    ``gate`` (an ``asyncio.Event`` the test sets) before the rest.
    ``yielded`` counts what it yielded; ``finished`` is set when its
    ``finally`` runs, and ``cancelled`` when it saw
    ``asyncio.CancelledError``."""

    def __init__(self, events, stop_after):
        self._events, self._stop_after = events, stop_after
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()
        self.yielded = 0
        self.finished = asyncio.Event()
        self.cancelled = False
        self.generator = self._run()

    async def _run(self):
        try:
            for i, event in enumerate(self._events):
                if i == self._stop_after + 1:
                    self.waiting.set()
                    await self.gate.wait()
                self.yielded += 1
                yield event
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        finally:
            self.finished.set()
