"""Storage: the only module that talks to the database.

Tables, their seats (tokens stored as SHA-256 digests, never in clear) and
each table's action log. A table's game state is never stored: it is the
engine's ``setup(seed, options)`` followed by a replay of the log, so the log
is the whole truth and a restarted server resumes every table exactly.

Two back ends, one set of SQL statements:

* SQLite (default): a file under the instance folder, WAL mode, a busy
  timeout, and ``BEGIN IMMEDIATE`` for every write;
* PostgreSQL when ``DATABASE_URL`` names one (psycopg 3).

Every change bumps the table's ``version`` inside the same transaction with
``UPDATE ... WHERE version = ?``: two threads or two processes acting on the
same version can never both succeed (the loser gets :class:`Conflict`), and
the primary key on ``(table_id, seq)`` of the log backs that up.

Flask side, the tutorial's pattern: :func:`init_app` binds a database to the
app, :func:`get_store` hands out the :class:`Store` of the current app.
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

SCHEMA_VERSION = 1

_TABLES = """
CREATE TABLE IF NOT EXISTS game_tables (
    id {pk},
    code TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    seed BIGINT NOT NULL,
    options TEXT NOT NULL,
    host_token TEXT NOT NULL,
    status TEXT NOT NULL,
    players INTEGER NOT NULL DEFAULT 0,
    version BIGINT NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    rewound_at BIGINT NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
)"""
_SEATS = """
CREATE TABLE IF NOT EXISTS seats (
    table_id BIGINT NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
)"""
_ACTIONS = """
CREATE TABLE IF NOT EXISTS actions (
    table_id BIGINT NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    version BIGINT NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
)"""
_META = """
CREATE TABLE IF NOT EXISTS companion_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
)"""


class StorageError(Exception):
    """Base of what the store raises on purpose."""


class Conflict(StorageError):
    """The table moved on since the version the caller saw."""


class NotFound(StorageError):
    """No table with that code."""


class Refused(StorageError):
    """The change is not possible now; the message is for players."""


@dataclass(frozen=True)
class LogEntry:
    seq: int
    version: int
    seat: int
    action: dict[str, Any]


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


# --- connections -------------------------------------------------------

class _Connection:
    """A thin adapter so the same SQL (``?`` placeholders) runs on both back ends."""

    def __init__(self, raw: Any, kind: str) -> None:
        self.raw = raw
        self.kind = kind

    def execute(self, sql: str, params: tuple | list = ()) -> Any:
        if self.kind == "postgres":
            sql = sql.replace("?", "%s")
        return self.raw.execute(sql, params)

    def one(self, sql: str, params: tuple | list = ()) -> dict[str, Any] | None:
        row = self.execute(sql, params).fetchone()
        return None if row is None else dict(row)

    def all(self, sql: str, params: tuple | list = ()) -> list[dict[str, Any]]:
        return [dict(r) for r in self.execute(sql, params).fetchall()]

    @contextmanager
    def write(self) -> Iterator["_Connection"]:
        """One write transaction, taken with the write lock at once (SQLite)."""
        if self.kind == "sqlite":
            self.raw.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                self.raw.execute("ROLLBACK")
                raise
            self.raw.execute("COMMIT")
        else:
            with self.raw.transaction():
                yield self

    def broken(self) -> bool:
        if self.kind == "postgres":
            return bool(self.raw.closed or self.raw.broken)
        return False

    def close(self) -> None:
        try:
            self.raw.close()
        except Exception:  # closing a dead connection: nothing left to do
            pass


class Database:
    """A database named by a URL, with a small pool of open connections.

    ``sqlite:///path/to/file.sqlite3`` or a bare path: SQLite.
    ``postgresql://...`` (or ``postgres://``): PostgreSQL.
    """

    def __init__(self, url: str, *, busy_timeout: float = 10.0, pool_size: int = 16) -> None:
        self.url = url
        self.busy_timeout = busy_timeout
        if url.startswith(("postgresql://", "postgres://")):
            self.kind = "postgres"
        else:
            self.kind = "sqlite"
            path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
            if path.startswith("sqlite:"):
                raise ValueError(f"cannot read database URL {url!r}: use sqlite:///path")
            self.path = Path(path)
        self._pool: queue.LifoQueue[_Connection] = queue.LifoQueue(maxsize=pool_size)
        self._schema_ready = False
        self._schema_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Database({self.kind})"

    def _open(self) -> _Connection:
        if self.kind == "sqlite":
            self.path.parent.mkdir(parents=True, exist_ok=True)
            raw = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None,
                                  check_same_thread=False)
            raw.row_factory = sqlite3.Row
            raw.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            raw.execute("PRAGMA journal_mode = WAL")
            raw.execute("PRAGMA synchronous = NORMAL")  # WAL: a killed process loses nothing committed
            raw.execute("PRAGMA foreign_keys = ON")
            return _Connection(raw, "sqlite")
        import psycopg
        from psycopg.rows import dict_row

        raw = psycopg.connect(self.url, autocommit=True, row_factory=dict_row, connect_timeout=10)
        return _Connection(raw, "postgres")

    @contextmanager
    def connect(self) -> Iterator[_Connection]:
        try:
            conn = self._pool.get_nowait()
        except queue.Empty:
            conn = self._open()
        try:
            yield conn
        finally:
            if conn.broken():
                conn.close()
            else:
                try:
                    self._pool.put_nowait(conn)
                except queue.Full:
                    conn.close()

    def close(self) -> None:
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                return

    def init_schema(self) -> None:
        with self._schema_lock:
            if self._schema_ready:
                return
            pk = ("INTEGER PRIMARY KEY" if self.kind == "sqlite"
                  else "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
            with self.connect() as c:
                if self.kind == "postgres":
                    # Two processes creating the schema at once would race on
                    # the catalogue; a transaction-level advisory lock orders them.
                    with c.write():
                        c.execute("SELECT pg_advisory_xact_lock(7306541)")
                        self._create(c, pk)
                else:
                    with c.write():
                        self._create(c, pk)
            self._schema_ready = True

    @staticmethod
    def _create(c: _Connection, pk: str) -> None:
        c.execute(_TABLES.format(pk=pk))
        c.execute(_SEATS)
        c.execute(_ACTIONS)
        c.execute(_META)
        c.execute("CREATE INDEX IF NOT EXISTS seats_token ON seats (token)")
        row = c.one("SELECT value FROM companion_meta WHERE key = 'schema_version'")
        if row is None:
            c.execute("INSERT INTO companion_meta (key, value) VALUES ('schema_version', ?)",
                      (str(SCHEMA_VERSION),))
        elif int(row["value"]) > SCHEMA_VERSION:
            raise StorageError(f"the database has schema version {row['value']}, newer than this "
                               f"companion's {SCHEMA_VERSION}: upgrade labkit")


# --- the store -----------------------------------------------------------

class Store:
    """Every question and change the companion makes of its database."""

    def __init__(self, database: Database) -> None:
        self.db = database

    # tables
    def create_table(self, *, code: str, game: str, seed: int, options: dict[str, Any],
                     host_token: str) -> dict[str, Any]:
        """Insert a new table in the lobby. Raises :class:`Conflict` if the code is taken."""
        t = now()
        with self.db.connect() as c:
            if c.one("SELECT id FROM game_tables WHERE code = ?", (code,)):
                raise Conflict(f"table code {code} is taken")
            try:
                with c.write():
                    row = c.one(
                        "INSERT INTO game_tables (code, game, seed, options, host_token, status, "
                        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING *",
                        (code, game, seed, json.dumps(options, sort_keys=True), host_token, t, t))
            except Exception as exc:  # a unique violation from either back end
                if _is_unique_violation(exc):
                    raise Conflict(f"table code {code} is taken") from None
                raise
        assert row is not None
        return _table(row)

    def table(self, code: str) -> dict[str, Any]:
        with self.db.connect() as c:
            row = c.one("SELECT * FROM game_tables WHERE code = ?", (code,))
        if row is None:
            raise NotFound(code)
        return _table(row)

    def version(self, code: str) -> int:
        """The table's version alone: what a phone polls."""
        with self.db.connect() as c:
            row = c.one("SELECT version FROM game_tables WHERE code = ?", (code,))
        if row is None:
            raise NotFound(code)
        return int(row["version"])

    def count_tables(self) -> int:
        with self.db.connect() as c:
            row = c.one("SELECT COUNT(*) AS n FROM game_tables")
        return int(row["n"]) if row else 0

    # seats
    def seats(self, table_id: int) -> list[dict[str, Any]]:
        with self.db.connect() as c:
            return c.all("SELECT seat, name, joined_at FROM seats WHERE table_id = ? ORDER BY seat",
                         (table_id,))

    def seat_for_token(self, table_id: int, token_digest: str) -> int | None:
        with self.db.connect() as c:
            row = c.one("SELECT seat FROM seats WHERE table_id = ? AND token = ?",
                        (table_id, token_digest))
        return None if row is None else int(row["seat"])

    def add_seat(self, table_id: int, name: str, token_digest: str, limit: int) -> tuple[int, int]:
        """Seat a player at a table still in its lobby. Returns (seat, new version)."""
        with self.db.connect() as c:
            with c.write():
                row = c.one("UPDATE game_tables SET version = version + 1, updated_at = ? "
                            "WHERE id = ? AND status = 'lobby' RETURNING version", (now(), table_id))
                if row is None:
                    raise Refused("The game has started: you can watch, but no one can join now.")
                seated = c.all("SELECT seat, name FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
                if len(seated) >= limit:
                    raise Refused(f"The table is full ({limit} players).")
                if any(s["name"].casefold() == name.casefold() for s in seated):
                    raise Refused(f"Someone at this table is already called {name}: pick another name.")
                seat = len(seated)
                c.execute("INSERT INTO seats (table_id, seat, name, token, joined_at) VALUES (?, ?, ?, ?, ?)",
                          (table_id, seat, name, token_digest, now()))
        return seat, int(row["version"])

    def replace_seat_token(self, table_id: int, seat: int, token_digest: str) -> None:
        """Give a seat a new secret (its player moves to another phone); the old one stops working."""
        with self.db.connect() as c:
            with c.write():
                row = c.one("UPDATE seats SET token = ? WHERE table_id = ? AND seat = ? RETURNING seat",
                            (token_digest, table_id, seat))
                if row is None:
                    raise Refused(f"There is no seat {seat + 1} at this table.")

    # the game
    def start(self, table_id: int, expected_version: int, players: int) -> int:
        with self.db.connect() as c:
            with c.write():
                row = c.one("UPDATE game_tables SET status = 'playing', players = ?, version = version + 1, "
                            "updated_at = ? WHERE id = ? AND status = 'lobby' AND version = ? RETURNING version",
                            (players, now(), table_id, expected_version))
                if row is None:
                    raise Conflict("the table changed before it could start")
        return int(row["version"])

    def append_action(self, table_id: int, expected_version: int, expected_moves: int,
                      seat: int, action: dict[str, Any]) -> int:
        """Log one action on top of ``expected_version``; returns the new version.

        Raises :class:`Conflict` if anything happened to the table since.
        """
        text = json.dumps(action, sort_keys=True, separators=(",", ":"))
        with self.db.connect() as c:
            try:
                with c.write():
                    row = c.one("UPDATE game_tables SET version = version + 1, moves = moves + 1, updated_at = ? "
                                "WHERE id = ? AND version = ? AND moves = ? AND status = 'playing' "
                                "RETURNING version", (now(), table_id, expected_version, expected_moves))
                    if row is None:
                        raise Conflict("someone else moved first")
                    c.execute("INSERT INTO actions (table_id, seq, version, seat, action, created_at) "
                              "VALUES (?, ?, ?, ?, ?, ?)",
                              (table_id, expected_moves + 1, row["version"], seat, text, now()))
            except Conflict:
                raise
            except Exception as exc:
                if _is_unique_violation(exc):
                    raise Conflict("someone else moved first") from None
                raise
        return int(row["version"])

    def undo(self, table_id: int, expected_version: int) -> int:
        """Remove the last logged action; returns the new version."""
        with self.db.connect() as c:
            with c.write():
                row = c.one("UPDATE game_tables SET version = version + 1, moves = moves - 1, "
                            "rewound_at = version + 1, updated_at = ? "
                            "WHERE id = ? AND version = ? AND moves > 0 AND status = 'playing' "
                            "RETURNING version, moves", (now(), table_id, expected_version))
                if row is None:
                    current = c.one("SELECT version, moves FROM game_tables WHERE id = ?", (table_id,))
                    if current and int(current["version"]) == expected_version:
                        raise Refused("There is nothing to undo.")
                    raise Conflict("someone else moved first")
                c.execute("DELETE FROM actions WHERE table_id = ? AND seq = ?", (table_id, int(row["moves"]) + 1))
        return int(row["version"])

    def log(self, table_id: int, after_seq: int = 0) -> list[LogEntry]:
        with self.db.connect() as c:
            rows = c.all("SELECT seq, version, seat, action FROM actions WHERE table_id = ? AND seq > ? "
                         "ORDER BY seq", (table_id, after_seq))
        return [LogEntry(int(r["seq"]), int(r["version"]), int(r["seat"]), json.loads(r["action"])) for r in rows]


def _table(row: dict[str, Any]) -> dict[str, Any]:
    row = dict(row)
    row["options"] = json.loads(row["options"])
    for key in ("id", "seed", "players", "version", "moves", "rewound_at"):
        row[key] = int(row[key])
    return row


def _is_unique_violation(exc: Exception) -> bool:
    if isinstance(exc, sqlite3.IntegrityError):
        return "UNIQUE" in str(exc) or "PRIMARY KEY" in str(exc)
    try:
        import psycopg.errors
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.errors.UniqueViolation)


# --- Flask ---------------------------------------------------------------

def database_url(app: Any) -> str:
    """``DATABASE_URL`` from the app's config or the environment, else a
    SQLite file in the instance folder."""
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    if url:
        return url
    return "sqlite:///" + str(Path(app.instance_path) / app.config.get("DATABASE_FILE", "companion.sqlite3"))


def init_app(app: Any) -> None:
    database = Database(database_url(app))
    deadline = time.monotonic() + 30
    while True:  # a database that is still starting up gets a few seconds
        try:
            database.init_schema()
            break
        except Exception:
            if time.monotonic() > deadline or database.kind == "sqlite":
                raise
            time.sleep(0.5)
    app.extensions["companion_store"] = Store(database)


def get_store() -> Store:
    from flask import current_app

    return current_app.extensions["companion_store"]
