"""The knob's numbers: a fast turn accelerates, a stake dial starts at the last stake, and the
max bet dial remembers the last croupier's figure across a restart."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from companion.daemon.flows.cards import jockey_number
from companion.devices.base import EncoderTurned
from companion.games.jockey.deck import default_deck
from companion.session.log import BetEntry, LogEntry, SetMaxBet
from companion.session.session import Session
from companion.web.fragments import private_html
from companion.web.state import private_state, public_state
from tests.daemon.test_table_course_hippique import NAMES, deal, shuffled
from tests.daemon.test_table_course_hippique import start as start_course
from tests.daemon.test_table_jockey import bet
from tests.daemon.test_table_jockey import start as start_jockey


def dial(table: Any) -> int:
    found = re.search(r"< (\d+) >", table.lcd)
    assert found is not None, table.lcd
    return int(found[1])


def spin(table: Any, detents: int, seconds_apart: float) -> None:
    """Turn the knob one detent at a time, ``seconds_apart`` between detents."""
    for _ in range(abs(detents)):
        table.now += seconds_apart
        table.send(EncoderTurned(1 if detents > 0 else -1))


def course_to_max_bet(table: Any) -> list[str]:
    start_course(table)
    cards = deal(table, shuffled(random.Random(5)), random.Random(6))
    assert "Anna: max bet" in table.lcd
    return cards


def race_out(table: Any, cards: list[str]) -> None:
    """Turn the cards left until a horse wins."""
    while table.view.phase in ("betting", "racing"):
        table.scan(cards.pop())
    assert table.view.phase == "race_over"


def test_a_slow_turn_steps_by_one_a_fast_turn_by_5_10_50(make_table: Any) -> None:
    table = make_table(Session.in_memory(), NAMES)
    course_to_max_bet(table)
    assert dial(table) == 10
    spin(table, 3, 0.5)  # slow: one chip a detent
    assert dial(table) == 13
    spin(table, 3, 0.1)  # the first detents of a turn are single ones, however brisk
    assert dial(table) == 16
    spin(table, 5, 0.1)  # brisk and going on: 5 a detent, from the next multiple of 5
    assert dial(table) == 40
    spin(table, 6, 0.05)  # fast: 10 a detent; 20 to 100 needs no 80 detents
    assert dial(table) == 100
    spin(table, 4, 0.02)  # very fast: 50 a detent
    assert dial(table) == 300
    table.now += 1.0
    spin(table, -8, 0.02)  # back down: four single detents, then 50 a detent
    assert dial(table) == 100
    spin(table, -1, 1.0)  # one slow detent is one chip again
    assert dial(table) == 99
    spin(table, 3, 0.01)
    table.press("horse1")  # another input between two turns: the next turn starts slow
    spin(table, 2, 0.01)
    assert dial(table) == 104


def test_a_stake_dial_starts_at_the_last_stake_clamped_to_the_max_bet(make_table: Any) -> None:
    table = make_table(Session.in_memory(), NAMES)
    cards = course_to_max_bet(table)
    spin(table, 10, 0.5)  # max bet 20
    table.press("push")
    assert "Ben: bet" in table.lcd and "stake < 1 >" in table.lcd
    table.press("horse1")
    spin(table, 11, 0.5)
    table.press("push")  # Ben stakes 12
    table.press("push")  # Chloé passes
    race_out(table, cards)
    table.press("push")  # race 2: Ben deals
    cards = deal(table, shuffled(random.Random(8)), random.Random(9))
    assert "Ben: max bet" in table.lcd and dial(table) == 20
    spin(table, -12, 0.5)  # max bet 8
    table.press("push")
    table.press("push")  # Chloé passes
    assert "Anna: bet" in table.lcd and dial(table) == 1  # Anna never bet: 1
    table.press("push")
    race_out(table, cards)
    table.press("push")  # race 3: Chloé deals, Anna then Ben bet
    deal(table, shuffled(random.Random(11)), random.Random(12))
    spin(table, 0, 0.5)
    assert dial(table) == 8
    table.press("push")
    table.press("push")  # Anna passes
    assert "Ben: bet" in table.lcd
    assert dial(table) == 8  # Ben's last stake, 12, is over the max bet of 8 now


def test_the_max_bet_is_remembered_across_a_restart(make_table: Any, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    table = make_table(Session.open(path), NAMES)
    cards = course_to_max_bet(table)
    spin(table, 5, 0.5)
    table.press("push")  # max bet 15
    table.press("push", "push")  # Ben and Chloé pass
    race_out(table, cards)
    table.ctl.close()  # killed after race 1

    again = make_table(Session.open(path), NAMES)
    again.press("push")  # race 2
    deal(again, shuffled(random.Random(4)), random.Random(5))
    assert "Ben: max bet" in again.lcd
    assert dial(again) == 15
    again.ctl.close()


def test_jockey_stakes_step_by_hundreds_and_start_at_the_last_stake(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_jockey(table)
    table.press("push")  # a win bet
    table.press("horse1")
    assert dial(table) == 100
    spin(table, 2, 0.5)  # slow: 100 a detent
    assert dial(table) == 300
    spin(table, 6, 0.05)  # 400, 500, 600 then 1000 a detent: up to the most she may stake
    assert dial(table) == 1000 and "max 1000" in table.lcd
    spin(table, -6, 0.5)
    assert dial(table) == 400
    table.press("push")  # Anna stakes 400 on brown
    bet(table, "order", ["blue", "red"], [200, 100])
    rng = random.Random(2)
    while table.view.phase in ("betting", "racing"):
        pile = set(table.view.board.pile)
        unplayed = [c.id for c in default_deck().cards if c.id not in pile]
        table.scan(f"jockey:{jockey_number(rng.choice(unplayed), default_deck())}")
    table.press("push")  # race 2
    assert "Anna: bet" in table.lcd
    table.press("push", "horse4")
    assert dial(table) == 400  # Anna's last stake
    spin(table, 1, 0.5)
    table.press("push")
    table.turn(3)  # order
    table.press("push", "horse1", "horse2")
    assert dial(table) == 200  # Ben's last first stake
    table.press("push")
    assert dial(table) == 100  # and his last second stake


def from_phone(table: Any, entry: LogEntry) -> None:
    """``entry`` made from a player's phone: the pages hand it to the table controller."""
    outcome: list[bool] = []

    def change(ctx: Any) -> Any:
        made, reply = ctx.submit(entry)
        outcome.append(made.accepted)
        return reply

    table.ctl.apply(change)
    assert outcome == [True], entry


def pad_value(table: Any, player: str, field: str) -> int:
    """Where ``player``'s phone starts its number ``field`` (a stake, the max bet) now."""
    session = table.ctl.session
    seat = private_html(player, private_state(session, player), public_state(session))
    found = re.search(rf'name="{field}" type="number"[^>]*value="(\d+)"', seat)
    assert found is not None, seat
    return int(found[1])


def test_the_dials_start_where_the_docs_say_after_inputs_made_from_phones(
    make_table: Any,
) -> None:
    """A max bet and a bet entered from phones count as the panel's do: the next croupier's
    dial starts at that max bet, a bettor's dial at their stake, and each phone's field for
    the same prompt starts where the LCD's dial does."""
    table = make_table(Session.in_memory(), NAMES)
    cards = course_to_max_bet(table)
    assert dial(table) == 10 == pad_value(table, "Anna", "amount")
    from_phone(table, SetMaxBet(15, "Anna"))  # the croupier's pad, the LCD's dial still on 10
    table.press("push")  # Ben passes
    assert "Chloé: bet" in table.lcd and dial(table) == 1 == pad_value(table, "Chloé", "stake")
    from_phone(table, BetEntry("Chloé", "H", 5))  # while the LCD waits for her
    race_out(table, cards)
    table.press("push")  # race 2: Ben deals, then Chloé and Anna bet
    cards = deal(table, shuffled(random.Random(8)), random.Random(9))
    assert "Ben: max bet" in table.lcd
    assert dial(table) == 15 == pad_value(table, "Ben", "amount")
    table.press("push")
    assert "Chloé: bet" in table.lcd
    assert dial(table) == 5 == pad_value(table, "Chloé", "stake")  # her last stake
    table.press("push")  # Chloé passes
    assert "Anna: bet" in table.lcd and dial(table) == 1 == pad_value(table, "Anna", "stake")


def test_a_jockey_phone_s_stakes_start_where_the_lcd_s_dials_do(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_jockey(table)
    assert pad_value(table, "Anna", "stake") == 100 == pad_value(table, "Anna", "stake2")
    from_phone(table, BetEntry("Anna", "brown", 400, "order", "blue", 300))
    bet(table, "win", ["red"], [200])
    rng = random.Random(2)
    while table.view.phase in ("betting", "racing"):
        pile = set(table.view.board.pile)
        unplayed = [c.id for c in default_deck().cards if c.id not in pile]
        table.scan(f"jockey:{jockey_number(rng.choice(unplayed), default_deck())}")
    table.press("push")  # race 2
    assert "Anna: bet" in table.lcd
    table.turn(3)  # order
    table.press("push", "horse1", "horse2")
    assert dial(table) == 400 == pad_value(table, "Anna", "stake")
    table.press("push")
    assert dial(table) == 300 == pad_value(table, "Anna", "stake2")


def test_the_kinds_of_a_jockey_bet_come_in_the_rulebook_s_order_on_the_lcd_and_the_pad(
    make_table: Any,
) -> None:
    table = make_table(Session.in_memory())
    start_jockey(table)
    knob = []
    for _ in range(4):
        found = re.search(r"Kind: < (\w+) >", table.lcd)
        assert found is not None, table.lcd
        knob.append(found[1])
        table.turn(1)
    session = table.ctl.session
    seat = private_html("Anna", private_state(session, "Anna"), public_state(session))
    form = seat[seat.index('data-type="bet"') :]
    kinds = form[: form.index("</fieldset>")]
    pad = re.findall(r'<button type="button" class="chip" value="(\w+)"', kinds)
    assert knob == pad == ["win", "double", "place", "order"]  # the rulebook's bets, in order
