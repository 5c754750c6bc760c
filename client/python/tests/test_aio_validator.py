"""toolgate.aio.Validator across two replicas that share nothing: the
re-send after NOT_FOUND, within the caller's timeout."""

import asyncio

import grpc

import toolgate.aio
from toolgate import ErrorCode, Profile, SchemaError

from tests.aio_support import Replicas
from tests.support import SlowSwitch, SwitchChannel, unique

WEATHER = {"type": "object", "properties": {"city": {"type": "string"}, "units": {"type": "string", "enum": ["c", "f"]}},
           "required": ["city"]}


class AsyncSlowSwitch(SlowSwitch):
    """SlowSwitch for grpc.aio channels: its delay does not block the loop."""

    def unary_unary(self, method, *args, **kwargs):
        call = SwitchChannel.unary_unary(self, method, *args, **kwargs)

        async def slow(request, **options):
            self.timeouts.append(options.get("timeout"))
            try:
                return await call(request, **options)
            except grpc.RpcError:
                await asyncio.sleep(self.delay)
                raise

        return slow


class ValidatorTest(Replicas):
    async def asyncSetUp(self):
        await super().asyncSetUp()
        self.validator = toolgate.aio.Client(self.switch).validator()
        self.assertIsInstance(self.validator, toolgate.aio.Validator)

    async def registered_on_a(self, validator=None, switch=None):
        """Registers a new schema on A through ``validator``, checks that B
        does not hold it, and routes the calls to B."""
        switch = switch or self.switch
        switch.route("A")
        result = await (validator or self.validator).register(unique(WEATHER))
        await self.assert_not_held("B", result.handle)
        switch.route("B")  # the balancer moves the client to B
        return result.handle

    async def test_survives_a_replica_without_the_handle(self):
        handle = await self.registered_on_a()
        result = await self.validator.validate(handle, {"city": "Oslo"})
        self.assertTrue(result.valid)
        self.assertEqual(result.handle, handle, "B computed the handle A computed")
        self.assertTrue((await self.direct["B"].validate(handle, {"city": "Bergen"})).valid,
                        "B compiled the schema the Validator sent inline")
        result = await self.validator.validate(handle, '{"city": "Oslo", "units": "k"}')
        self.assertFalse(result.valid, "violations are still answers")
        # "k" begins neither "c" nor "f": refused at its first byte
        self.assertEqual([(e.code, e.keyword, e.instance_path, e.offset) for e in result.errors],
                         [(ErrorCode.VALIDATION, "enum", "/units", len('{"city": "Oslo", "units": "'))])

    async def test_recovers_concurrently(self):
        handle = await self.registered_on_a()
        results = await asyncio.gather(*(self.validator.validate(handle, {"city": f"c{i}"}) for i in range(32)))
        self.assertTrue(all(r.valid and r.handle == handle for r in results))

    async def test_retry_gets_what_is_left_of_the_timeout(self):
        switch = AsyncSlowSwitch(0.5, **self.channels)
        validator = toolgate.aio.Client(switch).validator()
        handle = await self.registered_on_a(validator, switch)
        switch.timeouts.clear()
        self.assertTrue((await validator.validate(handle, {"city": "Oslo"}, timeout=5)).valid)
        first, retry = switch.timeouts
        self.assertEqual(first, 5)
        self.assertLessEqual(retry, 5 - 0.5, "the retry has what the first attempt left")
        self.assertGreater(retry, 0)

        handle = await self.registered_on_a(validator, switch)
        switch.timeouts.clear()
        with self.assertRaises(grpc.RpcError) as caught:
            await validator.validate(handle, {"city": "Oslo"}, timeout=0.3)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.DEADLINE_EXCEEDED)
        self.assertEqual(caught.exception.__cause__.code(), grpc.StatusCode.NOT_FOUND)
        self.assertEqual(switch.timeouts, [0.3], "no retry was sent")
        await self.assert_not_held("B", handle)

    async def test_not_found_for_handles_it_does_not_know(self):
        self.switch.route("A")
        handle = (await self.direct["A"].compile(unique(WEATHER))).handle
        forgotten = (await self.validator.register(unique(WEATHER))).handle
        self.validator.forget(forgotten)
        self.validator.forget("tg1_unknown")  # ignored
        self.switch.route("B")
        for name, h in {"never registered": handle, "forgotten": forgotten}.items():
            with self.subTest(name), self.assertRaises(grpc.RpcError) as caught:
                await self.validator.validate(h, {"city": "Oslo"})
            self.assertEqual(caught.exception.code(), grpc.StatusCode.NOT_FOUND)

    async def test_validate_schema_remembers_the_handle(self):
        schema = unique(WEATHER)
        first = await self.validator.validate_schema(schema, {"city": "Oslo"})
        self.assertTrue(first.valid)
        self.assertEqual(first.handle, (await self.direct["A"].compile(schema)).handle)
        self.switch.route("B")
        await self.assert_not_held("B", first.handle)
        second = await self.validator.validate_schema(schema, {"units": "c"})
        self.assertEqual(([e.keyword for e in second.errors], second.handle), (["required"], first.handle))
        self.assertTrue((await self.direct["B"].validate(first.handle, {"city": "Oslo"})).valid)

    async def test_validate_schema_tells_compile_options_apart(self):
        """Format asserted or not is another schema, with its own verdict."""
        schema = unique({"type": "object", "properties": {"on": {"type": "string", "format": "date"}}})
        cases = [(True, False), (False, True), (True, False)]
        for replica in ("A", "B"):
            self.switch.route(replica)
            for asserted, valid in cases:
                with self.subTest(replica=replica, asserted=asserted):
                    result = await self.validator.validate_schema(schema, {"on": "tomorrow"}, format_assertion=asserted,
                                                                  profile=Profile.JSON_SCHEMA)
                    self.assertEqual(result.valid, valid)

    async def test_schema_that_does_not_compile(self):
        schema = {"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}}
        with self.assertRaises(SchemaError) as caught:
            await self.validator.register(schema)
        self.assertIs(caught.exception.result.code, ErrorCode.UNSUPPORTED_CAPABILITY)
        self.assertEqual([e.schema_path for e in caught.exception.result.errors], ["/properties/url/format"])
        answer = await self.validator.validate_schema(schema, {})
        self.assertEqual((answer.valid, answer.handle, answer.code), (False, "", ErrorCode.UNSUPPORTED_CAPABILITY))

    async def test_other_failures_are_raised(self):
        """INVALID_ARGUMENT is not retried, even for a registered handle's
        replica: a handle that is not one is refused as it is."""
        with self.assertRaises(grpc.RpcError) as caught:
            await self.validator.validate("tg1_x", {"city": "Oslo"})
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
