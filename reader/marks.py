"""What a game's reader measures on a rectified sheet (:class:`reader.page.Sheet`),
every measure against the blank face, so that only what a player added counts:

* :func:`ink`: how much darker than the print each pixel is, the print's
  own lines (and a pixel round them) left out;
* :func:`colour`: a cell shaded with a marker, or left empty;
* :func:`strokes`: how many strokes cross a line (a bond's order);
* :func:`coverage`: how much of a place is inked (a burned space, a tick);
* :func:`letter`: the classifier's answer for a written letter or digit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from reader import letters
from reader.maps import Mark

if TYPE_CHECKING:
    from reader.page import Sheet

PRINTED = 0.78
"""Blank-face pixels darker than this are the print's own, not a player's."""
INKED = 0.16
"""Darker than the print by this much: a pixel a player inked."""
DIP = 0.8
"""Two strokes side by side are two when the ink between them falls below this share of the fainter."""


def gray(rgb: np.ndarray) -> np.ndarray:
    return rgb @ np.array([0.299, 0.587, 0.114], np.float32)


def ink(sheet: "Sheet", x0: float, y0: float, x1: float, y1: float, grow_px: int = 1) -> np.ndarray:
    """Darkness added to the print in a window (mm), 0..1; the print's own pixels are 0."""
    import cv2

    win = sheet.window(x0, y0, x1, y1)
    b = sheet.gray("blank")[win]
    dark = np.clip(b - sheet.gray("photo")[win], 0, 1)
    printed = (b < PRINTED).astype(np.uint8)
    if grow_px:
        printed = cv2.dilate(printed, np.ones((2 * grow_px + 1, 2 * grow_px + 1), np.uint8))
    dark[printed.astype(bool)] = 0
    return dark


def inside(mark: Mark, inset_mm: float) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = mark.bounds
    return x0 + inset_mm, y0 + inset_mm, x1 - inset_mm, y1 - inset_mm


def circle_mask(shape: tuple[int, int], r_px: float) -> np.ndarray:
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w]
    return (xs - (w - 1) / 2) ** 2 + (ys - (h - 1) / 2) ** 2 <= r_px ** 2


def coverage(dark: np.ndarray, mask: np.ndarray | None = None) -> float:
    """The share of a place's pixels a player inked."""
    values = dark if mask is None else dark[mask]
    return float((values > INKED).mean()) if values.size else 0.0


# --- colours -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Colour:
    letter: str
    hue: float
    """Its marker's hue, degrees."""


def colour(sheet: "Sheet", mark: Mark, palette: Sequence[Colour], inset_mm: float = 1.4
           ) -> tuple[str | None, float, list[str | None]]:
    """``(letter or None, confidence, choices)`` of a box a player may shade:
    how much of it is coloured (a marker, or a coloured pencil's lighter
    grain), and the hue of what is. ``choices``: the likeliest first."""
    import cv2

    win = sheet.window(*inside(mark, inset_mm))
    rgb = np.clip(sheet.photo[win], 0, 1)
    if rgb.size == 0:
        return None, 0.0, [None]
    hsv = cv2.cvtColor(rgb.astype(np.float32), cv2.COLOR_RGB2HSV)
    sat, val = hsv[..., 1], hsv[..., 2]
    # colour (a coloured pencil's light grain has a little), or darkness with colour in it (a
    # dark blue marker); never grey alone (a shade the light's correction left, a smudge)
    chroma = sat * val
    coloured = (chroma > 0.1) | ((1 - val > 0.25) & (sat > 0.25))
    share = float(coloured.mean())
    if share < 0.04:
        return None, min(1.0, 0.75 + (0.04 - share) * 6), [None, *(_by_hue(hsv, coloured, palette)[:1])]
    ranked = _by_hue(hsv, coloured, palette)
    hues = hsv[..., 0][coloured]
    mean = _circular_mean(hues)
    dists = sorted((_hue_gap(mean, c.hue), c.letter) for c in palette)
    margin = dists[1][0] - dists[0][0]
    conf_colour = min(1.0, margin / 40.0)
    conf_share = min(1.0, max(0.0, (share - 0.04) / 0.16))
    choices: list[str | None] = [*ranked, None] if share >= 0.1 else [*ranked[:1], None, *ranked[1:]]
    return (ranked[0] if share >= 0.1 else ranked[0] if share >= 0.07 else None), \
        float(min(conf_colour, max(conf_share, 0.0)) if share >= 0.07 else 0.5), choices


def _circular_mean(hues: np.ndarray) -> float:
    a = np.radians(hues.astype(np.float64))
    return float(np.degrees(np.arctan2(np.sin(a).mean(), np.cos(a).mean())) % 360)


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return min(d, 360 - d)


def _by_hue(hsv: np.ndarray, coloured: np.ndarray, palette: Sequence[Colour]) -> list[str]:
    hues = hsv[..., 0][coloured]
    if hues.size == 0:
        return [c.letter for c in palette]
    mean = _circular_mean(hues)
    return [c.letter for c in sorted(palette, key=lambda c: _hue_gap(mean, c.hue))]


# --- strokes across a line ------------------------------------------------------------------
def strokes(sheet: "Sheet", line: tuple[float, float, float, float], span_mm: float = 2.4,
            at: Sequence[float] = (0.3, 0.5, 0.7)) -> tuple[int, float, list[int], float]:
    """How many strokes run along a short line (the gap between two spaces),
    counted across it at a few places: ``(count, confidence, choices, width)``,
    ``width`` the widest stroke's width (mm, at half its darkness): two strokes
    drawn too close for the photo to part them look like one wide one."""
    import cv2

    x1, y1, x2, y2 = line
    length = float(np.hypot(x2 - x1, y2 - y1))
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    px = sheet.px
    n = int(round(2 * span_mm * px)) + 1
    dark = sheet.gray("dark")
    counts, peaks_all, widths = [], [], []
    for t in at:
        cx, cy = x1 + ux * length * t, y1 + uy * length * t
        offs = np.linspace(-span_mm, span_mm, n)
        along = np.linspace(-0.5, 0.5, 5)
        xs = (cx - uy * offs[None, :] + ux * along[:, None] - sheet.origin[0]) * px
        ys = (cy + ux * offs[None, :] + uy * along[:, None] - sheet.origin[1]) * px
        prof = cv2.remap(dark, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR).mean(axis=0)
        prof = np.convolve(prof, np.ones(3) / 3, mode="same")
        found = _peaks(prof, min_gap=max(2, int(0.45 * px)))
        counts.append(len(found))
        peaks_all.append(prof)
        widths += [_width(prof, i) / px for i in found]
    values, freq = np.unique(counts, return_counts=True)
    order = np.argsort(-freq)
    count = int(values[order[0]])
    agree = float(freq[order[0]]) / len(counts)
    best = max(float(p.max()) for p in peaks_all)
    clear = min(1.0, best / 0.25) if count else min(1.0, (0.12 - best) / 0.06 + 0.5) if best < 0.12 else 0.4
    choices = [count] + [int(v) for v in values[order[1:]]]
    choices += [k for k in (count + 1, count - 1) if 0 <= k <= 3 and k not in choices]
    width = float(np.median(widths)) if widths else 0.0
    return min(count, 3), float(min(agree, max(clear, 0.0))), [min(c, 3) for c in choices], width


def _width(prof: np.ndarray, i: int) -> float:
    """A peak's width at half its height, in samples."""
    half = prof[i] / 2
    a = i
    while a > 0 and prof[a - 1] > half:
        a -= 1
    b = i
    while b < len(prof) - 1 and prof[b + 1] > half:
        b += 1
    return float(b - a + 1)


def _peaks(prof: np.ndarray, min_gap: int) -> list[int]:
    """Local maxima that stand out: above a floor and well above the dip to the next."""
    top = float(prof.max())
    if top < 0.07:
        return []
    floor = max(0.06, 0.3 * top)
    idx = [i for i in range(1, len(prof) - 1) if prof[i] >= prof[i - 1] and prof[i] > prof[i + 1] and prof[i] > floor]
    kept: list[int] = []
    for i in sorted(idx, key=lambda k: -prof[k]):
        if all(abs(i - j) >= min_gap for j in kept):
            # a separate stroke only if the profile dips well between it and its kept neighbours
            if all(prof[min(i, j):max(i, j) + 1].min() < DIP * min(prof[i], prof[j]) for j in kept):
                kept.append(i)
    return sorted(kept)


# --- letters ---------------------------------------------------------------------------------
def letter(dark: np.ndarray, allowed: str) -> tuple[str | None, float, list[str]]:
    """The classifier's reading of the ink in a place, among ``allowed``
    characters: ``(best, confidence, choices)``; ``(None, 1, [])`` when
    there is no ink to read."""
    import cv2

    vec = letters.features(dark)
    if vec is None:
        return None, 1.0, []
    # the same ink a little bolder, finer and softer too: the answers averaged are surer
    # where the letter is clear, and less sure where a pen's width tips it (tuning photos)
    kernel = np.ones((2, 2), np.uint8)
    variants = [vec] + [v for v in (letters.features(cv2.dilate(dark, kernel)), letters.features(cv2.erode(dark, kernel)),
                                    letters.features(cv2.GaussianBlur(dark, (0, 0), 0.8))) if v is not None]
    idx = [letters.CLASSES.index(c) for c in allowed]
    probs = letters.classify(np.stack(variants))[:, idx]
    p = (probs / np.maximum(probs.sum(axis=1, keepdims=True), 1e-9)).mean(axis=0)
    order = np.argsort(-p)
    ranked = [allowed[i] for i in order]
    return ranked[0], float(p[order[0]]), ranked
