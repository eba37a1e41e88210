"""Before any test: the fixture game registered; the gettext catalogs compiled, as `make` does."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
# The fixture game (tests/fixture_game/) is registered while the tests run, in this process
# and in the children it starts (a daemon, a command), before anything imports the registry.
os.environ["COMPANION_EXTRA_GAMES"] = "tests.fixture_game"
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

LOCALE = Path(__file__).resolve().parents[1] / "companion" / "locale"


def pytest_configure(config: pytest.Config) -> None:
    """Compile each catalog whose .mo is missing or older than its .po (once, not per worker)."""
    if hasattr(config, "workerinput"):
        return
    for po in LOCALE.glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            with po.open("rb") as source, mo.open("wb") as target:
                write_mo(target, read_po(source))
