"""Score a paper Synthesis board by tapping it in: the cells of the volume
table and the shaded elemental boxes in their markers' colours, the board
and side, the goal cards or the solo mode. Nobody types JSON.

What was tapped lives in the form's fields, so the page works without
JavaScript (a cell is then a submit button, one page per tap); with it, a
tap paints the cell in place (``synthesis-paper.js``) and htmx asks for the
finding. Either way the fields are turned into the JSON of
``docs/synthesis-table-format.md`` (:func:`board_json`) and scored by the
house's paper tool (:func:`companion.paper.run`, the engine's
``score_table``), and the finding is drawn the way a table draws a board
(:func:`companion.games.synthesis.drawing.panel`): the engine's best
linking of chains over the volume table, every score box, the solo verdict.
Nothing here decides a rule.

The fields: ``board``, ``side``, ``player``; ``t1`` ... ``t6``, each a
column's colour letters from the bottom up (``.`` an empty cell);
``e_<shape>``, a pair's two boxes (``r.``); ``mode``, ``difficulty``,
``project``, ``chain_card``, ``pattern_card``, ``pattern_points``; and,
without JavaScript, ``tap`` (``t:3:2`` volume 3 row 2, ``e:circle:1``)
painted with ``brush`` (a colour letter, or ``.`` to clear); the script
sets ``painted``, and then a ``tap`` is not applied again.

>>> from engine.synthesis.examples import example_cards
>>> cards = example_cards()
>>> t = read({"board": "A", "t1": "gg", "t2": "g", "e_circle": "g.", "brush": "r"}, cards)
>>> t = tap(t, "t:3:1")
>>> board_json(t, cards)["table"], board_json(t, cards)["elemental"]
(['gg', 'g', 'r', '', '', ''], {'circle': ['green']})
>>> apply_fix(t, "cell 1:2=r").columns[0][:2], apply_fix(t, "cell 1:1=").columns[0][:2]
(('g', 'r'), (None, 'g'))

A board read from a photo (``paper_photo.py``) comes back in these same
fields, with the marks the reader asked about (``asked``, those fixed since
in ``fixed``); a fix button sends ``fix`` (``cell 3:2=r``: volume 3, row 2
red; ``box circle:1=``: emptied), applied like a tap.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from types import SimpleNamespace as Item
from typing import Any, Mapping

from flask import render_template, request

from companion.games.synthesis.board import LEVEL_WORDS, card_names
from companion.games.synthesis.drawing import Colours, panel
from companion.games.synthesis.words import breakdown, solo
from engine.synthesis.state import LEVELS
from reader.review import asked_items

CLEAR = "."
MODES = (("standard", "Standard game"), ("first_steps", "Solo: First Steps"),
         ("predictable", "Solo: Predictable Results"), ("unpredictable", "Solo: Unpredictable Consequences"))
"""The modes the engine scores (``engine.synthesis.state.MODES``), in the rulebook's words."""
PROJECT = ("predictable", "unpredictable")
"""The modes played with a Project card; every mode but Predictable Results has goal cards."""
_POINTS = re.compile(r"[0-9]{1,4}")
_CELL = re.compile(r"t:([0-9]{1,2}):([0-9]{1,2})")
_BOX = re.compile(r"e:([a-z]{1,20}):([12])")
_FIX = re.compile(r"(cell|box) ([a-z0-9]{1,20}):([0-9]{1,2})=([a-z]?)")
_LONGEST = 16
"""A column field read no further than this: the tallest printed column is 7."""


@dataclass(frozen=True)
class Tapped:
    """A paper board as tapped in so far. ``grid`` is the layout the cells
    are drawn on: the board's, or the first one while the board named is
    not one (the scorer says so)."""

    board: str
    side: str
    grid: tuple[str, str]
    heights: tuple[int, ...]
    pairs: tuple[str, ...]
    columns: tuple[tuple[str | None, ...], ...]
    """Each column's colour letters from the bottom up (``None``: empty), as tall as the board prints it."""
    boxes: dict[str, tuple[str | None, str | None]]
    brush: str
    fields: dict[str, str] = field(default_factory=dict)
    """player, mode, difficulty, project, chain_card, pattern_card, pattern_points: as written."""
    dropped: tuple[str, ...] = ()
    """Cells coloured that this board does not print (the board was changed): named, not kept."""


def _text(form: Mapping[str, Any], key: str, default: str = "", longest: int = 40) -> str:
    value = form.get(key, default)
    return value.strip()[:longest] if isinstance(value, str) else default


def read(form: Mapping[str, Any], cards: Any) -> Tapped:
    """The board a form holds, on the layout it names (every value not a
    colour letter is an empty cell: the page writes nothing else)."""
    board, side = _text(form, "board", "A", 4), _text(form, "side", "A", 4)
    grid = (board, side) if (board, side) in cards.layouts else min(cards.layouts)
    layout = cards.layouts[grid]
    letters = {c.letter for c in cards.rules.colours}

    def cells(raw: str, n: int) -> list[str | None]:
        return [ch if ch in letters else None for ch in raw[:_LONGEST]] + [None] * n

    columns, dropped = [], []
    for v, height in enumerate(layout.table.heights, 1):
        got = cells(_text(form, f"t{v}", longest=_LONGEST), height)
        columns.append(tuple(got[:height]))
        dropped += [f"volume {v}, row {r}" for r, ch in enumerate(got[height:], height + 1) if ch]
    boxes = {}
    for shape in layout.pairs:
        got = cells(_text(form, f"e_{shape}", longest=2), 2)
        boxes[shape] = (got[0], got[1])
    brush = _text(form, "brush", longest=1)
    fields = {k: _text(form, k) for k in ("player", "mode", "difficulty", "project", "chain_card", "pattern_card",
                                          "pattern_points")}
    return Tapped(board, side, grid, layout.table.heights, layout.pairs, tuple(columns), boxes,
                  brush if brush in letters or brush == CLEAR else cards.rules.colours[0].letter, fields,
                  tuple(dropped))


def tap(t: Tapped, where: str) -> Tapped:
    """``t`` with one cell or box painted in the brush's colour (cleared if
    it is already that colour, or with the clearing brush). A tap on no
    cell of this board changes nothing."""
    cell, box = _CELL.fullmatch(where), _BOX.fullmatch(where)

    def paint(cells: tuple[str | None, ...], i: int) -> tuple[str | None, ...]:
        out = list(cells)
        out[i] = None if t.brush == CLEAR or out[i] == t.brush else t.brush
        return tuple(out)

    if cell and 1 <= int(cell[1]) <= len(t.columns) and 1 <= int(cell[2]) <= t.heights[int(cell[1]) - 1]:
        v, r = int(cell[1]), int(cell[2])
        columns = list(t.columns)
        columns[v - 1] = paint(columns[v - 1], r - 1)
        return replace(t, columns=tuple(columns))
    if box and box[1] in t.boxes:
        return replace(t, boxes={**t.boxes, box[1]: paint(t.boxes[box[1]], int(box[2]) - 1)})   # type: ignore[dict-item]
    return t


def apply_fix(t: Tapped, fix: str) -> Tapped:
    """``t`` with one cell or box set to a colour letter (or emptied), as a fix button says."""
    m = _FIX.fullmatch(fix or "")
    if m is None:
        return t
    kind, where, k, letter = m.groups()
    value = letter or None
    if kind == "cell" and where.isdigit() and 1 <= int(where) <= len(t.columns):
        col = list(t.columns[int(where) - 1])
        if 1 <= int(k) <= len(col):
            col[int(k) - 1] = value
            columns = list(t.columns)
            columns[int(where) - 1] = tuple(col)
            return replace(t, columns=tuple(columns))
    if kind == "box" and where in t.boxes and k in ("1", "2"):
        pair = list(t.boxes[where])
        pair[int(k) - 1] = value
        return replace(t, boxes={**t.boxes, where: (pair[0], pair[1])})
    return t


def board_json(t: Tapped, cards: Any) -> dict[str, Any]:
    """The board in the format of ``docs/synthesis-table-format.md``: what
    the page tapped in, and only the fields its mode plays with."""
    ids = {c.letter: c.id for c in cards.rules.colours}
    f = t.fields
    data: dict[str, Any] = {"game": "synthesis"}
    if f["player"]:
        data["player"] = f["player"]
    data.update(board=t.board, side=t.side,
                table=["".join(ch or CLEAR for ch in col).rstrip(CLEAR) for col in t.columns])
    elemental = {shape: [ids[ch] for ch in pair if ch] for shape, pair in t.boxes.items() if any(pair)}
    if elemental:
        data["elemental"] = elemental
    mode = f["mode"] or "standard"
    if mode != "standard":
        data["mode"] = mode
    if mode == "first_steps" and f["difficulty"]:
        data["difficulty"] = f["difficulty"]
    if mode in PROJECT and f["project"]:
        data["project"] = f["project"]
    if mode != "predictable":
        for key in ("chain_card", "pattern_card"):
            if f[key]:
                data[key] = f[key]
        if f["pattern_points"]:
            points = f["pattern_points"]
            data["pattern_points"] = int(points) if _POINTS.fullmatch(points) else points   # the scorer names it
    return data


# --- what the page shows ------------------------------------------------------------------------
def _grid(t: Tapped, colours: Colours, cards: Any) -> dict[str, Any]:
    letters = {c.letter: c.id for c in cards.rules.colours}

    def cell(letter: str | None, what: str) -> Item:
        colour = letters.get(letter) if letter else None
        return Item(letter=letter or "", look=colours.look(colour), label=f"{what}: {colour or 'empty'}")

    tallest = max(t.heights)
    columns = [Item(volume=v, height=h,
                    cells=[Item(row=r, **vars(cell(t.columns[v - 1][r - 1], f"Volume {v}, row {r}")))
                           for r in range(h, 0, -1)],
                    written="".join(ch or CLEAR for ch in t.columns[v - 1]).rstrip(CLEAR))
               for v, h in enumerate(t.heights, 1)]
    pairs = [Item(shape=s, boxes=[Item(box=k + 1, **vars(cell(t.boxes[s][k], f"{s.capitalize()} box {k + 1}")))
                                  for k in (0, 1)],
                  written="".join(ch or CLEAR for ch in t.boxes[s]).rstrip(CLEAR))
             for s in t.pairs]
    return {"columns": columns, "pairs": pairs, "tallest": tallest}


def _finding(game: Any, sent: dict[str, Any], report: dict[str, Any], colours: Colours) -> dict[str, Any]:
    """The engine's finding drawn: the board's panel with the best linking,
    and the score boxes in words."""
    cards = game.cards
    d = report["data"]
    score = Item(lines=[Item(**line) for line in d["lines"]], total=d["total"], details=d["details"])
    shown = {"turn_track": [], "table": [[colours.name(ch) for ch in col] for col in sent["table"]],
             "elemental_boxes": {s: list(v) for s, v in sent.get("elemental", {}).items()},
             "free_bonds": {"earned": [], "used": 0, "left": 0}}
    labels = [(b.key, b.label) for b in cards.rules.score_boxes]
    drawn = panel(game.geometry(sent["board"], sent.get("side", "A")), shown, 0, game.rules.turns, score, labels,
                  colours)
    # Two views of the one drawing: the volume table up close (its chains
    # are what a player checks), and the row of score boxes.
    x, y = drawn.table_x - 8, drawn.table_top - 30
    table_view = f"{x} {y} {len(drawn.columns) * drawn.cell + 16} {drawn.bottom + 20 - y}"
    boxes_view = f"0 {drawn.score_y - 3} {drawn.width} 50"
    pts = cards.rules.elemental_points
    names = card_names(cards)
    lines = breakdown(score, shown, cards.points, lambda n: pts.pair if n >= 2 else pts.one if n else 0, names)
    for line in lines:
        if line["key"] == "pattern_card" and sent.get("pattern_card"):
            # the formula is not on paper here: the points are the player's count, not molecules found
            line["items"] = [f"{names.get(sent['pattern_card'])}: {sent.get('pattern_points')} counted on your "
                             f"formula, {line['points']} scored"]
    return {"name": d["player"], "total": d["total"], "summary": report["summary"], "panel": drawn,
            "table_view": table_view, "boxes_view": boxes_view,
            "lines": lines,
            "solo": solo(score, names), "longest": d["details"].get("longest_chain", 0),
            "elementals": d["details"].get("elemental_molecules", 0)}


def context(t: Tapped, **kw: Any) -> dict[str, Any]:
    from companion.web import get_referee

    game = get_referee().game("synthesis")
    cards = game.cards
    colours = Colours(cards)
    palette = [Item(letter=c.letter, id=c.id, ink=c.ink, on=colours.look(c.id).on) for c in cards.rules.colours]
    ctx: dict[str, Any] = {
        "title": game.title, "t": t, "palette": palette, **_grid(t, colours, cards),
        "boards": sorted({b for b, _ in cards.layouts}), "sides": sorted({s for _, s in cards.layouts}),
        "modes": MODES, "levels": [(k, LEVEL_WORDS[v]) for k, v in LEVELS.items()],
        "chains": [c.row for c in cards.chains.values()], "patterns": [c.row for c in cards.patterns.values()],
        "projects": [c.row for c in cards.projects.values()],
        "result": None, "problems": None, "text": "", "oob": False, "redraw": False,
        "photo": None, "photo_error": None, "asked": "", "fixed": "",
    }
    sent, report = kw.pop("sent", None), kw.get("report")
    if report is not None and sent is not None:
        ctx["result"] = _finding(game, sent, report, colours)
    ctx.update(kw)
    ctx["asked_items"] = asked_items(ctx["asked"], ctx["fixed"])
    return ctx


def paper_page() -> str:
    from companion.web import get_referee

    t = read(request.args, get_referee().game("synthesis").cards)
    return render_template("synthesis/paper.html", **context(t))


def paper_submit() -> Any:
    """Score the board the form holds (after the tap it carries, without
    JavaScript): the finding alone for htmx (and the cells again when the
    board they are drawn on changed), else the whole page."""
    from companion import paper as house
    from companion.security import rate_limit
    from companion.web import get_referee

    rate_limit("paper")
    cards = get_referee().game("synthesis").cards
    t = read(request.form, cards)
    # A page whose script paints the taps says so (``painted``): htmx then still
    # sends the last cell button tapped (it keeps the button that has the focus,
    # as a tap on Android gives it), and that tap is already in the fields.
    where = "" if request.form.get("painted") else _text(request.form, "tap")
    if where:
        t = tap(t, where)
    fix = "" if request.form.get("painted") else _text(request.form, "fix")
    fixed = _text(request.form, "fixed", longest=2000)
    if fix:
        t = apply_fix(t, fix)
        fixed = f"{fixed}|{fix.split('=')[0]}".strip("|")
        where = where or fix
    sent = board_json(t, cards)
    text = json.dumps(sent, ensure_ascii=False)
    status, report, problems = house.run("synthesis", "score", text)
    redraw = bool(where) or _text(request.form, "drawn") != "".join(t.grid) or bool(t.dropped)
    ctx = context(t, sent=sent, report=report, problems=problems, text=text, redraw=redraw,
                  asked=_text(request.form, "asked", longest=20000), fixed=fixed)
    if request.headers.get("HX-Request") == "true":
        return render_template("synthesis/_paper_result.html", **{**ctx, "oob": True}), status
    return render_template("synthesis/paper.html", **ctx), status
