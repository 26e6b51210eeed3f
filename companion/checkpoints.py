"""SQLite's checkpoints, kept off the path of a request.

In WAL mode SQLite appends each commit to the write-ahead log, and the
commit that takes the log past 1,000 pages then copies the log back into
the database file and syncs the file to disk (a checkpoint): 12-30 ms on
this machine's disk, inside one player's move. A worker of greenlets runs
one request at a time, so every phone of every table waited for it (the
soak's longest pauses, ``docs/design/serving-speed.md``).

So the connections that serve requests never checkpoint
(``wal_autocheckpoint = 0``: :meth:`companion.db.Database._open`), and one
thread of the operating system per process and database does it, once a
second. A real thread even in a gevent worker, where ``threading`` makes
greenlets: SQLite lets go of the interpreter while it copies and syncs, so
requests go on meanwhile. PASSIVE: it never waits for a reader or a writer,
and copies what it can (what a reader still reads is copied next time).

The thread ends when its database is closed (:func:`end`: the server's
master closes its own before it forks the workers, and a process forked
while another thread is inside SQLite could inherit its locks held), when
the database object is gone or its file deleted; a database used again
after it was closed starts another.
Its errors are written to the process's standard error (as gunicorn logs
it) without Python's logging, whose locks are greenlets' in a gevent worker
and cannot be taken from another thread.
"""

from __future__ import annotations

import os
import sqlite3
import weakref
from pathlib import Path

from gevent import monkey

EVERY_S = 1.0
"""How often: a second's moves fill far less than the 1,000 pages at which
SQLite would have checkpointed by itself (a soak of 50 tables writes about
55 moves a second)."""


STEPS = 10
"""The thread looks whether it is told to stop ten times a second."""


class Record:
    """What a checkpointing thread has done (what its tests read)."""

    def __init__(self) -> None:
        self.last: tuple[int, int, int] | None = None
        """The last checkpoint's answer: (1 if it was blocked, pages in the
        log, of them copied into the database file)."""
        self.errors = 0
        self.native_id: int | None = None
        """The operating system's number for the thread (not the process's own)."""
        self.ended = False
        self.stop = False


def keep(owner: object, path: Path, busy_timeout: float) -> Record:
    """Start a checkpointing thread for ``path`` in this process, for as long
    as ``owner`` (the :class:`companion.db.Database`, which starts one per
    process it is used in) lives."""
    record = Record()
    # The thread and the sleep gevent's patching replaced: a greenlet would
    # checkpoint on the worker's one thread, as before.
    start = monkey.get_original("_thread", "start_new_thread")
    start(_run, (weakref.ref(owner), path, busy_timeout, record))
    return record


def _run(owner: "weakref.ref[object]", path: Path, busy_timeout: float, record: Record) -> None:
    sleep = monkey.get_original("time", "sleep")
    record.native_id = monkey.get_original("threading", "get_native_id")()
    conn: sqlite3.Connection | None = None
    try:
        while True:
            for _ in range(STEPS):
                sleep(EVERY_S / STEPS)
                if record.stop:
                    return
            if owner() is None or not path.exists():
                return
            try:
                if conn is None:
                    conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None,
                                           check_same_thread=False)
                record.last = tuple(conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())
            except sqlite3.Error as exc:
                record.errors += 1
                os.write(2, f"labkit: checkpointing {path} failed ({exc}); trying again in {EVERY_S:g} s\n"
                         .encode(errors="replace"))
    finally:
        if conn is not None:
            conn.close()
        record.ended = True


def end(record: Record, within_s: float = 2.0) -> None:
    """Stop the thread and wait until it has (its checkpoint, if one is under
    way, finishes first)."""
    record.stop = True
    sleep = monkey.get_original("time", "sleep")
    waited = 0.0
    while not record.ended and waited < within_s:
        sleep(0.01)
        waited += 0.01
