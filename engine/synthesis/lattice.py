"""The formula's lattice: hexagons whose sides are the bond lines.

A Synthesis board prints a honeycomb, the *formula*. Players draw bonds
along its lines (Rules for Synthesis 1); a hexagon whose six sides are all
drawn is a molecule (Molecule Creation). So the rules live on the lattice's
*edges* and *vertices*, not on its cells, which is why Synthesis has its own
lattice here rather than :mod:`engine.hexgrid`'s cell field.

Coordinates, all integers:

* a **hexagon** is written as on the board, row letter and column number
  (``"C4"``: row C from the top, fourth from the left); odd rows (B, D, ...)
  sit half a hexagon to the right. Inside, it is axial ``(q, r)``.
* a **vertex** (a corner) is ``(x, y)`` in units of half a side vertically
  and half a hexagon's width horizontally: the centre of hexagon ``(q, r)``
  is ``(2q + r, 3r)`` and its corners are the centre plus ``(0, -2)``,
  ``(1, -1)``, ``(1, 1)``, ``(0, 2)``, ``(-1, 1)``, ``(-1, -1)``.
* an **edge** (a line) is the sorted pair of its two vertices.

Hexagons are pointy-topped; their sides are named by compass direction,
``E NE NW W SW SE``. A line has two names, one per hexagon it borders
(``C4:E`` is ``C5:W``).

>>> lat = Lattice.from_labels(["A1", "A2", "B1"])
>>> len(lat.hexes), len(lat.edges), len(lat.vertices)
(3, 15, 13)
>>> lat.edge_label(lat.edge_index(parse_side("A2:W")))
'A1:E'
>>> [lat.hex_label(h) for h in lat.neighbours[lat.hex_index("B1")]]
['A1', 'A2']
"""

from __future__ import annotations

import math
import re
from functools import cached_property
from typing import Iterable

Vertex = tuple[int, int]
Edge = tuple[Vertex, Vertex]
Axial = tuple[int, int]

SIDES = ("E", "NE", "NW", "W", "SW", "SE")
"""Side names, counter-clockwise from the east side."""
DELTA: tuple[Axial, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The axial step to the neighbour across each side."""
_TOP, _UR, _LR, _BOTTOM, _LL, _UL = (0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)
CORNERS = (_TOP, _UR, _LR, _BOTTOM, _LL, _UL)
_SIDE_CORNERS = ((_UR, _LR), (_TOP, _UR), (_UL, _TOP), (_UL, _LL), (_LL, _BOTTOM), (_BOTTOM, _LR))
ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
X_UNIT = math.sqrt(3) / 2
"""A vertex's ``x`` in units of a side's length is ``x * X_UNIT``; ``y`` is ``y / 2``."""


# --- points ------------------------------------------------------------------------
def centre(hexagon: Axial) -> Vertex:
    q, r = hexagon
    return (2 * q + r, 3 * r)


def corners(hexagon: Axial) -> tuple[Vertex, ...]:
    """The six corners, clockwise from the top."""
    x, y = centre(hexagon)
    return tuple((x + dx, y + dy) for dx, dy in CORNERS)


def edge(a: Vertex, b: Vertex) -> Edge:
    return (a, b) if a <= b else (b, a)


def side(hexagon: Axial, k: int) -> Edge:
    """Side ``k`` (an index into :data:`SIDES`) of a hexagon as an edge."""
    x, y = centre(hexagon)
    (ax, ay), (bx, by) = _SIDE_CORNERS[k]
    return edge((x + ax, y + ay), (x + bx, y + by))


def sides(hexagon: Axial) -> tuple[Edge, ...]:
    return tuple(side(hexagon, k) for k in range(6))


def vertex_neighbours(v: Vertex) -> tuple[Vertex, ...]:
    """The three corners one line away. A corner either points up (one line
    goes straight up from it) or down.

    >>> vertex_neighbours((0, -2))
    ((0, -4), (1, -1), (-1, -1))
    """
    x, y = v
    if y % 3 == 1:  # the top corner of some hexagon
        return ((x, y - 2), (x + 1, y + 1), (x - 1, y + 1))
    return ((x, y + 2), (x + 1, y - 1), (x - 1, y - 1))


def edges_at(v: Vertex) -> tuple[Edge, ...]:
    return tuple(edge(v, w) for w in vertex_neighbours(v))


def owner(v: Vertex) -> Vertex:
    """The centre of the hexagon whose top or bottom corner ``v`` is: shapes
    are moved so that their first corner's owner is the origin."""
    x, y = v
    return (x, y + 2) if y % 3 == 1 else (x, y - 2)


def rotate(v: Vertex) -> Vertex:
    """A sixth of a turn clockwise (as seen on the board) about the origin."""
    x, y = v
    return ((x - y) // 2, (3 * x + y) // 2)


def mirror(v: Vertex) -> Vertex:
    """Upside down, about the row through the origin."""
    return (v[0], -v[1])


# --- labels -------------------------------------------------------------------------
def axial(row: int, col: int) -> Axial:
    """Board row and column (from 0) to axial coordinates (odd rows shifted right)."""
    return (col - (row - (row & 1)) // 2, row)


def offset(hexagon: Axial) -> tuple[int, int]:
    q, r = hexagon
    return (r, q + (r - (r & 1)) // 2)


def hex_label(hexagon: Axial) -> str:
    row, col = offset(hexagon)
    if not 0 <= row < len(ROWS) or col < 0:
        return f"({hexagon[0]},{hexagon[1]})"
    return f"{ROWS[row]}{col + 1}"


_HEX = re.compile(r"\s*([A-Za-z])\s*(\d{1,2})\s*")
_SIDE = re.compile(r"\s*([A-Za-z])\s*(\d{1,2})\s*:\s*([A-Za-z]{1,2})\s*")


def parse_hex(text: object) -> Axial:
    """``"C4"`` as axial coordinates; raises ``ValueError`` with the reason.

    >>> parse_hex("A1"), parse_hex("b1")
    ((0, 0), (0, 1))
    """
    m = _HEX.fullmatch(text) if isinstance(text, str) else None
    if not m or int(m.group(2)) < 1:
        raise ValueError(f"expected a hexagon such as C4 (row letter, column from 1), found {text!r}")
    return axial(ROWS.index(m.group(1).upper()), int(m.group(2)) - 1)


def parse_side(text: object) -> Edge:
    """``"C4:E"`` (a hexagon and one of its sides) as an edge.

    >>> parse_side("A1:E") == parse_side("A2:W")
    True
    """
    m = _SIDE.fullmatch(text) if isinstance(text, str) else None
    if not m or m.group(3).upper() not in SIDES or int(m.group(2)) < 1:
        raise ValueError(f"expected a line such as C4:E (a hexagon, a colon and a side: "
                         f"{' '.join(SIDES)}), found {text!r}")
    hexagon = axial(ROWS.index(m.group(1).upper()), int(m.group(2)) - 1)
    return side(hexagon, SIDES.index(m.group(3).upper()))


def edge_hexes(e: Edge) -> tuple[Axial, Axial]:
    """The two hexagons a line borders (whether or not on a board)."""
    (ax, ay), (bx, by) = e
    mx2, my2 = ax + bx, ay + by  # twice the midpoint
    out = []
    for k, (dq, dr) in enumerate(DELTA):
        # centre = midpoint - half the step across side k; solve for (q, r)
        cx2 = mx2 - (2 * dq + dr)
        cy2 = my2 - 3 * dr
        if cy2 % 6 == 0 and (cx2 - cy2 // 3) % 4 == 0:
            r = cy2 // 6
            q = (cx2 // 2 - r) // 2
            if side((q, r), k) == e:
                out.append((q, r))
    return (out[0], out[1])


# --- a board's formula ----------------------------------------------------------------
class Lattice:
    """The hexagons of one formula with every line and corner numbered, so
    that a drawn formula is a bit set and legality is arithmetic on integers.

    Hexagons are numbered row by row; lines and corners in the order the
    hexagons first reach them."""

    def __init__(self, hexes: Iterable[Axial]) -> None:
        self.hexes: tuple[Axial, ...] = tuple(sorted(set(hexes), key=lambda h: (h[1], h[0])))
        if not self.hexes:
            raise ValueError("a formula needs at least one hexagon")
        self._hex_index = {h: i for i, h in enumerate(self.hexes)}
        edges: dict[Edge, int] = {}
        vertices: dict[Vertex, int] = {}
        hex_edges = []
        for h in self.hexes:
            own = []
            for e in sides(h):
                own.append(edges.setdefault(e, len(edges)))
                for v in e:
                    vertices.setdefault(v, len(vertices))
            hex_edges.append(tuple(own))
        self.edges: tuple[Edge, ...] = tuple(edges)
        self.vertices: tuple[Vertex, ...] = tuple(vertices)
        self._edge_index = edges
        self._vertex_index = vertices
        self.hex_edges: tuple[tuple[int, ...], ...] = tuple(hex_edges)
        """The six lines of each hexagon, in :data:`SIDES` order."""
        on = [[] for _ in self.edges]
        for h, own in enumerate(hex_edges):
            for e in own:
                on[e].append(h)
        self.edge_hexes: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in on)
        """The formula's hexagons each line borders (one on the rim, else two)."""
        self.edge_vertices: tuple[tuple[int, int], ...] = tuple(
            (vertices[a], vertices[b]) for a, b in self.edges)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted({o for e in own for o in self.edge_hexes[e] if o != h})) for h, own in enumerate(hex_edges))
        """Hexagons sharing a line with each hexagon: adjacent molecules."""
        self.hex_mask: tuple[int, ...] = tuple(sum(1 << e for e in own) for own in hex_edges)
        self.edge_vertex_mask: tuple[int, ...] = tuple((1 << a) | (1 << b) for a, b in self.edge_vertices)

    @classmethod
    def from_labels(cls, labels: Iterable[str]) -> "Lattice":
        return cls(parse_hex(t) for t in labels)

    # --- lookups ------------------------------------------------------------------
    def hex_index(self, label_or_axial: str | Axial) -> int:
        h = parse_hex(label_or_axial) if isinstance(label_or_axial, str) else label_or_axial
        if h not in self._hex_index:
            raise KeyError(f"{hex_label(h)} is not a hexagon of this formula")
        return self._hex_index[h]

    def has_hex(self, h: Axial) -> bool:
        return h in self._hex_index

    def edge_index(self, e: Edge) -> int:
        if e not in self._edge_index:
            raise KeyError("that line is not in this formula")
        return self._edge_index[e]

    def has_edge(self, e: Edge) -> bool:
        return e in self._edge_index

    def vertex_index(self, v: Vertex) -> int:
        return self._vertex_index[v]

    def hex_label(self, h: int) -> str:
        return hex_label(self.hexes[h])

    @cached_property
    def edge_labels(self) -> tuple[str, ...]:
        """Each line's name: its first hexagon (row by row) and that hexagon's side."""
        out = []
        for e, on in enumerate(self.edge_hexes):
            h = on[0]
            k = self.hex_edges[h].index(e)
            out.append(f"{self.hex_label(h)}:{SIDES[k]}")
        return tuple(out)

    def edge_label(self, e: int) -> str:
        return self.edge_labels[e]

    def parse_edge(self, text: object) -> int:
        """A line's index from either of its names; ``ValueError`` off the formula.

        >>> lat = Lattice.from_labels(["A1"])
        >>> lat.parse_edge("A1:E"), lat.parse_edge("A2:W")
        (0, 0)
        >>> lat.parse_edge("A3:W")
        Traceback (most recent call last):
        ...
        ValueError: 'A3:W' is not a line of this formula
        """
        if isinstance(text, str):
            known = self.__dict__.setdefault("_parsed", {}).get(text)  # a bot's every action names its lines
            if known is not None:
                return known
        e = parse_side(text)
        if e not in self._edge_index:
            raise ValueError(f"{text!r} is not a line of this formula")
        if isinstance(text, str):
            self._parsed[text] = self._edge_index[e]
        return self._edge_index[e]

    def edges_of_mask(self, mask: int) -> list[int]:
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def vertex_mask(self, edge_mask: int) -> int:
        out = 0
        for e in self.edges_of_mask(edge_mask):
            out |= self.edge_vertex_mask[e]
        return out

    # --- drawing --------------------------------------------------------------------
    @staticmethod
    def point(v: Vertex) -> tuple[float, float]:
        """A corner in units of a side's length, ``y`` down (for the printer and the phones)."""
        return (v[0] * X_UNIT, v[1] / 2)

    def hex_centre(self, h: int) -> tuple[float, float]:
        return self.point(centre(self.hexes[h]))

    def edge_segment(self, e: int) -> tuple[float, float, float, float]:
        a, b = self.edges[e]
        (x1, y1), (x2, y2) = self.point(a), self.point(b)
        return (x1, y1, x2, y2)

    def bounds(self) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)`` of every corner."""
        xs = [self.point(v)[0] for v in self.vertices]
        ys = [self.point(v)[1] for v in self.vertices]
        return (min(xs), min(ys), max(xs), max(ys))

    def connected_hexes(self) -> bool:
        """Whether every hexagon can be reached from the first across shared lines."""
        seen = {0}
        todo = [0]
        while todo:
            h = todo.pop()
            for n in self.neighbours[h]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(self.hexes)
