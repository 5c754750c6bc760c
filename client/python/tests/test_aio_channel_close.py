"""``toolgate.aio.Client.close()`` during calls: "calls and streams in
flight fail with CANCELLED", as the sync client's do. ``grpc.aio`` reports a
call that the channel's close cancelled as ``asyncio.CancelledError``, as
it does for a task's own cancellation; the client tells the two apart:

- a stream in flight fails with a ``grpc.RpcError`` with code CANCELLED,
  rather than ending as if complete (no error, no result for the open call);
- a unary call in flight, through the Client or a Validator, raises a
  ``grpc.RpcError`` with code CANCELLED, not a ``CancelledError`` in a task
  that nobody cancelled;
- cancelling the task that awaits a unary call still raises
  ``CancelledError``.

A stand-in server that answers slowly; no replica needed."""

import asyncio
import time
import unittest
from concurrent import futures

import grpc

import toolgate
import toolgate.aio
from toolgate.v1 import validation_pb2 as pb
from toolgate.v1 import validation_pb2_grpc as pb_grpc


class _Slow(pb_grpc.ValidationServiceServicer):
    def Validate(self, request, context):  # noqa: N802
        time.sleep(2)
        return pb.ValidateResponse(valid=True)

    def ValidateStream(self, request_iterator, context):  # noqa: N802
        for _ in request_iterator:  # never answers before the client half-closes
            pass
        yield pb.ValidateStreamResponse(end=pb.StreamEnd())


class AioChannelCloseTest(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        pb_grpc.add_ValidationServiceServicer_to_server(_Slow(), self.server)
        self.address = f"127.0.0.1:{self.server.add_insecure_port('127.0.0.1:0')}"
        self.server.start()
        self.client = toolgate.aio.Client.connect(self.address, insecure=True)

    async def asyncTearDown(self):
        await self.client.close()
        self.server.stop(None).wait()

    async def close_soon(self):
        await asyncio.sleep(0.3)
        await self.client.close()

    async def assert_cancelled(self, call):
        """Awaits ``call`` (a coroutine) while the Client is closed, and
        checks that it fails with a grpc.RpcError with CANCELLED."""
        closer = asyncio.create_task(self.close_soon())
        try:
            with self.assertRaises(grpc.RpcError) as caught:
                await call
            self.assertEqual(caught.exception.code(), grpc.StatusCode.CANCELLED)
            # What generic handlers of grpc.RpcError ask of it.
            caught.exception.details(), caught.exception.trailing_metadata(), caught.exception.debug_error_string()
        except asyncio.CancelledError:
            self.fail("asyncio.CancelledError from a call the channel's close cancelled, not a grpc.RpcError")
        finally:
            await closer

    async def test_stream_in_flight_fails_with_cancelled(self):
        async def events():
            yield toolgate.Start("a", "t")
            yield toolgate.Delta("a", '{"x":')
            await asyncio.Event().wait()  # the model is still generating

        async def stream():
            async with self.client.validate_stream(events(), tools={"t": {"type": "object"}},
                                                   timeout=10) as results:
                return [r async for r in results]

        await self.assert_cancelled(stream())

    async def test_unary_in_flight_fails_with_cancelled(self):
        await self.assert_cancelled(self.client.validate("tg1_x", {}, timeout=10))

    async def test_validator_call_in_flight_fails_with_cancelled(self):
        await self.assert_cancelled(self.client.validator().validate_schema({}, {}, timeout=10))

    async def test_a_cancelled_task_still_sees_cancelled_error(self):
        task = asyncio.create_task(self.client.validate("tg1_x", {}, timeout=10))
        await asyncio.sleep(0.3)
        task.cancel()
        with self.assertRaises(asyncio.CancelledError):
            await task
        with self.assertRaises(TimeoutError):
            async with asyncio.timeout(0.3):
                await self.client.validate("tg1_x", {}, timeout=10)


if __name__ == "__main__":
    unittest.main()
