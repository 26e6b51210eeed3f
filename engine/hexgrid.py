"""Hexagonal lattices: the Lab Notes compound field (spaces packed in offset
rows, each touching up to six others) and, later, Synthesis' formula.

Spaces are ``(row, col)``; odd rows sit half a space to the right ("odd-r"
offset layout). Centres are in units of the space pitch, so drawing code
scales them to millimetres and the rules use only adjacency.

>>> field = HexField(rows=3, cols=3)
>>> sorted(field.neighbours((1, 1)))
[(0, 1), (0, 2), (1, 0), (1, 2), (2, 1), (2, 2)]
>>> field.are_adjacent((0, 0), (1, 0))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

Space = tuple[int, int]

ROW_HEIGHT = math.sqrt(3) / 2


@dataclass(frozen=True)
class HexField:
    rows: int
    cols: int

    def __iter__(self) -> Iterator[Space]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield (r, c)

    def __len__(self) -> int:
        return self.rows * self.cols

    def __contains__(self, space: object) -> bool:
        return (isinstance(space, tuple) and len(space) == 2
                and 0 <= space[0] < self.rows and 0 <= space[1] < self.cols)

    def neighbours(self, space: Space) -> list[Space]:
        return self._neighbours[space]

    @cached_property
    def _neighbours(self) -> dict[Space, list[Space]]:
        out = {}
        for r, c in self:
            shift = r % 2  # odd rows are pushed right by half a space
            cand = [(r, c - 1), (r, c + 1),
                    (r - 1, c - 1 + shift), (r - 1, c + shift),
                    (r + 1, c - 1 + shift), (r + 1, c + shift)]
            out[(r, c)] = [s for s in cand if s in self]
        return out

    def are_adjacent(self, a: Space, b: Space) -> bool:
        return b in self._neighbours.get(a, ())

    @staticmethod
    def centre(space: Space) -> tuple[float, float]:
        """Centre of a space in pitch units; (0, 0) is the first space."""
        r, c = space
        return (c + 0.5 * (r % 2), r * ROW_HEIGHT)

    def size(self) -> tuple[float, float]:
        """Width and height of the centres' bounding box plus one pitch."""
        extra = 0.5 if self.rows > 1 else 0.0
        return (self.cols - 1 + extra + 1, (self.rows - 1) * ROW_HEIGHT + 1)


def embed(atoms: list[str], bonds: dict[tuple[int, int], int], field: HexField,
          start: Space | None = None) -> dict[int, Space] | None:
    """Place a molecular graph on a field so that bonded atoms sit on adjacent
    spaces, or ``None`` if it cannot be done. Used to prove a card's compound
    is buildable and to draw it the way it looks on a note sheet.

    Backtracking from the most-bonded atom outward, preferring spaces near the
    middle so that drawings come out compact.
    """
    n = len(atoms)
    if n == 0:
        return {}
    nb: dict[int, list[int]] = {i: [] for i in range(n)}
    for (i, j) in bonds:
        nb[i].append(j)
        nb[j].append(i)
    first = max(range(n), key=lambda i: (len(nb[i]), atoms[i] != "H"))
    order = [first]
    for i in order:
        for j in sorted(nb[i], key=lambda j: -len(nb[j])):
            if j not in order:
                order.append(j)
    if len(order) != n:
        return None  # not connected: one molecule per card
    mid = ((field.rows - 1) / 2, (field.cols - 1) / 2)

    def closeness(s: Space) -> float:
        x, y = field.centre(s)
        mx, my = field.centre((round(mid[0]), round(mid[1])))
        return (x - mx) ** 2 + (y - my) ** 2

    starts = [start] if start else sorted(field, key=closeness)
    placed: dict[int, Space] = {}
    taken: set[Space] = set()

    def extend(k: int) -> bool:
        if k == n:
            return True
        i = order[k]
        anchors = [placed[j] for j in nb[i] if j in placed]
        options = [s for s in field.neighbours(anchors[0]) if s not in taken]
        options = [s for s in options if all(field.are_adjacent(s, a) for a in anchors[1:])]
        for s in sorted(options, key=closeness):
            placed[i] = s
            taken.add(s)
            if extend(k + 1):
                return True
            del placed[i]
            taken.discard(s)
        return False

    for s in starts[:3]:
        placed = {first: s}
        taken = {s}
        if extend(1):
            return placed
    return None
