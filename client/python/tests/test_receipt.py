"""The receipt that ends a stream (StreamEnd), against a stand-in server
that sends it, leaves it out, miscounts, or sends more after it: the client
fails closed with a ReceiptError, after the results that came first. No
replica needed."""

import unittest

import grpc

import toolgate

from tests.fake_server import CALL_IDS, ENDINGS, EVENTS, TOOLS, FakeServer


class ReceiptTest(unittest.TestCase):
    def setUp(self):
        self.server = FakeServer()
        self.client = toolgate.Client.connect(self.server.address, insecure=True)

    def tearDown(self):
        self.client.close()
        self.server.stop()

    def end_with(self, ending, events=EVENTS, call_ids=CALL_IDS):
        """Runs a stream of ``events`` (bound to one tool inline) that the
        server ends as ENDINGS[``ending``] says, and checks that iteration
        yields the results, then raises the ReceiptError it says, if any,
        on every later pull."""
        respond, details = ENDINGS[ending]
        self.server.respond = respond
        received = []
        with self.client.validate_stream(iter(events), tools=TOOLS, timeout=30) as results:
            if details is None:
                received.extend(results)
            else:
                with self.assertRaises(toolgate.ReceiptError) as caught:
                    received.extend(results)
                err = caught.exception
                self.assertIsInstance(err, grpc.RpcError)
                self.assertEqual(err.code(), grpc.StatusCode.INTERNAL)
                self.assertEqual(err.details(), details)
                with self.assertRaises(toolgate.ReceiptError):
                    next(results)
        self.assertEqual([r.call_id for r in received], call_ids, "the results before the end, never the receipt")
        sent = self.server.requests[-1]
        self.assertEqual(len(sent), 2 + len(events), "the receipt request, the bind and each event")
        self.assertTrue(sent[0].HasField("receipt"), "the first request asks for the receipt")

    def test_the_receipt(self):
        self.end_with("the receipt")

    def test_the_receipt_of_a_stream_without_events(self):
        self.end_with("the receipt", events=[], call_ids=[])

    def test_no_receipt(self):
        self.end_with("no receipt")

    def test_an_event_not_counted(self):
        self.end_with("an event not counted")

    def test_a_result_not_counted(self):
        self.end_with("a result not counted")

    def test_a_result_after_the_receipt(self):
        self.end_with("a result after the receipt")

    def test_a_receipt_after_the_receipt(self):
        self.end_with("a receipt after the receipt")


if __name__ == "__main__":
    unittest.main()
