"""The Compounded print-and-play set, built once for these tests, with the
game registered for their duration (it may also be installed)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from engine.compounded import GAME
from generator.build import BuildOptions, build
from labkit import registry


@pytest.fixture(scope="session")
def compounded() -> Iterator[None]:
    known = "compounded" in registry.games()
    registry.register(GAME)
    yield
    if not known:
        registry.unregister("compounded")


@pytest.fixture(scope="session")
def built(tmp_path_factory, compounded) -> Path:
    """Every component on A4 and Letter, grid and bleed."""
    out = tmp_path_factory.mktemp("compounded-output")
    build(BuildOptions(games=["compounded"], out=out, svg=False))
    return out / "compounded"
