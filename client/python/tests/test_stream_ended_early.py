"""A stream that the server (or a proxy) ends with OK before the client
half-closed it fails closed with a ReceiptError, whatever its receipt
counts, as the Go client (errEndedEarly) and the Node client (ENDED_EARLY)
do: the calls still to come were never validated. A receipt proves what the
server read, not that it read to the end.

The stand-in server reads the bind and the first event, sends a receipt that
counts exactly those (2 events, 0 results), or none, and ends with OK while
the model is still generating. No replica needed."""

import asyncio
import threading
import unittest
from concurrent import futures

import grpc

import toolgate
import toolgate.aio
from toolgate.stream import ENDED_EARLY
from toolgate.v1 import validation_pb2 as pb
from toolgate.v1 import validation_pb2_grpc as pb_grpc

TOOLS = {"t": {"type": "object"}}


class _EarlyOK(pb_grpc.ValidationServiceServicer):
    def __init__(self):
        self.receipt = True  # whether the early end sends a receipt

    def ValidateStream(self, request_iterator, context):  # noqa: N802
        n = 0
        for _ in request_iterator:
            n += 1
            if n == 2:  # the bind and the first event; the client has not half-closed
                break
        if self.receipt:
            yield pb.ValidateStreamResponse(end=pb.StreamEnd(events=n, results=0))


class _Server:
    def __init__(self):
        self.servicer = _EarlyOK()
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        pb_grpc.add_ValidationServiceServicer_to_server(self.servicer, self._server)
        self.address = f"127.0.0.1:{self._server.add_insecure_port('127.0.0.1:0')}"
        self._server.start()

    def stop(self):
        self._server.stop(None).wait()


ENDINGS = {"a receipt that counts what was read": True, "no receipt": False}


class SyncEndedEarlyTest(unittest.TestCase):
    def setUp(self):
        self.server = _Server()
        self.client = toolgate.Client.connect(self.server.address, insecure=True)

    def tearDown(self):
        self.client.close()
        self.server.stop()

    def test_ok_before_half_close_fails_closed(self):
        for ending, receipt in ENDINGS.items():
            with self.subTest(ending):
                self.server.servicer.receipt = receipt
                gate = threading.Event()

                def events():
                    yield toolgate.Start("a", "t")
                    gate.wait(2)  # the model is still generating
                    yield toolgate.Delta("a", '{"x": 1}')
                    yield toolgate.End("a")

                try:
                    with self.assertRaises(toolgate.ReceiptError) as caught:
                        with self.client.validate_stream(events(), tools=TOOLS, timeout=10) as results:
                            list(results)
                    self.assertIsInstance(caught.exception, grpc.RpcError)
                    self.assertEqual(caught.exception.code(), grpc.StatusCode.INTERNAL)
                    self.assertEqual(caught.exception.details(), ENDED_EARLY)
                finally:
                    gate.set()


class AioEndedEarlyTest(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.server = _Server()
        self.client = toolgate.aio.Client.connect(self.server.address, insecure=True)

    async def asyncTearDown(self):
        await self.client.close()
        self.server.stop()

    async def test_ok_before_half_close_fails_closed(self):
        for ending, receipt in ENDINGS.items():
            with self.subTest(ending):
                self.server.servicer.receipt = receipt

                async def events():
                    yield toolgate.Start("a", "t")
                    await asyncio.sleep(1)  # the model is still generating
                    yield toolgate.Delta("a", '{"x": 1}')
                    yield toolgate.End("a")

                with self.assertRaises(toolgate.ReceiptError) as caught:
                    async with self.client.validate_stream(events(), tools=TOOLS, timeout=10) as results:
                        [r async for r in results]
                self.assertEqual(caught.exception.code(), grpc.StatusCode.INTERNAL)
                self.assertEqual(caught.exception.details(), ENDED_EARLY)


if __name__ == "__main__":
    unittest.main()
