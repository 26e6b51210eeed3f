"""Train the letter classifier: ``python -m reader.train`` (``make reader-model``).

Every sample is drawn here: a letter or digit in one of many synthetic hands
(:mod:`reader.pen`: the training fonts and letters built from strokes, with
slant, proportions, pen width, pressure, pencil grain and elastic
distortion), laid in a place of the sheet's size, blurred, noised and cut
by the print's outline the way a photo's ink is (:func:`sample`), and
turned into the classifier's input by the reader's own
:func:`reader.letters.features`. The fonts kept aside (``pen.HELD_OUT``)
are only used to say how well it does on hands it never saw.

The same command gives the same weights (fixed seeds; scikit-learn, only
needed here: ``pip install -e '.[train]'``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from reader import letters, pen

PX_PER_MM = 8.0
PLACES = {"space": (5.2, 3.0, 7.0), "trash": (6.0, 4.0, 8.0), "points": (4.4, 3.0, 5.5)}
"""Where letters are written: the place's size (mm) and the range of letter heights in it."""
DIGITS = "136"


def sample(ch: str, hand: pen.Hand, rng: np.random.Generator, px: float = PX_PER_MM) -> np.ndarray:
    """The ink a photo would show of ``ch`` written in its place: a darkness map."""
    import cv2

    place = "points" if ch in DIGITS else ("space" if rng.random() < 0.75 else "trash")
    size, lo, hi = PLACES[place]
    alpha = pen.glyph(ch, hand, rng, px, float(rng.uniform(lo, hi)))
    darkness = 1 - float(np.dot(hand.colour, [0.299, 0.587, 0.114]))
    dark = alpha * darkness
    side = int(round(size * 2 * px)) if place != "points" else int(round(size * 2.4 * px))
    canvas = np.zeros((side, side), np.float32)
    ys, xs = np.nonzero(dark > 0.05)
    if len(ys):
        cy, cx = int(ys.mean()), int(xs.mean())
        oy = side // 2 - cy + int(rng.normal(0, side * 0.05))
        ox = side // 2 - cx + int(rng.normal(0, side * 0.05))
        h, w = dark.shape
        y0, x0 = max(0, oy), max(0, ox)
        y1, x1 = min(side, oy + h), min(side, ox + w)
        if y0 < y1 and x0 < x1:
            canvas[y0:y1, x0:x1] = dark[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
    if rng.random() < 0.3:   # a bond's stroke reaching into the place
        a = rng.uniform(0, 2 * np.pi)
        r0 = side * rng.uniform(0.38, 0.5)
        p = (side / 2 + np.cos(a) * r0, side / 2 + np.sin(a) * r0)
        q = (side / 2 + np.cos(a) * side, side / 2 + np.sin(a) * side)
        stroke = np.zeros_like(canvas)
        pen.line(stroke, p, q, hand.pen_mm * px)
        canvas = np.maximum(canvas, stroke * darkness * hand.pressure)
    if rng.random() < 0.5:   # the print's outline, left out as the reader leaves it out
        ring = np.zeros_like(canvas, np.uint8)
        cv2.circle(ring, (side // 2, side // 2), int(side * rng.uniform(0.42, 0.5)), 1, max(2, int(px * 0.5)))
        canvas[ring.astype(bool)] = 0
    sigma = float(rng.uniform(0, 1.4))
    if sigma > 0.3:
        canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
    canvas = canvas * float(rng.uniform(0.6, 1.2)) + rng.normal(0, rng.uniform(0, 0.035), canvas.shape)
    return np.clip(canvas, 0, 1).astype(np.float32)


def dataset(n_per_class: int, held_out: bool, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X, y = [], []
    for i in range(n_per_class):
        hand = pen.random_hand(rng, held_out=held_out, fonts=True)
        for k, ch in enumerate(letters.CLASSES):
            vec = letters.features(sample(ch, hand, rng))
            if vec is not None:
                X.append(vec)
                y.append(k)
    return np.array(X, np.float32), np.array(y, np.int64)


def train(n_per_class: int = 12000, out: Path = letters.WEIGHTS, hidden: tuple[int, ...] = (256, 128),
          seed: int = 40, report=print) -> dict[str, float]:
    from sklearn.neural_network import MLPClassifier

    t0 = time.perf_counter()
    X, y = dataset(n_per_class, held_out=False, seed=seed)
    Xh, yh = dataset(max(5, n_per_class // 10), held_out=True, seed=seed + 1)
    mean, scale = X.mean(axis=0), X.std(axis=0) + 1e-3
    model = MLPClassifier(hidden_layer_sizes=hidden, alpha=3e-4, batch_size=min(256, int(len(y) * 0.9)), learning_rate_init=2e-3,
                          max_iter=80, early_stopping=True, n_iter_no_change=6, random_state=seed)
    model.fit((X - mean) / scale, y)
    arrays = {"mean": mean.astype(np.float32), "scale": scale.astype(np.float32),
              "classes": np.array(list(letters.CLASSES))}
    for k, (W, b) in enumerate(zip(model.coefs_, model.intercepts_)):
        arrays[f"W{k}"], arrays[f"b{k}"] = W.astype(np.float32), b.astype(np.float32)
    np.savez_compressed(out, **arrays)
    letters._weights.cache_clear()
    pred = letters.classify(Xh).argmax(axis=1) if out == letters.WEIGHTS else model.predict((Xh - mean) / scale)
    within = _within(letters.classify(Xh) if out == letters.WEIGHTS else model.predict_proba((Xh - mean) / scale), yh)
    figures = {"samples": float(len(y)), "held_out_accuracy": float((pred == yh).mean()), **within,
               "training_accuracy": float(model.score((X - mean) / scale, y)), "seconds": time.perf_counter() - t0}
    report(f"trained on {len(y)} samples in {figures['seconds']:.0f} s: {figures['training_accuracy']:.2%} on them, "
           f"{figures['held_out_accuracy']:.2%} on {len(yh)} in the held-out fonts (elements among H, O, N, C: "
           f"{figures['elements']:.2%}; points among 6, 3, 1: {figures['points']:.2%}); wrote {out}")
    return figures


def _within(probs: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Accuracy where the reader asks: among the letters a place allows."""
    out = {}
    for name, allowed in (("elements", "HONC"), ("points", DIGITS)):
        idx = np.array([letters.CLASSES.index(c) for c in allowed])
        sel = np.isin(y, idx)
        out[name] = float((idx[probs[sel][:, idx].argmax(axis=1)] == y[sel]).mean()) if sel.any() else 0.0
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reader.train", description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=12000, help="samples of each letter (default 12000)")
    parser.add_argument("--out", type=Path, default=letters.WEIGHTS)
    args = parser.parse_args(argv)
    try:
        train(args.per_class, args.out)
    except pen.MissingFonts as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
