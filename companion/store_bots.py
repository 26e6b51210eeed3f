"""What the bots at the tables ask of the database: which tables have a
bot to play, how many decisions a seat has made, and a seat handed to a
bot mid-game. A bot seat is a row of ``seats`` with its level in ``bot``,
so it is part of the table and outlives a restart like any seat."""

from __future__ import annotations

from typing import Any

from companion.errors import NotFound
from companion.store_words import now, tell


class BotStore:
    db: Any
    _bump: Any

    def bot_tables(self) -> dict[str, str]:
        """The tables with a bot seat that are being played or wait in their
        lobby, code -> status: what a bot driver watches (one indexed query,
        whatever else the server holds)."""
        with self.db.connect() as c:
            rows = c.all("SELECT code, status FROM game_tables t WHERE status IN ('lobby', 'playing') AND EXISTS "
                         "(SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.bot IS NOT NULL) ORDER BY id")
        return {str(r["code"]): str(r["status"]) for r in rows}

    def has_bot(self, code: str) -> bool:
        """Whether the table has a bot seat."""
        with self.db.connect() as c:
            row = c.one("SELECT 1 AS yes FROM game_tables t JOIN seats s ON s.table_id = t.id "
                        "WHERE t.code = ? AND s.bot IS NOT NULL LIMIT 1", (code,))
        return row is not None

    def decisions(self, table_id: int, seat: int) -> int:
        """How many actions of ``seat`` the log holds: the number of the
        seat's next decision (an undo takes one back, and the bot then
        makes the same choice again)."""
        with self.db.connect() as c:
            row = c.one("SELECT COUNT(*) AS n FROM actions WHERE table_id = ? AND seat = ?", (table_id, seat))
        return int(row["n"]) if row else 0

    def set_bot(self, table_id: int, seat: int, level: str, token_digest: str, words: str) -> int:
        """Hand a seat to a bot of ``level`` mid-game, with a secret no phone
        holds (the phone that had the seat loses it), or give a bot's seat
        another level; ``words`` tell it in the log and the notice. Returns
        the new version."""
        with self.db.connect() as c:
            with c.write():
                version = self._bump(c, table_id, None)
                # took_over: a person had the seat (once, or until now), so it can be given "back"
                row = c.one("UPDATE seats SET took_over = CASE WHEN bot IS NULL THEN 1 ELSE took_over END, "
                            "bot = ?, token = ?, joined_at = ?, away_since = NULL WHERE table_id = ? AND seat = ? "
                            "RETURNING seat", (level, token_digest, now(), table_id, seat))
                if row is None:
                    raise NotFound(f"There is no seat {seat + 1} at this table.")
                # a link waiting for this seat would give it to a phone behind the bot's back
                c.execute("DELETE FROM handovers WHERE table_id = ? AND seat = ? AND used_at IS NULL",
                          (table_id, seat))
                tell(c, table_id, words)
                return version
