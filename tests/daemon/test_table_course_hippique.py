"""Course hippique at the table: the croupier's scans, odds and chances, sealed bets, the race."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.devices.base import ButtonHeld, Tone
from companion.games.cards import Suit
from companion.games.course_hippique import CARDS_PER_SUIT, win_probabilities
from companion.render.leds import SUIT_COLOURS
from companion.render.screen import Cue, Screen
from companion.session.session import Session

NAMES = ("Anna", "Ben", "Chloé")
SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def marked(text: str, mark: str, width: int = 20) -> str:
    """``text`` at the start of a row and ``mark`` (a page number, a figure) at its end."""
    return f"{text:<{width - len(mark) - 1}} {mark}"


def tones(cues: Sequence[Cue]) -> list[Tone]:
    return [c.tone for c in cues if c.tone is not None]


def shuffled(rng: random.Random) -> list[str]:
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    rng.shuffle(cards)
    return cards


def start(table: Any) -> None:
    table.press("horse2", "push", "push")  # Course hippique, 3 players, options as they are
    assert table.view.game == "course_hippique"


def deal(table: Any, cards: list[str], rng: random.Random) -> list[str]:
    """Scan course cards until the course stands (dealing again after a redeal)."""
    while table.view.phase in ("dealing", "redeal"):
        if table.view.phase == "redeal":
            cards = shuffled(rng)
        table.scan(cards.pop())
    return cards


def test_a_whole_game_three_races_with_a_rotating_croupier(make_table: Any) -> None:
    table = make_table(Session.in_memory(), NAMES)
    start(table)
    rng = random.Random(11)
    for race, croupier in enumerate(NAMES, start=1):
        assert table.screen.lcd[0].startswith(f"Race {race}/3")
        assert table.screen.lcd[0].endswith(f"bank {croupier}")
        assert "Scan course card 1/7" in table.lcd
        cards = deal(table, shuffled(rng), rng)
        # The odds and, on the OLED, each horse's exact chance of winning.
        odds = {s.letter: o for s, o in table.view.board.odds.items()}
        assert table.screen.lcd[0] == " ".join(
            f"{s}{odds[k]}:1" for s, k in zip("♠♥♦♣", SUITS, strict=True)
        )
        chances = [float(re.findall(r"([\d.]+)%", line)[0]) for line in table.screen.oled.lines]
        assert abs(sum(chances) - 100) < 0.5
        # The dial starts on 10, then on the last race's max bet.
        assert f"{croupier}: max bet" in table.lcd
        assert ("< 10 >" if race == 1 else "< 15 >") in table.lcd
        if race == 1:
            table.turn(5)
        table.press("push")
        assert table.view.board.max_bet == 15
        bettors = [p for p in NAMES if p != croupier]
        first, second = (NAMES[(NAMES.index(croupier) + i) % 3] for i in (1, 2))
        assert sorted([first, second]) == sorted(bettors)
        assert f"{first}: bet" in table.lcd
        table.press("horse2")  # hearts
        table.turn(2)  # stake 3
        assert "stake < 3 >" in table.lcd
        table.press("push")
        assert f"{second}: bet" in table.lcd
        table.press("push")  # no horse: no bet
        assert f"{croupier}: turn cards" in table.lcd
        assert "1 bet: ***" in table.lcd
        while table.view.phase in ("betting", "racing"):
            cues = table.scan(cards.pop())
            positions = {s.letter: at for s, at in table.view.board.positions.items()}
            for suit in SUITS:
                if positions[suit] < table.view.board.finish:
                    led = table.ctl.ctx.layouts.lanes("course_hippique").led(suit, positions[suit])
                    assert led is not None and table.screen.leds[led] == SUIT_COLOURS[suit]
        assert Tone.FINISH in tones(cues)
        winner = table.view.board.winner.letter
        assert "wins race" in table.screen.lcd[0] or "win!" in table.lcd
        result = table.view.board.results[-1]
        change = result.change(first)
        assert change == (3 * odds["H"] if winner == "H" else -3)
        table.wait()
        pages = 3  # the race, the one bet revealed, the chips
        if race == 3:
            assert table.screen.lcd[0] == marked("Game over!", "1/5")
            top = [r.player for r in table.view.board.ranking if r.place == 1]
            assert table.screen.lcd[1] == (
                f"Winner: {top[0]}" if len(top) == 1 else f"Winners: {', '.join(top)}"
            )
            table.turn(2)  # after the winner and the ranking: the last race
        page = 3 if race == 3 else 1
        total = pages + 2 * (race == 3)
        symbol = "♠♥♦♣"[SUITS.index(winner)]
        assert table.screen.lcd[0] == marked(f"{symbol} wins race {race}!", f"{page}/{total}")
        assert table.screen.lcd[3] == ("Push: menu" if race == 3 else f"Push: race {race + 1}")
        assert f"{first} {'+' if change > 0 else ''}{change}" in table.screen.lcd[2]
        table.turn(1)  # the bets revealed
        assert table.screen.lcd[0] == marked(f"{first}: ♥ 3", f"{page + 1}/{total}")
        assert table.screen.lcd[1] == f"  {'won' if change > 0 else 'lost'} {abs(change)}"
        table.turn(1)  # the chips
        balances = table.view.board.balances
        assert table.screen.lcd[0] == marked("Chips", f"{page + 2}/{total}")
        assert table.screen.lcd[1:] == tuple(
            marked(name, str(balances[name]), 20) for name in NAMES
        )
        if race < 3:
            table.press("push")
            table.wait()
    assert table.view.phase == "game_over"
    table.turn(-4)
    ranking = table.view.board.ranking
    assert table.screen.lcd[0] == marked("Game over!", "1/5")
    assert table.screen.lcd[2] == f"1. {ranking[0].player} {ranking[0].chips}"
    table.turn(1)
    assert table.screen.lcd[:2] == (
        marked("Ranking", "2/5"),
        f"3. {ranking[2].player} {ranking[2].chips}",
    )
    assert sum(r.chips for r in ranking) == 300
    table.press("push")
    assert "Choose a game" in table.lcd


def test_five_of_a_suit_in_the_course_calls_a_redeal(make_table: Any) -> None:
    table = make_table(Session.in_memory(), NAMES)
    start(table)
    for card in ("2H", "3H", "4H", "5H", "6H", "7S"):
        table.scan(card)
    cues = table.scan("8D")
    assert table.view.phase == "redeal"
    assert tones(cues) == [Tone.REFUSED]
    assert "Redeal: 5 ♥ dealt" in table.lcd
    assert "Redeal: 5 hearts in the course." in table.said
    table.wait()
    assert "Shuffle, scan a new" in table.lcd
    table.scan("2H")
    assert table.view.phase == "dealing"
    assert [c and c.code for c in table.view.board.course[:2]] == ["2H", None]
    assert "Scan course card 2/7" in table.lcd


def test_an_unknown_card_changes_nothing_and_asks_to_enroll_it(make_table: Any) -> None:
    table = make_table(Session.in_memory(), NAMES)
    start(table)
    before = table.ctl.session.accepted()
    cues = table.scan(None)
    assert tones(cues) == [Tone.REFUSED]
    assert "Unknown card: enroll it, then scan it again." in table.said
    assert table.ctl.session.accepted() == before
    table.scan("jockey:7")
    assert "Not a playing card" in table.said
    table.scan("AS")
    assert "Aces are the horses" in table.said
    assert table.ctl.session.accepted() == before


def bet_screens(make_table: Any, horse: str) -> list[Screen]:
    table = make_table(Session.in_memory(), NAMES)
    start(table)
    for card in ("2H", "3S", "4D", "5C", "6H", "7S", "8D"):
        table.scan(card)
    table.press("push")
    table.wait()
    shots = []
    table.press(horse)
    shots.append(table.screen)
    table.turn(4)
    shots.append(table.screen)
    table.press("push")
    shots.append(table.screen)
    table.wait()
    shots.append(table.screen)
    return shots


def test_a_bet_never_shows_its_horse(make_table: Any) -> None:
    hearts, spades = bet_screens(make_table, "horse2"), bet_screens(make_table, "horse1")
    assert hearts == spades
    assert "Horse *" in "\n".join(hearts[0].lcd)
    assert "Ben: bet sealed ***" in "\n".join(hearts[2].lcd)
    # Ben's stake of 5 is gone from the LCD: Chloé's entry starts afresh.
    assert "Chloé: bet" in "\n".join(hearts[3].lcd)
    assert "< 5 >" not in "\n".join(hearts[3].lcd)


def test_cards_wait_for_the_bets_and_undo_takes_back_a_pass_then_a_bet(make_table: Any) -> None:
    table = make_table(Session.in_memory(), NAMES)
    start(table)
    for card in ("2H", "3S", "4D", "5C", "6H", "7S", "8D"):
        table.scan(card)
    before = table.ctl.session.accepted()
    table.scan("9H")
    assert "The croupier has not announced the max bet yet." in table.said
    table.press("push")
    table.press("horse3", "push")
    assert "Chloé: bet" in table.lcd
    table.scan("9H")
    assert "Bets first: Chloé to bet or pass." in table.said
    assert len(table.ctl.session.accepted()) == len(before) + 2
    table.press("push")  # Chloé passes
    assert "Anna: turn cards" in table.lcd
    table.send(ButtonHeld("undo"))
    table.wait()
    assert "Chloé: bet" in table.lcd
    table.send(ButtonHeld("undo"))
    table.wait()
    assert "Ben: bet" in table.lcd
    assert table.view.sealed == ()
    table.press("horse1")
    table.send(ButtonHeld("undo"))
    table.wait()
    assert "Horse -" in table.lcd


def test_after_a_restart_the_bets_and_the_race_go_on(make_table: Any, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    table = make_table(Session.open(path), NAMES)
    start(table)
    for card in ("2H", "3S", "4D", "5C", "6H", "7S", "8D"):
        table.scan(card)
    table.press("push")
    table.press("horse3", "push")
    table.ctl.close()

    again = make_table(Session.open(path), NAMES)
    assert "Chloé: bet" in again.lcd
    again.press("horse4", "push")
    again.scan("9C")
    leds = again.screen.leds
    again.ctl.close()

    third = make_table(Session.open(path), NAMES)
    assert third.view.phase == "racing"
    assert third.screen.leds == leds
    assert "Turned 9♣" in third.lcd
    assert third.screen.lcd[3] == "Game resumed."
    third.wait()
    assert third.screen.lcd[3] == "Ben ♦1 Chloé ♣1"
    third.ctl.close()


def test_the_chances_shown_follow_the_race_card_by_card(make_table: Any) -> None:
    table = make_table(Session.in_memory(), NAMES)
    start(table)
    rng = random.Random(5)
    cards = deal(table, shuffled(rng), rng)
    table.press("push")  # the max bet as the dial stands
    table.press("push", "push")  # no bets
    seen_chances: set[tuple[str, ...]] = set()
    while table.view.phase in ("betting", "racing"):
        board = table.view.board
        seen = [*(c.code for c in board.course if c), *(c.code for c in board.turned)]
        need = {s: board.finish - board.positions[s] for s in Suit}
        left = {s: CARDS_PER_SUIT - sum(1 for c in seen if c.endswith(s.letter)) for s in Suit}
        exact = win_probabilities(need, left)
        expected = tuple(f"{float(exact[s]) * 100:.1f}%" for s in Suit)
        shown = tuple(line.split()[-1] for line in table.screen.oled.lines)
        # What the OLED says is the race as it stands now, not as it stood the last time the
        # horses were in the same place.
        assert shown == expected, (shown, expected)
        seen_chances.add(shown)
        table.scan(cards.pop())
    assert len(seen_chances) > 3
