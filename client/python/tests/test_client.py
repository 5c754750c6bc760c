"""Client against a real replica: compile, validate, typed codes and paths."""

import os
import unittest

import grpc

import toolgate
from toolgate import ErrorCode, Profile

from tests.support import connect, replica_address, unique

TODO = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["add", "update", "complete", "list"]},
        "id": {"type": "string"},
        "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
    },
    "required": ["action"],
    "additionalProperties": False,
}


def at(text, fragment, plus=0):
    """The byte offset of ``fragment`` in ``text`` (UTF-8), plus ``plus``."""
    return len(text[: text.index(fragment)].encode()) + plus


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = connect("A")
        cls.addClassCleanup(cls.client.close)

    def test_validate(self):
        handle = self.client.compile(TODO).handle
        self.assertRegex(handle, r"^tg1_[0-9a-f]{64}$")
        bad = '{"action": "update", "status": "done", "due": "friday"}'
        nested = '{"action": "update", "id": 7}'
        broken = '{"action": add}'
        cases = {
            "valid text": ('{"action": "update", "id": "7", "status": "completed"}', []),
            "valid dict": ({"action": "list"}, []),
            # "" is validated as {}: a missing name is reported at the closing brace
            "empty means {}: action is missing": ("", [("required", "/required", "", at("{}", "}"))]),
            "every violation, in byte order": (bad, [
                # the byte of "done" that leaves every enum choice, and the
                # first byte of the name the closed object does not declare
                ("enum", "/properties/status/enum", "/status", at(bad, '"done"', 1)),
                ("additionalProperties", "/additionalProperties", "", at(bad, '"due"', 1)),
            ]),
            "wrong type at the value's first byte": (nested, [("type", "/properties/id/type", "/id", at(nested, "7"))]),
            "not JSON": (broken, [("json", "", "/action", at(broken, "add"))]),
        }
        for name, (arguments, want) in cases.items():
            with self.subTest(name):
                result = self.client.validate(handle, arguments)
                self.assertEqual(result.valid, not want)
                self.assertEqual(result.code, ErrorCode.VALIDATION if want else ErrorCode.UNSPECIFIED)
                self.assertEqual(result.handle, handle)
                got = [(e.keyword, e.schema_path, e.instance_path, e.offset) for e in result.errors]
                self.assertEqual(got, want)
                for error in result.errors:
                    self.assertIs(error.code, ErrorCode.VALIDATION)
                    self.assertTrue(error.message.endswith("."), error.message)

    def test_dict_schema_is_sent_whole(self):
        """A dict schema reaches the server as its exact JSON, never as an
        empty Struct that would accept everything."""
        schema = {"type": "object", "properties": {"path": {"type": "string"}}, "additionalProperties": False}
        result = self.client.validate_schema(schema, {"rm": "-rf /", "n": 5})
        self.assertFalse(result.valid)
        self.assertEqual([e.keyword for e in result.errors], ["additionalProperties"] * 2)
        self.assertIn('"rm"', result.errors[0].message)
        self.assertIn('"n"', result.errors[1].message)
        self.assertEqual(result.handle, self.client.compile(schema).handle, "dict and compile agree on the schema")

    def test_numbers_stay_exact(self):
        """2**53 + 1 is not a float: a client that rounded through float64
        would accept 2**53 here."""
        schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 2**53 + 1}}}
        handle = self.client.compile(schema).handle
        cases = {
            "below by one, dict": ({"n": 2**53}, False),
            "below by one, text": ('{"n": 9007199254740992}', False),
            "at the minimum": ({"n": 2**53 + 1}, True),
            "far above, text": ('{"n": 1e400}', True),
        }
        for name, (arguments, valid) in cases.items():
            with self.subTest(name):
                self.assertEqual(self.client.validate(handle, arguments).valid, valid)

    def test_compile_findings(self):
        schema = '{"type": "object", "properties": {"url": {"type": "string", "format": "uri"}, "n": {"type": 5}}}'
        result = self.client.compile(schema)
        self.assertEqual(result.handle, "")
        self.assertIs(result.code, ErrorCode.UNSUPPORTED_CAPABILITY)
        got = [(e.code, e.keyword, e.schema_path) for e in result.errors]
        self.assertEqual(got, [
            (ErrorCode.UNSUPPORTED_CAPABILITY, "format", "/properties/url/format"),
            (ErrorCode.VALIDATION, "type", "/properties/n/type"),
        ])

    def test_profiles_by_name(self):
        schema = {"type": "object", "properties": {"a": {"type": "string", "title": "A"}}}
        bindable = self.client.compile(schema, profile=Profile.OUTPUT_BINDABLE)
        self.assertTrue(bindable.handle)
        self.assertEqual([(w.keyword, w.schema_path) for w in bindable.warnings], [("title", "/properties/a/title")])
        by_name = self.client.compile(schema, profile="PROFILE_OUTPUT_BINDABLE")
        self.assertEqual(by_name.handle, bindable.handle)
        tool_input = self.client.compile(schema)
        self.assertIs(tool_input.code, ErrorCode.UNSUPPORTED_CAPABILITY, "title is refused by the tool input profile")
        with self.assertRaisesRegex(ValueError, "PROFILE_OUTPUT_BINDABLE"):
            self.client.compile(schema, profile="output_bindable")

    def test_unknown_handle_is_not_found(self):
        with self.assertRaises(grpc.RpcError) as caught:
            self.client.validate("tg1_" + "0" * 64, "{}")
        self.assertEqual(caught.exception.code(), grpc.StatusCode.NOT_FOUND)

    def test_validate_schema_answers_schema_findings(self):
        result = self.client.validate_schema({"type": "object", "maxProperties": 1}, {})
        self.assertFalse(result.valid)
        self.assertEqual(result.handle, "")
        self.assertEqual([(e.keyword, e.schema_path) for e in result.errors], [("maxProperties", "/maxProperties")])

    def test_bearer_token(self):
        address, token = replica_address("AUTH"), os.environ.get("TOOLGATE_TOKEN", "")
        self.assertTrue(token, "TOOLGATE_TOKEN is not set: run these tests with `make interop`")
        cases = {"right token": (token, None), "wrong token": (token + "x", grpc.StatusCode.UNAUTHENTICATED),
                 "no token": (None, grpc.StatusCode.UNAUTHENTICATED)}
        for name, (sent, code) in cases.items():
            with self.subTest(name), toolgate.Client.connect(address, insecure=True, token=sent) as client:
                if code is None:
                    self.assertTrue(client.compile(unique(TODO)).handle)
                    continue
                with self.assertRaises(grpc.RpcError) as caught:
                    client.compile(TODO)
                self.assertEqual(caught.exception.code(), code)
        with self.assertRaises(ValueError):
            toolgate.Client.connect(address, insecure=True, token="")

    def test_caller_owned_channel(self):
        with grpc.insecure_channel(replica_address("A")) as channel:
            client = toolgate.Client(channel)
            client.close()  # leaves the caller's channel open
            self.assertTrue(client.compile(TODO).handle)
