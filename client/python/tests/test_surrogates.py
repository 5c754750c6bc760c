"""A lone surrogate (a Python str can hold one, ``json.loads`` of the
escape "\\ud800" makes one; UTF-8 cannot encode it) in a schema, arguments,
a tool name, a handle, a resource URI or a stream event: the client refuses
it before sending with a ``ValueError`` that names what held it (as the
Node client does with its TypeError, and as the other refusals of
``json_text`` do, "arguments is not JSON: ..."), not with protobuf's bare
``UnicodeEncodeError`` (or, with the pure-Python backend, another
ValueError) that names neither. The message stays short however long the
value. No replica needed."""

import json
import unittest

import toolgate
import toolgate.aio
from toolgate.stream import event_request, provider_number

from tests.fake_server import TOOLS, FakeServer
from tests.support import Unsent


class LoneSurrogateTest(unittest.TestCase):
    def setUp(self):
        self.channel = Unsent()
        self.client = toolgate.Client(self.channel)

    def assert_named(self, call, *what):
        """Checks that ``call()`` raises a ValueError naming a lone
        surrogate and each of ``what``, before anything is sent; returns
        its message."""
        with self.assertRaises(ValueError) as caught:
            call()
        self.assertEqual(self.channel.calls, [], "nothing was sent")
        message = str(caught.exception)
        for named in what:
            self.assertIn(named, message)
        self.assertIn("lone surrogate", message)
        message.encode("utf-8")  # printable: the surrogate itself is escaped
        return message

    def test_arguments_from_json_loads(self):
        arguments = json.loads('{"city": "\\ud800"}')  # valid JSON text, a lone surrogate in Python
        message = self.assert_named(lambda: self.client.validate("tg1_x", arguments), "arguments", "U+D800")
        self.assertIn("the string at /city", message)

    def test_arguments_text(self):
        message = self.assert_named(lambda: self.client.validate_schema({}, '{"a": "\ud800"}'), "arguments")
        self.assertIn("index 7", message)

    def test_member_names_and_lists(self):
        arguments = {"a~/b": [1, {"k\udfff": 2}]}
        message = self.assert_named(lambda: self.client.validate("tg1_x", arguments), "arguments", "U+DFFF")
        self.assertIn("the member name at /a~0~1b/1/k\\udfff", message)

    def test_schema(self):
        self.assert_named(lambda: self.client.compile({"description": "\udc00"}), "schema")
        self.assert_named(lambda: self.client.validator().register('{"description": "\udc00"}'), "schema")

    def test_tool_name(self):
        self.assert_named(lambda: self.client.validate_stream([], tools={"t\ud800": {}}), "tool name")
        self.assert_named(lambda: self.client.validate_stream([], handles={"t\ud800": "tg1_x"}), "tool name")
        self.assert_named(lambda: self.client.compile_toolset({"t\ud800": {}}), "tool name")

    def test_handle(self):
        self.assert_named(lambda: self.client.validate("tg1_\ud800", {}), "handle")
        self.assert_named(lambda: self.client.validate_stream([], handles={"t": "tg1_\ud800"}), "handle of tool 't'")

    def test_resource_uri(self):
        self.assert_named(lambda: self.client.compile({}, profile=toolgate.Profile.JSON_SCHEMA,
                                                      resources={"https://x/\ud800": {}}), "resource URI")

    def test_stream_events(self):
        for event, what in [
            ('{"type": "\ud800"}', "a raw provider event's data"),
            (toolgate.Named("message_start", '{"\ud800": 1}'), "a Named event's data"),
            (toolgate.Named("message\ud800", "{}"), "a Named event's name"),
            (toolgate.Start("a\ud800", "t"), "a Start event's call_id"),
            (toolgate.Start("a", "t\ud800"), "a Start event's tool_name"),
            (toolgate.Delta("a\ud800", "{}"), "a Delta event's call_id"),
            (toolgate.Delta("a", '{"x": "\ud800'), "a Delta event's fragment"),
            (toolgate.End("a\ud800"), "an End event's call_id"),
        ]:
            with self.subTest(what):
                self.assert_named(lambda: event_request(event, provider_number(toolgate.Provider.ANTHROPIC)), what)

    def test_the_message_is_bounded(self):
        for value in ["x" * 100_000 + "\ud800" + "y" * 100_000, {"k" * 100_000: "\ud800"}]:
            message = self.assert_named(lambda: self.client.validate("tg1_x", value), "arguments")
            self.assertLess(len(message), 400)

    def test_other_text_passes(self):
        for text in ["", "plain", "é", "\U0001f600 non-BMP", "\x00", "\ue000 private use"]:
            self.assertIsNotNone(event_request(toolgate.Delta("a", text), None))
            self.assertEqual(toolgate.jsontext.json_text({"s": text}, "arguments"), json.dumps({"s": text},
                             ensure_ascii=False, separators=(",", ":")))


EVENTS = [toolgate.Start("a", "t"), toolgate.Delta("a", '{"x": "\ud800"}'), toolgate.End("a")]


class LoneSurrogateInStreamTest(unittest.IsolatedAsyncioTestCase):
    """An event that holds one fails the stream (cancelled) with that
    ValueError, raised by iteration, as any other event that cannot be
    sent does."""

    def setUp(self):
        self.server = FakeServer()

    def tearDown(self):
        self.server.stop()

    def test_sync(self):
        with toolgate.Client.connect(self.server.address, insecure=True) as client:
            with self.assertRaisesRegex(ValueError, "a Delta event's fragment holds a lone surrogate"):
                with client.validate_stream(EVENTS, tools=TOOLS, timeout=10) as results:
                    list(results)

    async def test_aio(self):
        async with toolgate.aio.Client.connect(self.server.address, insecure=True) as client:
            with self.assertRaisesRegex(ValueError, "a Delta event's fragment holds a lone surrogate"):
                async with client.validate_stream(EVENTS, tools=TOOLS, timeout=10) as results:
                    [r async for r in results]


if __name__ == "__main__":
    unittest.main()
