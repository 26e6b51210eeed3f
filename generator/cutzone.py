"""Graphics a cut could touch, measured on a rendered face.

A cut wanders: a guillotine, a craft knife or a shop's die lands a
millimetre or two off the trim. Text keeps 3 mm inside (checked on the SVG
by :mod:`generator.facecheck`); this module checks everything else on the
face as it prints, from its pixels: a badge, a frame or a rule that sits in
the band between the trim and :data:`SAFE_MM` inside it is cut into, or left
as a sliver, when the cut wanders.

What may be in that band is art that runs on past the trim into the bleed
(a background, a band of colour running off the edge): whatever a cut does,
the same art is on both sides of it. So each pixel of the band is compared
with the pixel on the same line across the edge, :data:`REFERENCE_MM` out in
the bleed; a pixel that differs from it is a graphic in the cut zone. For a
round piece the band is the ring inside its circle and the comparison runs
along the radius. A background pattern that changes across the edge (a card
back's lattice) reads as graphics too: the check is for fronts.

>>> import numpy as np
>>> plain = np.full((100, 100, 3), 200, np.uint8)   # 10 mm square + 2 mm bleed, 5 px/mm
>>> findings(plain, (16.0, 16.0), 5.0, bleed=2.0)
[]
>>> framed = plain.copy(); framed[30:70, 15, :] = 0  # a line 1 mm inside the left edge
>>> [(f.edge, f.mm) for f in findings(framed, (16.0, 16.0), 5.0, bleed=2.0)]
[('left', 1.0)]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SAFE_MM = 3.0
"""How far inside the trim graphics keep, as text does (``facecheck.SAFE_MM``)."""
REFERENCE_MM = 1.0
"""Where across the edge a band pixel is compared: in the bleed, clear of the
anti-aliased trim line."""
TOLERANCE = 48
"""Largest difference in any channel (0-255) still taken as the same art:
anti-aliasing and a gentle gradient, not a line."""
MIN_PIXELS = 3
"""Fewer differing pixels than this on an edge are rendering noise."""


@dataclass(frozen=True)
class Finding:
    edge: str
    """``left``, ``right``, ``top``, ``bottom`` or ``circle``."""
    mm: float
    """How far inside the trim the nearest differing pixel is."""
    pixels: int


def findings(image, size: tuple[float, float], px_per_mm: float, *, bleed: float, safe: float = SAFE_MM,
             round_piece: bool = False) -> list[Finding]:
    """Graphics closer than ``safe`` mm to the trim on one rendered face.

    ``image``: the face with ``bleed`` mm of its art round the trim (an RGB
    array or a PIL image), at ``px_per_mm``; ``size``: the trim in mm."""
    a = np.asarray(image.convert("RGB") if hasattr(image, "convert") else image).astype(np.int16)
    if round_piece:
        return _round(a, size, px_per_mm, bleed, safe)
    return _rect(a, size, px_per_mm, bleed, safe)


def _rect(a, size, ppm, bleed, safe) -> list[Finding]:
    m = int(round(bleed * ppm))
    w, h = int(round(size[0] * ppm)), int(round(size[1] * ppm))
    band = int(round(safe * ppm))
    ref = max(1, int(round(REFERENCE_MM * ppm)))
    if ref > m:
        raise ValueError(f"a render with {bleed} mm of bleed has no room for the reference {REFERENCE_MM} mm out")
    x0, y0, x1, y1 = m, m, m + w, m + h
    face = a[y0:y1, x0:x1]
    differs = np.zeros(face.shape[:2], bool)
    near = np.zeros(face.shape[:2], bool)
    edges = {
        # each edge: its band (as a slice of the face) and the line of bleed it is compared with
        "left": ((slice(None), slice(0, band)), a[y0:y1, x0 - ref][:, None, :]),
        "right": ((slice(None), slice(w - band, w)), a[y0:y1, x1 - 1 + ref][:, None, :]),
        "top": ((slice(0, band), slice(None)), a[y0 - ref, x0:x1][None, :, :]),
        "bottom": ((slice(h - band, h), slice(None)), a[y1 - 1 + ref, x0:x1][None, :, :]),
    }
    per_edge = {}
    for name, (where, reference) in edges.items():
        d = np.abs(face[where] - reference).max(axis=2) > TOLERANCE
        per_edge[name] = (where, d)
        near[where] = True
    # A pixel near two edges (a corner) is art that runs off either one when it matches either.
    matches = np.zeros(face.shape[:2], np.int8)
    counted = np.zeros(face.shape[:2], np.int8)
    for where, d in per_edge.values():
        matches[where] += ~d
        counted[where] += 1
    differs = near & (matches == 0)
    out = []
    for name, (where, _) in per_edge.items():
        hit = np.zeros(face.shape[:2], bool)
        hit[where] = differs[where]
        ys, xs = np.nonzero(hit)
        if len(xs) < MIN_PIXELS:
            continue
        dist = {"left": xs, "right": w - 1 - xs, "top": ys, "bottom": h - 1 - ys}[name]
        out.append(Finding(name, round(float(dist.min()) / ppm, 2), int(len(xs))))
    return out


def _round(a, size, ppm, bleed, safe) -> list[Finding]:
    m = bleed * ppm
    r = min(size) / 2 * ppm
    cx, cy = m + size[0] / 2 * ppm, m + size[1] / 2 * ppm
    ys, xs = np.mgrid[0:a.shape[0], 0:a.shape[1]]
    px, py = xs + 0.5 - cx, ys + 0.5 - cy
    rho = np.hypot(px, py)
    ring = (rho < r) & (rho >= r - safe * ppm)
    rr = rho[ring]
    ux, uy = px[ring] / rr, py[ring] / rr
    out_r = r + REFERENCE_MM * ppm
    rx = np.clip((cx + ux * out_r).astype(int), 0, a.shape[1] - 1)
    ry = np.clip((cy + uy * out_r).astype(int), 0, a.shape[0] - 1)
    d = np.abs(a[ys[ring], xs[ring]] - a[ry, rx]).max(axis=1) > TOLERANCE
    if d.sum() < MIN_PIXELS:
        return []
    return [Finding("circle", round(float((r - rr[d]).min()) / ppm, 2), int(d.sum()))]


def measured(component, pieces, *, px_per_mm: float = 6.0) -> list[tuple[str, list[Finding]]]:
    """Each distinct front of ``pieces`` (drawn with :data:`oneup.DRAWN_BLEED`
    of art and no cut guides, as the exports draw them) put in a 1-up PDF,
    rendered by PDFium and measured: ``(piece key, findings)`` for every front
    with graphics in the cut zone. The component's ``safe_zone`` stands for
    3 mm where it says less (a 15 mm token)."""
    import tempfile
    from pathlib import Path

    from generator import oneup
    from generator.pdf import Piece

    fronts: dict[str, Piece] = {}
    for p in pieces:
        fronts.setdefault(p.front.digest, Piece(p.key, p.label, p.size, p.front))
    with tempfile.TemporaryDirectory() as tmp:
        data, pages = oneup.write(list(fronts.values()), Path(tmp) / "fronts.pdf", title="cut zone", bleed=3.0)
    images = oneup.render(data, pages, px_per_mm)
    safe = component.safe_zone.mm if component.safe_zone else SAFE_MM
    out = []
    for digest, piece in fronts.items():
        found = findings(images[digest], piece.size, px_per_mm, bleed=oneup.DRAWN_BLEED, safe=safe,
                         round_piece=component.shape == "round")
        if found:
            out.append((piece.key, found))
    return out
