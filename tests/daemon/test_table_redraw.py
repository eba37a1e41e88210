"""The table draws a game's picture again only when something it shows changed (the session's
view, the entry being made, the language): a press that changes nothing costs no drawing, and
the glass never keeps a picture that is out of date."""

from __future__ import annotations

from typing import Any

from companion.render.language import _, speaking
from companion.render.memo import last_drawn
from companion.session.session import Session
from tests.daemon.test_table_jumpy_jack import barrage_on_three, predict, start_jumpy


def test_a_drawing_is_done_once_for_the_same_arguments_in_the_same_language() -> None:
    drawn: list[int] = []

    @last_drawn
    def draw(race: int) -> tuple[str, int]:
        drawn.append(race)
        return _("Taken back."), race

    assert draw(1) == ("Taken back.", 1)
    assert draw(1) == ("Taken back.", 1)
    assert drawn == [1]
    with speaking("fr"):
        assert draw(1) == ("Repris.", 1)
    assert draw(2) == ("Taken back.", 2)
    assert drawn == [1, 1, 2]


def test_a_press_that_changes_nothing_leaves_the_picture_and_a_secret_horse_counts(
    make_table: Any,
) -> None:
    table = make_table(Session.in_memory())
    start_jumpy(table)
    table.wait()
    before = table.screen
    table.press("undo")  # a short touch of undo does nothing
    assert table.screen == before
    predict(table, "red")  # the prediction's first horse: the count on the LCD moves on
    assert table.screen.lcd != before.lcd
    predict(table, "blue")
    again = make_table(Session.in_memory())
    start_jumpy(again)
    predict(again, "red", "blue")
    table.wait()
    again.wait()
    assert table.screen == again.screen


def test_a_table_whose_language_changes_shows_the_same_game_in_the_new_one(
    make_table: Any,
) -> None:
    table = make_table(Session.in_memory())
    start_jumpy(table)
    predict(table, "red")
    table.wait()
    assert table.screen.lcd[1:] == ("Anna: predict", "1st 2nd 3rd: * _ _", "Next: Ben")
    table.ctl.ctx.language = "fr"  # as the options menu does; the game itself is unchanged
    session = Session.in_memory()
    session.new_game("jumpy_jack", ["Anna", "Ben"])
    french = make_table(session, language="fr")
    predict(french, "red")
    french.wait()
    assert table.screen == french.screen
    assert table.screen.lcd[1:] == ("Anna: pronostic", "1er 2e 3e: * _ _", "Puis: Ben")


def test_a_refused_press_draws_nothing_of_the_game_and_the_phones_still_learn_why(
    make_table: Any,
) -> None:
    table = make_table(barrage_on_three())
    table.roll(4)
    table.wait()
    picture = table.ctl.flow.screen()
    table.press("horse3")  # green, from the start, would pass the barrage on 3
    assert "Barrage on square 3" in table.lcd
    assert table.ctl.flow.screen() is picture  # the game's picture was not drawn again
    refusal = table.view.last_refusal  # the pages read the session's whole view
    assert refusal is not None and refusal.code == "barrage"
    table.wait(5)
    assert table.screen.lcd == picture.lcd
