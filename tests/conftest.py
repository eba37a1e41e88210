"""Before any test: the fixture game registered; the gettext catalogs compiled, as `make` does;
bytecode kept in a cache outside the checkout."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
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


def _bytecode_cache() -> Path:
    """Where this process, the xdist workers and every child a test starts (a daemon, a
    command) keep bytecode: a folder mirroring the sources' paths, outside the checkout.

    The environment may forbid writing bytecode beside the sources (PYTHONDONTWRITEBYTECODE);
    without a cache each daemon and command a test starts compiled the package again, and each
    worker its test modules. Python checks a cached file against its source's time and size,
    as in ``__pycache__``, and writes it atomically, so concurrent processes share the folder.
    A PYTHONPYCACHEPREFIX set by the user is kept.
    """
    folder = os.environ.get("PYTHONPYCACHEPREFIX")
    if not folder:
        home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        folder = os.path.join(home, "companion-tests", "bytecode")
        os.environ["PYTHONPYCACHEPREFIX"] = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.pycache_prefix = folder
    sys.dont_write_bytecode = False
    return Path(folder)


BYTECODE = _bytecode_cache()

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the modules holding slow tests first, the longest first, keeping the order inside
    each module: the workers are handed whole modules in this order (`--dist loadfile` in the
    Makefile), so the longest ones start at once and the short ones fill in around them."""
    seconds: dict[Path, float] = {}
    for item in items:
        marker = item.get_closest_marker("slow")
        if marker is not None:
            weight = float(marker.args[0]) if marker.args else 1.0
            seconds[item.path] = seconds.get(item.path, 0.0) + weight
    items.sort(key=lambda item: -seconds.get(item.path, 0.0))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Drop the bytecode of sources under the temporary folder (copies a test made and removed):
    kept, it would only grow the cache run after run."""
    if not hasattr(config, "workerinput"):
        temporary = Path(tempfile.gettempdir()).resolve()
        shutil.rmtree(BYTECODE / temporary.relative_to(temporary.anchor), ignore_errors=True)
