"""Reading a photo of a Synthesis board: each cell of the molecular volume
table and each elemental box, empty or shaded with one of the four
markers, into the format of ``docs/synthesis-table-format.md`` (board and
side from the board's code and markers; the goal cards are chosen on the
page, as when tapping it in).

A colour is told by its hue against the card set's marker inks, after the
light is corrected from the paper's white. The rules make a reading unsure
that they forbid: "You must fill the lowest cell, so a cell colored out of
order is illegal": a shaded cell above an empty one asks about both.
"""

from __future__ import annotations

import colorsys
from typing import Any

from reader import marks
from reader.page import Sheet
from reader.read import GameReader
from reader.reading import Read, Reading, doubt

SIDES = ("A", "B")
"""The board's front is side A, its back side B (the boards component of game.yaml)."""
SURE = 0.6


def palette(cards: Any) -> list[marks.Colour]:
    """The markers' colours, each with the hue of its ink in the card set."""
    out = []
    for c in cards.rules.colours:
        r, g, b = (int(c.ink[i:i + 2], 16) / 255 for i in (1, 3, 5))
        out.append(marks.Colour(c.letter, colorsys.rgb_to_hsv(r, g, b)[0] * 360))
    return out


def read(sheet: Sheet, play: Any, hint: dict[str, Any]) -> Reading:
    colours = palette(play.cards)
    face = sheet.face
    cells: dict[tuple[int, int], Read] = {}
    for m in face.of("cell"):
        v, r = (int(k) for k in m.name.split(":"))
        value, conf, choices = marks.colour(sheet, m, colours)
        cells[(v, r)] = Read("cell", m.name, value, conf, tuple(dict.fromkeys(choices)), SURE,
                             label=f"Volume {v}, row {r}")
    boxes: list[Read] = []
    for m in face.of("box"):
        shape, k = m.name.split(":")
        value, conf, choices = marks.colour(sheet, m, colours)
        boxes.append(Read("box", m.name, value, conf, tuple(dict.fromkeys(choices)), SURE,
                          label=f"{shape.capitalize()} box {k}"))
    # "You must fill the lowest cell": a shaded cell above an empty one is asked about, and so is the gap
    for (v, r), read_ in list(cells.items()):
        below = cells.get((v, r - 1))
        if read_.value is not None and below is not None and below.value is None:
            cells[(v, r)] = doubt(read_, "a cell shaded above an empty one: the rules fill each column from the bottom")
            cells[(v, r - 1)] = doubt(below, "an empty cell under a shaded one: the rules fill each column from the bottom")
    side = sheet.code.side if sheet.code and sheet.code.side in SIDES else SIDES[face.side]
    reading = Reading("synthesis", face.component, face.piece, face.side, [cells[k] for k in sorted(cells)] + boxes,
                      {}, side_name=side)
    reading.data = to_data(reading, reading.marks, play)
    return reading


def to_data(reading: Reading, reads: list[Read], play: Any) -> dict[str, Any]:
    """The board in its paper format, from its marks' values."""
    names = {c.letter: c.id for c in play.cards.rules.colours}
    cells = {tuple(int(k) for k in r.name.split(":")): r.value for r in reads if r.kind == "cell"}
    table = []
    for v in range(1, max((v for v, _ in cells), default=0) + 1):
        height = max(r for vv, r in cells if vv == v)
        table.append("".join(cells[(v, r)] or "." for r in range(1, height + 1)).rstrip("."))
    elemental: dict[str, list[str]] = {}
    for b in reads:
        if b.kind == "box" and b.value is not None:
            elemental.setdefault(b.name.split(":")[0], []).append(names[b.value])
    data: dict[str, Any] = {"game": "synthesis", "board": reading.piece.upper(), "side": reading.side_name, "table": table}
    if elemental:
        data["elemental"] = elemental
    return data


def words(read_: Read, value: Any) -> str:
    return {"r": "red", "y": "yellow", "g": "green", "b": "blue"}.get(value, "empty") if value else "empty"


READER = GameReader(read=read, data=to_data, words=words, piece_matters=True, piece_words="board",
                    fill="reader.games.synthesis.fill")
