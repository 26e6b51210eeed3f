"""A serving worker keeps its cycle collector out of the way
(``companion/collector.py``): that is safe only while play makes no
reference cycles, since refcounting cannot free them. Each game is played
through a real server's pages (phones joining, streams, moves at the highest
rate, refusals, tables replaced at their end); the stopped worker's last
full collection must find nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from labkit import registry
from tests.bench.test_load_generator import generate

pytestmark = pytest.mark.skipif(shutil.which("node") is None,
                                reason="node is not on PATH: the phones are a Node script")


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(registry.names()))
def test_play_leaves_nothing_in_cycles(server_factory: Any, tmp_path: Path, monkeypatch: Any, game: str) -> None:
    timings = tmp_path / "timings.jsonl"
    monkeypatch.setenv("LABKIT_TIMINGS_FILE", str(timings))
    server = server_factory().start()
    phones = "4" if registry.find(game).max_players >= 4 else str(registry.find(game).max_players)
    _, result = generate("phones.mjs", server.url, "--game", game, "--tables", "2", "--phones", phones,
                         "--pace", "max", "--seconds", "4")
    assert result["applied"] >= 20, result
    server.stop()
    lines = [json.loads(line) for line in timings.read_text().splitlines()]
    left = [line["left"] for line in lines if "left" in line]
    log = (tmp_path / f"server-{server.port}.log").read_text(errors="replace")
    assert left, "the worker did not write what it left (was it stopped with SIGTERM?)\n" + log[-2000:]
    # Werkzeug's URL matcher makes a cycle in every request (a nested function
    # calling itself by name), garbage once the URL is matched: one that a
    # young collection catches mid-match (another thread's collection while
    # this one waits for the lock) outlives it, a few hundred bytes, seldom.
    # Any other cycle is one of ours.
    ours = {name: n for name, n in left[0][3].items() if "werkzeug.routing.matcher" not in name}
    assert not ours, f"{left[0][0]} objects were left in reference cycles: {left[0][2]}; the cycles: {left[0][3]}"
