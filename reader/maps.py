"""The map of a readable face, and the face itself as printed: where every
marker, code, cell, box, space and bond line is, in millimetres from the
trim's top left, read from the face's SVG as the build writes it
(:func:`generator.readable.face_map`), and the blank face rendered by PDFium
from the same drawing the PDF holds (:func:`blank`).

Which readable components there are, and their marker ids, is each game's
``game.yaml`` (a component's ``markers``): :func:`sheet_kinds`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from reader import fiducials


@dataclass(frozen=True)
class Mark:
    kind: str
    name: str
    box: tuple[float, float, float, float] | None = None
    circle: tuple[float, float, float] | None = None
    line: tuple[float, float, float, float] | None = None

    @property
    def centre(self) -> tuple[float, float]:
        if self.box is not None:
            x, y, w, h = self.box
            return x + w / 2, y + h / 2
        if self.circle is not None:
            return self.circle[0], self.circle[1]
        x1, y1, x2, y2 = self.line  # type: ignore[misc]
        return (x1 + x2) / 2, (y1 + y2) / 2

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``x0, y0, x1, y1`` in mm."""
        if self.box is not None:
            x, y, w, h = self.box
            return x, y, x + w, y + h
        if self.circle is not None:
            cx, cy, r = self.circle
            return cx - r, cy - r, cx + r, cy + r
        x1, y1, x2, y2 = self.line  # type: ignore[misc]
        return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Mark":
        geo = {k: tuple(d[k]) for k in ("box", "circle", "line") if k in d}
        return Mark(d["kind"], d["name"], **geo)


@dataclass(frozen=True)
class SheetKind:
    """A readable component of a game, as its ``game.yaml`` declares it."""

    game: str
    component: str
    first_marker: int
    size: tuple[float, float]
    two_sided: bool


@dataclass(frozen=True)
class FaceMap:
    game: str
    component: str
    piece: str
    side: int
    """0 the front, 1 the back."""
    size: tuple[float, float]
    marks: tuple[Mark, ...]
    svg: str

    def of(self, kind: str) -> list[Mark]:
        return [m for m in self.marks if m.kind == kind]

    def named(self, kind: str) -> dict[str, Mark]:
        return {m.name: m for m in self.marks if m.kind == kind}

    @property
    def markers(self) -> dict[int, Mark]:
        return {int(m.name): m for m in self.of("marker")}

    @property
    def code(self) -> Mark | None:
        found = self.of("code")
        return found[0] if found else None

    @property
    def read(self) -> list[Mark]:
        """The places a reader looks at (every mark but the markers and the code)."""
        return [m for m in self.marks if m.kind not in ("marker", "code")]

    def marker_points(self, marker: int) -> np.ndarray:
        """A marker's four corners in mm, clockwise from its top left (as :mod:`reader.fiducials` finds them)."""
        x, y, w, h = self.markers[marker].box  # type: ignore[misc]
        return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def sheet_kinds() -> dict[int, tuple[SheetKind, int, int]]:
    """Every marker id any registered game prints: ``id -> (kind, face, corner index)``.
    Two components claiming one id is an error that names both."""
    from generator.printable import load
    from labkit import registry

    out: dict[int, tuple[SheetKind, int, int]] = {}
    for game in registry.games().values():
        for kind in _kinds(game.name, load):
            for k in range(8 if kind.two_sided else 4):
                marker = kind.first_marker + k
                if marker in out:
                    other = out[marker][0]
                    raise ValueError(f"marker {marker} is claimed by {other.game}'s {other.component} and "
                                     f"{kind.game}'s {kind.component}: give one of them other ids (game.yaml)")
                out[marker] = (kind, k // 4, k % 4)
    return out


@lru_cache(maxsize=16)
def _kinds(name: str, load: Any) -> tuple[SheetKind, ...]:
    from labkit import registry

    manifest = load(registry.find(name)).manifest
    return tuple(SheetKind(name, c.id, c.markers, c.trim, c.back is not None)  # type: ignore[arg-type]
                 for c in manifest.components if c.markers is not None)


def face(game: str, component: str, piece: str, side: int, cardset: Any = None) -> FaceMap:
    """The map of one face of a readable component, drawn from the game's
    card set (``cardset``; default the rulebook's) exactly as the build
    draws it. ``piece`` is a deck's card id (``-`` for a component of one
    design); ``KeyError`` if there is no such piece."""
    from labkit import cardsets, registry

    descriptor = registry.find(game)
    cs = cardset if cardset is not None else cardsets.cardset(descriptor)
    return _face(descriptor.name, component, piece, side, cs)


@lru_cache(maxsize=64)
def _face(game: str, component: str, piece: str, side: int, cardset: Any) -> FaceMap:
    from generator import components as comp
    from generator.manifest import parse_manifest
    from generator.readable import face_map
    from engine.data import CardFiles

    raw = cardset.set_files.get("game.yaml")
    manifest = parse_manifest(CardFiles({"game.yaml": raw}, cardset.files.folder)) if raw else _manifest(game)
    c = manifest.component(component)
    drawn = comp.pieces(c, cardset, bleed=0.0, ink_saver=False, only=None if piece == "-" else {piece})
    if not drawn.pieces:
        raise KeyError(f"{game}'s {component} has no piece {piece!r}")
    p = drawn.pieces[0]
    f = p.front if side == 0 else p.back
    if f is None:
        raise KeyError(f"{game}'s {component} has no back")
    marks = tuple(Mark.from_dict(m) for m in face_map(f.svg)["marks"])
    return FaceMap(game, component, piece, side, p.size, marks, f.svg)


def _manifest(game: str) -> Any:
    from generator.printable import load
    from labkit import registry

    return load(registry.find(game)).manifest


@lru_cache(maxsize=6)
def _blank(svg: str, px_per_mm: float) -> np.ndarray:
    from reportlab.graphics import renderPDF

    import pypdfium2 as pdfium
    from generator import fonts
    from generator.svg import to_drawing

    fonts.register()
    pdf = renderPDF.drawToString(to_drawing(svg, "readable face"))
    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0]
        image = np.asarray(page.render(scale=px_per_mm * 25.4 / 72, fill_color=(255, 255, 255, 255))
                           .to_pil().convert("RGB"))
        page.close()
    finally:
        doc.close()
    image.setflags(write=False)
    return image


def blank(face: FaceMap, px_per_mm: float) -> np.ndarray:
    """The face as printed, RGB ``uint8``, at ``px_per_mm`` (cached: read it, never change it)."""
    return _blank(face.svg, float(px_per_mm))


def marker_corner_names() -> tuple[str, ...]:
    return fiducials.CORNERS
