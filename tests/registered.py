"""Where each registered game keeps its files: its board file and its rules page.

A built-in game keeps them in ``companion/render/boards/<kind>.toml`` and ``docs/rules/<kind>.md``
(``_`` written ``-``); a game added from outside the package (the fixture game) keeps them in
its own folder, as ``board.toml`` and ``rules.md``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from companion.games.registry import HOMES

ROOT = Path(__file__).resolve().parents[1]


def home(kind: str) -> Path | None:
    """The folder of a game added from outside the package, or None for a built-in game."""
    package = HOMES.get(kind)
    if package is None:
        return None
    module = importlib.import_module(package)
    assert module.__file__ is not None
    return Path(module.__file__).parent


def board_file(kind: str) -> Path:
    """The board file of a game's default strip."""
    folder = home(kind)
    if folder is None:
        return ROOT / "companion" / "render" / "boards" / f"{kind}.toml"
    return folder / "board.toml"


def rules_page(kind: str) -> Path:
    """The English rules page of a game."""
    folder = home(kind)
    if folder is None:
        return ROOT / "docs" / "rules" / f"{kind.replace('_', '-')}.md"
    return folder / "rules.md"
