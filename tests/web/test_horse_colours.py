"""One colour per horse everywhere: on every page, through whole seeded games of every
built-in game, each horse's mark (its disc on the TV's track, its lane's bar, its chip on a
pad, a sealed bet's disc, the disc on a card of a card picker) has the colour the LED strip
lights it in; and the TV's reveal of a Course hippique race says what each player won or
lost, as the LCD does (``Benoît +20 Chloé -5``)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from companion.games.colours import RGB
from companion.games.course_hippique import CourseHippiqueBoard
from companion.games.jockey import JockeyOptions
from companion.games.jumpy_jack import JumpyJackBoard
from companion.render.jockey import horse_rgb
from companion.render.jumpy_jack import horse_colour as jumpy_rgb
from companion.render.language import figure, speaking
from companion.render.leds import SUIT_COLOURS
from companion.web.fragments import private_html
from companion.web.state import private_state, public_state
from tests.web.tv import Race

#: Each kind of mark, and how it names its horse (a horse, a card code) and its colour.
MARKS = {
    "track": re.compile(r'data-horse="([^"]+)"[^>]*>.*?<circle r="[\d.]+" fill="(#[0-9a-f]{6})"'),
    "chip": re.compile(
        r'class="chip" value="([^"]+)"[^>]*><svg class="dot"[^>]*>'
        r'<circle [^>]*fill="(#[0-9a-f]{6})"'
    ),
    "move": re.compile(
        r'name="horse" value="([^"]+)"><button[^>]*><svg class="dot"[^>]*>'
        r'<circle [^>]*fill="(#[0-9a-f]{6})"'
    ),
    "card": re.compile(
        r'<button [^>]*value="([^"]+)"><svg class="dot"[^>]*><circle [^>]*fill="(#[0-9a-f]{6})"'
    ),
}
LANE = re.compile(r'<div class="lane">.*?<rect [^>]*fill="([^"]+)"')


def hex_of(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def jockey_card_horse(kind: str) -> str | None:
    """The horse a Jockey card of ``kind`` moves (None for a neutral card)."""
    deck = JockeyOptions.from_data({}).deck
    card = next(c for c in deck.cards if c.id.split("#")[0] == kind)
    return None if card.colour is None else str(card.colour)


#: Each game: how many players, the LED colour of a horse, the horse a card moves.
GAMES: dict[str, tuple[int, Callable[[Race, str], RGB], Callable[[str], str | None]]] = {
    "jumpy_jack": (
        3,
        lambda race, horse: jumpy_rgb(board_of(race, JumpyJackBoard), horse),
        lambda card: None,
    ),
    "course_hippique": (3, lambda race, horse: SUIT_COLOURS[horse], lambda card: card[-1]),
    "jockey": (3, lambda race, horse: horse_rgb(horse), jockey_card_horse),
}


def board_of(race: Race, kind: type) -> object:
    board = race.session.view().board
    assert isinstance(board, kind)
    return board


def horses_in_order(race: Race) -> list[str]:
    """The horses in the order their lanes are drawn."""
    board = race.session.view().board
    if isinstance(board, JumpyJackBoard):
        return [h.name for h in board.horses]
    if isinstance(board, CourseHippiqueBoard):
        return [s.letter for s in board.positions]
    return [str(h) for h in board.progress]  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_horse_has_its_led_colour_on_every_page(kind: str) -> None:
    count, led, card_horse = GAMES[kind]
    race = Race(kind, "fr", 5, ("Anna", "Benoît", "Chloé")[:count])
    seen: dict[str, int] = dict.fromkeys([*MARKS, "lane"], 0)
    wrong: set[str] = set()
    for _ in race.until(lambda s: bool(s.view().finished)):
        with speaking("fr"):
            public = public_state(race.session)
            pages = [race.drawn()] + [
                private_html(p, private_state(race.session, p), public)
                for p in race.session.view().players
            ]
        for html in pages:
            for mark, pattern in MARKS.items():
                for name, fill in pattern.findall(html):
                    horse = card_horse(name) if mark == "card" else name
                    if mark == "card" and horse is None:
                        continue
                    if mark == "chip" and name in race.session.view().players:
                        continue  # a whose-prediction chip: a player, no horse
                    seen[mark] += 1
                    want = hex_of(led(race, horse))  # type: ignore[arg-type]
                    if fill != want:
                        wrong.add(f"{mark} {name}: {fill}, not the LEDs' {want}")
            lanes = LANE.findall(html)
            if lanes:
                seen["lane"] += 1
                want = [hex_of(led(race, h)) for h in horses_in_order(race)]
                if lanes[: len(want)] != want:
                    wrong.add(f"lanes {lanes} not the LEDs' {want}")
    assert not wrong, sorted(wrong)
    needed = {"track", "lane", "chip", "move" if kind == "jumpy_jack" else "card"}
    assert all(seen[mark] for mark in needed), seen


def test_the_tv_says_what_each_player_won_at_a_course_hippique_race_s_end() -> None:
    race = Race("course_hippique", "en", 2, ("Anna", "Benoît", "Chloé"))
    list(race.until(lambda s: s.view().to_json()["phase"] in ("race_over", "game_over")))
    board = board_of(race, CourseHippiqueBoard)
    assert isinstance(board, CourseHippiqueBoard)
    last = board.results[-1]
    html = race.drawn()
    table = re.search(r'<table class="scores">(.*?)</table>', html)
    assert table is not None
    rows = {
        cells[0]: cells[-1]
        for cells in (
            re.findall(r"<t[dh]>([^<]*)</t[dh]>", r) for r in table.group(1).split("<tr>")
        )
        if cells
    }
    assert rows["player"] == "change"
    for player in ("Anna", "Benoît", "Chloé"):
        change = last.change(player)
        with speaking("en"):
            assert rows[player] == figure(change, signed=change != 0), (player, rows)
