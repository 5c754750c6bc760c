"""Streams against a real replica: recorded provider events and explicit deltas."""

import gc
import threading
import time
import unittest

import grpc

from toolgate import Delta, End, ErrorCode, Named, Provider, Start

from tests.support import connect, recording

WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "country": {"type": "string"},
        "units": {"type": "string", "enum": ["c", "f"]},
    },
    "required": ["city", "country", "units"],
    "additionalProperties": False,
}
STOCK = {"type": "object", "properties": {"ticker": {"type": "string"}, "exchange": {"type": "string"}},
         "required": ["ticker"], "additionalProperties": False}
TODO = {"type": "object", "required": ["action"], "additionalProperties": False,
        "properties": {"action": {"type": "string", "enum": ["add", "update"]}, "id": {"type": "string"},
                       "status": {"type": "string", "enum": ["pending", "completed"]}}}

# The recording: GetWeatherArgs, then get_stock_price (see testdata/PROVENANCE.md).
EVENTS, CALLS = recording("openai-chat/parallel-weather-and-stock")
# In it, the event whose fragment starts the country code "GB".
COUNTRY_EVENT = next(i for i, e in enumerate(EVENTS) if '"arguments":"GB' in e)


def country_in(*codes):
    """The weather schema, with the country restricted to ``codes``."""
    return {**WEATHER, "properties": {**WEATHER["properties"], "country": {"type": "string", "enum": list(codes)}}}


def offset_of(arguments, fragment, plus=0):
    return len(arguments[: arguments.index(fragment)].encode()) + plus



# validate_stream's options that are refused before the stream opens: name
# to (options, the exception).
BAD_STREAM_OPTIONS = {
    "unknown provider name": ({"provider": "anthropic"}, ValueError),
    "unknown profile name": ({"profile": "PROFILE_STRICT"}, ValueError),
    "schema that is not JSON": ({"tools": {"t": {"n": float("nan")}}}, ValueError),
    "resources that are not a mapping": ({"tools": {"t": {}}, "resources": ["x"]}, TypeError),
    "format assertion that is not a bool": ({"tools": {"t": {}}, "format_assertion": "yes"}, TypeError),
    "handles that are not a mapping": ({"handles": [("t", "tg1_" + "0" * 64)]}, TypeError),
    "handle that is not a str": ({"handles": {"t": None}}, TypeError),
    "tools that are not a mapping": ({"tools": [("t", {})]}, TypeError),
    "tool bound both ways": ({"tools": {"t": {}}, "handles": {"t": "tg1_" + "0" * 64}}, ValueError),
}


def stream_end_cases(events):
    """The ways a stream ends while its events are still open, for the
    tests that the end closes them: name to (events, timeout, the code the
    results end with, None for none). ``events(items, more=...)`` makes the
    recording events of a client: ``items`` pulled, then ``more`` for every
    pull after them."""
    return {
        "an error": (events([Start("a", "todo"), End("a"), Start("a", "todo")], more=Delta("b", " ")), 30,
                     grpc.StatusCode.INVALID_ARGUMENT),
        "the timeout": (events([Start("c", "todo"), Delta("c", "{")], more=Delta("c", " ")), 0.5,
                        grpc.StatusCode.DEADLINE_EXCEEDED),
        "the last result": (events([Start("c", "todo"), Delta("c", '{"action": "add"}'), End("c")]), 30, None),
    }


def code_of(err):
    """The code of ``err``, with DEADLINE_EXCEEDED for the replica's reset
    at its own deadline (the timeout that the call sent it), which gRPC
    reports as CANCELLED when it arrives a moment before the client's
    deadline."""
    if err.code() == grpc.StatusCode.CANCELLED and "RST_STREAM with error code 8" in (err.details() or ""):
        return grpc.StatusCode.DEADLINE_EXCEEDED
    return err.code()

class GatedProvider:
    """A provider still generating: yields the recording's events up to and
    including ``stop_after``, then waits, as a read from a live response
    does, until ``release``, which fails that read as closing the response
    would."""

    def __init__(self, events, stop_after):
        self._events, self._stop_after = events, stop_after
        self.yielded = 0
        self.finished = threading.Event()
        self._released = threading.Event()

    def release(self):
        self._released.set()

    def __iter__(self):
        try:
            for i, event in enumerate(self._events):
                if i > self._stop_after:
                    if not self._released.wait(timeout=30):
                        raise TimeoutError("the stream was never closed")
                    raise ConnectionError("the response was closed")
                self.yielded += 1
                yield event
        finally:
            self.finished.set()


class Response:
    """Events read from a provider's response: ``events``, then, if ``more``
    is given, ``more`` every 10 ms without end. ``close()`` closes the
    response; ``late`` counts the reads after it."""

    def __init__(self, events, more=None):
        self._events, self._more = iter(events), more
        self.closed = threading.Event()
        self.late = 0

    def __iter__(self):
        return self

    def __next__(self):
        self.late += self.closed.is_set()
        event = next(self._events, self._more)
        if event is None:
            raise StopIteration
        time.sleep(0.01 if event is self._more else 0)
        return event

    def close(self):
        self.closed.set()


class StreamTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = connect("A")
        cls.addClassCleanup(cls.client.close)

    def stream(self, events, weather=WEATHER):
        tools = {"GetWeatherArgs": weather, "get_stock_price": STOCK}
        return self.client.validate_stream(events, tools=tools, provider=Provider.OPENAI_CHAT, timeout=30)

    def test_recorded_stream(self):
        with self.stream(EVENTS) as results:
            got = list(results)
        self.assertEqual([(r.call_id, r.tool_name, r.valid, r.early) for r in got],
                         [(c["id"], c["name"], True, False) for c in CALLS])
        self.assertEqual([r.bytes for r in got], [len(c["arguments"].encode()) for c in CALLS])

    def test_early_rejection(self):
        weather = CALLS[0]["arguments"]
        with self.stream(EVENTS, country_in("FR", "DE")) as results:
            first, second = list(results)
        self.assertEqual((first.call_id, first.valid, first.early, first.code),
                         (CALLS[0]["id"], False, True, ErrorCode.VALIDATION))
        self.assertEqual([(e.keyword, e.schema_path, e.instance_path, e.offset) for e in first.errors],
                         [("enum", "/properties/country/enum", "/country", offset_of(weather, '"GB"', 1))])
        self.assertLess(first.bytes, len(weather.encode()), "rejected before the call's last delta")
        self.assertTrue(second.valid)

    def test_stop_on_early_rejection(self):
        """The rejection arrives while the provider is still generating; the
        caller closes the stream and no further event is pulled or sent."""
        provider = GatedProvider(EVENTS, stop_after=COUNTRY_EVENT)
        with self.stream(iter(provider), country_in("FR")) as results:
            # The provider yields nothing more until release(), below: this
            # result can only have come while it was still generating.
            first = next(results)
            self.assertEqual((first.call_id, first.early), (CALLS[0]["id"], True))
            results.close()
            self.assertEqual(list(results), [], "closing ends the iteration without an error")
        # Closing closed the provider's events: at once if no pull was in
        # progress, else when the pull ended (its error is not reported).
        provider.release()
        self.assertTrue(provider.finished.wait(timeout=10), "the events were closed")
        self.assertEqual(provider.yielded, COUNTRY_EVENT + 1, "no event after the rejection was pulled")

    def test_explicit_deltas(self):
        """Two interleaved calls: call_2 is rejected at the "d" of "done"
        before its last delta, while call_1 is still streaming."""
        events = [
            Start("call_1", "todo"), Start("call_2", "todo"),
            Delta("call_1", '{"action": "upd'), Delta("call_2", '{"action": "update", "status": "do'),
            Delta("call_1", 'ate", "id": "7"}'), Delta("call_2", 'ne"}'),
            End("call_1"), End("call_2"),
        ]
        second = '{"action": "update", "status": "do'
        with self.client.validate_stream(events, tools={"todo": TODO}) as results:
            got = list(results)
        self.assertEqual([(r.call_id, r.valid, r.early) for r in got], [("call_2", False, True), ("call_1", True, False)])
        self.assertEqual([(e.keyword, e.instance_path, e.offset) for e in got[0].errors],
                         [("enum", "/status", offset_of(second, '"do', 1))])
        self.assertEqual(got[0].bytes, len(second.encode()))

    def test_half_close_ends_open_calls(self):
        events = [Start("c", "todo"), Delta("c", '{"action": "add"')]
        with self.client.validate_stream(events, tools={"todo": TODO}) as results:
            (result,) = list(results)
        self.assertEqual((result.call_id, result.valid, result.early), ("c", False, False))
        self.assertEqual([e.keyword for e in result.errors], ["json"])

    def test_unbound_tool(self):
        with self.client.validate_stream([Start("c", "nope"), End("c")], tools={"todo": TODO}) as results:
            (result,) = list(results)
        self.assertEqual([(e.code, e.keyword) for e in result.errors], [(ErrorCode.VALIDATION, "tool_name")])

    def test_failures(self):
        def failing():
            yield Start("c", "todo")
            raise OSError("connection reset by the provider")

        cases = {
            "the events' own error": (failing(), {}, OSError, "connection reset"),
            "an event of no known kind": ([Start("c", "todo"), 42], {}, TypeError, "int"),
            "a raw event without provider": (['{"type":"ping"}'], {}, TypeError, "provider"),
            "an event the server cannot parse": (["{not json"], {"provider": "PROVIDER_ANTHROPIC"},
                                                 grpc.RpcError, "INVALID_ARGUMENT"),
            # Bound inline, a schema is compiled by the replica the stream reaches.
            "a tool schema that does not compile": ([], {"tools": {"t": {"type": "object", "format": "x"}}},
                                                    grpc.RpcError, 'INVALID_ARGUMENT: bind: the schema of tool "t"'),
            "a malformed handle": ([], {"handles": {"t": "tg1_x"}}, grpc.RpcError, 'INVALID_ARGUMENT: bind: tool "t"'),
        }
        for name, (events, options, error, text) in cases.items():
            options = {"tools": {"todo": TODO}, **options}
            with self.subTest(name), self.client.validate_stream(events, **options) as results:
                with self.assertRaises(error) as caught:
                    list(results)
                err = caught.exception
                shown = f"{err.code().name}: {err.details()}" if isinstance(err, grpc.RpcError) else str(err)
                self.assertIn(text, shown)

    def test_results_received_before_the_events_fail_come_first(self):
        """Results that reached the client while the caller was busy are
        delivered before the events' exception, as gRPC delivers a server's
        messages before its error."""
        reset = ConnectionResetError("the provider reset the connection")
        failed = threading.Event()

        def provider():
            try:
                yield Start("c0", "todo")
                yield Delta("c0", '{"action": "add"}')
                yield End("c0")
                yield Start("c1", "todo")
                yield End("c1")
                time.sleep(0.5)  # both verdicts reach the client meanwhile
                raise reset
            finally:
                failed.set()

        with self.client.validate_stream(provider(), tools={"todo": TODO}, timeout=30) as results:
            self.assertTrue(failed.wait(timeout=10))
            time.sleep(0.2)  # the failure has cancelled the call by now
            got = []
            with self.assertRaises(ConnectionResetError) as caught:
                for result in results:
                    got.append((result.call_id, result.valid))
            self.assertIs(caught.exception, reset, "the events' own exception")
            self.assertEqual(got, [("c0", True), ("c1", False)])
            with self.assertRaises(ConnectionResetError):
                next(results)

    def test_the_end_of_a_stream_closes_its_events_at_once(self):
        """However the stream ends, no more events are pulled and they are
        closed then, while the caller is busy elsewhere, not when it next
        reads a result."""
        for name, (events, timeout, code) in stream_end_cases(Response).items():
            with self.subTest(name), self.client.validate_stream(events, tools={"todo": TODO},
                                                                 timeout=timeout) as results:
                self.assertTrue(events.closed.wait(timeout=5), "closed when the stream ended")
                if code is None:
                    self.assertEqual([r.valid for r in results], [True])
                else:
                    with self.assertRaises(grpc.RpcError) as caught:
                        list(results)
                    self.assertEqual(code_of(caught.exception), code)
                self.assertEqual(events.late, 0, "nothing was pulled after the close")

    def test_an_error_closing_the_events_is_raised(self):
        """The events' own close() failing at the stream's end is the
        caller's exception, raised after the results, as a pull's would be."""
        class Failing(Response):
            def close(self):
                super().close()
                raise OSError("the response could not be closed")

        events = Failing([Start("c", "todo"), Delta("c", '{"action": "add"}'), End("c")])
        with self.client.validate_stream(events, tools={"todo": TODO}, timeout=30) as results:
            self.assertTrue(events.closed.wait(timeout=5))
            got = []
            with self.assertRaises(OSError):
                for result in results:
                    got.append(result.valid)
        self.assertEqual(got, [True])

    def test_the_failure_that_ended_the_stream_is_raised(self):
        """A server error that ends the stream during a pull is raised, not
        what that pull raises afterwards (the events closed by the end)."""
        def provider():
            yield Start("a", "todo")
            yield End("a")
            yield Start("a", "todo")  # a repeated call id: INVALID_ARGUMENT
            time.sleep(0.5)  # the error arrives meanwhile
            raise ConnectionResetError("a read after the stream ended")

        with self.client.validate_stream(provider(), tools={"todo": TODO}, timeout=30) as results:
            time.sleep(1)  # the caller is busy
            got = []
            with self.assertRaises(grpc.RpcError) as caught:
                for result in results:
                    got.append(result.call_id)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(got, ["a"])

    def test_a_failed_stream_closes_its_events_at_once(self):
        # Without a with block, and with the garbage collector off: the
        # error grpcio raises holds the stream in a cycle, so only closing
        # at the error closes the provider's response.
        closed = threading.Event()

        def provider():
            try:
                yield "{not json"
                yield Start("c", "todo")
            finally:
                closed.set()

        gc.disable()
        self.addCleanup(gc.enable)
        results = self.client.validate_stream(provider(), tools={"todo": TODO}, provider=Provider.ANTHROPIC, timeout=30)
        with self.assertRaises(grpc.RpcError) as caught:
            list(results)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        with self.assertRaises(grpc.RpcError) as again:
            list(results)
        self.assertIs(again.exception, caught.exception, "a later pull raises the failure again")
        del results, caught, again
        self.assertTrue(closed.wait(timeout=5), "the events were closed when the stream failed")

    def test_named_event_that_disagrees_with_its_payload(self):
        delta = '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}'
        with self.client.validate_stream([Named("ping", delta)], tools={"todo": TODO}, provider=Provider.ANTHROPIC,
                                         timeout=30) as results:
            with self.assertRaises(grpc.RpcError) as caught:
                list(results)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn('named "ping", but its type is "content_block_delta"', caught.exception.details())

    def test_arguments_checked_before_the_stream_opens(self):
        for name, (options, error) in BAD_STREAM_OPTIONS.items():
            with self.subTest(name), self.assertRaises(error):
                self.client.validate_stream([], **options)
