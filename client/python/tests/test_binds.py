"""The bind messages of a stream, and the compile requests in them: no server needed."""

import random
import unittest

from toolgate import Profile
from toolgate.binds import MAX_BIND_BYTES, bind_requests
from toolgate.messages import compile_request
from toolgate.v1 import validation_pb2 as pb


def schema_of(size):
    """A schema whose JSON text is about ``size`` bytes long."""
    return '{"type": "object", "description": "' + "x" * size + '"}'


def bound_names(requests, order):
    """Each bind's tool names, in ``order`` (a protobuf map has none)."""
    return [sorted(request.bind.schemas, key=order.index) for request in requests]


class CompileRequestTest(unittest.TestCase):
    def test_options(self):
        resource = '{"type": "string", "maxLength": 12345678901234567890}'
        resources = {"https://example.com/s": resource, "https://example.com/d": {"type": "integer"}}
        request = compile_request('{"$ref": "https://example.com/s"}', Profile.JSON_SCHEMA, resources, True)
        self.assertEqual(request, pb.CompileSchemaRequest(
            profile=pb.PROFILE_JSON_SCHEMA, schema_json='{"$ref": "https://example.com/s"}', format_assertion=True,
            resources={"https://example.com/s": resource, "https://example.com/d": '{"type":"integer"}'}))
        self.assertEqual(compile_request({}, Profile.UNSPECIFIED), pb.CompileSchemaRequest(schema_json="{}"),
                         "no resources and no format assertion by default")

    def test_what_cannot_be_sent(self):
        cases = {
            "resources not a mapping": ({"resources": ["https://example.com/s"]}, TypeError),
            "a URI that is not a str": ({"resources": {1: "{}"}}, TypeError),
            "a resource JSON cannot hold": ({"resources": {"https://example.com/s": {"n": float("nan")}}}, ValueError),
            "a resource of no JSON kind": ({"resources": {"https://example.com/s": 5}}, TypeError),
            "a format assertion that is not a bool": ({"format_assertion": "yes"}, TypeError),
            "a format assertion of 1": ({"format_assertion": 1}, TypeError),
        }
        for name, (options, error) in cases.items():
            with self.subTest(name), self.assertRaises(error):
                compile_request("{}", Profile.JSON_SCHEMA, **options)


class BindRequestsTest(unittest.TestCase):
    def test_tools_inline_and_handles(self):
        todo = compile_request('{"type": "object"}', Profile.TOOL_INPUT)
        handle = "tg1_" + "a" * 64
        requests = bind_requests(tools={"todo": todo}, handles={"weather": handle})
        self.assertEqual(requests, [
            pb.ValidateStreamRequest(bind=pb.StreamBind(schemas={"todo": todo})),
            pb.ValidateStreamRequest(bind=pb.StreamBind(tools={"weather": handle})),
        ])

    def test_output(self):
        output = compile_request('{"type": "object"}', Profile.OUTPUT_BINDABLE)
        tool = compile_request("{}", Profile.TOOL_INPUT)
        self.assertEqual(bind_requests(output=output, strip_code_fence=True, tools={"t": tool}), [
            pb.ValidateStreamRequest(bind=pb.StreamBind(output_schema=output, strip_code_fence=True)),
            pb.ValidateStreamRequest(bind=pb.StreamBind(schemas={"t": tool})),
        ])

    def test_nothing_to_bind(self):
        self.assertEqual(bind_requests(), [])
        self.assertEqual(bind_requests(tools={}, handles={}), [])

    def test_refused(self):
        tool = compile_request("{}", Profile.TOOL_INPUT)
        cases = {
            "a name bound both ways": ({"tools": {"t": tool}, "handles": {"t": "tg1_" + "0" * 64}}, ValueError),
            "a handle that is not a str": ({"handles": {"t": 5}}, TypeError),
            "handles that are not a mapping": ({"handles": [("t", "tg1_" + "0" * 64)]}, TypeError),
            "a tool name that is not a str": ({"tools": {5: tool}}, TypeError),
        }
        for name, (options, error) in cases.items():
            with self.subTest(name), self.assertRaises(error):
                bind_requests(**options)

    def test_large_toolsets_are_split(self):
        """Property: any tools, of any sizes, are bound each exactly once, in
        order, in binds that stay within MAX_BIND_BYTES unless one schema alone
        is larger, and that could not have been fewer (each bind but the last
        is full: the next schema would not have fitted)."""
        rng = random.Random(7)
        sizes = [MAX_BIND_BYTES // 3, MAX_BIND_BYTES // 2, MAX_BIND_BYTES - 200, MAX_BIND_BYTES + 10, 10, 1000]
        for trial in range(40):
            tools = {f"tool_{trial}_{i}": compile_request(schema_of(rng.choice(sizes)), Profile.TOOL_INPUT)
                     for i in range(rng.randrange(1, 8))}
            with self.subTest(trial=trial, tools=len(tools)):
                requests = bind_requests(tools=tools)
                for request in requests:
                    for name, bound in request.bind.schemas.items():
                        self.assertEqual(bound, tools[name])
                binds = bound_names(requests, list(tools))
                self.assertEqual([name for bind in binds for name in bind], list(tools), "each once, in order")
                cost = [[len(name) + tools[name].ByteSize() for name in bind] for bind in binds]
                for i, bind in enumerate(cost):
                    self.assertTrue(bind, "no empty bind")
                    self.assertTrue(sum(bind) <= MAX_BIND_BYTES or len(bind) == 1, f"bind {i} is over the limit")
                    if i + 1 < len(cost):
                        self.assertGreater(sum(bind) + cost[i + 1][0], MAX_BIND_BYTES, f"bind {i} could have held more")
