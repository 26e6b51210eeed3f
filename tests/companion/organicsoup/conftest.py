"""Organic Soup at the table: the game registered for these tests (it is
not an installed entry point yet; registering the same descriptor again is
harmless once it is), before any app is made, so that its plugin is served."""

from __future__ import annotations

from typing import Iterator

import pytest

from engine.organicsoup import GAME
from labkit import registry

SEED = 373
"""A two-player table (Ada, Bo) where Bo goes first and, in three turns, can
build, swap, be refused a reaction on a guarded molecule, and react: Bo
builds 3 Oxygen and swaps Carbon Monoxide (drawing Ozone), Ada builds 1
Graphite (taking its recipe: her Graphite is guarded) and keeps her hand,
then Bo reacts 3 Oxygen into 2 Ozone."""


@pytest.fixture(scope="package", autouse=True)
def organicsoup() -> Iterator[None]:
    added = "organicsoup" not in registry.games()
    registry.register(GAME)
    yield
    if added:
        registry.unregister("organicsoup")
