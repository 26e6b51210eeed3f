"""Shared fixtures. Each area (engine, generator, companion) adds its own
conftest.py beside its tests."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def labnotes_data_dir() -> Path:
    return ROOT / "cardsdata" / "labnotes"


def load_cards(folder: Path, game: str = "labnotes"):
    """A card set read from a folder the way every face reads it."""
    from labkit.cardsets import load
    from labkit.registry import find

    return load(find(game), folder)
