"""Filling a printed note sheet by hand, for the photo set (``bench/photos``):
a seat's sheet from a game the engine played to the end at random, each
mark's true value, and the sheet written on the blank face as a player's
pencil (or pen) does: letters in the spaces, one to three strokes in a
bond's gap (sometimes short, sometimes over the circles' edges), burned
spaces filled in, letters in the trash cans, a check and the points beside
a claimed notecard, the tools track crossed off."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from engine.labnotes.paper import sheet_to_dict
from engine.rng import Rng
from reader import pen
from reader.maps import FaceMap


def finished(play: Any, seed: int) -> dict[str, Any]:
    """One seat's sheet at the end of a game played at random (the seat and player count from ``seed``)."""
    rng = Rng(seed)
    players = 2 + seed % 4
    state = play.setup(players, seed)
    while not play.is_over(state):
        seat = rng.choice(play.to_move(state))
        state = play.apply(state, seat, rng.choice(play.actions(state, seat)))
    data = json.loads(json.dumps(sheet_to_dict(state.seats[seed % players])))
    data["notecards"] = [{"points": c["points"]} for c in data["notecards"]]   # the card's name is not written
    return data


def sheet(data: dict[str, Any]) -> tuple[str, str, int]:
    """Which face a sheet is written on: ``(component, piece, side)``."""
    return "note-sheets", "-", 0


def category(kind: str, value: Any) -> str:
    """Which figure of ``make bench`` a mark counts in."""
    if kind == "space":
        return "other marks" if value == "x" else "elements"
    return "bond orders" if kind == "bond" else "other marks"


def truth(data: dict[str, Any], face: FaceMap) -> dict[tuple[str, str], Any]:
    """Every mark's value on the sheet ``data`` describes, as the reader gives it."""
    out: dict[tuple[str, str], Any] = {}
    burned = set(data.get("burned", []))
    for m in face.of("space"):
        out[("space", m.name)] = data["elements"].get(m.name) or ("x" if m.name in burned else None)
    orders = {frozenset((a, b)): o for a, b, o in data["bonds"]}
    for m in face.of("bond"):
        out[("bond", m.name)] = orders.get(frozenset(m.name.split()), 0)
    trash = data.get("trash", [])
    for m in face.of("trash"):
        k = int(m.name) - 1
        out[("trash", m.name)] = trash[k] if k < len(trash) else None
    cards = data.get("notecards", [])
    for m in face.of("check"):
        out[("check", m.name)] = int(m.name) <= len(cards)
    for m in face.of("points"):
        k = int(m.name) - 1
        out[("points", m.name)] = cards[k]["points"] if k < len(cards) else None
    tools = sorted(face.of("tool"), key=_track_order)
    for i, m in enumerate(tools):
        out[("tool", m.name)] = i < data.get("tool_marks", 0)
    return out


def _track_order(m) -> tuple[int, int]:
    group, k = m.name.split(":")
    return int(group), int(k)


def _centre(face_px: float, mark) -> tuple[float, float]:
    x, y = mark.centre
    return x * face_px, y * face_px


def _write(page: np.ndarray, ch: str, hand: pen.Hand, rng, px: float, at: tuple[float, float], height: float) -> None:
    a = pen.glyph(ch, hand, rng, px, height)
    ys, xs = np.nonzero(a > 0.05)
    if not len(ys):
        return
    cy, cx = ys.mean(), xs.mean()
    x = int(round(at[0] - cx + rng.normal(0, 0.4 * px)))
    y = int(round(at[1] - cy + rng.normal(0, 0.4 * px)))
    pen.lay(page, a, hand.colour, x, y)


def _strokes(page: np.ndarray, hand: pen.Hand, rng, px: float, segments) -> None:
    """Straight strokes (each ``(p, q)`` in pixels) in one go of the pen."""
    xs = [v for p, q in segments for v in (p[0], q[0])]
    ys = [v for p, q in segments for v in (p[1], q[1])]
    pad = int(2 * px)
    x0, y0 = int(min(xs)) - pad, int(min(ys)) - pad
    canvas = np.zeros((int(max(ys)) - y0 + pad, int(max(xs)) - x0 + pad), np.float32)
    for p, q in segments:
        pen.line(canvas, (p[0] - x0, p[1] - y0), (q[0] - x0, q[1] - y0), hand.pen_mm * px)
    canvas *= pen.pressure_map(canvas.shape, hand, rng)
    pen.lay(page, canvas, hand.colour, x0, y0)


def _bond(page, hand, rng, px, line, order: int) -> None:
    x1, y1, x2, y2 = (v * px for v in line)
    d = np.array([x2 - x1, y2 - y1])
    length = float(np.hypot(*d))
    u = d / length
    n = np.array([-u[1], u[0]])
    gap = rng.uniform(0.9, 1.6) * px
    centre = rng.normal(0, 0.25 * px)
    segments = []
    for k in range(order):
        off = centre + (k - (order - 1) / 2) * gap
        t0, t1 = rng.uniform(-0.25, 0.15), rng.uniform(0.85, 1.25)
        tilt = rng.normal(0, 0.04)
        p = np.array([x1, y1]) + u * length * t0 + n * (off - tilt * length / 2)
        q = np.array([x1, y1]) + u * length * t1 + n * (off + tilt * length / 2)
        segments.append((tuple(p), tuple(q)))
    _strokes(page, hand, rng, px, segments)


def _fill_in(page, hand, rng, px, cx, cy, r) -> None:
    """A burned space: filled in with close strokes across it."""
    angle = rng.uniform(0, np.pi)
    u, n = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
    step = hand.pen_mm * px * rng.uniform(0.6, 1.0)
    segments = []
    for off in np.arange(-r, r, step):
        half = np.sqrt(max(r * r - off * off, 0)) * rng.uniform(0.85, 1.1)
        c = np.array([cx, cy]) + n * off
        segments.append((tuple(c - u * half), tuple(c + u * half)))
    _strokes(page, hand, rng, px, segments)


def _tick(page, hand, rng, px, box) -> None:
    x, y, w, h = (v * px for v in box)
    kind = rng.integers(3)
    if kind == 0:    # a tick
        segs = [((x + 0.15 * w, y + 0.5 * h), (x + 0.4 * w, y + 0.85 * h)), ((x + 0.4 * w, y + 0.85 * h), (x + 0.95 * w, y))]
    elif kind == 1:  # a cross
        segs = [((x + 0.1 * w, y + 0.1 * h), (x + 0.9 * w, y + 0.9 * h)), ((x + 0.9 * w, y + 0.1 * h), (x + 0.1 * w, y + 0.9 * h))]
    else:            # a slash
        segs = [((x + 0.1 * w, y + 0.9 * h), (x + 0.9 * w, y + 0.1 * h))]
    jitter = lambda p: (p[0] + rng.normal(0, 0.2 * px), p[1] + rng.normal(0, 0.2 * px))  # noqa: E731
    _strokes(page, hand, rng, px, [(jitter(p), jitter(q)) for p, q in segs])


def draw(page: np.ndarray, face: FaceMap, px: float, data: dict[str, Any], rng: np.random.Generator,
         held_out: bool) -> None:
    """Write the sheet ``data`` onto ``page`` (the blank face, RGB float, ``px`` pixels a mm) in one hand."""
    hand = pen.random_hand(rng, held_out)
    spaces = face.named("space")
    for label, ch in data["elements"].items():
        cx, cy, r = spaces[label].circle
        _write(page, ch, hand, rng, px, (cx * px, cy * px), r * rng.uniform(0.95, 1.35))
    for label in data.get("burned", []):
        cx, cy, r = spaces[label].circle
        _fill_in(page, hand, rng, px, cx * px, cy * px, r * px * rng.uniform(0.85, 1.0))
    bonds = {frozenset(m.name.split()): m for m in face.of("bond")}
    for a, b, order in data["bonds"]:
        _bond(page, hand, rng, px, bonds[frozenset((a, b))].line, order)
    cans = sorted(face.of("trash"), key=lambda m: int(m.name))
    for m, ch in zip(cans, data.get("trash", [])):
        _write(page, ch, hand, rng, px, _centre(px, m), m.box[3] * rng.uniform(0.55, 0.8))
    checks = sorted(face.of("check"), key=lambda m: int(m.name))
    points = sorted(face.of("points"), key=lambda m: int(m.name))
    for c, p, card in zip(checks, points, data.get("notecards", [])):
        _tick(page, hand, rng, px, c.box)
        _write(page, str(card["points"]), hand, rng, px, _centre(px, p), p.box[3] * rng.uniform(0.8, 1.15))
    for m in sorted(face.of("tool"), key=_track_order)[:data.get("tool_marks", 0)]:
        _tick(page, hand, rng, px, m.box)
