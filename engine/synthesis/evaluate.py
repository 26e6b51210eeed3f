"""How well a player stands, for the bots (:meth:`engine.core.Game.evaluate`).

A board is worth its score formula now plus what is in reach. Mid-game the
formula is estimated (:func:`estimate`): the exact best linking of the volume
table is a search of milliseconds, too slow to run for every action a bot
weighs, so each group of same-coloured adjacent cells counts as one chain
(a group that branches scores a little more than its best linking) and the
Molecular Chain card counts the places of its shape in one colour, found
or a molecule short (:func:`chain_card`). Then:

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
NEAR_FIND = 0.4
"""A place of the Chain card's shape one molecule short, against a find."""
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
    key = (id(s.molecules), s.lines, s.free_used, s.pending, s.board, state.side, state.pattern_card,
           state.chain_card)
    got = cache.get(key)
    if got is not None and got[0] is s.molecules:
        return got[1]
    value = _worth(game, state.side, state.pattern_card, s.board, s.lines, s.molecules, s.free_used, s.pending)
    value += _estimate(game, state.side, state.pattern_card, s.board, s.molecules, state.chain_card)
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
def _estimate(game: "Synthesis", side: str, pattern: str | None, board: str, molecules: tuple[Molecule, ...],
              chain: str | None = None) -> float:
    return estimate(game, game.rules.formulas[(board, side)], Seat(board, 0, "", molecules), pattern, chain)


def estimate(game: "Synthesis", f: Formula, s: Seat, pattern: str | None, chain: str | None = None) -> float:
    """The score formula of seat ``s`` on formula ``f``, the chains counted
    by groups and the Chain card (``chain``) by its shape's places (see
    :func:`chain_card`)."""
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
    if chain:
        points += chain_card(game, table, colour, chain)
    return float(points)


def chain_card(game: "Synthesis", table, colour, chain: str) -> float:
    """The Molecular Chain card's points in reach: each place of its shape
    (turned, mirrored) whose molecules are all of one colour is a find, and
    one a molecule short (the rest one colour, the missing cell empty) is
    :data:`NEAR_FIND` of one; finds keep to their own molecules, up to the
    card's maximum. Whether the best linking can take every find is left
    to the end (the exact search is too slow for every action weighed), so
    this is what the card can still give, read from the card's own shape,
    points and maximum.

    >>> from engine.synthesis.examples import example_cards
    >>> from engine.synthesis.game import Synthesis
    >>> from engine.synthesis.table import TableShape
    >>> game = Synthesis(example_cards())
    >>> card = next(iter(game.cards.chains))
    >>> t = TableShape((3, 3, 3))
    >>> chain_card(game, t, t.colours(["", "", ""]), card)
    0.0
    """
    card = game.cards.chains[chain]
    per, most = card.row.points, card.row.maximum
    finds, near = [], []
    for p in card.pattern.placements(table):
        filled = [colour.get(x) for x in p.cells]
        shown = set(filled) - {None}
        if len(shown) != 1:
            continue
        empty = filled.count(None)
        if empty == 0:
            finds.append(p.cells)
        elif empty == 1:
            near.append(p.cells)
    used: set = set()
    value, count = 0.0, 0
    for cells, share in [(c, 1.0) for c in finds] + [(c, NEAR_FIND) for c in near]:
        if per * count >= most:
            break
        if used.isdisjoint(cells):
            used.update(cells)
            value += share * per
            count += 1
    return value


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
