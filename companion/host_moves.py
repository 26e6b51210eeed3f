"""The host's moves on a table in play: undo the last action the host saw,
and end the game by agreement, for a game that offers it. Half of
:class:`~companion.referee.Referee`, in a module of its own."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from engine.core import IllegalAction, RulesError
from companion.agreed import AGREED_END, TABLE
from companion.errors import BadInput, Conflict, Refused
from companion.referee_caches import Entry
from companion.snapshot import Snapshot
from companion.store import VersionConflict
from companion.told import named

if TYPE_CHECKING:
    from companion.referee import Referee

MOST_BOT_MOVES_UNDONE = 64
"""A bound, not a rule: an undo takes back at most this many bot moves made
after the version the host saw (bots move at a readable pace, so a handful)."""


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class HostMoves:
    """The host's undo and end by agreement (half of the referee)."""

    def end_by_agreement(self: "Referee", table: str | Snapshot, seen_version: Any) -> Snapshot:
        """End the game now, scored as it stands (the host's button, when
        everyone agrees), for a game that offers it: see :mod:`companion.agreed`."""
        if isinstance(seen_version, bool) or not isinstance(seen_version, int):
            raise BadInput("Send the version you saw (an integer) with the end of the game.")
        snap = self.snapshot(table) if isinstance(table, str) else table
        if not snap.started:
            raise Refused("The game has not started yet.")
        if not snap.game.ends_by_agreement:
            raise Refused("This game cannot be ended early: it is played to its end.")
        if snap.over:
            raise IllegalAction("The game is over.")
        if seen_version != snap.version:
            raise Conflict("Someone moved just now: look again before ending the game.", snap)
        try:
            state = snap.game.end_by_agreement(snap.state)
        except RulesError as exc:
            raise IllegalAction(named(str(exc), snap)) from None
        try:  # logged as the table's, not a seat's: a replay ends it again, an undo takes it back
            version = self.store.append_action(snap.table["id"], snap.version, snap.moves, TABLE, dict(AGREED_END),
                                               finished=snap.game.is_over(state))
        except VersionConflict:
            raise Conflict("Someone moved just now: look again before ending the game.",
                           self.snapshot(snap.code)) from None
        after = self._advance(snap, TABLE, dict(AGREED_END), version, state)
        self.changed(snap.code, version)
        return after

    def undo(self: "Referee", table: str | Snapshot, seen_version: Any) -> Snapshot:
        """Take back the last action the host saw (the host's button for mis-taps).

        The undo wins over the bots: moves that bots made after the version
        the host saw (they came while the host's finger was on its way) are
        taken back with it, since they followed from it. A person's move
        since, or another undo, is a conflict: the host looks again.

        The generator's state is part of the game state, so dice rolled after
        the undone point come out the same when the same path is taken again.
        """
        if isinstance(seen_version, bool) or not isinstance(seen_version, int):
            raise BadInput("Send the version you saw (an integer) with the undo.")
        snap = self.snapshot(table) if isinstance(table, str) else table
        code = snap.code
        if not snap.started:
            raise Refused("The game has not started yet.")
        for _ in range(10):
            if seen_version > snap.version or (seen_version != snap.version
                                                and seen_version < snap.table["rewound_at"]):
                raise Conflict("Someone moved just now: look again before undoing.", snap)
            rows = self.store.log(snap.table["id"], after_seq=max(0, snap.moves - 1 - MOST_BOT_MOVES_UNDONE))
            later = [r for r in rows if r.version > seen_version]
            bots = {int(s["seat"]) for s in snap.seats if s.get("bot")}
            if any(r.seat not in bots for r in later) or len(later) > MOST_BOT_MOVES_UNDONE:
                raise Conflict("Someone moved just now: look again before undoing.", snap)
            kept = snap.moves - len(later) - 1     # the moves left after the undo
            if kept < 0:
                raise Refused("There is nothing to undo.")
            words = self._move_words(snap, kept)
            if later:
                by = sorted({snap.name(r.seat) for r in later})
                words += f" (and the move{'s' if len(later) > 1 else ''} {_and(by)} made after it)"
            try:
                version = self.store.undo(snap.table["id"], snap.version, f"The host took back a move: {words}",
                                          keep=kept)
            except VersionConflict:
                snap = self.snapshot(code)   # a bot moved meanwhile: look again (it is taken back too)
                continue
            break
        else:
            raise Conflict("The table is very busy: try again.", self.snapshot(code))
        if version is None:
            raise Refused("There is nothing to undo.")
        self.changed(code, version)
        with self._lock:
            entry = self._cache.get(snap.table["id"])
        if entry is not None:
            earlier = [(m, s) for (m, s) in entry.history.values() if m == kept]
            if earlier and entry.version == snap.version and len(entry.log) == snap.moves:
                history = OrderedDict((v, ms) for v, ms in entry.history.items() if ms[0] <= kept)
                history[version] = (kept, earlier[-1][1])   # the undo's own version (see _catch_up)
                self._remember(snap.table["id"], Entry(version, kept, earlier[-1][1], entry.seats, history,
                                                       entry.log[:kept], entry.rows[:kept]))
        return self.snapshot(code)

    def _move_words(self: "Referee", snap: Snapshot, kept: int) -> str:
        """Move number ``kept + 1`` of the log in words, as the undo notice
        names it: the first line of what it gave, the move itself (the lines
        after it tell what followed, such as the next round's lead rolling)."""
        entry = self._entry(snap.table, snap.game)
        lines = entry.log[kept] if kept < len(entry.log) else ()
        return lines[0] if lines else "the last move"
