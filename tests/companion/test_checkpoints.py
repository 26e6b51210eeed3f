"""SQLite's checkpoints run on a thread of their own, never inside a request
(companion/checkpoints.py)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from companion.db import Database

ROOT = Path(__file__).resolve().parents[2]


def _fill(database: Database, rows: int) -> None:
    with database.connect() as c:
        c.execute("CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT)")
        for _ in range(rows):
            with c.write():
                c.execute("INSERT INTO filler (body) VALUES (?)", ("x" * 4000,))


def _copied(database: Database, within_s: float = 30.0, sleep: Any = time.sleep) -> tuple[int, int, int] | None:
    """The checkpointing thread's last answer once it has copied the whole log back."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        last = database.checkpoints.last if database.checkpoints else None
        if last is not None and last[1] > 0 and last[1] == last[2]:
            return last
        sleep(0.1)
    return None


def test_requests_never_checkpoint_and_a_thread_copies_the_log_back(tmp_path: Any) -> None:
    database = Database(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    with database.connect() as c:
        assert c.one("PRAGMA wal_autocheckpoint")["wal_autocheckpoint"] == 0
    _fill(database, 1200)   # past the 1,000 pages at which a commit would have checkpointed by itself
    last = _copied(database)
    assert last is not None, database.checkpoints.last
    assert database.checkpoints.errors == 0
    # The rows are in the database file itself, not only in the log (which
    # starts again from its beginning once all of it was copied back).
    assert database.path.stat().st_size >= 1200 * 4000
    assert database.checkpoints.native_id not in (None, os.getpid())   # its own thread, not the main one
    database.close()


def test_the_thread_ends_when_its_database_is_closed_or_dropped(tmp_path: Any) -> None:
    database = Database(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    _fill(database, 1)
    first = database.checkpoints
    database.close()
    # At once: the server's master closes its database before it forks the
    # workers, which must not start while a thread is inside SQLite.
    assert first.ended
    _fill(database, 1)   # used again after it was closed: a thread again
    second = database.checkpoints
    assert second is not first and not second.ended
    del database   # dropped without being closed
    gc.collect()
    deadline = time.monotonic() + 10
    while not second.ended and time.monotonic() < deadline:
        time.sleep(0.1)
    assert second.ended
    again = Database(f"sqlite:///{tmp_path / 'x.sqlite3'}")   # the same file, opened again (a restarted app)
    _fill(again, 1200)
    assert _copied(again) is not None and again.checkpoints not in (first, second)
    again.close()


def test_under_gevent_it_is_a_thread_of_the_operating_system(tmp_path: Any) -> None:
    """In a gevent worker ``threading`` makes greenlets, which would run only
    when the worker's one thread gives way: the checkpoint would again hold
    every request. Here the main greenlet never gives way, and the log is
    copied back all the same."""
    script = f"""
from gevent import monkey
monkey.patch_all()
import sys
sys.path.insert(0, {str(ROOT)!r})
from companion.db import Database
from tests.companion.test_checkpoints import _copied, _fill
database = Database("sqlite:///{tmp_path / 'g.sqlite3'}")
_fill(database, 1200)
# waits with the sleep gevent replaced: it blocks this thread without giving way to any greenlet
last = _copied(database, sleep=monkey.get_original("time", "sleep"))
print("copied" if last else "not copied", last, database.checkpoints.native_id)
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("copied"), done.stdout + done.stderr[-2000:]
