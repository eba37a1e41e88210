"""The pages speak the table's language: the player's, scoreboard and host pages in French
and German, drawn the way the daemon draws them, and again in the new language once the
table's language changes."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.render.language import say, speaking
from companion.session.session import Session
from companion.web.hub import Hub, PageSocket
from companion.web.inputs import seat_entry, seat_request
from companion.web.joins import Joins
from companion.web.pages import host_page, join_page, play_page, scoreboard_page
from companion.web.seats import HOST, SeatBook
from companion.web.side import TableSide
from companion.web.words import script_words
from tests.quiet import Quiet


def table_side(language: str, game: str, players: list[str]) -> TableSide:
    """A table speaking ``language`` with ``game`` on, Anna's phone and the host's seated."""
    now = [100.0]
    controller = TableController(Session.in_memory(), clock=lambda: now[0], language=language)
    controller.session.new_game(game, players)
    daemon = Daemon(controller, Panel(), [], Quiet(), clock=lambda: now[0])
    seats = SeatBook(None)
    side = TableSide(daemon, controller, seats, Joins(lambda: now[0]), Hub(), "10.0.0.2:8080")
    seats.follow(controller.session.game_id)
    seats.issue("Anna")
    seats.issue(HOST)
    return side


def pages(side: TableSide) -> dict[str, str]:
    """The three live pages as the app serves them (in the table's language)."""
    snap = side.drawn()
    with speaking(side.language):
        return {
            "play": play_page(snap.public, snap.private["Anna"]),
            "board": scoreboard_page(snap.public),
            "host": host_page(snap.public, snap.host),
        }


def text(html: str) -> str:
    """What a reader sees: the page without its markup."""
    return unescape(re.sub(r"<[^>]+>", " ", html))


#: Words each page must say in each language, and English it must no longer say.
SAID = {
    "fr": {
        "play": [
            "Vous êtes Anna",
            "Sceller mon pronostic",
            "Phase\u202f: pronostics",  # a narrow no-break space before the colon
        ],
        "board": ["Tableau des scores", "course 1", "joueur", "connexion…"],
        "host": ["Nouvelle partie", "Joueurs (un nom par ligne)", "Annuler la dernière saisie"],
    },
    "de": {
        "play": ["Du bist Anna", "Meinen Tipp versiegeln", "Phase: Tipps"],
        "board": ["Anzeigetafel", "Rennen 1", "Spieler", "verbinde…"],
        "host": ["Neues Spiel", "Spieler (ein Name pro Zeile)", "Letzte Eingabe zurücknehmen"],
    },
}
ENGLISH = ["You are", "Seal my prediction", "Scoreboard", "New game", "Undo the last input",
           "race 1", "connecting…", "Players (one name a line)"]  # fmt: skip


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_pages_speak_the_tables_language(language: str) -> None:
    drawn = pages(table_side(language, "jumpy_jack", ["Anna", "Bob"]))
    for kind, html in drawn.items():
        assert f'<html lang="{language}">' in html
        seen = text(html)
        for words in SAID[language][kind]:
            assert words in seen, f"{language} {kind}: {words!r} not shown"
        left = [english for english in ENGLISH if english in seen]
        assert not left, f"{language} {kind} still says {left}"


def test_the_game_words_come_from_each_games_tradition() -> None:
    french = pages(table_side("fr", "course_hippique", ["Anna", "Bob", "Chloé"]))
    said = text(french["play"]) + text(french["board"])
    assert "Croupier\u202f: Anna" in said and "cote" in said and "mise maximale" in said
    german = pages(table_side("de", "jockey", ["Anna", "Bob"]))
    said = text(german["play"])
    assert "Einsatz" in said and "Wette abgeben" in said and "Art der Wette" in said


def test_the_scripts_words_come_from_the_server_in_the_tables_language() -> None:
    with speaking("de"):
        words = json.loads(script_words())
        join = join_page(["Anna"], frozenset(), host=False)
    assert words["reconnecting"] == "verbinde neu…" and words["done"] == "Erledigt."
    shown = re.search(r'data-words="([^"]*)"', join)
    assert shown is not None and json.loads(unescape(shown.group(1))) == words
    assert "Beitrittscode" in text(join) and "Join code" not in text(join)


def test_a_language_chosen_at_the_table_reaches_the_next_page_update() -> None:
    side = table_side("fr", "jumpy_jack", ["Anna", "Bob"])
    connection = PageSocket(socket=None, seat="Anna", host=False)  # type: ignore[arg-type]
    side.drawn()
    first = json.loads(side.hub.message(connection) or "{}")
    assert first["lang"] == "fr" and "Vous êtes Anna" in first["private"]
    side.controller.ctx.language = "de"  # what the menu's language row does
    side.refresh()
    side.drawn()
    update = json.loads(side.hub.message(connection) or "{}")
    assert update["lang"] == "de"  # the page, drawn in French, loads itself again in German
    assert "Du bist Anna" in update["private"] and "Vous êtes" not in update["private"]
    assert "Rennen 1" in update["public"]


def test_a_refusal_on_a_page_is_said_in_the_tables_language() -> None:
    side = table_side("fr", "jumpy_jack", ["Anna", "Bob"])
    session = side.controller.session
    entry = seat_entry(seat_request("Anna", {"type": "predict", "horses": ["red"] * 3}), session)
    assert not session.submit(entry).accepted
    private = side.drawn().private["Anna"]
    refusal = re.search(r'<p class="refusal" role="alert">([^<]+)</p>', private)
    assert refusal is not None
    message = session.private_view("Anna").last_refusal.message  # type: ignore[union-attr]
    assert message is not None
    with speaking("fr"):
        french = say(message)
    with speaking("en"):
        english = say(message)
    assert unescape(refusal.group(1)) == french != english
