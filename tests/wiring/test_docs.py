"""The build documents: the pin tables in the guide are the pin map's, and every link resolves."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

DOCS = (
    "docs/build.md",
    "wiring/README.md",
    "wiring/notes.md",
    "hardware/power.md",
    "hardware/mounting.md",
)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_build_guide_holds_the_current_pin_tables(
    root: Path, generator: ModuleType, pinmap: Any
) -> None:
    text = (root / "docs" / "build.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- pin-table:begin -->\n(.*?)<!-- pin-table:end -->", text, re.S)
    assert match, "docs/build.md lost its pin-table markers"
    assert match.group(1).strip() == generator.pin_table(pinmap).strip(), (
        "docs/build.md: paste the output of python wiring/generate.py --table"
    )


def test_the_build_guide_shows_every_diagram(root: Path, pinmap: Any) -> None:
    text = (root / "docs" / "build.md").read_text(encoding="utf-8")
    for diagram in pinmap.diagrams:
        assert f"](../wiring/diagrams/{diagram}.svg)" in text


@pytest.mark.parametrize("doc", DOCS)
def test_every_relative_link_resolves(root: Path, doc: str) -> None:
    path = root / doc
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if "://" in target or target.startswith("#"):
            continue
        resolved = (path.parent / target.split("#")[0]).resolve()
        assert resolved.exists(), f"{doc} links to {target}, which does not exist"
        assert root in resolved.parents, f"{doc} links outside the repository: {target}"
