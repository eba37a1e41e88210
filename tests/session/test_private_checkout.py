"""The tests that drop root's privileges pass from a checkout that only root can enter.

A fresh clone inside a 0700 folder (what `mktemp -d` gives, and a new home folder on Debian)
is unreadable to the unprivileged child those tests fork: it must need nothing from the
checkout once it has dropped root. This builds such a checkout of the package and the tests
and runs them there.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The tests whose work runs as an unprivileged child.
DROPPING = [
    f"tests/session/test_journal_faults.py::{name}"
    for name in (
        "test_a_journal_in_a_read_only_folder_is_read_and_never_written",
        "test_the_companion_refuses_to_start_on_a_read_only_journal",
        "test_an_unreadable_journal_is_named_with_the_reason",
        "test_games_and_export_read_a_journal_this_user_may_not_write",
    )
]


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping privileges needs root")
def test_the_tests_that_drop_root_pass_from_a_private_folder() -> None:
    private = Path(tempfile.mkdtemp(prefix="companion-private-"))
    try:
        assert stat.S_IMODE(private.stat().st_mode) == 0o700
        checkout = private / "checkout"
        skip = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".hypothesis")
        shutil.copytree(ROOT / "companion", checkout / "companion", ignore=skip)
        shutil.copytree(ROOT / "tests", checkout / "tests", ignore=skip)
        shutil.copy2(ROOT / "pyproject.toml", checkout / "pyproject.toml")
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
             *DROPPING],
            cwd=checkout, capture_output=True, text=True, timeout=100, check=False,
        )  # fmt: skip
        assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
        assert run.stdout.splitlines()[-1].startswith(f"{len(DROPPING)} passed")
        assert str(checkout / "companion") in _imported_from(checkout)
    finally:
        shutil.rmtree(private)


def _imported_from(checkout: Path) -> str:
    """Where the package is imported from when a test runs in ``checkout`` (not this one)."""
    probe = subprocess.run(
        [sys.executable, "-c", "import companion; print(companion.__file__)"],
        cwd=checkout, capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    return probe.stdout
