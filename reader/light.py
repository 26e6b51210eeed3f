"""Light and fit: the photo's light corrected from the paper's white, its
small misfits (paper curl, a marker's corner a pixel off) corrected from
the printed lines, and how sharp it is.

* **White.** Where the blank face is light paper and no player writes
  (outside every readable place), the photo divided by the blank face is
  the light falling on the sheet, per colour channel: shadows, gradients
  and the camera's white balance at once. It is averaged in blocks of
  :data:`BLOCK_MM`, twice (the second time without pixels much darker
  than the first mean: stray pencil), holes filled from their
  neighbours, smoothed, and divided out.
* **Fit.** Regions of :data:`TILE_MM` are matched against the blank face
  within :data:`COARSE_MM` (the paper's bow), then each readable place with
  a printed outline within :data:`SEARCH_MM`; each time a smooth (cubic)
  displacement fitted to the shifts, outliers dropped, moves the photo
  onto the face.
* **Sharpness.** The contrast of the printed lines in the photo against
  the blank face's, at the blank face's edges: 1 is as printed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from reader.page import Sheet

BLOCK_MM = 2.5
SEARCH_MM = 1.2
COARSE_MM = 4.0
TILE_MM = 24.0
BLURRED = 0.12
"""Below this sharpness a sheet is refused as too blurred: the blurred tuning photos that read
well lie above 0.3 at their own resolution, and a photo with no printed edge left below 0.1."""
_OUTLINED = ("cell", "box", "space", "trash", "check", "points", "tool")


def _gray(rgb: np.ndarray) -> np.ndarray:
    return rgb @ np.array([0.299, 0.587, 0.114], np.float32)


def writable(sheet: "Sheet", grow_mm: float = 1.2) -> np.ndarray:
    """Where players write: every readable place (a box, a circle, a bond's strokes along its
    line), grown a little (bool, the sheet's window). The paper between is the light's witness."""
    import cv2

    mask = np.zeros(sheet.photo.shape[:2], np.uint8)
    px = sheet.px
    for m in sheet.face.read:
        if m.circle is not None:
            cx, cy = sheet.to_px(m.circle[0], m.circle[1])
            cv2.circle(mask, (int(round(cx)), int(round(cy))), int(round((m.circle[2] + grow_mm) * px)), 1, -1)
        elif m.line is not None:
            a, b = sheet.to_px(*m.line[:2]), sheet.to_px(*m.line[2:])
            cv2.line(mask, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 1, int(round((3.0 + 2 * grow_mm) * px)))
        else:
            x0, y0, x1, y1 = m.bounds
            mask[sheet.window(x0 - grow_mm, y0 - grow_mm, x1 + grow_mm, y1 + grow_mm)] = 1
    return mask.astype(bool)


def _block_mean(values: np.ndarray, weight: np.ndarray, block: int) -> tuple[np.ndarray, np.ndarray]:
    import cv2

    h, w = weight.shape
    size = (max(1, w // block), max(1, h // block))
    wsum = cv2.resize(weight, size, interpolation=cv2.INTER_AREA)
    vsum = cv2.resize(values * weight[..., None], size, interpolation=cv2.INTER_AREA)
    return vsum / np.maximum(wsum, 1e-6)[..., None], wsum


def _fill(values: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Holes (``known`` false) filled from their neighbours, by growing blurs."""
    import cv2

    out = values.copy()
    have = known.astype(np.float32)
    for sigma in (1, 2, 4, 8, 16, 32):
        if have.min() > 0:
            break
        num = cv2.GaussianBlur(out * have[..., None], (0, 0), sigma)
        den = cv2.GaussianBlur(have, (0, 0), sigma)
        fill = (have == 0) & (den > 1e-3)
        out[fill] = num[fill] / den[fill][..., None]
        have = np.where(fill, 1.0, have).astype(np.float32)
    if have.min() == 0:
        out[have == 0] = np.median(out[have > 0], axis=0) if have.any() else 1.0
    return out


def illumination(sheet: "Sheet") -> np.ndarray:
    """The light on the sheet, per pixel and channel (the photo of white paper)."""
    import cv2

    g_blank = _gray(sheet.blank)
    paper = (g_blank > 0.8) & ~writable(sheet)
    paper = cv2.erode(paper.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    ratio = sheet.photo / np.maximum(sheet.blank, 0.3)
    block = max(4, int(round(BLOCK_MM * sheet.px)))
    weight = paper.astype(np.float32)
    mean, wsum = _block_mean(ratio, weight, block)
    # again without what is much darker than the first pass: stray pencil, a finger
    first = cv2.resize(mean, (ratio.shape[1], ratio.shape[0]), interpolation=cv2.INTER_LINEAR)
    weight = weight * (_gray(ratio) > 0.8 * _gray(first))
    mean, wsum = _block_mean(ratio, weight, block)
    filled = _fill(mean.astype(np.float32), wsum > 0.25)
    smooth = cv2.GaussianBlur(filled, (0, 0), 0.8)
    return np.maximum(cv2.resize(smooth, (ratio.shape[1], ratio.shape[0]), interpolation=cv2.INTER_CUBIC), 0.02)


def paper_white(sheet: "Sheet") -> float:
    """How bright the paper is in the photo (0 black, 1 white), before correction."""
    g_blank = _gray(sheet.blank)
    paper = (g_blank > 0.8) & ~writable(sheet)
    values = _gray(sheet.photo)[paper]
    return float(np.percentile(values, 75)) if values.size else 0.0


def correct(sheet: "Sheet") -> None:
    sheet.photo = np.clip(sheet.photo / illumination(sheet), 0.0, 1.3).astype(np.float32)


def _shift(sheet: "Sheet", padded: np.ndarray, x0: float, y0: float, x1: float, y1: float, search_mm: float
           ) -> tuple[float, float, float] | None:
    """How far the photo's print of a window lies from the blank face's: ``(dx, dy, score)`` in pixels.
    ``padded``: the photo's grey, padded by the search on every side."""
    import cv2

    s = int(round(search_mm * sheet.px))
    rows, cols = sheet.window(x0, y0, x1, y1)
    if rows.stop - rows.start < 8 or cols.stop - cols.start < 8:
        return None
    tpl = _gray(sheet.blank[rows, cols])
    if tpl.std() < 0.05:
        return None
    area = padded[rows.start:rows.stop + 2 * s, cols.start:cols.stop + 2 * s]
    res = cv2.matchTemplate(area, tpl.astype(np.float32), cv2.TM_CCOEFF_NORMED)
    _, score, _, (bx, by) = cv2.minMaxLoc(res)

    def sub(a: float, b: float, c: float) -> float:   # a parabola through the peak and its neighbours
        d = a - 2 * b + c
        return 0.0 if abs(d) < 1e-9 else 0.5 * (a - c) / d
    dx = bx - s + (sub(res[by, bx - 1], res[by, bx], res[by, bx + 1]) if 0 < bx < res.shape[1] - 1 else 0)
    dy = by - s + (sub(res[by - 1, bx], res[by, bx], res[by + 1, bx]) if 0 < by < res.shape[0] - 1 else 0)
    return float(dx), float(dy), float(score)


def _terms(x: np.ndarray, y: np.ndarray, degree: int) -> np.ndarray:
    return np.stack([x ** i * y ** j for i in range(degree + 1) for j in range(degree + 1 - i)], axis=-1)


def align(sheet: "Sheet") -> None:
    """Move the photo onto the blank face: a smooth displacement fitted to
    the shifts of the outlined places (see the module doc)."""
    import cv2

    h, w = sheet.photo.shape[:2]
    tile = TILE_MM
    x0, y0 = sheet.origin
    x1, y1 = x0 + w / sheet.px, y0 + h / sheet.px
    tiles = [(x, y, min(x + tile, x1), min(y + tile, y1)) for x in np.arange(x0, x1 - tile / 3, tile)
             for y in np.arange(y0, y1 - tile / 3, tile)]
    _pass(sheet, tiles, COARSE_MM)     # the paper's bow, a few mm: whole regions, searched widely
    boxes = [m.bounds for m in sheet.face.read if m.kind in _OUTLINED]
    _pass(sheet, [(a - 0.8, b - 0.8, c + 0.8, d + 0.8) for a, b, c, d in boxes], SEARCH_MM)


def _pass(sheet: "Sheet", windows: list[tuple[float, float, float, float]], search_mm: float) -> None:
    import cv2

    s = int(round(search_mm * sheet.px))
    padded = cv2.copyMakeBorder(_gray(sheet.photo).astype(np.float32), s, s, s, s, cv2.BORDER_REPLICATE)
    points, shifts = [], []
    for x0, y0, x1, y1 in windows:
        found = _shift(sheet, padded, x0, y0, x1, y1, search_mm)
        if found is None or found[2] < 0.3:
            continue
        points.append(sheet.to_px((x0 + x1) / 2, (y0 + y1) / 2))
        shifts.append(found[:2])
    if len(points) < 6:
        return
    h, w = sheet.photo.shape[:2]
    p = np.array(points, np.float64) / np.array([w, h])
    d = np.array(shifts, np.float64)
    degree = 3 if len(points) >= 30 else 1
    keep = np.ones(len(p), bool)
    for _ in range(3):
        A = _terms(p[keep, 0], p[keep, 1], degree)
        coef, *_ = np.linalg.lstsq(A, d[keep], rcond=None)
        resid = np.linalg.norm(_terms(p[:, 0], p[:, 1], degree) @ coef - d, axis=1)
        keep = resid < max(1.5, 2.5 * float(np.median(resid[keep])))
        if keep.sum() < 6:
            return
    # the field on a coarse grid, then spread to every pixel: it is smooth
    gh, gw = max(2, h // 8), max(2, w // 8)
    cy, cx = np.mgrid[0:gh, 0:gw].astype(np.float64)
    coarse = (_terms((cx + 0.5) / gw, (cy + 0.5) / gh, degree) @ coef).astype(np.float32)
    field = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    sheet.photo = cv2.remap(sheet.photo, xs + field[..., 0], ys + field[..., 1], cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)


def sharpness(sheet: "Sheet") -> float:
    """The photo's edge contrast at the blank face's printed edges, against the blank's (1: as printed)."""
    import cv2

    g_photo, g_blank = sheet.gray("photo"), sheet.gray("blank")
    if sheet.native < sheet.px * 0.9:
        # judged at the photo's own resolution: a small photo warped up is not a blurred one
        f = sheet.native / sheet.px
        g_photo = cv2.resize(g_photo, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        g_blank = cv2.resize(g_blank, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)

    def grad(g: np.ndarray) -> np.ndarray:
        return np.hypot(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))

    gb = grad(g_blank)
    edges = gb > np.percentile(gb, 98)
    if not edges.any():
        return 1.0
    # the photo's strongest edge near each printed one: a pixel or two off is no blur
    near = cv2.dilate(grad(g_photo), np.ones((5, 5), np.uint8))
    return float(np.median(near[edges]) / max(float(np.median(gb[edges])), 1e-6))


def blurred_photo(gray: np.ndarray) -> bool:
    """A whole photo with hardly any sharp edge (before any sheet is found)."""
    import cv2

    scale = 800 / max(gray.shape)
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    return float(cv2.Laplacian(small, cv2.CV_32F).var()) < 12.0
