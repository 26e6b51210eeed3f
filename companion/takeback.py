"""A player takes back their own last move, when nothing anyone did since
depends on it and taking it back shows nobody anything new.

The rule, from the engine contract alone (no game is named here; the
readings are in ``docs/design/takeback.md``). A seat may take back its most
recent logged action *A*, with the actions logged after it *L* (every one a
different seat's), when all of these hold:

1. **Not long ago.** At most :data:`MOST_LATER` actions since, so the check
   stays cheap (it is worked out once per version per seat).
2. **No randomness.** The game's generator (``to_dict(state)["rng"]``: every
   game keeps its :class:`engine.rng.Rng` state in its state) is the same
   before *A* as it is now: neither *A* nor anything since rolled a die,
   shuffled or drew at random.
3. **Nothing hidden was shown.** For a few states the seat cannot tell apart
   from the one before *A* (``Game.resample_hidden``: deck orders, hands and
   the generator drawn afresh), replaying *A* and *L* is legal and gives the
   seat the very views it was given. Had *A* or a move since drawn a card
   from a deck, or rolled, some resample would show the seat something else:
   then its moves or what it saw depended on what it could not see.
4. **Nothing depends on it.** Replaying *L* without *A* is legal move by
   move, and the table without *A* with *A* played last equals (as
   ``to_dict``) the table as it is. So every later move was just as legal
   without *A* and the table comes out the same, and taking *A* back leaves
   it as if *A* had been the last move and the host had undone it.

Any doubt refuses, with a sentence for the player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from engine.core import Game, RulesError
from companion.agreed import TABLE, replayed
from companion.errors import BadInput, Conflict, Refused
from companion.snapshot import Snapshot
from companion.store import VersionConflict
from companion.told import player_name

if TYPE_CHECKING:
    from companion.referee import Referee
    from companion.referee_caches import Entry

MOST_LATER = 12
"""A bound, not a rule: a move with more than this many others after it is
left to the host's undo (the check replays them all, several times)."""
RESAMPLES = 3
"""How many states the seat cannot tell apart are tried (rule 3)."""


@dataclass(frozen=True)
class Offer:
    """What the referee would do if the seat asked now: take back log row
    ``seq`` (told as ``words``), or refuse with ``reason``. Plain data: it is
    kept on the snapshot, and must hold nothing that holds the snapshot."""

    seq: int | None
    line: str = ""
    """The move as the log tells it ("Ada notated C on B3."): the notice quotes it."""
    label: str = ""
    """The button's words: "Take back: Notated C on B3"."""
    reason: str = ""
    since: int | None = None
    """The version the button sends: the check accepts it while this offer stands."""

    @property
    def ok(self) -> bool:
        return self.seq is not None


def refused(reason: str) -> Offer:
    return Offer(None, reason=reason)


class Lasting(str):
    """A refusal that stays true for as long as the move is the seat's last
    and nothing is taken back or undone: later moves can only add to what
    made it (the generator only moves on; a move illegal without the seat's
    stays so). The referee keeps it and skips the replays at the versions
    after (the check is made for every seat at every version)."""


@dataclass(frozen=True)
class Judged:
    """How far a take-back has been judged: enough to judge the same move
    again after more moves without replaying from before it (at a busy
    table the check is made for every seat at every version, and replaying
    the later moves in every resampled state was most of a page's cost).
    Plain states: it must hold nothing that holds a snapshot."""

    generator: Any
    before: Any
    after: Any
    without: Any
    """The table with the later moves and without the seat's."""
    worlds: tuple[Any, ...] | None = None
    """Each state the seat cannot tell apart (rule 3), with the move and the
    later ones (``None`` where one was illegal); ``None`` until needed."""


def judge(game: Game, before: Any, seat: int, action: dict[str, Any],
          later: Sequence[tuple[int, dict[str, Any]]], names: Sequence[str], now: Any = None) -> str | None:
    """Why ``seat`` may not take back ``action`` played on ``before`` with
    ``later`` logged after it, or ``None`` when it may (rules 2 to 4 above).
    ``now``: the state after ``later``, when the caller has it (it saves a
    replay when the dice were rolled since, the commonest refusal)."""
    reason, _ = judged(game, before, seat, action, later, names, now)
    return reason


def judged(game: Game, start: "Any | Judged", seat: int, action: dict[str, Any],
           later: Sequence[tuple[int, dict[str, Any]]], names: Sequence[str], now: Any = None,
           new: int | None = None, *, after: Any = None, seen: "Callable[[], Any] | None" = None,
           written: "Callable[[], Any] | None" = None) -> tuple[str | None, Judged | None]:
    """:func:`judge`, from the state before the move or from how far an
    earlier check of the same move got (a :class:`Judged`; then only the
    last ``new`` of ``later`` are replayed). Returns the reason (``None``:
    it may) and, when it may, how far this check got.

    What the caller already has, to save working it out again (each is what
    the check would work out itself): ``after``, the state after the move;
    ``seen()``, the seat's view of ``now``; ``written()``, ``now`` as
    ``to_dict`` writes it (every seat's check compares with the same)."""
    try:
        if not isinstance(start, Judged):
            start = _started(game, start, seat, action, after)
            if isinstance(start, str):
                return start, None
            new = len(later)
        return _go_on(game, start, seat, action, later, names, now, len(later) if new is None else new,
                      seen, written)
    except RulesError:
        return "You cannot take that back: the table has moved on from it.", None


def _started(game: Game, before: Any, seat: int, action: dict[str, Any], after: Any = None) -> "Judged | str":
    # Cheapest first: this is worked out for every seat at every version.
    generator = _generator(game, before)
    if after is None:
        after = game.apply(before, seat, action)
    if _generator(game, after) != generator:
        return Lasting("You cannot take that back: it rolled the dice or drew at random.")
    return Judged(generator, before, after, before)


def _go_on(game: Game, j: Judged, seat: int, action: dict[str, Any], later: Sequence[tuple[int, dict[str, Any]]],
           names: Sequence[str], now: Any, new: int, seen: "Callable[[], Any] | None",
           written: "Callable[[], Any] | None") -> tuple[str | None, Judged | None]:
    if now is not None and _generator(game, now) != j.generator:
        return Lasting("You cannot take that back: the dice were rolled (or a card drawn at random) since."), None
    # Rule 4: the later moves, replayed without the move, then the move on top,
    # give the table as it is (each of them legal on the way).
    moves = later[len(later) - new:]
    without = j.without
    for other, move in moves:
        try:
            without = game.apply(without, other, move)
        except RulesError:
            return Lasting(f"You cannot take that back: {player_name(game, names, other)} has moved since, "
                           "after your move."), None
    if now is None:
        now = _replayed(game, j.after, later)
        if _generator(game, now) != j.generator:
            return Lasting("You cannot take that back: the dice were rolled (or a card drawn at random) since."), None
        seen = written = None  # the caller's are of another state
    try:
        same = not later or game.to_dict(game.apply(without, seat, action)) == (
            written() if written is not None else game.to_dict(now))
    except RulesError:
        same = False
    if not same:
        return f"You cannot take that back: {player_name(game, names, later[-1][0])} has moved since, after your move.", None
    # Rule 3, the dearest: what the seat was shown against states it cannot tell apart.
    look = seen if seen is not None else (lambda: game.view(now, seat))
    if j.worlds is None:
        worlds = []
        real, first = _but_generator(game, j.before), None
        for i in range(RESAMPLES):
            resampled = game.resample_hidden(j.before, seat, 7919 * i + 1)
            if _but_generator(game, resampled) == real:
                continue   # the seat sees all but the generator: this world is the table's own (below)
            if first is None:
                first = look() if j.after is now else game.view(j.after, seat)
            world = _replayed(game, resampled, [(seat, action)])
            if world is None or game.view(world, seat) != first:
                return Lasting("You cannot take that back: it showed you something that was hidden."), None
            worlds.append(_replayed(game, world, later))
    else:
        worlds = [_replayed(game, w, moves) for w in j.worlds]
    if later and worlds:
        seen_now = look()
        if any(w is None or game.view(w, seat) != seen_now for w in worlds):
            return "You cannot take that back: something hidden has been shown since.", None
    return None, Judged(j.generator, j.before, j.after, without, tuple(worlds))


def _but_generator(game: Game, state: Any) -> dict[str, Any]:
    """The state as ``to_dict`` writes it, without its generator.

    A resampled state that differs from the real one in its generator alone
    (the seat sees everything else, in a game with nothing hidden) needs no
    replay for rule 3. Rule 2 has found that no move since drew from the
    generator, and a move that draws nothing does not read it either (the
    engine contract, ``tests/engine/test_conformance.py``), so the moves
    replayed there give the table's own states but for the generator, and
    the same views (a view never shows the generator: the same suite).
    Replaying them was three quarters of such a game's check, made for every
    seat at every version."""
    return {k: v for k, v in game.to_dict(state).items() if k != "rng"}


def _replayed(game: Game, state: Any, moves: Sequence[tuple[int, dict[str, Any]]]) -> Any:
    """``state`` with ``moves`` played on it, or ``None`` if one is illegal
    there. Each view is compared only after the move and after the last
    move since, not after each: what a move drew from a hidden deck stays
    drawn in the views after it."""
    for who, move in moves:
        if state is None:
            return None
        try:
            state = game.apply(state, who, move)
        except RulesError:
            return None
    return state


def _generator(game: Game, state: Any) -> Any:
    """The game's random generator as its state keeps it; a game that keeps
    none under ``rng`` leaves rule 3 (resampling, which redraws it) to tell.
    Read from the state's own ``rng`` field when it has one (the engine
    contract keeps the generator's state in the game state, and writes it
    out as ``to_dict(state)["rng"]``): writing the whole state out to read
    one number was a third of the check, made for every seat at every version."""
    value = getattr(state, "rng", None)
    if isinstance(value, int):
        return value
    return game.to_dict(state).get("rng")


def move_words(line: str, name: str) -> str:
    """A log line told for its own player's button: "Ada notated C on B3."
    reads "Notated C on B3"."""
    words = line.strip().rstrip(".")
    for head in (f"{name}: ", f"{name} "):
        if name and words.startswith(head):
            words = words[len(head):]
            break
    return words[:1].upper() + words[1:] if words else "your last move"


class TakeBacks:
    """The referee's half: what it would accept (once per version per
    seat, kept on the snapshot), and the take-back itself."""

    def take_back_offer(self: "Referee", snap: Snapshot, seat: int | None) -> Offer:
        """What taking back would do for ``seat`` now: drawn on every phone
        at every version, so worked out once per snapshot and seat."""
        if seat is None or not snap.started or not 0 <= seat < len(snap.seats):
            return refused("You have no seat at this table.")
        if snap.over:
            return refused("The game is over: only the host can take a move back now.")
        return snap.cached(("take back", seat), lambda: self._offer(snap, seat))

    def _offer(self: "Referee", snap: Snapshot, seat: int) -> Offer:
        with self._lock:
            entry = self._cache.get(snap.table["id"])
        if entry is None or entry.version < snap.version:
            entry = self._entry(snap.table, snap.game)  # brought up to this version, from where it is
        # A snapshot older than the cache (a stream still sending the version
        # before) is not worth a replay from the setup: its button is drawn
        # again at the next version.
        if entry.version != snap.version or len(entry.rows) != snap.moves:
            return refused("Someone moved just now: look again.")  # this snapshot is already old
        rows = entry.rows
        mine = [k for k in range(len(rows) - 1, max(-1, len(rows) - MOST_LATER - 2), -1) if rows[k][0] == seat]
        if not mine:
            if any(s == seat for s, _ in rows):
                return refused("Too much has happened since your last move: ask the host to undo.")
            return refused("You have made no move to take back.")
        k = mine[0]
        after = rows[k + 1:]
        # What an earlier check of the same move found: still good while nothing
        # was taken back or undone (rewound_at) and the move is the seat's last (k).
        key, since = (snap.table["id"], seat), (snap.table["rewound_at"], k)
        kept_since, moves, kept = self._judged.get(key, (None, 0, None))
        judgement: Judged | None = None
        if kept_since == since and isinstance(kept, str):
            reason: str | None = kept
        elif any(s == TABLE for s, _ in after):
            reason = Lasting("The table has moved on since your move: ask the host to undo.")
        else:
            (_, action), *later = entry.played(k)
            # What this version's page works out anyway, shared with the check:
            # the seat's view (drawn on its phone) and the state as a dict
            # (every seat's check compares with it).
            now, game, shared = entry.state, snap.game, snap.state is entry.state
            seen = (lambda: snap.view(seat)) if shared else None
            written = (lambda: snap.cached(("take back", "now"), lambda: game.to_dict(now))) if shared else None
            if kept_since == since and isinstance(kept, Judged) and moves <= len(rows):
                reason, judgement = judged(game, kept, seat, action, later, snap.names, now,
                                           new=len(rows) - moves, seen=seen, written=written)
            else:
                reason, judgement = judged(game, _state_after(snap, entry, k), seat, action, later,
                                           snap.names, now, after=_kept_state(entry, k + 1), seen=seen,
                                           written=written)
        if isinstance(reason, Lasting) or judgement is not None:
            self._keep_judged(key, (since, len(rows), judgement or str(reason)))
        if reason is not None:
            return refused(str(reason))
        told = entry.log[k] if k < len(entry.log) else ()
        line = told[0] if told else f"{snap.name(seat)}'s last move"
        # The version the button sends: the one the move made (or the last
        # take-back or undo, if later), which the check above accepts for as
        # long as this offer stands. Not the version drawn at: the button
        # then stays the same from one version to the next, and so does the
        # part that shows it (companion/reuse.py). The history may hold later
        # versions with the same moves (a seat changed hands): the first is
        # the move's. Unknown: the version now.
        made = min((v for v, (m, _) in entry.history.items() if m == k + 1), default=snap.version)
        return Offer(k + 1, line, f"Take back: {move_words(line, snap.name(seat))}",
                     since=max(made, snap.table["rewound_at"]))

    def _keep_judged(self: "Referee", key: tuple[int, int], judged: tuple[Any, int, "Judged | str"]) -> None:
        with self._lock:
            self._judged.pop(key, None)
            self._judged[key] = judged
            while len(self._judged) > 4 * self.cache_tables:  # a bound on memory: the oldest go first
                self._judged.pop(next(iter(self._judged)))

    def take_back(self: "Referee", table: "str | Snapshot", seat: int, seen_version: Any) -> Snapshot:
        """Take back ``seat``'s own last move, if :meth:`take_back_offer`
        allows it; raises Refused, Conflict or BadInput. The row leaves the
        log (the version still grows) and every phone is told who took what
        back."""
        if isinstance(seen_version, bool) or not isinstance(seen_version, int):
            raise BadInput("Send the version you saw (an integer) with the take-back.")
        snap = self.snapshot(table) if isinstance(table, str) else table
        if not snap.started:
            raise Refused("The game has not started yet.")
        if not 0 <= seat < len(snap.seats):
            raise Refused("You have no seat at this table.")
        for _ in range(10):
            # Others moving since the phone looked is no reason to refuse (a
            # simultaneous phase); this seat moving since, or any undo, is:
            # the move the phone offered may not be the last one any more.
            if seen_version != snap.version and (
                    seen_version > snap.version or seen_version < snap.table["rewound_at"]
                    or seat in self.store.seats_since(snap.table["id"], seen_version)):
                raise Conflict("The table changed just now: look again before taking your move back.", snap)
            offer = self.take_back_offer(snap, seat)
            if not offer.ok:
                raise Refused(offer.reason)
            notice = f"{snap.name(seat)} took back a move: {offer.line}"
            try:
                version = self.store.take_back(snap.table["id"], snap.version, offer.seq, seat, notice)
            except VersionConflict:
                snap = self.snapshot(snap.code)
                continue
            self.changed(snap.code, version)
            return self.snapshot(snap.code)
        raise Conflict("The table is very busy: try again.", self.snapshot(snap.code))


def _kept_state(entry: "Entry", moves: int) -> Any:
    """The state after the log's first ``moves`` rows if the cache's recent
    history has it (the state now, for a move just made), else ``None``."""
    for m, state in reversed(entry.history.values()):
        if m == moves:
            return state
    return None


def _state_after(snap: Snapshot, entry: "Entry", moves: int) -> Any:
    """The state after the log's first ``moves`` rows: kept in the cache's
    recent history, else replayed from the setup."""
    state = _kept_state(entry, moves)
    if state is not None:
        return state
    state = snap.game.setup(snap.table["players"], snap.table["seed"], snap.table["options"])
    for seat, action in entry.played(0, moves):
        state = replayed(snap.game, state, seat, action)
    return state
