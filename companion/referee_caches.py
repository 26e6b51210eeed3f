"""What the referee keeps in memory: snapshots (with what they rendered) and
the cached states, for the tables in play, and when it lets them go.

A mixin of :class:`companion.referee.Referee` (its ``_lock``, ``_snaps``,
``_cache``, ``_ids``, ``_judged``, ``cache_tables``, ``watching`` and
``spare_tables``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.snapshot import Snapshot

if TYPE_CHECKING:
    from companion.referee import Referee, _Entry


class Caches:
    def _keep(self: "Referee", snap: Snapshot) -> Snapshot:
        """Keep the snapshot (and what it rendered) for the requests and
        streams of its version: the newest two versions of a table (a stream
        may still be sending the one before), for the tables seen last."""
        table_id, version = snap.table["id"], snap.version
        with self._lock:
            kept = None
            for near in (version - 1, version - 2, version + 1, version - 3):
                kept = self._snaps.get((table_id, near))
                if kept is not None:
                    snap.drawn = kept.drawn  # the parts as the table last drew them
                    break
            self._snaps[(table_id, version)] = snap
            self._ids[snap.code] = table_id
            for old in (version - 2, version - 3):
                self._snaps.pop((table_id, old), None)
            while len(self._snaps) > 2 * self.cache_tables:
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
        last (their states, snapshots with what they rendered, take-back
        judgements); a table let go is read again from the database if asked
        for. Called holding ``self._lock``."""
        if self.watching is None:
            return
        tables = list(dict.fromkeys(t for t, _ in self._snaps))  # oldest first
        if len(tables) <= self.spare_tables and len(self._cache) <= self.spare_tables:
            return
        watched = {self._ids.get(code) for code in self.watching()}
        for table_id in [t for t in tables if t not in watched][:-self.spare_tables or None]:
            for key in [k for k in self._snaps if k[0] == table_id]:
                del self._snaps[key]
        idle = [t for t in self._cache if t not in watched]
        for table_id in idle[:max(0, len(idle) - self.spare_tables)]:
            del self._cache[table_id]
        for key in [k for k in self._judged if k[0] not in self._cache]:
            del self._judged[key]

    def _remember(self: "Referee", table_id: int, entry: "_Entry") -> None:
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
