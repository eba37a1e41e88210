"""Which horse button is which horse: on the LCD and the OLED where a horse is chosen, and on
the strip at the start, each horse on its own LED in button order."""

from __future__ import annotations

import random
from typing import Any

from companion.render.leds import colour
from companion.session.session import Session
from tests.daemon.test_table_course_hippique import NAMES, deal, shuffled
from tests.daemon.test_table_course_hippique import start as start_course
from tests.daemon.test_table_jockey import start as start_jockey
from tests.daemon.test_table_jumpy_jack import HORSES, predict, start_jumpy

KEY = "1Re 2Bl 3Gr 4Ye 5Wh"


def test_jumpy_jack_shows_the_buttons_while_predicting_and_moving(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_jumpy(table)
    table.wait()
    assert table.screen.lcd[0] == KEY
    assert table.screen.lcd[1] == "Anna: predict"
    assert table.screen.oled.lines == ("Anna", "predicts", "1Re 2Bl 3Gr", "4Ye 5Wh")
    # The strip: every horse waits at the start, each on its own LED in button order.
    start_leds = table.ctl.ctx.layouts.track("jumpy_jack").start
    assert start_leds == (0, 1, 3, 5, 7)
    for led, horse in zip(start_leds, HORSES, strict=True):
        assert table.screen.leds[led] == colour(horse)
    predict(table, "red", "blue", "green")
    predict(table, "blue", "red", "white")
    table.roll(3)
    assert table.screen.lcd[1:3] == ("Move any horse", KEY)
    table.press("horse3")  # green leaves the start: the others share the start square now
    assert table.screen.leds[1] == (0, 0, 0)
    assert table.screen.leds[6] == colour("green")


def test_jockey_shows_the_buttons_while_a_bet_names_its_horses(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_jockey(table)
    table.press("push")  # a win bet: now its horse
    assert table.screen.lcd[0] == "1Br 2Ye 3Bl 4Re"
    assert table.screen.lcd[3] == "Press its horse"
    assert table.screen.oled.lines == ("Anna", "bets", "1Br 2Ye", "3Bl 4Re")


def test_course_hippique_shows_the_buttons_on_the_oled_while_betting(make_table: Any) -> None:
    table = make_table(Session.in_memory(), NAMES)
    start_course(table)
    deal(table, shuffled(random.Random(5)), random.Random(6))
    table.press("push")  # the max bet
    assert "Ben: bet" in table.lcd
    assert table.screen.oled.lines == ("Ben", "bets", "1♠ 2♥ 3♦ 4♣")
    # The odds row, in button order, is the key on the LCD.
    assert table.screen.lcd[0].startswith("♠") and table.screen.lcd[0].index("♣") > 12
