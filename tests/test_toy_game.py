"""A game from a package outside the core, taken in by its descriptor alone:
Toy Race (``tests/toygame``) is named in ``LABKIT_GAMES`` and is then listed
by ``labkit``, validated, printed, served at a table and benchmarked, while
no core file names it (tests/test_house.py). This is the walk-through of
docs/design/adding-a-game.md, proved."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from companion.client import call

ROOT = Path(__file__).resolve().parent.parent
LABKIT = Path(sys.executable).parent / "labkit"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(LABKIT_GAMES="tests.toygame:GAME", PYTHONPATH=str(ROOT), **extra)
    return env


def _labkit(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([str(LABKIT), *args], cwd=cwd, env=_env(COLUMNS="200"), capture_output=True, text=True,
                          timeout=300)


def test_it_is_listed():
    out = _labkit("games")
    assert out.returncode == 0, out.stderr
    assert "toyrace" in out.stdout and "Toy Race" in out.stdout and "2-3" in out.stdout


def test_it_is_validated_with_its_own_messages(tmp_path: Path):
    ok = _labkit("validate", str(ROOT / "tests" / "toygame" / "data"))
    assert ok.returncode == 0, ok.stderr
    assert "ok" in ok.stdout and "(toyrace)" in ok.stdout
    copy = tmp_path / "my-race"
    copy.mkdir()
    for f in ("game.yaml", "bonuses.csv"):
        (copy / f).write_bytes((ROOT / "tests" / "toygame" / "data" / f).read_bytes())
    text = (copy / "bonuses.csv").read_text()
    (copy / "bonuses.csv").write_text(text.replace("lucky-3,Tail Wind,3,", "lucky-3,Tail Wind,three,"))
    bad = _labkit("validate", str(copy))
    assert bad.returncode == 1
    assert "bonuses.csv:4: column 'points' (C): expected a whole number, found 'three'" in bad.stderr


def test_it_is_printed(tmp_path: Path):
    out = _labkit("build", "--game", "toyrace", "--out", str(tmp_path), "--paper", "a4")
    assert out.returncode == 0, out.stderr
    deck = PdfReader(tmp_path / "toyrace" / "a4" / "toyrace-a4-bonus-cards.pdf")
    assert len(deck.pages) == 2                                    # six cards, their backs
    assert "Golden Shoe" in deck.pages[0].extract_text()
    assert (tmp_path / "toyrace" / "a4" / "toyrace-a4-rules.pdf").exists()
    assert "a six-sided die" in (tmp_path / "toyrace" / "PRINTING.md").read_text()


def test_it_is_served_at_a_table_and_played_to_the_end(server_factory):
    server = server_factory().start()   # the test servers name Toy Race in LABKIT_GAMES
    base = server.url
    status, games = call(base, "GET", "/api/games")
    assert "toyrace" in [g["name"] for g in games["games"]]
    status, created = call(base, "POST", "/api/tables", {"game": "toyrace", "seed": 7, "options": {"target": 10}})
    code, host = created["code"], created["host_token"]
    seats = [call(base, "POST", f"/api/tables/{code}/seats", {"name": n})[1]["token"] for n in ("Ada", "Bo")]
    status, table = call(base, "POST", f"/api/tables/{code}/start", {"version": created["table"]["version"] + 2}, host)
    assert status == 200, table
    for _ in range(200):
        if table["status"] == "over":
            break
        seat = table["to_move"][0]
        status, table = call(base, "GET", f"/api/tables/{code}", token=seats[seat])
        status, table = call(base, "POST", f"/api/tables/{code}/actions",
                             {"version": table["version"], "action": table["actions"][0]}, seats[seat])
        assert status == 200, table
    assert table["status"] == "over" and len(table["result"]["scores"]) == 2
    page = call(base, "GET", f"/api/tables/{code}/score")[1]
    assert {s["name"] for s in page["scores"]} == {"Ada", "Bo"}


@pytest.mark.slow
def test_it_is_benchmarked():
    out = subprocess.run([sys.executable, "-m", "bench", "engine", "print"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600,
                         env=_env(LABKIT_BENCH_GAMES="toyrace", LABKIT_BENCH_PLAYOUTS="3", COLUMNS="200"))
    assert out.returncode == 0, out.stderr
    assert "Toy Race engine: random games to the end" in out.stdout
    assert "Toy Race: its own workloads" in out.stdout and "a round of bets" in out.stdout
    assert "Toy Race full build" in out.stdout and "one card changed" in out.stdout
