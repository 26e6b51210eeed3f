"""A Synthesis board side as the rules see it, and the proof that it plays.

Each of the 12 double-sided boards has a layout per side (Game Components):
the formula (a honeycomb with the starting molecule S), thin black lines
printed on it, active molecules showing a bond, elemental molecules showing
a shape (two of each shape: a pair), and a molecular volume table. In the
data a layout is written as text (``cardsdata/synthesis/boards.yaml``)::

    formula:               one line per row of hexagons, top row first:
      - ". o o o ."        o a hexagon, S the starting molecule, . none;
      - " o o S o o"       odd rows sit half a hexagon to the right
    active: {B2: x2, C4: arc}       a copy of the rolled bond, or a Bond die shape
    elemental: {A2: circle, ...}    each shape twice
    lines: [B3:E]                   printed thin black lines
    table: [6, 6, 6, 6, 5, 4]       cells per column, volume 1 first

:func:`check_layout` lists everything that would make a side unplayable.

>>> lay = compile_layout("A", "A", [". o o .", " o S o", ". o o ."], {}, {}, [], (3,) * 6)
>>> len(lay.lattice.hexes), lay.lattice.hex_label(lay.start)
(7, 'B2')
>>> check_layout(lay, ("circle",), ())
[]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.synthesis.lattice import Lattice, axial, hex_label, parse_hex, parse_side
from engine.synthesis.table import TableShape

COPY = "x2"
"""The active molecule icon meaning "another copy of the bond that closed it"."""


@dataclass(eq=False)
class Layout:
    board: str
    side: str
    lattice: Lattice
    start: int
    """The hexagon of the starting molecule S."""
    active: dict[int, str]
    """Active molecules: hexagon -> ``"x2"`` or a Bond die shape id."""
    elemental: dict[int, str]
    """Elemental molecules: hexagon -> the shape printed in it."""
    printed: int
    """Edge mask of the thin black lines printed on the formula."""
    table: TableShape
    pairs: tuple[str, ...] = ()
    """The elemental shapes, in the order their pairs of boxes are printed."""
    start_mask: int = field(init=False)
    start_corners: int = field(init=False)

    def __post_init__(self) -> None:
        self.start_mask = self.lattice.hex_mask[self.start]
        self.start_corners = self.lattice.vertex_mask(self.start_mask)

    @property
    def name(self) -> str:
        return f"board {self.board}, side {self.side}"

    @property
    def fixed(self) -> int:
        """Lines on the board before anyone draws: S's sides and the printed lines."""
        return self.start_mask | self.printed


def compile_layout(board: str, side: str, formula: list[str], active: dict[str, str],
                   elemental: dict[str, str], lines: list[str], table: tuple[int, ...]) -> Layout:
    """A layout from its text form; ``ValueError`` for what cannot even be read
    (a bad token, an unknown hexagon). Whether it plays is :func:`check_layout`."""
    hexes, start = [], None
    for row, text in enumerate(formula):
        for col, token in enumerate(text.split()):
            if token == ".":
                continue
            if token not in ("o", "S"):
                raise ValueError(f"formula row {row + 1}: expected o, S or ., found {token!r}")
            h = axial(row, col)
            hexes.append(h)
            if token == "S":
                if start is not None:
                    raise ValueError(f"formula row {row + 1}: a second starting molecule S "
                                     f"(the first is {hex_label(start)})")
                start = h
    if start is None:
        raise ValueError("the formula has no starting molecule S")
    lat = Lattice(hexes)

    def at(label: str, what: str) -> int:
        try:
            return lat.hex_index(parse_hex(label))
        except (KeyError, ValueError) as exc:
            raise ValueError(f"{what} {label!r}: {str(exc).strip(chr(34))}") from None
    act = {at(k, "active molecule"): v for k, v in active.items()}
    ele = {at(k, "elemental molecule"): v for k, v in elemental.items()}
    printed = 0
    for text in lines:
        try:
            e = lat.edge_index(parse_side(text))
        except KeyError:
            raise ValueError(f"printed line {text!r} is not a line of the formula") from None
        if printed >> e & 1:
            raise ValueError(f"printed line {text!r} is listed twice")
        printed |= 1 << e
    pairs = tuple(dict.fromkeys(ele[h] for h in sorted(ele)))
    return Layout(board, side, lat, lat.hex_index(start), act, ele, printed, TableShape(tuple(table)), pairs)


def reachable_edges(lay: Layout) -> int:
    """Edge mask of every line a player could ever draw by building out from
    S without crossing a printed line (no mutation needed)."""
    lat = lay.lattice
    drawable = [e for e in range(len(lat.edges)) if not lay.fixed >> e & 1]
    by_vertex: dict[int, list[int]] = {}
    for e in drawable:
        for v in lat.edge_vertices[e]:
            by_vertex.setdefault(v, []).append(e)
    seen_v = {v for v in range(len(lat.vertices)) if lay.start_corners >> v & 1}
    todo = list(seen_v)
    mask = 0
    while todo:
        v = todo.pop()
        for e in by_vertex.get(v, ()):
            mask |= 1 << e
            for w in lat.edge_vertices[e]:
                if w not in seen_v:
                    seen_v.add(w)
                    todo.append(w)
    return mask


def check_layout(lay: Layout, shapes: tuple[str, ...] | None, bonds: tuple[str, ...] | None) -> list[str]:
    """Every reason this side would not play by the rules, as sentences;
    ``shapes`` are the elemental shapes and ``bonds`` the Bond die's shape ids
    (``None``: unknown, because their file did not read)."""
    out = []
    lat = lay.lattice
    if not lat.connected_hexes():
        out.append("the formula falls apart: every hexagon must share a line with another")
    if lay.start_mask & lay.printed:
        out.append("a printed line lies on the starting molecule S, which is already drawn")
    reach = reachable_edges(lay)
    for h, own in enumerate(lat.hex_edges):
        if h != lay.start and all(lay.fixed >> e & 1 for e in own):
            out.append(f"{lat.hex_label(h)} is closed before the game starts (all its lines are printed)")
    for h, icon in sorted(lay.active.items()):
        if h == lay.start:
            out.append(f"{lat.hex_label(h)} is the starting molecule and cannot be active")
        if icon != COPY and bonds is not None and icon not in bonds:
            out.append(f"{lat.hex_label(h)}: active molecule {icon!r} is not a Bond die shape "
                       f"(shapes: {', '.join(bonds)}; or {COPY})")
    for h, shape in sorted(lay.elemental.items()):
        label = lat.hex_label(h)
        if shapes is not None and shape not in shapes:
            out.append(f"{label}: {shape!r} is not an elemental shape (shapes: {', '.join(shapes)})")
        if h in lay.active:
            out.append(f"{label} cannot be both an active and an elemental molecule")
        if h == lay.start or lay.start in lat.neighbours[h]:
            out.append(f"{label}: an elemental molecule next to S could never be one colour (S's lines are black)")
        if any(lay.printed >> e & 1 for e in lat.hex_edges[h]):
            out.append(f"{label}: an elemental molecule with a printed line could never be one colour")
    for shape in sorted(set(lay.elemental.values())):
        count = sum(1 for s in lay.elemental.values() if s == shape)
        if count != 2:
            out.append(f"elemental shape {shape!r} is on {count} hexagon(s): a pair is exactly 2")
    for h in sorted(set(lay.active) | set(lay.elemental)):
        missing = [e for e in lat.hex_edges[h] if not lay.fixed >> e & 1 and not reach >> e & 1]
        if missing:
            out.append(f"{lat.hex_label(h)} can never be closed: "
                       f"{', '.join(lat.edge_label(e) for e in missing)} cannot be reached from S")
    if len(lay.table.heights) != 6 or not all(1 <= h <= 10 for h in lay.table.heights):
        out.append(f"the volume table needs 6 columns (volumes 1 to 6) of 1 to 10 cells, "
                   f"found {list(lay.table.heights)}")
    for r in range(lay.table.rows):
        if len(lay.table.row_cells(r)) == 1:
            # "Fill an entire row or column [...] (with any combination of color
            # types)": a row is a line across the columns; a row of one cell is
            # the top of its column, so one molecule would complete both
            out.append(f"row {r + 1} of the volume table is a single cell, which completing its column "
                       f"completes too: make every row at least two cells wide (found {list(lay.table.heights)})")
    return out


def geometry(lay: Layout) -> dict:
    """Everything a printer or a phone needs to draw this side, in units of a
    hexagon side (``y`` down), computed once here: each hexagon's centre and
    icon, each line's ends and whether it is printed, the volume table and
    the elemental pairs.

    >>> lay = compile_layout("A", "A", ["o S"], {"A1": "x2"}, {}, ["A1:W"], (3,) * 6)
    >>> g = geometry(lay)
    >>> [(h["hexagon"], h["kind"], h["icon"]) for h in g["hexagons"]]
    [('A1', 'active', 'x2'), ('A2', 'start', None)]
    >>> sum(1 for e in g["lines"] if e["printed"]), sum(1 for e in g["lines"] if e["start"])
    (1, 6)
    """
    lat = lay.lattice
    hexagons = []
    for h in range(len(lat.hexes)):
        x, y = lat.hex_centre(h)
        kind, icon = "plain", None
        if h == lay.start:
            kind = "start"
        elif h in lay.active:
            kind, icon = "active", lay.active[h]
        elif h in lay.elemental:
            kind, icon = "elemental", lay.elemental[h]
        hexagons.append({"hexagon": lat.hex_label(h), "x": round(x, 4), "y": round(y, 4), "kind": kind, "icon": icon})
    lines = []
    for e in range(len(lat.edges)):
        x1, y1, x2, y2 = lat.edge_segment(e)
        lines.append({"line": lat.edge_labels[e], "x1": round(x1, 4), "y1": round(y1, 4), "x2": round(x2, 4),
                      "y2": round(y2, 4), "printed": bool(lay.printed >> e & 1),
                      "start": bool(lay.start_mask >> e & 1)})
    left, top, right, bottom = lat.bounds()
    return {"board": lay.board, "side": lay.side, "hexagons": hexagons, "lines": lines,
            "bounds": [round(v, 4) for v in (left, top, right, bottom)],
            "table": list(lay.table.heights), "pairs": list(lay.pairs)}
