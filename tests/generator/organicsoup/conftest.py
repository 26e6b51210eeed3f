"""Organic Soup's printed set, built once for these tests with the game
registered (it is not an installed entry point yet; registering the same
descriptor again is harmless once it is)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from engine.organicsoup import GAME
from generator.build import BuildOptions, build
from labkit import registry


@pytest.fixture(scope="package")
def organicsoup() -> Iterator[None]:
    added = "organicsoup" not in registry.games()
    registry.register(GAME)
    yield
    if added:
        registry.unregister("organicsoup")


@pytest.fixture(scope="package")
def built(tmp_path_factory, organicsoup) -> Path:
    """The complete Organic Soup set, A4 and Letter, grid and bleed."""
    out = tmp_path_factory.mktemp("organicsoup-output")
    build(BuildOptions(games=["organicsoup"], out=out))
    return out / "organicsoup"
