"""Small drawing helpers every template may call: text measuring and
wrapping, chemical formulas with subscripts, molecules laid out the way they
look on a note sheet, hexagonal fields, bond lines.

Geometry only: what a card *looks* like stays in its template.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from engine.chem import VALENCE, Molecule
from engine.hexgrid import HexField, molecule_layout
from engine.hexgrid import bond_lines as hex_bond_lines
from generator import fonts

# Element colours follow the usual CPK convention; every element is also
# printed as its letter, so colour never carries the information alone.
ELEMENTS: dict[str, dict[str, str]] = {
    "H": {"name": "Hydrogen", "fill": "#ffffff", "ink": "#1a1a1a", "stroke": "#1a1a1a"},
    "O": {"name": "Oxygen", "fill": "#d7261e", "ink": "#ffffff", "stroke": "#8c1510"},
    "N": {"name": "Nitrogen", "fill": "#2f5fd0", "ink": "#ffffff", "stroke": "#1b3a85"},
    "C": {"name": "Carbon", "fill": "#2b2b2b", "ink": "#ffffff", "stroke": "#000000"},
}


def n(x: float) -> str:
    """A number for SVG: at most 3 decimals, no trailing zeros."""
    s = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def text_width(text: str, size: float, bold: bool = False) -> float:
    return fonts.text_width(text, size, bold)


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``width`` at font ``size`` (same units)."""
    words = str(text).split()
    lines: list[str] = []
    line = ""
    for word in words:
        trial = f"{line} {word}" if line else word
        if line and text_width(trial, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def fit_size(text: str, width: float, size: float, bold: bool = False, minimum: float = 0.5) -> float:
    """The largest size up to ``size`` at which ``text`` fits ``width`` on one line."""
    w = text_width(text, size, bold)
    if w <= width:
        return size
    return max(minimum, size * width / w)


_RUN = re.compile(r"(\d+)|([^\d]+)")


def formula(text: str, x: float, y: float, size: float, anchor: str = "middle",
            bold: bool = False, fill: str = "#000000") -> Markup:
    """A chemical formula as SVG text, digits set as subscripts.

    Each run is its own ``<text>`` at a measured position, because SVG
    converters place mixed-size ``<tspan>`` runs unreliably.
    """
    runs = [(m.group(0), m.group(1) is not None) for m in _RUN.finditer(str(text))]
    sub = size * 0.68
    widths = [text_width(t, sub if is_sub else size, bold) for t, is_sub in runs]
    total = sum(widths)
    start = {"start": x, "middle": x - total / 2, "end": x - total}[anchor]
    weight = "bold" if bold else "normal"
    out = []
    cx = start
    for (t, is_sub), w in zip(runs, widths):
        fs = sub if is_sub else size
        dy = size * 0.28 if is_sub else 0.0
        out.append(
            f'<text x="{n(cx)}" y="{n(y + dy)}" font-family="{fonts.FONT_STACK}" font-size="{n(fs)}" '
            f'font-weight="{weight}" fill="{escape(fill)}">{escape(t)}</text>'
        )
        cx += w
    return Markup("".join(out))


def formula_width(text: str, size: float, bold: bool = False) -> float:
    sub = size * 0.68
    return sum(text_width(m.group(0), sub if m.group(1) else size, bold) for m in _RUN.finditer(str(text)))


# --- molecules and fields ------------------------------------------------------
@lru_cache(maxsize=256)
def _molecule_layout(smiles: str) -> dict[str, Any]:
    mol = Molecule.from_smiles(smiles)
    return molecule_layout(mol.atoms, mol.bonds)


def molecule(smiles: str) -> dict[str, Any]:
    """Atoms and bonds of ``smiles`` placed on a hexagonal field (unit pitch,
    top-left atom centre at 0, 0): the way it looks on a note sheet."""
    return _molecule_layout(smiles)


def bond_tally(smiles: str) -> dict[str, int]:
    """Single, double and triple bonds of a structure, and the points they
    score on a note sheet (1, 3 and 6)."""
    mol = Molecule.from_smiles(smiles)
    orders = list(mol.bonds.values())
    tally = {"single": orders.count(1), "double": orders.count(2), "triple": orders.count(3)}
    tally["points"] = tally["single"] + 3 * tally["double"] + 6 * tally["triple"]
    tally["atoms"] = len(mol.atoms)
    return tally


def hexfield(rows: int, cols: int) -> list[dict[str, Any]]:
    """Spaces of a compound field in reading order, with their labels (A1..)
    and centres in pitch units."""
    field = HexField(rows, cols)
    out = []
    for r, c in field:
        x, y = field.centre((r, c))
        out.append({"index": r * cols + c, "row": r, "col": c, "label": f"{chr(65 + r)}{c + 1}", "x": x, "y": y})
    return out


def hexfield_size(rows: int, cols: int) -> tuple[float, float]:
    return HexField(rows, cols).size()


def bond_lines(x1: float, y1: float, x2: float, y2: float, order: int, gap: float,
               trim: float = 0.0) -> list[tuple[float, float, float, float]]:
    """Parallel segments for a bond between two centres (engine.hexgrid.bond_lines)."""
    return hex_bond_lines((x1, y1), (x2, y2), order, gap, trim)


def polygon(cx: float, cy: float, r: float, sides: int, rotation: float = -90.0) -> str:
    """``points`` attribute of a regular polygon."""
    pts = []
    for k in range(sides):
        a = math.radians(rotation + 360.0 * k / sides)
        pts.append(f"{n(cx + r * math.cos(a))},{n(cy + r * math.sin(a))}")
    return " ".join(pts)


def die_net(f: float, t: float) -> dict[str, Any]:
    """Geometry of a cube net with glue tabs, face size ``f``, tab depth ``t``.

    Faces sit in a cross (column, row): 0 at (1, 0); 1, 2, 3 across row 1;
    4 at (1, 2); 5 at (1, 3). Opposite faces: 0-4, 1-3, 2-5. Seven tabs,
    one for each pair of edges that meet when folded. Returns the faces'
    top-left corners, the cut outline as a path, and the fold lines.
    """
    k = t * 0.45
    spots = [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (1, 3)]
    pts = [
        (f, 0), (2 * f, 0), (2 * f, f),
        (2 * f + k, f - t), (3 * f - k, f - t), (3 * f, f),          # face 3 top tab
        (3 * f, 2 * f),
        (3 * f - k, 2 * f + t), (2 * f + k, 2 * f + t), (2 * f, 2 * f),  # face 3 bottom tab
        (2 * f, 3 * f),
        (2 * f + t, 3 * f + k), (2 * f + t, 4 * f - k), (2 * f, 4 * f),  # face 5 right tab
        (2 * f - k, 4 * f + t), (f + k, 4 * f + t), (f, 4 * f),      # face 5 bottom tab
        (f - t, 4 * f - k), (f - t, 3 * f + k), (f, 3 * f),          # face 5 left tab
        (f, 2 * f),
        (f - k, 2 * f + t), (k, 2 * f + t), (0, 2 * f),              # face 1 bottom tab
        (0, f),
        (k, f - t), (f - k, f - t), (f, f),                          # face 1 top tab
    ]
    cut = "M" + " L".join(f"{n(x)},{n(y)}" for x, y in pts) + " Z"
    folds = [
        (f, f, 2 * f, f), (f, f, f, 2 * f), (2 * f, f, 2 * f, 2 * f), (f, 2 * f, 2 * f, 2 * f),
        (f, 3 * f, 2 * f, 3 * f),
        (0, f, f, f), (0, 2 * f, f, 2 * f), (2 * f, f, 3 * f, f), (2 * f, 2 * f, 3 * f, 2 * f),
        (f, 3 * f, f, 4 * f), (2 * f, 3 * f, 2 * f, 4 * f), (f, 4 * f, 2 * f, 4 * f),
    ]
    return {"faces": [(c * f, r * f) for c, r in spots], "cut": cut, "folds": folds}


def repeat(seq: Any, times: int) -> list[Any]:
    return list(seq) * int(times)


GLOBALS = {
    "ELEMENTS": ELEMENTS,
    "VALENCE": VALENCE,
    "FONT": fonts.FONT_STACK,
    "n": n,
    "wrap": wrap,
    "fit_size": fit_size,
    "text_width": text_width,
    "formula": formula,
    "formula_width": formula_width,
    "molecule": molecule,
    "bond_tally": bond_tally,
    "hexfield": hexfield,
    "hexfield_size": hexfield_size,
    "bond_lines": bond_lines,
    "polygon": polygon,
    "range": range,
    "enumerate": enumerate,
    "zip": zip,
    "min": min,
    "max": max,
    "repeat": repeat,
    "die_net": die_net,
}

FILTERS = {"n": n}
