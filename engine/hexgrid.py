"""Hexagonal lattices of spaces packed in offset rows, each touching up to
six others (a note sheet's compound field, say).

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


EMBED_STEPS = 200_000
"""A bound, not a rule: the placements :func:`search_embedding` tries before
it gives up (about a second). Every compound of the games' own sets is placed
in a few thousand; a large branched one that does not fit could otherwise keep
the search (and ``labkit validate``) going for hours."""


def embed(atoms: list[str], bonds: dict[tuple[int, int], int], field: HexField,
          start: Space | None = None) -> dict[int, Space] | None:
    """:func:`search_embedding`'s placement, or ``None`` (none, or none found within the bound)."""
    return search_embedding(atoms, bonds, field, start)[0]


def search_embedding(atoms: list[str], bonds: dict[tuple[int, int], int], field: HexField,
                     start: Space | None = None) -> tuple[dict[int, Space] | None, bool]:
    """Place a molecular graph on a field so that bonded atoms sit on adjacent
    spaces, or ``None`` if it cannot be done. Used to prove a card's compound
    is buildable and to draw it the way it looks on a note sheet.

    Backtracking from the most-bonded atom outward, preferring spaces near the
    middle so that drawings come out compact. Returns the placement (or
    ``None``) and whether the search stopped at :data:`EMBED_STEPS` before
    deciding.
    """
    n = len(atoms)
    if n == 0:
        return {}, False
    if n > len(field):
        return None, False
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
        return None, False  # not connected: one molecule per card
    mid = ((field.rows - 1) / 2, (field.cols - 1) / 2)

    def closeness(s: Space) -> float:
        x, y = field.centre(s)
        mx, my = field.centre((round(mid[0]), round(mid[1])))
        return (x - mx) ** 2 + (y - my) ** 2

    starts = [start] if start else sorted(field, key=closeness)
    placed: dict[int, Space] = {}
    taken: set[Space] = set()
    steps = [0]

    def extend(k: int) -> bool:
        if k == n:
            return True
        steps[0] += 1
        if steps[0] > EMBED_STEPS:
            return False
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

    try:
        for s in starts[:3]:
            placed = {first: s}
            taken = {s}
            if extend(1):
                return placed, False
        return None, steps[0] > EMBED_STEPS
    finally:
        del extend  # it calls itself by name: a cycle (it and its cell) refcounting cannot free


def bond_lines(a: tuple[float, float], b: tuple[float, float], order: int, spread: float,
               trim: float = 0.0) -> list[tuple[float, float, float, float]]:
    """Parallel segments drawing a single, double or triple bond between two
    centres, each end pulled in by ``trim`` (the atom circle's radius). The
    printed cards and the phones draw bonds with this one function.

    >>> bond_lines((0, 0), (1, 0), 2, 0.2)
    [(0.0, -0.1, 1.0, -0.1), (0.0, 0.1, 1.0, 0.1)]
    """
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    px, py = -uy, ux
    ax, ay = x1 + ux * trim, y1 + uy * trim
    bx, by = x2 - ux * trim, y2 - uy * trim
    offsets = {1: [0.0], 2: [-spread / 2, spread / 2], 3: [-spread, 0.0, spread]}[order]
    return [(ax + px * o, ay + py * o, bx + px * o, by + py * o) for o in offsets]


def molecule_layout(atoms: list[str], bonds: dict[tuple[int, int], int]) -> dict:
    """A molecule placed on the lattice the way a player would build it:
    atom centres in pitch units with the top-left atom at (0, 0), and its
    bonds. For drawing a card's compound on paper and on a phone.

    >>> water = molecule_layout(["O", "H", "H"], {(0, 1): 1, (0, 2): 1})
    >>> len(water["atoms"]), len(water["bonds"]), water["height"] > 0
    (3, 2, True)
    """
    placed = embed(atoms, bonds, HexField(7, 7))
    if placed is None:
        raise ValueError("cannot lay this molecule out on a hexagonal lattice")
    pos = {i: HexField.centre(s) for i, s in placed.items()}
    x0 = min(p[0] for p in pos.values())
    y0 = min(p[1] for p in pos.values())
    out_atoms = [{"element": e, "x": pos[i][0] - x0, "y": pos[i][1] - y0} for i, e in enumerate(atoms)]
    out_bonds = [{"a": i, "b": j, "order": o, "x1": out_atoms[i]["x"], "y1": out_atoms[i]["y"],
                  "x2": out_atoms[j]["x"], "y2": out_atoms[j]["y"]} for (i, j), o in sorted(bonds.items())]
    return {"atoms": out_atoms, "bonds": out_bonds,
            "width": max(a["x"] for a in out_atoms), "height": max(a["y"] for a in out_atoms)}
