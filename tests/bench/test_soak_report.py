"""The soak says why an answer was a 5xx: each game's move statuses and what
the worker logged, busy answers (503) and bugs (500, with their traceback)."""

from __future__ import annotations

from rich.console import Console

from bench.soak_bench import _errors

LOG = """[2026-12-03 06:00:00] WARNING in __init__: all 16 database connections stayed busy for 10 s on POST /t/AAAAA/act
[2026-12-03 06:00:01] ERROR in __init__: unexpected error on GET /t/BBBBB/events
Traceback (most recent call last):
  File "companion/live.py", line 1, in render
KeyError: 'board'
"""


def _printed(results: dict, log: str) -> str:
    console = Console(record=True, width=200)
    _errors(console, results, log)
    return console.export_text()


def test_errors_are_explained_from_the_statuses_and_the_log() -> None:
    results = {"compounded": {"server_errors": 2, "statuses": {"200": 10, "503": 1, "500": 1}},
               "labnotes": {"server_errors": 0, "statuses": {"200": 12}}}
    out = _printed(results, LOG)
    assert "compounded: 2 answers were 5xx" in out and "'503': 1" in out
    assert "labnotes" not in out
    assert "1 busy answers (503) and 1 unexpected errors (500)" in out
    assert "KeyError: 'board'" in out


def test_nothing_is_said_without_errors() -> None:
    assert _printed({"synthesis": {"server_errors": 0, "statuses": {"200": 3}}}, LOG).strip() == ""


def test_the_cpu_is_told_by_kind_of_request_dearest_first() -> None:
    from bench.soak_bench import _limits

    inside = {"moves": 0, "full_gc": {"n": 0}, "young_gc": {"n": 0}, "blocks": [], "left_in_cycles": None,
              "spent": {"act": [100, 500.0], "stream": [4, 800.0], "stream chunks": [300, 0.0], "page": [0, 0.0]}}
    console = Console(record=True, width=400)
    _limits(console, inside, None)
    out = console.export_text()
    assert "stream 0.8 s over 4 (200.00 ms each); act 0.5 s over 100 (5.00 ms each)" in out
    assert "the streams sent 300 events and heartbeats" in out
    assert "page" not in out and "stream chunks" not in out
