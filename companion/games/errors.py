"""The error every engine raises when the table asks for something the rules refuse."""

from __future__ import annotations

#: Width of the widest display a refusal is shown on (a 20x4 character LCD).
DISPLAY_WIDTH = 20
#: A refusal's sentence must fit on the LCD's four rows.
MAX_SENTENCE = DISPLAY_WIDTH * 4


class GameError(ValueError):
    """Base of every error a game engine raises."""


class Refusal(GameError):
    """An input the rules refuse: a reason code for machines and a sentence for the table.

    A refused input never changes the game's state. ``code`` is a short snake_case word
    (``barrage``, ``stake_too_high``...); ``sentence`` fits a 20x4 LCD (80 characters).
    """

    def __init__(self, code: str, sentence: str) -> None:
        if len(sentence) > MAX_SENTENCE:
            raise ValueError(f"refusal sentence longer than {MAX_SENTENCE} chars: {sentence!r}")
        super().__init__(f"{code}: {sentence}")
        self.code = code
        self.sentence = sentence


class DataError(GameError):
    """A board, deck or saved game that cannot be used, with the place and the reason."""
