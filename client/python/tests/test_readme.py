"""The README's "From Python" examples run, against replica A, and print
what the README says they print."""

import os
import re
import subprocess
import sys
import unittest

from tests.support import REPO, replica_address

# The address the README's examples use.
README_ADDRESS = "127.0.0.1:50051"


def examples(section, language):
    """Each ``language`` code block of the README's ``section`` with the
    ``text`` block after it, in order."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    body = readme.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    found = re.findall(rf"```{language}\n(.*?)```.*?```text\n(.*?)```", body, re.DOTALL)
    if not found:
        raise AssertionError(f"README section {section!r} has no {language} block followed by a text block")
    return found


class ReadmeTest(unittest.TestCase):
    def test_from_python(self):
        found = examples("From Python", "python")
        self.assertGreaterEqual(len(found), 2, "the first example and the toolset example")
        for i, (code, output) in enumerate(found):
            with self.subTest(example=i):
                self.assertIn(README_ADDRESS, code)
                run = subprocess.run(
                    [sys.executable, "-"],
                    input=code.replace(README_ADDRESS, replica_address("A")),
                    capture_output=True, text=True, timeout=60, check=False,
                    env={**os.environ, "PYTHONPATH": str(REPO / "client" / "python")},
                )
                self.assertEqual(run.returncode, 0, run.stderr)
                self.assertEqual(run.stdout, output)
