"""Small drawings the printer and the phones both make: a bond as the Bond
die shows it, a Pattern card's group of hexagons, a goal card's shape in the
volume table. Geometry only, in units of a hexagon's side (``y`` down), each
centred on the origin; how they look is the template's business.

Knowledge lives once: the die face, the card and the phone's picture of the
roll are the same numbers.

>>> from engine.synthesis.bonds import parse_shape
>>> fig = bond_figure(parse_shape("A1:NE A1:E"))
>>> len(fig["segments"]), len(fig["hexagons"]), fig["corners"]
(2, 3, 3)
>>> round(fig["width"], 3), round(fig["height"], 3)
(0.866, 1.5)
>>> from engine.synthesis.table import TablePattern
>>> table_figure(TablePattern.parse(["o-o", "  :", "  o"]))["links"]
[{'a': [0, 0], 'b': [0, 1], 'kind': 'solid'}, {'a': [0, 1], 'b': [1, 1], 'kind': 'dotted'}]
"""

from __future__ import annotations

import math
from typing import Iterable

from engine.synthesis.disc import Disc
from engine.synthesis.lattice import Axial, Edge, Lattice, centre, edge_hexes, sides
from engine.synthesis.table import TablePattern


def _points(edges: Iterable[Edge]) -> list[tuple[float, float, float, float]]:
    out = []
    for a, b in edges:
        (x1, y1), (x2, y2) = Lattice.point(a), Lattice.point(b)
        out.append((x1, y1, x2, y2))
    return out


def _round(v: float) -> float:
    return round(v, 4) + 0.0


def bond_figure(shape: Iterable[Edge]) -> dict:
    """A bond's lines, the corners they touch and the hexagons they border
    (for a faint honeycomb behind it), centred on the bond's own box."""
    lines = sorted(shape)
    segs = _points(lines)
    xs = [x for s in segs for x in (s[0], s[2])]
    ys = [y for s in segs for y in (s[1], s[3])]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    around = sorted({h for e in lines for h in edge_hexes(e)}, key=lambda h: (h[1], h[0]))
    hexagons = []
    for h in around:
        hx, hy = Lattice.point(centre(h))
        hexagons.append({"x": _round(hx - cx), "y": _round(hy - cy),
                         "sides": [[_round(v) for v in (x1 - cx, y1 - cy, x2 - cx, y2 - cy)]
                                   for x1, y1, x2, y2 in _points(sides(h))]})
    corners = sorted({v for e in lines for v in e})
    return {
        "segments": [[_round(v) for v in (x1 - cx, y1 - cy, x2 - cx, y2 - cy)] for x1, y1, x2, y2 in segs],
        "dots": [[_round(Lattice.point(v)[0] - cx), _round(Lattice.point(v)[1] - cy)] for v in corners],
        "corners": len(corners), "hexagons": hexagons,
        "width": _round(max(xs) - min(xs)), "height": _round(max(ys) - min(ys)),
    }


def group_figure(group: Iterable[Axial]) -> dict:
    """A Pattern card's group of hexagons: each centre and its six sides, centred."""
    cells = list(group)
    pts = [Lattice.point(centre(h)) for h in cells]
    xs = [x for x, _ in pts]
    ys = [y for _, y in pts]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    out = []
    for h, (x, y) in zip(cells, pts):
        out.append({"x": _round(x - cx), "y": _round(y - cy),
                    "sides": [[_round(v) for v in (x1 - cx, y1 - cy, x2 - cx, y2 - cy)]
                              for x1, y1, x2, y2 in _points(sides(h))]})
    # a hexagon reaches sqrt(3)/2 sideways and 1 up and down from its centre
    return {"hexagons": out, "width": _round(max(xs) - min(xs) + 3 ** 0.5), "height": _round(max(ys) - min(ys) + 2)}


def table_figure(pattern: TablePattern) -> dict:
    """A shape drawn in the volume table (Molecular Chain and Project cards):
    its cells ``[row, col]`` (row 0 at the top, as the card draws it) and
    the line between each pair of adjacent cells: ``solid`` (must be
    linked), ``dotted`` (may be) or ``absent`` (must not be)."""
    rows = max(r for r, _ in pattern.cells) + 1
    cols = max(c for _, c in pattern.cells) + 1
    links = [{"a": list(a), "b": list(b), "kind": kind} for (a, b), kind in sorted(pattern.links.items())]
    return {"cells": [list(c) for c in pattern.cells], "links": links, "rows": rows, "cols": cols}


def _unit(deg: float) -> list[float]:
    return [_round(math.cos(math.radians(deg))), _round(math.sin(math.radians(deg)))]


def disc_figure(disc: Disc, turn: int = 1) -> dict:
    """The Active Element disc on ``turn``: each name box (box 0 at the top,
    the others clockwise) with the colour beside it, and the ring's sector
    for that colour: its middle and its two edges as unit vectors (``y``
    down), so a drawing only scales them. Turn 1 is how the disc is printed.

    >>> fig = disc_figure(Disc(("red", "yellow", "green", "blue"), "yellow", 2), turn=2)
    >>> [(b["box"], b["colour"], b["middle"]) for b in fig["boxes"]][:2]
    [(0, 'blue', [0.0, -1.0]), (1, 'red', [1.0, 0.0])]
    >>> fig["roller_box"], fig["step"]
    (2, 90.0)
    """
    step = 360 / disc.boxes
    boxes = []
    for k in range(disc.boxes):
        mid = -90 + k * step
        boxes.append({"box": k, "colour": disc.colour(k, turn), "angle": _round(mid), "middle": _unit(mid),
                      "start": _unit(mid - step / 2), "end": _unit(mid + step / 2)})
    return {"boxes": boxes, "step": _round(step), "roller": disc.roller_colour,
            "roller_box": disc.box_of(disc.roller_colour, turn)}
