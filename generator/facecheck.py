"""Every text of a drawn face read back from its SVG, as the printer will
place it: its size and its inked box with every transform applied. Two
prepress rules are checked on them for every face of every game:

* **the safe zone**: text stays ``safe`` mm inside the trim (3 mm unless the
  component's ``safe_zone`` in game.yaml says otherwise, with why), inside
  the circle for a round piece, since a cut wanders;
* **the smallest type**: nothing printed under 6 pt (:data:`MIN_PT`).

The inked box is the advance width (the font's metrics) across, and from
the cap height above the baseline to the descender below it: what a
reader sees of the letters.

>>> svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10">'
...        '<g transform="translate(1 0) scale(2)"><text x="1" y="4" font-size="1.5" '
...        'text-anchor="start">Hi</text></g></svg>')
>>> [(t.text, round(t.size, 2), round(t.box[0], 2)) for t in texts(svg)]
[('Hi', 3.0, 3.0)]
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from html import unescape

from lxml import etree

from generator import fonts
from generator.geometry import PT_PER_MM

SVG = "{http://www.w3.org/2000/svg}"
SAFE_MM = 3.0
"""How far inside the trim text keeps, by default: a home cut or a shop's
cut wanders about 1-2 mm."""
MIN_PT = 6.0
"""The smallest type printed on any face."""
CAP = 0.73
DESCENT = 0.24
"""DejaVu Sans' cap height and descender, as fractions of the size."""

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_FN = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")


def _mul(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def parse_transform(value: str | None) -> Matrix:
    """The matrix of an SVG ``transform`` attribute."""
    m = IDENTITY
    for name, args in _FN.findall(value or ""):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip()) if x]
        if name == "matrix":
            step = tuple(v)  # type: ignore[assignment]
        elif name == "translate":
            step = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale":
            step = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate":
            a = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) == 3 else (0.0, 0.0)
            step = _mul(_mul((1, 0, 0, 1, cx, cy), (math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 0, 0)),
                        (1, 0, 0, 1, -cx, -cy))
        elif name == "skewX":
            step = (1, 0, math.tan(math.radians(v[0])), 1, 0, 0)
        else:
            step = (1, math.tan(math.radians(v[0])), 0, 1, 0, 0)
        m = _mul(m, step)  # type: ignore[arg-type]
    return m


@dataclass(frozen=True)
class Text:
    text: str
    size: float
    """The type's height on paper, mm (transforms applied)."""
    box: tuple[float, float, float, float]
    """x0, y0, x1, y1 in the face's user units (mm from the trim's top left)."""

    @property
    def points(self) -> float:
        return self.size * PT_PER_MM

    def corners(self) -> list[tuple[float, float]]:
        x0, y0, x1, y1 = self.box
        return [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]


def texts(svg: str | bytes | etree._Element) -> list[Text]:
    """Every non-empty ``<text>`` of a face, in document order."""
    root = svg if isinstance(svg, etree._Element) else etree.fromstring(svg.encode() if isinstance(svg, str) else svg)
    out: list[Text] = []

    def walk(node: etree._Element, m: Matrix, inherited: dict[str, str]) -> None:
        m = _mul(m, parse_transform(node.get("transform")))
        style = dict(inherited)
        for key in ("font-size", "font-weight", "text-anchor"):
            if node.get(key) is not None:
                style[key] = node.get(key)
        if node.tag == f"{SVG}text":
            words = unescape("".join(node.itertext())).strip()
            if words:
                out.append(_placed(words, node, m, style))
            return
        for child in node:
            if isinstance(child.tag, str):
                walk(child, m, style)

    walk(root, IDENTITY, {"font-size": "16", "font-weight": "normal", "text-anchor": "start"})
    del walk  # it calls itself by name: a cycle (it and its cell) refcounting cannot free
    return out


def _placed(words: str, node: etree._Element, m: Matrix, style: dict[str, str]) -> Text:
    size = float(style["font-size"])
    x, y = float(node.get("x", 0)), float(node.get("y", 0))
    width = fonts.text_width(words, size, style["font-weight"] == "bold")
    x0 = x - {"start": 0.0, "middle": width / 2, "end": width}[style["text-anchor"]]
    local = [(x0, y - CAP * size), (x0 + width, y - CAP * size), (x0, y + DESCENT * size), (x0 + width, y + DESCENT * size)]
    a, b, c, d, e, f = m
    pts = [(a * px + c * py + e, b * px + d * py + f) for px, py in local]
    # The type's height on paper: how far the transform stretches a vertical stroke.
    return Text(words, size * math.hypot(c, d), (min(p[0] for p in pts), min(p[1] for p in pts),
                                                 max(p[0] for p in pts), max(p[1] for p in pts)))


def clearance(text: Text, w: float, h: float, round_piece: bool = False) -> float:
    """How far the text's inked box keeps inside a ``w`` x ``h`` trim (negative: beyond it);
    for a round piece, inside its circle."""
    if round_piece:
        r = min(w, h) / 2
        return min(r - math.hypot(px - w / 2, py - h / 2) for px, py in text.corners())
    x0, y0, x1, y1 = text.box
    return min(x0, y0, w - x1, h - y1)


@dataclass(frozen=True)
class Finding:
    text: Text
    message: str


def findings(svg: str, w: float, h: float, *, safe: float = SAFE_MM, round_piece: bool = False,
             min_pt: float = MIN_PT) -> list[Finding]:
    """What breaks the safe zone or the smallest type on one face."""
    out = []
    for t in texts(svg):
        room = clearance(t, w, h, round_piece)
        if room < safe - 0.01:  # the SVG rounds to 0.01 mm
            where = "its circle's edge" if round_piece else "the trim"
            out.append(Finding(t, f"the text {t.text[:40]!r} comes {max(room, 0):.1f} mm from {where} "
                                  f"(the safe zone is {safe:g} mm)" + (" and runs past it" if room < 0 else "")))
        if t.points < min_pt - 0.05:
            out.append(Finding(t, f"the text {t.text[:40]!r} is {t.points:.1f} pt (at least {min_pt:g} pt)"))
    return out
