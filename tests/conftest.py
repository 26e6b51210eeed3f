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
