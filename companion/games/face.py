"""An engine's public face whose names load their modules when first used, not at import.

The registry imports every game's face for its ``GAME`` when the companion starts; an engine
loaded whole there would be paid for at every start, for the games nobody plays that
evening. So a face declares ``GAME`` and the few names it is made of at once, and hands
every other name to ``names_from``: the module holding a name is imported the first time
the name is asked for (``from companion.games.jockey import JockeyGame`` too), then the name
is kept on the face like any other. The face lists the same names for the type checker
under ``TYPE_CHECKING``; ``tests/games/test_faces.py`` holds the two lists to each other.
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable, Mapping, Sequence

#: One name loads at a time: the loop's thread and the pages' thread may both reach for a game
#: first, and two threads importing an engine's modules in different orders could each wait
#: for the other (Python then hands one of them a module still half made).
_LOADING = threading.RLock()


def names_from(face: str, modules: Mapping[str, Sequence[str]]) -> Callable[[str], object]:
    """Return the ``__getattr__`` of the face ``face``: each name in ``modules[m]`` comes
    from the face's submodule ``m``."""
    home = {name: f"{face}.{module}" for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> object:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {face!r} has no attribute {name!r}")
        with _LOADING:
            value = getattr(importlib.import_module(module), name)
            setattr(sys.modules[face], name, value)
        return value

    return __getattr__
