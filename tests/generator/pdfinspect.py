"""Read back what a generated PDF really contains: where each form (a piece's
face) is placed, and the line segments drawn on the page itself (crop marks).
Parses the content stream with pypdf; no knowledge of how it was written."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    x2: float
    y2: float

    def inside(self, other: "Box", eps: float = 0.01) -> bool:
        return (other.x - eps <= self.x and other.y - eps <= self.y
                and self.x2 <= other.x2 + eps and self.y2 <= other.y2 + eps)

    def touches_segment(self, s: "Seg", eps: float = 0.01) -> bool:
        """Does the segment enter the box's interior (or its edge)?"""
        for t in (i / 50 for i in range(51)):
            px = s.x1 + (s.x2 - s.x1) * t
            py = s.y1 + (s.y2 - s.y1) * t
            if self.x - eps <= px <= self.x2 + eps and self.y - eps <= py <= self.y2 + eps:
                return True
        return False

    def round(self, nd: int = 2) -> tuple:
        return (round(self.x, nd), round(self.y, nd), round(self.x2, nd), round(self.y2, nd))


@dataclass(frozen=True)
class Seg:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Placement:
    name: str          # form name without the /FormXob. prefix
    box: Box           # where the form's bounding box lands on the page (points)
    rotation: int      # 0, 90 or -90


def _mul(m, n):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def inspect(reader: PdfReader, page_index: int) -> tuple[list[Placement], list[Seg]]:
    page = reader.pages[page_index]
    xobjects = page["/Resources"].get("/XObject", {})
    ops = ContentStream(page.get_contents(), reader).operations
    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack = []
    placements: list[Placement] = []
    segments: list[Seg] = []
    path: list[tuple[float, float]] = []
    pending: list[Seg] = []
    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"Do":
            name = str(operands[0])
            form = xobjects[name].get_object()
            x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
            pts = [_apply(ctm, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            angle = round(math.degrees(math.atan2(ctm[1], ctm[0])))
            placements.append(Placement(name.removeprefix("/FormXob."), Box(min(xs), min(ys), max(xs), max(ys)), angle))
        elif op == b"m":
            path = [_apply(ctm, float(operands[0]), float(operands[1]))]
        elif op == b"l":
            p = _apply(ctm, float(operands[0]), float(operands[1]))
            if path:
                pending.append(Seg(path[-1][0], path[-1][1], p[0], p[1]))
            path.append(p)
        elif op in (b"S", b"s"):
            segments.extend(pending)
            pending = []
        elif op in (b"n", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
            pending = []
    return placements, segments


def page_box(reader: PdfReader, page_index: int, name: str) -> Box:
    page = reader.pages[page_index]
    box = page[name]
    return Box(*(float(v) for v in box))


def front_pages(reader: PdfReader) -> list[int]:
    """Front pages: those whose forms are fronts (backs follow their fronts)."""
    return [i for i in range(len(reader.pages))
            if any(p.name.split(".")[-2] == "front" for p in inspect(reader, i)[0])]


def fronts(path: Path) -> Counter:
    """How many times each form is placed on the file's front pages."""
    reader = PdfReader(path)
    out: Counter = Counter()
    for i in front_pages(reader):
        for p in inspect(reader, i)[0]:
            out[p.name.rsplit(".", 1)[0]] += 1
    return out


def fonts_used(reader: PdfReader) -> dict:
    """Every font the file's pages and their forms (nested) use, by base name."""
    seen = {}
    for page in reader.pages:
        stack = [page["/Resources"]]
        while stack:
            res = stack.pop().get_object()
            for ref in res.get("/Font", {}).values():
                font = ref.get_object()
                seen[str(font.get("/BaseFont"))] = font
            for ref in res.get("/XObject", {}).values():
                xo = ref.get_object()
                if "/Resources" in xo:
                    stack.append(xo["/Resources"])
    return seen
