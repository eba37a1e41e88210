"""The evening's page at the end of a game: after the game's first page, on a real journal,
for every game (the fixture game added to the registry included), in every language."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from companion.daemon.flows.base import Context, Reply
from companion.daemon.table import TableController
from companion.devices.base import ButtonPressed, DieRolled, EncoderTurned
from companion.games.registry import find_game
from companion.render import jockey as jockey_screens
from companion.render.evening import standing_row
from companion.render.language import LANGUAGES, speaking
from companion.render.text import COLS
from companion.session import evening
from companion.session.autoplay import random_log
from companion.session.evening import EveningStanding
from companion.session.session import Session
from tests.fixture_game.engine import HORSES


def started(table: TableController, kind: str, players: tuple[str, ...], **options: object) -> None:
    """Start a game at the table, as the menu or the host page does."""

    def start(ctx: Context) -> Reply:
        ctx.session.new_game(kind, players, dict(options))
        return Reply()

    table.apply(start)


def chevaux(table: TableController, *races: tuple[str, str, str]) -> None:
    """A game of Petits chevaux to square 8 for Anna, Ben and Cleo, a round a race, played at
    the table: each race's picks pressed in seat order, then the brown horse (button 1)
    moved 5 and 3 to win it."""
    started(table, "petits_chevaux", ("Anna", "Ben", "Cleo"), finish=8, rounds=len(races))
    for number, picks in enumerate(races):
        if number:
            table.handle(ButtonPressed("push"))  # the next race
        for horse in picks:
            table.handle(ButtonPressed(f"horse{HORSES.index(horse) + 1}"))
        for value in (5, 3):
            table.handle(DieRolled(value))
            table.handle(ButtonPressed("horse1"))
    assert table.session.view().finished


#: Anna picks the winner twice, Cleo once, Ben never: Anna 2 points, Cleo 1, Ben 0.
GAME = (("brown", "yellow", "brown"), ("brown", "yellow", "yellow"))


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
    chevaux(table, *GAME)
    first = pages(table)
    # The game's pages (its end, the ranking, the last race's picks), the evening's second.
    assert len(first) == 4 and first[0][0] == "Game over!       1/4"
    # Its measure is each player's points: Anna 3 place points, Cleo 2, Ben 1.
    assert first[1] == ("Evening          2/4", "1. Anna  1 win 3 pts", "2. Cleo 0 wins 2 pts",
                        "3. Ben   0 wins 1 pt")  # fmt: skip
    assert table.screen().oled.lines == ("Anna", "wins!")  # the game's own page: its OLED
    table.handle(EncoderTurned(1))  # on to the evening's page
    assert table.screen().oled.lines == ("Evening", "Anna")
    chevaux(table, *GAME)  # Anna wins again: the evening counts both games
    # By hand: Anna 3 + 3, Cleo 2 + 2, Ben 1 + 1.
    assert pages(table)[1] == ("Evening          2/4", "1. Anna 2 wins 6 pts",
                               "2. Cleo 0 wins 4 pts", "3. Ben  0 wins 2 pts")  # fmt: skip
    table.close()


def test_a_game_that_declares_no_figure_ranks_its_winners_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = replace(find_game("petits_chevaux"), measure=None)
    monkeypatch.setattr(evening, "find_game", lambda kind: plain)
    table = TableController(Session.open(tmp_path / "journal.sqlite3"), clock=lambda: 0.0)
    chevaux(table, *GAME)
    # Its winner first (3 place points of 3 players), the others level second (2 each).
    assert pages(table)[1] == ("Evening          2/4", "1. Anna  1 win 3 pts",
                               "2. Ben  0 wins 2 pts", "2. Cleo 0 wins 2 pts")  # fmt: skip
    table.close()


def test_a_table_without_a_journal_has_no_evening_page() -> None:
    table = TableController(Session.in_memory(), clock=lambda: 0.0)
    chevaux(table, *GAME)
    shown = pages(table)  # the game's own pages only
    assert [page[0] for page in shown] == ["Game over!       1/3", "Ranking          2/3",
                                          "Race 2 over      3/3"]  # fmt: skip


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
