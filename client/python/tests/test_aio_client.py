"""toolgate.aio.Client against a real replica: compile, validate,
validate_schema and compile_toolset, typed codes and paths, the token, the
caller's channel, and what is refused before anything is sent."""

import asyncio
import dataclasses
import json
import os

import grpc

import toolgate
import toolgate.aio
from toolgate import Admission, CompileResult, ErrorCode, Profile, ToolsetResult, ValidationResult

from tests.aio_support import AioTestCase
from tests.support import Unsent, replica_address, unique
from tests.test_client import TODO, at
from tests.test_toolset import FETCH, MIXED, WEATHER, tools_list

FORMAT_FINDING = (ErrorCode.UNSUPPORTED_CAPABILITY, "format", "/properties/url/format")


def findings(result):
    return [(e.code, e.keyword, e.schema_path, e.instance_path, e.offset) for e in result.errors]


class ClientTest(AioTestCase):
    async def test_validate(self):
        compiled = await self.client.compile(TODO)
        self.assertIsInstance(compiled, CompileResult)
        handle = compiled.handle
        self.assertRegex(handle, r"^tg1_[0-9a-f]{64}$")
        extra = '{"action": "list", "id": "3", "owner": "me"}'
        wrong = '{"action": "remove"}'
        typed = '{"action": "add", "status": ["pending"]}'
        cut = '{"action": "add",'
        v = ErrorCode.VALIDATION
        cases = {
            "valid text": ('{"action": "complete", "id": "9"}', []),
            "valid dict": ({"action": "add", "status": "pending"}, []),
            "{} lacks the required action, at its closing brace": ({}, [(v, "required", "/required", "", 1)]),
            "a name the closed object does not declare, at its first byte":
                (extra, [(v, "additionalProperties", "/additionalProperties", "", at(extra, '"owner"', 1))]),
            # "r" is still a prefix of no choice: add, update, complete, list
            "an enum choice, at the byte that leaves every choice":
                (wrong, [(v, "enum", "/properties/action/enum", "/action", at(wrong, '"remove"', 1))]),
            "a wrong type, at the value's first byte":
                (typed, [(v, "type", "/properties/status/type", "/status", at(typed, "["))]),
            "cut off, at the end": (cut, [(v, "json", "", "", len(cut))]),
        }
        for name, (arguments, want) in cases.items():
            with self.subTest(name):
                result = await self.client.validate(handle, arguments)
                self.assertIsInstance(result, ValidationResult)
                self.assertEqual((result.valid, result.handle), (not want, handle))
                self.assertIs(result.code, v if want else ErrorCode.UNSPECIFIED)
                self.assertEqual(findings(result), want)
                for error in result.errors:
                    self.assertTrue(error.message.endswith("."), error.message)
                self.assertEqual(json.loads(json.dumps(dataclasses.asdict(result)))["valid"], not want)

    async def test_results_are_the_sync_clients(self):
        """The same call through both clients gives equal results."""
        schema, arguments = unique(TODO), '{"action": "update", "status": "done"}'
        with toolgate.Client.connect(replica_address("A"), insecure=True) as sync:
            cases = {
                "compile": lambda c: c.compile(schema),
                "validate_schema": lambda c: c.validate_schema(schema, arguments),
                "compile_toolset": lambda c: c.compile_toolset(MIXED),
            }
            for name, call in cases.items():
                with self.subTest(name):
                    self.assertEqual(await call(self.client), call(sync))

    async def test_numbers_stay_exact(self):
        """2**53 + 1 is not a float: a client that rounded the arguments
        through float64 would send 2**53, which the maximum allows."""
        schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 2**53}}}
        handle = (await self.client.compile(schema, profile=Profile.JSON_SCHEMA)).handle
        cases = {
            "at the maximum, dict": ({"n": 2**53}, True),
            "above by one, dict": ({"n": 2**53 + 1}, False),
            "above by one, text": ('{"n": 9007199254740993}', False),
        }
        for name, (arguments, valid) in cases.items():
            with self.subTest(name):
                self.assertEqual((await self.client.validate(handle, arguments)).valid, valid)

    async def test_compile_findings_and_profiles(self):
        result = await self.client.compile(FETCH)
        self.assertEqual((result.handle, result.code), ("", ErrorCode.UNSUPPORTED_CAPABILITY))
        self.assertEqual([(e.code, e.keyword, e.schema_path) for e in result.errors], [FORMAT_FINDING])
        json_schema = await self.client.compile(FETCH, profile="PROFILE_JSON_SCHEMA")
        self.assertTrue(json_schema.handle, "format is an annotation of full JSON Schema")
        self.assertEqual(json_schema, await self.client.compile(FETCH, profile=Profile.JSON_SCHEMA))
        titled = {"type": "object", "properties": {"a": {"type": "string", "title": "A"}}}
        bindable = await self.client.compile(titled, profile=Profile.OUTPUT_BINDABLE)
        self.assertEqual([(w.keyword, w.schema_path) for w in bindable.warnings], [("title", "/properties/a/title")])

    async def test_unknown_handle_is_not_found(self):
        with self.assertRaises(grpc.RpcError) as caught:
            await self.client.validate("tg1_" + "f" * 64, "{}")
        self.assertIsInstance(caught.exception, grpc.aio.AioRpcError)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.NOT_FOUND)

    async def test_validate_schema(self):
        schema = unique(WEATHER)
        result = await self.client.validate_schema(schema, '{"city": "Oslo", "days": 0}')
        self.assertEqual((result.valid, result.handle), (False, (await self.client.compile(schema)).handle))
        self.assertEqual([(e.keyword, e.instance_path) for e in result.errors], [("minimum", "/days")])
        self.assertTrue((await self.client.validate_schema(schema, {"city": "Oslo"})).valid)
        refused = await self.client.validate_schema(FETCH, {"url": "x"})
        self.assertEqual((refused.valid, refused.handle, refused.code), (False, "", ErrorCode.UNSUPPORTED_CAPABILITY))
        self.assertEqual([(e.code, e.keyword, e.schema_path) for e in refused.errors], [FORMAT_FINDING])

    async def test_compile_toolset(self):
        weather = (await self.client.compile(WEATHER)).handle
        cases = {
            "quarantine, text": (json.dumps(MIXED), Admission.QUARANTINE, True, {"weather": weather}),
            "unspecified, a JSON-RPC response": ({"jsonrpc": "2.0", "id": 7, "result": MIXED}, Admission.UNSPECIFIED,
                                                 True, {"weather": weather}),
            "strict, by name": (MIXED, "ADMISSION_STRICT", False, {}),
            "names to schemas": ({"weather": WEATHER, "fetch": FETCH}, Admission.QUARANTINE, True,
                                 {"weather": weather}),
        }
        for name, (tools, admission, admitted, bind) in cases.items():
            with self.subTest(name):
                result = await self.client.compile_toolset(tools, admission=admission)
                self.assertIsInstance(result, ToolsetResult)
                self.assertEqual((result.admitted, result.bind, result.more_pages), (admitted, bind, False))
                self.assertEqual([(t.name, t.handle) for t in result.tools], [("weather", weather), ("fetch", "")])
                self.assertEqual([(e.code, e.keyword, e.schema_path) for e in result.tools[1].errors],
                                 [FORMAT_FINDING])
        page = await self.client.compile_toolset(dict(tools_list(("weather", WEATHER)), nextCursor="Mg"))
        self.assertTrue(page.more_pages)
        with self.assertRaises(grpc.RpcError) as caught:
            await self.client.compile_toolset('{"result": []}')
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("not a tools/list result", caught.exception.details())

    async def test_bearer_token(self):
        address, token = replica_address("AUTH"), os.environ.get("TOOLGATE_TOKEN", "")
        self.assertTrue(token, "TOOLGATE_TOKEN is not set: run these tests with `make interop`")
        cases = {"right token": (token, None), "wrong token": ("x" + token, grpc.StatusCode.UNAUTHENTICATED),
                 "no token": (None, grpc.StatusCode.UNAUTHENTICATED)}
        for name, (sent, code) in cases.items():
            with self.subTest(name):
                async with toolgate.aio.Client.connect(address, insecure=True, token=sent) as client:
                    if code is None:
                        self.assertTrue((await client.compile(unique(TODO))).handle)
                        continue
                    with self.assertRaises(grpc.RpcError) as caught:
                        await client.compile(TODO)
                    self.assertEqual(caught.exception.code(), code)

    async def test_connect_refuses(self):
        cases = {
            "an empty token": {"insecure": True, "token": ""},
            "insecure with credentials": {"insecure": True, "credentials": grpc.ssl_channel_credentials()},
        }
        for name, options in cases.items():
            with self.subTest(name), self.assertRaises(ValueError):
                toolgate.aio.Client.connect(replica_address("A"), **options)

    async def test_caller_owned_channel(self):
        channel = grpc.aio.insecure_channel(replica_address("A"))
        try:
            client = toolgate.aio.Client(channel)
            await client.close()  # leaves the caller's channel open
            await client.close()
            self.assertTrue((await client.compile(TODO)).handle)
        finally:
            await channel.close()

    async def test_close_is_idempotent(self):
        await self.client.close()
        await self.client.close()

    async def test_a_cancelled_call(self):
        task = asyncio.create_task(self.client.validate_schema(unique(TODO), {"action": "add"}))
        await asyncio.sleep(0)
        task.cancel()
        with self.assertRaises(asyncio.CancelledError):
            await task

    async def test_arguments_checked_before_anything_is_sent(self):
        channel = Unsent()
        client = toolgate.aio.Client(channel)
        validator = client.validator()
        nan = {"n": float("nan")}
        cases = {
            "compile: a profile by number": (lambda: client.compile({}, profile=1), ValueError),
            "compile: a lower-case profile": (lambda: client.compile({}, profile="profile_json_schema"), ValueError),
            "compile: NaN": (lambda: client.compile(nan), ValueError),
            "compile: a set": (lambda: client.compile({"enum": {1}}), TypeError),
            "compile: a key that is not a str": (lambda: client.compile({1: 2}), TypeError),
            "compile: resources not a mapping": (lambda: client.compile({}, resources=["x"]), TypeError),
            "compile: format assertion not a bool": (lambda: client.compile({}, format_assertion=1), TypeError),
            "validate: arguments of no JSON kind": (lambda: client.validate("tg1_x", 7), TypeError),
            "validate: bytes not UTF-8": (lambda: client.validate("tg1_x", b"\xff"), UnicodeDecodeError),
            "validate_schema: NaN arguments": (lambda: client.validate_schema({}, nan), ValueError),
            "compile_toolset: tools of no kind": (lambda: client.compile_toolset(7), TypeError),
            "compile_toolset: a tool name not a str": (lambda: client.compile_toolset({1: {}}), TypeError),
            "compile_toolset: an unknown admission": (lambda: client.compile_toolset({}, admission="STRICT"),
                                                      ValueError),
            "register: an unknown profile": (lambda: validator.register({}, profile="PROFILE_X"), ValueError),
            "Validator.validate: NaN arguments": (lambda: validator.validate("tg1_x", nan), ValueError),
            "Validator.validate_schema: a set schema": (lambda: validator.validate_schema({1, 2}, {}), TypeError),
        }
        for name, (call, error) in cases.items():
            with self.subTest(name), self.assertRaises(error):
                await call()
        self.assertEqual(channel.calls, [], "nothing was sent")
