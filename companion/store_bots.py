"""What the bots at the tables ask of the database: which tables have a
bot to play, how many decisions a seat has made, and a seat handed to a
bot mid-game. A bot seat is a row of ``seats`` with its level in ``bot``,
so it is part of the table and outlives a restart like any seat."""

from __future__ import annotations

from typing import Any

from companion.errors import NotFound
from companion.store_words import now


class BotStore:
    db: Any
    _bump: Any

    def bot_tables(self) -> list[str]:
        """The codes of the tables being played with a bot seat: what a
        bot driver watches (one indexed query, whatever else the server holds)."""
        with self.db.connect() as c:
            rows = c.all("SELECT code FROM game_tables t WHERE status = 'playing' AND EXISTS "
                         "(SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.bot IS NOT NULL) ORDER BY id")
        return [str(r["code"]) for r in rows]

    def decisions(self, table_id: int, seat: int) -> int:
        """How many actions of ``seat`` the log holds: the number of the
        seat's next decision (an undo takes one back, and the bot then
        makes the same choice again)."""
        with self.db.connect() as c:
            row = c.one("SELECT COUNT(*) AS n FROM actions WHERE table_id = ? AND seat = ?", (table_id, seat))
        return int(row["n"]) if row else 0

    def set_bot(self, table_id: int, seat: int, level: str, token_digest: str) -> int:
        """Hand a seat to a bot of ``level`` mid-game, with a secret no phone
        holds (the phone that had the seat loses it). Returns the new version."""
        with self.db.connect() as c:
            with c.write():
                row = c.one("UPDATE seats SET bot = ?, token = ?, joined_at = ? WHERE table_id = ? AND seat = ? "
                            "RETURNING seat", (level, token_digest, now(), table_id, seat))
                if row is None:
                    raise NotFound(f"There is no seat {seat + 1} at this table.")
                # a link waiting for this seat would give it to a phone behind the bot's back
                c.execute("DELETE FROM handovers WHERE table_id = ? AND seat = ? AND used_at IS NULL",
                          (table_id, seat))
                return self._bump(c, table_id, None)
