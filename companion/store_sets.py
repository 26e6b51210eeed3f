"""Custom card sets in the database, kept whole under their content hash
(:func:`labkit.setfiles.content_hash`): what a table with ``card_set`` set
is played with, by every worker and after every restart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.store_words import now


@dataclass(frozen=True)
class StoredSet:
    """A card set as the database keeps it: who made it, and its files as one zip."""

    hash: str
    game: str
    name: str
    author: str
    version: str
    zip: bytes


class CardSetStore:
    db: Any

    def put_card_set(self, stored: StoredSet) -> None:
        """Keep a set (once per hash: the same hash is the same files) and mark it used now."""
        t = now()
        with self.db.connect() as c:
            with c.write():
                c.execute("INSERT INTO card_sets (hash, game, name, author, version, files, created_at, used_at) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO UPDATE SET used_at = excluded.used_at",
                          (stored.hash, stored.game, stored.name, stored.author, stored.version, stored.zip, t, t))

    def card_set(self, digest: str) -> StoredSet | None:
        with self.db.connect() as c:
            row = c.one("SELECT hash, game, name, author, version, files FROM card_sets WHERE hash = ?", (digest,))
        if row is None:
            return None
        return StoredSet(row["hash"], row["game"], row["name"], row["author"], row["version"], bytes(row["files"]))

    def forget_card_sets(self, unused_hours: float) -> int:
        """Forget sets no table plays that were last used over ``unused_hours`` ago
        (a host who uploaded one and made no table, or whose tables are gone)."""
        with self.db.connect() as c:
            with c.write():
                rows = c.all("DELETE FROM card_sets WHERE used_at < ? AND hash NOT IN "
                             "(SELECT card_set FROM game_tables WHERE card_set IS NOT NULL) RETURNING hash",
                             (now(-unused_hours * 3600),))
        return len(rows)
