"""The README's "From Python" example runs, against replica A, and prints
what the README says it prints."""

import os
import re
import subprocess
import sys
import unittest

from tests.support import REPO, replica_address

# The address the README's examples use.
README_ADDRESS = "127.0.0.1:50051"


def example(section, language):
    """The first ``language`` code block of the README's ``section`` and the
    ``text`` block after it."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    body = readme.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(rf"```{language}\n(.*?)```.*?```text\n(.*?)```", body, re.DOTALL)
    if found is None:
        raise AssertionError(f"README section {section!r} has no {language} block followed by a text block")
    return found.group(1), found.group(2)


class ReadmeTest(unittest.TestCase):
    def test_from_python(self):
        code, output = example("From Python", "python")
        self.assertIn(README_ADDRESS, code)
        run = subprocess.run(
            [sys.executable, "-"],
            input=code.replace(README_ADDRESS, replica_address("A")),
            capture_output=True, text=True, timeout=60, check=False,
            env={**os.environ, "PYTHONPATH": str(REPO / "client" / "python")},
        )
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout, output)
