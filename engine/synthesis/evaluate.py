"""How well a player stands, for the bots (:meth:`engine.core.Game.evaluate`).

A board is worth its score formula now plus what is in reach. Mid-game the
formula is estimated (:func:`estimate`): the exact best linking of the volume
table is a search of milliseconds, too slow to run for every action a bot
weighs, so each group of same-coloured adjacent cells counts as one chain
(a group that branches scores a little more than its best linking) and the
Molecular Chain card waits for the end. Then:

* a hexagon with most of its six lines present is a molecule in the
  making: one line short, a free bond or the next bond closes it;
* a molecule in the volume table is a link of chains to come and a cell
  of a row or column to complete, beyond what it scores now;
* a free bond still to draw, and an active molecule's bond still offered,
  are lines in hand.

Boards never touch: the worth less the best other board's
(:func:`engine.core.margin`) changes with the seat's own drawing only, and
alone it is the board's own worth. A solo mode is won or lost by its goals
(Solo Modes): each goal already met that needs no search is worth
:data:`GOAL` more, and a solo game over is its exact score and
:data:`SOLO_WON` more if it was won.

>>> from engine.synthesis.examples import example_cards
>>> from engine.synthesis.game import Synthesis
>>> game = Synthesis(example_cards())
>>> s = game.setup(2, seed=7, options={"first_game": True})
>>> worth(game, s, 0), game.evaluate(s, 0)
(0.0, 0.0)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from engine.core import margin
from engine.synthesis.chains import chain_points
from engine.synthesis.patterns import RULES, Board
from engine.synthesis.scoring import elemental_points
from engine.synthesis.formula import Formula
from engine.synthesis.state import Molecule, Pending, Seat, State

if TYPE_CHECKING:
    from engine.synthesis.game import Synthesis

NEAR = {5: 1.5, 4: 0.6, 3: 0.2}
"""A hexagon not yet closed, by how many of its six lines are present."""
IN_TABLE = 2.0
"""A molecule recorded in the volume table, beyond its points now (more
than a hexagon one line short, so a bot closes one when it can)."""
FREE = 2.5
"""A free bond or an active molecule's bond still to draw."""
SOLO_WON = 30.0
"""A solo game whose goals were met, beyond its points."""
BOARDS_KEPT = 8192
"""Boards' worths kept (:func:`_board`): a game's worth and more."""
GOAL = 10.0
"""A solo goal met so far (a Project's chains, its elemental molecules, a goal card's threshold)."""


def worth(game: "Synthesis", state: State, seat: int) -> float:
    """One board's worth (see above)."""
    s = state.seats[seat]
    return _board(game, state, s) + (GOAL * _goals_met(game, state, seat) if state.mode != "standard" else 0.0)


def _board(game: "Synthesis", state: State, s: Seat) -> float:
    """:func:`_worth` and :func:`_estimate` kept by the seat's molecules
    tuple itself, not by its value: hashing a tuple of molecules (each a
    dataclass) was a tenth of a bot's time, and copies of a state share
    the tuple, so the other boards are found at once."""
    cache = game.__dict__.setdefault("_boards", {})
    key = (id(s.molecules), s.lines, s.free_used, s.pending, s.board, state.side, state.pattern_card)
    got = cache.get(key)
    if got is not None and got[0] is s.molecules:
        return got[1]
    value = _worth(game, state.side, state.pattern_card, s.board, s.lines, s.molecules, s.free_used, s.pending)
    value += _estimate(game, state.side, state.pattern_card, s.board, s.molecules)
    if len(cache) >= BOARDS_KEPT:
        cache.clear()
    cache[key] = (s.molecules, value)  # the tuple kept alive, so its id is not reused
    return value


def _goals_met(game: "Synthesis", state: State, seat: int) -> int:
    """Solo goals met so far that need no search: a Project's elemental
    molecules, the Pattern card's threshold. A Project's chains and the
    Chain card's threshold are known for certain only from the exact best
    linking, too slow for every action weighed: they count at the end."""
    s = state.seats[seat]
    met = 0
    if state.project:
        met += sum(1 for m in s.molecules if m.elemental) >= game.cards.projects[state.project].row.elemental
    if state.level and state.pattern_card:
        card = game.cards.patterns[state.pattern_card]
        met += _pattern(game, state.side, state.pattern_card, s.board, s.molecules) >= card.row.threshold(state.level)
    return met


@lru_cache(maxsize=4096)
def _worth(game: "Synthesis", side: str, pattern: str | None, board: str, lines: str,
           molecules: tuple[Molecule, ...], free_used: int, pending: tuple[Pending, ...]) -> float:
    """What is in reach on a board, from what it depends on: a bot weighing
    its own actions asks it again and again of the other boards, which do
    not change."""
    f = game.rules.formulas[(board, side)]
    s = Seat(board, 0, lines, molecules, free_used, 0, pending)
    value = 0.0
    present = f.occupied(lines)
    closed = {m.hexagon for m in molecules}
    start = f.layout.start
    for h, mask in enumerate(f.lattice.hex_mask):
        if h != start and h not in closed:
            value += NEAR.get((mask & present).bit_count(), 0.0)
    value += IN_TABLE * sum(1 for m in molecules if m.row is not None)
    value += FREE * (f.free_left(s) + sum(1 for p in pending if p.kind == "active"))
    return value


@lru_cache(maxsize=4096)
def _estimate(game: "Synthesis", side: str, pattern: str | None, board: str, molecules: tuple[Molecule, ...]) -> float:
    return estimate(game, game.rules.formulas[(board, side)], Seat(board, 0, "", molecules), pattern)


def estimate(game: "Synthesis", f: Formula, s: Seat, pattern: str | None) -> float:
    """The score formula of seat ``s`` on formula ``f``, the chains counted
    by groups and the Chain card left out (see above)."""
    cards = game.cards
    columns = f.columns(s)
    table = f.layout.table
    colour = table.colours(columns)
    points = elemental_points(cards.rules, {k: len(v) for k, v in f.boxes(s).items()})
    points += cards.rules.line_points * (len(table.complete_rows(columns)) + len(table.complete_cols(columns)))
    seen: set = set()
    for cell, c in colour.items():
        if cell in seen or not c:
            continue
        group, todo = 0, [cell]
        seen.add(cell)
        while todo:
            r, k = todo.pop()
            group += 1
            for n in ((r + 1, k), (r - 1, k), (r, k + 1), (r, k - 1)):
                if n not in seen and colour.get(n) == c:
                    seen.add(n)
                    todo.append(n)
        points += chain_points(group, cards.points)
    if pattern:
        points += _pattern(game, f.layout.side, pattern, s.board, s.molecules)
    return float(points)


@lru_cache(maxsize=4096)
def _pattern(game: "Synthesis", side: str, pattern: str, board: str, molecules: tuple[Molecule, ...]) -> int:
    """The Molecular Pattern card's points on this board, capped at its red hexagon."""
    card = game.cards.patterns[pattern]
    f = game.rules.formulas[(board, side)]
    found = Board(f.lattice, f.layout.start, f.layout.elemental,
                  {m.hexagon: (m.colour, None if m.elemental else m.volume) for m in molecules})
    return min(RULES[card.row.rule](found, card.row.points, card.group)[0], card.row.maximum)


def evaluate(game: "Synthesis", state: State, seat: int) -> float:
    """``seat``'s board against the best other's."""
    if state.phase == "over":
        scored = [game.seat_scored(state, i) for i in range(state.players)]
        won = SOLO_WON if state.players == 1 and scored[0].won else 0.0
        return margin([sc.total for sc in scored], seat) + won
    return margin([worth(game, state, i) for i in range(state.players)], seat)
