"""The CompileToolsetRequest built from each form of tools: no server needed."""

import decimal
import json
import unittest

from toolgate import Admission, Profile
from toolgate.messages import toolset_request
from toolgate.v1 import validation_pb2 as pb

WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
TOOLS_LIST = {"tools": [{"name": "weather", "description": "Weather by city", "inputSchema": WEATHER}]}


def request(tools, **options):
    """``toolset_request`` with the defaults ``Client.compile_toolset`` has."""
    options = {"profile": Profile.UNSPECIFIED, "admission": Admission.UNSPECIFIED, **options}
    return toolset_request(tools, **options)


class ToolsetRequestTest(unittest.TestCase):
    def test_text_is_sent_unchanged(self):
        text = '{"tools": [{"name": "n", "inputSchema": {"type": "integer", "minimum": 9007199254740993.0}}]}'
        self.assertEqual(request(text), pb.CompileToolsetRequest(tools_list_json=text))
        self.assertEqual(request(text.encode()).tools_list_json, text, "bytes are UTF-8 text")
        self.assertEqual(request("not JSON").tools_list_json, "not JSON", "the server, not the client, reads it")

    def test_documents_as_dicts(self):
        cases = {
            "tools/list result": TOOLS_LIST,
            "tools/list result with more members": {**TOOLS_LIST, "nextCursor": "c2"},
            "JSON-RPC response": {"jsonrpc": "2.0", "id": 7, "result": TOOLS_LIST},
            "JSON-RPC response without jsonrpc": {"id": 7, "result": TOOLS_LIST},
            "JSON-RPC error response": {"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "no"}},
            "tools as a tuple": {"tools": tuple(TOOLS_LIST["tools"])},
        }
        for name, document in cases.items():
            with self.subTest(name):
                sent = request(document)
                self.assertEqual(sent.WhichOneof("source"), "tools_list_json")
                self.assertEqual(json.loads(sent.tools_list_json), json.loads(json.dumps(document)))

    def test_names_to_schemas(self):
        text = '{"type": "object", "properties": {"n": {"type": "integer", "minimum": 1e400}}}'
        tools = {"weather": WEATHER, "big": text, "bytes": text.encode(), "": {}}
        self.assertEqual(request(tools), pb.CompileToolsetRequest(tools=pb.ToolList(tools=[
            pb.ToolSchema(name="weather", schema_json=json.dumps(WEATHER, separators=(",", ":"))),
            pb.ToolSchema(name="big", schema_json=text),
            pb.ToolSchema(name="bytes", schema_json=text),
            pb.ToolSchema(name="", schema_json="{}"),  # the server answers a nameless tool with a finding
        ])))

    def test_names_that_look_like_document_members(self):
        """A mapping is a document only by the shape of its members: tools
        named "tools" or "result" with ordinary schemas are tools."""
        tools = {"tools": WEATHER, "result": {"type": "object", "properties": {"tools": {"type": "string"}}}}
        sent = request(tools)
        self.assertEqual(sent.WhichOneof("source"), "tools")
        self.assertEqual([tool.name for tool in sent.tools.tools], ["tools", "result"])

    def test_no_tools_is_an_empty_tool_list(self):
        sent = request({})
        self.assertEqual(sent.WhichOneof("source"), "tools", "an empty ToolList, not a request with no source")
        self.assertEqual(len(sent.tools.tools), 0)

    def test_options(self):
        resources = {"https://example.com/s": {"type": "string"}}
        sent = request(TOOLS_LIST, profile="PROFILE_JSON_SCHEMA", admission=Admission.STRICT,
                       resources=resources, format_assertion=True)
        self.assertEqual((sent.profile, sent.admission, dict(sent.resources), sent.format_assertion),
                         (pb.PROFILE_JSON_SCHEMA, pb.ADMISSION_STRICT, {"https://example.com/s": '{"type":"string"}'},
                          True))
        self.assertEqual(request(TOOLS_LIST, admission="ADMISSION_QUARANTINE").admission, pb.ADMISSION_QUARANTINE)
        defaults = request(TOOLS_LIST)
        self.assertEqual((defaults.profile, defaults.admission, dict(defaults.resources), defaults.format_assertion),
                         (pb.PROFILE_UNSPECIFIED, pb.ADMISSION_UNSPECIFIED, {}, False))

    def test_what_cannot_be_sent(self):
        cases = {
            "no tools": (None, {}, TypeError),
            "a list of tools": (TOOLS_LIST["tools"], {}, TypeError),
            "a number": (5, {}, TypeError),
            "a tool name that is not a str": ({1: WEATHER}, {}, TypeError),
            "a schema JSON cannot hold": ({"t": {"minimum": decimal.Decimal("1.5")}}, {}, TypeError),
            "a schema of no JSON kind": ({"t": 5}, {}, TypeError),
            "a document JSON cannot hold": ({"tools": [{"name": "t", "inputSchema": {"x": float("nan")}}]}, {},
                                            ValueError),
            "bytes that are not UTF-8": (b'{"tools": ["\xff"]}', {}, UnicodeDecodeError),
            "an admission in lower case": (TOOLS_LIST, {"admission": "strict"}, ValueError),
            "an admission by number": (TOOLS_LIST, {"admission": 2}, ValueError),
            "a profile of the wrong enum": (TOOLS_LIST, {"profile": "ADMISSION_STRICT"}, ValueError),
            "resources that are not a mapping": (TOOLS_LIST, {"resources": ["https://example.com/s"]}, TypeError),
            "a format assertion that is not a bool": (TOOLS_LIST, {"format_assertion": "yes"}, TypeError),
        }
        for name, (tools, options, error) in cases.items():
            with self.subTest(name), self.assertRaises(error):
                request(tools, **options)
