"""The database: connections, the schema, and the Flask binding. What is
asked of it lives in :mod:`companion.store`, the only module that writes SQL.

Tables, their seats (tokens stored as SHA-256 digests, never in clear) and
each table's action log. A table's game state is never stored: it is the
engine's ``setup(seed, options)`` followed by a replay of the log, so the log
is the whole truth and a restarted server resumes every table exactly.

Two back ends, one set of SQL statements:

* SQLite (default): a file under the instance folder, WAL mode, a busy
  timeout, and ``BEGIN IMMEDIATE`` for every write but the hot one (an
  action logged: one statement, see :meth:`Store.append_action`);
* PostgreSQL when ``DATABASE_URL`` names one (psycopg 3).

Flask side: :func:`open_database` opens the app's database;
:func:`companion.store.init_app` binds a store on it to the app.
"""

from __future__ import annotations

import os
import queue
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from companion import checkpoints

SCHEMA_VERSION = 6
"""1: tables, seats, the log. 2: action ids, a table's notice and rematch,
handover links, rate-limit buckets. 3: an action's ``ends`` flag and, on
SQLite, the trigger that moves a table on as its action is logged. 4: a
seat's ``bot`` level (NULL: a person holds it). 5: card sets, and the set a
table plays (NULL: the game's own). 6: a seat's ``took_over``, ``seen_at``
and ``away_since`` (companion.presence), a table's ``events``. Each added in
place to an older database."""

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
    updated_at TEXT NOT NULL,
    notice TEXT,
    rematch TEXT
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
    action_id TEXT,
    PRIMARY KEY (table_id, seq)
)"""
_HANDOVERS = """
CREATE TABLE IF NOT EXISTS handovers (
    nonce TEXT PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
)"""
_LIMITS = """
CREATE TABLE IF NOT EXISTS rate_limits (
    bucket TEXT NOT NULL,
    client TEXT NOT NULL,
    tokens DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (bucket, client)
)"""
# A custom card set, kept whole (as the one zip labkit.setfiles.write_zip
# makes of its files) under its content hash: every worker, and a restarted
# server, plays a table with exactly the cards it was started with.
_CARD_SETS = """
CREATE TABLE IF NOT EXISTS card_sets (
    hash TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    author TEXT NOT NULL,
    version TEXT NOT NULL,
    files {blob} NOT NULL,
    created_at TEXT NOT NULL,
    used_at TEXT NOT NULL
)"""
_ADDED = {  # columns newer than version 1, added to an older database in place
    "game_tables": [("notice", "TEXT"), ("rematch", "TEXT"),
                    ("card_set", "TEXT"),   # a card_sets hash; NULL: the game's own set
                    ("events", "TEXT")],    # the seat changes told in the log, JSON (companion.store_seats)
    "actions": [("action_id", "TEXT"), ("ends", "INTEGER NOT NULL DEFAULT 0")],
    "seats": [("bot", "TEXT"),   # a bot's level (engine.bots.LEVELS); NULL: a person's seat
              ("took_over", "INTEGER NOT NULL DEFAULT 0"),   # 1: a bot took over a person's seat mid-game
              ("seen_at", "DOUBLE PRECISION"),   # when the seat's phone was last in touch (Unix time)...
              ("away_since", "DOUBLE PRECISION")],   # ...and since when it has been away (companion.presence)
}
# SQLite: logging an action moves its table on in the same statement (see
# Store.append_action), so the write is one step of SQLite's own and no
# lock of ours is held while its thread waits for the interpreter.
_ADVANCE = """
CREATE TRIGGER IF NOT EXISTS actions_advance AFTER INSERT ON actions BEGIN
    UPDATE game_tables SET version = NEW.version, moves = NEW.seq, updated_at = NEW.created_at,
        notice = NULL, status = CASE WHEN NEW.ends = 1 THEN 'over' ELSE 'playing' END
    WHERE id = NEW.table_id;
END"""
_META = """
CREATE TABLE IF NOT EXISTS companion_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
)"""


class StorageError(Exception):
    """The database is not usable (a newer schema, a broken connection)."""


class DatabaseBusy(StorageError):
    """Every connection this process may hold stayed in use for the whole wait."""


# --- connections -------------------------------------------------------

class _Connection:
    """A thin adapter so the same SQL (``?`` placeholders) runs on both back ends."""

    def __init__(self, raw: Any, kind: str, writer: threading.Lock | None = None) -> None:
        self.raw = raw
        self.kind = kind
        self.writer = writer

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
        """One write transaction, taken with the write lock at once (SQLite).

        SQLite has one writer at a time. Threads of one process queue on a
        lock of their own first: waiting in SQLite's busy handler instead
        means sleeping in growing steps (up to 100 ms) while the writer, which
        needs the interpreter lock between statements, is slowed by every
        sleeper that wakes; under load that convoy cost seconds. Other
        processes still meet the busy timeout."""
        if self.kind == "sqlite":
            assert self.writer is not None
            with self.writer:
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
        # At most pool_size connections open at once in this process: a server
        # has a fixed number of clients (PostgreSQL: max_connections, 100 by
        # default), and 4 workers x 256 threads opening one each under load
        # ran it out ("too many clients"). A request waits for a free one.
        self.pool_size = pool_size
        self._slots = threading.BoundedSemaphore(pool_size)
        self._held = threading.local()   # a thread already holding one never waits for a second
        self._schema_ready = False
        self._schema_lock = threading.Lock()
        self._writer = threading.Lock()   # SQLite: this process's writers, one at a time
        self._checkpointing = 0
        """The process whose checkpointing thread this database has started (SQLite)."""
        self.checkpoints: checkpoints.Record | None = None

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
            # Never inside a request: a thread of its own checkpoints (companion/checkpoints.py).
            raw.execute("PRAGMA wal_autocheckpoint = 0")
            return _Connection(raw, "sqlite", self._writer)
        import psycopg
        from psycopg.rows import dict_row

        raw = psycopg.connect(self.url, autocommit=True, row_factory=dict_row, connect_timeout=10)
        return _Connection(raw, "postgres")

    @contextmanager
    def connect(self) -> Iterator[_Connection]:
        if self.kind == "sqlite" and self._checkpointing != os.getpid():   # this process's own (a fork has none)
            self.checkpoints = checkpoints.keep(self, self.path, self.busy_timeout)
            self._checkpointing = os.getpid()
        depth = getattr(self._held, "depth", 0)
        if depth == 0 and not self._slots.acquire(timeout=self.busy_timeout):
            raise DatabaseBusy(f"all {self.pool_size} database connections stayed busy for "
                               f"{self.busy_timeout:g} s")
        self._held.depth = depth + 1
        try:
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
        finally:
            self._held.depth = depth
            if depth == 0:
                self._slots.release()

    closed = False
    """Closed by its owner (a stopping worker, a test's end): the threads that
    keep it (companion.presence) stop rather than open it again."""

    def close(self) -> None:
        self.closed = True
        if self.checkpoints is not None and self._checkpointing == os.getpid():
            checkpoints.end(self.checkpoints)
            self._checkpointing = 0   # used again: another thread
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

    def _create(self, c: _Connection, pk: str) -> None:
        row = None
        c.execute(_META)
        row = c.one("SELECT value FROM companion_meta WHERE key = 'schema_version'")
        if row is not None and int(row["value"]) > SCHEMA_VERSION:
            raise StorageError(f"the database has schema version {row['value']}, newer than this "
                               f"companion's {SCHEMA_VERSION}: upgrade labkit")
        c.execute(_TABLES.format(pk=pk))
        c.execute(_SEATS)
        c.execute(_ACTIONS)
        c.execute(_HANDOVERS)
        c.execute(_LIMITS)
        c.execute(_CARD_SETS.format(blob="BLOB" if self.kind == "sqlite" else "BYTEA"))
        for table, columns in _ADDED.items():
            have = self._columns(c, table)
            for name, decl in columns:
                if name not in have:
                    c.execute(f"ALTER TABLE {table} ADD COLUMN {name} {decl}")
        c.execute("CREATE INDEX IF NOT EXISTS seats_token ON seats (token)")
        c.execute("CREATE UNIQUE INDEX IF NOT EXISTS actions_ids ON actions (table_id, action_id)")
        c.execute("CREATE INDEX IF NOT EXISTS tables_finished ON game_tables (status, updated_at)")
        if self.kind == "sqlite":
            c.execute(_ADVANCE)
        if row is None:
            c.execute("INSERT INTO companion_meta (key, value) VALUES ('schema_version', ?)",
                      (str(SCHEMA_VERSION),))
        else:
            c.execute("UPDATE companion_meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))

    def _columns(self, c: _Connection, table: str) -> set[str]:
        if self.kind == "sqlite":
            return {r["name"] for r in c.all(f"PRAGMA table_info({table})")}
        return {r["column_name"] for r in c.all(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
            "AND table_schema = current_schema()", (table,))}


# --- Flask ---------------------------------------------------------------

def database_url(app: Any) -> str:
    """``DATABASE_URL`` from the app's config or the environment, else a
    SQLite file in the instance folder."""
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    if url:
        return url
    return "sqlite:///" + str(Path(app.instance_path) / app.config.get("DATABASE_FILE", "companion.sqlite3"))


def open_database(app: Any) -> Database:
    """The app's database, its schema ready (a PostgreSQL that is still
    starting up gets a few seconds)."""
    database = Database(database_url(app), pool_size=int(app.config.get("DATABASE_CONNECTIONS", 16)))
    deadline = time.monotonic() + 30
    while True:
        try:
            database.init_schema()
            return database
        except Exception:  # re-raised unless the server may still be starting
            if time.monotonic() > deadline or database.kind == "sqlite":
                raise
            time.sleep(0.5)
