"""The evening's page at the end of a game: after the game's first page, on a real journal,
for every game (the fixture game added to the registry included), in every language."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from companion.daemon.flows.base import Context, Reply
from companion.daemon.table import TableController
from companion.devices.base import DieRolled, EncoderTurned
from companion.games.registry import find_game
from companion.render import jockey as jockey_screens
from companion.render.evening import standing_row
from companion.render.language import LANGUAGES, speaking
from companion.render.text import COLS
from companion.session import evening
from companion.session.autoplay import random_log
from companion.session.evening import EveningStanding
from companion.session.session import Session


def started(table: TableController, kind: str, players: tuple[str, ...], **options: object) -> None:
    """Start a game at the table, as the menu or the host page does."""

    def start(ctx: Context) -> Reply:
        ctx.session.new_game(kind, players, dict(options))
        return Reply()

    table.apply(start)


def chevaux(table: TableController, rolls: list[int]) -> None:
    """A game of Petits chevaux to square 8 for Anna, Ben and Cleo, rolled at the table."""
    started(table, "petits_chevaux", ("Anna", "Ben", "Cleo"), finish=8)
    for value in rolls:
        table.handle(DieRolled(value))
    assert table.session.view().finished


def pages(table: TableController) -> list[tuple[str, ...]]:
    """Every page the knob turns through at the end of the game, the first first."""
    shown = [table.screen().lcd]
    while True:
        table.handle(EncoderTurned(1))
        lcd = table.screen().lcd
        if lcd == shown[0]:
            return shown
        shown.append(lcd)


def test_an_added_game_ends_on_the_evening_page_ranked_by_its_own_figure(tmp_path: Path) -> None:
    table = TableController(Session.open(tmp_path / "journal.sqlite3"), clock=lambda: 0.0)
    chevaux(table, [5, 1, 2, 3])  # Anna: 5 + 3 reaches square 8; Ben on 1, Cleo on 2
    first = pages(table)
    assert len(first) == 2 and first[0][0].endswith("1/2")  # the game's one screen, marked
    # Its measure is the square each horse reached: Anna 3 place points, Cleo 2, Ben 1.
    assert first[1] == ("Evening          2/2", "1. Anna  1 win 3 pts", "2. Cleo 0 wins 2 pts",
                        "3. Ben   0 wins 1 pt")  # fmt: skip
    assert table.screen().oled.die == 3  # the game's own page (the knob went round): its OLED
    table.handle(EncoderTurned(-1))  # back from the first page: the last, the evening's
    assert table.screen().oled.lines == ("Evening", "Anna")
    chevaux(table, [4, 1, 1, 4])  # Anna wins again: the evening counts both games
    # By hand: Anna on 8 (3 place points of 3 players), Ben and Cleo level on 1 (2 each):
    # Anna 3 + 3, Cleo 2 + 2, Ben 1 + 2.
    assert pages(table)[1] == ("Evening          2/2", "1. Anna 2 wins 6 pts",
                               "2. Cleo 0 wins 4 pts", "3. Ben  0 wins 3 pts")  # fmt: skip
    table.close()


def test_a_game_that_declares_no_figure_ranks_its_winners_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = replace(find_game("petits_chevaux"), measure=None)
    monkeypatch.setattr(evening, "find_game", lambda kind: plain)
    table = TableController(Session.open(tmp_path / "journal.sqlite3"), clock=lambda: 0.0)
    chevaux(table, [5, 1, 2, 3])
    # Its winner first (3 place points of 3 players), the others level second (2 each).
    assert pages(table)[1] == ("Evening          2/2", "1. Anna  1 win 3 pts",
                               "2. Ben  0 wins 2 pts", "2. Cleo 0 wins 2 pts")  # fmt: skip
    table.close()


def test_a_table_without_a_journal_has_no_evening_page() -> None:
    table = TableController(Session.in_memory(), clock=lambda: 0.0)
    chevaux(table, [5, 1, 2, 3])
    assert pages(table) == [table.screen().lcd]  # the game's one screen, unmarked
    assert table.screen().lcd[0] == "Game over!"


def test_the_evening_page_comes_second_and_the_marks_count_it(tmp_path: Path) -> None:
    table = TableController(Session.open(tmp_path / "journal.sqlite3"), clock=lambda: 0.0)
    people = ("Anna", "Ben", "Cleo", "Dan")  # four: the evening takes two pages
    log = random_log("jockey", random.Random(7), length=5000, undo_rate=0.0, players=people)

    def play(ctx: Context) -> Reply:
        for entry in log:
            assert ctx.session.submit(entry).accepted
        return Reply()

    table.apply(play)
    view = table.session.view()
    assert view.finished
    own = jockey_screens.final_pages(view)
    shown = pages(table)
    ranking = table.ctx.standings()
    evening = 2  # three people a page
    assert len(shown) == len(own) + evening
    assert all(page[0].endswith(f"{n}/{len(shown)}") for n, page in enumerate(shown, 1))
    game_pages = [shown[0], *shown[evening + 1 :]]  # the game's own, in their order
    assert [p[1:] for p in game_pages] == [p[1:] for p in own]
    assert [p[0].split()[0] for p in game_pages] == [p[0].split()[0] for p in own]
    rows = [row for page in shown[1 : evening + 1] for row in page[1:] if row.strip()]
    assert all(page[0].startswith("Evening") for page in shown[1 : evening + 1])
    assert [row.split()[1] for row in rows] == [s.person for s in ranking]
    assert rows[0].split()[1] in view.winners and rows[0].startswith("1. ")
    table.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_evening_row_fits_and_keeps_its_figures(language: str) -> None:
    with speaking(language):
        for name in ("Anna", "Bénédicte", "Maximilian-Alexander"):
            for points, wins in ((1, 0), (4, 1), (38, 12)):
                row = standing_row(10, EveningStanding(name, points, wins, 12))
                assert len(row) <= COLS, row
                assert row.startswith("10. ") and row.split()[-1] in ("pt", "pts", "P.")
                assert str(points) in row.split()[-2:]
        # A name of four letters keeps both figures in every language (single digits).
        assert len(standing_row(1, EveningStanding("Anna", 7, 2, 3)).split()) == 6
