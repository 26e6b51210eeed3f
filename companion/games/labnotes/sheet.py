"""A note sheet and a card's compound, as geometry for the phone's SVG.

Where each space is and what it is called comes from the engine
(``Rules.field``), how a compound is laid out from the card
(``card.layout``, the engine's lattice layout) and the bond strokes from
:func:`engine.molecules.bond_lines`: the printed sheet and cards use the
same, so paper and phone agree.
"""

from __future__ import annotations

import re
from typing import Any

from engine.chem import ELEMENT_NAMES, element
from engine.labnotes.state import FieldLayout
from engine.molecules import Layout, bond_lines

SPACE_R = 0.34          # the drawn circle, in units of the space pitch
HIT_R = 0.48            # what a finger may tap
GAP_R = 0.25            # the paper page's gaps: every space there is a target too
GAP_HIT_R = 0.45
"""A bond's tap target on a table's sheet, between two elements: 0.9 of a
pitch, over 44 px wide on a 390 px phone. Gaps lie half a pitch apart, so
targets of that size overlap: the elements' spaces let taps through to the
gaps under them, and empty spaces (the only spaces a turn taps) lie above."""
MARGIN_LEFT, MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM = 0.72, 0.66, 0.52, 0.52
BOND_SPREAD = 0.1


def formula_runs(text: str | None) -> list[tuple[str, bool]]:
    """``"CH3OH"`` as runs of letters and of subscript digits."""
    return [(m.group(0), m.group(0).isdigit()) for m in re.finditer(r"\d+|\D+", text or "")]


def structure(layout: Layout) -> dict[str, Any]:
    """A card's compound for a small SVG (pitch units, half a pitch of
    margin), each atom in its element's colour."""
    m = 0.5
    atoms = [{"element": a.element, "x": round(a.x + m, 3), "y": round(a.y + m, 3),
              "fill": element(a.element).fill, "ink": element(a.element).ink, "stroke": element(a.element).stroke}
             for a in layout.atoms]
    lines = [{"x1": round(x1 + m, 3), "y1": round(y1 + m, 3), "x2": round(x2 + m, 3), "y2": round(y2 + m, 3)}
             for x1, y1, x2, y2 in layout.lines(BOND_SPREAD, SPACE_R - 0.02)]
    return {"atoms": atoms, "lines": lines, "width": round(layout.width + 2 * m, 3),
            "height": round(layout.height + 2 * m, 3), "r": SPACE_R}


def _centre(field: FieldLayout, index: int) -> tuple[float, float]:
    space = field.spaces[index]
    return MARGIN_LEFT + space.x, MARGIN_TOP + space.y


def _title(label: str, ch: str) -> str:
    if ch == ".":
        return f"{label}: empty"
    if ch == "x":
        return f"{label}: burned"
    return f"{label}: {ELEMENT_NAMES.get(ch, ch)}"


def frame(field: FieldLayout, all_gaps: bool = False) -> dict[str, Any]:
    """What every drawing of a sheet on ``field`` shares: its size, the row
    and column labels, the sizes of spaces and gaps."""
    width = MARGIN_LEFT + field.width - 1 + MARGIN_RIGHT
    height = MARGIN_TOP + field.height - 1 + MARGIN_BOTTOM
    rows = [{"text": s.label[0], "x": 0.22, "y": round(MARGIN_TOP + s.y, 3)} for s in field.spaces if s.col == 0]
    cols = [{"text": s.label[1:], "x": round(MARGIN_LEFT + s.x + 0.25, 3), "y": 0.17}
            for s in field.spaces if s.row == 0]
    return {"width": round(width, 3), "height": round(height, 3), "rows": rows, "cols": cols,
            "r": SPACE_R, "hit": HIT_R, "gap_r": GAP_R if all_gaps else GAP_HIT_R}


def cell(field: FieldLayout, space: Any, ch: str, new: bool, tappable: bool) -> dict[str, Any]:
    """A space of ``field`` holding ``ch``; ``new``: written this turn; ``tappable``: offered to its owner."""
    x, y = _centre(field, space.index)
    cls = ["space"] + (["burned"] if ch == "x" else [f"el-{ch}"] if ch != "." else [])
    if new:
        cls.append("new")
    if tappable:
        cls.append("tappable")
    return {"index": space.index, "label": space.label, "x": round(x, 3), "y": round(y, 3),
            "char": ch, "cls": " ".join(cls), "title": _title(space.label, ch)}


def bond(field: FieldLayout, a: int, b: int, order: int) -> dict[str, Any]:
    """The strokes of a bond of ``order`` between spaces ``a`` and ``b``."""
    lines = [{"x1": round(x1, 3), "y1": round(y1, 3), "x2": round(x2, 3), "y2": round(y2, 3)}
             for x1, y1, x2, y2 in bond_lines(_centre(field, a), _centre(field, b), order, BOND_SPREAD,
                                              SPACE_R - 0.02)]
    return {"a": a, "b": b, "order": order, "lines": lines}


def gaps(field: FieldLayout, spaces: str, bonds: list[Any], offered_bonds: set[tuple[int, int]] | frozenset,
         all_gaps: bool = False) -> list[dict[str, Any]]:
    """Where a bond may be drawn (between two elements; anywhere on the paper page)."""
    existing = {(a, b): o for a, b, o in bonds}
    out = []
    for a, b in field.neighbours:
        if all_gaps or (spaces[a] in ELEMENT_NAMES and spaces[b] in ELEMENT_NAMES):
            (ax, ay), (bx, by) = _centre(field, a), _centre(field, b)
            # the stroke a tap would draw, from circle to circle (shown where it is offered)
            (x1, y1, x2, y2), = bond_lines((ax, ay), (bx, by), 1, BOND_SPREAD, SPACE_R + 0.02)
            out.append({"a": a, "b": b, "x": round((ax + bx) / 2, 3), "y": round((ay + by) / 2, 3),
                        "x1": round(x1, 3), "y1": round(y1, 3), "x2": round(x2, 3), "y2": round(y2, 3),
                        "offered": (a, b) in offered_bonds, "order": existing.get((a, b), 0),
                        "name": f"{field.spaces[a].label}\u2013{field.spaces[b].label}"})
    return out


def draw_sheet(shown: dict[str, Any], field: FieldLayout, *, offered_spaces: set[int] = frozenset(),
               offered_bonds: set[tuple[int, int]] = frozenset(), mine: bool = False,
               all_gaps: bool = False) -> dict[str, Any]:
    """Geometry of one note sheet (a seat's view of it) for the SVG template."""
    spaces = shown["spaces"].replace("/", "")
    placed = set(shown.get("placed", ()))
    cells = [cell(field, space, ch, space.index in placed, mine and space.index in offered_spaces)
             for space, ch in zip(field.spaces, spaces)]
    bonds = [bond(field, a, b, order) for a, b, order in shown["bonds"]]
    return {**frame(field, all_gaps), "cells": cells, "bonds": bonds,
            "gaps": gaps(field, spaces, shown["bonds"], offered_bonds, all_gaps) if mine else []}
