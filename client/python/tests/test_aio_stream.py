"""toolgate.aio streams against a real replica: recorded provider events and
explicit deltas from async and plain iterables, results delivered while the
events are still produced, and every way a stream ends (its last result, an
error, its timeout, close, break, cancellation, collection) closing the
events and leaving no task."""

import asyncio
import gc
import json
import time

import grpc

import toolgate.aio
from toolgate import Delta, End, ErrorCode, Named, Profile, Provider, Start
from toolgate.binds import MAX_BIND_BYTES

from tests.aio_support import AioTestCase, Events, Gated, Replicas
from tests.support import Unsent, unique
from tests.test_replicas import answer_and_call, by_call
from tests.test_stream import (BAD_STREAM_OPTIONS, CALLS, COUNTRY_EVENT, EVENTS, STOCK, TODO, WEATHER, code_of, country_in,
                               offset_of, stream_end_cases)

# The weather call of the recording, rejected by country_in("FR") at the
# byte after the "G" of "GB": COUNTRY_EVENT carries it.
REJECTED = (CALLS[0]["id"], CALLS[0]["name"], False, True)
ACCEPTED = (CALLS[1]["id"], CALLS[1]["name"], True, False)


async def collect(results):
    return [r async for r in results]


async def agen(events):
    """``events`` as an async generator that lets the loop run between them."""
    for event in events:
        await asyncio.sleep(0)
        yield event


def summary(results):
    return [(r.call_id, r.tool_name, r.valid, r.early) for r in results]


class Plain:
    """A plain (not async) iterator of ``events`` whose ``close()`` records
    that it was called and raises ``close_error``, if given."""

    def __init__(self, events, close_error=None):
        self._events, self._close_error = iter(events), close_error
        self.closed = asyncio.Event()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._events)

    def close(self):
        self.closed.set()
        if self._close_error is not None:
            raise self._close_error


class StreamTest(AioTestCase):
    def stream(self, events, weather=WEATHER, **options):
        tools = {"GetWeatherArgs": weather, "get_stock_price": STOCK}
        return self.client.validate_stream(events, tools=tools, provider=Provider.OPENAI_CHAT,
                                           **{"timeout": 30, **options})

    async def test_recorded_stream(self):
        kinds = {"a list": lambda: list(EVENTS), "a generator": lambda: (e for e in EVENTS),
                 "an async generator": lambda: agen(EVENTS), "bytes": lambda: [e.encode() for e in EVENTS]}
        for name, events in kinds.items():
            with self.subTest(name):
                async with self.stream(events()) as results:
                    self.assertIsInstance(results, toolgate.aio.ResultStream)
                    got = await collect(results)
                self.assertEqual(summary(got), [(c["id"], c["name"], True, False) for c in CALLS])
                self.assertEqual([r.bytes for r in got], [len(c["arguments"].encode()) for c in CALLS])

    async def test_early_rejection(self):
        weather = CALLS[0]["arguments"]
        async with self.stream(agen(EVENTS), country_in("FR", "DE")) as results:
            first, second = await collect(results)
        self.assertEqual(summary([first, second]), [REJECTED, ACCEPTED])
        self.assertIs(first.code, ErrorCode.VALIDATION)
        self.assertEqual([(e.code, e.keyword, e.schema_path, e.instance_path, e.offset) for e in first.errors],
                         [(ErrorCode.VALIDATION, "enum", "/properties/country/enum", "/country",
                           offset_of(weather, '"GB"', 1))])
        self.assertLess(first.bytes, len(weather.encode()), "rejected before the call's last delta")

    async def test_early_rejection_arrives_while_the_events_are_produced(self):
        """The events stop after the rejecting one, on a gate the test opens
        only once the rejection has arrived: it can only have come while the
        provider was still generating."""
        provider = Gated(EVENTS, stop_after=COUNTRY_EVENT)
        async with self.stream(provider.generator, country_in("FR")) as results:
            first = await asyncio.wait_for(anext(results), 10)
            self.assertEqual(summary([first]), [REJECTED])
            self.assertEqual(provider.yielded, COUNTRY_EVENT + 1, "nothing after the gate was pulled")
            self.assertFalse(provider.finished.is_set(), "the events are still being produced")
            provider.gate.set()
            rest = await collect(results)
        self.assertEqual(summary(rest), [ACCEPTED])
        self.assertEqual(provider.yielded, len(EVENTS))
        self.assertFalse(provider.cancelled)

    async def test_close_on_early_rejection(self):
        """close() cancels the pull in progress: the generator, waiting on a
        gate that never opens, sees CancelledError and is closed, and no
        further event is pulled."""
        provider = Gated(EVENTS, stop_after=COUNTRY_EVENT)
        async with self.stream(provider.generator, country_in("FR")) as results:
            first = await anext(results)
            self.assertEqual(summary([first]), [REJECTED])
            await self.until(provider.waiting)
            await results.close()
            self.assertTrue(provider.finished.is_set(), "closed before close() returned")
            self.assertTrue(provider.cancelled, "the pull in progress was cancelled")
            self.assert_no_tasks()
            self.assertEqual(await collect(results), [], "closing ends the iteration without an error")
            await results.close()  # idempotent
        self.assertEqual(provider.yielded, COUNTRY_EVENT + 1)

    async def test_closed_before_it_began(self):
        """A stream closed before its tasks ran pulls nothing and sends no
        event; its events are closed all the same."""
        for name in ("close()", "an empty with block"):
            with self.subTest(name):
                events = Events([Start("c", "todo"), End("c")])
                results = self.client.validate_stream(events, tools={"todo": TODO}, timeout=30)
                if name == "close()":
                    await results.close()
                else:
                    async with results:
                        pass
                self.assertTrue(events.closed.is_set())
                self.assertEqual(events.pulled, 0)
                self.assert_no_tasks()
                self.assertEqual(await collect(results), [])

    async def test_break_ends_the_stream_at_the_with_exit(self):
        provider = Gated(EVENTS, stop_after=COUNTRY_EVENT)
        async with self.stream(provider.generator, country_in("FR")) as results:
            async for result in results:
                self.assertTrue(result.early)
                break
            await self.until(provider.waiting)
            await asyncio.sleep(0.1)
            self.assertFalse(provider.finished.is_set(), "a break alone does not end the stream")
        self.assertTrue(provider.finished.is_set(), "leaving the with block closed the events")
        self.assertTrue(provider.cancelled)
        self.assert_no_tasks()

    async def test_explicit_deltas(self):
        """Two interleaved calls: "b" is rejected at the "x" of "xyz" while
        "a" is still streaming, and "a" is valid at its end."""
        rejected = '{"action": "add", "id": "1", "status": "xyz'
        events = [
            Start("a", "todo"), Start("b", "todo"),
            Delta("a", '{"id": "2", '), Delta("b", rejected),
            Delta("a", '"status": "completed", '), Delta("b", '"}'),
            Delta("a", '"action": "update"}'), End("a"), End("b"),
        ]
        for name, produce in {"a list": lambda: events, "an async generator": lambda: agen(events)}.items():
            with self.subTest(name):
                async with self.client.validate_stream(produce(), tools={"todo": TODO}) as results:
                    got = await collect(results)
                self.assertEqual(summary(got), [("b", "todo", False, True), ("a", "todo", True, False)])
                self.assertEqual([(e.keyword, e.instance_path, e.offset) for e in got[0].errors],
                                 [("enum", "/status", offset_of(rejected, '"xyz', 1))])
                self.assertEqual(got[0].bytes, len(rejected.encode()))
                self.assertEqual(got[1].bytes, len('{"id": "2", "status": "completed", "action": "update"}'))

    async def test_half_close_ends_open_calls(self):
        async with self.client.validate_stream(agen([Start("c", "todo"), Delta("c", '{"action": "add", ')]),
                                               tools={"todo": TODO}) as results:
            (result,) = await collect(results)
        self.assertEqual(summary([result]), [("c", "todo", False, False)])
        self.assertEqual([e.keyword for e in result.errors], ["json"])

    async def test_unbound_tool(self):
        async with self.client.validate_stream([Start("c", "other"), End("c")], tools={"todo": TODO}) as results:
            (result,) = await collect(results)
        self.assertEqual(summary([result]), [("c", "other", False, True)])
        self.assertEqual([(e.code, e.keyword) for e in result.errors], [(ErrorCode.VALIDATION, "tool_name")])

    async def test_failures(self):
        async def failing():
            yield Start("c", "todo")
            raise OSError("connection reset by the provider")

        def failing_plain():
            yield Start("c", "todo")
            raise OSError("connection reset by the provider")

        cases = {
            "the async events' own error": (failing, {}, OSError, "connection reset"),
            "the plain events' own error": (failing_plain, {}, OSError, "connection reset"),
            "an event of no known kind": (lambda: agen([Start("c", "todo"), 42]), {}, TypeError, "int"),
            "a raw event without provider": (lambda: ['{"type":"ping"}'], {}, TypeError, "provider"),
            "a Named event with no text": (lambda: [Named("ping", 7)], {"provider": Provider.ANTHROPIC}, TypeError,
                                           "Named"),
            "bytes that are not UTF-8": (lambda: [b"\xff"], {"provider": Provider.ANTHROPIC}, UnicodeDecodeError, ""),
            "an event the server cannot parse": (lambda: ["{not json"], {"provider": "PROVIDER_ANTHROPIC"},
                                                 grpc.RpcError, "INVALID_ARGUMENT"),
            "a tool schema that does not compile": (lambda: [], {"tools": {"t": {"type": "object", "format": "x"}}},
                                                    grpc.RpcError, 'INVALID_ARGUMENT: bind: the schema of tool "t"'),
            "a malformed handle": (lambda: [], {"handles": {"t": "tg1_x"}}, grpc.RpcError,
                                   'INVALID_ARGUMENT: bind: tool "t"'),
            "a repeated call id": (lambda: agen([Start("a", "todo"), End("a"), Start("a", "todo")]), {},
                                   grpc.RpcError, "INVALID_ARGUMENT"),
        }
        for name, (events, options, error, text) in cases.items():
            options = {"tools": {"todo": TODO}, "timeout": 30, **options}
            with self.subTest(name):
                async with self.client.validate_stream(events(), **options) as results:
                    with self.assertRaises(error) as caught:
                        await collect(results)
                    with self.assertRaises(error) as again:
                        await anext(results)
                    self.assertIs(again.exception, caught.exception, "a later pull raises the failure again")
                err = caught.exception
                shown = f"{err.code().name}: {err.details()}" if isinstance(err, grpc.RpcError) else str(err)
                self.assertIn(text, shown)
                if isinstance(err, grpc.RpcError):
                    self.assertIsInstance(err, grpc.aio.AioRpcError)

    async def test_results_received_before_the_events_fail_come_first(self):
        reset = ConnectionResetError("the provider reset the connection")
        failed = asyncio.Event()

        async def provider():
            try:
                yield Start("c0", "todo")
                yield Delta("c0", '{"action": "update"}')
                yield End("c0")
                yield Start("c1", "todo")
                yield Delta("c1", '{"id": "7"}')
                yield End("c1")
                await asyncio.sleep(0.5)  # both verdicts reach the client meanwhile
                raise reset
            finally:
                failed.set()

        async with self.client.validate_stream(provider(), tools={"todo": TODO}, timeout=30) as results:
            await self.until(failed)
            await asyncio.sleep(0.2)  # the failure has cancelled the call by now
            got = []
            with self.assertRaises(ConnectionResetError) as caught:
                async for result in results:
                    got.append((result.call_id, result.valid, [e.keyword for e in result.errors]))
            self.assertIs(caught.exception, reset, "the events' own exception")
            self.assertEqual(got, [("c0", True, []), ("c1", False, ["required"])])
            self.assert_no_tasks()

    async def test_the_end_of_a_stream_closes_its_events_at_once(self):
        """However the stream ends, no more events are pulled and they are
        closed then, while the caller is busy elsewhere, not when it next
        reads a result; once the iteration is over no task is left."""
        for name, (events, timeout, code) in stream_end_cases(Events).items():
            with self.subTest(name):
                began = time.monotonic()
                async with self.client.validate_stream(events, tools={"todo": TODO}, timeout=timeout) as results:
                    await self.until(events.closed, 5)
                    if timeout < 1:
                        self.assertGreaterEqual(time.monotonic() - began, timeout * 0.9, "the timeout bounds it")
                    if code is None:
                        self.assertEqual([r.valid for r in await collect(results)], [True])
                    else:
                        with self.assertRaises(grpc.RpcError) as caught:
                            await collect(results)
                        self.assertEqual(code_of(caught.exception), code)
                    self.assert_no_tasks()
                self.assertEqual(events.late, 0, "nothing was pulled after the close")

    async def test_an_error_closing_the_events_is_raised(self):
        """What closing the events raises is the caller's: after the results
        when the stream's end closed them, from close() when it did."""
        done = [Start("c", "todo"), Delta("c", '{"action": "add"}'), End("c")]
        for name, events in {"aclose()": Events(done, aclose_error=OSError("aclose")),
                             "close()": Plain(done, close_error=OSError("close"))}.items():
            with self.subTest(f"at the stream's end, by {name}"):
                async with self.client.validate_stream(events, tools={"todo": TODO}, timeout=30) as results:
                    await self.until(events.closed, 5)
                    got = []
                    with self.assertRaisesRegex(OSError, "close"):
                        async for result in results:
                            got.append(result.valid)
                self.assertEqual(got, [True])

        with self.subTest("by close()"):
            events = Events([Start("c", "todo")], more=Delta("c", " "), aclose_error=OSError("aclose"))
            async with self.client.validate_stream(events, tools={"todo": TODO}, timeout=30) as results:
                await asyncio.sleep(0.1)
                with self.assertRaisesRegex(OSError, "aclose"):
                    await results.close()
                self.assertTrue(events.closed.is_set())
                await results.close()  # raised once, by the close that closed them
            self.assertEqual(events.late, 0)

        with self.subTest("after the events' own failure"):
            class Failing(Events):
                async def __anext__(self):
                    if self.pulled:
                        raise ConnectionResetError("read")
                    return await super().__anext__()

            events = Failing([Start("c", "todo")], aclose_error=OSError("aclose"))
            async with self.client.validate_stream(events, tools={"todo": TODO}, timeout=30) as results:
                with self.assertRaisesRegex(ConnectionResetError, "read", msg="the failure comes first"):
                    await collect(results)
            self.assertTrue(events.closed.is_set())

        with self.subTest("leaving the with block"):
            events = Events([Start("c", "todo")], more=Delta("c", " "), aclose_error=OSError("aclose"))
            with self.assertRaisesRegex(OSError, "aclose"):
                async with self.client.validate_stream(events, tools={"todo": TODO}, timeout=30):
                    await asyncio.sleep(0.1)

    async def test_the_failure_that_ended_the_stream_is_raised(self):
        """A server error that ends the stream during a pull is raised; that
        pull is cancelled (or never made), and what it would have raised
        never happens."""
        closed = asyncio.Event()

        async def provider():
            try:
                yield Start("a", "todo")
                yield End("a")
                yield Start("a", "todo")  # a repeated call id: INVALID_ARGUMENT
                await asyncio.sleep(5)  # the error arrives meanwhile
                raise ConnectionResetError("a read after the stream ended")
            finally:
                closed.set()

        async with self.client.validate_stream(provider(), tools={"todo": TODO}, timeout=30) as results:
            await self.until(closed, 3)  # the caller was busy; the stream's end closed the events
            got = []
            with self.assertRaises(grpc.RpcError) as caught:
                async for result in results:
                    got.append(result.call_id)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(got, ["a"])

    async def test_cancelling_the_reader(self):
        """Cancelling the task that awaits the next result cancels the RPC
        and closes the events, inside a with block or not."""
        for with_block in (True, False):
            with self.subTest(with_block=with_block):
                provider = Gated(EVENTS, stop_after=COUNTRY_EVENT)
                got, first = [], asyncio.Event()

                async def read(results):
                    async for result in results:
                        got.append(result)
                        first.set()

                async def reader():
                    results = self.stream(provider.generator, country_in("FR"))
                    if with_block:
                        async with results:
                            await read(results)
                    else:
                        await read(results)

                task = asyncio.create_task(reader())
                await self.until(first)
                await self.until(provider.waiting)
                await asyncio.sleep(0.05)  # the reader awaits the next result
                task.cancel()
                with self.assertRaises(asyncio.CancelledError):
                    await task
                self.assertEqual(summary(got), [REJECTED])
                self.assertTrue(provider.finished.is_set() and provider.cancelled, "the events were closed")
                self.assert_no_tasks()

    async def test_asyncio_timeout(self):
        provider = Gated(EVENTS, stop_after=COUNTRY_EVENT)
        results = self.stream(provider.generator, country_in("FR"))
        got = []
        with self.assertRaises(TimeoutError):
            async with asyncio.timeout(0.5):
                async for result in results:
                    got.append(result)
        self.assertEqual(summary(got), [REJECTED])
        self.assertTrue(provider.finished.is_set() and provider.cancelled)
        self.assert_no_tasks()

    async def test_cancelled_in_the_with_block(self):
        """Cancelled while busy in the with block: the stream is closed at
        its exit and the cancellation goes on, even when closing the events
        fails."""
        events = Events([Start("c", "todo")], more=Delta("c", " "), aclose_error=OSError("aclose"))
        busy = asyncio.Event()

        async def body():
            async with self.client.validate_stream(events, tools={"todo": TODO}, timeout=30):
                busy.set()
                await asyncio.sleep(30)

        task = asyncio.create_task(body())
        await self.until(busy)
        task.cancel()
        with self.assertRaises(asyncio.CancelledError):
            await task
        self.assertTrue(events.closed.is_set())
        self.assert_no_tasks()

    async def test_a_dropped_stream_is_ended(self):
        provider = Gated(EVENTS, stop_after=COUNTRY_EVENT)
        results = self.stream(provider.generator, country_in("FR"))
        self.assertTrue((await anext(results)).early)
        await self.until(provider.waiting)
        del results
        gc.collect()
        await self.until(provider.finished)
        self.assertTrue(provider.cancelled)
        await self.assert_no_tasks_soon(ours_at_once=False)

    async def test_named_and_bytes_events(self):
        """Anthropic events as bytes, and as Named with bytes or str data:
        the payload and its SSE event name travel together."""
        weather = {"type": "object", "properties": {"city": {"type": "string"}}, "additionalProperties": False}
        arguments = '{"city": "Oslo", "units": "c"}'

        def delta(text):
            return json.dumps({"type": "content_block_delta", "index": 0,
                               "delta": {"type": "input_json_delta", "partial_json": text}})

        start = json.dumps({"type": "content_block_start", "index": 0,
                            "content_block": {"type": "tool_use", "id": "toolu_9", "name": "weather", "input": {}}})
        stop = '{"type":"content_block_stop","index":0}'
        events = [start.encode(), Named("content_block_delta", delta(arguments[:12]).encode()),
                  Named("content_block_delta", delta(arguments[12:])), Named("content_block_stop", stop)]
        async with self.client.validate_stream(agen(events), tools={"weather": weather}, provider=Provider.ANTHROPIC,
                                               timeout=30) as results:
            (result,) = await collect(results)
        self.assertEqual(summary([result]), [("toolu_9", "weather", False, True)])
        self.assertEqual([(e.keyword, e.offset) for e in result.errors],
                         [("additionalProperties", offset_of(arguments, '"units"', 1))])

        mislabelled = [Named("ping", delta("{}"))]
        async with self.client.validate_stream(mislabelled, tools={"weather": weather}, provider=Provider.ANTHROPIC,
                                               timeout=30) as results:
            with self.assertRaises(grpc.RpcError) as caught:
                await collect(results)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn('named "ping", but its type is "content_block_delta"', caught.exception.details())

    async def test_large_toolsets_bind_in_several_messages(self):
        padding = "p" * (MAX_BIND_BYTES * 2 // 5)  # three schemas: more than one bind carries
        tools = {f"tool_{i}": {"type": "object", "properties": {"n": {"type": "integer", "minimum": i}},
                               "description": padding} for i in range(3)}
        events = []
        for i in range(3):
            events += [Start(f"ok{i}", f"tool_{i}"), Delta(f"ok{i}", f'{{"n": {i}}}'), End(f"ok{i}"),
                       Start(f"low{i}", f"tool_{i}"), Delta(f"low{i}", f'{{"n": {i - 1}}}'), End(f"low{i}")]
        async with self.client.validate_stream(agen(events), tools=tools, timeout=60) as results:
            got = sorted((r.call_id, r.valid) for r in await collect(results))
        self.assertEqual(got, sorted([(f"ok{i}", True) for i in range(3)] + [(f"low{i}", False) for i in range(3)]))

    async def test_arguments_checked_before_the_stream_opens(self):
        channel = Unsent()
        client = toolgate.aio.Client(channel)
        pulled = []

        async def events():
            pulled.append(True)
            yield Start("c", "t")

        handle = "tg1_" + "0" * 64
        for name, (options, error) in BAD_STREAM_OPTIONS.items():
            with self.subTest(name), self.assertRaises(error):
                client.validate_stream(events(), **options)
        output_cases = {
            "an output schema that is not JSON": ({"n": float("nan")}, {}, ValueError),
            "a fence flag that is not a bool": ({}, {"strip_code_fence": 1}, TypeError),
            "an unknown tool profile": ({}, {"tool_profile": "PROFILE_X"}, ValueError),
            "a tool bound both ways": ({}, {"tools": {"t": {}}, "handles": {"t": handle}}, ValueError),
        }
        for name, (schema, options, error) in output_cases.items():
            with self.subTest(name), self.assertRaises(error):
                client.validate_output_stream(events(), schema, provider=Provider.OPENAI_CHAT, **options)
        with self.subTest("events that are not iterable"), self.assertRaisesRegex(TypeError, "iterable; got int"):
            client.validate_stream(7, tools={"t": {}})
        with self.subTest("no running event loop"), self.assertRaisesRegex(RuntimeError, "event loop"):
            await asyncio.to_thread(client.validate_stream, [], tools={"t": {}})
        self.assertEqual((channel.calls, pulled), ([], []), "nothing was sent or pulled")


class StreamOnAnyReplicaTest(Replicas):
    """A client whose calls reach A and whose streams reach B, which never
    saw the schemas, as a balancer may place them."""

    async def asyncSetUp(self):
        await super().asyncSetUp()
        self.switch.route("A", streams="B")
        self.balanced = toolgate.aio.Client(self.switch)

    async def compiled_on_a(self, schema, **options):
        handle = (await self.balanced.compile(schema, **options)).handle
        self.assertTrue(handle)
        await self.assert_not_held("B", handle)
        return handle

    async def test_compiled_on_a_streamed_through_b(self):
        cases = {"every call valid": (WEATHER, [(c["id"], c["name"], True, False) for c in CALLS]),
                 "an early rejection": (country_in("FR"), [REJECTED, ACCEPTED])}
        for name, (weather, want) in cases.items():
            with self.subTest(name):
                tools = {"GetWeatherArgs": unique(weather), "get_stock_price": unique(STOCK)}
                handles = {tool: await self.compiled_on_a(schema) for tool, schema in tools.items()}
                async with self.balanced.validate_stream(agen(EVENTS), tools=tools, provider=Provider.OPENAI_CHAT,
                                                         timeout=30) as results:
                    got = await collect(results)
                self.assertEqual(summary(got), want)
                for tool, call, (_, _, valid, _) in zip(tools, CALLS, want, strict=True):
                    self.assertEqual((await self.direct["B"].validate(handles[tool], call["arguments"])).valid, valid,
                                     f"B compiled {tool} as the stream carried it")

    async def test_bound_by_handle_on_b(self):
        handle = await self.compiled_on_a(unique(WEATHER))
        bind = {"handles": {"GetWeatherArgs": handle}, "tools": {"get_stock_price": unique(STOCK)}}
        async with self.balanced.validate_stream(EVENTS, provider=Provider.OPENAI_CHAT, timeout=30, **bind) as results:
            not_held, other = await collect(results)
        self.assertEqual((not_held.call_id, not_held.valid, not_held.early, not_held.bytes, not_held.code),
                         (CALLS[0]["id"], False, True, 0, ErrorCode.NOT_FOUND))
        self.assertEqual([(e.code, e.keyword) for e in not_held.errors], [(ErrorCode.NOT_FOUND, "handle")])
        self.assertIn(handle, not_held.errors[0].message)
        self.assertEqual(summary([other]), [ACCEPTED])
        async with self.direct["A"].validate_stream(EVENTS, provider=Provider.OPENAI_CHAT, timeout=30,
                                                    **bind) as results:
            self.assertEqual(summary(await collect(results)), [(c["id"], c["name"], True, False) for c in CALLS])

    async def test_output_stream(self):
        """Structured output through B: each answer checked against the
        schema, bound inline, the tool call beside it against its tool's."""
        schema = {"type": "object", "required": ["verdict"],
                  "properties": {"verdict": {"type": "string", "enum": ["approve", "reject"]}}}
        cases = {  # (answer, arguments of todo, by call id: valid, early, keywords)
            "both valid": ('{"verdict": "approve"}', '{"action": "add"}',
                           {"output/0": (True, False, []), "call_1": (True, False, [])}),
            # "a" begins "approve", "ab" begins no choice
            "the answer rejected at the b of abstain": ('{"verdict": "abstain"}', '{"action": "update"}',
                                                        {"output/0": (False, True, ["enum"]),
                                                         "call_1": (True, False, [])}),
            # at its closing brace, a fragment before the chunk that ends the call
            "the call rejected": ('{"verdict": "reject"}', '{"id": "1"}',
                                  {"output/0": (True, False, []), "call_1": (False, True, ["required"])}),
        }
        for name, (answer, arguments, want) in cases.items():
            with self.subTest(name):
                async with self.balanced.validate_output_stream(
                        agen(answer_and_call(answer, arguments)), unique(schema), tools={"todo": unique(TODO)},
                        provider=Provider.OPENAI_CHAT, timeout=30) as results:
                    got = by_call(await collect(results))
                self.assertEqual({call: (valid, early, [e[0] for e in errors])
                                  for call, (_, valid, early, _, errors) in got.items()}, want)
                if not want["output/0"][0]:
                    self.assertEqual(got["output/0"][4][0][3], offset_of(answer, '"abstain"', 2))

    async def test_output_stream_options(self):
        fenced = '```json\n{"verdict": "approve"}\n```'
        schema = {"type": "object", "properties": {"verdict": {"type": "string"}}}
        for strip, want in ((True, (True, [])), (False, (False, [("json", 0)]))):
            with self.subTest(strip_code_fence=strip):
                events = answer_and_call(fenced, '{"action": "add"}')
                async with self.balanced.validate_output_stream(events, unique(schema), provider=Provider.OPENAI_CHAT,
                                                                tools={"todo": unique(TODO)}, strip_code_fence=strip,
                                                                timeout=30) as results:
                    got = by_call(await collect(results))
                self.assertEqual((got["output/0"][1], [(e[0], e[3]) for e in got["output/0"][4]]), want)
        with self.subTest("a tool bound by a handle B does not hold"):
            handle = await self.compiled_on_a(unique(TODO))
            events = answer_and_call('{"verdict": "approve"}', '{"action": "add"}')
            async with self.balanced.validate_output_stream(events, unique(schema), handles={"todo": handle},
                                                            provider=Provider.OPENAI_CHAT, timeout=30) as results:
                got = {r.call_id: r for r in await collect(results)}
            self.assertTrue(got["output/0"].valid)
            self.assertEqual((got["call_1"].valid, got["call_1"].early, got["call_1"].code),
                             (False, True, ErrorCode.NOT_FOUND))
            self.assertEqual([(e.keyword, e.message.count(handle)) for e in got["call_1"].errors], [("handle", 1)])
        with self.subTest("a tool that is no bindable schema, under tool_profile"):
            async with self.balanced.validate_output_stream(
                    answer_and_call('{"verdict": "approve"}', "{}"), unique(schema), tools={"todo": {"type": "object"}},
                    tool_profile=Profile.OUTPUT_BINDABLE, provider=Provider.OPENAI_CHAT, timeout=30) as results:
                with self.assertRaises(grpc.RpcError) as caught:
                    await collect(results)
            self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
            self.assertIn('bind: the schema of tool "todo"', caught.exception.details())
        with self.subTest("an output schema that does not compile"):
            async with self.balanced.validate_output_stream(
                    answer_and_call("{}", "{}"), {"type": "object", "properties": {"a": {"type": "object"}}},
                    provider=Provider.OPENAI_CHAT, timeout=30) as results:
                with self.assertRaises(grpc.RpcError) as caught:
                    await collect(results)
            self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
            self.assertIn("bind: the output schema", caught.exception.details())
