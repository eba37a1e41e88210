"""A drawing asked again for the same picture: its last answer, kept instead of drawn anew."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from companion.render.language import current

_T = TypeVar("_T")


def last_drawn(draw: Callable[..., _T]) -> Callable[..., _T]:
    """``draw``, a pure function of its positional arguments and the table's language, that
    gives its last answer again when it is called with the same ones: a press that changes
    nothing a picture shows (an ignored button, a refused input) draws nothing.

    The arguments (positional only) are kept and compared with ``==`` (an argument that is the
    same object as last time is equal at once), so they must be values that nobody changes
    afterwards.
    """
    last: tuple[tuple[Any, ...], _T] | None = None

    @functools.wraps(draw)
    def drawn(*args: Any) -> _T:
        nonlocal last
        key = (current(), *args)
        kept = last  # read once: another thread may draw meanwhile
        if kept is not None and kept[0] == key:
            return kept[1]
        answer = draw(*args)
        last = (key, answer)
        return answer

    return drawn
