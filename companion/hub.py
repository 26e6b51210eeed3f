"""News of table changes, for the phones' streams: a change committed by any
worker wakes the streams of that table in every worker at once.

In a process, each table has a condition its streams wait on; a change is
published with the table's new version. Across processes (several workers,
several machines) a fan-out carries it:

* ``postgres``: ``NOTIFY labkit_tables, 'CODE:version'`` after the commit,
  and a listening connection per worker (PostgreSQL's own pub/sub);
* ``redis``: ``PUBLISH`` / ``SUBSCRIBE`` on a Redis server (``REDIS_URL``);
* ``poll``: several workers on one SQLite file: a thread reads the versions
  of the tables someone is watching, every ``POLL_S`` seconds;
* ``local``: one worker: nothing crosses a process.

A missed message costs little: a stream also looks at the table when its
wait times out (every ``HEARTBEAT_S``), so it is never more than that behind.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

log = logging.getLogger(__name__)

CHANNEL = "labkit_tables"
HEARTBEAT_S = 4.0
"""An event down each idle stream: a phone that left frees its thread within
this, and a page that hears none for this and a second more says its
connection is lost (companion.js)."""
POLL_S = 0.05


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, tuple[threading.Condition, list[int]]] = {}
        self._watchers: dict[str, int] = {}
        self.fanout: Fanout = Local()
        self.closed = False
        """The worker is stopping: streams end, and their phones reconnect (to another worker)."""

    def close(self) -> None:
        """Wake every stream so it ends (a worker told to stop does not wait on them)."""
        self.closed = True
        with self._lock:
            slots = list(self._tables.values())
        for cond, _ in slots:
            with cond:
                cond.notify_all()

    def _slot(self, code: str) -> tuple[threading.Condition, list[int]]:
        with self._lock:
            slot = self._tables.get(code)
            if slot is None:
                slot = self._tables[code] = (threading.Condition(), [-1])
            return slot

    def publish(self, code: str, version: int) -> None:
        """A change committed here: wake this process's streams, tell the others."""
        self.arrived(code, version)
        try:
            self.fanout.send(code, version)
        except Exception:  # the change is committed; the other workers catch up at their next heartbeat
            log.exception("could not fan out %s@%s", code, version)

    def arrived(self, code: str, version: int) -> None:
        """A change, committed here or by another worker."""
        cond, latest = self._slot(code)
        with cond:
            if version > latest[0]:
                latest[0] = version
                cond.notify_all()

    def newest(self, code: str, version: int) -> int:
        """``version``, or a newer one of the table heard of since: a stream
        that waited for its turn draws the table as it is by then, not each
        version in between."""
        _, latest = self._slot(code)
        return max(version, latest[0])

    def wait(self, code: str, after: int, timeout: float = HEARTBEAT_S) -> int | None:
        """The table's version once it is past ``after``; ``None`` if nothing
        arrived within ``timeout`` (the caller looks for itself then)."""
        cond, latest = self._slot(code)
        with cond:
            if cond.wait_for(lambda: latest[0] > after or self.closed, timeout) and not self.closed:
                return latest[0]
        return None

    def watching(self, code: str, delta: int) -> None:
        with self._lock:
            n = self._watchers.get(code, 0) + delta
            if n > 0:
                self._watchers[code] = n
            else:
                self._watchers.pop(code, None)

    def watched(self) -> list[str]:
        with self._lock:
            return list(self._watchers)


class Fanout:
    name = "local"

    def send(self, code: str, version: int) -> None:
        """Tell the other workers."""

    def start(self, hub: Hub) -> None:
        """Start listening for the other workers' news."""


class Local(Fanout):
    """One worker: nothing to tell anyone."""


class Postgres(Fanout):
    name = "postgres"

    def __init__(self, database: Any) -> None:
        self.database = database
        self.url = database.url

    def send(self, code: str, version: int) -> None:
        # On any of the worker's pooled connections: one sending connection
        # behind a lock made every change queue for it (a change took 0.5 s
        # to announce with 50 tables playing).
        with self.database.connect() as c:
            c.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{code}:{version}"))

    def start(self, hub: Hub) -> None:
        def listen() -> None:
            import psycopg

            while True:
                try:
                    with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        for note in conn.notifies():
                            _deliver(hub, note.payload)
                except Exception:  # the database went away: listen again shortly
                    log.warning("LISTEN %s lost its connection; reconnecting", CHANNEL, exc_info=True)
                    time.sleep(1.0)

        threading.Thread(target=listen, name="labkit-listen", daemon=True).start()


class Redis(Fanout):
    name = "redis"

    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url)

    def send(self, code: str, version: int) -> None:
        self.client.publish(CHANNEL, f"{code}:{version}")

    def start(self, hub: Hub) -> None:
        def listen() -> None:
            while True:
                try:
                    pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                    pubsub.subscribe(CHANNEL)
                    for message in pubsub.listen():
                        _deliver(hub, message["data"].decode())
                except Exception:
                    log.warning("Redis subscription lost; reconnecting", exc_info=True)
                    time.sleep(1.0)

        threading.Thread(target=listen, name="labkit-subscribe", daemon=True).start()


class Poll(Fanout):
    """Several workers on one SQLite file: read the watched tables' versions."""

    name = "poll"

    def __init__(self, versions: Callable[[list[str]], dict[str, int]]) -> None:
        self.versions = versions

    def start(self, hub: Hub) -> None:
        def poll() -> None:
            while True:
                time.sleep(POLL_S)
                codes = hub.watched()
                if not codes:
                    continue
                try:
                    for code, version in self.versions(codes).items():
                        hub.arrived(code, version)
                except Exception:
                    log.warning("could not read table versions", exc_info=True)

        threading.Thread(target=poll, name="labkit-poll", daemon=True).start()


def _deliver(hub: Hub, payload: str) -> None:
    code, _, version = payload.rpartition(":")
    if code and version.isdigit():
        hub.arrived(code, int(version))


def choose(kind: str, *, database: Any, redis_url: str | None,
           workers: int, versions: Callable[[list[str]], dict[str, int]]) -> Fanout:
    """The fan-out for this deployment (``FANOUT`` setting; ``auto`` picks)."""
    if kind == "auto":
        kind = ("redis" if redis_url else "postgres" if database.kind == "postgres"
                else "poll" if workers > 1 else "local")
    if kind == "redis":
        if not redis_url:
            raise ValueError("FANOUT=redis needs REDIS_URL")
        return Redis(redis_url)
    if kind == "postgres":
        if database.kind != "postgres":
            raise ValueError("FANOUT=postgres needs a PostgreSQL DATABASE_URL")
        return Postgres(database)
    if kind == "poll":
        return Poll(versions)
    if kind == "local":
        return Local()
    raise ValueError(f"unknown FANOUT {kind!r} (auto, local, poll, postgres, redis)")
