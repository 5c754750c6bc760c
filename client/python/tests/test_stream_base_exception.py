"""Never hang: ``events`` that raise a ``BaseException`` that is not an
``Exception`` (``SystemExit``, ``KeyboardInterrupt``, gevent's
``GreenletExit``, a bridge's own subclass), whether pulling an event or
being closed, end the stream: the call is cancelled and iteration raises
the exception, after the results that came first. The stand-in server reads
until the client half-closes, as a replica does, so a stream whose call is
neither cancelled nor half-closed would wait for ever. No replica needed."""

import asyncio
import threading
import unittest

import toolgate
import toolgate.aio

from tests.fake_server import TOOLS, FakeServer


class ProviderGone(BaseException):
    """Not an Exception, as gevent.GreenletExit is not."""


def events(raised=ProviderGone):
    yield toolgate.Start("a", "t")
    yield toolgate.End("a")
    raise raised("the provider's reader was killed")


class ClosedBadly:
    """Events whose ``close()`` (called once the stream is over) raises
    ProviderGone."""

    def __init__(self):
        self._events = iter([toolgate.Start("a", "t"), toolgate.End("a")])

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._events)

    def close(self):
        raise ProviderGone("closing the provider's response was killed")


class AclosedBadly:
    """Async events whose ``aclose()`` raises ProviderGone."""

    def __init__(self):
        self._events = iter([toolgate.Start("a", "t"), toolgate.End("a")])

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return next(self._events)
        except StopIteration:
            raise StopAsyncIteration from None

    async def aclose(self):
        raise ProviderGone("closing the provider's response was killed")


class SyncBaseExceptionTest(unittest.TestCase):
    def setUp(self):
        self.server = FakeServer()
        self.client = toolgate.Client.connect(self.server.address, insecure=True)

    def tearDown(self):
        self.client.close()  # cancels a hung stream
        self.server.stop()

    def consume(self, events):
        """Iterates a stream of ``events`` on a thread; returns what it
        raised (or "ended"), failing if it is still open after 5 s."""
        outcome = []

        def consume():
            try:
                with self.client.validate_stream(events, tools=TOOLS) as results:
                    list(results)
                outcome.append("ended")
            except BaseException as err:  # noqa: BLE001 - any end will do
                outcome.append(err)

        thread = threading.Thread(target=consume, daemon=True)
        thread.start()
        thread.join(5)
        self.assertFalse(thread.is_alive(), "the stream is still open 5 s after its events raised")
        return outcome[0]

    def test_a_pull_that_raises_ends_the_stream(self):
        for raised in (ProviderGone, SystemExit, KeyboardInterrupt):
            with self.subTest(raised.__name__):
                self.assertIsInstance(self.consume(events(raised)), raised)

    def test_a_close_that_raises_ends_the_stream(self):
        self.assertIsInstance(self.consume(ClosedBadly()), ProviderGone)


class AioBaseExceptionTest(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.server = FakeServer()
        self.client = toolgate.aio.Client.connect(self.server.address, insecure=True)

    async def asyncTearDown(self):
        await self.client.close()
        self.server.stop()

    async def consume(self, events):
        """Iterates a stream of ``events``; returns what it raised, failing
        if it is still open after 5 s."""
        try:
            async with asyncio.timeout(5):
                async with self.client.validate_stream(events, tools=TOOLS) as results:
                    [r async for r in results]
        except TimeoutError:
            self.fail("the stream is still open 5 s after its events raised")
        except BaseException as err:  # noqa: BLE001 - any end but the timeout will do
            return err
        self.fail("the stream ended without the events' exception")

    async def test_a_pull_that_raises_ends_the_stream(self):
        async def aevents():
            for event in events():
                yield event

        self.assertIsInstance(await self.consume(aevents()), ProviderGone)
        self.assertIsInstance(await self.consume(events()), ProviderGone)  # a plain iterable

    async def test_a_cancelled_error_of_the_events_own_ends_the_stream(self):
        async def aevents():
            yield toolgate.Start("a", "t")
            raise asyncio.CancelledError()  # an inner future of the reader's, cancelled: not this task

        self.assertIsInstance(await self.consume(aevents()), asyncio.CancelledError)

    async def test_a_close_that_raises_ends_the_stream(self):
        self.assertIsInstance(await self.consume(AclosedBadly()), ProviderGone)


class AioKeyboardInterruptTest(unittest.TestCase):
    """A KeyboardInterrupt from ``events`` stops the event loop at once, as
    asyncio has it from any task, and the stream's call is cancelled: run
    again, the loop ends the stream, whose iteration raises it too (and so
    stops the loop again, from the task iterating it)."""

    def test_keyboard_interrupt_stops_the_loop_and_ends_the_stream(self):
        server = FakeServer()
        loop = asyncio.new_event_loop()
        try:
            async def connect():
                return toolgate.aio.Client.connect(server.address, insecure=True)

            client = loop.run_until_complete(connect())

            async def consume():
                async with client.validate_stream(events(KeyboardInterrupt), tools=TOOLS) as results:
                    return [r async for r in results]

            task = loop.create_task(consume())
            with self.assertRaises(KeyboardInterrupt):  # from the stream's sender, at once
                loop.run_until_complete(task)
            # Run again, the stream ends, and the task iterating it raises
            # KeyboardInterrupt, which stops the loop again (asyncio's way).
            with self.assertRaises(KeyboardInterrupt, msg="the stream is still open 5 s after its events raised"):
                loop.run_until_complete(asyncio.wait({task}, timeout=5))
            self.assertIsInstance(task.exception(), KeyboardInterrupt)
            loop.run_until_complete(client.close())
        finally:
            loop.close()
            server.stop()


if __name__ == "__main__":
    unittest.main()
