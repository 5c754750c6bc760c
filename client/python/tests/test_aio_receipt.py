"""The receipt that ends a stream (StreamEnd) on asyncio, against a
stand-in server that sends it, leaves it out, miscounts, or sends more
after it: the client fails closed with a ReceiptError, after the results
that came first, and leaves no task. No replica needed."""

import unittest

import grpc

import toolgate
import toolgate.aio

from tests.aio_support import AioTestCase, Events
from tests.fake_server import CALL_IDS, ENDINGS, EVENTS, TOOLS, FakeServer


class ReceiptTest(AioTestCase):
    """``self.client`` calls the stand-in server, not replica A."""

    async def asyncSetUp(self):
        self.server = FakeServer()
        self.client = toolgate.aio.Client.connect(self.server.address, insecure=True)

    async def asyncTearDown(self):
        try:
            await super().asyncTearDown()  # no task left, and the client closed
        finally:
            self.server.stop()

    async def end_with(self, ending, events=EVENTS, call_ids=CALL_IDS):
        """Runs a stream of ``events`` (an async iterable, bound to one tool
        inline) that the server ends as ENDINGS[``ending``] says, and checks
        that iteration yields the results, then raises the ReceiptError it
        says, if any, on every later pull; and that the events were closed."""
        respond, details = ENDINGS[ending]
        self.server.respond = respond
        source = Events(events)
        received = []
        async with self.client.validate_stream(source, tools=TOOLS, timeout=30) as results:
            if details is None:
                received.extend([r async for r in results])
            else:
                with self.assertRaises(toolgate.ReceiptError) as caught:
                    async for r in results:
                        received.append(r)
                err = caught.exception
                self.assertIsInstance(err, grpc.RpcError)
                self.assertEqual(err.code(), grpc.StatusCode.INTERNAL)
                self.assertEqual(err.details(), details)
                with self.assertRaises(toolgate.ReceiptError):
                    await anext(results)
        self.assertTrue(source.closed.is_set())
        self.assertEqual([r.call_id for r in received], call_ids, "the results before the end, never the receipt")
        sent = self.server.requests[-1]
        self.assertEqual(len(sent), 2 + len(events), "the receipt request, the bind and each event")
        self.assertTrue(sent[0].HasField("receipt"), "the first request asks for the receipt")

    async def test_the_receipt(self):
        await self.end_with("the receipt")

    async def test_the_receipt_of_a_stream_without_events(self):
        await self.end_with("the receipt", events=[], call_ids=[])

    async def test_the_receipt_of_plain_events(self):
        respond, _ = ENDINGS["the receipt"]
        self.server.respond = respond
        async with self.client.validate_stream(EVENTS, tools=TOOLS, timeout=30) as results:
            self.assertEqual([r.call_id async for r in results], CALL_IDS)

    async def test_no_receipt(self):
        await self.end_with("no receipt")

    async def test_an_event_not_counted(self):
        await self.end_with("an event not counted")

    async def test_a_result_not_counted(self):
        await self.end_with("a result not counted")

    async def test_a_result_after_the_receipt(self):
        await self.end_with("a result after the receipt")

    async def test_a_receipt_after_the_receipt(self):
        await self.end_with("a receipt after the receipt")


if __name__ == "__main__":
    unittest.main()
