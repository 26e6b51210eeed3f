"""A worker asked for its timings (``TIMINGS_FILE``) writes a line for each
move and each full garbage collection, and nothing for anything else; one
not asked wraps nothing (companion/timings.py)."""

from __future__ import annotations

import gc
import json
import os
from pathlib import Path
from typing import Any

import pytest

from companion import timings
from tests.companion.conftest import Phone, make_app


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_each_move_and_each_full_collection_is_written_down(tmp_path: Path, toy: Any) -> None:
    path = tmp_path / "timings.jsonl"
    app = make_app(tmp_path, TIMINGS_FILE=str(path))
    kept = app.extensions["companion_timings"]
    try:
        host, ada, bo = Phone(app), Phone(app), Phone(app)
        code = host.create()
        assert ada.join(code, "Ada").status_code == 204 and bo.join(code, "Bo").status_code == 204
        assert host.post(f"/t/{code}/start", {"version": str(host.version(code))}).status_code == 200
        assert [e for e in _lines(path) if "act" in e] == []          # pages, joins and the start are not moves
        assert ada.act(code, {"type": "bet", "guess": "high"}).status_code == 200
        assert bo.act(code, {"type": "bet", "guess": "high"}, version=0).status_code == 409   # refused: still timed
        moves = [e["act"] for e in _lines(path) if "act" in e]
        assert len(moves) == 2
        assert all(len(m) == 2 and m[0] > 0 and m[1] >= 0 for m in moves)
        # (the interpreter may have made collections of its own by now)
        before = len([e for e in _lines(path) if "gc" in e])
        gc.collect(1)                                                    # a young collection, with its generation
        gc.collect()
        kept.drain()                                                     # written by the next request
        written = [e["gc"] for e in _lines(path) if "gc" in e][before:]
        assert [g[2] for g in written] == [1, 2] and all(g[0] >= 0 and 0 <= g[3] for g in written)
        cycle: list[Any] = []
        cycle.append(cycle)
        gc.collect()                                                     # the cycle, still used, is old now
        young: list[Any] = []
        young.append(young)
        del cycle, young                                                 # both garbage only a collection frees
        kept.drain()
        gc_lines = len([e for e in _lines(path) if "gc" in e])
        kept.census()                                                    # a stopping worker's last collection
        left = [e["left"] for e in _lines(path) if "left" in e]
        assert len(left) == 1 and left[0][0] >= 1 and left[0][2].get("builtins.list") == 1   # the old one only
        assert left[0][3] == {"no function": 1}                          # one cycle, made by no function
        spent = [e["spent"] for e in _lines(path) if "spent" in e]          # the CPU by kind of request
        assert len(spent) == 1 and spent[0]["act"][0] == 2 and spent[0]["act"][1] > 0
        assert sum(n for n, _ in spent[0].values()) >= 5                   # the pages, joins and start too
        assert len([e for e in _lines(path) if "gc" in e]) == gc_lines  # written as what was left, not as a pause
        kept.census()                                                    # told to stop again: said once
        gc.collect()                                                     # the worker ending: no phone waits on it
        assert len([e for e in _lines(path) if "left" in e]) == 1
        assert len([e for e in _lines(path) if "gc" in e]) == gc_lines
    finally:
        kept.close()
        app.extensions["companion_store"].db.close()
    assert kept.on_gc not in gc.callbacks
    written = len(_lines(path))
    gc.collect()
    assert len(_lines(path)) == written                                # closed: nothing more


def test_a_collection_while_the_file_is_being_written_waits_for_nothing(tmp_path: Path, toy: Any) -> None:
    """A collection can start inside any allocation, also one made while
    the timings hold their lock: its callback must not wait for that lock
    (it would wait for its own thread, for ever, and freeze the worker)."""
    import threading

    app = make_app(tmp_path, TIMINGS_FILE=str(tmp_path / "t.jsonl"))
    kept = app.extensions["companion_timings"]
    kept.serving = True

    def collect_holding_the_lock() -> None:
        with kept._lock:
            gc.collect(0)

    thread = threading.Thread(target=collect_holding_the_lock, daemon=True)
    thread.start()
    thread.join(10)
    try:
        assert not thread.is_alive(), "the collection's callback waited for the lock its own thread held"
        kept.drain()
        assert any("gc" in e for e in _lines(tmp_path / "t.jsonl"))
    finally:
        if not thread.is_alive():   # else the lock is held for ever: closing would wait too
            kept.close()
        app.extensions["companion_store"].db.close()


def test_a_worker_not_asked_wraps_nothing(tmp_path: Path, toy: Any) -> None:
    app = make_app(tmp_path)
    try:
        assert "companion_timings" not in app.extensions
        assert app.wsgi_app.__qualname__ != "install.<locals>.timed"
    finally:
        app.extensions["companion_store"].db.close()


def test_the_summary_gives_the_percentiles_and_the_collections(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    rows = ([{"act": [float(w), float(w) / 10]} for w in range(1, 101)]
            + [{"gc": [300.0, 5]}, {"gc": [20.0, 0, 2, 15.0]}, {"gc": [7.0, 1, 0, 0.5]}, {"gc": [9.0, 0, 1, 2.0]},
               {"left": [3, 40.0]}, {"left": [8, 1.0, {}, {"m.f": 1}]}, {"blocks": [30.0, 1000]},
               {"blocks": [60.5, 1200, 5_000_000]}, {"blocks": [91.0, 1300, None]},
               {"blocks": [120.0, 1400, None, [7_000_000, 9_000_000]]}, {"blocks": [150.0, 1500, None, None]}, {"spent": {"act": [3, 12.0], "page": [1, 4.0]}},
               {"spent": {"act": [1, 3.0]}}])
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    found = timings.summary(str(path))
    assert found["moves"] == 100
    assert found["wall_ms"] == pytest.approx({"p50": 50.5, "p95": 95.05})     # linear between neighbours
    assert found["cpu_ms"] == pytest.approx({"p50": 5.05, "p95": 9.505})
    # the first written without its generation (a full one) or its CPU time
    assert found["full_gc"] == {"n": 2, "longest_ms": 300.0, "total_ms": 320.0, "longest_cpu_ms": 15.0,
                                "total_cpu_ms": 15.0}
    assert found["young_gc"] == {"n": 2, "longest_ms": 9.0, "total_ms": 16.0, "longest_cpu_ms": 2.0,
                                 "total_cpu_ms": 2.5}
    assert found["left_in_cycles"] == 11 and found["cycles_left"] == {"m.f": 1}
    assert found["blocks"] == [(30.0, 1000), (60.5, 1200), (91.0, 1300), (120.0, 1400), (150.0, 1500)]
    assert found["heap"] == [(120.0, 7_000_000, 9_000_000)]   # written since 2026-12-05; null without jemalloc
    assert found["sqlite"] == [(60.5, 5_000_000)]      # written since 2026-12-04; null where SQLite cannot say
    assert found["spent"] == {"act": [4, 15.0], "page": [1, 4.0]}           # every worker's, added


def test_sqlite_s_own_memory_is_read_and_grows_with_a_connection_s_page_cache(tmp_path: Path) -> None:
    """What the soak prints beside Python's blocks: the page caches of the
    worker's connections, which fill as the database grows."""
    import sqlite3

    from companion.allocator import sqlite_memory_used

    before = sqlite_memory_used()
    if before is None:
        pytest.skip("this Python's SQLite is not a shared library that can be asked for its memory")
    db = sqlite3.connect(tmp_path / "t.sqlite3")
    try:
        db.execute("CREATE TABLE t (x TEXT)")
        db.executemany("INSERT INTO t VALUES (?)", [("x" * 700,)] * 3000)   # about 2 MB of pages
        db.commit()
        during = sqlite_memory_used()
    finally:
        db.close()
    assert during is not None and during - before > 1_000_000, (before, during)
    after = sqlite_memory_used()
    assert after is not None and after < during


def test_jemalloc_s_own_figures_are_read_where_it_is_the_allocator() -> None:
    """What the soak prints beside Python's blocks: jemalloc's bytes in use
    and resident, read in a process started with it preloaded (as ``labkit
    serve`` starts itself); none where the system's allocator is in use."""
    import ast
    import subprocess
    import sys

    from companion import allocator

    code = ("from companion import allocator; kept = [bytes(4096) for _ in range(5000)]; "
            "print(allocator.heap())")
    plain = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "LD_PRELOAD": ""})
    assert plain.stdout.strip() == "None"
    library = allocator.library()
    if library is None:
        pytest.skip("jemalloc is not installed here (make debs installs it)")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "LD_PRELOAD": library})
    used, resident = ast.literal_eval(found.stdout)
    assert 5000 * 4096 <= used <= resident
