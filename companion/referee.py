"""The referee: tables, seats and actions, between the engine and the store.

No Flask here. A table's state is the engine's ``setup`` plus a replay of its
action log, cached per process by (table, version) and rebuilt from the
database when the cache is cold (after a restart) or stale (another process
or thread moved the table on).

Every game is reached only through :class:`engine.core.Game`, so a new game
needs nothing here.

Versions: every change to a table (a seat taken, the start, an action, an
undo) adds one to its version, so a version names one state for good, even
across an undo. A phone sends the version it saw with its action:

* the same version as now: the action is tried;
* an older one: the action is a :class:`Conflict` ("someone else moved
  first"), unless nothing that seat may do has changed since (its list of
  legal actions is the same then and now) and no undo happened in between.
  In a simultaneous phase (everyone notating at once) a neighbour writing on
  their own sheet does not stop you writing on yours; two taps from the same
  seat on the same version, or anything that changes your choices, still
  conflict, and exactly one of them applies.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Mapping

from engine import GAMES, find_game
from engine.core import Game, IllegalAction, Result, RulesError

from companion.db import Conflict as StoreConflict
from companion.db import NotFound, Refused, Store

log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no I/1, O/0, L: read aloud across a table
CODE_LENGTH = 5
NAME_MAX = 24
ACTION_MAX_CHARS = 2000
OPTIONS_MAX_CHARS = 2000


class BadInput(ValueError):
    """Malformed input; the message says what is wrong (HTTP 400)."""


class Conflict(Exception):
    """The table moved on since the version the phone saw (HTTP 409)."""

    def __init__(self, message: str, snapshot: "Snapshot") -> None:
        super().__init__(message)
        self.snapshot = snapshot


__all__ = ["BadInput", "Conflict", "IllegalAction", "NotFound", "Refused", "Referee", "Snapshot",
           "clean_code", "clean_name", "digest"]


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_code(code: str) -> str:
    """A join code as typed on a phone: case and spaces do not matter."""
    code = "".join(str(code).split()).upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise NotFound(code)
    return code


def clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise BadInput("A name is text.")
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if not name:
        raise BadInput("Type a name to join.")
    if len(name) > NAME_MAX:
        raise BadInput(f"A name has at most {NAME_MAX} characters.")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise BadInput("A name cannot contain control or invisible characters.")
    return name


def clean_action(action: Any) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise BadInput("An action is a JSON object with a \"type\".")
    if not isinstance(action.get("type"), str) or not action["type"]:
        raise BadInput("An action needs a \"type\" (text).")
    # What is applied is exactly what is logged and replayed.
    return json.loads(_plain_json(action, ACTION_MAX_CHARS, "An action"))


def _plain_json(value: Any, limit: int, what: str) -> str:
    """``value`` as canonical JSON text, refusing NaN, infinity, non-JSON
    types and anything longer than ``limit`` characters."""
    try:
        text = json.dumps(value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        raise BadInput(f"{what} must be plain JSON (no NaN or infinity).") from None
    if len(text) > limit:
        raise BadInput(f"{what} may be at most {limit} characters of JSON.")
    return text


@dataclass
class Snapshot:
    """One table at one version, with what its seats may see and do."""

    table: dict[str, Any]
    game: Game
    seats: list[dict[str, Any]]
    state: Any | None
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)

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

    def _cached(self, key: Any, make: Any) -> Any:
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    @property
    def over(self) -> bool:
        return self.started and self._cached("over", lambda: bool(self.game.is_over(self.state)))

    def view(self, seat: int | None) -> dict[str, Any]:
        if not self.started:
            return {}
        return self._cached(("view", seat), lambda: self.game.view(self.state, seat))

    def actions(self, seat: int | None) -> list[dict[str, Any]]:
        if not self.started or seat is None or self.over:
            return []
        return self._cached(("actions", seat), lambda: list(self.game.actions(self.state, seat)))

    def to_move(self) -> list[int]:
        if not self.started or self.over:
            return []
        return self._cached("to_move", lambda: list(self.game.to_move(self.state)))

    def result(self) -> Result | None:
        if not self.over:
            return None
        return self._cached("result", lambda: self.game.result(self.state))

    def result_dict(self) -> dict[str, Any] | None:
        """The engine's result with the players' names in place of "Player N"."""
        result = self.result()
        if result is None:
            return None
        out = result.to_dict()
        for score in out["scores"]:
            score["name"] = self.name(score["seat"])
        return out


@dataclass
class _Entry:
    version: int
    moves: int
    state: Any
    seats: list[dict[str, Any]]
    history: "OrderedDict[int, tuple[int, Any]]"  # version -> (moves, state), the latest few


class Referee:
    def __init__(self, store: Store, *, cache_tables: int = 256, keep_states: int = 32,
                 strict_versions: bool = False) -> None:
        self.store = store
        self.strict_versions = strict_versions  # True: any stale version is a conflict, even in simultaneous phases
        self.cache_tables = cache_tables
        self.keep_states = keep_states
        self._games: dict[str, Game] = {}
        self._cache: "OrderedDict[int, _Entry]" = OrderedDict()
        self._lock = threading.Lock()
        self._table_locks: dict[int, threading.Lock] = {}

    # --- games ------------------------------------------------------------
    def game(self, name: str) -> Game:
        with self._lock:
            if name not in self._games:
                self._games[name] = find_game(name)()
            return self._games[name]

    @staticmethod
    def game_names() -> list[str]:
        return sorted(GAMES)

    # --- tables -----------------------------------------------------------
    def create(self, game_name: Any, options: Any = None, seed: int | None = None) -> tuple[dict[str, Any], str]:
        """A new table in its lobby, and the host's secret token."""
        if not isinstance(game_name, str) or game_name not in GAMES:
            known = ", ".join(self.game_names()) or "none"
            raise BadInput(f"Unknown game {str(game_name)[:40]!r}: the companion knows {known}.")
        game = self.game(game_name)
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise BadInput("Options are a JSON object.")
        _plain_json(options, OPTIONS_MAX_CHARS, "Options")
        if seed is None:
            seed = secrets.randbits(63)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
            raise BadInput("A seed is an integer from 0 to 2^63 - 1.")
        try:  # the engine reads the options now, so a bad option fails at creation
            game.setup(game.min_players, seed, options)
        except RulesError as exc:
            raise BadInput(_sentence(f"These options do not work: {exc}")) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise BadInput(f"These options do not work ({type(exc).__name__}).") from None
        host_token = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                table = self.store.create_table(code=code, game=game_name, seed=seed, options=options,
                                                host_token=digest(host_token))
                return table, host_token
            except StoreConflict:
                continue
        raise RuntimeError("could not find a free table code")  # pragma: no cover - 28 million codes

    def table(self, code: str) -> dict[str, Any]:
        return self.store.table(clean_code(code))

    def version(self, code: str) -> int:
        return self.store.version(clean_code(code))

    def is_host(self, table: Mapping[str, Any], token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(digest(token), table["host_token"])

    def seat_for(self, table: Mapping[str, Any], token: str | None) -> int | None:
        if not token or len(token) > 200:
            return None
        return self.store.seat_for_token(table["id"], digest(token))

    def join(self, code: str, name: Any) -> tuple[int, str, int]:
        """Seat a player; returns (seat, secret token, new version)."""
        table = self.table(code)
        name = clean_name(name)
        token = secrets.token_urlsafe(24)
        game = self.game(table["game"])
        seat, version = self.store.add_seat(table["id"], name, digest(token), game.max_players)
        return seat, token, version

    def new_seat_token(self, code: str, seat: Any) -> str:
        """A fresh secret for ``seat``, for a player who moves to another phone."""
        table = self.table(code)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise BadInput("A seat is a number.")
        token = secrets.token_urlsafe(24)
        self.store.replace_seat_token(table["id"], seat, digest(token))
        return token

    def start(self, code: str, seen_version: int) -> Snapshot:
        table = self.table(code)
        game = self.game(table["game"])
        if table["status"] != "lobby":
            raise Refused("The game has already started.")
        seated = len(self.store.seats(table["id"]))
        if seated < game.min_players:
            raise Refused(f"{game.title} needs at least {game.min_players} players; {seated} seated.")
        try:
            self.store.start(table["id"], seen_version, seated)
        except StoreConflict:
            raise Conflict("Someone joined just now: check the seats and start again.",
                           self.snapshot(code)) from None
        return self.snapshot(code)

    # --- state --------------------------------------------------------------
    def snapshot(self, code: str) -> Snapshot:
        table = self.table(code)
        game = self.game(table["game"])
        if table["status"] == "lobby":
            return Snapshot(table, game, self.store.seats(table["id"]), None)
        entry = self._entry(table, game)
        return Snapshot(table, game, entry.seats, entry.state)

    def _table_lock(self, table_id: int) -> threading.Lock:
        with self._lock:
            return self._table_locks.setdefault(table_id, threading.Lock())

    def _entry(self, table: dict[str, Any], game: Game) -> _Entry:
        """The cached state at ``table['version']``, brought up to date from the log."""
        with self._table_lock(table["id"]):
            for _ in range(10):
                with self._lock:
                    entry = self._cache.get(table["id"])
                    if entry is not None:
                        self._cache.move_to_end(table["id"])
                if entry is not None and entry.version == table["version"]:
                    return entry
                try:
                    entry = self._catch_up(table, game, entry)
                except _Moved:
                    table = self.store.table(table["code"])
                    continue
                self._remember(table["id"], entry)
                return entry
            raise RuntimeError(f"table {table['code']} keeps changing while it is read")

    def _catch_up(self, table: dict[str, Any], game: Game, entry: _Entry | None) -> _Entry:
        incremental = (entry is not None and entry.version < table["version"]
                       and entry.version >= table["rewound_at"] and entry.moves <= table["moves"])
        if not incremental:
            seats = self.store.seats(table["id"])
            state = game.setup(table["players"], table["seed"], table["options"])
            entry = _Entry(version=-1, moves=0, state=state, seats=seats, history=OrderedDict())
        assert entry is not None
        rows = [r for r in self.store.log(table["id"], after_seq=entry.moves) if r.seq <= table["moves"]]
        if (len(rows) != table["moves"] - entry.moves or any(r.version > table["version"] for r in rows)
                or [r.seq for r in rows] != list(range(entry.moves + 1, table["moves"] + 1))):
            raise _Moved()  # an undo or an action landed between the two reads
        state, history = entry.state, OrderedDict(entry.history)
        if not rows and entry.moves == 0:
            history[table["version"]] = (0, state)
        for row in rows:
            state = game.apply(state, row.seat, row.action)
            history[row.version] = (row.seq, state)
            while len(history) > self.keep_states:
                history.popitem(last=False)
        return _Entry(version=table["version"], moves=table["moves"], state=state, seats=entry.seats,
                      history=history)

    def _remember(self, table_id: int, entry: _Entry) -> None:
        with self._lock:
            old = self._cache.get(table_id)
            if old is None or old.version <= entry.version:
                self._cache[table_id] = entry
                self._cache.move_to_end(table_id)
            while len(self._cache) > self.cache_tables:
                self._cache.popitem(last=False)

    def forget(self) -> None:
        """Drop every cached state (tests use it to prove a rebuild from the database)."""
        with self._lock:
            self._cache.clear()

    # --- playing --------------------------------------------------------------
    def act(self, code: str, seat: int, action: Any, seen_version: Any) -> Snapshot:
        """Apply ``action`` for ``seat``; raises IllegalAction, Conflict, BadInput or Refused."""
        action = clean_action(action)
        if isinstance(seen_version, bool) or not isinstance(seen_version, int):
            raise BadInput("Send the version you saw (an integer) with the action.")
        for _ in range(10):
            snap = self.snapshot(code)
            if not snap.started:
                raise Refused("The game has not started yet.")
            if not 0 <= seat < len(snap.seats):
                raise Refused("You have no seat at this table.")
            if snap.over:
                raise IllegalAction("The game is over.")
            if seen_version != snap.version:
                self._check_rebase(snap, seat, seen_version)
            new_state = self._apply(snap, seat, action)
            try:
                version = self.store.append_action(snap.table["id"], snap.version, snap.moves, seat, action)
            except StoreConflict:
                continue  # someone else wrote first: look again from the version they made
            self._advance(snap, version, new_state)
            return self.snapshot(code)
        raise Conflict("The table is very busy: try again.", self.snapshot(code))

    def _check_rebase(self, snap: Snapshot, seat: int, seen_version: int) -> None:
        message = "Someone else moved first: here is the table now."
        if (self.strict_versions or seen_version > snap.version
                or seen_version < snap.table["rewound_at"]):
            raise Conflict(message, snap)
        with self._lock:
            entry = self._cache.get(snap.table["id"])
        seen = entry.history.get(seen_version) if entry is not None else None
        if seen is None:
            raise Conflict(message, snap)
        try:
            same = list(snap.game.actions(seen[1], seat)) == snap.actions(seat)
        except Exception:  # an engine that cannot answer for an old state: be strict
            same = False
        if not same:
            raise Conflict(message, snap)

    @staticmethod
    def _apply(snap: Snapshot, seat: int, action: dict[str, Any]) -> Any:
        try:
            return snap.game.apply(snap.state, seat, action)
        except IllegalAction:
            raise
        except RulesError as exc:
            raise IllegalAction(str(exc)) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as exc:
            # The engine could not read the action at all: a malformed action,
            # not a rule. Logged, because a game should say why in a sentence.
            log.warning("%s could not read action %r: %r", snap.game.name, action, exc)
            raise BadInput(f"The game cannot read this action ({type(exc).__name__}).") from None

    def _advance(self, snap: Snapshot, version: int, state: Any) -> None:
        table_id = snap.table["id"]
        with self._lock:
            entry = self._cache.get(table_id)
        if entry is None or entry.version != snap.version:
            return
        history = OrderedDict(entry.history)
        history[version] = (snap.moves + 1, state)
        while len(history) > self.keep_states:
            history.popitem(last=False)
        self._remember(table_id, _Entry(version, snap.moves + 1, state, entry.seats, history))

    def undo(self, code: str, seen_version: Any) -> Snapshot:
        """Take back the table's last action (the host's button for mis-taps).

        The generator's state is part of the game state, so dice rolled after
        the undone point come out the same when the same path is taken again.
        """
        if isinstance(seen_version, bool) or not isinstance(seen_version, int):
            raise BadInput("Send the version you saw (an integer) with the undo.")
        snap = self.snapshot(code)
        if not snap.started:
            raise Refused("The game has not started yet.")
        try:
            version = self.store.undo(snap.table["id"], seen_version)
        except StoreConflict:
            raise Conflict("Someone moved just now: look again before undoing.", self.snapshot(code)) from None
        with self._lock:
            entry = self._cache.get(snap.table["id"])
        if entry is not None:
            earlier = [(m, s) for (m, s) in entry.history.values() if m == snap.moves - 1]
            if earlier and entry.version == seen_version:
                history = OrderedDict((v, ms) for v, ms in entry.history.items() if ms[0] <= snap.moves - 1)
                self._remember(snap.table["id"], _Entry(version, snap.moves - 1, earlier[-1][1], entry.seats,
                                                        history))
        return self.snapshot(code)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


class _Moved(Exception):
    """The table changed between reading its row and its log: read again."""
