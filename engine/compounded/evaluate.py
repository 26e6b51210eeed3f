"""How well a scientist stands, for the bots (:meth:`engine.core.Game.evaluate`).

A scientist is worth the score track now plus what is in reach:

* a completed compound they claim (or completed unclaimed) scores at the
  next Lab phase: its points, less 2 a flame token, once per claim token,
  and an experiment advance;
* a claimed compound still open is worth what the end game gives for it
  ("1 point for each element on them") and, with the chance of completing
  it, what completing it adds to that (its points and an advance). The
  chance falls by :data:`REACH` for every element still to be found (one
  on the Workbench that it needs counts as partly found). So a claim on an
  empty compound is worth something, and more the more the compound
  scores: a card whose points an author triples draws more claims, and
  one made worthless none (measured in ``docs/design/bots.md``);
* an element on the Workbench is half a point at the end ("1 point for
  every 2 elements"), and more while a claimed compound still needs it;
* an experiment level does more in every later round (more draws, claims,
  placements, room): worth less as the end score comes near;
* a filled tool, a little.

The scientist's worth less the best of the others' (:func:`engine.core.margin`).
Once the game is over the score track says it all.

>>> from tests.engine.compounded.helpers import GAME
>>> s = GAME.setup(2, seed=1)
>>> [round(worth(GAME.rules, s, seat), 1) for seat in (0, 1)], GAME.evaluate(s, 0)
([2.5, 2.5], 0.0)
"""

from __future__ import annotations

from typing import Callable

from engine.compounded.flow import Rules
from engine.compounded.lab import FLAME_PENALTY
from engine.compounded.state import State, total
from engine.core import margin

REACH = 0.5
"""The chance of completing a claimed compound halves for each element still
to be found: a claim on an empty two-element compound is worth a quarter of
what completing it brings, on an empty Lab Partner card of twelve next to
nothing. Steep, so that placing an element on one's claimed compound gains
more than holding it, at every stage of every square compound whose points
exceed its elements (``tests/engine/compounded/test_evaluate.py``); gentler,
greedy held its elements and games stalled at the arena's bound."""
HELD = 0.5
"""An element on the Workbench that a claimed compound needs counts as this
much found (it still takes a Research placement, and a Lab Fire may come)."""
NEEDED = 0.45
"""An element on the Workbench that a claimed open compound still needs: this much on top of its end value
(what a bot's trade offer is after, :mod:`engine.compounded.bot_trades`)."""
LEVEL = 2.0
"""An experiment level at the start of the game (none by the end score)."""
TOOL = 1.0
"""A filled tool."""


def worth(r: Rules, s: State, seat: int) -> float:
    return _worth(r, s, seat, _Table(r, s))


def bench_worth(r: Rules, s: State) -> Callable[[int], float]:
    """:func:`worth` of each seat of ``s``, the table read once: valid while
    only the Workbenches change (a bot trying exchanges, :mod:`.bot_trades`)."""
    table = _Table(r, s)
    return lambda seat: _worth(r, s, seat, table)


class _Table:
    """What every scientist's worth reads of the table, read once per state
    (a bot weighs every seat's worth after every move it weighs)."""

    __slots__ = ("advance", "marks", "missing", "on")

    def __init__(self, r: Rules, s: State) -> None:
        progress = min(1.0, max(o.score for o in s.scientists) / r.end_at[s.players])
        self.advance = LEVEL * (1.0 - progress)  # scoring a compound moves an experiment up
        self.marks: dict[int, dict[int, int]] = {}  # seat -> {space: completion marks}
        for i, cell in enumerate(s.grid):
            for seat in cell.marks:
                mine = self.marks.setdefault(seat, {})
                mine[i] = mine.get(i, 0) + 1
        self.missing: dict[int, dict[str, int]] = {}
        self.on: dict[int, int] = {}


def _worth(r: Rules, s: State, seat: int, table: _Table) -> float:
    sc = s.scientists[seat]
    value = float(sc.score)
    claimed: dict[int, int] = dict(table.marks.get(seat, {}))  # as Rules.claimants counts them
    for t in sc.tokens:
        if t[0] == "c":  # "cell:i"
            at = int(t[5:])
            claimed[at] = claimed.get(at, 0) + 1
    points_of, sizes, bench, advance = r.points, r.sizes, sc.bench, table.advance
    needs: dict[str, int] = {}
    for i, claims in claimed.items():
        cell = s.grid[i]
        points = points_of.get(cell.card) if cell.card else None
        if points is None:
            continue
        points = max(0, points - FLAME_PENALTY * cell.flames) * claims
        if cell.complete:
            value += points + advance
            continue
        missing = table.missing.get(i)
        if missing is None:
            missing = table.missing[i] = r.missing(cell)
            table.on[i] = total(cell.elements)
        on = table.on[i]
        held = 0
        for e, n in missing.items():
            needs[e] = needs.get(e, 0) + n
            have = bench.get(e, 0)
            held += n if n < have else have
        gain = points + advance - on
        value += on + (REACH ** (sizes[cell.card] - on - HELD * held) * gain if gain > 0 else 0.0)
    gems = needed = 0
    for e, n in bench.items():
        gems += n
        if needs:
            need = needs.get(e, 0)
            needed += n if n < need else need
    value += gems / 2
    if needed:
        value += NEEDED * needed
    value += advance * sum(sc.tracks)
    value += TOOL * sum(1 for filled in sc.tools.values() if filled)
    return value


def evaluate(r: Rules, s: State, seat: int) -> float:
    """``seat``'s worth against the best other's (the score track alone once it is over)."""
    if s.over is not None:
        return margin([o.score for o in s.scientists], seat)
    table = _Table(r, s)
    return margin([_worth(r, s, i, table) for i in range(s.players)], seat)
