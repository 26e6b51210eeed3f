"""The Synthesis booklet's teaching pictures: the Bond die's shapes, a bond
drawn, each mutation, a hexagon closed and counted.

Every line drawn here is the engine's: the shapes are the card set's Bond
die faces, a mutation's drawing is one the engine's :func:`variants` allows
for it (checked as it is drawn), a bond's place is one the engine's
:func:`legal` finds on board A side A, and the closed hexagon's volume and
table cell are what the engine's :class:`Formula` records. Loaded by path
from ``booklet.py`` beside it (no import name of its own).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from engine.synthesis.bonds import canonical, legal, placements, removable, sub_bonds, touching, variants
from engine.synthesis.lattice import Lattice, centre, corners, edge_hexes, hex_label, sides

FONT = 'font-family="DejaVu Sans"'
DASH = {"r": "", "y": "1.2 0.6", "g": "0.4 0.5", "b": "1.6 0.5 0.4 0.5"}
"""Colour is never alone: each marker's lines also carry a dash pattern (as on the phones and the example)."""
UNIT = 5.0
"""Millimetres a hexagon's side."""
GHOST = "#9a9a9a"


def _svg(w: float, h: float, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2f}mm" height="{h:.2f}mm" '
            f'viewBox="0 0 {w:.2f} {h:.2f}">{body}</svg>')


@dataclass
class Panel:
    """One small drawing on the honeycomb: faint hexagons, lines in layers, words."""

    title: str
    hexes: set = field(default_factory=set)
    lines: list = field(default_factory=list)      # (edge, stroke, width, dash)
    words: list = field(default_factory=list)      # (hexagon, text, colour, size)
    note: str = ""

    def add(self, edges: Iterable, stroke: str, width: float = 0.9, dash: str = "") -> None:
        for e in edges:
            self.lines.append((e, stroke, width, dash))
            self.hexes.update(edge_hexes(e))

    def svg(self) -> tuple[str, float, float]:
        pts = [Lattice.point(v) for h in self.hexes for v in corners(h)]
        left, top = min(x for x, _ in pts), min(y for _, y in pts)
        right, bottom = max(x for x, _ in pts), max(y for _, y in pts)
        pad = 1.5
        w, h = (right - left) * UNIT + 2 * pad, (bottom - top) * UNIT + 2 * pad

        def at(v) -> tuple[float, float]:
            x, y = Lattice.point(v)
            return (x - left) * UNIT + pad, (y - top) * UNIT + pad

        body = []
        for hx in sorted(self.hexes):
            for a, b in sides(hx):
                (x1, y1), (x2, y2) = at(a), at(b)
                body.append(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="#d2d2d2" '
                            f'stroke-width="0.25"/>')
        for (a, b), stroke, width, dash in self.lines:
            (x1, y1), (x2, y2) = at(a), at(b)
            d = f' stroke-dasharray="{dash}"' if dash else ""
            body.append(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="{stroke}" '
                        f'stroke-width="{width}" stroke-linecap="round"{d}/>')
        for hx, text, colour, size in self.words:
            x, y = at(centre(hx))
            body.append(f'<text x="{x:.2f}" y="{y + size * 0.35:.2f}" text-anchor="middle" font-size="{size}" '
                        f'font-weight="bold" fill="{colour}" {FONT}>{text}</text>')
        return "".join(body), w, h


def _row(panels: list[Panel], per_row: int = 3, gap: float = 5.0) -> str:
    """Panels side by side (``per_row`` to a row), each with its title under it."""
    drawn = [p.svg() for p in panels]
    # wide enough for the words under each (DejaVu Sans: about 0.55 em a character)
    cell_w = max([w for _, w, _ in drawn] + [len(p.note) * 2.6 * 0.55 for p in panels]
                 + [len(p.title) * 3.1 * 0.6 for p in panels])
    cell_h = max(h for _, _, h in drawn)
    label = 9.0 if any(p.note for p in panels) else 5.0
    rows = (len(panels) + per_row - 1) // per_row
    cols = min(per_row, len(panels))
    parts = []
    for k, (panel, (body, w, h)) in enumerate(zip(panels, drawn)):
        r, c = divmod(k, per_row)
        x0, y0 = c * (cell_w + gap), r * (cell_h + label + gap)
        parts.append(f'<g transform="translate({x0 + (cell_w - w) / 2:.2f},{y0 + (cell_h - h) / 2:.2f})">{body}</g>')
        cx = x0 + cell_w / 2
        parts.append(f'<text x="{cx:.2f}" y="{y0 + cell_h + 3.4:.2f}" text-anchor="middle" font-size="3.1" '
                     f'font-weight="bold" {FONT}>{panel.title}</text>')
        if panel.note:
            parts.append(f'<text x="{cx:.2f}" y="{y0 + cell_h + 7.2:.2f}" text-anchor="middle" font-size="2.6" '
                         f'fill="#444444" {FONT}>{panel.note}</text>')
    return _svg(cols * cell_w + (cols - 1) * gap, rows * (cell_h + label) + (rows - 1) * gap, "".join(parts))


def _inks(game: Any) -> dict[str, str]:
    return {c.letter: c.ink for c in game.cards.rules.colours}


def _pen(game: Any, letter: str) -> tuple[str, float, str]:
    return _inks(game)[letter], 1.0, DASH.get(letter, "")


def _shift(shape: Iterable, dx: int, dy: int) -> frozenset:
    """A shape moved by a whole number of hexagons (``dx`` even when ``dy`` is a multiple of 6)."""
    return frozenset(((a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy)) for a, b in shape)


def _checked(base: frozenset, drawn: frozenset, mutation: str) -> frozenset:
    """``drawn`` as a mutation of ``base``, refused unless the engine allows it."""
    if canonical(drawn) not in variants(base, mutation):
        raise ValueError(f"the {mutation} picture draws a bond the rules do not allow")
    return drawn


# --- the pictures ----------------------------------------------------------------------------
def bond_shapes(book: Any) -> str:
    """The Bond die's six shapes, each as a player draws it along the lines."""
    game = book.game
    ink, width, _ = _pen(game, "b")
    panels = []
    for bond in game.cards.bonds.values():
        p = Panel(f"{bond.name}: {len(bond.lines)} lines")
        p.add(bond.lines, ink, 1.1)
        panels.append(p)
    return _row(panels, per_row=6)


def _near_start(layout: Any, reach: int = 2) -> set:
    """The hexagons of a board up to ``reach`` steps from S."""
    lat = layout.lattice
    start = lat.hexes[layout.start]
    return {h for h in lat.hexes if _distance(h, start) <= reach}


def _distance(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def drawing_a_bond(book: Any) -> str:
    """On board A, side A: turn 1 draws an Arc touching S (red); turn 2 an
    Angle touching only the red bond (blue); a third Angle that touches
    nothing is no legal bond. Every place is one the engine's ``legal`` finds
    (or, for the last, does not)."""
    game = book.game
    layout = game.cards.layouts[("A", "A")]
    lat = layout.lattice
    near = _near_start(layout)
    inside = [lat.edge_index(e) for e in lat.edges if all(h in near for h in edge_hexes(e) if lat.has_hex(h))]
    region = sum(1 << e for e in inside)
    bonds = game.cards.bonds
    occupied, anchors = layout.fixed, layout.start_corners

    def first(shape, occ, anc, connect=True, avoid=0):
        for mask in legal(placements(lat, shape), occ, anc, connect):
            if mask & ~region == 0 and not lat.vertex_mask(mask) & avoid:
                return mask
        raise ValueError("no place for the booklet's bond near S")

    red = first(bonds["arc"].lines, occupied, anchors)
    occupied |= red
    blue = first(bonds["angle"].lines, occupied, lat.vertex_mask(red), avoid=layout.start_corners)
    occupied |= blue
    anchors |= lat.vertex_mask(red | blue)
    loose = next(m for m in legal(placements(lat, bonds["angle"].lines), occupied, anchors, False)
                 if m & ~region == 0 and not lat.vertex_mask(m) & anchors)
    assert loose not in legal(placements(lat, bonds["angle"].lines), occupied, anchors)

    def edges(mask):
        return [lat.edges[e] for e in lat.edges_of_mask(mask)]

    start = lat.hexes[layout.start]
    panels = []
    for title, note, layers in (
            ("Turn 1: an Arc, red", "it touches S at a corner", [(red, "r")]),
            ("Turn 2: an Angle, blue", "it touches the red bond", [(red, "r"), (blue, "b")]),
            ("Not allowed", "an Angle touching nothing", [(red, "r"), (blue, "b"), (loose, None)])):
        p = Panel(title, note=note)
        p.hexes |= near
        p.add(edges(layout.fixed), "#000000", 1.2)
        for mask, letter in layers:
            if letter is None:
                p.add(edges(mask), GHOST, 1.0, "1.2 0.8")
            else:
                p.add(edges(mask), *_pen(game, letter))
        p.words.append((start, "S", "#000000", 4.2))
        panels.append(p)
    return _row(panels)


def mutations(book: Any) -> str:
    """Each of the six mutations applied to a rolled Chain: the rolled bond in
    grey where it differs, the line added, left out or moved in colour. Each
    drawing is one the engine's :func:`variants` allows for that mutation."""
    game = book.game
    chain = frozenset(game.cards.bonds["chain"].lines)
    names = {m.id: m for m in game.cards.mutations.values()}
    ink, width, _ = _pen(game, "g")
    out_ = removable(chain)
    panels = []

    # Twice: the rolled bond two times, each on its own
    twice = _checked(chain, chain, "twice")
    p = Panel(names["twice"].name, note="two copies, each legal")
    p.add(twice, ink, width)
    p.add(_shift(twice, 2, 6), ink, width)  # two rows down: the centre of hexagon (q, r) is (2q + r, 3r)
    panels.append(p)

    # Add a line: one more line touching the bond (here at an inner corner, so it shows)
    inner = {v for v in {v for e in chain for v in e} if sum(v in e for e in chain) == 2}
    extra = min(f for f in touching(chain) if inner & set(f))
    p = Panel(names["add_line"].name, note="one line more, touching it")
    p.add(_checked(chain, chain | {extra}, "add_line") - {extra}, "#000000", width)
    p.add([extra], ink, 1.3)
    panels.append(p)

    # Remove a line: an end line, never the inner ones (they would split it)
    gone = out_[0]
    p = Panel(names["remove_line"].name, note="an end line; never an inner one")
    p.add(_checked(chain, chain - {gone}, "remove_line"), "#000000", width)
    p.add([gone], GHOST, 0.8, "0.6 0.6")
    panels.append(p)

    # Free floating: the bond need not touch anything
    p = Panel(names["no_connect"].name, note="it need not touch your bonds or S")
    p.add(_checked(chain, chain, "no_connect"), ink, width)
    panels.append(p)

    # Thin out: leave out lines, one piece of at least one line stays
    kept = min((s for s in sub_bonds(chain) if len(s) == 2), key=sorted)
    p = Panel(names["remove_lines"].name, note="keep one piece, one line or more")
    p.add(_checked(chain, kept, "remove_lines"), "#000000", width)
    p.add(chain - kept, GHOST, 0.8, "0.6 0.6")
    panels.append(p)

    # Move a line: take an end line off, put it back touching the rest
    rest = chain - {gone}
    moved = next(f for f in sorted(touching(rest)) if f != gone and f not in chain
                 and canonical(rest | {f}) != canonical(chain))
    p = Panel(names["move_line"].name, note="an end line, put back elsewhere")
    p.add(_checked(chain, rest | {moved}, "move_line") - {moved}, "#000000", width)
    p.add([gone], GHOST, 0.8, "0.6 0.6")
    p.add([moved], ink, 1.3)
    panels.append(p)
    return _row(panels)


def closing_a_hexagon(book: Any) -> str:
    """A hexagon beside S closed by a green Arc: one side is S's, two are an
    earlier red Angle, three are the Arc. The engine records a green molecule
    of volume 3 (its green sides) in the lowest cell of column 3."""
    from engine.synthesis.formula import Formula
    from engine.synthesis.layout import compile_layout
    from engine.synthesis.state import Seat

    game = book.game
    heights = game.cards.layouts[("A", "A")].table.heights
    layout = compile_layout("A", "A", ["o o", " o S"], {}, {}, [], heights)
    lat = layout.lattice
    formula = Formula(layout)
    seat = Seat("A", 0, formula.empty_lines)
    target = lat.hex_index("A2")
    start_side = next(e for e in lat.hex_edges[target] if layout.fixed >> e & 1)
    order = list(lat.hex_edges[target])
    k = order.index(start_side)
    ring = order[k + 1:] + order[:k]                    # the five sides after S's, in turn
    red, green = ring[:2], ring[2:]
    formula.draw(seat, formula.mask(red), "r", "angle", turn=1)
    formula.draw(seat, formula.mask(green), "g", "arc", turn=2)
    [molecule] = seat.molecules
    inks = _inks(game)
    p = Panel(f"Volume {molecule.volume}")
    hexes = [lat.hexes[h] for h in range(len(lat.hexes))]
    p.hexes |= set(hexes)
    p.add([lat.edges[start_side]], "#000000", 1.2)
    p.add([lat.edges[e] for e in red], *_pen(game, "r"))
    p.add([lat.edges[e] for e in green], *_pen(game, "g"))
    p.words.append((lat.hexes[layout.start], "S", "#000000", 4.2))
    p.words.append((lat.hexes[target], str(molecule.volume), inks[molecule.colour], 5.0))
    body, w, h = p.svg()
    # the volume table's column of that volume, its lowest cell coloured
    cell, gap = 5.5, 8.0
    col_h = heights[molecule.volume - 1]
    x0 = w + gap
    parts = [body]
    for r in range(col_h):
        y = (col_h - 1 - r) * cell
        fill = inks[molecule.colour] if r == molecule.row else "#ffffff"
        parts.append(f'<rect x="{x0:.2f}" y="{y:.2f}" width="{cell}" height="{cell}" fill="{fill}" '
                     f'fill-opacity="0.6" stroke="#000000" stroke-width="0.3"/>')
    parts.append(f'<text x="{x0 + cell / 2:.2f}" y="{col_h * cell + 4:.2f}" text-anchor="middle" font-size="3.4" '
                 f'font-weight="bold" {FONT}>{molecule.volume}</text>')
    parts.append(f'<text x="{x0 + cell + 2:.2f}" y="{(col_h - 0.5) * cell + 1:.2f}" font-size="2.8" {FONT}>'
                 f'lowest free cell of column {molecule.volume}</text>')
    return _svg(x0 + cell + 2 + 40, max(h, col_h * cell + 5), "".join(parts))


FIGURES = {"bond-shapes": bond_shapes, "drawing-a-bond": drawing_a_bond, "mutations": mutations,
           "closing-a-hexagon": closing_a_hexagon}
