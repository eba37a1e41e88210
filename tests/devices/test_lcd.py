"""The character LCD as a player reads it: four rows of text, suits included, few bytes sent."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.base import TextDisplay
from companion.devices.glyphs import GLYPHS, glyph_rows
from companion.devices.hd44780 import HD44780
from companion.devices.lcd import CharacterLcd, FakeHD44780, Run, changed_runs


def fake_lcd(cols: int = 20, rows: int = 4) -> tuple[CharacterLcd, FakeHD44780]:
    port = FakeHD44780(cols, rows)
    return CharacterLcd(port, cols, rows), port


def test_the_four_rows_read_back_with_their_suits() -> None:
    lcd, port = fake_lcd()
    lcd.show(["Course hippique", "Anna  Q♠ 7♥", "Ben   10♦ A♣", "bets: ***"])
    assert port.lines() == [
        "Course hippique     ",
        "Anna  Q♠ 7♥         ",
        "Ben   10♦ A♣        ",
        "bets: ***           ",
    ]


def test_suits_are_custom_characters_whose_pictures_are_in_cgram() -> None:
    lcd, port = fake_lcd()
    lcd.show(["♠♥♦♣"])
    codes = port.controller.codes()[0][:4]
    assert all(code < 8 for code in codes)
    for code, suit in zip(codes, "♠♥♦♣", strict=True):
        assert port.controller.custom_char(code) == GLYPHS[suit]


def test_the_glyphs_look_like_suits() -> None:
    assert glyph_rows("♥")[:6] == [".....", ".#.#.", "#####", "#####", ".###.", "..#.."]
    assert len(set(GLYPHS.values())) == len(GLYPHS) == 8


def test_accents_show_and_unknown_characters_become_a_question_mark() -> None:
    lcd, port = fake_lcd()
    lcd.show(["Chloé à gagné", "Œuvre ß", "back\\slash ~ 中"])
    assert port.lines()[:3] == [
        "Chloé à gagné       ",
        "Oeuvre ß            ",  # Œ keeps its sound: never "Ouvre"
        "back?slash ? ?      ",
    ]


def test_lines_are_cut_to_the_width_and_missing_rows_are_blank() -> None:
    lcd, port = fake_lcd()
    lcd.show(["x" * 25, "two"])
    assert port.lines() == ["x" * 20, "two".ljust(20), " " * 20, " " * 20]
    lcd.show(["a", "b", "c", "d", "e (never shown)"])
    assert port.lines() == [s.ljust(20) for s in "abcd"]


def test_a_second_show_sends_only_the_changed_characters() -> None:
    lcd, port = fake_lcd()
    lcd.show(["Anna   120", "Ben     80", "Chloe   45", "turn: Ben"])
    before = port.controller.data_bytes
    lcd.show(["Anna   120", "Ben     95", "Chloe   45", "turn: Ben"])
    assert port.controller.data_bytes - before == 2
    assert port.lines()[1] == "Ben     95".ljust(20)


def test_showing_the_same_rows_again_sends_nothing() -> None:
    lcd, port = fake_lcd()
    lcd.show(["Jumpy Jack", "roll the die"])
    sent = (port.controller.instructions, port.controller.data_bytes)
    lcd.show(["Jumpy Jack", "roll the die"])
    assert (port.controller.instructions, port.controller.data_bytes) == sent


def test_nearby_changes_share_one_cursor_move() -> None:
    old = [b"abcdef"]
    assert changed_runs(old, [b"xbydef"]) == [Run(0, 0, b"xby")]
    assert changed_runs(old, [b"xbcdey"]) == [Run(0, 0, b"x"), Run(0, 5, b"y")]
    assert changed_runs(None, [b"  ab  "]) == [Run(0, 2, b"ab")]


def test_a_16x2_display_reads_back_too() -> None:
    lcd, port = fake_lcd(16, 2)
    lcd.show(["Jockey ♞", "A♠ K♥", "ignored"])
    assert port.lines() == ["Jockey ♞".ljust(16), "A♠ K♥".ljust(16)]


def test_close_blanks_the_display() -> None:
    lcd, port = fake_lcd()
    lcd.show(["bye"])
    lcd.close()
    assert port.closed
    assert port.lines() == [" " * 20] * 4


class FlakyPort(FakeHD44780):
    """A port whose next writes fail, as an I2C bus does when the LCD is unplugged."""

    failing = False

    def write_runs(self, runs: Sequence[Run]) -> None:
        if self.failing:
            raise OSError(121, "Remote I/O error")
        super().write_runs(runs)


def test_after_a_failed_write_the_next_show_redraws_everything() -> None:
    port = FlakyPort()
    lcd = CharacterLcd(port)
    lcd.show(["one", "two"])
    port.failing = True
    with pytest.raises(OSError):
        lcd.show(["one", "three"])
    port.failing = False
    port.controller.ddram[0x40:0x45] = b"#####"  # whatever the glitch left there
    lcd.show(["one", "three"])
    assert port.lines()[:2] == ["one".ljust(20), "three".ljust(20)]


def test_the_model_wraps_row_0_into_row_2_like_the_real_controller() -> None:
    hd = HD44780(20, 4)
    for byte in (0x28, 0x0C, 0x06, 0x01, 0x80 | 0x12):
        hd.instruction(byte)
    for char in b"abcd":
        hd.data(char)
    assert hd.lines()[0].endswith("ab")
    assert hd.lines()[2].startswith("cd")


def test_a_display_that_was_never_switched_on_shows_nothing() -> None:
    hd = HD44780(20, 4)
    hd.data(ord("x"))
    assert hd.lines() == [" " * 20] * 4


def test_the_lcd_is_a_text_display() -> None:
    display: TextDisplay = CharacterLcd.fake()
    assert (display.cols, display.rows) == (20, 4)


TEXT = st.text(alphabet=st.sampled_from("abc XYZ 019 ♠♥♦♣ é"), max_size=24)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(TEXT, max_size=5), min_size=1, max_size=4))
def test_whatever_the_sequence_of_shows_the_screen_matches_the_last_one(
    shows: list[list[str]],
) -> None:
    lcd, port = fake_lcd()
    for lines in shows:
        lcd.show(lines)
    expected = [line[:20].ljust(20) for line in shows[-1][:4]]
    expected += [" " * 20] * (4 - len(expected))
    assert port.lines() == expected
    assert lcd.lines() == expected


def test_a_character_that_would_fold_into_something_misleading_becomes_a_question_mark() -> None:
    lcd, port = fake_lcd()
    lcd.show(["½ ² Ａ"])
    assert port.lines()[0].rstrip() == "? 2 A"


def test_each_character_takes_one_cell_and_custom_ones_show_their_picture() -> None:
    lcd, port = fake_lcd()
    lcd.show(["A♠é?"])
    codes = port.controller.codes()[0][:4]
    assert (codes[0], codes[3]) == (0x41, ord("?"))
    assert port.controller.custom_char(codes[1]) == GLYPHS["♠"]
    assert port.controller.read_char(codes[2]) == "é"
