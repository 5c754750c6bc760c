"""The committed stubs in toolgate/v1 are what proto/ generates now."""

import os
import pathlib
import re
import subprocess
import tempfile
import unittest

from tests.support import REPO

STUBS = pathlib.Path("client/python/toolgate/v1")
GENERATED = re.compile(r".*_pb2(_grpc)?\.pyi?$")


def buf_version():
    """$BUF_VERSION (the Makefile exports its pin), else the pin in the Makefile."""
    if os.environ.get("BUF_VERSION"):
        return os.environ["BUF_VERSION"]
    pin = re.search(r"^BUF_VERSION\s*:?=\s*(v\S+)\s*$", (REPO / "Makefile").read_text(), re.MULTILINE)
    if pin is None:
        raise RuntimeError("the Makefile has no BUF_VERSION line")
    return pin.group(1)


def stubs(root):
    """The generated files under root/STUBS, by name."""
    folder = root / STUBS
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if GENERATED.match(p.name)}


class GeneratedStubsTest(unittest.TestCase):
    def test_stubs_are_current(self):
        """Runs buf with buf.gen.python.yaml into a temporary folder and
        compares byte for byte; the work tree is not touched."""
        with tempfile.TemporaryDirectory() as out:
            command = ["go", "run", f"github.com/bufbuild/buf/cmd/buf@{buf_version()}", "generate",
                       "--template", "buf.gen.python.yaml", "--output", out]
            run = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
            self.assertEqual(run.returncode, 0, f"{' '.join(command)}:\n{run.stdout}{run.stderr}")
            want = stubs(pathlib.Path(out))
        self.assertTrue(want, "buf generated no stubs")
        got = stubs(REPO)
        self.assertEqual(sorted(got), sorted(want), "stale or missing stub files: run `make generate`")
        for name in want:
            self.assertTrue(got[name] == want[name], f"{STUBS / name} is stale: run `make generate` and commit it")
