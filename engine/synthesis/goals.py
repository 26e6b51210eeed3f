"""The linking that scores the most once goal cards are counted.

Which chains are linked decides more than the chain points: a Molecular
Chain card scores each time its shape is found with its solid lines linked
and its missing lines not linked, and a Project card asks for whole chains
of given shapes. So the best linking for a player is searched together with
the card: every set of (disjoint) places where the card's shape fits, and
every way to lay the Project's chains, each turned into links that must or
must not be made, then the exact chain DP (:mod:`.chains`) under those
constraints. Constraints only ever cost chain points, so a branch whose
unconstrained best plus the most the card could still add cannot beat the
best found is cut.

In a solo game the goals come first: the search maximizes (goals met,
points), so a linking that wins beats one that scores more and loses.

>>> from engine.synthesis.table import TablePattern, TableShape
>>> t = TableShape((2, 2))
>>> colour = t.colours(["yy", "yy"])
>>> optimize(t, colour).chain_points   # alone, one chain of 4 scores most
10
>>> twin = TablePattern.parse(["o-o", "", "o-o"])   # two chains of two, kept apart
>>> best = optimize(t, colour, card=(twin, 5, 15))
>>> best.chain_points, best.card_points, [len(c) for c in best.linking.chains]
(6, 5, [2, 2])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from engine.synthesis.chains import POINTS, Linking, best_linking
from engine.synthesis.table import Cell, Link, Placed, TablePattern, TableShape


@dataclass(frozen=True)
class Best:
    linking: Linking
    card_points: int
    occurrences: tuple[Placed, ...]
    """Where the Molecular Chain card's shape was counted."""
    project: tuple[Placed, ...] | None
    """The Project's chains as laid in the table (``None``: not all could be)."""
    goals_met: bool

    @property
    def chain_points(self) -> int:
        return self.linking.points


def fitting(pattern: TablePattern, table: TableShape, colour: Mapping[Cell, str]) -> list[Placed]:
    """Places where a card's shape lies on filled cells, each group one colour."""
    seen, out = set(), []
    for p in pattern.placements(table):
        key = (frozenset(p.cells), p.links)
        if p.fits(colour) and key not in seen:
            seen.add(key)
            out.append(p)
    return out


def whole_chain(p: Placed, table: TableShape, colour: Mapping[Cell, str]) -> Placed:
    """A Project chain laid in the table must be a whole chain of the linking:
    every other link from its cells to a cell of its colour is refused."""
    inside = set(p.forced())
    extra = []
    cells = set(p.cells)
    for a, b in table.links:
        if (a in cells or b in cells) and (a, b) not in inside and colour.get(a) == colour.get(b) is not None:
            extra.append(((a, b), "absent"))
    kinds = dict(p.links)
    kinds.update(extra)
    return Placed(p.cells, tuple(sorted(kinds.items())), p.groups)


def optimize(table: TableShape, colour: Mapping[Cell, str], points: tuple[int, ...] = POINTS,
             card: tuple[TablePattern, int, int] | None = None, project: tuple[TablePattern, ...] | None = None,
             card_needed: int | None = None) -> Best:
    """The best linking with its goals. ``card`` is a Molecular Chain card's
    ``(shape, points each time, maximum)``; ``project`` the chains a Project
    card asks for; ``card_needed`` the solo threshold the card must reach."""
    shape, each, cap = card if card else (None, 0, 0)
    occ = fitting(shape, table, colour) if shape is not None else []
    most = -(-cap // each) if card else 0
    reqs = [[whole_chain(p, table, colour) for p in fitting(c, table, colour)] for c in (project or ())]
    colour = dict(colour)
    found: list = [None, None]  # [key, Best]

    def card_points(k: int) -> int:
        return min(cap, each * k)

    def met(k: int, project_done: bool) -> bool:
        return project_done and (card_needed is None or card_points(k) >= card_needed)

    def beats(key: tuple[bool, int]) -> bool:
        return found[0] is None or key > found[0]

    def linking(forced: frozenset[Link], forbidden: frozenset[Link]) -> Linking | None:
        if forced & forbidden:
            return None
        return best_linking(table, colour, points, forced, forbidden)

    def lay_project(i: int, used: frozenset[Cell], forced: frozenset[Link], forbidden: frozenset[Link],
                    laid: tuple[Placed, ...]) -> None:
        lk = linking(forced, forbidden)
        if lk is None or not beats((True, lk.points + card_points(most))):
            return
        if i == len(reqs):
            count(0, forced, forbidden, laid, (), lk)
            return
        for p in reqs[i]:
            if not beats((True, lk.points + card_points(most))):
                return
            if used.isdisjoint(p.cells):
                lay_project(i + 1, used | frozenset(p.cells), forced | p.forced(), forbidden | p.forbidden(),
                            laid + (p,))

    def count(j: int, forced: frozenset[Link], forbidden: frozenset[Link], laid: tuple[Placed, ...] | None,
              occs: tuple[Placed, ...], lk: Linking) -> None:
        key = (met(len(occs), laid is not None), lk.points + card_points(len(occs)))
        if beats(key):
            found[0] = key
            found[1] = Best(lk, card_points(len(occs)), occs, laid, key[0])
        if len(occs) >= most:
            return
        for idx in range(j, len(occ)):
            if not beats((laid is not None, lk.points + card_points(most))):
                return  # constraints only cost chain points: nothing below can do better
            o = occ[idx]
            if _overlaps(occs, o):
                continue
            f2, x2 = forced | o.forced(), forbidden | o.forbidden()
            lk2 = linking(f2, x2)
            if lk2 is None or not beats((laid is not None, lk2.points + card_points(most))):
                continue
            count(idx + 1, f2, x2, laid, occs + (o,), lk2)

    lay_project(0, frozenset(), frozenset(), frozenset(), ())
    if project:
        # Linkings that leave the Project aside never meet the goals, but one
        # may still score more than any that keeps it (or none keeps it).
        lk = linking(frozenset(), frozenset())
        assert lk is not None
        count(0, frozenset(), frozenset(), None, (), lk)
    return found[1]


def _overlaps(occs: tuple[Placed, ...], o: Placed) -> bool:
    """Each time a card's shape is counted it takes its own molecules ("These
    molecules cannot be part of other chains" of the card)."""
    cells = set(o.cells)
    return any(cells & set(x.cells) for x in occs)


