"""Every question and change the companion makes of its database, and
nothing else: no rule of the lobby or of a game lives here (those are the
referee's); the store only keeps what it is told, and refuses to write on
top of a version that is no longer the table's.

Every change bumps the table's ``version`` inside the same transaction with
``UPDATE ... WHERE version = ?``: two threads or two processes acting on the
same version can never both succeed (the loser gets :class:`VersionConflict`),
and the primary key on ``(table_id, seq)`` of the log backs that up.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.db import Database, open_database
from companion.errors import NoSuchTable
from companion.store_bots import BotStore
from companion.store_seats import SeatStore
from companion.store_sets import CardSetStore
from companion.store_upkeep import Upkeep
from companion.store_words import CodeTaken, VersionConflict, is_unique_violation as _is_unique_violation, now
from companion.store_words import table_row as _table


class AlreadyApplied(Exception):
    """An action with this id is in the log already (a retried request, or
    an id reused for another move: ``logged`` says which it was)."""

    def __init__(self, logged: "Logged") -> None:
        super().__init__(logged.version)
        self.version = logged.version
        self.logged = logged


@dataclass(frozen=True)
class Logged:
    """What the log holds for an action id: the version it made, by whom, what."""

    version: int
    seat: int
    action: dict[str, Any]


@dataclass(frozen=True)
class LogEntry:
    seq: int
    version: int
    seat: int
    action: dict[str, Any]


class Store(SeatStore, BotStore, CardSetStore, Upkeep):
    """Tables and their play here; seats, handovers and rematches in
    :mod:`companion.store_seats`; bot seats in :mod:`companion.store_bots`;
    custom card sets in :mod:`companion.store_sets`; upkeep in :mod:`companion.store_upkeep`."""

    def __init__(self, database: Database) -> None:
        self.db = database

    # --- tables ------------------------------------------------------------------
    def create_table(self, *, code: str, game: str, seed: int, options: dict[str, Any],
                     host_token: str, card_set: str | None = None) -> dict[str, Any]:
        """Insert a new table in its lobby (``card_set``: the hash of a stored
        set, :meth:`put_card_set`; ``None``: the game's own). Raises :class:`CodeTaken`."""
        t = now()
        with self.db.connect() as c:
            try:
                with c.write():
                    row = c.one(
                        "INSERT INTO game_tables (code, game, seed, options, host_token, status, "
                        "created_at, updated_at, card_set) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING *",
                        (code, game, seed, json.dumps(options, sort_keys=True), host_token, t, t, card_set))
            except Exception as exc:  # a unique violation from either back end
                if _is_unique_violation(exc):
                    raise CodeTaken(code) from None
                raise
        assert row is not None
        return _table(row)

    def table(self, code: str) -> dict[str, Any]:
        with self.db.connect() as c:
            row = c.one("SELECT * FROM game_tables WHERE code = ?", (code,))
        if row is None:
            raise NoSuchTable(f"There is no table {code}. Check the code.")
        return _table(row)

    def version(self, code: str) -> int:
        """The table's version alone: what a phone polls."""
        with self.db.connect() as c:
            row = c.one("SELECT version FROM game_tables WHERE code = ?", (code,))
        if row is None:
            raise NoSuchTable(f"There is no table {code}. Check the code.")
        return int(row["version"])

    def versions(self, codes: list[str]) -> dict[str, int]:
        """The versions of several tables in one query (a worker watching them)."""
        if not codes:
            return {}
        marks = ", ".join("?" for _ in codes)
        with self.db.connect() as c:
            rows = c.all(f"SELECT code, version FROM game_tables WHERE code IN ({marks})", list(codes))
        return {r["code"]: int(r["version"]) for r in rows}

    def count_tables(self) -> int:
        with self.db.connect() as c:
            row = c.one("SELECT COUNT(*) AS n FROM game_tables")
        return int(row["n"]) if row else 0

    # --- the game -------------------------------------------------------------------
    def start(self, table_id: int, expected_version: int, players: int) -> int:
        with self.db.connect() as c:
            with c.write():
                row = c.one("UPDATE game_tables SET status = 'playing', players = ?, version = version + 1, "
                            "updated_at = ? WHERE id = ? AND status = 'lobby' AND version = ? RETURNING version",
                            (players, now(), table_id, expected_version))
                if row is None:
                    raise VersionConflict()
        return int(row["version"])

    def applied(self, table_id: int, action_id: str) -> int | None:
        """The version an action id made, if it is in the log."""
        logged = self.logged(table_id, action_id)
        return None if logged is None else logged.version

    def logged(self, table_id: int, action_id: str) -> Logged | None:
        """The logged action of an action id, if it is in the log."""
        with self.db.connect() as c:
            row = c.one("SELECT version, seat, action FROM actions WHERE table_id = ? AND action_id = ?",
                        (table_id, action_id))
        return None if row is None else Logged(int(row["version"]), int(row["seat"]), json.loads(row["action"]))

    def seats_since(self, table_id: int, version: int) -> set[int]:
        """The seats whose actions made the versions after ``version``."""
        with self.db.connect() as c:
            rows = c.all("SELECT DISTINCT seat FROM actions WHERE table_id = ? AND version > ?", (table_id, version))
        return {int(r["seat"]) for r in rows}

    def append_action(self, table_id: int, expected_version: int, expected_moves: int,
                      seat: int, action: dict[str, Any], action_id: str | None = None,
                      finished: bool = False) -> int:
        """Log one action on top of ``expected_version``, in one transaction;
        returns the new version. Raises :class:`VersionConflict` if anything
        happened since, :class:`AlreadyApplied` if ``action_id`` is logged.
        ``finished``: the action ended the game (the table is marked over,
        which is what cleaning looks for)."""
        text = json.dumps(action, sort_keys=True, separators=(",", ":"))
        with self.db.connect() as c:
            try:
                if self.db.kind == "postgres":
                    # One statement, so one round trip and its own transaction:
                    # the update and the insert are kept together or not at all.
                    row = c.one("WITH t AS (UPDATE game_tables SET version = version + 1, moves = moves + 1, "
                                "updated_at = ?, notice = NULL, status = ? WHERE id = ? AND version = ? AND moves = ? "
                                "AND status = 'playing' RETURNING id, version, moves) "
                                "INSERT INTO actions (table_id, seq, version, seat, action, created_at, action_id, ends) "
                                "SELECT id, moves, version, ?, ?, ?, ?, ? FROM t RETURNING version",
                                (now(), "over" if finished else "playing", table_id, expected_version,
                                 expected_moves, seat, text, now(), action_id, int(finished)))
                    if row is None:
                        raise VersionConflict()
                    return int(row["version"])
                # SQLite: one statement, its own transaction, begun and
                # committed within one call into SQLite (no RETURNING, whose
                # rows would keep the write open until fetched), with no lock
                # of ours held while the thread waits for the interpreter.
                # The trigger actions_advance (companion.db) moves the table on.
                done = c.execute("INSERT INTO actions (table_id, seq, version, seat, action, created_at, action_id, "
                                 "ends) SELECT id, moves + 1, version + 1, ?, ?, ?, ?, ? FROM game_tables "
                                 "WHERE id = ? AND version = ? AND moves = ? AND status = 'playing'",
                                 (seat, text, now(), action_id, int(finished), table_id, expected_version,
                                  expected_moves))
                if done.rowcount != 1:
                    raise VersionConflict()
                return expected_version + 1
            except VersionConflict:
                if action_id is not None:
                    done = self.logged(table_id, action_id)
                    if done is not None:
                        raise AlreadyApplied(done) from None
                raise
            except Exception as exc:
                if _is_unique_violation(exc):
                    done = self.logged(table_id, action_id) if action_id is not None else None
                    if done is not None:
                        raise AlreadyApplied(done) from None
                    raise VersionConflict() from None
                raise

    def undo(self, table_id: int, expected_version: int, notice: str | None = None,
             keep: int | None = None) -> int | None:
        """Remove the logged actions after the first ``keep`` (by default the
        last one), telling every phone ``notice``; returns the new version,
        or ``None`` when there is nothing to undo."""
        with self.db.connect() as c:
            with c.write():
                # ``moves > ?`` also stands for "something to undo" (moves > 0 by default)
                row = c.one("UPDATE game_tables SET version = version + 1, "
                            + ("moves = moves - 1" if keep is None else "moves = ?")
                            + ", rewound_at = version + 1, updated_at = ?, notice = ?, status = 'playing' "
                            "WHERE id = ? AND version = ? AND moves > ? AND status IN ('playing', 'over') "
                            "RETURNING version, moves",
                            (*(() if keep is None else (keep,)), now(), notice, table_id, expected_version,
                             0 if keep is None else keep))
                if row is None:
                    current = c.one("SELECT version FROM game_tables WHERE id = ?", (table_id,))
                    if current and int(current["version"]) == expected_version:
                        return None
                    raise VersionConflict()
                c.execute("DELETE FROM actions WHERE table_id = ? AND seq > ?", (table_id, int(row["moves"])))
        return int(row["version"])

    def take_back(self, table_id: int, expected_version: int, seq: int, seat: int, notice: str) -> int:
        """Remove log row ``seq`` (``seat``'s, not necessarily the last: a
        player's take-back) and close the gap, telling every phone
        ``notice``; returns the new version. As an undo does, it bumps the
        version and sets ``rewound_at``, so every older version is a
        conflict and no cache extends a state that had the row. Raises
        :class:`VersionConflict` if anything happened since."""
        with self.db.connect() as c:
            with c.write():
                row = c.one("UPDATE game_tables SET version = version + 1, moves = moves - 1, "
                            "rewound_at = version + 1, updated_at = ?, notice = ? "
                            "WHERE id = ? AND version = ? AND moves >= ? AND status = 'playing' RETURNING version",
                            (now(), notice, table_id, expected_version, seq))
                if row is None:
                    raise VersionConflict()
                gone = c.execute("DELETE FROM actions WHERE table_id = ? AND seq = ? AND seat = ?",
                                 (table_id, seq, seat))
                if gone.rowcount != 1:
                    raise VersionConflict()  # rolled back with the update: the log is not what was judged
                # Two steps: a row moved onto a seq not yet freed would break
                # the primary key, on PostgreSQL as on SQLite (each checks per row).
                c.execute("UPDATE actions SET seq = -seq WHERE table_id = ? AND seq > ?", (table_id, seq))
                c.execute("UPDATE actions SET seq = -seq - 1 WHERE table_id = ? AND seq < 0", (table_id,))
        return int(row["version"])

    def log(self, table_id: int, after_seq: int = 0) -> list[LogEntry]:
        with self.db.connect() as c:
            rows = c.all("SELECT seq, version, seat, action FROM actions WHERE table_id = ? AND seq > ? "
                         "ORDER BY seq", (table_id, after_seq))
        return [LogEntry(int(r["seq"]), int(r["version"]), int(r["seat"]), json.loads(r["action"])) for r in rows]


# --- Flask ---------------------------------------------------------------

def init_app(app: Any) -> None:
    """Bind the app's store (the tutorial's pattern): views reach it through the referee."""
    app.extensions["companion_store"] = Store(open_database(app))
