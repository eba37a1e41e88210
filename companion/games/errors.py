"""The error every engine raises when the table asks for something the rules refuse."""

from __future__ import annotations

from companion.games.text import (
    DISPLAY_ROWS,
    DISPLAY_WIDTH,
    N_,
    Message,
    display_lines,
    fits_display,
)

__all__ = [
    "DISPLAY_ROWS",
    "DISPLAY_WIDTH",
    "N_",
    "DataError",
    "GameError",
    "Message",
    "Refusal",
    "counted",
    "display_lines",
    "fits_display",
]


class GameError(ValueError):
    """Base of every error a game engine raises."""


class Refusal(GameError):
    """An input the rules refuse: a reason code for machines and a sentence for the table.

    A refused input never changes the game's state. ``code`` is a short snake_case word
    (``barrage``, ``stake_too_high``...); ``template`` is the English sentence with
    ``{name}`` fields filled in from ``params``. ``message`` keeps both for the displays,
    which say it in the table's language; ``sentence`` is the English sentence journals and
    logs keep, and it word-wraps into a 20x4 LCD.
    Raises ValueError when the sentence would not fit: that is a bug in the engine.
    """

    def __init__(
        self, code: str, template: str, plural: str | None = None, **params: str | int
    ) -> None:
        message = Message.of(template, plural, **params)
        sentence = message.english
        if not fits_display(sentence):
            raise ValueError(f"refusal sentence does not fit a 20x4 display: {sentence!r}")
        super().__init__(f"{code}: {sentence}")
        self.code = code
        self.message = message
        self.sentence = sentence


def counted(code: str, singular: str, plural: str, count: int, **params: str | int) -> Refusal:
    """Return a refusal whose sentence counts something: ``singular`` when ``count`` is 1."""
    return Refusal(code, singular, plural, count=count, **params)


class DataError(GameError):
    """A board, deck or saved game that cannot be used, with the place and the reason."""
