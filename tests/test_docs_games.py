"""The user docs' lists of games name every game of the registry: a game added to
``BUILT_IN`` fails here until the README, the table-log reference and the table guide say it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.info import GameInfo
from companion.games.registry import BUILT_IN

ROOT = Path(__file__).resolve().parents[1]


def section(path: str, heading: str) -> str:
    """The text of ``path`` under the Markdown ``heading``, up to the next heading of its level."""
    text = (ROOT / path).read_text(encoding="utf-8")
    start = text.index(heading + "\n")
    level = heading.split(" ", 1)[0] + " "
    end = text.find("\n" + level, start + len(heading))
    return text[start : end if end != -1 else len(text)]


@pytest.mark.parametrize("game", BUILT_IN, ids=lambda game: game.kind)
def test_the_readme_lists_the_game_and_links_its_rules(game: GameInfo) -> None:
    games = section("README.md", "## The games")
    assert f"| **{game.title}** |" in games
    assert f"]({'docs/rules/' + game.kind.replace('_', '-')}.md)" in games


@pytest.mark.parametrize("game", BUILT_IN, ids=lambda game: game.kind)
def test_the_table_log_names_its_kind_and_its_options(game: GameInfo) -> None:
    text = (ROOT / "docs" / "table-log.md").read_text(encoding="utf-8")
    new_game = next(line for line in text.splitlines() if line.startswith("| `new_game` |"))
    assert f"`{game.kind}`" in new_game
    for option in game.options:
        assert f"`{option.key}`" in text, f"docs/table-log.md: {game.kind}'s {option.key}"


@pytest.mark.parametrize("game", BUILT_IN, ids=lambda game: game.kind)
def test_the_table_guide_lists_its_options_and_buttons(game: GameInfo) -> None:
    text = (ROOT / "docs" / "table.md").read_text(encoding="utf-8")
    assert f"\n| {game.title} | " in text  # the menu's options
    buttons = next(line for line in text.splitlines() if line.startswith("| button |"))
    assert game.title in buttons
