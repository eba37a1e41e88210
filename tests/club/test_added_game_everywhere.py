"""A game added to the registry (the fixture game) reaches every corner by itself: the
evening's standings, the pages and the TV, check-config, and the league on a real Mosquitto,
each with its own title and its own figure, never as a nameless game; and the league keeps
and names a game its own companion has never heard of."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.club.league import League, Scope
from companion.club.listener import Listener
from companion.club.page import board_body, player_body
from companion.club.payloads import content_hash, dump
from companion.commands.check_config import modes
from companion.daemon.table import TableController
from companion.devices.base import EncoderTurned
from companion.devices.config.checker import parse_config
from companion.games.registry import KINDS
from companion.render.language import speaking
from companion.session.evening import EveningBook
from companion.session.session import Session
from companion.web.fragments import evening_html, public_html
from companion.web.pages import scoreboard_page
from companion.web.state import public_state
from companion.web.words import colon
from tests.chevaux import game as chevaux_game
from tests.club.conftest import CLUB, wait_for
from tests.club.games import PLAYERS, open_table
from tests.club.test_league import publisher_for, send, sender
from tests.fixture_game.engine import GAME

#: Two races the brown horse wins: Anna picks it twice, Chloé once, Bob never.
PICKS = (("brown", "yellow", "brown"), ("brown", "yellow", "yellow"))


def chevaux(session: Session) -> None:
    """A whole game of the fixture game, to square 8, at a journaled table."""
    for entry in chevaux_game(PLAYERS, *PICKS):
        assert session.submit(entry).accepted
    assert session.view().finished


def test_the_evening_the_pages_and_the_tv_name_it_and_rank_by_its_figure(tmp_path: Path) -> None:
    session = open_table(tmp_path / "table.sqlite3")
    chevaux(session)
    evening = EveningBook().evening(session.journal)
    (game,) = evening.games
    assert game.figures == (("Anna", 2), ("Bob", 0), ("Chloé", 1))  # its points, not 1 and 0
    assert dict(game.points) == {"Anna": 3, "Bob": 1, "Chloé": 2}
    for language, title, word in (
        ("en", "Petits chevaux", "points"),
        ("fr", "Petits chevaux", "points"),
        ("de", "Pferdchenrennen", "Punkte"),  # its own title in German (GameInfo.titles)
    ):
        with speaking(language):
            standings = evening_html(evening, shown=True)
            tv = scoreboard_page(public_html(public_state(session)))
            said = colon()  # ": ", with a narrow no-break space before it in French
        assert f"{title}{said}" in standings
        assert f"{word}{said}Anna 2 · Bob 0 · Chloé 1" in standings
        assert title in tv and "petits_chevaux" not in tv.replace('"petits_chevaux"', "")
    session.close()


def test_check_config_says_how_it_is_played() -> None:
    config = parse_config('[gpio]\npin_factory = "mock"\n[die]\npin = 4\n')
    assert "  Petits chevaux: die electronic (the die button rolls)" in modes(config)


def test_the_league_stores_it_under_its_title_and_ranks_by_its_figure(
    broker: Any, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    store, _ = league
    session, publisher = publisher_for(broker, tmp_path, "table1")
    publisher.start()
    try:
        chevaux(session)
        publisher.board(session.view())
        wait_for(lambda: len(store.results()) == 1, what="the fixture game's result stored")
    finally:
        publisher.stop()
        session.close()
    (result,) = store.results()
    assert result.kind == GAME.kind and result.data["title"] == "Petits chevaux"
    points = {p["name"]: (p["points"], p["rank"]) for p in result.data["players"]}
    assert points == {"Anna": (2, 1), "Bob": (0, 3), "Chloé": (1, 2)}
    assert store.standings(Scope(kind=GAME.kind))[0].name == "Anna"
    with speaking("en"):
        board = board_body(store, [], "en")
        history = player_body(store, "Bob")
    assert board.count("Petits chevaux") == 3  # the results, the evening's and season's standings
    assert history is not None and "Petits chevaux" in history


def renamed(result: dict[str, Any], kind: str, title: str | None, seq: int) -> dict[str, Any]:
    """A result as a table playing a game this companion does not list would send it (its
    game ``seq`` of the evening)."""
    changed = {**result, "game": kind, "id": f"{seq:032x}", "seq": seq, "game_id": seq}
    changed.pop("title")
    if title is not None:
        changed["title"] = title
    changed["hash"] = content_hash(changed)
    return changed


def test_the_league_keeps_and_names_a_game_it_has_never_seen(
    broker: Any, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    store, _ = league
    session = open_table(tmp_path / "raw.sqlite3")
    chevaux(session)
    assert session.journal is not None
    payload = session.journal._db.execute("SELECT payload FROM outbox").fetchone()[0]
    session.close()
    known = {**json.loads(payload), "club": CLUB, "table": "table2"}
    client = sender(broker, "table2")
    try:
        send(client, "table2", dump(renamed(known, "steeple", "Steeple", 1)))
        send(client, "table2", dump(renamed(known, "water_jump", None, 2)))
        wait_for(lambda: len(store.results()) == 2, what="both strangers stored")
    finally:
        client.disconnect()
    with speaking("de"):
        board = board_body(store, [], "de")
    assert "<h3>Steeple</h3>" in board and "<h3>Water jump</h3>" in board
    assert {s.name for s in store.standings(Scope(kind="steeple"))} == set(PLAYERS)


def test_the_menu_offers_it_under_its_title_in_the_tables_language() -> None:
    for language, title in (("de", "Pferdchenrennen"), ("fr", "Petits chevaux")):
        table = TableController(Session.in_memory(), clock=lambda: 0.0, language=language)
        table.handle(EncoderTurned(KINDS.index(GAME.kind)))  # the knob down to it
        assert title in " ".join(table.screen().lcd), language
        table.close()
