"""Who is at the table: each person's phone, there or away since when.

A phone is in touch whenever it asks for its table with its seat's secret:
its stream's heartbeat (every ``HEARTBEAT_S`` while the page is open), a
page, a poll, a move. Each worker notes the seats it hears from, in memory,
and its keeper thread writes them to ``seats.seen_at`` every
``PRESENCE_BEAT_S`` (one write for all of them). Then it marks *away* the
seats that no worker has heard from for ``PRESENCE_AWAY_S``, and *back* the
away ones heard from again. Each such change bumps the table's version with
a notice, so every phone redraws who is there, and the host is offered to
hand an away seat to a bot. The changes are conditional updates, so every
worker may run the same sweep: one of them makes each change.

A seat heard from while it is marked away wakes the keeper at once: a
player coming back is shown within a moment, not at the next beat. Bots
have no phone, and no presence.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from companion.db import StorageError

log = logging.getLogger(__name__)


class Presence:
    """One worker's ear for its phones, and its keeper thread."""

    def __init__(self, store: Any, changed: Callable[[str, int], None], *, beat: float = 10.0,
                 away: float = 30.0, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.changed = changed
        self.beat = beat      # how often the seats heard from are written, and the sweep runs
        self.away = away      # a seat unheard from this long is away
        self.clock = clock
        self._heard: dict[tuple[int, int], float] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None

    def heard(self, table_id: int, seat: int, away: bool = False) -> None:
        """The phone of ``seat`` asked for its table just now (``away``: the
        table shows the seat away, so the keeper looks at once)."""
        with self._lock:
            self._heard[(table_id, seat)] = self.clock()
            if self._thread is None and not self._stopping:
                self._thread = threading.Thread(target=self._run, name="labkit-presence", daemon=True)
                self._thread.start()
        if away:
            self._wake.set()

    def stop(self, timeout: float = 0.0) -> None:
        """Stop the keeper (at once: a stopping worker's signal handler may
        not wait; ``timeout``: wait that long for it)."""
        self._stopping = True
        self._wake.set()
        thread = self._thread
        if timeout and thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        while not self._stopping:
            self._wake.wait(self.beat)
            self._wake.clear()
            if self._stopping or self.store.db.closed:
                break
            try:
                self.sweep()
            except StorageError as exc:   # the database is busy or away a moment: the next beat tries again
                log.warning("presence: %s", exc)

    def sweep(self) -> None:
        """Write the seats heard from, then mark the away and the back."""
        with self._lock:
            heard, self._heard = self._heard, {}
        if heard:
            self.store.mark_seen(heard)
        for code, version in self.store.presence_changes(self.clock(), self.away):
            self.changed(code, version)
