"""An engine's face gives every name it lists, each the one its module defines, loaded late."""

from __future__ import annotations

import ast
import importlib
import inspect

import pytest

from companion.games.registry import BUILT_IN


def _typed_only(source: str) -> list[tuple[str, str]]:
    """The (module, name) pairs a face imports under ``if TYPE_CHECKING:``."""
    pairs = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module is not None
                pairs += [(statement.module, alias.name) for alias in statement.names]
    return pairs


@pytest.mark.parametrize("kind", [game.kind for game in BUILT_IN])
def test_a_face_gives_each_name_it_lists_from_the_module_the_type_checker_reads(
    kind: str,
) -> None:
    face = importlib.import_module(f"companion.games.{kind}")
    typed = _typed_only(inspect.getsource(face))
    assert typed, "the face loads nothing late"
    for module, name in typed:
        assert name in face.__all__
        assert getattr(face, name) is getattr(importlib.import_module(module), name), name
    for name in face.__all__:
        assert getattr(face, name) is not None
    with pytest.raises(AttributeError):
        face.NoSuchName  # noqa: B018 - a name the face does not list is not made up
