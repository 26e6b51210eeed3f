"""Molecular volume chains: the linking of the table that scores the most.

"If orthogonally adjacent cells of the table are of matching colors, you can
link them in a molecular volume chain. [...] These chains cannot branch."
A *linking* is a set of links between adjacent cells of one colour in
which every cell has at most two links and no links go round in a circle:
its chains are its paths. A chain of ``n`` scores the reference table's
points (2: 3, 3: 6, ... 7: 28, and no more beyond 7: "A chain of more than
7 pads scores 28 points").

The best linking is the one a player would choose: the most points, then
the longest chain (the tie-break), so eight in a line are one chain of 8.
It is found exactly by :mod:`.chain_search`, chain by chain, which also
takes links that must or must not be made (``forced``, ``forbidden``).

>>> t = TableShape((2, 2, 2))
>>> colour = t.colours(["gg", "gg", "gr"])
>>> best = best_linking(t, colour, POINTS)
>>> best.points, [len(c) for c in best.chains]
(15, [5])
>>> best_linking(t, colour, POINTS, forbidden={((0, 0), (0, 1)), ((0, 0), (1, 0))}).points
10
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from engine.synthesis.chain_search import search
from engine.synthesis.table import Cell, Link, TableShape, chains_of, link

__all__ = ["POINTS", "Linking", "best_linking", "chain_points", "chains_of", "components", "points_table",
           "score_links"]

POINTS = (0, 0, 3, 6, 10, 15, 21, 28)
"""The rulebook's chain points by length (the player reference sheet): a
triangular number, capped at a chain of 7."""


def points_table(points: Mapping[int, int]) -> tuple[int, ...]:
    """``{2: 3, ..., 7: 28}`` as a tuple indexed by length, up to the cap."""
    cap = max(points)
    return tuple(0 if n < 2 else points.get(n, 0) for n in range(cap + 1))


def chain_points(length: int, table: tuple[int, ...] = POINTS) -> int:
    """Points of one chain; longer than the cap scores as the cap.

    >>> chain_points(1), chain_points(2), chain_points(7), chain_points(9)
    (0, 3, 28, 28)
    """
    return table[min(length, len(table) - 1)]


@dataclass(frozen=True)
class Linking:
    points: int
    links: frozenset[Link]
    chains: tuple[tuple[Cell, ...], ...]
    """Each chain's cells from one end to the other (two or more cells)."""

    @property
    def longest(self) -> int:
        return max((len(c) for c in self.chains), default=0)


def components(colour: Mapping[Cell, str]) -> list[tuple[Cell, ...]]:
    """Groups of filled cells joined through orthogonal neighbours of their colour."""
    seen: set[Cell] = set()
    out = []
    for start in sorted(colour):
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            r, c = todo.pop()
            group.append((r, c))
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n not in seen and colour.get(n) == colour[start]:
                    seen.add(n)
                    todo.append(n)
        out.append(tuple(sorted(group)))
    return out


def score_links(links: Iterable[Link], table: tuple[int, ...] = POINTS) -> int | None:
    """Points of a linking, or ``None`` if it branches or closes a circle."""
    links = list(links)
    degree: dict[Cell, int] = {}
    for a, b in links:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    if any(d > 2 for d in degree.values()):
        return None
    chains = chains_of(links)
    if sum(len(c) - 1 for c in chains) != len(links):
        return None  # a circle has no end to start from
    return sum(chain_points(len(c), table) for c in chains)


def best_linking(table: TableShape, colour: Mapping[Cell, str], points: tuple[int, ...] = POINTS,
                 forced: Iterable[Link] = (), forbidden: Iterable[Link] = ()) -> Linking | None:
    """The linking with the most chain points that makes every ``forced``
    link and no ``forbidden`` one, and among those the one with the longest
    chain; ``None`` if no linking can."""
    found = search(table, colour, points, forced=frozenset(link(*k) for k in forced),
                   forbidden=frozenset(link(*k) for k in forbidden))
    if found is None:
        return None
    return Linking(found.points, found.links, chains_of(found.links))
