"""Filling a printed Synthesis board by hand, for the photo set
(``bench/photos``): a seat's board from a game the engine played to the end
at random, each mark's true value, and the board shaded as markers (or
coloured pencils) shade it: strokes back and forth across a cell, in one
of several shades of each colour, over its edges now and then; a few lines
drawn on the formula too, as a game leaves them."""

from __future__ import annotations

import colorsys
from typing import Any

import numpy as np

from engine.synthesis.workloads import random_game
from reader import pen
from reader.maps import FaceMap


def finished(play: Any, seed: int) -> dict[str, Any]:
    """One board at the end of a game played at random (the seat and player count from ``seed``)."""
    players = 1 + seed % 4
    state = random_game(play, players, seed)
    seat = seed % players
    shown = play.view(state, None)["seats"][seat]
    letters = {c.id: c.letter for c in play.cards.rules.colours}
    data: dict[str, Any] = {"board": state.seats[seat].board, "side": state.side,
                            "table": ["".join(letters[c] for c in col) for col in shown["table"]]}
    boxes = {k: v for k, v in shown["elemental_boxes"].items() if v}
    if boxes:
        data["elemental"] = boxes
    return data


def sheet(data: dict[str, Any]) -> tuple[str, str, int]:
    """Which face a board is written on: ``(component, piece, side)``."""
    return "boards", data["board"].lower(), ("A", "B").index(data["side"])


def category(kind: str, value: Any) -> str:
    return "cells and boxes"


def truth(data: dict[str, Any], face: FaceMap) -> dict[tuple[str, str], Any]:
    out: dict[tuple[str, str], Any] = {}
    for m in face.of("cell"):
        v, r = (int(k) for k in m.name.split(":"))
        col = data["table"][v - 1] if v <= len(data["table"]) else ""
        out[("cell", m.name)] = col[r - 1] if r <= len(col) and col[r - 1] != "." else None
    letters = {"red": "r", "yellow": "y", "green": "g", "blue": "b"}
    for m in face.of("box"):
        shape, k = m.name.split(":")
        got = data.get("elemental", {}).get(shape, [])
        out[("box", m.name)] = letters.get(got[int(k) - 1], got[int(k) - 1]) if int(k) <= len(got) else None
    return out


def _shade(base: str, rng: np.random.Generator) -> tuple[float, float, float]:
    """A marker of colour ``base`` (an ink's hex): another maker's shade of it."""
    r, g, b = (int(base[i:i + 2], 16) / 255 for i in (1, 3, 5))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    h = (h + rng.normal(0, 0.018)) % 1.0
    s = float(np.clip(s * rng.uniform(0.8, 1.1), 0.3, 1))
    v = float(np.clip(v * rng.uniform(0.8, 1.1), 0.25, 1))
    return colorsys.hsv_to_rgb(h, s, v)


def _hatch(page: np.ndarray, rng, px: float, box, colour, tip_mm: float, alpha: float, grain: float) -> None:
    x, y, w, h = (v * px for v in box)
    over = rng.uniform(-0.15, 0.12) * w
    cover = rng.uniform(0.75, 1.0)
    canvas = np.zeros((int(h + 4 * px), int(w + 4 * px)), np.float32)
    o = 2 * px
    step = tip_mm * px * rng.uniform(0.55, 0.9)
    pts = []
    yy = o - over + tip_mm * px * 0.5
    left = True
    cap = tip_mm * px / 2   # the tip's round end reaches past where the stroke turns
    while yy < o + h * cover + over - cap:
        xa = o - over + cap + rng.normal(0, 0.2 * px)
        xb = o + w + over - cap + rng.normal(0, 0.2 * px)
        pts.append((xa, yy) if left else (xb, yy))
        pts.append((xb, yy + step * 0.5) if left else (xa, yy + step * 0.5))
        left = not left
        yy += step
    for p, q in zip(pts, pts[1:]):
        pen.line(canvas, p, q, tip_mm * px)
    canvas = np.clip(canvas, 0, 1) * alpha
    if grain:
        canvas *= 1 - grain * np.clip(np.abs(rng.normal(0, 1, canvas.shape)), 0, 1.5).astype(np.float32) * 0.6
    pen.lay(page, canvas, colour, int(x - o), int(y - o))


def draw(page: np.ndarray, face: FaceMap, px: float, data: dict[str, Any], rng: np.random.Generator,
         held_out: bool, inks: dict[str, str] | None = None) -> None:
    """Shade the board ``data`` onto ``page`` (the blank face, RGB float, ``px`` pixels a mm)."""
    inks = inks or {"r": "#d62839", "y": "#f2c200", "g": "#2e9e4f", "b": "#2a6fdb"}
    pencils = rng.random() < 0.25
    shades = {k: _shade(v, rng) for k, v in inks.items()}
    tip = rng.uniform(1.0, 2.2) if not pencils else rng.uniform(0.5, 0.8)
    alpha, grain = (rng.uniform(0.75, 0.95), 0.0) if not pencils else (rng.uniform(0.45, 0.7), 0.45)
    cells = face.named("cell")
    for v, col in enumerate(data["table"], 1):
        for r, ch in enumerate(col, 1):
            if ch != ".":
                _hatch(page, rng, px, cells[f"{v}:{r}"].box, shades[ch], tip, alpha, grain)
    names = {"red": "r", "yellow": "y", "green": "g", "blue": "b"}
    boxes = face.named("box")
    for shape, colours in data.get("elemental", {}).items():
        for k, c in enumerate(colours, 1):
            _hatch(page, rng, px, boxes[f"{shape}:{k}"].box, shades[names.get(c, c)], tip, alpha, grain)
    # lines drawn on the formula, above the table: a game's bonds, not read
    for _ in range(int(rng.integers(10, 40))):
        x, y = rng.uniform(30, 160) * px, rng.uniform(40, 150) * px
        a = rng.uniform(0, 2 * np.pi)
        canvas = np.zeros((int(12 * px), int(12 * px)), np.float32)
        c = 6 * px
        pen.line(canvas, (c, c), (c + np.cos(a) * 5 * px, c + np.sin(a) * 5 * px), 0.8 * px)
        pen.lay(page, canvas * alpha, shades[list(shades)[int(rng.integers(4))]], int(x - c), int(y - c))
