"""The letter classifier: H, O, N, C (the elements a note sheet holds) and
1, 3, 6 (a notecard's points), from the ink a player added to a place.

A small multilayer perceptron whose weights ship with the project
(``reader/letters.npz``, written by ``make reader-model``: :mod:`reader.train`)
and run here with numpy alone: nothing is fetched, nothing else installed.

Its input (:func:`features`) is the ink cut to its bounding box, kept in
proportion and scaled into :data:`SIZE` pixels square: the directions of
its strokes, region by region, the ink itself at a coarse scale, and the
box's proportions.

>>> import numpy as np
>>> features(np.zeros((40, 40), np.float32)) is None
True
>>> dark = np.zeros((40, 40), np.float32); dark[8:32, 18:22] = 0.6
>>> features(dark).shape
(229,)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

CLASSES = "HONC136"
SIZE = 20
WEIGHTS = Path(__file__).with_name("letters.npz")
MIN_INK = 0.12


def features(dark: np.ndarray) -> np.ndarray | None:
    """A place's added ink as the classifier's input, or None when there is too little to read:
    histograms of stroke directions in a 4 x 4 grid (what shape the strokes make, whatever
    the pen's width), the ink at 10 x 10, and the ink's proportions."""
    import cv2

    strong = dark > MIN_INK
    if strong.sum() < 12:
        return None
    ys, xs = np.nonzero(strong)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    crop = np.clip(dark[y0:y1, x0:x1], 0, None)
    h, w = crop.shape
    side = max(h, w)
    square = np.zeros((side, side), np.float32)
    square[(side - h) // 2:(side - h) // 2 + h, (side - w) // 2:(side - w) // 2 + w] = crop
    img = cv2.resize(square, (SIZE, SIZE), interpolation=cv2.INTER_AREA)
    top = float(img.max())
    if top <= 0:
        return None
    img /= top
    return np.concatenate([_directions(img), cv2.resize(img, (10, 10), interpolation=cv2.INTER_AREA).ravel(),
                           [np.log(max(w, 1) / max(h, 1))]]).astype(np.float32)


def _directions(img: np.ndarray, cells: int = 4, bins: int = 8) -> np.ndarray:
    import cv2

    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    ang = (np.arctan2(gy, gx) % np.pi) / np.pi * bins
    lo = np.floor(ang).astype(int) % bins
    frac = (ang - np.floor(ang)).astype(np.float32)
    step = SIZE // cells
    cell = (np.arange(SIZE) // step).clip(0, cells - 1)
    index = (cell[:, None] * cells + cell[None, :]) * bins
    hist = np.zeros(cells * cells * bins, np.float32)
    np.add.at(hist, (index + lo).ravel(), (mag * (1 - frac)).ravel())
    np.add.at(hist, (index + (lo + 1) % bins).ravel(), (mag * frac).ravel())
    return hist / (float(np.linalg.norm(hist)) + 1e-6) * 4


@lru_cache(maxsize=1)
def _weights() -> dict[str, np.ndarray]:
    if not WEIGHTS.exists():
        raise FileNotFoundError(f"{WEIGHTS} is missing: make reader-model writes it")
    with np.load(WEIGHTS) as data:
        return {k: data[k] for k in data.files}


def classify(x: np.ndarray) -> np.ndarray:
    """Class probabilities (rows of :data:`CLASSES`) for rows of :func:`features`."""
    w = _weights()
    h = (x - w["mean"]) / w["scale"]
    k = 0
    while f"W{k}" in w:
        h = h @ w[f"W{k}"] + w[f"b{k}"]
        if f"W{k + 1}" in w:
            h = np.maximum(h, 0)
        k += 1
    h = h - h.max(axis=1, keepdims=True)
    e = np.exp(h)
    return e / e.sum(axis=1, keepdims=True)
