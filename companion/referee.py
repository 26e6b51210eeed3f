"""The referee: tables, seats and actions, between the engine and the store.

No Flask here. A table's state is the engine's ``setup`` plus a replay of its
action log, cached per process by (table, version) and rebuilt from the
database when the cache is cold (after a restart) or stale (another process
or thread moved the table on). The lobby's rules are in :mod:`companion.lobby`.

Every game is reached only through :class:`engine.core.Game` and the
registry, so a new game needs nothing here.

Versions: every change to a table (a seat taken, the start, an action, an
undo, a player's take-back: :mod:`companion.takeback`) adds one to its version, so a version names one state for good, even
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

import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from typing import Any, Callable

from engine.core import Game, IllegalAction, RulesError
from companion.agreed import replayed
from companion.bot_seats import BotSeats
from companion.errors import BadInput, Conflict, Refused
from companion.kept import UNUSED_S
from companion.lobby import CODE_LENGTH, CODE_LENGTHS, LobbyRules, clean_code, plain_json
from companion.referee_caches import Caches, Entry, log_row
from companion.snapshot import Snapshot
from companion.store import AlreadyApplied, Logged, Store, VersionConflict
from companion.host_moves import HostMoves
from companion.takeback import TakeBacks
from companion.told import lines_of, named, narrate
from labkit import cardsets, registry

log = logging.getLogger(__name__)

ACTION_MAX_CHARS = 2000


def clean_action(action: Any) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise BadInput("An action is a JSON object with a \"type\".")
    if not isinstance(action.get("type"), str) or not action["type"]:
        raise BadInput("An action needs a \"type\" (text).")
    # What is applied is exactly what is logged and replayed.
    return json.loads(plain_json(action, ACTION_MAX_CHARS, "An action"))


class Referee(Caches, LobbyRules, BotSeats, TakeBacks, HostMoves):
    def __init__(self, store: Store, *, cache_tables: int = 256, keep_states: int = 32,
                 strict_versions: bool = False, secret: bytes = b"", code_length: int = CODE_LENGTH,
                 spare_tables: int = 8) -> None:
        self.store = store
        if code_length not in CODE_LENGTHS:
            raise ValueError(f"CODE_LENGTH: a table code has {CODE_LENGTHS.start} to {CODE_LENGTHS.stop - 1} "
                             f"letters, not {code_length}")
        self.code_length = code_length
        """Letters of each new table's code."""
        self.secret = secret or secrets.token_bytes(32)
        """The server's key (every worker's the same): a rematch's seat secrets come from it."""
        self.strict_versions = strict_versions  # True: any stale version is a conflict, even in simultaneous phases
        self.cache_tables = cache_tables
        self.keep_states = keep_states
        self._games: dict[str, Game] = {}
        self._cache: "OrderedDict[int, Entry]" = OrderedDict()
        self._snaps: "OrderedDict[int, Snapshot]" = OrderedDict()
        self._ids: dict[str, int] = {}
        """Each table's newest snapshot, shared by every request and stream
        that reads that version: what it works out (views, actions, running
        scores, rendered parts) is worked out once."""
        self._judged: dict[tuple[int, int], tuple[Any, int, Any]] = {}  # (table, seat) -> companion/takeback.py's
        self._lock = threading.Lock()
        self._table_locks: dict[int, threading.Lock] = {}
        self.changed: Callable[[str, int], None] = lambda code, version: None
        """Told of every change this referee commits (the app points it at the hub)."""
        self.watching: Callable[[], list[str]] | None = None
        """The codes of the tables some phone's stream is watching here (the
        app points it at the hub). With it, the caches keep every watched
        table and at most ``spare_tables`` others (the most recently used):
        sized by the tables in play, not by every table since the start, so
        a server where games end and new ones begin stays the same size.
        Eight, not more: a table nobody watches is mostly a finished game,
        read again from the database if a phone comes back to it, and each
        kept one holds about a megabyte (its recent states, and the pages of
        its newest version). With 32 the soak's memory kept climbing for as
        long as games ended (types counted in the worker between its first
        and fourth minute: 30% more objects, pages 32 -> 53 MB)."""
        self.spare_tables = spare_tables
        self.spare_unused_s = UNUSED_S   # a spare unasked-for this long goes (referee_caches.Caches._trim)
        self.clock: Callable[[], float] = time.monotonic
        self._read: dict[int, float] = {}   # table id -> when a phone last asked for it

    # --- games ------------------------------------------------------------
    def game(self, name: str) -> Game:
        """The game's rules bound to its own card set (made once per process)."""
        with self._lock:
            if name not in self._games:
                self._games[name] = cardsets.new_game(registry.find(name))
            return self._games[name]

    @staticmethod
    def game_names() -> list[str]:
        return registry.names()

    # --- state --------------------------------------------------------------
    def snapshot(self, code: str) -> Snapshot:
        """The table as it is now: one read of its row (the state and seats
        come from the cache while the row's version says they are current)."""
        table = self.store.table(clean_code(code))
        with self._lock:
            cached = self._snaps.get(table["id"])
            self._read[table["id"]] = self.clock()
        if (cached is not None and cached.version == table["version"]
                and cached.table["status"] == table["status"]):
            return cached
        game = self.table_game(table)  # its card set's rules (companion.lobby)
        if table["status"] == "lobby":
            return self._keep(Snapshot(table, game, self.store.seats(table["id"]), None))
        entry = self._entry(table, game)
        return self._keep(Snapshot(table, game, entry.seats, entry.state, lines_of(entry.log, table["events"])))

    def snapshot_at(self, code: str, version: int | None) -> Snapshot:
        """The table at ``version`` or later when this process has it (a
        stream woken by a change this worker made, or heard of, needs no
        query), else as the database has it now."""
        if version is not None:
            with self._lock:
                table_id = self._ids.get(code)
                snap = self._snaps.get(table_id) if table_id is not None else None
            if snap is not None and snap.version >= version:
                return snap
        return self.snapshot(code)

    def has_bot(self, code: str) -> bool:
        """Whether the table has a bot seat: from the newest snapshot this
        process holds (a change it just made), else from the database."""
        with self._lock:
            table_id = self._ids.get(code)
            snap = self._snaps.get(table_id) if table_id is not None else None
        if snap is not None and any(s.get("bot") for s in snap.seats):
            return True
        return self.store.has_bot(code)

    def _table_lock(self, table_id: int) -> threading.Lock:
        with self._lock:
            return self._table_locks.setdefault(table_id, threading.Lock())

    def _entry(self, table: dict[str, Any], game: Game) -> Entry:
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

    def _catch_up(self, table: dict[str, Any], game: Game, entry: Entry | None) -> Entry:
        incremental = (entry is not None and entry.version < table["version"]
                       and entry.version >= table["rewound_at"] and entry.moves <= table["moves"])
        if not incremental:
            seats = self.store.seats(table["id"])
            state = game.setup(table["players"], table["seed"], table["options"])
            entry = Entry(version=-1, moves=0, state=state, seats=seats, history=OrderedDict())
        assert entry is not None
        if table["version"] - entry.version != table["moves"] - entry.moves:
            # something besides actions moved the version (a seat's new token): read the seats again
            entry = Entry(entry.version, entry.moves, entry.state, self.store.seats(table["id"]), entry.history,
                          entry.log, entry.rows)
        rows = [r for r in self.store.log(table["id"], after_seq=entry.moves) if r.seq <= table["moves"]]
        if (len(rows) != table["moves"] - entry.moves or any(r.version > table["version"] for r in rows)
                or [r.seq for r in rows] != list(range(entry.moves + 1, table["moves"] + 1))):
            raise _Moved()  # an undo or an action landed between the two reads
        state, history, log, done = entry.state, OrderedDict(entry.history), list(entry.log), list(entry.rows)
        names = [s["name"] for s in entry.seats]
        for row in rows:
            before, state = state, replayed(game, state, row.seat, row.action)
            log.append(narrate(game, before, row.seat, row.action, state, names))
            done.append(log_row(row.seat, row.action))
            history[row.version] = (row.seq, state)
        # The version now, if no move made it (a seat changed hands, a move was
        # taken back): a phone drawn at it may still send a move that others'
        # moves have since passed, and the rebase looks its state up here.
        history.setdefault(table["version"], (table["moves"], state))
        while len(history) > self.keep_states:
            history.popitem(last=False)
        return Entry(version=table["version"], moves=table["moves"], state=state, seats=entry.seats,
                     history=history, log=tuple(log), rows=tuple(done))

    # --- playing --------------------------------------------------------------
    def version(self, code: str) -> int:
        clean = clean_code(code)
        version = self.store.version(clean)
        with self._lock:   # a phone polling it: the table is in use (see ``spare_unused_s``)
            table_id = self._ids.get(clean)
            if table_id is not None:
                self._read[table_id] = self.clock()
        return version

    def act(self, table: str | Snapshot, seat: int, action: Any, seen_version: Any,
            action_id: Any = None, strict: bool = False) -> Snapshot:
        """Apply ``action`` for ``seat``; raises IllegalAction, Conflict, BadInput or Refused.

        ``table`` is the snapshot the request already read (or a code).
        ``action_id``, chosen by the phone, makes a retried request safe: an
        id already in the log is not applied again, and the answer is the
        table as it is (as the first answer was, or newer). ``strict``: any
        stale version is a conflict (a bot: its move was chosen on that one)."""
        action = clean_action(action)
        if isinstance(seen_version, bool) or not isinstance(seen_version, int):
            raise BadInput("Send the version you saw (an integer) with the action.")
        if action_id is not None and not (isinstance(action_id, str) and 8 <= len(action_id) <= 64
                                          and action_id.isascii() and action_id.isprintable()):
            raise BadInput("An action id is 8 to 64 plain characters, chosen by the phone.")
        snap = self.snapshot(table) if isinstance(table, str) else table
        # A retry of an action already applied carries a version older than
        # the table's (versions only grow, undo included), so the log is
        # only asked when the versions differ; an id reused on top of the
        # current version still meets the log's unique key when written.
        if action_id is not None and seen_version != snap.version:
            logged = self.store.logged(snap.table["id"], action_id)
            if logged is not None:
                self._same_request(logged, seat, action, snap)
                return snap if snap.version >= seen_version else self.snapshot(snap.code)
        for _ in range(10):
            if not snap.started:
                raise Refused("The game has not started yet.")
            if not 0 <= seat < len(snap.seats):
                raise Refused("You have no seat at this table.")
            if snap.over:
                raise IllegalAction("The game is over.")
            if seen_version != snap.version:
                self._check_rebase(snap, seat, seen_version, strict)
            new_state = self._apply(snap, seat, action)
            try:
                version = self.store.append_action(snap.table["id"], snap.version, snap.moves, seat, action,
                                                   action_id, finished=snap.game.is_over(new_state))
            except AlreadyApplied as done:
                self._same_request(done.logged, seat, action, snap)
                return self.snapshot(snap.code)  # the same request, retried: applied once
            except VersionConflict:
                snap = self.snapshot(snap.code)  # someone else wrote first: look again from their version
                continue
            after = self._advance(snap, seat, action, version, new_state)
            self.changed(snap.code, version)
            return after
        raise Conflict("The table is very busy: try again.", self.snapshot(snap.code))

    @staticmethod
    def _same_request(logged: Logged, seat: int, action: dict[str, Any], snap: Snapshot) -> None:
        """A logged action id comes again: a retry of the same move is
        answered with the table; the id sent with another move is refused."""
        if (logged.seat, logged.action) != (seat, action):
            raise Conflict("This move came with the id of another move already made, so it was not applied: "
                           "here is the table now.", snap)

    def _check_rebase(self, snap: Snapshot, seat: int, seen_version: int, strict: bool = False) -> None:
        message = "Someone else moved first: here is the table now."
        if (self.strict_versions or strict or seen_version > snap.version
                or seen_version < snap.table["rewound_at"]):
            raise Conflict(message, snap)
        # A move sent from a version older than this seat's own last move
        # was sent before the phone saw that move: a second tap on the same
        # control (a double tap), never to be applied on top of the first.
        if seat in self.store.seats_since(snap.table["id"], seen_version):
            raise Conflict("You moved just now (a second tap?): here is the table now.", snap)
        with self._lock:
            entry = self._cache.get(snap.table["id"])
        seen = entry.history.get(seen_version) if entry is not None else None
        if seen is None:
            raise Conflict(message, snap)
        if list(snap.game.actions(seen[1], seat)) != snap.actions(seat):
            raise Conflict(message, snap)

    @staticmethod
    def _apply(snap: Snapshot, seat: int, action: dict[str, Any]) -> Any:
        try:
            return snap.game.apply(snap.state, seat, action)
        except RulesError as exc:
            raise IllegalAction(named(str(exc), snap)) from None
        # Anything else the engine raises is a bug in the game, not a player's
        # mistake: it is not hidden here, and the request ends in a 500.

    def _advance(self, snap: Snapshot, seat: int, action: dict[str, Any], version: int, state: Any) -> Snapshot:
        """The table after our own write, without reading it again: the
        cache moves on, and the new snapshot is built from what we wrote."""
        table_id = snap.table["id"]
        table = dict(snap.table, version=version, moves=snap.moves + 1, notice=None,
                     status="over" if snap.game.is_over(state) else "playing")
        with self._lock:
            entry = self._cache.get(table_id)
        lines = narrate(snap.game, snap.state, seat, action, state, snap.names)
        log = (entry.log if entry is not None and entry.version == snap.version else ()) + (lines,)
        if entry is not None and entry.version == snap.version:
            history = OrderedDict(entry.history)
            history[version] = (snap.moves + 1, state)
            while len(history) > self.keep_states:
                history.popitem(last=False)
            self._remember(table_id, Entry(version, snap.moves + 1, state, entry.seats, history, log,
                                           entry.rows + (log_row(seat, action),)))
            return self._keep(Snapshot(table, snap.game, snap.seats, state, lines_of(log, table["events"])))
        return self._keep(Snapshot(table, snap.game, snap.seats, state, snap.log + lines))


class _Moved(Exception):
    """The table changed between reading its row and its log: read again."""
