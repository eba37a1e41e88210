"""The LCD's character ROM: French and German words as the glass shows them, through RPLCD."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.devices.config import parse_config
from companion.devices.glyphs import GLYPHS, LETTERS
from companion.devices.hd44780 import HD44780, Pcf8574Bus, rplcd_on
from companion.devices.lcd import CharacterLcd

FRENCH_AND_GERMAN = [
    "Pronostic: Côte 3/1",
    "élève à l'école",
    "Würfel, Äpfel, Öl",
    "Garçon! Größe: ÉTÉ",
]


class WatchedController(HD44780):
    """The controller model, noting any custom character redefined while it is on the glass."""

    def __init__(self, cols: int, rows: int, rom: str) -> None:
        super().__init__(cols, rows, rom)
        self.clobbered: list[tuple[int, list[str]]] = []

    def data(self, byte: int) -> None:
        if self.in_cgram and self.display_on:
            slot = self.address // 8
            if any(code < 16 and code & 0x07 == slot for row in self.codes() for code in row):
                self.clobbered.append((slot, self.lines()))
        super().data(byte)


@pytest.fixture(params=["A00", "A02"])
def glass(request: pytest.FixtureRequest) -> Iterator[tuple[CharacterLcd, WatchedController]]:
    """An LCD opened through RPLCD on a PCF8574 fake whose controller has the ROM asked for."""
    rom = request.param
    bus = Pcf8574Bus(0x27, 20, 4, rom=rom)
    bus.lcd = WatchedController(20, 4, rom)
    with rplcd_on(bus):
        yield CharacterLcd.open(rom=rom), bus.lcd


def test_french_and_german_rows_show_with_their_accents(
    glass: tuple[CharacterLcd, WatchedController],
) -> None:
    lcd, controller = glass
    lcd.show(FRENCH_AND_GERMAN)
    assert controller.lines() == [row.ljust(20) for row in FRENCH_AND_GERMAN]
    assert lcd.lines() == controller.lines()
    assert not controller.clobbered


def test_the_a02_rom_has_every_accent_and_the_a00_rom_its_own_few() -> None:
    pictures = [*GLYPHS.values(), *LETTERS.values()]
    assert len(set(pictures)) == len(pictures)  # every custom character reads back as itself
    for rom, from_rom in (("A02", "ôéèàÄÖüçßÉñ"), ("A00", "üßñ")):
        lcd = CharacterLcd.fake(rom=rom)
        lcd.show(["ôéèàÄÖüçßÉñ"])
        codes = lcd.port.controller.codes()[0]  # type: ignore[attr-defined]
        text = lcd.port.lines()[0]  # type: ignore[attr-defined]
        assert text.startswith("ôéèàÄÖüçßÉñ")
        in_rom = {text[i] for i, code in enumerate(codes) if code >= 0x80}
        assert in_rom == set(from_rom)


def test_letters_beyond_the_free_slots_fold_to_their_bare_letter() -> None:
    lcd = CharacterLcd.fake(rom="A00")
    # Four suits on the glass leave four slots: é è à ô get them, the rest fold.
    lcd.show(["Anna ♠♥♦♣", "é è à ô", "û ç î ê É", "élève"])
    assert lcd.port.lines() == [  # type: ignore[attr-defined]
        "Anna ♠♥♦♣".ljust(20),
        "é è à ô".ljust(20),
        "u c i e E".ljust(20),
        "élève".ljust(20),
    ]
    # Without the suits the same letters all find a slot.
    lcd.show(["Anna", "é è à ô", "û ç î ê É", "élève"])
    assert lcd.port.lines()[2] == "û ç î ê E".ljust(20)  # type: ignore[attr-defined]


def test_a_screen_shown_again_after_its_letters_lost_their_slots_shows_them_again() -> None:
    lcd = CharacterLcd.fake(rom="A00")
    accents = ["Chloé à gagné", "Zoé: 5", "", ""]
    others = ["Île Ôtto Ùlla", "Ûrsula Ëve Ïda", "Àlain Îrène", ""]
    expected = {
        tuple(accents): [row.ljust(20) for row in accents],
        tuple(others): [row.ljust(20) for row in others],
    }
    # Each screen needs slots the other took: every time it comes back, its letters are
    # drawn into the slots again, whatever the display worked out for it before.
    for lines in (accents, others, accents, others, accents, accents):
        lcd.show(lines)
        assert lcd.port.lines() == expected[tuple(lines)]  # type: ignore[attr-defined]
        assert lcd.lines() == expected[tuple(lines)]


def test_a_suit_on_the_glass_keeps_its_slot_while_letters_come_and_go(
    glass: tuple[CharacterLcd, WatchedController],
) -> None:
    lcd, controller = glass
    screens = [
        ["Course hippique", "Anna  Q♠ 7♥", "Ben   10♦ A♣", "Chloé: ***"],
        ["Course hippique", "Anna  Q♠ 7♥", "Ben   10♦ A♣", "Côte 5/1 à Zoé"],
        ["Élise ♠", "Ûrsula ♥ Ëve", "Ïda Ôtto Ùlla", "Àlain Îrène Ç"],
        ["Würfel ♣ ♦", "Äpfel Öl Ü", "Île à côté", "Après-midi ç"],
        ["Anna  Q♠ 7♥", "Ben   10♦ A♣", "Chloé", "Zoé ***"],
    ]
    for lines in screens:
        lcd.show(lines)
        shown = controller.lines()
        for row, wanted in zip(shown, lines, strict=True):
            for cell, char in zip(row, wanted, strict=False):
                if char in GLYPHS:
                    assert cell == char, (shown, lines)
        assert lcd.lines() == shown
    assert not controller.clobbered


def test_the_rom_is_set_in_the_configuration_a00_by_default() -> None:
    assert parse_config("[lcd]\n").lcd.rom == "A00"  # type: ignore[union-attr]
    assert parse_config('[lcd]\nrom = "A02"\n').lcd.rom == "A02"  # type: ignore[union-attr]


#: Words whose letters no ROM shows in one cell, as each ROM shows them through RPLCD: a letter
#: that must fold keeps its sound ("cœur" never reads "cour"), on both ROMs.
SPELLED_ON = {
    "7 de cœur": {"A00": "7 de coeur", "A02": "7 de coeur"},
    "Œuvre, ŒUVRE": {"A00": "Oeuvre, OEUVRE", "A02": "Oeuvre, OEUVRE"},
    "Læti, Æble": {"A00": "Laeti, Aeble", "A02": "Læti, Æble"},
    "Straße, GROẞ": {"A00": "Straße, GROSS", "A02": "Straße, GROSS"},
    "Søren Þór": {"A00": "Soeren Thór", "A02": "Søren Þór"},
}


@pytest.mark.parametrize("word", SPELLED_ON)
def test_a_letter_the_rom_lacks_is_spelled_so_it_keeps_its_sound(
    word: str, glass: tuple[CharacterLcd, WatchedController]
) -> None:
    lcd, controller = glass
    lcd.show([word])
    assert controller.lines()[0] == SPELLED_ON[word][lcd.rom].ljust(20)
    assert lcd.lines() == controller.lines()


def test_an_umlaut_left_without_a_slot_is_spelled_not_bared(
    glass: tuple[CharacterLcd, WatchedController],
) -> None:
    lcd, controller = glass
    # The suits and é è à ô take the eight slots of the A00 ROM, which lacks the capitals.
    lcd.show(["♠♥♦♣ é è à ô", "Äpfel Öl Übung", "Bär böse Tür"])
    umlauts = {"A00": "Aepfel Oel Uebung", "A02": "Äpfel Öl Übung"}[lcd.rom]
    assert controller.lines()[:3] == [
        "♠♥♦♣ é è à ô".ljust(20),
        umlauts.ljust(20),
        "Bär böse Tür".ljust(20),  # both ROMs have the small ones
    ]
    assert not controller.clobbered


def test_a_row_kept_while_the_rows_beside_it_change_reads_as_if_drawn_afresh(
    glass: tuple[CharacterLcd, WatchedController],
) -> None:
    # The LCD writer sends a screen row by row, so a row stays while the rows beside it
    # change: here it is spelled while they hold every slot, then gets its letters back.
    lcd, controller = glass
    steps = [
        ["♠♥♦♣ é è à ô", "", "Würfel"],
        ["♠♥♦♣ é è à ô", "Äpfel Öl", "Würfel"],
        ["", "Äpfel Öl", "Würfel"],
        ["", "Äpfel Öl", "Größe"],
    ]
    for step in steps:
        lcd.show(step)
        afresh = Pcf8574Bus(0x27, 20, 4, rom=lcd.rom)
        with rplcd_on(afresh):
            CharacterLcd.open(rom=lcd.rom).show(step)
        assert controller.lines() == afresh.lcd.lines()
        assert lcd.lines() == controller.lines()
    assert not controller.clobbered
    assert controller.lines()[1] == "Äpfel Öl".ljust(20)
