"""Requests take turns at the worker's Python (companion.turns): a tap
before the news of someone else's move, news never starved, a static file
never kept waiting, and never more running at once than the turns allow."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from companion import turns as turns_module
from companion.turns import Turns, kind_of

WAIT = 10.0   # only for a broken implementation: the threads below are told, not timed


def _queued(turns: Turns, count: int) -> None:
    deadline = time.monotonic() + WAIT
    while turns.waiting < count:
        assert time.monotonic() < deadline, "a thread never queued for its turn"
        time.sleep(0.001)


def _run_in_order(turns: Turns, arrivals: list[tuple[str, bool]]) -> list[str]:
    """While one turn is held, each of ``arrivals`` (name, urgent) queues in
    that order; the turn is given back and the order they ran in is returned."""
    ran: list[str] = []
    turns.take(True)
    threads = []
    for name, urgent in arrivals:
        def work(name: str = name, urgent: bool = urgent) -> None:
            with turns.turn(urgent):
                ran.append(name)
        thread = threading.Thread(target=work)
        thread.start()
        threads.append(thread)
        _queued(turns, len(threads))
    turns.give_back(True)
    for thread in threads:
        thread.join(WAIT)
    assert not any(t.is_alive() for t in threads)
    return ran


def test_a_tap_goes_before_news_that_came_first() -> None:
    turns = Turns(1, leeway=3600.0)
    order = _run_in_order(turns, [("push 1", False), ("tap 1", True), ("push 2", False), ("tap 2", True)])
    assert order == ["tap 1", "tap 2", "push 1", "push 2"]


def test_news_past_its_leeway_goes_before_later_taps() -> None:
    turns = Turns(1, leeway=0.0)
    order = _run_in_order(turns, [("push", False), ("tap 1", True), ("tap 2", True)])
    assert order == ["push", "tap 1", "tap 2"]


def test_never_more_at_once_than_the_turns() -> None:
    turns = Turns(2, leeway=0.01)
    inside, most, lock = [0], [0], threading.Lock()

    def work(i: int) -> None:
        for _ in range(50):
            with turns.turn(i % 2 == 0):
                with lock:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0)
                with lock:
                    inside[0] -= 1

    threads = [threading.Thread(target=work, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    assert not any(t.is_alive() for t in threads)
    assert most[0] == 2 and inside[0] == 0 and turns.waiting == 0


@pytest.mark.parametrize("method, path, kind", [
    ("POST", "/t/ABCDE/act", "urgent"), ("GET", "/t/ABCDE", "urgent"), ("POST", "/api/tables/ABCDE/actions", "urgent"),
    ("POST", "/t/ABCDE/take-back", "urgent"), ("GET", "/api/tables/ABCDE", "urgent"),
    ("GET", "/t/ABCDE/live", "news"), ("GET", "/api/tables/ABCDE/version", "news"),
    ("GET", "/t/ABCDE/events", "free"), ("GET", "/static/companion.js", "free"),
    ("GET", "/manifest.webmanifest", "free"), ("POST", "/tables", "free"), ("POST", "/api/tables", "free"),
    ("GET", "/", "free"), ("POST", "/paper/somegame/check", "free"),
])
def test_kinds_of_request(method: str, path: str, kind: str) -> None:
    assert kind_of({"REQUEST_METHOD": method, "PATH_INFO": path}) == kind


def test_a_static_file_is_answered_while_a_turn_is_held_and_a_tap_waits(app: Any) -> None:
    turns = app.extensions["companion_turns"]
    client = app.test_client()
    answered: list[int] = []
    for _ in range(turns.running):
        turns.take(True)   # long moves under way, every turn taken
    try:
        assert client.get("/manifest.webmanifest").status_code == 200
        tap = threading.Thread(target=lambda: answered.append(client.get("/t/ZZZZZ").status_code))
        tap.start()
        _queued(turns, 1)
        assert not answered   # it waits for the turn
    finally:
        for _ in range(turns.running):
            turns.give_back(True)
    tap.join(WAIT)
    assert answered == [404] and turns.waiting == 0   # no such table: answered, in its turn


def test_no_turns_when_the_config_says_none(tmp_path: Any, toy: Any) -> None:
    from tests.companion.conftest import make_app

    app = make_app(tmp_path, TURNS=0)
    try:
        assert "companion_turns" not in app.extensions
        assert app.test_client().get("/").status_code == 200
    finally:
        app.extensions["companion_store"].db.close()
    with pytest.raises(ValueError, match="TURNS"):
        turns_module.Turns(0, 0.1)


def test_news_holds_no_more_turns_than_its_share() -> None:
    """With one of two turns for news, a second push waits while a first
    runs, and a tap that comes meanwhile takes the other turn at once."""
    turns = Turns(2, leeway=0.0, news=1)
    turns.take(False)                      # a push under way
    ran: list[str] = []

    def push() -> None:
        with turns.turn(False):
            ran.append("push 2")

    second = threading.Thread(target=push)
    second.start()
    _queued(turns, 1)                      # the second push waits, a turn free beside it
    turns.take(True)                       # a tap: the free turn, at once
    assert ran == [] and turns.waiting == 1
    turns.give_back(True)
    assert ran == [] and turns.waiting == 1  # the free turn is still not news's
    turns.give_back(False)                 # the first push ends: the second goes
    second.join(WAIT)
    assert not second.is_alive() and ran == ["push 2"] and turns.waiting == 0


def test_news_turns_are_checked() -> None:
    with pytest.raises(ValueError, match="NEWS_TURNS"):
        Turns(2, leeway=0.0, news=3)
    with pytest.raises(ValueError, match="NEWS_TURNS"):
        Turns(2, leeway=0.0, news=0)
