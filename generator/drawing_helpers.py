"""Small drawing helpers every template may call: text that must fit its
box, chemical formulas with subscripts, molecules as the engine lays them
out, bond lines, polygons, die nets.

Geometry only: what a card *looks* like stays in its template, and what a
game knows (a space's label, a bond's points) comes from the game itself,
through the ``play`` a template is given.
"""

from __future__ import annotations

import math
import re
from typing import Any

from markupsafe import Markup, escape

from engine import molecules
from engine.chem import ELEMENTS, element
from generator import fonts
from generator.fitting import MIN_SIZE_MM, fit_line, textbox, wrap
from generator.readable import fiducial, readable, sheet_code


def n(x: float) -> str:
    """A number for SVG: at most 3 decimals, no trailing zeros."""
    s = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def text_width(text: str, size: float, bold: bool = False) -> float:
    return fonts.text_width(text, size, bold)


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


# --- molecules ----------------------------------------------------------------
CHARGE_INK = "#1d2430"
_CAP = 0.73
"""Height of a digit or a plus sign, in ems (DejaVu Sans Bold)."""


def charge(mol: molecules.Layout, i: int, x: float, y: float, r: float, half: float, size: float) -> Markup:
    """Atom ``i``'s charge (``2+``, ``−``) as SVG text, beside its shape
    (a circle of radius ``r``, or a pill ``2 * half`` wide) centred on
    ``x, y``: on the side its bonds leave free (``Layout.charge_side``),
    wholly outside the shape, and never smaller than the smallest type a
    card prints (``MIN_SIZE_MM``)."""
    text = mol.atoms[i].charge_text
    if not text:
        return Markup("")
    size = max(size, MIN_SIZE_MM)
    ux, uy = mol.charge_side(i)
    width, height = text_width(text, size, True), size * _CAP
    # from the atom's centre to the text's: the shape's reach that way, a
    # gap, and the text box's own reach back towards the atom
    reach = (abs(ux) * (half - r) + r) + r * 0.2 + abs(ux) * width / 2 + abs(uy) * height / 2
    cx, cy = x + ux * reach, y + uy * reach
    return Markup(f'<text x="{n(cx)}" y="{n(cy + height / 2)}" font-family="{fonts.FONT_STACK}" '
                  f'font-size="{n(size)}" font-weight="bold" text-anchor="middle" fill="{CHARGE_INK}">'
                  f'{escape(text)}</text>')


LOOKS = {"lattice": molecules.lattice, "skeletal": molecules.skeletal, "explicit": molecules.explicit}


def molecule(smiles: str, look: str = "lattice") -> molecules.Layout:
    """A molecule as the engine lays it out (unit bond length, top-left atom
    centre at 0, 0): ``lattice`` as built on a note sheet, ``skeletal`` with
    hydrogens in the labels, ``explicit`` with every hydrogen drawn. Each
    layout is computed once (the engine keeps it), for paper and phones alike."""
    try:
        return LOOKS[look](smiles)
    except KeyError:
        raise ValueError(f"unknown molecule look {look!r} (known: {', '.join(LOOKS)})") from None


def bond_lines(x1: float, y1: float, x2: float, y2: float, order: int, gap: float,
               trim: float = 0.0) -> list[tuple[float, float, float, float]]:
    """Parallel segments for a bond between two centres (engine.molecules.bond_lines)."""
    return molecules.bond_lines((x1, y1), (x2, y2), order, gap, trim)


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


EDGE_MM = 3.4
"""Where a graphic near the trim may start, its stroke included: outside the
3 mm a cut may wander into (generator/cutzone.py), with room for a 0.5 mm
stroke drawn centred on its outline."""


def repeat(seq: Any, times: int) -> list[Any]:
    return list(seq) * int(times)


GLOBALS = {
    "ELEMENTS": ELEMENTS,
    "element": element,
    "FONT": fonts.FONT_STACK,
    "SMALLEST": MIN_SIZE_MM,  # the smallest type printed (about 6.2 pt)
    "EDGE": EDGE_MM,
    "n": n,
    "wrap": wrap,
    "textbox": textbox,
    "fit_line": fit_line,
    "text_width": text_width,
    "formula": formula,
    "formula_width": formula_width,
    "molecule": molecule,
    "charge": charge,
    "bond_lines": bond_lines,
    "polygon": polygon,
    "range": range,
    "enumerate": enumerate,
    "zip": zip,
    "min": min,
    "max": max,
    "repeat": repeat,
    "die_net": die_net,
    # sheets made to be read from a photo (generator/readable.py)
    "fiducial": fiducial,
    "sheet_code": sheet_code,
    "readable": readable,
}

FILTERS = {"n": n}
