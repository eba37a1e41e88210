"""An engine's public face whose names load their modules when first used, not at import.

The registry imports every game's face for its ``GAME`` when the companion starts; an engine
loaded whole there would be paid for at every start, for the games nobody plays that
evening. So a face declares ``GAME`` and the few names it is made of at once, and hands
every other name to ``names_from``: the first time one of them is asked for (``from
companion.games.jockey import JockeyGame`` too), the rest of the engine is imported and its
names are kept on the face like any other. The face lists the same names for the type checker
under ``TYPE_CHECKING``; ``tests/games/test_faces.py`` holds the two lists to each other.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence


def names_from(face: str, modules: Mapping[str, Sequence[str]]) -> Callable[[str], object]:
    """Return the ``__getattr__`` of the face ``face``: each name in ``modules[m]`` comes
    from the face's submodule ``m``."""
    late = {name for names in modules.values() for name in names}

    def __getattr__(name: str) -> object:
        if name not in late:
            raise AttributeError(f"module {face!r} has no attribute {name!r}")
        # The whole engine, its modules always in one order: the loop's thread and the pages'
        # thread may reach for a new game at once, and two threads importing its modules in
        # different orders could each be handed a module the other has only half made.
        public = sys.modules[face]
        for module, names in modules.items():
            loaded = importlib.import_module(f"{face}.{module}")
            for each in names:
                setattr(public, each, getattr(loaded, each))
        return getattr(public, name)

    return __getattr__
