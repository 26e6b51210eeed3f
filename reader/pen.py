"""Synthetic handwriting and pen strokes, to train the letter classifier
(:mod:`reader.train`) and to fill the sheets of the photo set
(``bench/photos``): never used to read.

A :class:`Hand` is one writer: a handwriting font (Debian's packages,
installed by ``make reader-model`` and ``make bench``) or letters built from
strokes, with its own slant, proportions, pen width, pressure, wobble and
elastic distortion, in pencil or in ink. Real hands vary more than any
font: several fonts, random strokes and distortions stand in for them, and
the fonts in :data:`HELD_OUT` are never trained on (the photo set's
held-out part writes with them).

>>> import numpy as np
>>> hand = random_hand(np.random.default_rng(1), held_out=False, fonts=False)
>>> alpha = glyph("H", hand, np.random.default_rng(2), px_per_mm=8, height_mm=6)
>>> alpha.dtype, 0.0 <= float(alpha.min()) and float(alpha.max()) <= 1.0, float(alpha.max()) > 0.5
(dtype('float32'), True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

TRAINING = {
    "fonts-bwht": ["/usr/share/fonts/opentype/bwht/BecauseWe" + n + "-Regular.otf"
                   for n in ("Build", "Connect", "Create", "Learn", "Mentor", "Organize")],
    "fonts-comic-neue": ["/usr/share/fonts/opentype/comic-neue/ComicNeue-" + n + ".otf"
                         for n in ("Regular", "Bold", "Italic", "Light")],
    "fonts-dkg-handwriting": ["/usr/share/fonts/truetype/fifthhorseman/dkg" + n + ".ttf" for n in ("", "Bd", "It")],
    "fonts-rufscript": ["/usr/share/fonts/truetype/rufscript/Rufscript010.ttf"],
    "fonts-kaushanscript": ["/usr/share/fonts/opentype/kaushanscript/KaushanScript-Regular.otf"],
    "fonts-klee": ["/usr/share/fonts/truetype/klee/KleeOne-Regular.ttf"],
    "fonts-kristi": ["/usr/share/fonts/truetype/kristi/Kristi.ttf"],
    "fonts-dancingscript": ["/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf"],
}
"""Debian package -> the handwriting fonts trained on."""
HELD_OUT = {
    "fonts-sjfonts": ["/usr/share/fonts/truetype/sjfonts/SteveHand.ttf", "/usr/share/fonts/truetype/sjfonts/Delphine.ttf"],
    "fonts-humor-sans": ["/usr/share/fonts/truetype/humor-sans/Humor-Sans.ttf"],
    "fonts-breip": ["/usr/share/fonts/truetype/breip/Breip.ttf"],
}
"""Fonts kept aside, each of a hand in block letters as players write: only the
held-out photos (and the training's held-out figure) write with them."""

PENCIL = (0.33, 0.33, 0.36)
INKS = ((0.08, 0.1, 0.35), (0.07, 0.07, 0.09), (0.12, 0.14, 0.45))


class MissingFonts(RuntimeError):
    pass


def font_files(held_out: bool) -> list[str]:
    """The font files of one group; :class:`MissingFonts` names the Debian packages to install."""
    group = HELD_OUT if held_out else TRAINING
    missing = sorted(pkg for pkg, files in group.items() if not all(Path(f).exists() for f in files))
    if missing:
        raise MissingFonts(f"handwriting fonts missing: Debian packages {', '.join(missing)} "
                           "(make reader-model and make bench install them as root)")
    return [f for files in group.values() for f in files]


@dataclass(frozen=True)
class Hand:
    font: str | None
    """A font file, or None: letters built from strokes."""
    slant: float
    """Shear, x per y (-0.3 leans left, 0.3 right)."""
    wide: float
    """Width over the font's, 0.75 to 1.3."""
    pen_mm: float
    pressure: float
    """How dark a stroke is, 0.45 (light pencil) to 1."""
    colour: tuple[float, float, float]
    wobble: float
    """Elastic distortion, in mm."""
    grain: float
    """Pencil grain: how much a stroke's darkness varies, 0 (ink) to 0.5."""
    size: float = 1.0
    """Height over the place's usual size."""


def random_hand(rng: np.random.Generator, held_out: bool, fonts: bool = True) -> Hand:
    """A writer: a font of the group (or strokes), pencil mostly, sometimes a pen."""
    choices = font_files(held_out) if fonts else []
    font = choices[rng.integers(len(choices))] if choices and rng.random() < 0.7 else None
    pencil = rng.random() < 0.7
    return Hand(font=font, slant=float(rng.normal(0.05, 0.12)), wide=float(rng.uniform(0.8, 1.25)),
                pen_mm=float(rng.uniform(0.3, 0.55) if pencil else rng.uniform(0.3, 0.7)),
                pressure=float(rng.uniform(0.45, 0.95) if pencil else rng.uniform(0.8, 1.0)),
                colour=PENCIL if pencil else INKS[rng.integers(len(INKS))],
                wobble=float(rng.uniform(0.05, 0.35)), grain=float(rng.uniform(0.2, 0.5) if pencil else 0.05),
                size=float(rng.uniform(0.75, 1.15)))


# --- letters from strokes: each a list of polylines in a unit box (x right, y down) --------
def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 14) -> list[tuple[float, float]]:
    return [(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
            for a in np.linspace(a0, a1, n)]


STROKES = {
    "H": [[(0.1, 0), (0.1, 1)], [(0.9, 0), (0.9, 1)], [(0.1, 0.5), (0.9, 0.5)]],
    "N": [[(0.12, 1), (0.12, 0), (0.88, 1), (0.88, 0)]],
    "O": [_arc(0.5, 0.5, 0.45, 0.5, -100, 265, 24)],
    "C": [_arc(0.55, 0.5, 0.45, 0.5, -45, -315, 20)],
    "1": [[(0.3, 0.2), (0.55, 0), (0.55, 1)]],
    "3": [_arc(0.45, 0.27, 0.35, 0.27, -160, 90, 12) + _arc(0.45, 0.74, 0.4, 0.26, -90, 160, 12)],
    "6": [_arc(0.55, 0.5, 0.42, 0.5, -60, -180, 8) + _arc(0.5, 0.72, 0.38, 0.28, 180, 540, 18)],
}


def _stroke_glyph(ch: str, hand: Hand, rng: np.random.Generator, px: float, h_px: float) -> np.ndarray:
    import cv2

    w_px = h_px * 0.75 * hand.wide * (0.6 if ch == "1" else 1.0)
    pad = int(h_px * 0.4 + hand.pen_mm * px * 2) + 4
    canvas = np.zeros((int(h_px) + 2 * pad, int(w_px + h_px * 0.5) + 2 * pad), np.float32)
    jitter = 0.05 + hand.wobble * 0.15
    for line in STROKES[ch]:
        pts = np.array(line, np.float64) + rng.normal(0, jitter * 0.5, (len(line), 2))
        if rng.random() < 0.5:   # overshoot at an end
            pts[-1] += (pts[-1] - pts[-2]) * rng.uniform(0, 0.3)
        xy = np.stack([pad + pts[:, 0] * w_px + (1 - pts[:, 1]) * h_px * hand.slant, pad + pts[:, 1] * h_px], 1)
        thick = max(1, int(round(hand.pen_mm * px)))
        cv2.polylines(canvas, [np.round(xy * 4).astype(np.int32)], False, 1.0, thick, cv2.LINE_AA, shift=2)
    return canvas


@lru_cache(maxsize=64)
def _font(path: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


def _font_glyph(ch: str, hand: Hand, px: float, h_px: float) -> np.ndarray:
    import cv2
    from PIL import Image, ImageDraw

    size = max(8, int(h_px * 1.35))
    font = _font(hand.font, size)  # type: ignore[arg-type]
    x0, y0, x1, y1 = font.getbbox(ch)
    pad = int(size * 0.5)
    img = Image.new("L", (x1 - x0 + 2 * pad, y1 - y0 + 2 * pad), 0)
    ImageDraw.Draw(img).text((pad - x0, pad - y0), ch, font=font, fill=255)
    a = np.asarray(img, np.float32) / 255.0
    ink_h = max(1, y1 - y0)
    scale = h_px / ink_h
    a = cv2.resize(a, None, fx=scale * hand.wide, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = a.shape
    shear = np.float32([[1, -hand.slant, hand.slant * h / 2], [0, 1, 0]])
    a = cv2.warpAffine(a, shear, (w + int(abs(hand.slant) * h), h))
    k = int(round((hand.pen_mm * px - 2.0) / 2))
    if k > 0:
        a = cv2.dilate(a, np.ones((k + 1, k + 1), np.uint8))
    return a


def elastic(alpha: np.ndarray, rng: np.random.Generator, amount_px: float, smooth_px: float) -> np.ndarray:
    import cv2

    h, w = alpha.shape
    dx = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), smooth_px)
    dy = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), smooth_px)
    norm = max(float(np.abs(dx).max()), float(np.abs(dy).max()), 1e-6)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return cv2.remap(alpha, xs + dx / norm * amount_px, ys + dy / norm * amount_px, cv2.INTER_LINEAR)


def glyph(ch: str, hand: Hand, rng: np.random.Generator, px_per_mm: float, height_mm: float) -> np.ndarray:
    """``ch`` as ``hand`` writes it, ``height_mm`` tall (give or take), as ink
    coverage 0..1 (float32) with a margin round it; turned a little."""
    import cv2

    h_px = height_mm * hand.size * px_per_mm * float(rng.uniform(0.9, 1.1))
    a = (_font_glyph(ch, hand, px_per_mm, h_px) if hand.font and ch in "HONC136"
         else _stroke_glyph(ch, hand, rng, px_per_mm, h_px))
    a = elastic(a, rng, hand.wobble * px_per_mm, max(2.0, h_px / 5))
    angle = float(rng.normal(0, 6))
    h, w = a.shape
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    a = cv2.warpAffine(a, turn, (w, h))
    return np.clip(a * pressure_map(a.shape, hand, rng), 0, 1).astype(np.float32)


def pressure_map(shape: tuple[int, int], hand: Hand, rng: np.random.Generator) -> np.ndarray:
    """How dark the pen lays down its line at each pixel: pressure, and a pencil's grain."""
    import cv2

    slow = cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), max(2.0, shape[0] / 6))
    slow = slow / max(float(np.abs(slow).max()), 1e-6)
    grain = rng.normal(0, 1, shape).astype(np.float32)
    return np.clip(hand.pressure * (1 + 0.15 * slow) * (1 - hand.grain * np.clip(np.abs(grain), 0, 1.5) * 0.6), 0, 1)


def line(canvas: np.ndarray, p: tuple[float, float], q: tuple[float, float], width_px: float) -> None:
    """A straight stroke into an alpha canvas (anti-aliased, quarter-pixel precision)."""
    import cv2

    a = np.round(np.array(p) * 4).astype(np.int32)
    b = np.round(np.array(q) * 4).astype(np.int32)
    cv2.line(canvas, tuple(int(v) for v in a), tuple(int(v) for v in b), 1.0, max(1, int(round(width_px))),
             cv2.LINE_AA, shift=2)


def lay(page: np.ndarray, alpha: np.ndarray, colour: tuple[float, float, float], x: int, y: int) -> None:
    """Lay ink of ``colour`` (RGB 0..1) with coverage ``alpha`` on ``page`` (RGB float) at its top left
    ``x, y``, as ink darkens paper (multiply); clipped at the page's edges."""
    h, w = alpha.shape
    H, W = page.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x0 >= x1 or y0 >= y1:
        return
    a = alpha[y0 - y:y1 - y, x0 - x:x1 - x, None]
    region = page[y0:y1, x0:x1]
    region *= 1 - a * (1 - np.asarray(colour, np.float32))
