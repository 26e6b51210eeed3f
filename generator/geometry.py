"""Sizes and rectangles, in millimetres; reportlab wants points at the very end.

>>> PAPERS["a4"].size, PAPERS["letter"].size
((210.0, 297.0), (215.9, 279.4))
>>> CARD_SIZES["poker"], CARD_SIZES["tarot"]
((63.0, 88.0), (70.0, 120.0))
>>> Rect(0, 0, 10, 20).grow(3)
Rect(x=-3, y=-3, w=16, h=26)
"""

from __future__ import annotations

from dataclasses import dataclass

PT_PER_MM = 72 / 25.4


def pt(mm: float) -> float:
    return mm * PT_PER_MM


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float

    @property
    def size(self) -> tuple[float, float]:
        return (self.width, self.height)


PAPERS = {
    "a4": Paper("A4", 210.0, 297.0),
    "letter": Paper("Letter", 215.9, 279.4),
}

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 63.0),
    "square": (70.0, 70.0),
    "jumbo": (89.0, 127.0),
}
"""Card sizes these games use, width x height in mm (portrait)."""

PRINTER_MARGIN = 5.0
"""Home printers leave about 3 to 6 mm unprinted at each edge."""


@dataclass(frozen=True)
class Rect:
    """A rectangle in mm, (x, y) its lower-left corner, y up (PDF's way)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x2(self) -> float:
        return self.x + self.w

    @property
    def y2(self) -> float:
        return self.y + self.h

    def grow(self, d: float) -> "Rect":
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def intersects(self, other: "Rect", eps: float = 1e-6) -> bool:
        """Overlap with area (touching edges do not count)."""
        return (self.x < other.x2 - eps and other.x < self.x2 - eps
                and self.y < other.y2 - eps and other.y < self.y2 - eps)

    def contains(self, other: "Rect") -> bool:
        eps = 1e-6
        return (self.x - eps <= other.x and self.y - eps <= other.y
                and other.x2 <= self.x2 + eps and other.y2 <= self.y2 + eps)

    def to_pt(self) -> list[float]:
        """[x0, y0, x1, y1] in points: the form PDF boxes take."""
        return [pt(self.x), pt(self.y), pt(self.x2), pt(self.y2)]

    @staticmethod
    def union(rects: "list[Rect]") -> "Rect":
        x = min(r.x for r in rects)
        y = min(r.y for r in rects)
        return Rect(x, y, max(r.x2 for r in rects) - x, max(r.y2 for r in rects) - y)
