"""compile_toolset against a real replica: what each admission binds, the
refused tools' findings, every form of tools, and the handles in use."""

import json
import unittest

import grpc

from toolgate import Admission, Delta, End, ErrorCode, Profile, Start

from tests.support import connect

WEATHER = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
           "required": ["city"], "additionalProperties": False}
# "format" is outside the tool input profile: this tool cannot be enforced there.
FETCH = {"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}, "required": ["url"]}
FORMAT_FINDING = (ErrorCode.UNSUPPORTED_CAPABILITY, "format", "/properties/url/format")


def tools_list(*tools):
    """The tools/list result of ``tools``, (name, inputSchema) pairs, as an
    MCP server sends it."""
    return {"tools": [{"name": name, "description": f"The {name} tool", "inputSchema": schema}
                      for name, schema in tools]}


MIXED = tools_list(("weather", WEATHER), ("fetch", FETCH))


def findings(tool):
    return [(e.code, e.keyword, e.schema_path) for e in tool.errors]


class ToolsetTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = connect("A")
        cls.addClassCleanup(cls.client.close)
        cls.weather = cls.client.compile(WEATHER).handle

    def test_quarantine_binds_what_compiled(self):
        for admission in (Admission.QUARANTINE, Admission.UNSPECIFIED, "ADMISSION_QUARANTINE"):
            with self.subTest(admission):
                result = self.client.compile_toolset(json.dumps(MIXED), admission=admission)
                self.assertTrue(result.admitted)
                self.assertEqual(result.bind, {"weather": self.weather}, "the handle CompileSchema gives")
                weather, fetch = result.tools
                self.assertEqual((weather.name, weather.handle, weather.code, weather.errors),
                                 ("weather", self.weather, ErrorCode.UNSPECIFIED, ()))
                self.assertEqual((fetch.name, fetch.handle, fetch.code), ("fetch", "", ErrorCode.UNSUPPORTED_CAPABILITY))
                self.assertEqual(findings(fetch), [FORMAT_FINDING])
                self.assertIs(fetch.errors[0].code, ErrorCode.UNSUPPORTED_CAPABILITY)

    def test_strict_binds_nothing_unless_all_compiled(self):
        refused = self.client.compile_toolset(MIXED, admission=Admission.STRICT)
        self.assertFalse(refused.admitted)
        self.assertEqual(refused.bind, {})
        self.assertEqual([tool.handle for tool in refused.tools], [self.weather, ""],
                         "each compiled tool still reports its handle")
        self.assertEqual(findings(refused.tools[1]), [FORMAT_FINDING])

        admitted = self.client.compile_toolset(tools_list(("weather", WEATHER)), admission=Admission.STRICT)
        self.assertTrue(admitted.admitted)
        self.assertEqual(admitted.bind, {"weather": self.weather})

    def test_one_page_of_a_paginated_list(self):
        page = dict(tools_list(("weather", WEATHER)), nextCursor="cGFnZT0y")
        result = self.client.compile_toolset(page)
        self.assertTrue(result.more_pages, "a nextCursor: the list goes on")
        self.assertEqual(result.bind, {"weather": self.weather}, "the page's tools are bound")
        self.assertFalse(self.client.compile_toolset(tools_list(("weather", WEATHER))).more_pages)
        self.assertFalse(self.client.compile_toolset({"weather": WEATHER}).more_pages, "names to schemas")

    def test_a_bound_handle_validates(self):
        handle = self.client.compile_toolset(MIXED).bind["weather"]
        self.assertTrue(self.client.validate(handle, {"city": "Oslo", "days": 3}).valid)
        result = self.client.validate(handle, '{"city": "Oslo", "days": 0}')
        self.assertFalse(result.valid)
        self.assertEqual([(e.keyword, e.instance_path) for e in result.errors], [("minimum", "/days")])

    def test_bind_feeds_a_stream(self):
        """Bound by handle on the replica that compiled them, the tools that
        compiled are validated and the refused one is unknown to the stream."""
        bind = self.client.compile_toolset(MIXED).bind
        events = [Start("w", "weather"), Delta("w", '{"city": 7}'), End("w"),
                  Start("f", "fetch"), Delta("f", '{"url": "https://example.com"}'), End("f")]
        with self.client.validate_stream(events, handles=bind, timeout=30) as results:
            got = {call.call_id: (call.valid, [e.keyword for e in call.errors]) for call in results}
        self.assertEqual(got, {"w": (False, ["type"]), "f": (False, ["tool_name"])})

    def test_a_repeated_name_is_refused(self):
        result = self.client.compile_toolset(tools_list(("weather", WEATHER), ("weather", WEATHER), ("fetch", FETCH)))
        self.assertEqual(result.bind, {}, "neither tool named weather is bound, and fetch did not compile")
        self.assertTrue(result.admitted)
        for tool in result.tools[:2]:
            self.assertEqual((tool.name, tool.handle, tool.code), ("weather", "", ErrorCode.VALIDATION))
            self.assertEqual(findings(tool), [(ErrorCode.VALIDATION, "name", "")])

    def test_json_rpc_response(self):
        response = {"jsonrpc": "2.0", "id": 1, "result": MIXED}
        for name, tools in {"dict": response, "text": json.dumps(response), "bytes": json.dumps(response).encode()}.items():
            with self.subTest(name):
                result = self.client.compile_toolset(tools)
                self.assertEqual(result.bind, {"weather": self.weather})
                self.assertEqual([findings(tool) for tool in result.tools], [[], [FORMAT_FINDING]])

    def test_names_to_schemas(self):
        text = json.dumps(FETCH)
        result = self.client.compile_toolset({"weather": WEATHER, "fetch": text, "broken": "{", "nothing": ""})
        self.assertEqual([tool.name for tool in result.tools], ["weather", "fetch", "broken", "nothing"],
                         "in the mapping's order")
        self.assertEqual(result.bind, {"weather": self.weather})
        self.assertEqual([findings(tool) for tool in result.tools[1:]], [
            [FORMAT_FINDING],
            [(ErrorCode.VALIDATION, "json", "")],  # a schema that is not JSON is the tool's finding
            [(ErrorCode.VALIDATION, "inputSchema", "")],  # "" is no schema at all
        ])
        self.assertEqual(self.client.compile_toolset({}).tools, (), "no tools, no results")

    def test_numbers_stay_exact(self):
        """2**53 + 1 is not a float: text sent unchanged, and dicts written
        by json.dumps, keep it, in both forms of tools."""
        schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 2**53 + 1}}}
        text = '{"type": "object", "properties": {"n": {"type": "integer", "minimum": 9007199254740993}}}'
        cases = {
            "tools/list text": '{"tools": [{"name": "n", "inputSchema": ' + text + "}]}",
            "tools/list dict": tools_list(("n", schema)),
            "schema text": {"n": text},
            "schema dict": {"n": schema},
        }
        for name, tools in cases.items():
            with self.subTest(name):
                handle = self.client.compile_toolset(tools).bind["n"]
                self.assertFalse(self.client.validate(handle, {"n": 2**53}).valid)
                self.assertTrue(self.client.validate(handle, {"n": 2**53 + 1}).valid)

    def test_json_schema_with_resources(self):
        uri = "https://example.com/toolgate-interop/when.json"
        resources = {uri: {"type": "object", "properties": {"on": {"type": "string", "format": "date"}},
                           "required": ["on"]}}
        tools = tools_list(("when", {"$ref": uri}))
        result = self.client.compile_toolset(tools, profile=Profile.JSON_SCHEMA, resources=resources,
                                             format_assertion=True, admission=Admission.STRICT)
        self.assertTrue(result.admitted)
        handle = result.bind["when"]
        self.assertTrue(self.client.validate(handle, {"on": "2024-02-29"}).valid)
        cases = {"a date that is not one": ({"on": "2023-02-29"}, "format"), "none": ({}, "required")}
        for name, (arguments, keyword) in cases.items():
            with self.subTest(name):
                verdict = self.client.validate(handle, arguments)
                self.assertEqual([e.keyword for e in verdict.errors], [keyword], "the resource was compiled")

        unresolved = self.client.compile_toolset(tools, profile=Profile.JSON_SCHEMA, admission=Admission.STRICT)
        self.assertFalse(unresolved.admitted, "without the resource the reference does not resolve")
        self.assertEqual(unresolved.tools[0].handle, "")

    def test_failed_calls(self):
        cases = {
            "text that is not a tools/list result": ('{"result": 5}', {}, "not a tools/list result"),
            "a JSON-RPC error response": ({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no"}}, {},
                                          "not a tools/list result"),
            "resources under the tool input profile": (MIXED, {"resources": {"https://example.com/s": {}}},
                                                       "only PROFILE_JSON_SCHEMA"),
        }
        for name, (tools, options, text) in cases.items():
            with self.subTest(name):
                with self.assertRaises(grpc.RpcError) as caught:
                    self.client.compile_toolset(tools, **options)
                self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
                self.assertIn(text, caught.exception.details())
