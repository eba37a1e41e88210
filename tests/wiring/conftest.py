"""Fixtures for the wiring tests: the repository root, the generator script and the pin map."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load_generator() -> ModuleType:
    name = "companion_wiring_generate"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "wiring" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def root() -> Path:
    """The repository's top directory."""
    return ROOT


@pytest.fixture(scope="session")
def generator() -> ModuleType:
    """wiring/generate.py, imported as a module."""
    return _load_generator()


@pytest.fixture(scope="session")
def pinmap(generator: ModuleType) -> object:
    """The committed pin map, loaded by the generator."""
    return generator.load(ROOT / "wiring" / "pinmap.toml")
