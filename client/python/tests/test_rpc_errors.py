"""The client's own ``grpc.RpcError``s (a stream's ``ReceiptError``, a
Validator's deadline that ran out between attempts, the CANCELLED of an
asyncio call whose channel was closed) answer what generic handlers of
``grpc.RpcError`` ask the ones gRPC raises, which are ``grpc.Call``s too:
``code()``, ``details()``, ``initial_metadata()``, ``trailing_metadata()``
and ``debug_error_string()``. No replica needed."""

import unittest

import grpc

import toolgate
from toolgate.aio.stream import cancelled_error
from toolgate.stream import ENDED_EARLY, NO_RECEIPT
from toolgate.validator import _DeadlineExceeded


def log_line(err):
    """What a generic handler might log of a grpc.RpcError."""
    return (f"{err.code().name} {err.details()} initial={tuple(err.initial_metadata())} "
            f"trailing={tuple(err.trailing_metadata())} debug={err.debug_error_string()}")


class RpcErrorShapeTest(unittest.TestCase):
    def test_receipt_error(self):
        for details in (NO_RECEIPT, ENDED_EARLY):
            err = toolgate.ReceiptError(details)
            self.assertIsInstance(err, grpc.RpcError)
            self.assertEqual(log_line(err), f"INTERNAL {details} initial=() trailing=() debug={details}")

    def test_deadline_exceeded_between_attempts(self):
        err = _DeadlineExceeded("no time was left to retry after NOT_FOUND")
        self.assertEqual(log_line(err), "DEADLINE_EXCEEDED no time was left to retry after NOT_FOUND initial=() "
                                        "trailing=() debug=no time was left to retry after NOT_FOUND")

    def test_cancelled_by_the_channel(self):
        err = cancelled_error()
        self.assertIsInstance(err, grpc.RpcError)
        self.assertTrue(log_line(err).startswith("CANCELLED "))


if __name__ == "__main__":
    unittest.main()
