"""Streams on any replica: a client whose calls a balancer sends to replica
A and whose streams it sends to replica B, which never saw the schemas. The
stream helper binds inline, so B validates every call; a caller that binds
by handle gets the in-band NOT_FOUND result on B."""

import json
import unittest

import grpc

import toolgate
from toolgate import Answer, Delta, End, ErrorCode, Profile, Provider, Start
from toolgate.binds import MAX_BIND_BYTES, bind_requests
from toolgate.messages import compile_request

from tests.support import SwitchChannel, Unsent, replica_address, unique
from tests.test_stream import CALLS, EVENTS, STOCK, TODO, WEATHER, country_in, offset_of

# A JSON Schema profile tool whose schema is all in a resource, so that a
# call is checked as meant only when the resource travelled with the schema.
EVENT_URI = "https://example.com/toolgate-interop/event.json"
EVENT_RESOURCES = {EVENT_URI: {"type": "object", "properties": {"on": {"type": "string", "format": "date"}},
                               "required": ["on"]}}


def calls(*arguments):
    """Explicit events for one call of tool "t" per argument text, c0, c1, ..."""
    events = []
    for i, text in enumerate(arguments):
        events += [Start(f"c{i}", "t"), Delta(f"c{i}", text), End(f"c{i}")]
    return events


class Replicas(unittest.TestCase):
    """``client`` calls A and streams through B, as a balancer may place
    them; ``a`` and ``b`` call one replica each."""

    @classmethod
    def setUpClass(cls):
        channels = {name: grpc.insecure_channel(replica_address(name)) for name in ("A", "B")}
        for channel in channels.values():
            cls.addClassCleanup(channel.close)
        switch = SwitchChannel(**channels)
        switch.route("A", streams="B")
        cls.client = toolgate.Client(switch)
        cls.a, cls.b = (toolgate.Client(channels[name]) for name in ("A", "B"))


class StreamOnAnyReplicaTest(Replicas):
    def compiled_on_a(self, schema, **options):
        """Compiles ``schema`` on A through the client and checks that B
        does not hold it."""
        handle = self.client.compile(schema, **options).handle
        self.assertTrue(handle)
        with self.assertRaises(grpc.RpcError) as caught:
            self.b.validate(handle, "{}")
        self.assertEqual(caught.exception.code(), grpc.StatusCode.NOT_FOUND, "B must not hold the schema yet")
        return handle

    def test_compiled_on_a_streamed_through_b(self):
        cases = {
            "every call valid": (WEATHER, [(c["id"], c["name"], True, False) for c in CALLS]),
            # The schema is enforced, not only accepted: the weather call is
            # rejected at the byte after "G" of "GB".
            "an early rejection": (country_in("FR"), [(CALLS[0]["id"], CALLS[0]["name"], False, True),
                                                     (CALLS[1]["id"], CALLS[1]["name"], True, False)]),
        }
        for name, (weather, want) in cases.items():
            with self.subTest(name):
                tools = {"GetWeatherArgs": unique(weather), "get_stock_price": unique(STOCK)}
                handles = {tool: self.compiled_on_a(schema) for tool, schema in tools.items()}
                stream = self.client.validate_stream(EVENTS, tools=tools, provider=Provider.OPENAI_CHAT, timeout=30)
                with stream as results:
                    got = list(results)
                self.assertEqual([(r.call_id, r.tool_name, r.valid, r.early) for r in got], want)
                if not got[0].valid:
                    self.assertEqual([(e.keyword, e.offset) for e in got[0].errors],
                                     [("enum", offset_of(CALLS[0]["arguments"], '"GB"', 1))])
                # B compiled what the stream carried, to the handles A computed.
                for tool, call, (_, _, valid, _) in zip(tools, CALLS, want, strict=True):
                    self.assertEqual(self.b.validate(handles[tool], call["arguments"]).valid, valid, tool)

    def test_bound_by_handle_on_b(self):
        """A tool bound by a handle B does not hold: its call gets an in-band
        NOT_FOUND result, early, and the stream goes on to validate the
        other call; on A, which holds the handle, the same bind validates."""
        weather, stock = unique(WEATHER), unique(STOCK)
        handle = self.compiled_on_a(weather)
        bind = {"handles": {"GetWeatherArgs": handle}, "tools": {"get_stock_price": stock}}
        with self.client.validate_stream(EVENTS, provider=Provider.OPENAI_CHAT, timeout=30, **bind) as results:
            not_held, other = list(results)
        self.assertEqual((not_held.call_id, not_held.tool_name, not_held.valid, not_held.early, not_held.bytes),
                         (CALLS[0]["id"], "GetWeatherArgs", False, True, 0))
        self.assertIs(not_held.code, ErrorCode.NOT_FOUND)
        self.assertEqual([(e.code, e.keyword, e.schema_path, e.instance_path) for e in not_held.errors],
                         [(ErrorCode.NOT_FOUND, "handle", "", "")])
        self.assertIn(handle, not_held.errors[0].message)
        self.assertEqual((other.call_id, other.valid), (CALLS[1]["id"], True))

        with self.a.validate_stream(EVENTS, provider=Provider.OPENAI_CHAT, timeout=30, **bind) as results:
            self.assertEqual([(r.call_id, r.valid) for r in results], [(c["id"], True) for c in CALLS])

    def test_json_schema_options_travel_inline(self):
        """The profile, resources and format assertion go with each schema:
        "soon" is not a date only when format is asserted, and {} misses
        "on" only when the resource arrived."""
        schema = unique({"$ref": EVENT_URI})
        events = calls('{"on": "soon"}', '{"on": "2024-05-01"}', "{}")
        cases = {
            "format asserted": (True, [("c0", False, ["format"]), ("c1", True, []), ("c2", False, ["required"])]),
            "format an annotation": (False, [("c0", True, []), ("c1", True, []), ("c2", False, ["required"])]),
        }
        for name, (asserted, want) in cases.items():
            with self.subTest(name):
                options = {"profile": Profile.JSON_SCHEMA, "resources": EVENT_RESOURCES, "format_assertion": asserted}
                self.compiled_on_a(schema, **options)
                with self.client.validate_stream(events, tools={"t": schema}, timeout=30, **options) as results:
                    got = sorted((r.call_id, r.valid, [e.keyword for e in r.errors]) for r in results)
                self.assertEqual(got, want)

    def test_large_toolsets_bind_in_several_messages(self):
        # Three schemas of 0.4 MiB each: more than one bind can carry.
        padding = "p" * (MAX_BIND_BYTES * 2 // 5)
        tools = {f"tool_{i}": {"type": "object", "properties": {"n": {"type": "integer", "minimum": i}},
                               "required": ["n"], "description": f"{unique({})['description']} {padding}"}
                 for i in range(3)}
        for schema in tools.values():
            self.compiled_on_a(schema)
        requests = {name: compile_request(schema, Profile.UNSPECIFIED) for name, schema in tools.items()}
        self.assertGreater(len(bind_requests(tools=requests)), 1, "precondition: the tools need several binds")
        events = []
        for i, tool in enumerate(tools):
            events += [Start(f"ok{i}", tool), Delta(f"ok{i}", f'{{"n": {i}}}'), End(f"ok{i}"),
                       Start(f"low{i}", tool), Delta(f"low{i}", f'{{"n": {i - 1}}}'), End(f"low{i}")]
        with self.client.validate_stream(events, tools=tools, timeout=60) as results:
            got = sorted((r.call_id, r.valid) for r in results)
        self.assertEqual(got, sorted([(f"ok{i}", True) for i in range(3)] + [(f"low{i}", False) for i in range(3)]))


class OutputStreamTest(Replicas):
    """Structured output streamed through B, which never saw the schema."""

    # Two choices of an OpenAI Chat structured-output stream, interleaved:
    # choice 1 is rejected at the "b" of "broken" while choice 0 streams on.
    EVENTS = [
        '{"choices":[{"index":0,"delta":{"role":"assistant","content":"{\\"reason\\": \\"wro"},"finish_reason":null}]}',
        '{"choices":[{"index":1,"delta":{"role":"assistant","content":"{\\"reason\\": \\"broken\\"}"},'
        '"finish_reason":null}]}',
        '{"choices":[{"index":0,"delta":{"content":"ng_item\\"}"},"finish_reason":null}]}',
        '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
        '{"choices":[{"index":1,"delta":{},"finish_reason":"stop"}]}',
    ]
    SCHEMA = {"type": "object", "required": ["reason"],
              "properties": {"reason": {"type": "string", "enum": ["damaged_item", "wrong_item", "other"]}}}

    def answer(self, text):
        """One choice whose whole answer is ``text``, then its end."""
        delta = '{"choices":[{"index":0,"delta":{"content":%s},"finish_reason":null}]}'
        return [delta % json.dumps(text), '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}']

    def test_answers(self):
        schema = unique(self.SCHEMA)
        stream = self.client.validate_output_stream(self.EVENTS, schema, provider=Provider.OPENAI_CHAT, timeout=30)
        with stream as results:
            rejected, accepted = list(results)
        self.assertEqual((rejected.call_id, rejected.tool_name, rejected.valid, rejected.early),
                         ("output/1", "", False, True))
        at = offset_of('{"reason": "broken"}', '"broken"', 1)
        self.assertEqual([(e.keyword, e.schema_path, e.instance_path, e.offset) for e in rejected.errors],
                         [("enum", "/properties/reason/enum", "/reason", at)])
        self.assertEqual((accepted.call_id, accepted.valid, accepted.bytes),
                         ("output/0", True, len('{"reason": "wrong_item"}')))

    def test_code_fence(self):
        fenced = '```json\n{"reason": "other"}\n```'
        cases = {"stripped": (True, True, []), "not stripped": (False, False, [("json", 0)])}
        for name, (strip, valid, findings) in cases.items():
            with self.subTest(name), self.client.validate_output_stream(
                    self.answer(fenced), unique(self.SCHEMA), provider=Provider.OPENAI_CHAT, strip_code_fence=strip,
                    timeout=30) as results:
                (result,) = list(results)
                self.assertEqual((result.call_id, result.valid), ("output/0", valid))
                self.assertEqual([(e.keyword, e.offset) for e in result.errors], findings)

    def test_plain_delta_answers(self):
        # Answers the caller read from its provider itself, sent in 5-byte
        # deltas: held to the schema and strip_code_fence as raw ones are.
        fenced, late = '```json\n{"reason": "other"}\n```', '{"reason": "late"}'

        def answer(call_id, text):
            return [Answer(call_id)] + [Delta(call_id, text[i:i + 5]) for i in range(0, len(text), 5)] + [End(call_id)]

        with self.client.validate_output_stream(answer("a1", fenced) + answer("a2", late), unique(self.SCHEMA),
                                                strip_code_fence=True, timeout=30) as results:
            got = sorted(results, key=lambda r: r.call_id)
        self.assertEqual([(r.call_id, r.tool_name, r.valid, r.early) for r in got],
                         [("a1", "", True, False), ("a2", "", False, True)])
        self.assertEqual(got[0].bytes, len(fenced), "the fence is counted, though skipped")
        self.assertEqual([(e.keyword, e.instance_path, e.offset) for e in got[1].errors],
                         [("enum", "/reason", offset_of(late, '"late"', 1))])
        with self.client.validate_output_stream(answer("a1", fenced), unique(self.SCHEMA), timeout=30) as results:
            (result,) = list(results)
        self.assertEqual([(e.keyword, e.offset) for e in result.errors][:1], [("json", 0)], "a fence not stripped")
        with self.subTest("a stream that binds no output"), self.client.validate_stream(answer("a", "{}")) as results:
            with self.assertRaises(grpc.RpcError) as caught:
                list(results)
            self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)

    def test_failures(self):
        with self.subTest("a schema that does not compile"), self.client.validate_output_stream(
                self.answer("{}"), {"type": "object", "properties": {"a": {"type": "object"}}},
                provider=Provider.OPENAI_CHAT) as results:
            with self.assertRaises(grpc.RpcError) as caught:
                list(results)
            self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
            self.assertIn("bind: the output schema", caught.exception.details())
        cases = {
            "a fence flag that is not a bool": ({"strip_code_fence": "yes"}, TypeError),
            "an unknown profile": ({"profile": "PROFILE_OUTPUT"}, ValueError),
            "an unknown provider": ({"provider": "openai"}, ValueError),
        }
        for name, (options, error) in cases.items():
            with self.subTest(name), self.assertRaises(error):
                self.client.validate_output_stream([], self.SCHEMA, **{"provider": Provider.OPENAI_CHAT, **options})


def chat_chunk(delta, finish_reason=None):
    """One OpenAI Chat chunk of choice 0."""
    return json.dumps({"choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]})


def answer_and_call(answer, arguments, tool="todo", call_id="call_1"):
    """An OpenAI Chat stream (response_format and tools) of one choice that
    writes ``answer`` as its text, then calls ``tool`` with ``arguments``,
    each in two fragments, and finishes with "tool_calls"."""
    half, cut = len(answer) // 2, len(arguments) // 2
    return [
        chat_chunk({"role": "assistant", "content": answer[:half]}),
        chat_chunk({"content": answer[half:]}),
        chat_chunk({"tool_calls": [{"index": 0, "id": call_id, "type": "function",
                                    "function": {"name": tool, "arguments": ""}}]}),
        chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": arguments[:cut]}}]}),
        chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": arguments[cut:]}}]}),
        chat_chunk({}, "tool_calls"),
    ]


def by_call(results):
    """The results of a stream by call id: (tool_name, valid, early, bytes,
    [(keyword, schema_path, instance_path, offset)]). The order in which an
    answer and a call that end in one chunk are decided is the server's."""
    got = {}
    for r in results:
        if r.call_id in got:
            raise AssertionError(f"two results for {r.call_id!r}")
        got[r.call_id] = (r.tool_name, r.valid, r.early, r.bytes,
                          [(e.keyword, e.schema_path, e.instance_path, e.offset) for e in r.errors])
    return got


class OutputStreamWithToolsTest(Replicas):
    """A structured-output stream in which the model may also call a tool,
    its tools bound beside the output schema."""

    ANSWER = '{"reason": "other"}'
    OK, BAD = '{"action": "add"}', '{"action": "delete"}'

    def stream(self, client, events, schema=OutputStreamTest.SCHEMA, **options):
        """The results (see ``by_call``) of ``events`` from OpenAI Chat,
        the answer checked against ``schema``, new to both replicas."""
        with client.validate_output_stream(events, unique(schema), provider=Provider.OPENAI_CHAT, timeout=30,
                                           **options) as results:
            return by_call(results)

    def test_answer_and_tool_call(self):
        """Streamed through B, which never saw either schema: the answer is
        checked against the output schema and the call against its tool's;
        a call of a tool bound neither way gets keyword "tool_name"."""
        answer = (True, False, len(self.ANSWER), [])
        enum = ("enum", "/properties/action/enum", "/action", offset_of(self.BAD, '"delete"', 1))
        cases = {
            "both valid": (self.OK, {"output/0": ("", *answer), "call_1": ("todo", True, False, len(self.OK), [])}),
            # Rejected at the "d" of "delete", which neither "add" nor
            # "update" begins with, before the call ends.
            "the call invalid": (self.BAD, {"output/0": ("", *answer),
                                            "call_1": ("todo", False, True, len(self.BAD), [enum])}),
        }
        for name, (arguments, want) in cases.items():
            with self.subTest(name):
                got = self.stream(self.client, answer_and_call(self.ANSWER, arguments), tools={"todo": unique(TODO)})
                self.assertEqual(got, want)

        with self.subTest("an answer and a call both invalid"):
            answer = '{"reason": "late"}'
            got = self.stream(self.client, answer_and_call(answer, '{"action": "add", "due": "now"}'),
                              tools={"todo": unique(TODO)})
            self.assertEqual(got.keys(), {"output/0", "call_1"})
            self.assertEqual(got["output/0"][1:3], (False, True))
            self.assertEqual(got["output/0"][4], [("enum", "/properties/reason/enum", "/reason",
                                                   offset_of(answer, '"late"', 1))])
            self.assertEqual(got["call_1"][:2], ("todo", False))
            self.assertEqual([e[0] for e in got["call_1"][4]], ["additionalProperties"])

        with self.subTest("a call of a tool not bound"):
            got = self.stream(self.client, answer_and_call(self.ANSWER, self.OK, tool="other"),
                              tools={"todo": unique(TODO)})
            self.assertEqual(got, {"output/0": ("", True, False, len(self.ANSWER), []),
                                   "call_1": ("other", False, True, 0, [("tool_name", "", "", 0)])})

    def test_tool_bound_by_handle(self):
        """A handle compiled on A binds the tool on A; B, which does not hold
        it, answers its call with the in-band NOT_FOUND and still checks the
        answer."""
        handle = self.client.compile(unique(TODO)).handle
        with self.assertRaises(grpc.RpcError) as caught:
            self.b.validate(handle, "{}")
        self.assertEqual(caught.exception.code(), grpc.StatusCode.NOT_FOUND, "B must not hold the schema yet")
        answer = ("", True, False, len(self.ANSWER), [])
        for arguments, valid in ((self.OK, True), (self.BAD, False)):
            with self.subTest(f"on A, valid {valid}"):
                got = self.stream(self.a, answer_and_call(self.ANSWER, arguments), handles={"todo": handle})
                self.assertEqual(got.keys(), {"output/0", "call_1"})
                self.assertEqual(got["output/0"], answer)
                self.assertEqual(got["call_1"][:2], ("todo", valid))
                self.assertEqual([e[0] for e in got["call_1"][4]], [] if valid else ["enum"])
        with self.subTest("on B"), self.client.validate_output_stream(
                answer_and_call(self.ANSWER, self.OK), unique(OutputStreamTest.SCHEMA), handles={"todo": handle},
                provider=Provider.OPENAI_CHAT, timeout=30) as results:
            got = {r.call_id: r for r in results}
            self.assertEqual(got.keys(), {"output/0", "call_1"})
            self.assertTrue(got["output/0"].valid)
            not_held = got["call_1"]
            self.assertEqual((not_held.valid, not_held.early, not_held.code), (False, True, ErrorCode.NOT_FOUND))
            self.assertEqual([(e.code, e.keyword) for e in not_held.errors], [(ErrorCode.NOT_FOUND, "handle")])
            self.assertIn(handle, not_held.errors[0].message)

    def test_tool_profile(self):
        """The tools compile under tool_profile, not under the output's
        profile: an object without properties is a tool input schema but
        not a bindable one, and format is JSON Schema's, not the tool input
        profile's. One that does not compile ends the stream naming it."""
        refused = 'INVALID_ARGUMENT: bind: the schema of tool "todo"'
        cases = {
            "no properties, the tool input profile": ({"type": "object"}, Profile.UNSPECIFIED, None),
            "no properties, bindable": ({"type": "object"}, Profile.OUTPUT_BINDABLE, refused),
            "format, the tool input profile": ({"type": "object", "format": "x"}, Profile.UNSPECIFIED, refused),
            "format, JSON Schema": ({"type": "object", "format": "x"}, "PROFILE_JSON_SCHEMA", None),
        }
        for name, (schema, tool_profile, error) in cases.items():
            with self.subTest(name), self.client.validate_output_stream(
                    answer_and_call(self.ANSWER, self.OK), unique(OutputStreamTest.SCHEMA),
                    tools={"todo": unique(schema)}, tool_profile=tool_profile, provider=Provider.OPENAI_CHAT,
                    timeout=30) as results:
                if error is None:
                    self.assertEqual(sorted((r.call_id, r.valid) for r in results),
                                     [("call_1", True), ("output/0", True)])
                    continue
                with self.assertRaises(grpc.RpcError) as caught:
                    list(results)
                err = caught.exception
                self.assertIn(error, f"{err.code().name}: {err.details()}")

    def test_json_schema_options_reach_every_schema(self):
        """resources and format_assertion go with the output schema and with
        each tool's: both are all in a resource, and "soon" is not a date
        only where format is asserted."""
        soon, event = '{"on": "soon"}', {"$ref": EVENT_URI}
        events = answer_and_call(soon, soon, tool="t")
        for asserted in (True, False):
            with self.subTest(format_assertion=asserted):
                got = self.stream(self.client, events, event, tools={"t": unique(event)},
                                  profile=Profile.JSON_SCHEMA, tool_profile=Profile.JSON_SCHEMA,
                                  resources=EVENT_RESOURCES, format_assertion=asserted)
                verdicts = {call: (valid, [e[0] for e in errors]) for call, (_, valid, _, _, errors) in got.items()}
                want = (False, ["format"]) if asserted else (True, [])
                self.assertEqual(verdicts, {"output/0": want, "call_1": want})

    def test_arguments_checked_before_anything_is_sent(self):
        channel = Unsent()
        client = toolgate.Client(channel)
        pulled = []

        def events():
            pulled.append(True)
            yield chat_chunk({"content": "{}"})

        handle = "tg1_" + "0" * 64
        cases = {
            "a tool bound both ways": ({"tools": {"todo": TODO}, "handles": {"todo": handle}}, ValueError,
                                       "both name 'todo'"),
            "an unknown tool profile": ({"tool_profile": "PROFILE_STRICT"}, ValueError, "PROFILE_STRICT"),
            "a tool profile by number": ({"tool_profile": 1}, ValueError, "got 1"),
            "tools that are not a mapping": ({"tools": [("todo", TODO)]}, TypeError, "list"),
            "a tool schema that is not JSON": ({"tools": {"todo": {"n": float("nan")}}}, ValueError, ""),
            "a handle that is not a str": ({"handles": {"todo": None}}, TypeError, ""),
        }
        for name, (options, error, text) in cases.items():
            with self.subTest(name), self.assertRaisesRegex(error, text):
                client.validate_output_stream(events(), OutputStreamTest.SCHEMA, provider=Provider.OPENAI_CHAT,
                                              **options)
        self.assertEqual((channel.calls, pulled), ([], []), "nothing was sent or pulled")
