import unittest

from toolgate import Admission, ErrorCode, Profile, Provider
from toolgate.enums import from_number, to_number
from toolgate.v1 import validation_pb2 as pb


class EnumsTest(unittest.TestCase):
    def test_members_are_the_proto_names(self):
        """Each enum lists exactly the generated enum's names, in order, so a
        value added to the proto fails here until it is added here."""
        cases = [
            (Profile, pb.Profile, "PROFILE_"),
            (ErrorCode, pb.ErrorCode, "ERROR_CODE_"),
            (Provider, pb.Provider, "PROVIDER_"),
            (Admission, pb.Admission, "ADMISSION_"),
        ]
        for kind, wrapper, prefix in cases:
            with self.subTest(kind.__name__):
                self.assertEqual([m.value for m in kind], list(wrapper.keys()))
                self.assertEqual([prefix + m.name for m in kind], list(wrapper.keys()), "member names drop the prefix")

    def test_to_number_accepts_members_and_names(self):
        self.assertEqual(to_number(Provider, Provider.ANTHROPIC), pb.PROVIDER_ANTHROPIC)
        self.assertEqual(to_number(Provider, "PROVIDER_ANTHROPIC"), pb.PROVIDER_ANTHROPIC)
        self.assertEqual(to_number(Profile, "PROFILE_JSON_SCHEMA"), pb.PROFILE_JSON_SCHEMA)
        self.assertEqual(to_number(Admission, Admission.STRICT), pb.ADMISSION_STRICT)

    def test_to_number_refuses_everything_else(self):
        cases = {
            "unknown name": "PROVIDER_OPENAI",
            "lower case": "provider_anthropic",
            "short name": "ANTHROPIC",
            "a number": 3,
            "another enum's name": "ERROR_CODE_VALIDATION",
            "None": None,
        }
        for name, value in cases.items():
            with self.subTest(name), self.assertRaisesRegex(ValueError, "PROVIDER_ANTHROPIC"):
                to_number(Provider, value)

    def test_from_number(self):
        self.assertIs(from_number(ErrorCode, pb.ERROR_CODE_VALIDATION), ErrorCode.VALIDATION)
        self.assertEqual(from_number(ErrorCode, pb.ERROR_CODE_VALIDATION), "ERROR_CODE_VALIDATION")
        self.assertEqual(from_number(ErrorCode, 99), "99", "a newer server's code arrives as its number")
