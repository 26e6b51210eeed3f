"""What every part of the store shares: the clock's words, the version
conflict and taken code, and reading a table row."""

from __future__ import annotations

import json
import sqlite3
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


def table_row(row: dict[str, Any]) -> dict[str, Any]:
    row = dict(row)
    row["options"] = json.loads(row["options"])
    for key in ("id", "seed", "players", "version", "moves", "rewound_at"):
        row[key] = int(row[key])
    return row


def is_unique_violation(exc: Exception) -> bool:
    if isinstance(exc, sqlite3.IntegrityError):
        return "UNIQUE" in str(exc) or "PRIMARY KEY" in str(exc)
    try:
        import psycopg.errors
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.errors.UniqueViolation)
