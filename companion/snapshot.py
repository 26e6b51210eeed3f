"""One table at one version: its row, its seats, the game state, and what
each seat may see and do, each worked out once (a snapshot is shared by
every request that reads that version).

Seats carry their token's digest, so finding which seat a phone holds
needs no further query: a request reads the table once.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from dataclasses import dataclass, field
from typing import Any

from engine.core import Game, Result


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Snapshot:
    table: dict[str, Any]
    game: Game
    seats: list[dict[str, Any]]
    state: Any | None
    log: tuple[str, ...] = ()
    """The game so far in words, one line per action (the referee narrates it)."""
    drawn: dict[Any, tuple[Any, str]] = field(default_factory=dict, repr=False)
    """The table's last HTML of each part for each viewer, with what it was
    drawn from (:mod:`companion.reuse`): one dict shared by the table's
    snapshots, handed from each version to the next by the referee. It holds
    plain data and HTML, never a snapshot."""
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)
    _making: dict[Any, threading.Lock] = field(default_factory=dict, repr=False)
    _guard: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def code(self) -> str:
        return self.table["code"]

    @property
    def version(self) -> int:
        return self.table["version"]

    @property
    def moves(self) -> int:
        return self.table["moves"]

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def names(self) -> list[str]:
        return [s["name"] for s in self.seats]

    def name(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.seats):
            return self.seats[seat]["name"]
        return self.game.seat_name(seat) if seat is not None else "Spectator"

    @property
    def status(self) -> str:
        if not self.started:
            return "lobby"
        return "over" if self.over else "playing"

    # --- who is asking ----------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        """The seat whose secret ``token`` is, if any (compared in constant time)."""
        if not token or len(token) > 200:
            return None
        wanted = digest(token)
        found = None
        for s in self.seats:
            if hmac.compare_digest(s["token"], wanted):
                found = int(s["seat"])
        return found

    def is_host(self, token: str | None) -> bool:
        return bool(token) and len(token) <= 200 and hmac.compare_digest(digest(token), self.table["host_token"])

    # --- what the game says, once per version ----------------------------------------------
    def cached(self, key: Any, make: Any) -> Any:
        """``make()`` once per snapshot: a change wakes every phone's stream
        at once, and the threads asking for the same part wait for the one
        making it rather than all make it."""
        try:
            return self._memo[key]
        except KeyError:
            pass
        with self._guard:
            lock = self._making.setdefault(key, threading.Lock())
        try:
            with lock:
                if key not in self._memo:
                    self._memo[key] = make()
                return self._memo[key]
        finally:
            # Made (or failed): a thread waiting on the lock finds the memo;
            # kept, they were some sixty locks a version of each table.
            with self._guard:
                self._making.pop(key, None)

    @property
    def over(self) -> bool:
        return self.started and self.cached("over", lambda: bool(self.game.is_over(self.state)))

    def view(self, seat: int | None) -> dict[str, Any]:
        if not self.started:
            return {}
        return self.cached(("view", seat), lambda: self.game.view(self.state, seat))

    def actions(self, seat: int | None) -> list[dict[str, Any]]:
        if not self.started or seat is None or self.over:
            return []
        return self.cached(("actions", seat), lambda: list(self.game.actions(self.state, seat)))

    def to_move(self) -> list[int]:
        if not self.started or self.over:
            return []
        return self.cached("to_move", lambda: list(self.game.to_move(self.state)))

    def result(self) -> Result | None:
        if not self.over:
            return None
        return self.cached("result", lambda: self.game.result(self.state))

    def running_result(self) -> Result | None:
        """The score so far, for games whose ``result`` is meaningful before
        the end (the engine says so by answering; one that cannot raises)."""
        if not self.started:
            return None
        return self.cached("running", lambda: self.game.result(self.state))

    def result_dict(self) -> dict[str, Any] | None:
        """The engine's result with the players' names in place of "Player N"."""
        result = self.result()
        if result is None:
            return None
        out = result.to_dict()
        for score in out["scores"]:
            score["name"] = self.name(score["seat"])
        return out

    def log_lines(self) -> tuple[str, ...]:
        return self.log

    def public_seats(self) -> list[dict[str, Any]]:
        return [{"seat": s["seat"], "name": s["name"], "bot": s.get("bot"), "away_since": s.get("away_since")}
                for s in self.seats]

