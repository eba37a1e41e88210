"""The one name rule: which names are one person, which mix alphabets, and every game's new
game refusing them in a sentence for the LCD."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.registry import KINDS
from companion.games.text import fits_display
from companion.render.language import say, speaking
from companion.session.binding import binding_module
from companion.session.journal import Journal
from companion.session.log import NewGame, dumps
from companion.session.names import (
    NameProblem,
    distinct,
    fold_name,
    mixes_scripts,
    name_problem,
    same_person,
)
from companion.session.session import Session


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Anna", "anna"),
        ("Strauß", "STRAUSS"),
        ("Ann a", "Ann  a"),
        (" Ann\ta ", "ann a"),
        ("An\u200bna", "Anna"),
        ("An\u00adna", "Anna"),
        ("\uff21nna", "Anna"),
        ("Zoe\u0308", "Zoë"),
        ("Anna\ufe0f", "Anna"),
    ],
)
def test_names_that_fold_equal_are_one_person(first: str, second: str) -> None:
    assert fold_name(first) == fold_name(second)
    assert same_person(first, second)
    assert not distinct([first, second])


@pytest.mark.parametrize(("first", "second"), [("Anna", "Anne"), ("Jo", "Jo 2"), ("Ann", "An n")])
def test_different_names_stay_different(first: str, second: str) -> None:
    assert not same_person(first, second)


def test_the_fold_is_stable() -> None:
    for name in ("Strauß", "ǅ", "ﬃ", "İstanbul", "ΣΊΣΥΦΟΣ", "\u0130"):
        assert fold_name(fold_name(name)) == fold_name(name)


@pytest.mark.parametrize(
    "name",
    ["\u0410nna", "Ann\u0430", "Ivan \u0418\u0432\u0430\u043d", "P\u0391ul", "\uff21nn\u0430"],
)
def test_a_name_mixing_look_alike_alphabets_is_flagged(name: str) -> None:
    assert mixes_scripts(name)
    assert name_problem([name]) == NameProblem("mixed_scripts", (name,))


@pytest.mark.parametrize(
    "name",
    [
        "Anna",
        "Иван",
        "Παύλος",
        "山田 はなこ",
        "ヤマダ 花子",
        "王小明",
        "김민준",
        "O\u02bcNeil",
        "José 2",
        "Zoë",
    ],
)
def test_names_written_in_one_alphabet_pass(name: str) -> None:
    assert not mixes_scripts(name)
    assert name_problem([name]) is None


def test_the_first_problem_is_named_with_both_names() -> None:
    assert name_problem(["Anna", "Ben", "anna"]) == NameProblem("same_name", ("Anna", "anna"))
    assert name_problem(["Anna", "\u200b "]) == NameProblem("bad_name", ("\u200b ",))


def set_up(kind: str, first: str, second: str) -> NewGame:
    """A new game of ``kind`` as its set-up plays it, its first two players ``first`` and
    ``second`` (then as many others as the game needs)."""
    players, options = binding_module(kind).SET_UP
    others = ("Chloé", "David", "Emma", "Félix", "Gaby", "Hugo")
    named = (first, second, *others)[: max(len(players), 2)]
    return NewGame(kind, named, dict(options))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("first", "second", "code", "sentence"),
    [
        ("Anna", "anna", "duplicate_player", "Anna and anna count as one name."),
        ("Strauß", "Strauss", "duplicate_player", "Strauß and Strauss count as one name."),
        ("Ann a", "Ann  a", "duplicate_player", "Ann a and Ann  a count as one name."),
        ("Anna", "An\u200bna", "duplicate_player", "Anna and An\u200bna count as one name."),
        ("\u0410nna", "Bob", "mixed_scripts", "\u0410nna mixes alphabets: type it again."),
        ("Anna", "\u200b", "bad_name", "Every player needs a name."),
    ],
)
def test_every_game_refuses_names_the_rule_refuses(
    kind: str, first: str, second: str, code: str, sentence: str
) -> None:
    session = Session.in_memory()
    outcome = session.submit(set_up(kind, first, second))
    assert (outcome.accepted, outcome.code, outcome.sentence) == (False, code, sentence)
    assert session.view().game is None  # nothing started
    assert session.submit(set_up(kind, "Anna", "Bob")).accepted


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_refusal_is_said_in_the_table_language_on_the_lcd(language: str) -> None:
    session = Session.in_memory()
    outcome = session.submit(set_up(KINDS[0], "Christophine", "CHRISTOPHINE"))
    assert outcome.message is not None
    with speaking(language):
        said = say(outcome.message)
    assert "Christophine" in said and "CHRISTOPHINE" in said and fits_display(said)
    assert said != outcome.sentence


def test_a_journal_game_with_names_the_rule_now_refuses_still_opens(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    start = set_up(KINDS[0], "Anna", "anna")  # written before the rule: only exact twins refused
    journal.create_game(start.game, start.players, dumps(start))
    journal.close()
    session = Session.open(path)
    try:
        assert tuple(session.view().players[:2]) == ("Anna", "anna")
    finally:
        session.close()
