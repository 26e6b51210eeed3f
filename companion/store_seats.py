"""Seats and what moves them: a player taking or leaving a seat in the
lobby, a seat handed to another phone, the host's setup options, a rematch
with the same seats. Every change bumps the table's version on the version
the caller read, so two at once never both apply."""

from __future__ import annotations

import json
import time
from typing import Any

from companion.errors import NotFound
from companion.store_words import CodeTaken, VersionConflict, clock_words, is_unique_violation, now, table_row, tell


class SeatStore:
    db: Any

    def seats(self, table_id: int) -> list[dict[str, Any]]:
        """Every seat with its token's digest (the referee finds a phone's seat among them)."""
        with self.db.connect() as c:
            return c.all("SELECT seat, name, token, joined_at, bot, took_over, away_since FROM seats "
                         "WHERE table_id = ? ORDER BY seat", (table_id,))

    def _bump(self, c: Any, table_id: int, expected_version: int | None, lobby: bool = False) -> int:
        """One more version, on the version the caller read (``None``: whatever it is now)."""
        sql = "UPDATE game_tables SET version = version + 1, updated_at = ?, notice = NULL WHERE id = ?"
        params: list[Any] = [now(), table_id]
        if expected_version is not None:
            sql += " AND version = ?"
            params.append(expected_version)
        if lobby:
            sql += " AND status = 'lobby'"
        row = c.one(sql + " RETURNING version", params)
        if row is None:
            raise VersionConflict()
        return int(row["version"])

    def add_seat(self, table_id: int, expected_version: int, seat: int, name: str, token_digest: str,
                 bot: str | None = None) -> int:
        """Seat a player (or a bot of level ``bot``) at a table still in its
        lobby and still at ``expected_version``. Returns the new version."""
        with self.db.connect() as c:
            try:
                with c.write():
                    version = self._bump(c, table_id, expected_version, lobby=True)
                    c.execute("INSERT INTO seats (table_id, seat, name, token, joined_at, bot, seen_at) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, seat, name, token_digest, now(), bot,
                                                               None if bot else time.time()))
            except VersionConflict:
                raise
            except Exception as exc:
                if is_unique_violation(exc):
                    raise VersionConflict() from None
                raise
        return version

    def remove_seat(self, table_id: int, expected_version: int, seat: int, options: dict[str, Any]) -> int:
        """Empty a seat in the lobby; the seats after it move up one (seats
        stay numbered from 0, in the order players joined); the table's
        options become ``options``."""
        with self.db.connect() as c:
            with c.write():
                version = self._bump(c, table_id, expected_version, lobby=True)
                c.execute("UPDATE game_tables SET options = ? WHERE id = ?",
                          (json.dumps(options, sort_keys=True), table_id))
                if c.one("DELETE FROM seats WHERE table_id = ? AND seat = ? RETURNING seat", (table_id, seat)) is None:
                    raise VersionConflict()
                # two steps, so that no two rows ever hold one seat number on the way
                c.execute("UPDATE seats SET seat = -seat WHERE table_id = ? AND seat > ?", (table_id, seat))
                c.execute("UPDATE seats SET seat = -seat - 1 WHERE table_id = ? AND seat < 0", (table_id,))
        return version

    def replace_seat_token(self, table_id: int, seat: int, token_digest: str) -> int:
        """Give a seat a new secret (its player moves to another phone); the
        old one stops working. Returns the new version."""
        with self.db.connect() as c:
            with c.write():
                # a secret given out is a person's, so a bot's seat given one is theirs now
                row = c.one("UPDATE seats SET token = ?, bot = NULL WHERE table_id = ? AND seat = ? RETURNING seat",
                            (token_digest, table_id, seat))
                if row is None:
                    raise NotFound(f"There is no seat {seat + 1} at this table.")
                version = self._bump(c, table_id, None)
        return version

    # --- handing a seat to another phone ----------------------------------------------
    def create_handover(self, table_id: int, seat: int, nonce: str, seconds: float) -> int:
        """A one-time link for ``seat``, valid for ``seconds``; an earlier
        unused one for that seat stops working. Returns the new version."""
        with self.db.connect() as c:
            with c.write():
                c.execute("DELETE FROM handovers WHERE table_id = ? AND seat = ? AND used_at IS NULL",
                          (table_id, seat))
                c.execute("INSERT INTO handovers (nonce, table_id, seat, expires_at) VALUES (?, ?, ?, ?)",
                          (nonce, table_id, seat, now(seconds)))
                return self._bump(c, table_id, None)

    def open_handovers(self, table_id: int) -> list[dict[str, Any]]:
        """Handover links neither used nor expired, for the host's screen."""
        with self.db.connect() as c:
            return c.all("SELECT nonce, seat, expires_at FROM handovers WHERE table_id = ? AND used_at IS NULL "
                         "AND expires_at > ? ORDER BY seat", (table_id, now()))

    def handover_state(self, table_id: int, nonce: str) -> tuple[int, str]:
        """What a handover link would do now, without using it: ``(seat,
        "ok")``, or ``(seat or -1, why)`` as :meth:`claim_handover` says."""
        with self.db.connect() as c:
            return _link_state(c, table_id, nonce)

    def claim_handover(self, table_id: int, nonce: str, token_digest: str) -> tuple[int, str]:
        """Use a handover link: the seat gets ``token_digest`` as its secret,
        and the log and every phone are told. Returns ``(seat, "ok")``, or
        ``(seat or -1, why)`` with why one of ``"unknown"``, ``"used"``, ``"expired"``."""
        with self.db.connect() as c:
            with c.write():
                # One conditional update takes the link: of two phones claiming it at
                # once, on any database, exactly one gets it (a read, then a write,
                # let both through on PostgreSQL's READ COMMITTED).
                row = c.one("UPDATE handovers SET used_at = ? WHERE nonce = ? AND table_id = ? AND used_at IS NULL "
                            "AND expires_at > ? RETURNING seat", (now(), nonce, table_id, now()))
                if row is None:
                    return _link_state(c, table_id, nonce)
                seat = int(row["seat"])
                self._bump(c, table_id, None)
                # a link is for a phone, so a bot's seat claimed with one is a person's from now on
                was = c.one("SELECT name, bot FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
                c.execute("UPDATE seats SET token = ?, bot = NULL, away_since = NULL, seen_at = ? "
                          "WHERE table_id = ? AND seat = ?", (token_digest, time.time(), table_id, seat))
                if was is not None:
                    tell(c, table_id, f"{was['name']}'s seat went from the bot to a person's phone."
                         if was["bot"] else f"{was['name']} moved to another phone.")
        return seat, "ok"

    # --- who is there (companion.presence) ---------------------------------------------
    def mark_seen(self, heard: dict[tuple[int, int], float]) -> None:
        """Each ``(table id, seat)``'s phone was in touch at the time given."""
        with self.db.connect() as c:
            with c.write():
                for (table_id, seat), when in heard.items():
                    c.execute("UPDATE seats SET seen_at = ? WHERE table_id = ? AND seat = ? AND bot IS NULL "
                              "AND (seen_at IS NULL OR seen_at < ?)", (when, table_id, seat, when))

    def presence_changes(self, at: float, away_after: float) -> list[tuple[str, int]]:
        """Mark away the people's seats of the tables in a lobby or in play
        whose phone was last in touch more than ``away_after`` seconds before
        ``at``, and back the away ones in touch since; each change bumps its
        table with a notice. Returns ``(code, new version)`` of each."""
        changed: list[tuple[str, int]] = []
        with self.db.connect() as c:
            with c.write():
                rows = c.all("SELECT t.id, t.code, s.seat, s.name, s.seen_at, s.away_since FROM seats s "
                             "JOIN game_tables t ON t.id = s.table_id WHERE t.status IN ('lobby', 'playing') "
                             "AND s.bot IS NULL AND s.seen_at IS NOT NULL AND ((s.away_since IS NULL AND "
                             "s.seen_at < ?) OR (s.away_since IS NOT NULL AND s.seen_at > s.away_since))",
                             (at - away_after,))
                for r in rows:
                    gone = r["away_since"] is None
                    done = c.one("UPDATE seats SET away_since = ? WHERE table_id = ? AND seat = ? AND "
                                 + ("away_since IS NULL" if gone else "away_since IS NOT NULL") + " RETURNING seat",
                                 (r["seen_at"] if gone else None, r["id"], r["seat"]))
                    if done is None:
                        continue
                    version = self._bump(c, r["id"], None)
                    words = (f"{r['name']}'s phone has been away since {clock_words(float(r['seen_at']))}."
                             if gone else f"{r['name']} is back.")
                    c.execute("UPDATE game_tables SET notice = ? WHERE id = ?", (words, r["id"]))
                    changed.append((str(r["code"]), version))
        return changed

    # --- the host's choices --------------------------------------------------------------
    def set_options(self, table_id: int, expected_version: int, options: dict[str, Any]) -> int:
        with self.db.connect() as c:
            with c.write():
                version = self._bump(c, table_id, expected_version, lobby=True)
                c.execute("UPDATE game_tables SET options = ? WHERE id = ?",
                          (json.dumps(options, sort_keys=True), table_id))
        return version

    def rematch(self, table: dict[str, Any], code: str, seed: int, host_token: str,
                seats: list[tuple[str, str, str | None]]) -> dict[str, Any]:
        """A new table for the same game, card set, options and seats (``(name, token
        digest, bot level or None)`` each), in its lobby; the old table points to it."""
        t = now()
        with self.db.connect() as c:
            try:
                with c.write():
                    done = c.one("UPDATE game_tables SET rematch = ?, version = version + 1, updated_at = ? "
                                 "WHERE id = ? AND rematch IS NULL RETURNING version", (code, t, table["id"]))
                    if done is None:
                        raise VersionConflict()  # someone asked for the rematch first
                    row = c.one(
                        "INSERT INTO game_tables (code, game, seed, options, host_token, status, created_at, "
                        "updated_at, card_set) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING *",
                        (code, table["game"], seed, json.dumps(table["options"], sort_keys=True), host_token, t, t,
                         table.get("card_set")))
                    for i, (name, digest, bot) in enumerate(seats):
                        # a person's phone comes to the rematch from the finished table, or is away from now
                        c.execute("INSERT INTO seats (table_id, seat, name, token, joined_at, bot, seen_at) "
                                  "VALUES (?, ?, ?, ?, ?, ?, ?)", (row["id"], i, name, digest, t, bot,
                                                                   None if bot else time.time()))
            except VersionConflict:
                raise
            except Exception as exc:
                if is_unique_violation(exc):
                    raise CodeTaken(code) from None
                raise
        return table_row(row)


def _link_state(c: Any, table_id: int, nonce: str) -> tuple[int, str]:
    """A handover link's seat and whether it is ``ok``, ``used``, ``expired`` or ``unknown`` (seat -1)."""
    row = c.one("SELECT seat, expires_at, used_at FROM handovers WHERE nonce = ? AND table_id = ?", (nonce, table_id))
    if row is None:
        return -1, "unknown"
    seat = int(row["seat"])
    if row["used_at"] is not None:
        return seat, "used"
    return (seat, "expired") if row["expires_at"] <= now() else (seat, "ok")
