"""The Synthesis print-and-play set, built once per test run (shared by the
xdist workers through a lock), with the game registered for the tests'
duration (it may also be installed)."""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import Iterator

import pytest

from engine.synthesis import GAME
from generator.build import BuildOptions, build
from labkit import registry


@pytest.fixture(scope="session")
def synthesis() -> Iterator[None]:
    known = "synthesis" in registry.games()
    registry.register(GAME)
    yield
    if not known:
        registry.unregister("synthesis")


@pytest.fixture(scope="session")
def built(tmp_path_factory, worker_id, synthesis) -> Path:
    """Every component on A4 and Letter, grid and bleed: built by the first
    worker to ask, read by the others."""
    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    out = shared / "synthesis-print"
    with open(shared / "synthesis-print.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "done").exists():
            build(BuildOptions(games=["synthesis"], out=out, svg=False))
            (out / "done").write_text("ok")
    return out / "synthesis"
