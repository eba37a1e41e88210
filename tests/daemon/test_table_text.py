"""The LCD's text helpers, for any names: rows fit, names shorten with a dot, words stay whole."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.render import text

#: Names as the configuration allows them: 1 to 20 characters, letters, spaces, hyphens.
NAMES = (
    st.text(
        st.sampled_from("abcdeéABCDÉ- '") | st.characters(categories=["Ll", "Lu"]),
        min_size=1,
        max_size=20,
    )
    .map(str.strip)
    .filter(bool)
)
SEATS = st.integers(1, 10).map(lambda n: f"Player {n}")
ANY_NAME = NAMES | SEATS
FAST = settings(max_examples=200, deadline=None)


def is_short_form(shown: str, name: str) -> bool:
    """Whether ``shown`` is ``name`` whole (a number's space may go), or its start marked
    with a "." (numbers kept)."""
    if shown == name or re.sub(r" (\d+)\Z", r"\1", name) == shown:
        return True
    stem, dot, number = shown.rpartition(".")
    if not dot:
        return False
    if number and not name.endswith(" " + number):
        return False
    return name.startswith(stem)


@FAST
@given(ANY_NAME, st.integers(3, 20))
def test_a_shortened_name_is_its_start_and_a_dot(name: str, width: int) -> None:
    shown = text.short(name, width)
    assert len(shown) <= width
    assert is_short_form(shown, name)
    assert shown == name or shown.endswith(".") or shown[-1].isdigit()
    assert not shown.endswith("-.") and not shown.endswith(" .")


@pytest.mark.parametrize(
    ("name", "width", "shown"),
    [
        ("Joueur 2", 7, "Joueur2"),  # was "Joueu.2": only the space goes
        ("Joueur 2", 6, "Joue.2"),
        ("Player 12", 7, "Play.12"),
        ("Jean-Baptiste Durand", 16, "Jean-Baptiste D."),
        ("Jean-Baptiste Durand", 15, "Jean-Baptiste."),
        ("Jean-Baptiste Durand", 10, "Jean-B."),  # was "Jean-Bapt."
        ("Jean-Baptiste Durand", 6, "Jean."),
        ("Chloé-Marie", 8, "Chloé-M."),
        ("Anna Maria", 7, "Anna M."),
        ("Bartholomew", 8, "Barthol."),  # one word: cut inside it
        ("Jean-Baptiste Durand", 4, "Jea."),  # no whole word fits
    ],
)
def test_a_name_is_cut_at_a_word_boundary_where_one_leaves_a_whole_word(
    name: str, width: int, shown: str
) -> None:
    assert text.short(name, width) == shown


@FAST
@given(NAMES, st.integers(3, 20))
def test_a_cut_between_words_keeps_whole_words_then_an_initial(name: str, width: int) -> None:
    shown = text.short(name, width)
    words = re.split(r"[ -]+", name)
    first = len(words[0]) + 1
    if shown == name or len(words) < 2 or first > width or not words[0]:
        return
    kept = re.split(r"[ -]+", shown.removesuffix("."))
    assert kept[:-1] == words[: len(kept) - 1]  # whole words ...
    last = kept[-1]
    assert last == words[len(kept) - 1] or (len(last) == 1 and words[len(kept) - 1][:1] == last)


@FAST
@given(ANY_NAME, st.sampled_from(["'s turn", ": bet", ": predict", ": guess whose?", ""]))
def test_a_named_row_keeps_its_words_and_shortens_the_name(name: str, rest: str) -> None:
    row = text.named(name, rest)
    assert len(row) <= text.COLS
    assert row.endswith(rest)
    assert is_short_form(row[: len(row) - len(rest)], name)


@FAST
@given(ANY_NAME, st.sampled_from(["max 10", "max 1000", "Race 1/3", "die 6"]))
def test_a_spread_row_never_cuts_its_left_words(name: str, right: str) -> None:
    row = text.spread_name(name, ": bet", right)
    assert len(row) <= text.COLS
    left = row[: len(row) - len(right)].rstrip() if row.endswith(right) else row
    assert left.endswith(": bet")
    assert is_short_form(left[: -len(": bet")], name)


@FAST
@given(st.lists(ANY_NAME, min_size=1, max_size=10, unique=True), st.integers(0, 999))
def test_a_score_row_shows_every_player_or_says_something_else(
    names: list[str], score: int
) -> None:
    pairs = [(n, score) for n in names]
    row = text.name_score_row(pairs, fallback="FALLBACK")
    assert len(row) <= text.COLS
    if row == "FALLBACK":
        return
    rest = row
    for name, _ in pairs:  # each name, whole or shortened, then its figure, in seat order
        token = next(
            t for t in (text.short(name, cap) for cap in range(20, 2, -1)) if rest.startswith(t)
        )
        assert is_short_form(token, name)
        rest = rest[len(token) :].removeprefix(f" {score}").removeprefix(" ")
    assert rest == ""


@FAST
@given(st.lists(ANY_NAME, min_size=1, max_size=10, unique=True), st.integers(1, 3))
def test_a_name_list_fits_its_rows_or_gives_up(names: list[str], lines: int) -> None:
    laid = text.name_list(names, lines=lines)
    if laid is None:
        return
    assert len(laid) <= lines
    assert all(len(row) <= text.COLS for row in laid)
    shown = ", ".join(laid).replace(",, ", ", ").split(", ")
    assert len(shown) == len(names)
    for item, name in zip(shown, names, strict=True):
        assert is_short_form(item.rstrip(","), name)


@FAST
@given(
    st.lists(st.sampled_from(["Anna", "Chloé-Marie", "no", "horse", "card", "moved"]), max_size=16)
)
def test_a_sentence_that_fits_is_shown_whole(words: list[str]) -> None:
    sentence = " ".join(words)
    if text.fits(sentence, text.ROWS):
        assert " ".join(text.wrap(sentence)).split() == sentence.split()
