"""The load generators of ``make bench`` drive real servers: the phones of
``bench/load/phones.mjs`` join through the lobby page, move through the
page's form and see each other's moves on their streams; the boardgame.io
driver plays its dice game through boardgame.io's own socket protocol."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOAD = ROOT / "bench" / "load"

pytestmark = pytest.mark.skipif(shutil.which("node") is None,
                                reason="node is not on PATH: the load generators are Node scripts")


def generate(script: str, url: str, *args: str, timeout: float = 90) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Run a generator: its phase lines and its result."""
    done = subprocess.run(["node", str(LOAD / script), "--url", url, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    results = [line["result"] for line in lines if "result" in line]
    assert len(results) == 1, done.stdout[-2000:]
    return [line for line in lines if "phase" in line], results[0]


@pytest.mark.slow
def test_phones_move_through_the_pages_and_see_each_other(server_factory) -> None:
    server = server_factory().start()
    phases, result = generate("phones.mjs", server.url, "--game", "labnotes", "--tables", "2", "--phones", "3",
                              "--pace", "human", "--think-min", "0.05", "--think-max", "0.2", "--seconds", "4")
    assert [p["phase"] for p in phases] == ["ready", "end"]
    assert phases[0]["phones"] == 6
    # Moves went through /t/CODE/act and were applied ...
    assert result["applied"] >= 5, result
    assert result["statuses"].get("200", 0) == result["applied"]
    assert result["act_ms"]["n"] == result["answered"] >= result["applied"]
    # ... and every other phone of the table saw each of them on its stream.
    assert result["seen_ms"]["n"] >= 2 * result["applied"] - 2 * result["unseen"], result
    assert result["seen_ms"]["p50"] is not None and result["seen_ms"]["p50"] < 5000
    assert result["stream_events"] > 0
    # Nothing failed: no 5xx, no refused CSRF or cookie (other 4xx), no broken connection.
    assert result["server_errors"] == 0 and result["other_4xx"] == 0 and result["failed"] == 0, result
    assert 0 < result["generator_cpu_share"] < 1


@pytest.mark.slow
def test_phones_at_the_highest_rate_finish_games_and_start_new_tables(server_factory) -> None:
    """Toy Race (the test server's game from outside the core, on the generic
    board: a form's button per legal action) is short: at the highest rate its
    tables reach the end, and each is replaced by a new one, joined again."""
    server = server_factory().start()
    _, result = generate("phones.mjs", server.url, "--game", "toyrace", "--tables", "2", "--phones", "2",
                         "--pace", "max", "--seconds", "3")
    assert result["applied"] > 20, result
    assert result["games_finished"] >= 1 and result["tables_started"] >= 1, result
    assert result["server_errors"] == 0 and result["other_4xx"] == 0 and result["failed"] == 0, result


@pytest.mark.slow
def test_boardgame_io_driver_plays_its_dice_game(tmp_path: Path) -> None:
    if not (ROOT / "node_modules" / "boardgame.io").is_dir():
        pytest.skip("boardgame.io is not installed (npm ci)")
    from bench.companion_bench import bgio_server

    server = bgio_server(tmp_path)
    try:
        _, result = generate("bgio-phones.mjs", server.url, "--tables", "2", "--phones", "3", "--pace", "max",
                             "--seconds", "2")
    finally:
        server.stop()
    assert result["applied"] > 50, result
    assert result["seen_ms"]["n"] >= 2 * result["applied"] - 2 * result["unseen"], result
    assert result["unanswered"] == 0 and result["server_errors"] == 0 and result["failed"] == 0, result


@pytest.mark.slow
def test_phones_draw_synthesis_bonds_chosen_from_the_placement_list(server_factory) -> None:
    """Synthesis offers a bond's placements in a <select> read by a
    `data-act-from` button: the phones pick one, so its tables play on (before,
    they stalled at the first bond and the benchmark measured 5 moves a second)."""
    server = server_factory().start()
    _, result = generate("phones.mjs", server.url, "--game", "synthesis", "--tables", "2", "--phones", "2",
                         "--pace", "max", "--seconds", "4")
    assert result["applied"] > 40, result
    assert result["server_errors"] == 0 and result["other_4xx"] == 0 and result["failed"] == 0, result
