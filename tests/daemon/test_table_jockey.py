"""Jockey at the table: secret bets, scanned cards, what a card did, settlements, three races."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.daemon.flows.cards import jockey_card, jockey_number, playing_card
from companion.devices.base import ButtonHeld, Tone
from companion.devices.cards_file import card_label, deck_cards
from companion.games.jockey.deck import default_deck
from companion.render.leds import colour
from companion.render.screen import Cue, Screen
from companion.session.session import Session

NAMES = ("Anna", "Ben")
HORSES = ("brown", "yellow", "blue", "red")
KINDS = ("win", "double", "place", "order")


def tones(cues: Sequence[Cue]) -> list[Tone]:
    return [c.tone for c in cues if c.tone is not None]


def start(table: Any) -> None:
    table.press("horse3", "push", "push")  # Jockey, 2 players, the 80-square track
    assert table.view.game == "jockey"


def bet(table: Any, kind: str, horses: Sequence[str], stakes: Sequence[int]) -> None:
    """Enter a bet as a player does: kind, horse buttons, each stake in hundreds."""
    table.turn(KINDS.index(kind))
    table.press("push")
    for horse in horses:
        table.press(f"horse{HORSES.index(horse) + 1}")
    for stake in stakes:
        dial = re.search(r"< (\d+) >", table.lcd)
        assert dial is not None, table.lcd
        table.turn((stake - int(dial[1])) // 100)  # the dial starts at the last stake
        table.press("push")


def number_of(card_id: str) -> str:
    number = jockey_number(card_id, default_deck())
    assert number is not None
    return f"jockey:{number}"


def test_the_readers_card_names_are_the_engines_cards_in_deck_order() -> None:
    deck = default_deck()
    names = [c.name for c in deck_cards("jockey")]
    assert len(names) == len(deck.cards) == 54
    for name, card in zip(names, deck.cards, strict=True):
        assert jockey_card(name, deck) == card.id
        label = card_label(name)
        assert label is not None and label.startswith(card.label + " (")
    assert jockey_card("jockey:red+7#2", deck) == "red+7#2"
    assert jockey_card("jockey:55", deck) is None
    assert jockey_card("QS", deck) is None
    assert playing_card("10h") == "10H" and playing_card("jockey:3") is None


def test_a_whole_game_of_three_races(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start(table)
    rng = random.Random(4)
    for race in (1, 2, 3):
        assert "Anna: bet" in table.lcd and f"Race {race}/3: bets" in table.lcd
        bet(table, "win", ["red"], [300])
        assert "Ben: bet" in table.lcd
        bet(table, "order", ["blue", "red"], [200, 100])
        starter = NAMES[(race - 1) % 2]
        assert table.screen.lcd[0].startswith(f"{starter}'s card")
        assert table.screen.lcd[2] == "Scan the card played"
        cues: list[Cue] = []
        while table.view.phase == "racing" or not cues:
            pile = set(table.view.board.pile)
            unplayed = [c.id for c in default_deck().cards if c.id not in pile]
            turn = table.view.turn
            cues = table.scan(number_of(rng.choice(unplayed)))
            effect = table.view.board.last_effect
            if table.view.phase == "racing":
                assert table.view.turn != turn
                if effect.blocked:
                    assert "moved nothing" in table.said
                else:
                    square = table.view.board.progress[effect.horse]
                    led = table.ctl.ctx.layouts.track("jockey").led(min(square, 81))
                    assert led is not None
                    lit = table.screen.leds[led]
                    assert lit in (colour(effect.horse), (200, 200, 200))
        assert Tone.FINISH in tones(cues)
        result = table.view.board.results[-1]
        assert f"{result.first} 1st" in table.said
        table.wait()
        total = 3 + (race == 3)  # the race, Anna, Ben (and the ranking first)
        if race == 3:
            assert table.screen.lcd[0] == "Game over!       1/4"
            ranking = table.view.board.ranking
            winners = [r.player for r in ranking if r.place == 1]
            assert table.screen.lcd[1] == (
                f"Winner: {winners[0]}" if len(winners) == 1 else "Winners: Anna, Ben"
            )
            assert table.screen.lcd[2] == f"1. {ranking[0].player} {ranking[0].balance}"
            table.turn(1)
        page = 1 + (race == 3)
        assert table.screen.lcd[0] == f"Race {race} over      {page}/{total}"
        first, second = f"1st {result.first}", f"2nd {result.second}"
        assert table.screen.lcd[1] == f"{first:<{19 - len(second)}} {second}"
        table.turn(1)
        anna = result.payouts[0]
        assert table.screen.lcd[0] == f"Anna             {page + 1}/{total}"
        assert table.screen.lcd[1] == "win red 300"
        change = f"{anna.change:+d}" + (" shared" if anna.shared else "")
        assert table.screen.lcd[2] == f"{change} →{anna.balance}"
        markers = table.view.board.markers["Anna"].columns()
        assert table.screen.lcd[3].endswith(f":{markers[-1][1]}")
        table.turn(1)
        assert table.screen.lcd[1] == "order Bl 200, Re 100"
        table.press("push")
        table.wait()
    assert "Choose a game" in table.lcd


def test_a_card_that_moves_nothing_says_why(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start(table)
    bet(table, "place", ["brown"], [100])
    bet(table, "double", ["red", "blue"], [100])
    cues = table.scan(number_of("brown-lead#1"))
    assert tones(cues) == [Tone.ACCEPTED]
    assert "brown lead x3 moved nothing: brown does not lead alone." in table.said
    assert table.view.turn == "Ben"
    cues = table.scan(number_of("red+7#1"))
    assert [c.move.path for c in cues if c.move] == [(1, 2, 3, 4)]
    # Who is next on top, who played what below it: Ben played red +7, Anna plays next.
    assert table.screen.lcd[0] == "Next: Anna  Race 1/3"
    assert table.screen.lcd[2:] == ("Ben: red +7", "red 0 to 7")
    table.scan(number_of("brown-lead#2"))
    table.wait()
    assert table.screen.lcd[0].startswith("Next: Ben ")
    assert table.screen.lcd[2:] == ("Anna: brown lead x3", "No move: lead shared")


def test_a_card_played_twice_and_strange_cards_are_refused(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start(table)
    bet(table, "win", ["red"], [100])
    bet(table, "win", ["blue"], [100])
    table.scan(number_of("red+7#1"))
    before = table.ctl.session.accepted()
    cues = table.scan(number_of("red+7#1"))
    assert tones(cues) == [Tone.REFUSED]
    assert "That card was already played this race." in table.said
    table.scan("QS")
    assert "Not a Jockey card" in table.said
    table.scan(None)
    assert "Unknown card: enroll it, then scan it again." in table.said
    assert table.ctl.session.accepted() == before


def test_no_card_is_played_before_every_bet_is_in(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start(table)
    bet(table, "win", ["red"], [100])
    cues = table.scan(number_of("red+7#1"))
    assert tones(cues) == [Tone.REFUSED]
    assert "Waiting for bets from Ben." in table.said


def entry_screens(make_table: Any, horses: Sequence[str]) -> list[Screen]:
    table = make_table(Session.in_memory())
    start(table)
    table.turn(3)  # order
    table.press("push")
    shots = []
    for horse in horses:
        table.press(f"horse{HORSES.index(horse) + 1}")
        shots.append(table.screen)
    table.turn(2)
    table.press("push")
    table.press("push")
    shots.append(table.screen)
    table.wait()
    shots.append(table.screen)
    return shots


def test_a_bet_is_entered_without_its_horses_showing_and_sealed_as_stars(make_table: Any) -> None:
    first = entry_screens(make_table, ["red", "blue"])
    other = entry_screens(make_table, ["brown", "yellow"])
    assert first == other
    assert "order: * _" in "\n".join(first[0].lcd)
    assert "Anna: bet sealed ***" in "\n".join(first[2].lcd)
    for screen in first:
        text = " ".join(screen.lcd).lower()
        assert not any(horse in text for horse in HORSES)


def test_holding_undo_steps_back_through_a_bet_then_takes_back_a_card(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start(table)
    table.turn(1)  # double
    table.press("push", "horse1", "horse2")
    assert "Stake: < 100 >" in table.lcd
    table.send(ButtonHeld("undo"))
    table.wait()
    assert "double: * _" in table.lcd
    table.press("horse4")
    table.press("push")
    bet(table, "win", ["blue"], [500])
    bets = table.ctl.session.table
    assert bets is not None
    anna = bets.binding.private("Anna").bet
    assert (anna.kind, anna.horses, anna.stakes) == ("double", ("brown", "red"), (100,))
    table.scan(number_of("blue+10#1"))
    assert table.view.board.progress["blue"] == 10
    table.send(ButtonHeld("undo"))
    assert table.view.board.progress["blue"] == 0
    assert table.view.turn == "Anna"


@pytest.mark.parametrize("stop_after", [1, 3])
def test_after_a_restart_the_race_goes_on(make_table: Any, tmp_path: Path, stop_after: int) -> None:
    path = tmp_path / "journal.sqlite"
    table = make_table(Session.open(path))
    start(table)
    bet(table, "win", ["red"], [300])
    if stop_after == 1:
        table.ctl.close()
        table = make_table(Session.open(path))
        assert "Ben: bet" in table.lcd
    bet(table, "place", ["blue"], [200])
    for card in ("red+10#1", "blue+7#1", "red+7#1"):
        table.scan(number_of(card))
    leds = table.screen.leds
    table.ctl.close()

    again = make_table(Session.open(path))
    assert again.view.board.progress == {"brown": 0, "yellow": 0, "blue": 7, "red": 17}
    assert again.screen.leds == leds
    assert again.screen.lcd[0].startswith("Next: Ben ")
    assert again.screen.lcd[2] == "Anna: red +7"
    again.ctl.close()
