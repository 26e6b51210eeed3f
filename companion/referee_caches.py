"""What the referee keeps in memory: snapshots (with what they rendered) and
the cached states, for the tables in play, and when it lets them go.

:class:`Caches` is a mixin of :class:`companion.referee.Referee` (its
``_lock``, ``_snaps``, ``_cache``, ``_ids``, ``_judged``, ``_read``,
``cache_tables``, ``watching``, ``spare_tables`` and ``spare_unused_s``);
:class:`Entry` is a table's cached state with its recent history and log."""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.snapshot import Snapshot

if TYPE_CHECKING:
    from companion.referee import Referee


@dataclass
class Entry:
    version: int
    moves: int
    state: Any
    seats: list[dict[str, Any]]
    history: "OrderedDict[int, tuple[int, Any]]"  # version -> (moves, state), the latest few
    log: tuple[tuple[str, ...], ...] = ()
    """The game in words: the lines each action gave, in order."""
    rows: tuple[tuple[int, str], ...] = ()
    """The log itself: each action's seat and action, in order, the action as
    its JSON (a third of the memory of the dict, for every move of every
    game in play; read back only to judge a take-back)."""

    def played(self, start: int, stop: int | None = None) -> list[tuple[int, dict[str, Any]]]:
        """The log's rows ``start:stop``, each action as it was applied."""
        return [(seat, json.loads(action)) for seat, action in self.rows[start:stop]]


def log_row(seat: int, action: dict[str, Any]) -> tuple[int, str]:
    return seat, json.dumps(action, separators=(",", ":"))


class Caches:
    def _keep(self: "Referee", snap: Snapshot) -> Snapshot:
        """Keep the snapshot (and what it rendered) for the requests and
        streams of its version: the newest version of each of the tables
        seen last. Not the one before it too: a stream woken for an older
        version is given the newest (``snapshot_at``), and a request or
        stream still drawing the older one holds it itself for as long as it
        needs it; kept here, it was a third of the pages a worker held."""
        table_id = snap.table["id"]
        with self._lock:
            kept = self._snaps.get(table_id)
            if kept is not None:
                snap.drawn = kept.drawn  # the parts as the table last drew them
                if kept.version > snap.version:
                    return snap   # a slower request's older version: the newest stays
            self._snaps[table_id] = snap
            self._snaps.move_to_end(table_id)
            self._ids[snap.code] = table_id
            while len(self._snaps) > self.cache_tables:
                self._snaps.popitem(last=False)
            if kept is None:
                # A table new to the snapshots: the only time there can be one
                # table too many. (Looking at every table at every version was
                # 2% of a busy worker's CPU; a table that stops being watched
                # is let go when the next new one comes.)
                self._trim()
        return snap

    def _trim(self: "Referee") -> None:
        """Let go of the tables nobody watches but the ``spare_tables`` used
        last that a phone asked for within ``spare_unused_s`` (their states,
        snapshots with what they rendered, take-back judgements); a table
        let go is read again from the database if asked for. Called holding
        ``self._lock``.

        A phone asks for a table with its page or a poll of its version. A
        finished game's table, once its phones have moved on to the next
        one, is then let go when the next new table comes, rather than kept
        until ``spare_tables`` newer games have ended: those spares, about a
        megabyte each, were growth of the soak's worker after its first
        minute that the tables in play did not explain."""
        if self.watching is None:
            return
        watched = {self._ids.get(code) for code in self.watching()}
        since = self.clock() - self.spare_unused_s
        asked = {t for t, at in self._read.items() if at >= since}
        for kept in (self._snaps, self._cache):
            idle = [t for t in kept if t not in watched]
            spares = set([t for t in idle if t in asked][-self.spare_tables:] if self.spare_tables else ())
            for table_id in idle:
                if table_id not in spares:
                    del kept[table_id]
        for key in [k for k in self._judged if k[0] not in self._cache]:
            del self._judged[key]
        for table_id in [t for t in self._read if t not in self._cache and t not in self._snaps]:
            del self._read[table_id]

    def _remember(self: "Referee", table_id: int, entry: "Entry") -> None:
        with self._lock:
            old = self._cache.get(table_id)
            if old is None or old.version <= entry.version:
                self._cache[table_id] = entry
                self._cache.move_to_end(table_id)
            while len(self._cache) > self.cache_tables:
                self._cache.popitem(last=False)
            if old is None:   # a table new to the cache (see _keep)
                self._trim()

    def forget(self: "Referee") -> None:
        """Drop every cached state (tests use it to prove a rebuild from the database)."""
        with self._lock:
            self._cache.clear()
            self._snaps.clear()
            self._ids.clear()
