"""Validator across two replicas that share nothing."""

import concurrent.futures
import unittest

import grpc

import toolgate
from toolgate import ErrorCode, Profile, SchemaError

from tests.support import SlowSwitch, SwitchChannel, connect, replica_address, unique

WEATHER = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
           "required": ["city"]}


class ValidatorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.channels = {name: grpc.insecure_channel(replica_address(name)) for name in ("A", "B")}
        for channel in cls.channels.values():
            cls.addClassCleanup(channel.close)
        cls.direct = {name: toolgate.Client(channel) for name, channel in cls.channels.items()}

    def setUp(self):
        self.switch = SwitchChannel(**self.channels)
        self.validator = toolgate.Client(self.switch).validator()

    def assert_not_held(self, replica, handle):
        with self.assertRaises(grpc.RpcError) as caught:
            self.direct[replica].validate(handle, "{}")
        self.assertEqual(caught.exception.code(), grpc.StatusCode.NOT_FOUND, f"replica {replica} holds {handle}")

    def test_survives_a_replica_without_the_handle(self):
        self.switch.route("A")
        handle = self.validator.register(unique(WEATHER)).handle
        self.assert_not_held("B", handle)

        self.switch.route("B")  # the balancer moves the client to B
        result = self.validator.validate(handle, {"city": "Oslo"})
        self.assertTrue(result.valid)
        self.assertEqual(result.handle, handle, "B computed the handle A computed")
        self.assertTrue(self.direct["B"].validate(handle, {"city": "Oslo"}).valid,
                        "B compiled the schema the Validator sent inline")

        result = self.validator.validate(handle, '{"city": "Oslo", "days": 0}')
        self.assertFalse(result.valid, "violations are still answers")
        self.assertEqual([(e.code, e.keyword, e.instance_path) for e in result.errors],
                         [(ErrorCode.VALIDATION, "minimum", "/days")])

    def test_recovers_concurrently(self):
        self.switch.route("A")
        handle = self.validator.register(unique(WEATHER)).handle
        self.switch.route("B")
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda _: self.validator.validate(handle, {"city": "Oslo"}), range(32)))
        self.assertTrue(all(r.valid and r.handle == handle for r in results))

    def test_retry_gets_what_is_left_of_the_timeout(self):
        """The timeout bounds the whole call: the retry after NOT_FOUND has
        what the first attempt left, and fails with DEADLINE_EXCEEDED when
        nothing is left."""
        switch = SlowSwitch(0.5, **self.channels)
        validator = toolgate.Client(switch).validator()
        switch.route("A")
        handle = validator.register(unique(WEATHER)).handle
        switch.route("B")

        switch.timeouts.clear()
        self.assertTrue(validator.validate(handle, {"city": "Oslo"}, timeout=5).valid)
        first, retry = switch.timeouts
        self.assertEqual(first, 5)
        self.assertLessEqual(retry, 5 - 0.5, "the retry has what the first attempt left")

        switch.route("A")
        handle = validator.register(unique(WEATHER)).handle
        switch.route("B")
        with self.assertRaises(grpc.RpcError) as caught:
            validator.validate(handle, {"city": "Oslo"}, timeout=0.3)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.DEADLINE_EXCEEDED)
        self.assertEqual(caught.exception.__cause__.code(), grpc.StatusCode.NOT_FOUND)
        self.assert_not_held("B", handle)  # no retry was sent

    def test_not_found_for_handles_it_does_not_know(self):
        self.switch.route("A")
        handle = self.direct["A"].compile(unique(WEATHER)).handle
        forgotten = self.validator.register(unique(WEATHER)).handle
        self.validator.forget(forgotten)
        self.switch.route("B")
        for name, h in {"never registered": handle, "forgotten": forgotten}.items():
            with self.subTest(name), self.assertRaises(grpc.RpcError) as caught:
                self.validator.validate(h, {"city": "Oslo"})
            self.assertEqual(caught.exception.code(), grpc.StatusCode.NOT_FOUND)

    def test_validate_schema_remembers_the_handle(self):
        schema = unique(WEATHER)
        self.switch.route("A")
        first = self.validator.validate_schema(schema, {"city": "Oslo"})
        self.assertTrue(first.valid)
        self.switch.route("B")
        self.assert_not_held("B", first.handle)
        second = self.validator.validate_schema(schema, {"days": 2})
        self.assertEqual([e.keyword for e in second.errors], ["required"])
        self.assertEqual(second.handle, first.handle)
        self.assertTrue(self.direct["B"].validate(first.handle, {"city": "Oslo"}).valid)

    def test_schema_that_does_not_compile(self):
        self.switch.route("A")
        schema = {"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}}
        with self.assertRaises(SchemaError) as caught:
            self.validator.register(schema)
        self.assertIs(caught.exception.result.code, ErrorCode.UNSUPPORTED_CAPABILITY)
        self.assertEqual([e.schema_path for e in caught.exception.result.errors], ["/properties/url/format"])
        self.assertIn("format", str(caught.exception))
        answer = self.validator.validate_schema(schema, {})
        self.assertFalse(answer.valid)
        self.assertEqual(answer.handle, "")
        self.assertIs(answer.code, ErrorCode.UNSUPPORTED_CAPABILITY)

    def test_other_failures_are_raised(self):
        with connect("A") as client:
            validator = client.validator()
            handle = validator.register(unique(WEATHER)).handle
            client.close()
            with self.assertRaises(ValueError):  # grpc refuses calls on a closed channel
                validator.validate(handle, {"city": "Oslo"})

    def test_validate_schema_tells_compile_options_apart(self):
        """The same schema text with and without format assertion, or with
        other resources, is another schema: each has its own handle and
        verdict, on either replica."""
        self.switch.route("A")
        schema = unique({"$ref": "https://example.com/toolgate-interop/on.json"})
        date = {"type": "object", "properties": {"on": {"type": "string", "format": "date"}}}
        required = {**date, "required": ["on"]}
        cases = [  # (resource, format asserted, arguments, valid)
            (date, True, {"on": "soon"}, False),
            (date, False, {"on": "soon"}, True),
            (required, False, {}, False),
            (date, False, {}, True),
        ]
        handles = set()
        for replica in ("A", "B"):
            self.switch.route(replica)
            for resource, asserted, arguments, valid in cases:
                with self.subTest(replica=replica, resource=resource, asserted=asserted, arguments=arguments):
                    result = self.validator.validate_schema(
                        schema, arguments, profile=Profile.JSON_SCHEMA, format_assertion=asserted,
                        resources={"https://example.com/toolgate-interop/on.json": resource})
                    self.assertEqual(result.valid, valid)
                    handles.add(result.handle)
        self.assertEqual(len(handles), 3, "date with and without assertion, and required: three schemas")
