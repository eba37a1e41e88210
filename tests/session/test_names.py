"""The one name rule: which names are one person, and which mix alphabets."""

from __future__ import annotations

import pytest

from companion.session.names import (
    NameProblem,
    distinct,
    fold_name,
    mixes_scripts,
    name_problem,
    same_person,
)


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
