"""Before any test: the gettext catalogs compiled, as `make` and the package build do."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

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
