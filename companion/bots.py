"""The bots at the tables: one driver thread per serving process, and a pool
of worker processes where the bots think.

The driver watches the tables being played with a bot seat (a query every
``BOT_POLL_S``, and at once when this process commits a change). When a bot
is to move it sends the question to the pool and goes on: no request thread
and no driver step ever waits on a bot's thinking. A question is plain data,
the seat's state with its hidden parts dealt afresh (``resample_hidden``:
what the seat cannot see never leaves this process), the level, the budget
and the decision's seed, :func:`engine.bots.stream.decision_seed` of (the
table's seed, the seat, the version the bot decides on): so a bot's moves
are reproducible from the table's seed and its log (an action logged at
version ``v`` was decided on ``v - 1``), and a move the host took back is
decided afresh, on the undo's own version, not replayed.

The driver runs while any table has a bot seat in its lobby or in play (a
host waiting for a friend to join, a game under way), and stops after
``BOT_IDLE_S`` with none; whatever gives a table a bot's turn again (a
start, a rematch, an undo of a finished game, a restart) starts it through
the app's ``changed`` hook. Its pool of thinking processes closes after the
same time with no game in play.

An answer is played through :meth:`companion.referee.Referee.act`, the path
of a person's move (the same checks, log, narration and live updates), no
sooner than ``BOT_PACE_S`` after the seat was first asked on this stretch
of the game (an undo starts a new one), so people can follow, and only on
the version it was chosen on (``strict``; anything else and the bot thinks
again). Its action id, ``bot-seat<seat>-v<version>``, makes it
the same request wherever it comes from: two processes that both drive a
table (several workers after a restart) log it once.

A worker that dies breaks the pool (``BrokenProcessPool``): the driver starts
a new pool and asks again; a bot's own error is logged with its traceback and
its seat waits until the table changes (an undo, a person taking the seat).
Nothing here is kept in memory that the database does not hold: a restarted
server's driver finds the same tables and the same questions.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.bots import Budget
from engine.bots.stream import decision_seed
from companion.bot_worker import end_with_parent, think
from companion.db import StorageError
from companion.errors import Conflict, REFUSALS
from labkit import registry

if TYPE_CHECKING:
    from companion.referee import Referee

log = logging.getLogger(__name__)

_HIDDEN = -7
"""The "seat" of the stream that deals a question's hidden parts: apart from
every bot's own stream (a bot's choice does not depend on it: every game's
``resample_hidden`` is canonical, docs/design/bots.md)."""


BROKEN_S = 30.0
"""A table whose driving raised something unexpected (a bug, logged with its
traceback) is left alone this long, rather than failing again at every poll."""

@dataclass
class _Job:
    version: int
    stretch: tuple[str, int, int, int]
    future: Future
    due: float


class Driver:
    """Plays the bot seats of every table this process serves."""

    def __init__(self, referee: "Referee", *, pace: float = 1.0, processes: int = 1, budget: Budget | None = None,
                 poll: float = 0.25, idle: float = 30.0) -> None:
        self.referee = referee
        self.pace = pace          # seconds from a bot's turn to its move, at the least
        self.processes = processes
        self.budget = budget or Budget()
        self.poll = poll          # how often the tables are read (another worker's changes)
        self.idle = idle          # with no table to drive for this long, the thread and its pool stop
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._jobs: dict[tuple[str, int], _Job] = {}
        self._asked: dict[tuple[str, int, int, int], float] = {}   # (code, seat, decision, rewound at) -> first asked
        self._failed: set[tuple[str, int, int]] = set()       # (code, seat, version) a bot could not play
        self._broken: dict[str, float] = {}                   # code -> when driving it last raised
        self._stopping = False

    # --- the thread ------------------------------------------------------------------
    def start(self) -> None:
        """Make sure the driver runs (a table gained a bot, or the app found
        one being played when it started)."""
        with self._lock:
            self._stopping = False
            self._wake.set()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="labkit-bots", daemon=True)
                self._thread.start()

    def poke(self) -> None:
        """Something changed here: look at the tables now, not at the next poll."""
        self._wake.set()

    @property
    def running(self) -> bool:
        return self._thread is not None

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the thread and the pool (a test, a worker shutting down),
        waiting up to ``timeout`` for the thread and for the pool's processes
        to end. ``timeout`` 0: only tell them to stop (a signal handler, which
        may not wait; the worker's exit then waits)."""
        with self._lock:
            self._stopping = True
            thread = self._thread
        self._wake.set()
        if timeout and thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        self._close_pool(wait=bool(timeout))

    def _run(self) -> None:
        quiet_since = played_since = time.monotonic()
        while not self._stopping:
            try:
                playing, waiting = self._round()
            except StorageError as exc:   # the database is busy or away for a moment: try again at the next poll
                log.warning("bots: %s", exc)
                playing = waiting = True
            now = time.monotonic()
            if playing:
                played_since = now
            elif now - played_since > self.idle:
                self._close_pool()        # its processes hold memory; the next game's first question starts it again
            if playing or waiting:
                quiet_since = now
            elif now - quiet_since > self.idle:
                self._close_pool()
                with self._lock:
                    if not self._wake.is_set():   # nobody asked for the driver meanwhile: stop until asked
                        self._thread = None
                        return
            self._wake.wait(self._pause())
            self._wake.clear()
        self._close_pool()
        with self._lock:
            self._thread = None

    def _pause(self) -> float:
        """Until the next move falls due, or the next poll."""
        now = time.monotonic()
        due = [job.due - now for job in self._jobs.values() if job.future.done()]
        return max(0.0, min([self.poll, *due]))

    def _round(self) -> tuple[bool, bool]:
        """One look at every table with a bot: whether one is being played,
        and whether one waits in its lobby (its bots will play once it starts)."""
        tables = self.referee.store.bot_tables()
        codes = [code for code, status in tables.items() if status == "playing"]
        for key in [k for k in self._jobs if k[0] not in codes]:   # finished, undone to the lobby, forgotten
            self._jobs.pop(key).future.cancel()
        self._asked = {k: v for k, v in self._asked.items() if k[0] in codes}
        self._failed = {k for k in self._failed if k[0] in codes}
        now = time.monotonic()
        for code in codes:
            if self._stopping:
                break
            if self._broken.get(code, -BROKEN_S) > now - BROKEN_S:
                continue
            try:
                self._table(code)
            except REFUSALS as exc:   # the table went away or changed under us: the next round looks again
                log.info("bots at %s: %s", code, exc)
            except Exception:  # logged with its traceback, not hidden: one broken table must not stop the others
                log.exception("bots at %s (left alone for %g s)", code, BROKEN_S)
                self._broken[code] = now
        return bool(codes), len(tables) > len(codes)

    # --- one table -------------------------------------------------------------------
    def _table(self, code: str) -> None:
        snap = self.referee.snapshot(code)
        if not snap.started or snap.over:
            return
        bots = {int(s["seat"]): s["bot"] for s in snap.seats if s.get("bot")}
        for seat in snap.to_move():
            key = (code, seat)
            job = self._jobs.get(key)
            if seat not in bots or snap.game.waits(snap.state, seat):
                # a person took the seat back, or the bot waits for another
                # seat's answer (an offer made): asked again once the table changes
                if job is not None:
                    self._jobs.pop(key).future.cancel()
                continue
            if job is not None and job.version == snap.version:
                if job.future.done() and time.monotonic() >= job.due:
                    self._jobs.pop(key)
                    self._play(snap, seat, job)
                    return                       # the table moved on: the next round reads it again
                continue
            if job is not None:                  # asked on a version that is gone: ask again
                self._jobs.pop(key).future.cancel()
            if (code, seat, snap.version) not in self._failed:
                self._ask(snap, seat, bots[seat])

    def _ask(self, snap, seat: int, level: str) -> None:
        table = snap.table
        decision = self.referee.store.decisions(table["id"], seat)
        # The pace counts from the first time this decision was asked for on
        # this stretch of the game: a re-ask after a neighbour's move keeps
        # it; after an undo the bot waits the full pace again.
        stretch = (snap.code, seat, decision, int(table["rewound_at"]))
        first = self._asked.setdefault(stretch, time.monotonic())
        seed = decision_seed(int(table["seed"]), seat, snap.version)
        dealt = decision_seed(int(table["seed"]), _HIDDEN - seat, snap.version)
        sample = snap.game.resample_hidden(snap.state, seat, dealt)
        digest = table.get("card_set")   # a custom set: the worker builds its rules from the stored zip
        card_set = (digest, self.referee.table_sets().zip_of(digest)) if digest else None
        future = self._submit(registry.find(table["game"]), snap.game.to_dict(sample), seat, level, seed,
                              card_set=card_set)
        if future is not None:
            future.add_done_callback(lambda _: self._wake.set())
            self._jobs[(snap.code, seat)] = _Job(snap.version, stretch, future, first + self.pace)

    def _play(self, snap, seat: int, job: _Job) -> None:
        error = job.future.exception()
        if isinstance(error, BrokenProcessPool):
            log.warning("a bot worker died; starting another (table %s, seat %d)", snap.code, seat + 1)
            self._close_pool()
            return
        if error is not None:
            log.error("the bot of seat %d at %s failed on version %d", seat + 1, snap.code, snap.version,
                      exc_info=error)
            self._failed.add((snap.code, seat, snap.version))
            return
        try:
            self.referee.act(snap, seat, job.future.result(), snap.version, f"bot-seat{seat}-v{snap.version}",
                             strict=True)
        except Conflict:
            return   # the table moved since: the bot thinks again on the new version
        except REFUSALS as exc:  # the rules refused a bot's move: a bug in the game's bot support
            log.error("the rules refused the bot of seat %d at %s: %s", seat + 1, snap.code, exc)
            self._failed.add((snap.code, seat, snap.version))
            return
        self._asked.pop(job.stretch, None)

    # --- the pool ----------------------------------------------------------------------
    def _submit(self, *args, card_set: tuple[str, bytes] | None = None) -> Future | None:
        if self._stopping:
            return None
        if self._pool is None:
            # spawn, not fork: the serving process has threads (and their locks)
            # that a forked child would inherit mid-use; each process ends with
            # this one, even killed (bot_worker.end_with_parent)
            self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=end_with_parent)
        try:
            return self._pool.submit(think, *args, self.budget, card_set)
        except BrokenProcessPool:   # a worker died while idle: the next round starts a new pool
            log.warning("a bot worker died; starting another")
            self._close_pool()
            return None
        except RuntimeError:
            # The interpreter is exiting (its pools were shut down for it): the
            # worker is stopping, and so do the bots.
            self._stopping = True
            return None

    def _close_pool(self, wait: bool = False) -> None:
        pool, self._pool = self._pool, None
        for job in self._jobs.values():
            job.future.cancel()
        self._jobs.clear()
        if pool is not None:
            # waiting reaps the processes and frees the pool's semaphores (a stopping worker)
            pool.shutdown(wait=wait, cancel_futures=True)
