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
starved. Within that, first come, first served. Static files and a stream's
waiting take no turn (they cost next to nothing, and answer at once), nor
does anything away from a table's play (:func:`kind_of`).

A turn is the outermost thing a thread takes: it is taken before any lock
of the app's and given back after the last, and a thread holding one never
asks for another (a stream takes one for each push, between its waits).
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, Iterable, Iterator

URGENT, NEWS, FREE = "urgent", "news", "free"


class Turns:
    """``running`` turns at once, handed on in order of arrival, news ``leeway`` seconds behind."""

    def __init__(self, running: int, leeway: float) -> None:
        if running < 1:
            raise ValueError("TURNS: at least 1 (or 0 in the config: no turns at all)")
        self.running, self.leeway = running, leeway
        self._lock = threading.Lock()
        self._free = running
        self._queue: list[tuple[float, int, threading.Lock]] = []
        self._order = itertools.count()

    def take(self, urgent: bool) -> None:
        with self._lock:
            if self._free > 0 and not self._queue:
                self._free -= 1
                return
            waiter = threading.Lock()
            waiter.acquire()
            due = time.monotonic() + (0.0 if urgent else self.leeway)
            heapq.heappush(self._queue, (due, next(self._order), waiter))
        waiter.acquire()   # released by give_back(): the turn is handed over, never taken in a race

    def give_back(self) -> None:
        with self._lock:
            if self._queue:
                heapq.heappop(self._queue)[2].release()
            else:
                self._free += 1

    @contextmanager
    def turn(self, urgent: bool) -> Iterator[None]:
        self.take(urgent)
        try:
            yield
        finally:
            self.give_back()

    @property
    def waiting(self) -> int:
        return len(self._queue)


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
    turns = Turns(running, float(app.config["TURN_LEEWAY_MS"]) / 1000)
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
