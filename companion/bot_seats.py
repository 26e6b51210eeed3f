"""The host's rules for bots at a table: a bot put on a free seat in the
lobby, a seat whose player left handed to a bot mid-game. A seat goes back
to a person through the handover link of :mod:`companion.lobby` (a phone
that claims a bot's seat with it makes the seat a person's again).

A bot's seat holds a secret that no phone is ever given (only its digest
is stored, as for every seat), so no phone can act for a bot, and no phone
is ever shown a bot's controls. The bots themselves play from
:mod:`companion.bots`.

>>> level_of("medium"), words(level_of("hard"))
('greedy', 'hard')
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from companion.errors import BadInput, Conflict, Refused
from companion.lobby import clean_name
from companion.snapshot import Snapshot, digest
from companion.store import VersionConflict

if TYPE_CHECKING:
    from companion.referee import Referee

LEVELS = {"easy": "random", "medium": "greedy", "hard": "planner"}
"""The words a table reads for the engine's levels (:data:`engine.bots.LEVELS`);
the database keeps the engine's name, the page shows these."""
NAMES = ("Ada", "Bohr", "Curie", "Dalton", "Emmy", "Faraday", "Gibbs", "Hodgkin")
"""Names for bots the host does not name: scientists, one per seat a game may
have (a table shows "Ada (bot, medium)")."""


def level_of(raw: Any) -> str:
    """The engine's level for a level as a form or a client sends it: the
    table's word (``medium``) or the engine's own name (``greedy``)."""
    if isinstance(raw, str) and raw.strip().lower() in LEVELS:
        return LEVELS[raw.strip().lower()]
    if isinstance(raw, str) and raw.strip().lower() in LEVELS.values():
        return raw.strip().lower()
    raise BadInput("Pick a bot level: easy, medium or hard.")


def words(level: str) -> str:
    """The table's word for an engine level."""
    return next((w for w, lv in LEVELS.items() if lv == level), level)


def label(seat: dict[str, Any]) -> str:
    """A seat's name as the table shows it: ``Ada (bot, medium)`` for a bot."""
    return f"{seat['name']} (bot, {words(seat['bot'])})" if seat.get("bot") else str(seat["name"])


def _free_name(taken: set[str]) -> str:
    for name in NAMES:
        if name.casefold() not in taken:
            return name
    n = 1
    while f"bot {n}" in taken:
        n += 1
    return f"Bot {n}"


class BotSeats:
    """The bot half of :class:`~companion.referee.Referee`'s seats."""

    def bots_wanted(self) -> None:
        """Told when a table gains a bot: the app points it at its bot driver
        (:meth:`companion.bots.Driver.start`), which then watches the tables."""

    def add_bot(self: "Referee", table: str | Snapshot, level: Any, name: Any = None) -> Snapshot:
        """Seat a bot of ``level`` in the lobby, on the next free seat, named
        ``name`` or else by the first free name of :data:`NAMES`."""
        level = level_of(level)
        wanted = clean_name(name) if isinstance(name, str) and name.strip() else None
        for _ in range(10):
            snap = self.snapshot(table) if isinstance(table, str) else table
            if snap.started:
                raise Refused("The game has started: a bot can take over a seat from the host's bar instead.")
            if len(snap.seats) >= snap.game.max_players:
                raise Refused(f"The table is full ({snap.game.max_players} players).")
            taken = {s["name"].casefold() for s in snap.seats}
            if wanted is not None and wanted.casefold() in taken:
                raise Refused(f"Someone at this table is already called {wanted}: pick another name.")
            try:
                version = self.store.add_seat(snap.table["id"], snap.version, len(snap.seats),
                                              wanted or _free_name(taken), digest(secrets.token_urlsafe(24)), level)
            except VersionConflict:
                table = snap.code  # someone joined at the same moment: look again
                continue
            self.changed(snap.code, version)
            self.bots_wanted()
            return self.snapshot(snap.code)
        raise Conflict("The table is very busy: try again.", self.snapshot(snap.code))

    def hand_to_bot(self: "Referee", table: str | Snapshot, seat: Any, level: Any) -> Snapshot:
        """A bot of ``level`` takes over ``seat`` mid-game (its player left):
        the seat keeps its name and its place in the log, and the phone that
        held it loses it. A bot's seat may be given another level this way."""
        level = level_of(level)
        snap = self.snapshot(table) if isinstance(table, str) else table
        if not snap.started:
            raise Refused("The game has not started: add a bot to a free seat, or remove the player, instead.")
        if snap.over:
            raise Refused("The game is over.")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(snap.seats):
            raise Refused("There is no such seat at this table.")
        was = snap.seats[seat]
        if was.get("bot") == level:
            raise Refused(f"{label(was)} is that bot already.")
        told = (f"The host changed {was['name']}'s bot from {words(was['bot'])} to {words(level)}."
                if was.get("bot") else f"The host handed {was['name']}'s seat to a bot ({words(level)}).")
        version = self.store.set_bot(snap.table["id"], seat, level, digest(secrets.token_urlsafe(24)), told)
        self.changed(snap.code, version)
        self.bots_wanted()
        return self.snapshot(snap.code)
