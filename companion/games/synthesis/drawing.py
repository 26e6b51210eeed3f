"""A Synthesis board as geometry for the phone's SVG, drawn like the printed
one (``templates/synthesis/_board.svg.j2``): the formula with every line in
the colour it was drawn, each molecule's volume (or its shading), the icons;
then the turn track, the volume table, the elemental boxes with the free
bond symbols, and the score formula.

Where each hexagon and line is comes from the engine (``game.geometry``,
the numbers the printer uses); what is drawn on it from the view. Units are
CSS pixels of a 360 px wide board; the SVG scales to its box. Nothing here
decides a rule.

The macros draw from ``Item`` objects, not dicts: Jinja reads ``line.x1``
as an attribute first, and a dict answers that with an exception before the
key is read (profiled: half of a formula's drawing time).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace as Item
from typing import Any

WIDTH = 360
PAD = 14
MAX_UNIT = 30
LOUPE_UNITS = 6.5
"""The loupe shows this many sides' lengths across: on a 390 px phone a line
is then about 50 px long, and its tap target (the rhombus between the two
hexagons it borders) about 50 x 87 px."""
SQRT3 = math.sqrt(3)


def _r(v: float) -> float:
    return round(v, 1) + 0.0


class Colours:
    """The marker colours of a card set: letter -> id, and each id's ink."""

    def __init__(self, cards: Any) -> None:
        self.by_letter = {c.letter: c.id for c in cards.rules.colours}
        self.ink = {c.id: c.ink for c in cards.rules.colours}
        self.order = {c.id: i for i, c in enumerate(cards.rules.colours)}
        self._looks: dict[str, Item] = {}

    def name(self, letter: str) -> str:
        return self.by_letter.get(letter, letter)

    def look(self, colour: str | None) -> Item | None:
        """A colour's ink and its stroke pattern (``p0``...: solid, dashed,
        dotted, dash-dot), so that a line's colour is never its only mark."""
        if colour is None:
            return None
        if colour not in self._looks:   # one per colour: a board has a hundred lines
            ink = self.ink.get(colour, "#777777")
            self._looks[colour] = Item(id=colour, ink=ink, on=on_ink(ink),
                                       pattern=f"p{self.order.get(colour, 0) % 4}", letter=colour[:1].upper())
        return self._looks[colour]


def on_ink(ink: str) -> str:
    """Black or white, whichever reads better on ``ink`` (yellow takes black)."""
    r, g, b = (int(ink[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#111111" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "#ffffff"


DISC_INNER, DISC_WORD_R, DISC_FONT = 76, 88, 15
"""The disc drawn for a phone: the ring from 76 to 100 units (printed, from
68), its colour words at 88, names in the name boxes at 15 units, as large
as the colours' words (synthesis.css), along the ring like them."""


def disc_names(names: list[str]) -> list[dict[str, Any]]:
    """The names of one name box (one, or two at five players and more) as
    written on the disc: each at its distance from the hub, squeezed
    (``squeeze``: the length to fit, or None) where a long name would reach
    the next box. A name is cut at 9 letters, as before. Plain data: the
    disc is kept by what it is drawn from, written as JSON (board.py).

    >>> [(n["text"], n["r"], n["squeeze"]) for n in disc_names(["Ada"])]
    [('Ada', 44, None)]
    >>> [(n["text"], n["r"], n["squeeze"]) for n in disc_names(["Bartholomew", "Ada"])]
    [('Bartholom', 57, 80), ('Ada', 34, None)]
    """
    radii = [44] if len(names) < 2 else [57, 34]
    out = []
    for name, r in zip(names, radii):
        text = name[:9]
        # the room along the ring at that distance: between the box's edges, inside the ring
        room = min(2 * (r - 7), 2 * math.sqrt(DISC_INNER ** 2 - (r + 7.5) ** 2))
        width = 0.62 * DISC_FONT * len(text)
        out.append({"text": text, "r": r, "squeeze": round(room) if width > room else None})
    return out


def hex_points(x: float, y: float, s: float) -> str:
    corners = [math.radians(-90 + 60 * k) for k in range(6)]
    return " ".join(f"{_r(x + s * math.cos(a))},{_r(y + s * math.sin(a))}" for a in corners)


def bond_lines(fig: dict[str, Any], cx: float, cy: float, size: float) -> Item:
    """A bond figure (engine ``bond_figure``) scaled to ``size`` px at ``(cx, cy)``."""
    k = size / max(fig["width"], fig["height"], 1.0)
    return Item(segments=[[_r(cx + x1 * k), _r(cy + y1 * k), _r(cx + x2 * k), _r(cy + y2 * k)]
                          for x1, y1, x2, y2 in fig["segments"]],
                dots=[[_r(cx + x * k), _r(cy + y * k)] for x, y in fig["dots"]], r=_r(max(1.2, size * 0.06)))


def placed(game: Any, geometry: dict[str, Any]) -> dict[str, Any]:
    """Where a board side's hexagons and lines are on the phone, and their
    tap targets: the same all game long, so made once per side (the marks
    on it are :func:`hexagons`' and :func:`line`'s)."""
    left, top, right, bottom = geometry["bounds"]
    u = min(MAX_UNIT, (WIDTH - 2 * PAD) / (right - left))
    height = _r((bottom - top) * u + 2 * PAD)
    ox = (WIDTH - (right - left) * u) / 2 - left * u

    def X(x: float) -> float:
        return _r(ox + x * u)

    def Y(y: float) -> float:
        return _r(PAD + (y - top) * u)

    hexagons = []
    start = None
    for hx in geometry["hexagons"]:
        x, y = X(hx["x"]), Y(hx["y"])
        item = {"label": hx["hexagon"], "x": x, "y": y, "points": hex_points(x, y, u), "kind": hx["kind"],
                "icon": hx["icon"], "label_y": _r(y + u * 0.72), "text_y": _r(y + u * 0.32), "size": _r(u * 0.78)}
        if hx["kind"] == "active" and hx["icon"] != "x2":
            item["bond"] = bond_lines(game.bond_figure(hx["icon"]), x, y, u * 0.62)
        if hx["kind"] == "start":
            start = (x, y)
        hexagons.append((hx, item))
    lines = []
    for e in geometry["lines"]:
        x1, y1, x2, y2 = X(e["x1"]), Y(e["y1"]), X(e["x2"]), Y(e["y2"])
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        nx, ny = (y1 - y2) / u, (x2 - x1) / u      # the unit normal
        h = SQRT3 / 2 * u
        hit = f"{x1},{y1} {_r(mx + nx * h)},{_r(my + ny * h)} {x2},{y2} {_r(mx - nx * h)},{_r(my - ny * h)}"
        lines.append((e, {"line": e["line"], "x1": x1, "y1": y1, "x2": x2, "y2": y2, "hit": hit,
                          "segment": f"M{x1} {y1}L{x2} {y2}"}))
    sx, sy = start if start else (WIDTH / 2, height / 2)
    loupe = Item(cx=_r(sx), cy=_r(sy), w=_r(u * LOUPE_UNITS), h=_r(u * LOUPE_UNITS * 0.72))
    return {"height": height, "unit": _r(u), "hexagons": hexagons, "lines": lines, "loupe": loupe,
            "frame": Item(width=WIDTH, height=height, loupe=loupe)}


def hexagons(where: dict[str, Any], shown: dict[str, Any], colours: Colours) -> Item:
    """The formula of one seat's board (``shown``: its entry in the view) as
    its hexagons, on the side's placement (``where``: :func:`placed`): what
    the molecules and the choices pending change. Its lines are drawn one by
    one (:func:`line`), each kept, since every bond changes some."""
    molecules = {m[0]: Item(colour=colours.name(m[1]), look=colours.look(colours.name(m[1])), volume=m[2],
                            elemental=m[3], row=m[4], turn=m[5]) for m in shown["molecules"]}
    pending = {p["hexagon"]: p for p in shown["pending"]}
    out = []
    for hx, fixed in where["hexagons"]:
        mol = molecules.get(hx["hexagon"])
        out.append(Item(**fixed, molecule=mol, pending=hx["hexagon"] in pending,
                        title=_hex_title(hx, mol, pending.get(hx["hexagon"]))))
    return Item(width=WIDTH, height=where["height"], unit=where["unit"], hexagons=out, loupe=where["loupe"])


def line_state(e: dict[str, Any], ch: str, colours: Colours) -> str:
    """A line as drawn: ``start``, ``printed``, ``open`` or its colour (``ch``: its letter in the view, or ".")."""
    return "start" if e["start"] else "printed" if e["printed"] else colours.name(ch) if ch != "." else "open"


def line(fixed: dict[str, Any], state: str, colours: Colours) -> Item:
    """One line of the formula (``fixed``: its place, from :func:`placed`) in ``state``."""
    return Item(**fixed, state=state, open=state == "open",
                look=colours.look(state) if state not in ("start", "printed", "open") else None)


def paths(where: dict[str, Any], states: list[str], colours: Colours) -> list[Item]:
    """The lines as one path per kind and colour (``states``: each line's
    :func:`line_state`): a board seen, not tapped, needs no element per line
    (everyone's boards go to every phone)."""
    groups: dict[str, list[str]] = {}
    for (_, fixed), state in zip(where["lines"], states):
        groups.setdefault(state, []).append(fixed["segment"])
    order = {"open": 0, "printed": 2, "start": 3}
    return [Item(state=state, look=colours.look(state) if state not in order else None, d="".join(d))
            for state, d in sorted(groups.items(), key=lambda kv: order.get(kv[0], 1))]


def _hex_title(hx: dict[str, Any], mol: Item | None, pending: dict[str, Any] | None) -> str:
    what = {"start": "the starting molecule S", "active": f"active molecule ({hx['icon']})",
            "elemental": f"{hx['icon']} hexagon", "plain": "hexagon"}[hx["kind"]]
    label = f"{hx['hexagon']}: {what}"
    if mol is None:
        return label
    if mol.elemental is None:
        return f"{label}, closed in {mol.colour}: shade it or not?"
    if mol.elemental:
        return f"{label}, a {mol.colour} elemental molecule"
    return f"{label}, a {mol.colour} molecule of volume {mol.volume}"


# --- the rest of the board: turn track, volume table, elemental boxes, score ----------------
@dataclass(frozen=True)
class PanelLayout:
    """Where the parts of a board's panel go, in CSS pixels of a 360 px wide
    board. :data:`PRINTED` keeps the printed board's proportions (the score
    boxes in one row); :data:`PHONE` is drawn for a phone's table, larger,
    its six score boxes three to a line, so that on a 360 px phone every word
    is 12 px at least (synthesis.css sizes the words for each)."""

    track_h: float
    cell: float
    table_x: float
    pairs_x: float
    pair: float                   # an elemental box's side
    pair_step: float              # between two elemental pairs
    head_dy: float                # the headers' baseline, above the volume table's top
    vol_dy: float                 # the volumes' numbers, under its bottom
    per_row: int                  # score boxes a line
    box_h: float
    box_gap: float
    gutter: float                 # left of a second line of score boxes: the sign it begins with
    label_dy: float
    value_dy: float

    @property
    def table_top(self) -> float:
        return 4 + 2 * (self.track_h + 3) + 36 + (self.head_dy - 24)


PRINTED = PanelLayout(track_h=20, cell=22, table_x=30, pairs_x=214, pair=26, pair_step=34, head_dy=24, vol_dy=13,
                      per_row=6, box_h=44, box_gap=6, gutter=0, label_dy=10, value_dy=30)
PHONE = PanelLayout(track_h=24, cell=24, table_x=30, pairs_x=218, pair=28, pair_step=36, head_dy=26, vol_dy=15,
                    per_row=3, box_h=50, box_gap=16, gutter=16, label_dy=16, value_dy=37)
TRACK_H = PHONE.track_h
SHORT = {"elemental": "Elemental", "chains": "Chains", "lines": "Rows+cols", "chain_card": "Chain card",
         "pattern_card": "Pattern card"}
"""The score boxes' labels where a phone has room for a word or two."""


def track_colours(shown: dict[str, Any], turns: int) -> list[str | None]:
    """The turn track's boxes: each played turn's colour, then empty boxes."""
    return shown["turn_track"] + [None] * (turns - len(shown["turn_track"]))


def turn_box(i: int, colour: str | None, turn: int, turns: int, colours: Colours,
             layout: PanelLayout = PHONE) -> Item:
    """Box ``i`` of the turn track (the turn ``i + 1``) in ``colour``, ``turn`` the turn now."""
    per_row = (turns + 1) // 2
    bw = (WIDTH - 8) / per_row
    t = i + 1
    x = 4 + (i % per_row) * bw
    return Item(turn=t, x=_r(x), cx=_r(x + bw / 2), y=4 + (i // per_row) * (layout.track_h + 3), w=_r(bw),
                look=colours.look(colour), now=t == turn)


def _score_boxes(boxes: list[tuple[str, str, str, Any]], top: float, layout: PanelLayout) -> tuple[list[Item], float]:
    """The score formula's boxes, ``per_row`` a line, each with the sign after
    it (+, then = before the total) between it and the next: in the gap on
    its line, or in the gutter that begins the next line."""
    n, per = len(boxes), layout.per_row
    sw = (WIDTH - 8 - layout.gutter - (per - 1) * layout.box_gap) / per if n > per else \
        (WIDTH - 8 - (per - 1) * layout.box_gap) / per
    left = 4 + (layout.gutter if n > per else 0)
    places = [(left + (i % per) * (sw + layout.box_gap), top + (i // per) * (layout.box_h + 8)) for i in range(n)]
    out = []
    for i, (k, label, short, value) in enumerate(boxes):
        x, y = places[i]
        op = "=" if i == n - 2 else "+" if i < n - 1 else ""
        if i + 1 < n and places[i + 1][1] == y:
            op_x, op_y = x + sw + layout.box_gap / 2, y
        elif i + 1 < n:
            op_x, op_y = places[i + 1][0] - layout.gutter / 2 - 2, places[i + 1][1]
        else:
            op_x, op_y = 0, y
        out.append(Item(key=k, label=label, short=short, value=value, x=_r(x), y=_r(y), w=_r(sw), op=op,
                        op_x=_r(op_x), op_y=_r(op_y + layout.box_h * 24 / 44)))
    return out, places[-1][1] + layout.box_h if places else top


def panel_size(geometry: dict[str, Any], layout: PanelLayout = PHONE, boxes: int = 6) -> Item:
    """The size of a board side's panel (:func:`panel`'s ``width`` and ``height``) with ``boxes`` score boxes."""
    bottom = layout.table_top + max(geometry["table"]) * layout.cell
    lines = -(-boxes // layout.per_row)
    return Item(width=WIDTH, height=bottom + 34 + lines * (layout.box_h + 8))


def panel(geometry: dict[str, Any], shown: dict[str, Any], turn: int, turns: int, score: Any,
          labels: list[tuple[str, str]], colours: Colours, layout: PanelLayout = PRINTED) -> Item:
    """Turn track, volume table, elemental boxes and score boxes of one board."""
    L = layout
    track = [turn_box(i, colour, turn, turns, colours, L) for i, colour in enumerate(track_colours(shown, turns))]
    heights = geometry["table"]
    tallest = max(heights)
    top = L.table_top
    cell = L.cell
    bottom = top + tallest * cell
    earned = shown["free_bonds"]["earned"]
    used = shown["free_bonds"]["used"]

    def symbol(name: str) -> dict[str, Any]:
        k = earned.index(name) if name in earned else None
        return {"earned": k is not None, "used": k is not None and k < used}

    cells = []
    for c, height in enumerate(heights):
        column = shown["table"][c]
        for r in range(height):
            colour = column[r] if r < len(column) else None
            cells.append(Item(x=L.table_x + c * cell, y=bottom - (r + 1) * cell, look=colours.look(colour),
                              title=f"Volume {c + 1}, row {r + 1}: {colour or 'empty'}"))
    columns = [Item(x=L.table_x + c * cell + cell / 2, top=bottom - h * cell - 9, volume=c + 1,
                    **symbol(f"column {c + 1}")) for c, h in enumerate(heights)]
    rows = [Item(y=bottom - (r + 0.5) * cell, **symbol(f"row {r + 1}")) for r in range(tallest)]
    pairs = []
    for i, shape in enumerate(geometry["pairs"]):
        filled = shown["elemental_boxes"].get(shape, [])
        y = top + i * L.pair_step
        pairs.append(Item(shape=shape, y=y, mid=_r(y + L.pair / 2),
                          boxes=[Item(x=_r(L.pairs_x + 26 + k * (L.pair + 4)), cx=_r(L.pairs_x + 26 + k * (L.pair + 4)
                                                                                    + L.pair / 2),
                                      look=colours.look(filled[k]) if k < len(filled) else None) for k in (0, 1)],
                          **symbol(f"pair {shape}")))
    # The engine's best linking, drawn over the table: each link of a chain
    # a bar across the edge two of its cells share (cells are [volume, row]),
    # leaving the cells' colour letters in sight.
    links = []
    for chain in (score.details.get("chains", []) if score is not None else []):
        centres = [(L.table_x + (v - 0.5) * cell, bottom - (r - 0.5) * cell) for v, r in chain]
        bars = [Item(x1=_r(x1 + (x2 - x1) * 0.3), y1=_r(y1 + (y2 - y1) * 0.3),
                     x2=_r(x1 + (x2 - x1) * 0.7), y2=_r(y1 + (y2 - y1) * 0.7))
                for (x1, y1), (x2, y2) in zip(centres, centres[1:])]
        links.append(Item(bars=bars, title=f"A chain of {len(chain)} molecules"))
    values = {line.key: line.points for line in score.lines} if score is not None else {}
    boxes = [(k, label, SHORT.get(k, label), values.get(k)) for k, label in labels]
    boxes.append(("total", "Total", "TOTAL", score.total if score is not None else None))
    score_y = bottom + 34
    boxes, end = _score_boxes(boxes, score_y, L)
    return Item(width=WIDTH, height=end + 8, track=track, track_h=L.track_h, cells=cells, cell=cell, links=links,
                columns=columns, rows=rows, row_x=L.table_x + len(heights) * cell + 14, table_top=top,
                table_x=L.table_x, bottom=bottom, pairs=pairs, pairs_x=L.pairs_x, pair=L.pair, boxes=boxes,
                score_y=score_y, box_h=L.box_h, head_y=top - L.head_dy, vol_y=bottom + L.vol_dy,
                label_dy=L.label_dy, value_dy=L.value_dy,
                free_left=shown["free_bonds"]["left"], free_used=used)
