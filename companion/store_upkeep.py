"""Keeping the database tidy and fair: finished tables cleaned after a
while, and the rate limits' token buckets, shared by every worker (a limit
kept in one process's memory would let a client through as many times as
there are workers)."""

from __future__ import annotations

import time
from typing import Any

from companion.store_words import now


class Upkeep:
    db: Any

    def clean(self, finished_hours: float, idle_days: float) -> int:
        """Forget tables over for ``finished_hours`` and any table idle for
        ``idle_days`` (their seats, log and links go with them). Returns how many."""
        with self.db.connect() as c:
            with c.write():
                rows = c.all("DELETE FROM game_tables WHERE (status = 'over' AND updated_at < ?) OR updated_at < ? "
                             "RETURNING id", (now(-finished_hours * 3600), now(-idle_days * 86400)))
        return len(rows)

    def take_token(self, bucket: str, client: str, burst: int, seconds: float) -> float:
        """Token bucket ``burst`` per ``seconds`` for one client: 0 if this
        request may go, else the seconds to wait. One transaction, so every
        worker counts the same tokens."""
        rate = burst / seconds
        t = time.time()
        with self.db.connect() as c:
            with c.write():
                if self.db.kind == "postgres":
                    c.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (f"{bucket}:{client}",))
                row = c.one("SELECT tokens, updated FROM rate_limits WHERE bucket = ? AND client = ?", (bucket, client))
                tokens = float(burst) if row is None else min(float(burst), row["tokens"] + (t - row["updated"]) * rate)
                wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) / rate
                left = tokens - 1.0 if wait == 0.0 else tokens
                if row is None:
                    c.execute("INSERT INTO rate_limits (bucket, client, tokens, updated) VALUES (?, ?, ?, ?)",
                              (bucket, client, left, t))
                else:
                    c.execute("UPDATE rate_limits SET tokens = ?, updated = ? WHERE bucket = ? AND client = ?",
                              (left, t, bucket, client))
                if int(t) % 97 == 0:  # now and then, forget clients idle for a day
                    c.execute("DELETE FROM rate_limits WHERE updated < ?", (t - 86400,))
        return wait
