"""The Compounded state: plain data, copied cheaply, read back with validation.

Elements are counted, not listed: a workbench, a compound, the bag, the Lead
Scientist tray and the Evaporating Trade Dish each hold a mapping such as
``{"H": 2, "O": 1}`` (zero counts left out). The bag has no order to hide: a
draw takes one of its gems at random with the state's generator.

A claim token is where it lies: ``"bench"`` (on the Workbench),
``"cell:5"`` (on the compound in grid space 5, counted from the top left,
row by row) or ``"tool:pipette"`` (on that tool's refresh space).

What happens next is the **agenda**: a list of small tasks, the first one
next (``{"do": "research_turn", "seat": 2, ...}``). A task either runs by
itself (a draw, a refill) or waits for a decision from the seats that
:func:`engine.compounded.flow.to_move` names.

>>> add({"H": 1}, "O", 2)
{'H': 1, 'O': 2}
>>> take({"H": 1, "O": 2}, "H")
{'O': 2}
>>> total({"H": 1, "O": 2})
3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.compounded.cards import ELEMENTS, TOOLS, TRACKS

Counts = dict[str, int]
BENCH = "bench"


def add(counts: Counts, element: str, n: int = 1) -> Counts:
    """``counts`` with ``n`` more ``element`` (changes and returns it), kept in Workbench order."""
    counts[element] = counts.get(element, 0) + n
    ordered = {e: counts[e] for e in ELEMENTS if counts.get(e)}
    counts.clear()
    counts.update(ordered)
    return counts


def take(counts: Counts, element: str, n: int = 1) -> Counts:
    """``counts`` with ``n`` fewer ``element``; raises ``ValueError`` if there are not enough."""
    have = counts.get(element, 0)
    if have < n:
        raise ValueError(f"only {have} {element}, not {n}")
    if have == n:
        del counts[element]
    else:
        counts[element] = have - n
    return counts


def total(counts: Counts) -> int:
    return sum(counts.values())


def merge(into: Counts, other: Counts) -> Counts:
    for e, n in other.items():
        add(into, e, n)
    return into


@dataclass(slots=True)
class Cell:
    """One space of the compound grid and what lies on it."""

    card: str | None = None
    elements: Counts = field(default_factory=dict)
    flames: int = 0
    marks: list[int] = field(default_factory=list)
    """Seats that completed it unclaimed (a claimed one stays its claimants', design reading 13)."""
    complete: bool = False
    completed_by: int | None = None
    """Who placed the last element; ``None`` if nobody did (an explosion finished it)."""
    ready: bool = False
    """Complete when this Lab phase began: it scores now."""
    since: int = 0
    """The round it came into the grid (a Lab Fire leaves at the next round's refill)."""

    def copy(self) -> "Cell":
        return Cell(self.card, dict(self.elements), self.flames, list(self.marks), self.complete,
                    self.completed_by, self.ready, self.since)

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "elements": dict(self.elements), "flames": self.flames, "marks": list(self.marks),
                "complete": self.complete, "completed_by": self.completed_by, "ready": self.ready,
                "since": self.since}


@dataclass(slots=True)
class Scientist:
    bench: Counts = field(default_factory=dict)
    """The Evaporating Dish of their Workbench."""
    tracks: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Levels of Discover, Study, Research, Lab (0 is Start)."""
    score: int = 0
    lines: dict[str, int] = field(default_factory=dict)
    """The score by where it came from (see :data:`engine.compounded.scoring.LINES`)."""
    tools: dict[str, bool] = field(default_factory=dict)
    """Tools held: ``True`` filled, ``False`` flipped to the empty side."""
    tokens: list[str] = field(default_factory=list)
    """Where each unlocked claim token lies."""

    def copy(self) -> "Scientist":
        return Scientist(dict(self.bench), list(self.tracks), self.score, dict(self.lines), dict(self.tools),
                         list(self.tokens))

    def level(self, track: str) -> int:
        return self.tracks[TRACKS.index(track)]

    def ready(self, tool: str) -> bool:
        return self.tools.get(tool, False)

    def to_dict(self) -> dict[str, Any]:
        return {"bench": dict(self.bench), "tracks": dict(zip(TRACKS, self.tracks)), "score": self.score,
                "lines": dict(self.lines), "tools": dict(self.tools), "tokens": list(self.tokens)}


def _clone(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


_PLAIN = (str, int, bool, type(None))


def _clone_agenda(agenda: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`_clone` of the agenda, the plain values of a task taken as they
    are: every move a bot weighs copies it."""
    return [{k: v if type(v) in _PLAIN else _clone(v) for k, v in task.items()} for task in agenda]


@dataclass(slots=True)
class State:
    players: int
    options: dict[str, Any]
    """``trading``: ``"free"`` or ``"dish"``; ``dish_size``; ``lab_partners``."""
    rng: int
    rows: int
    cols: int
    lab_partner_cells: list[int]
    bag: Counts
    tray: Counts
    dish: Counts
    deck: list[str]
    """Face down, top card first."""
    lab_partner_deck: list[str]
    discard: list[str]
    grid: list[Cell]
    scientists: list[Scientist]
    flame_supply: int
    tool_supply: dict[str, int]
    agenda: list[dict[str, Any]]
    round: int = 1
    lead: int = 0
    phase: str = "study"
    final_round: int | None = None
    """Set when someone reaches the end score: the round after which the game ends."""
    over: str | None = None
    """Why the game ended, once it has."""
    fires: int = 0
    """Lab Fires so far, to tell one fire's tasks from another's."""

    def copy(self) -> "State":
        return State(self.players, dict(self.options), self.rng, self.rows, self.cols, list(self.lab_partner_cells),
                     dict(self.bag), dict(self.tray), dict(self.dish), list(self.deck), list(self.lab_partner_deck),
                     list(self.discard), [c.copy() for c in self.grid], [s.copy() for s in self.scientists],
                     self.flame_supply, dict(self.tool_supply), _clone_agenda(self.agenda), self.round, self.lead,
                     self.phase, self.final_round, self.over, self.fires)

    def order(self, start: int | None = None) -> list[int]:
        """Seats in turn order from ``start`` (the lead scientist), to the left."""
        first = self.lead if start is None else start
        return [(first + i) % self.players for i in range(self.players)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "compounded", "players": self.players, "options": dict(self.options), "rng": self.rng,
            "rows": self.rows, "cols": self.cols, "lab_partner_cells": list(self.lab_partner_cells),
            "bag": dict(self.bag), "tray": dict(self.tray), "dish": dict(self.dish), "deck": list(self.deck),
            "lab_partner_deck": list(self.lab_partner_deck), "discard": list(self.discard),
            "grid": [c.to_dict() for c in self.grid], "scientists": [s.to_dict() for s in self.scientists],
            "flame_supply": self.flame_supply, "tool_supply": dict(self.tool_supply),
            "agenda": _clone(self.agenda), "round": self.round, "lead": self.lead, "phase": self.phase,
            "final_round": self.final_round, "over": self.over, "fires": self.fires,
        }


def cell_of(token: str) -> int | None:
    """The grid space a claim token lies on, if it lies on one.

    >>> cell_of("cell:5"), cell_of("bench"), cell_of("tool:journal")
    (5, None, None)
    """
    return int(token[5:]) if token.startswith("cell:") else None


def tool_of(token: str) -> str | None:
    return token[5:] if token.startswith("tool:") else None


__all__ = ["BENCH", "Cell", "Counts", "ELEMENTS", "Scientist", "State", "TOOLS", "TRACKS", "add", "cell_of",
           "merge", "take", "tool_of", "total"]
