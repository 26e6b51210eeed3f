"""Reading a photo of a Lab Notes note sheet into the format of
``docs/labnotes-sheet-format.md``: each space's element (H, O, N or C in
the player's hand, burned when filled in, or empty), each bond's order (the
strokes in the gap between two spaces), the trash cans, the notecard boxes
(a check and the points written beside it) and the tools track.

What the rules forbid is asked about, never scored in silence: a bond to a
space with no element, an element with more bonds than it takes (H 1, O 2,
N 3, C 4), a trash can or a notecard box filled below an empty one, a box
checked without its points (or points without the check), more tools-track
marks than spaces open.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from engine.chem import ELEMENT_NAMES
from engine.labnotes.state import VALENCE
from reader import marks
from reader.page import Sheet
from reader.read import GameReader
from reader.reading import Read, Reading, doubt

ELEMENTS = "HONC"
POINTS = "631"
BURNED = "x"
MIN_LETTER = 0.02
"""Less ink than this share of a space, or ink under a third of its width across, is no letter."""
BURN_SHARE = 0.6
"""A space this much inked is filled in: burned (a letter, even a heavy one, covers under a third)."""
SURE_LETTER, SURE_BOND, SURE_MARK = 0.9, 0.7, 0.7
CLEAR_LETTER = 0.97
"""A letter read this surely: when its bonds are too many, the bonds are asked about too."""
WIDE = 1.6
"""A bond's strokes this much wider than the sheet's single strokes: perhaps two drawn close."""


def _space(sheet: Sheet, m) -> Read:
    cx, cy, r = m.circle
    dark = marks.ink(sheet, cx - r, cy - r, cx + r, cy + r)
    mask = marks.circle_mask(dark.shape, (r - 0.55) * sheet.px)
    dark = np.where(mask, dark, 0)
    share = marks.coverage(dark, mask)
    if share >= BURN_SHARE:
        conf = min(1.0, 0.5 + (share - BURN_SHARE) * 3)
        best, _, ranked = marks.letter(dark, ELEMENTS)
        return Read("space", m.name, BURNED, conf, (BURNED, *ranked), SURE_LETTER, label=f"Space {m.name}")
    inked = dark > marks.INKED
    rows, cols = np.nonzero(inked)
    tall = max(np.ptp(rows), np.ptp(cols)) / max(1, dark.shape[0]) if len(rows) else 0.0
    # a letter fills a good part of its circle; a bond's stroke end reaching in does not
    best, conf, ranked = marks.letter(dark, ELEMENTS) if share >= MIN_LETTER and tall >= 0.3 else (None, 1.0, [])
    if best is None:
        return Read("space", m.name, None, 1.0 - min(0.5, share * 10), (None, *ELEMENTS), SURE_LETTER,
                    label=f"Space {m.name}")
    if share > 0.4:   # half filled: burned, or a heavy letter
        conf = min(conf, 0.5)
    return Read("space", m.name, best, conf, (*ranked, BURNED, None), SURE_LETTER, label=f"Space {m.name}")


def _box(sheet: Sheet, m, threshold: float) -> tuple[bool, float, np.ndarray]:
    dark = marks.ink(sheet, *marks.inside(m, 0.5), grow_px=2)
    share = marks.coverage(dark)
    return share >= threshold, min(1.0, abs(share - threshold) / threshold + 0.4), dark


def read(sheet: Sheet, play: Any, hint: dict[str, Any]) -> Reading:
    face = sheet.face
    spaces = {m.name: _space(sheet, m) for m in face.of("space")}
    bonds, widths = {}, {}
    for m in face.of("bond"):
        count, conf, choices, widths[m.name] = marks.strokes(sheet, m.line)
        bonds[m.name] = Read("bond", m.name, count, conf, tuple(dict.fromkeys(choices)), SURE_BOND,
                             label=f"Bond {m.name.replace(' ', '–')}")
    _wide(bonds, widths)
    _check_bonds(spaces, bonds)
    trash = []
    for m in sorted(face.of("trash"), key=lambda m: int(m.name)):
        inked, conf, dark = _box(sheet, m, 0.03)
        best, lconf, ranked = marks.letter(dark, ELEMENTS) if inked else (None, conf, [])
        trash.append(Read("trash", m.name, best, min(conf, lconf) if best else conf,
                          (*ranked, None) if best else (None, *ELEMENTS), SURE_LETTER, label=f"Trash can {m.name}"))
    checks, points = [], []
    for m in sorted(face.of("check"), key=lambda m: int(m.name)):
        inked, conf, _ = _box(sheet, m, 0.08)
        checks.append(Read("check", m.name, inked, conf, (inked, not inked), SURE_MARK, label=f"Notecard box {m.name}"))
    for m in sorted(face.of("points"), key=lambda m: int(m.name)):
        inked, conf, dark = _box(sheet, m, 0.03)
        best, lconf, ranked = marks.letter(dark, POINTS) if inked else (None, conf, [])
        points.append(Read("points", m.name, int(best) if best else None, min(conf, lconf) if best else conf,
                           tuple([int(c) for c in ranked] + [None]) if best else (None, 6, 3, 1), SURE_LETTER,
                           label=f"Points beside notecard box {m.name}"))
    tools = []
    for m in face.of("tool"):
        inked, conf, _ = _box(sheet, m, 0.08)
        tools.append(Read("tool", m.name, inked, conf, (inked, not inked), SURE_MARK, label=f"Tools track {m.name}"))
    trash = _in_order(trash, "a trash can filled below an empty one: cans fill from the top")
    checks = _in_order(checks, "a notecard box checked below an empty one: boxes are checked from the top",
                       filled=lambda r: bool(r.value))
    for i, (c, p) in enumerate(zip(checks, points)):
        if bool(c.value) != (p.value is not None):
            checks[i] = doubt(c, "a notecard box and its points disagree: a claimed notecard has both")
            points[i] = doubt(p, "a notecard box and its points disagree: a claimed notecard has both")
    claimed = sum(1 for c in checks if c.value)
    track = play.data.sheet.tools_track
    opened = track.open + sum(track.opened_by_notecard[:claimed])
    if sum(1 for t in tools if t.value) > opened:
        tools = [doubt(t, f"more tools-track marks than the {opened} spaces open") if t.value else t for t in tools]
    reading = Reading("labnotes", face.component, face.piece, face.side,
                      [*spaces.values(), *bonds.values(), *trash, *checks, *points, *tools], {})
    reading.data = to_data(reading, reading.marks, play)
    return reading


def to_data(reading: Reading, reads: list[Read], play: Any) -> dict[str, Any]:
    """The sheet in its paper format, from its marks' values."""
    of = {kind: [r for r in reads if r.kind == kind] for kind in ("space", "bond", "trash", "check", "points", "tool")}
    order = lambda r: int(r.name)  # noqa: E731
    checks, points = sorted(of["check"], key=order), sorted(of["points"], key=order)
    return {
        "game": "labnotes",
        "elements": {r.name: r.value for r in sorted(of["space"], key=lambda r: r.name) if r.value in VALENCE},
        "bonds": [[*r.name.split(), r.value] for r in sorted(of["bond"], key=lambda r: r.name) if r.value],
        "burned": sorted(r.name for r in of["space"] if r.value == BURNED),
        "trash": [r.value for r in sorted(of["trash"], key=order) if r.value],
        "notecards": [{"points": p.value} for c, p in zip(checks, points) if c.value and p.value is not None],
        "tool_marks": sum(1 for t in of["tool"] if t.value),
    }


def _wide(bonds: dict[str, Read], widths: dict[str, float]) -> None:
    """A bond whose strokes look much wider than this hand's single strokes may be
    two (or three) drawn close: asked about, the next order offered first."""
    singles = [widths[k] for k, r in bonds.items() if r.value == 1 and widths[k] > 0]
    if len(singles) < 3:
        return
    usual = float(np.median(singles))
    for k, r in bonds.items():
        if r.value and r.value < 3 and widths[k] > WIDE * usual:
            bonds[k] = replace(r, confidence=min(r.confidence, 0.5),
                               choices=tuple(dict.fromkeys((r.value, r.value + 1, *r.choices))))


def _check_bonds(spaces: dict[str, Read], bonds: dict[str, Read]) -> None:
    """Bonds to a space with no element, and elements with more bonds than they take: asked about."""
    used: dict[str, int] = {}
    for name, b in bonds.items():
        if not b.value:
            continue
        a, c = name.split()
        empty = [s for s in (a, c) if spaces[s].value not in VALENCE]
        if empty:
            bonds[name] = doubt(b, f"a bond to {' and '.join(empty)}, where no element is written")
            for s in empty:
                spaces[s] = doubt(spaces[s], "a bond is drawn to it, but no element is read")
        for s in (a, c):
            used[s] = used.get(s, 0) + b.value
    for s, n in used.items():
        e = spaces[s].value
        if e in VALENCE and n > VALENCE[e]:
            why = f"{ELEMENT_NAMES[e]} takes {VALENCE[e]} bond{'s' if VALENCE[e] > 1 else ''}, {n} are read at {s}"
            # the letter is asked about, the ones that take that many bonds offered first; its
            # bonds too when the letter is clear (then a stroke too many is likelier)
            fits = [c for c in spaces[s].choices if c in VALENCE and VALENCE[c] >= n]
            spaces[s] = doubt(replace(spaces[s], choices=tuple(dict.fromkeys((*fits, *spaces[s].choices)))), why)
            if spaces[s].confidence >= CLEAR_LETTER:
                for name in bonds:
                    if s in name.split() and bonds[name].value:
                        bonds[name] = doubt(bonds[name], why)


def _in_order(reads: list[Read], why: str, filled=lambda r: r.value is not None) -> list[Read]:
    out = list(reads)
    for i in range(1, len(out)):
        if filled(out[i]) and not filled(out[i - 1]):
            out[i] = doubt(out[i], why)
            out[i - 1] = doubt(out[i - 1], why)
    return out


BOND_WORDS = {0: "no bond", 1: "single bond", 2: "double bond", 3: "triple bond"}


def words(read_: Read, value: Any) -> str:
    """A mark's value as a player says it."""
    if read_.kind == "bond":
        return BOND_WORDS.get(value, str(value))
    if read_.kind in ("check", "tool"):
        return "marked" if value else "blank"
    if value is None:
        return "empty"
    if value == BURNED:
        return "burned"
    if read_.kind == "points":
        return f"{value} points"
    return f"{value} ({ELEMENT_NAMES.get(value, value)})"


READER = GameReader(read=read, data=to_data, words=words, fill="reader.games.labnotes.fill")
