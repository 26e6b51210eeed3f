"""Whose work runs next when a worker is busy.

A worker runs one thread of Python at a time (the interpreter lock). Left
to themselves, the requests under way share it a few milliseconds each in
turn, so each takes as long as all of them together: at 50 busy tables a
player's tap waited seconds behind the pushes to other phones, and even a
tiny request (a static file) waited as long.

So a request's work takes a *turn*: ``TURNS`` of them run at once, the rest
wait asleep, holding nothing. The work a player is waiting on (their own tap,
a page they opened) goes before the news of someone else's move (a stream's
push, a phone's poll), which may come a little later: a push waits at most
``TURN_LEEWAY_MS`` behind taps that arrived after it, so pushes are never
starved. Within that, first come, first served. News holds at most
``NEWS_TURNS`` of the turns at once (default 1 of 2), so a tap never finds
every turn taken by pushes: in three alternated pairs of 150-second soaks
(50 tables) one turn for news gave act p95 84-144 ms against 159-403 with
both, seen p95 160-208 against 215-426, and 14.2-14.9 ms of CPU a move
against 16.0-17.5 (docs/design/serving-speed.md). Static files and a stream's
waiting take no turn (they cost next to nothing, and answer at once), nor
does anything away from a table's play (:func:`kind_of`).

A turn is the outermost thing a thread takes: it is taken before any lock
of the app's and given back after the last, and a thread holding one never
asks for another (a stream takes one for each push, between its waits).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, Iterable, Iterator

URGENT, NEWS, FREE = "urgent", "news", "free"


class Turns:
    """``running`` turns at once, at most ``news`` of them for news, handed
    on in order of arrival, news ``leeway`` seconds behind."""

    def __init__(self, running: int, leeway: float, news: int | None = None) -> None:
        if running < 1:
            raise ValueError("TURNS: at least 1 (or 0 in the config: no turns at all)")
        news = running if news is None else news
        if not 1 <= news <= running:
            raise ValueError(f"NEWS_TURNS: from 1 to TURNS ({running}), not {news}")
        self.running, self.leeway, self.news = running, leeway, news
        self._lock = threading.Lock()
        self._free = running
        self._news_running = 0
        # each in order of arrival (and so of when it is due: the leeway is the same for all news)
        self._urgent: deque[tuple[float, int, threading.Lock]] = deque()
        self._newsq: deque[tuple[float, int, threading.Lock]] = deque()
        self._order = itertools.count()

    def take(self, urgent: bool) -> None:
        with self._lock:
            # At rest every waiter that could go has gone: a free turn means
            # no tap is waiting, and no news either unless news has all its turns.
            if self._free > 0 and (urgent or self._news_running < self.news):
                self._free -= 1
                self._news_running += not urgent
                return
            waiter = threading.Lock()
            waiter.acquire()
            now = time.monotonic()
            if urgent:
                self._urgent.append((now, next(self._order), waiter))
            else:
                self._newsq.append((now + self.leeway, next(self._order), waiter))
        waiter.acquire()   # released by give_back(): the turn is handed over, never taken in a race

    def give_back(self, urgent: bool) -> None:
        with self._lock:
            self._news_running -= not urgent
            self._free += 1
            while self._free > 0:
                news = bool(self._newsq) and self._news_running < self.news
                if self._urgent and (not news or self._urgent[0][:2] <= self._newsq[0][:2]):
                    waiter = self._urgent.popleft()[2]
                elif news:
                    waiter = self._newsq.popleft()[2]
                    self._news_running += 1
                else:
                    return
                self._free -= 1
                waiter.release()

    @contextmanager
    def turn(self, urgent: bool) -> Iterator[None]:
        self.take(urgent)
        try:
            yield
        finally:
            self.give_back(urgent)

    @property
    def waiting(self) -> int:
        return len(self._urgent) + len(self._newsq)


def kind_of(environ: dict[str, Any]) -> str:
    """Whether a request is one a player waits on at a table, news of
    another's move, or takes no turn: a stream (it takes a turn for each
    push itself, companion.stream), a static file, and everything away from
    a table's play (making a table, checking an uploaded card set, the paper
    tools), which is rare, and may be long or wait on another process:
    holding the one turn, it would hold up every table."""
    path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
    if not path.startswith(("/t/", "/api/tables/")) or path.endswith("/events"):
        return FREE
    if method == "GET" and path.endswith(("/live", "/version")):
        return NEWS   # a phone that cannot hold a stream, polling
    return URGENT


def install(app: Any) -> Turns | None:
    """Make the app's requests take turns (``TURNS`` at once; 0: none)."""
    running = int(app.config["TURNS"])
    if running <= 0:
        return None
    news = app.config.get("NEWS_TURNS")
    turns = Turns(running, float(app.config["TURN_LEEWAY_MS"]) / 1000, None if news is None else int(news))
    inner: Callable[..., Iterable[bytes]] = app.wsgi_app

    def in_turn(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        kind = kind_of(environ)
        if kind == FREE:
            return inner(environ, start_response)
        with turns.turn(kind == URGENT):
            # the answer is made whole before it is returned (only a stream's is
            # made as it is sent, and a stream is FREE here)
            return inner(environ, start_response)

    app.wsgi_app = in_turn
    app.extensions["companion_turns"] = turns
    return turns


def turn_for_news(app: Any) -> Any:
    """The context a stream makes each push in: a turn when the app takes turns."""
    turns = app.extensions.get("companion_turns")
    return turns.turn(False) if turns is not None else nullcontext()
