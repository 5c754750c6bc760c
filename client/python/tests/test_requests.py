"""The request iterator of a stream, as gRPC's sending thread pulls from it:
binds first, events as pulled, closing that never races a pull, and the
count of what it handed to gRPC (what the server's receipt must count). No
server needed: the call is a stand-in that records cancel()."""

import threading
import unittest

from toolgate import Answer, Delta, End, Named, Start
from toolgate.stream import _Requests
from toolgate.v1 import validation_pb2 as pb

BIND = pb.ValidateStreamRequest(bind=pb.StreamBind(tools={"t": "tg1_" + "0" * 64}))


class Call:
    """What _Requests needs of a gRPC call: cancel()."""

    def __init__(self):
        self.cancelled = threading.Event()

    def cancel(self):
        self.cancelled.set()


class Events:
    """A generator of events that records whether it was closed, and that
    can hold its next pull until ``release`` (a read from a silent
    provider)."""

    def __init__(self, events, hold_after=None):
        self._events, self._hold_after = events, hold_after
        self.pulling, self.released, self.closed = threading.Event(), threading.Event(), threading.Event()
        self.generator = self._run()

    def _run(self):
        try:
            for i, event in enumerate(self._events):
                if i == self._hold_after:
                    self.pulling.set()
                    self.released.wait(timeout=30)
                yield event
        finally:
            self.closed.set()


def attached(events, binds=(BIND,), provider=None):
    requests = _Requests(binds, events.generator, provider)
    call = Call()
    requests.attach(call)
    return requests, call


class RequestsTest(unittest.TestCase):
    def test_binds_then_events(self):
        events = Events([Start("c", "t"), Delta("c", "{}"), End("c"), '{"type":"ping"}',
                         Named("ping", b'{"type":"ping"}'), Answer("a")])
        requests, call = attached(events, binds=[BIND, BIND], provider=pb.PROVIDER_ANTHROPIC)
        self.assertEqual(list(requests), [
            BIND, BIND,
            pb.ValidateStreamRequest(start=pb.CallStart(call_id="c", tool_name="t")),
            pb.ValidateStreamRequest(delta=pb.CallDelta(call_id="c", fragment="{}")),
            pb.ValidateStreamRequest(end=pb.CallEnd(call_id="c")),
            pb.ValidateStreamRequest(provider_event=pb.ProviderEvent(provider=pb.PROVIDER_ANTHROPIC,
                                                                     event_json='{"type":"ping"}')),
            pb.ValidateStreamRequest(provider_event=pb.ProviderEvent(provider=pb.PROVIDER_ANTHROPIC,
                                                                     event_json='{"type":"ping"}', event_name="ping")),
            pb.ValidateStreamRequest(start=pb.CallStart(call_id="a", output=True)),
        ])
        self.assertFalse(call.cancelled.is_set())
        self.assertIsNone(requests.failure)
        self.assertEqual(requests.sent, 8, "the binds and the events")

    def test_close_between_pulls_closes_the_events_at_once(self):
        events = Events([Start("c", "t"), End("c")])
        requests, _ = attached(events)
        next(requests), next(requests)  # the bind and the start
        requests.close()
        self.assertTrue(events.closed.is_set(), "closed at once: no pull was in progress")
        with self.assertRaises(StopIteration):
            next(requests)
        requests.close()  # idempotent

    def test_close_during_a_pull_closes_the_events_when_it_returns(self):
        events = Events([Start("c", "t"), End("c"), Start("d", "t")], hold_after=1)
        requests, call = attached(events)
        next(requests), next(requests)
        pulled = []
        sender = threading.Thread(target=lambda: pulled.extend(requests))  # gRPC's sending thread
        sender.start()
        self.assertTrue(events.pulling.wait(timeout=10))
        requests.close()
        self.assertFalse(events.closed.is_set(), "a generator cannot be closed while it runs")
        events.released.set()
        sender.join(timeout=10)
        self.assertFalse(sender.is_alive())
        self.assertTrue(events.closed.is_set(), "closed when the pull returned")
        self.assertEqual(pulled, [], "what the pull returned after close is not sent")
        self.assertEqual(requests.sent, 2, "the bind and the start; not what the pull returned after close")
        self.assertFalse(call.cancelled.is_set())
        self.assertIsNone(requests.failure)

    def test_failures_cancel_the_call(self):
        def failing():
            yield Start("c", "t")
            raise OSError("connection reset by the provider")

        cases = {
            "the events' own error": (failing(), None, OSError),
            "an event of no known kind": (iter([Start("c", "t"), 42]), None, TypeError),
            "a raw event without provider": (iter(['{"type":"ping"}']), None, TypeError),
            "a named event without provider": (iter([Named("ping", '{"type":"ping"}')]), None, TypeError),
            "a named event whose data is no text": (iter([Named("ping", 7)]), pb.PROVIDER_ANTHROPIC, TypeError),
        }
        for name, (events, provider, error) in cases.items():
            with self.subTest(name):
                requests = _Requests([], events, provider)
                call = Call()
                requests.attach(call)
                sent = list(requests)
                self.assertEqual(requests.sent, len(sent))
                self.assertIsInstance(requests.failure, error)
                self.assertTrue(call.cancelled.is_set())
