import dataclasses
import json
import unittest

from toolgate import CallResult, CompileResult, ErrorCode, Finding, ToolResult, ToolsetResult, ValidationResult
from toolgate.results import from_message
from toolgate.v1 import validation_pb2 as pb


class ResultsTest(unittest.TestCase):
    def test_every_proto_field_is_a_result_field(self):
        """The dataclasses mirror the responses field for field, so a field
        added to the proto fails here until the result carries it."""
        for kind, message in [
            (Finding, pb.Error),
            (CompileResult, pb.CompileSchemaResponse),
            (ValidationResult, pb.ValidateResponse),
            (CallResult, pb.CallResult),
            (ToolResult, pb.ToolResult),
            (ToolsetResult, pb.CompileToolsetResponse),
        ]:
            with self.subTest(kind.__name__):
                self.assertEqual([f.name for f in dataclasses.fields(kind)], [f.name for f in message.DESCRIPTOR.fields])

    def test_conversion(self):
        message = pb.CallResult(
            call_id="c1",
            tool_name="todo",
            code=pb.ERROR_CODE_VALIDATION,
            errors=[pb.Error(code=pb.ERROR_CODE_VALIDATION, keyword="enum", schema_path="/properties/s/enum",
                             instance_path="/s", message="m", offset=2**40)],
            early=True,
            bytes=34,
        )
        result = from_message(CallResult, message)
        self.assertEqual(result, CallResult(
            call_id="c1", tool_name="todo", valid=False, code=ErrorCode.VALIDATION,
            errors=(Finding(code=ErrorCode.VALIDATION, keyword="enum", schema_path="/properties/s/enum",
                            instance_path="/s", message="m", offset=2**40),),
            early=True, bytes=34, errors_truncated=False))
        self.assertIsInstance(result.code, ErrorCode)
        self.assertEqual(
            json.loads(json.dumps(dataclasses.asdict(result)))["errors"][0]["code"], "ERROR_CODE_VALIDATION",
            "asdict gives JSON with enums as names",
        )

    def test_toolset_conversion(self):
        handle = "tg1_" + "a" * 64
        finding = pb.Error(code=pb.ERROR_CODE_UNSUPPORTED_CAPABILITY, keyword="format",
                           schema_path="/properties/url/format", message="m")
        message = pb.CompileToolsetResponse(
            tools=[pb.ToolResult(name="weather", handle=handle),
                   pb.ToolResult(name="fetch", code=pb.ERROR_CODE_UNSUPPORTED_CAPABILITY, errors=[finding],
                                 warnings=[finding], errors_truncated=True, warnings_truncated=True)],
            bind={"weather": handle},
            admitted=True,
            more_pages=True,
        )
        result = from_message(ToolsetResult, message)
        converted = Finding(code=ErrorCode.UNSUPPORTED_CAPABILITY, keyword="format",
                            schema_path="/properties/url/format", instance_path="", message="m", offset=0)
        self.assertEqual(result, ToolsetResult(
            tools=(ToolResult(name="weather", handle=handle, code=ErrorCode.UNSPECIFIED, errors=(), warnings=(),
                              errors_truncated=False, warnings_truncated=False),
                   ToolResult(name="fetch", handle="", code=ErrorCode.UNSUPPORTED_CAPABILITY, errors=(converted,),
                              warnings=(converted,), errors_truncated=True, warnings_truncated=True)),
            bind={"weather": handle},
            admitted=True,
            more_pages=True))
        self.assertIs(type(result.bind), dict, "a plain dict, not the response's map")
        result.bind.clear()
        self.assertEqual(dict(message.bind), {"weather": handle}, "a copy: the response is untouched")
        written = json.loads(json.dumps(dataclasses.asdict(from_message(ToolsetResult, message))))
        self.assertEqual(written["bind"], {"weather": handle})
        self.assertEqual(written["tools"][1]["errors"][0]["code"], "ERROR_CODE_UNSUPPORTED_CAPABILITY",
                         "asdict gives JSON, the tools' findings included")

    def test_results_are_frozen(self):
        result = from_message(ValidationResult, pb.ValidateResponse(valid=True))
        with self.assertRaises(dataclasses.FrozenInstanceError):
            result.valid = False
