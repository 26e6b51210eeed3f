"""What every part of the store shares: the clock's words, the version
conflict and taken code, and reading a table row."""

from __future__ import annotations

import json
import sqlite3
import time
from datetime import datetime, timedelta, timezone
from typing import Any


class VersionConflict(Exception):
    """The table moved on since the version the caller saw (the referee
    looks again, or tells the phone)."""


class CodeTaken(Exception):
    """Another table already has this code."""


def now(after: float = 0.0) -> str:
    """The time as stored (ISO 8601, UTC), ``after`` seconds from now."""
    return (datetime.now(timezone.utc) + timedelta(seconds=after)).isoformat(timespec="milliseconds")


def clock_words(at: float) -> str:
    """A moment as a table reads it: the hour and minute on the server's clock.

    >>> len(clock_words(0.0)) == 5
    True
    """
    return time.strftime("%H:%M", time.localtime(at))


def table_row(row: dict[str, Any]) -> dict[str, Any]:
    row = dict(row)
    row["options"] = json.loads(row["options"])
    for key in ("id", "seed", "players", "version", "moves", "rewound_at"):
        row[key] = int(row[key])
    # the seat changes told in the log: (the moves made before it, its words) each
    row["events"] = tuple((int(m), str(w)) for m, w in json.loads(row.get("events") or "[]"))
    return row


def tell(c: Any, table_id: int, words: str) -> None:
    """Add ``words`` to the table's log of seat changes, after the moves made
    so far, and make them the notice every phone shows (inside the caller's
    write, after the version's bump, which holds the row)."""
    row = c.one("SELECT events, moves FROM game_tables WHERE id = ?", (table_id,))
    events = json.loads(row["events"] or "[]") if row else []
    events.append([int(row["moves"]) if row else 0, words])
    c.execute("UPDATE game_tables SET events = ?, notice = ? WHERE id = ?", (json.dumps(events), words, table_id))


def is_unique_violation(exc: Exception) -> bool:
    if isinstance(exc, sqlite3.IntegrityError):
        return "UNIQUE" in str(exc) or "PRIMARY KEY" in str(exc)
    try:
        import psycopg.errors
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.errors.UniqueViolation)
