import decimal
import json
import random
import unittest

from toolgate.jsontext import json_text


class JSONTextTest(unittest.TestCase):
    def test_text_is_sent_unchanged(self):
        cases = {
            "exact big number": '{"minimum": 123456789012345678901234567890.5}',
            "white space kept": '{ "type" : "object" }',
            "not JSON at all": "{",
            "empty": "",
        }
        for name, text in cases.items():
            with self.subTest(name):
                self.assertIs(json_text(text, "schema"), text)

    def test_bytes_are_utf8(self):
        self.assertEqual(json_text('{"a": "ü"}'.encode(), "arguments"), '{"a": "ü"}')
        with self.assertRaises(UnicodeDecodeError):
            json_text(b'{"a": "\xff"}', "arguments")

    def test_dicts_are_written_exactly(self):
        cases = {
            "big int": ({"n": 2**64 + 1}, '{"n":18446744073709551617}'),
            "float shortest form": ({"x": 0.1}, '{"x":0.1}'),
            "non-ASCII stays UTF-8": ({"city": "Zürich"}, '{"city":"Zürich"}'),
            "nested list and tuple": ({"a": [1, (2, None)], "b": True}, '{"a":[1,[2,null]],"b":true}'),
            "shared sub-object is not a cycle": ({"a": (s := {"x": 1}), "b": s}, '{"a":{"x":1},"b":{"x":1}}'),
        }
        for name, (value, want) in cases.items():
            with self.subTest(name):
                self.assertEqual(json_text(value, "schema"), want)

    def test_what_json_cannot_hold_fails(self):
        cyclic = {}
        cyclic["self"] = cyclic
        cases = {
            "int key would become a string": ({"a": {1: "x"}}, TypeError),
            "None key would become null": ({None: 1}, TypeError),
            "Decimal": ({"n": decimal.Decimal("1.5")}, TypeError),
            "set": ({"s": {1}}, TypeError),
            "NaN": ({"x": float("nan")}, ValueError),
            "infinity": ({"x": float("inf")}, ValueError),
            "cycle": (cyclic, ValueError),
            "a number is not a document": (5, TypeError),
            "None is not a document": (None, TypeError),
        }
        for name, (value, error) in cases.items():
            with self.subTest(name), self.assertRaises(error):
                json_text(value, "schema")

    def test_random_documents_round_trip(self):
        """Property: any JSON value of dicts, lists, strings, ints, floats,
        booleans and None is written so that parsing it gives it back."""
        rng = random.Random(13)

        def value(depth):
            kind = rng.randrange(8 if depth < 4 else 5)
            if kind == 0:
                return rng.randrange(-(2**70), 2**70)
            if kind == 1:
                return rng.uniform(-1e300, 1e300)
            if kind == 2:
                return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0xA0, 0xD7FF)])) for _ in range(5))
            if kind == 3:
                return rng.choice([True, False, None])
            if kind == 4:
                return rng.randrange(10)
            if kind in (5, 6):
                return {f"k{rng.randrange(100)}": value(depth + 1) for _ in range(rng.randrange(4))}
            return [value(depth + 1) for _ in range(rng.randrange(4))]

        for _ in range(500):
            document = {"root": value(0)}
            self.assertEqual(json.loads(json_text(document, "arguments")), document)
