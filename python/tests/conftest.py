"""Helpers shared by the tests: ../shared/ beside the repository, and the
``uriscan`` command built from the same tree, to compare with."""

import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

#: The repository's root (this file is python/tests/conftest.py).
ROOT = Path(__file__).resolve().parents[2]


def shared(sub):
    """``../shared/<sub>`` beside the repository, when it exists.

    A user's fresh clone has no ``../shared/``: then the test skips with a
    notice. ``.ci/run`` sets ``URISCAN_REQUIRE_SHARED``, which turns the
    absence into a failure (the convention of ``tests/common/mod.rs``).
    """
    path = ROOT.parent / "shared" / sub
    if path.exists():
        return path
    if os.environ.get("URISCAN_REQUIRE_SHARED"):
        pytest.fail(f"{path} is missing and URISCAN_REQUIRE_SHARED is set")
    print(f"note: skipping, {path} is absent", file=sys.stderr)
    pytest.skip(f"{path} is absent")


def files_under(directory):
    """Every file under ``directory``, recursively, sorted."""
    return sorted(
        Path(d) / f for d, _, names in os.walk(directory) for f in names
    )


@pytest.fixture(scope="session")
def cli():
    """The path of the ``uriscan`` binary built from this tree.

    ``cargo build --release`` is a no-op when ``cargo test --release`` has
    built it already (as ``.ci/run`` does first).
    """
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.fail("cargo is needed to build the uriscan command to compare with")
    out = subprocess.run(
        [cargo, "build", "--release", "--bin", "uriscan", "--message-format=json"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    for line in out.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            return Path(msg["executable"])
    pytest.fail("cargo build gave no uriscan executable")


def cli_json(cli, args):
    """Runs ``uriscan --json ARGS``; returns its records by path (the
    ``path`` key removed), in the order printed."""
    out = subprocess.run(
        [cli, "--json", *map(str, args)], capture_output=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr.decode(errors="replace")
    by_path = defaultdict(list)
    for line in out.stdout.splitlines():
        record = json.loads(line)
        by_path[record.pop("path")].append(record)
    return by_path
