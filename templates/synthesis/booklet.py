"""What only Synthesis knows about its rules booklet (docs/design/booklets.md):
what its setup deals per player count, the table set up, the worked example
scored by the engine, and the finished board of that example drawn from
the engine's own geometry.

The worked example is a real game: one player, board E side A, Twin Pairs
and First Shell, played to the end by the engine's greedy robot (seed 1,
shading every elemental molecule it could). ``booklet-example.json`` beside
this file keeps that game's setup and every action; the example's state is
that game replayed through the engine's ``apply``, which refuses an illegal
action, so the example cannot show a board the rules do not reach; every
number the booklet prints is scored from it here.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).with_name("booklet-example.json")
SEED = 1
"""The setup drawn for the table: any seed deals the same counts."""


# --- setup ---------------------------------------------------------------------------
def setup_quantities(game: Any, players: int) -> dict[str, int | str]:
    """What an ordinary game (not a first game) deals for ``players``."""
    state = game.setup(players, SEED)
    boxes = Counter(seat.box for seat in state.seats)
    return {
        "Boards": len({seat.board for seat in state.seats}),
        "Name boxes used": len(boxes),
        "Names per box": max(boxes.values()),
        "Goal cards": sum(card is not None for card in (state.chain_card, state.pattern_card)),
    }


def setup_figure(book: Any, players: int) -> str:
    """The table for ``players``: the disc, the dice and the two goal cards
    in the middle, a board (side A) in front of each player, all the pieces
    as the build prints them."""
    state = book.game.setup(players, SEED)
    width = 180.0
    parts: list[str] = []
    # The middle: the disc (ring and names), the two dice nets, the goal cards.
    ring, names = book.face("disc-ring", "front"), book.face("disc-names", "front")
    parts.append(book.nest(ring, 0, 0, 44, 44))
    parts.append(book.nest(names, 44 / 2 - 14.4, 44 / 2 - 14.4, 28.8, 28.8))
    x = 50.0
    for die in ("bond", "mutation"):
        face = book.face("dice", die)
        w, h = face.size
        scale = 44 / h
        parts.append(book.nest(face, x, 0, w * scale, 44))
        x += w * scale + 4
    for component, card in (("chain-cards", state.chain_card), ("pattern-cards", state.pattern_card)):
        if card is None:
            continue
        face = book.face(component, card)
        w, h = face.size
        parts.append(book.nest(face, x, 0, 44 * w / h, 44))
        x += 44 * w / h + 4
    # The boards: up to four in a row.
    per_row = min(players, 4)
    gap = 4.0
    board_w = (width - gap * (per_row - 1)) / per_row
    y = 50.0
    board_h = 0.0
    for i, seat in enumerate(state.seats):
        face = book.face("boards", seat.board.lower())
        w, h = face.size
        board_h = board_w * h / w
        row, col = divmod(i, per_row)
        parts.append(book.nest(face, col * (board_w + gap), y + row * (board_h + gap), board_w, board_h))
    rows = (players + per_row - 1) // per_row
    height = y + rows * board_h + (rows - 1) * gap
    return _svg(width, height, "".join(parts))


# --- the worked example ----------------------------------------------------------------
@lru_cache(maxsize=4)
def example_state(game: Any):
    """The worked example's final state (:func:`generator.booklet.recorded_game`)."""
    from generator.booklet import recorded_game

    return recorded_game(game, EXAMPLE)


def _colour_names(game: Any) -> dict[str, str]:
    return {c.letter: c.id for c in game.cards.rules.colours}


def worked_example(game: Any) -> dict[str, dict[str, int | str]]:
    """Each score box of the example board with its points and what made them."""
    state = example_state(game)
    scored = game.result(state).scores[0]
    details = scored.details
    names = _colour_names(game)
    formula = game.rules.formula(state, 0)
    seat = state.seats[0]
    columns = formula.columns(seat)
    boxes = formula.boxes(seat)
    view = game.view(state, 0)["seats"][0]

    elemental = [f"{len(v)} of the {k} pair" for k, v in boxes.items() if v]
    chains = sorted(((len(c), names[columns[c[0][0] - 1][c[0][1] - 1]]) for c in details["chains"]), reverse=True)
    earned = view["free_bonds"]["earned"]
    rows = sum(e.startswith("row") for e in earned)
    card = details["chain_card"]
    pattern = details["pattern_card"]
    shown = {
        "elemental": ", ".join(elemental) or "none",
        "chains": ", ".join(f"{colour} {n}" for n, colour in chains),
        "lines": f"{rows} rows, {len(earned) - rows} columns",
        "chain_card": f"Twin Pairs found {len(card['found'])} times",
        "pattern_card": f"{len(pattern['molecules'])} {names[pattern['colour']]} molecules next to S",
    }
    out: dict[str, dict[str, int | str]] = {}
    for line in scored.lines:
        out[line.label] = {"Points": line.points, "What made them": shown[line.key]}
    out["Total"] = {"Points": scored.total, "What made them": ""}
    return out


# --- the example board, drawn ------------------------------------------------------------
def _svg(w: float, h: float, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2f}mm" height="{h:.2f}mm" '
            f'viewBox="0 0 {w:.2f} {h:.2f}">{body}</svg>')


FONT = 'font-family="DejaVu Sans"'
DASH = {"r": "", "y": "1.2 0.6", "g": "0.4 0.5", "b": "1.6 0.5 0.4 0.5"}
"""Colour is never alone: each marker's lines also carry a dash pattern (as on the phones)."""


def example_board(book: Any) -> str:
    """The finished formula: every line drawn in its marker's ink (and dash),
    each molecule's volume written in it, elemental molecules shaded."""
    game = book.game
    state = example_state(game)
    seat = state.seats[0]
    geo = game.geometry(seat.board, state.side)
    inks = {c.letter: c.ink for c in game.cards.rules.colours}
    left, top, right, bottom = geo["bounds"]
    unit = 7.5  # mm a hexagon's side
    pad = 2.0
    w, h = (right - left) * unit + 2 * pad, (bottom - top) * unit + 2 * pad

    def at(x: float, y: float) -> tuple[float, float]:
        return (x - left) * unit + pad, (y - top) * unit + pad

    lattice = game.rules.formula(state, 0).lattice
    body: list[str] = []
    molecules = {lattice.hex_label(m.hexagon): m for m in seat.molecules}
    for hexagon in geo["hexagons"]:
        cx, cy = at(hexagon["x"], hexagon["y"])
        m = molecules.get(hexagon["hexagon"])
        if hexagon["kind"] != "start":  # its name, as the printed board and the prose give it
            body.append(f'<text x="{cx:.2f}" y="{cy - 0.5 * unit:.2f}" text-anchor="middle" font-size="2.1" '
                        f'fill="#777777" {FONT}>{hexagon["hexagon"]}</text>')
        if hexagon["kind"] == "start":
            body.append(f'<text x="{cx:.2f}" y="{cy + 1.6:.2f}" text-anchor="middle" font-size="4.6" '
                        f'font-weight="bold" {FONT}>S</text>')
        elif m is not None and m.elemental:
            points = " ".join(f"{px:.2f},{py:.2f}" for px, py in _corners(cx, cy, unit))
            body.append(f'<polygon points="{points}" fill="{inks[m.colour]}" fill-opacity="0.45"/>')
            body.append(f'<text x="{cx:.2f}" y="{cy + 0.8:.2f}" text-anchor="middle" font-size="2.3" '
                        f'{FONT}>{hexagon["icon"]}</text>')
        elif m is not None:
            body.append(f'<text x="{cx:.2f}" y="{cy + 2.4:.2f}" text-anchor="middle" font-size="4.6" '
                        f'font-weight="bold" fill="{inks[m.colour]}" {FONT}>{m.volume}</text>')
        elif hexagon["icon"]:
            body.append(f'<text x="{cx:.2f}" y="{cy + 0.8:.2f}" text-anchor="middle" font-size="2.3" '
                        f'fill="#666666" {FONT}>{hexagon["icon"]}</text>')
    for i, line in enumerate(geo["lines"]):
        x1, y1 = at(line["x1"], line["y1"])
        x2, y2 = at(line["x2"], line["y2"])
        drawn = seat.lines[i]
        if line["start"] or line["printed"]:
            style = 'stroke="#000000" stroke-width="1.1"'
        elif drawn != ".":
            dash = f' stroke-dasharray="{DASH[drawn]}"' if DASH[drawn] else ""
            style = f'stroke="{inks[drawn]}" stroke-width="0.9"{dash}'
        else:
            style = 'stroke="#cccccc" stroke-width="0.25"'
        body.append(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" {style}/>')
    return _svg(w, h, "".join(body))


def _corners(cx: float, cy: float, side: float) -> list[tuple[float, float]]:
    # Pointy-topped hexagons, as the formula is drawn.
    import math
    return [(cx + side * math.cos(math.radians(a)), cy + side * math.sin(math.radians(a)))
            for a in (30, 90, 150, 210, 270, 330)]


def example_table(book: Any) -> str:
    """The volume table of the example: each cell its colour's initial on its
    ink, and the engine's links drawn as bars between linked cells."""
    game = book.game
    state = example_state(game)
    seat = state.seats[0]
    formula = game.rules.formula(state, 0)
    columns = formula.columns(seat)
    heights = formula.layout.table.heights
    inks = {c.letter: c.ink for c in game.cards.rules.colours}
    chains = game.result(state).scores[0].details["chains"]
    cell, pad = 8.0, 2.0
    top = max(heights)
    w, h = len(heights) * cell + 2 * pad, top * cell + 2 * pad + 7

    def centre(col: int, row: int) -> tuple[float, float]:  # 1-based, row 1 at the bottom
        return pad + (col - 0.5) * cell, pad + (top - row + 0.5) * cell

    body: list[str] = []
    for c, height in enumerate(heights, start=1):
        for r in range(1, height + 1):
            x, y = centre(c, r)
            filled = columns[c - 1][r - 1] if r <= len(columns[c - 1]) else None
            fill = inks[filled] if filled else "#ffffff"
            body.append(f'<rect x="{x - cell / 2:.2f}" y="{y - cell / 2:.2f}" width="{cell:.2f}" height="{cell:.2f}" '
                        f'fill="{fill}" fill-opacity="0.55" stroke="#000000" stroke-width="0.3"/>')
            if filled:
                body.append(f'<text x="{x - cell / 2 + 1:.2f}" y="{y - cell / 2 + 3.6:.2f}" font-size="3.2" '
                            f'{FONT}>{filled.upper()}</text>')
        x, _ = centre(c, 1)
        body.append(f'<text x="{x:.2f}" y="{pad + top * cell + 5:.2f}" text-anchor="middle" font-size="4" '
                    f'font-weight="bold" {FONT}>{c}</text>')
    for chain in chains:
        for (c1, r1), (c2, r2) in zip(chain, chain[1:]):
            x1, y1 = centre(c1, r1)
            x2, y2 = centre(c2, r2)
            body.append(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="#000000" '
                        f'stroke-width="1.2" stroke-linecap="round"/>')
    return _svg(w, h, "".join(body))


def example(book: Any) -> str:
    """The finished formula and its volume table side by side."""
    board, table = example_board(book), example_table(book)
    bw, bh = _size(board)
    tw, th = _size(table)
    height = max(bh, th)
    return _svg(bw + 6 + tw, height, _nest(book, board, 0, (height - bh) / 2, bw, bh)
                + _nest(book, table, bw + 6, (height - th) / 2, tw, th))


def _size(svg: str) -> tuple[float, float]:
    m = re.search(r'width="([\d.]+)mm" height="([\d.]+)mm"', svg)
    assert m is not None
    return float(m.group(1)), float(m.group(2))


def _nest(book: Any, svg: str, x: float, y: float, w: float, h: float) -> str:
    return book.nest(svg, x, y, w, h)


# --- pieces side by side -------------------------------------------------------------------
def board_sides(book: Any) -> str:
    """Board A's two sides: side A (the front) and side B (its back)."""
    return book.row_of_faces([book.face("boards", "a"), book.face("boards", "a", back=True)], height=110.0)


def disc(book: Any) -> str:
    """The disc's two parts, and the two together as they sit on the table."""
    ring, names = book.face("disc-ring", "front"), book.face("disc-names", "front")
    d, n = 55.0, 55.0 * names.size[0] / ring.size[0]
    body = (book.nest(ring, 0, 0, d, d) + book.nest(names, d + 6, (d - n) / 2, n, n)
            + book.nest(ring, d + n + 12, 0, d, d) + book.nest(names, d + n + 12 + (d - n) / 2, (d - n) / 2, n, n))
    return _svg(2 * d + n + 12, d, body)


def goal_cards(book: Any) -> str:
    """One card of each goal deck: a Molecular Pattern, a Molecular Chain and a Project card."""
    return book.row_of_faces([book.face("pattern-cards", "first-shell"), book.face("chain-cards", "twin-pairs"),
                              book.face("project-cards", "project-10")], height=70.0)


# --- the card set's own numbers and names (docs/design/booklets.md) ------------------------------
def set_values(book: Any) -> dict[str, int | str]:
    """What the booklet and player aid print that the card set decides: its
    decks, turns, points, and each goal card's numbers."""
    cards = book.cards
    rules = cards.rules
    points = rules.chain_points
    longest = max(points)
    letters = sorted({b for b, _ in cards.layouts})
    manifest = getattr(getattr(book, "printable", None), "manifest", None)
    reference = next((c.count for c in manifest.components if c.id == "reference-cards"), 0) if manifest else 0
    out: dict[str, int | str] = {
        "boards": len(letters),
        "board-letters": f"{letters[0]} to {letters[-1]}",
        "markers": 2 * len(rules.colours),
        "marker-colours": ", ".join(f"2 {c.id}" for c in rules.colours),
        "pattern-cards": len(cards.patterns),
        "chain-cards": len(cards.chains),
        "project-cards": len(cards.projects),
        "reference-cards": reference,
        "turns": rules.turns,
        "elemental-one": rules.elemental_points.one,
        "elemental-pair": rules.elemental_points.pair,
        "line-points": rules.line_points,
        "longest": longest,
        "chain-list": ", ".join(str(points[k]) for k in sorted(points)),
        "chain-range": f"{min(points)} to {longest} or more",
    }
    for k in sorted(points):
        out[f"chain-{k}"] = points[k]
    for card in (*cards.chains.values(), *cards.patterns.values()):
        row = card.row
        out.update({f"{row.id}.name": row.name, f"{row.id}.points": row.points, f"{row.id}.maximum": row.maximum,
                    f"{row.id}.green": row.green, f"{row.id}.yellow": row.yellow, f"{row.id}.red": row.red})
    return out


def _lessons():
    """The teaching pictures, ``booklet_lessons.py`` beside this file, loaded by its path as this file is."""
    import importlib.util
    import sys

    path = Path(__file__).with_name("booklet_lessons.py")
    name = "_labkit_booklet_synthesis_lessons"
    module = sys.modules.get(name)
    if module is None or getattr(module, "__file__", None) != str(path):
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


FIGURES = {"example": example, "example-board": example_board, "example-table": example_table,
           "board-sides": board_sides, "disc": disc, "goal-cards": goal_cards, **_lessons().FIGURES}
