"""Lab Notes' part of its rules booklet (docs/design/booklets.md): what the
engine deals at setup, the table set up as our pieces lie on it, and the
worked example, a finished note sheet scored by the engine's own referee
(the one ``labkit score labnotes`` runs)."""

from __future__ import annotations

from typing import Any

from engine.labnotes.paper import score_sheet
from engine.labnotes.state import field_layout, parse_space_label

FONT = "DejaVu Sans"
INK = "#1d2430"
PENCIL = "#3a3f47"
GREY = "#5b6670"
DIE_FILL = {"white": "#ffffff", "yellow": "#f5cd3a"}
SEED = 7
"""The shuffle the setup drawings show (any seed deals the same counts)."""


def text(x: float, y: float, words: str, size: float, *, weight: str = "normal", fill: str = INK,
         anchor: str = "middle") -> str:
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-family="{FONT}" font-size="{size:.2f}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}">{words}</text>')


# --- setup ---------------------------------------------------------------------------
def setup_quantities(game: Any, players: int) -> dict[str, int | str]:
    state = game.setup(players, seed=SEED)
    cup = [d.colour for d in state.dice if d.place == "cup"]
    return {
        "White dice": cup.count("white"),
        "Yellow dice": cup.count("yellow"),
        "Note sheets": len(state.seats),
        "Tool cards each": len(state.tools),
        "Tool cards in all": len(state.tools) * players,
        "Notecards face up": len(state.line),
        "Notecards in the deck": len(state.deck),
    }


def die(x: float, y: float, s: float, colour: str, face: str = "") -> str:
    """A die as it lies on the table: our die's colour and its colour mark."""
    out = [f'<rect x="{x:.2f}" y="{y:.2f}" width="{s:.2f}" height="{s:.2f}" rx="{s * 0.15:.2f}" '
           f'fill="{DIE_FILL[colour]}" stroke="{INK}" stroke-width="0.35"/>']
    if colour == "white":
        out.append(f'<circle cx="{x + s * 0.17:.2f}" cy="{y + s * 0.17:.2f}" r="{s * 0.06:.2f}" fill="none" '
                   f'stroke="{INK}" stroke-width="0.25"/>')
    else:
        c, r = (x + s * 0.17, y + s * 0.17), s * 0.08
        out.append(f'<polygon points="{c[0]:.2f},{c[1] - r:.2f} {c[0] + r:.2f},{c[1]:.2f} {c[0]:.2f},{c[1] + r:.2f} '
                   f'{c[0] - r:.2f},{c[1]:.2f}" fill="{INK}"/>')
    if face:
        out.append(text(x + s / 2, y + s * 0.68, face, s * 0.5, weight="bold"))
    return "".join(out)


def setup_figure(book: Any, players: int) -> str:
    from generator.booklet import svg_page

    game = book.game
    state = game.setup(players, seed=SEED)
    slot = 62.0
    width = max(players * slot, 200.0)
    parts: list[str] = []
    # the middle of the table: deck, the two face-up notecards (6 next to the deck, then 3)
    card_w, card_h = 22.0, 37.7
    x0 = width / 2 - (3 * card_w + 2 * 5) / 2
    back = book.face("notecards", state.deck[0], back=True)
    parts.append(book.nest(back, x0, 6, card_w, card_h))
    parts.append(text(x0 + card_w / 2, 48, "deck", 3.6, fill=GREY))
    for i, card in enumerate(state.line):   # the newest card (first in the line) lies next to the deck
        x = x0 + (i + 1) * (card_w + 5)
        parts.append(book.nest(book.face("notecards", card), x, 6, card_w, card_h))
        parts.append(text(x + card_w / 2, 48, f"worth {(6, 3)[i]}", 3.6, fill=GREY))
    # the dice in play, by the lead player
    cup = [d.colour for d in state.dice if d.place == "cup"]
    dx = x0 + 3 * (card_w + 5) + 6
    for i, colour in enumerate(cup):
        parts.append(die(dx + (i % 2) * 11, 10 + (i // 2) * 11, 9, colour))
    parts.append(text(dx + 10, 48, f"{len(cup)} dice in play", 3.6, fill=GREY))
    # one note sheet per player, with the same three tool cards beside it, compound side up
    sheet = book.face("note-sheets")
    tools = [book.face("tool-cards", t) for t in state.tools]
    y = 54.0
    left = (width - players * slot) / 2
    for seat in range(players):
        x = left + seat * slot + 2
        parts.append(book.nest(sheet, x, y, 57, 39))
        for t, face in enumerate(tools):
            parts.append(book.nest(face, x + t * 16, y + 42, 15, 21))
        label = f"Player {seat + 1}" + (" (lead)" if seat == state.lead else "")
        parts.append(text(x + 28.5, y + 70, label, 4.0, weight="bold" if seat == state.lead else "normal"))
        if seat == state.lead:
            parts.append(book.nest(book.face("lead-token"), x + 49, y + 47, 10, 10))
    return svg_page(width, y + 73, "".join(parts))


# --- the worked example: a finished sheet ---------------------------------------------------
EXAMPLE = {
    "player": "Ada",
    "elements": {
        "A1": "H", "A2": "O", "A3": "H", "A4": "H", "A5": "H", "A6": "H",
        "B1": "O", "B3": "O", "B4": "H", "B5": "C", "B6": "H",
        "C1": "O", "C2": "H", "C3": "C", "C4": "H", "C5": "O", "C6": "H",
        "D1": "H", "D2": "H", "D3": "O", "D4": "H", "D5": "H",
        "E1": "N", "E2": "N", "E5": "N", "E6": "H",
        "F2": "C", "F3": "N", "F4": "H", "F5": "H",
    },
    "bonds": [
        ["A1", "A2", 1], ["A2", "A3", 1],
        ["B5", "A5", 1], ["B5", "A6", 1], ["B5", "B6", 1], ["B5", "C6", 1],
        ["C3", "B3", 2], ["C3", "C2", 1], ["C3", "D3", 1], ["D3", "D4", 1],
        ["B1", "C1", 2], ["D1", "D2", 1], ["E1", "E2", 3],
        ["E5", "D5", 1], ["E5", "E6", 1], ["E5", "F5", 1],
        ["F2", "F3", 2], ["F3", "F4", 1],
        ["B4", "C5", 1], ["C5", "C4", 1],
    ],
    "burned": ["B2", "D6", "E3", "E4", "F1", "F6"],
    "trash": ["C", "N"],
    "notecards": [
        {"notecard": "methane", "points": 6},
        {"notecard": "formic-acid", "points": 3},
        {"notecard": "ammonia", "points": 1},
    ],
    "tool_marks": 3,
}
"""Ada's sheet at the end of a game: every space used, two compounds that
unlocked tools (water for the Centrifuge, dinitrogen for the Fire
Suppressant), three notecards claimed, one incomplete compound and a lone
Hydrogen that burns at the end."""


def _spaces(labels: list[str]) -> str:
    return ", ".join(labels)


def worked_example(game: Any) -> dict[str, dict[str, int | str]]:
    score = score_sheet(EXAMPLE, game.rules)
    out: dict[str, dict[str, int | str]] = {}
    for c in score.details["compounds"]:
        out[_spaces(c["spaces"])] = {"Single": c["single"], "Double": c["double"], "Triple": c["triple"],
                                     "Missing bonds": c["missing_bonds"], "Points": c["score"]}
    for line in score.lines:
        out[line.label] = {"Points": line.points}
    out["Total / grade"] = {"Points": score.total}
    out["Spaces burned"] = {"Points": score.details["burned_spaces"]}
    out["Burned at the end"] = {"Points": _spaces(score.details["unconnected_burned"])}
    return out


def example_figure(book: Any) -> str:
    """Ada's finished sheet: our printed note sheet with her pencil on it."""
    from generator.booklet import svg_page

    game = book.game
    rules = game.rules
    score = score_sheet(EXAMPLE, rules)
    layout = field_layout(rules.rows, rules.cols)
    # the note sheet's own geometry (templates/labnotes/note-sheet.svg.j2)
    fx0, fy0 = 49.0, 20.0
    p = min(100 / layout.width, 80 / layout.height)

    def centre(label: str) -> tuple[float, float]:
        s = layout.spaces[parse_space_label(label, rules.rows, rules.cols)]
        return fx0 + (s.x + 0.5) * p, fy0 + 4 + (s.y + 0.5) * p

    parts = [book.nest(book.face("note-sheets"), 0, 0, 190, 130)]
    r = p * 0.36
    for a, b, order in EXAMPLE["bonds"]:
        (x1, y1), (x2, y2) = centre(a), centre(b)
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / length, dy / length
        nx, ny = -uy, ux
        for k in range(order):
            off = (k - (order - 1) / 2) * 1.1
            parts.append(f'<line x1="{x1 + ux * r + nx * off:.2f}" y1="{y1 + uy * r + ny * off:.2f}" '
                         f'x2="{x2 - ux * r + nx * off:.2f}" y2="{y2 - uy * r + ny * off:.2f}" '
                         f'stroke="{PENCIL}" stroke-width="0.55" stroke-linecap="round"/>')
    burned = list(EXAMPLE["burned"]) + score.details["unconnected_burned"]
    for label, element in EXAMPLE["elements"].items():
        if label in burned:
            continue
        x, y = centre(label)
        parts.append(text(x, y + 1.5, element, 4.4, weight="bold", fill=PENCIL))
    for label in burned:
        x, y = centre(label)
        parts.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="{PENCIL}" fill-opacity="0.75"/>')
    # circles round the complete compounds' elements
    for c in score.details["compounds"]:
        if c["complete"]:
            for label in c["spaces"]:
                x, y = centre(label)
                parts.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r + 0.9:.2f}" fill="none" stroke="{PENCIL}" '
                             f'stroke-width="0.35" stroke-dasharray="1,0.8"/>')
    # trash cans filled from the top (TRASH column of the sheet)
    for i, element in enumerate(EXAMPLE["trash"]):
        parts.append(text(172, 21 + i * 15 + 10, element, 5, weight="bold", fill=PENCIL))
    # the left column (same geometry as the template): tools-track marks, then the ticked notecard boxes
    sheet = rules.data.sheet
    groups = [sheet.tools_track.open, *sheet.tools_track.opened_by_notecard]
    row_h = min(7.0, 40 / len(groups))
    sq = min(5.0, row_h - 1.5)
    open_spaces = [(g, i) for g, count in enumerate(groups[:1 + len(EXAMPLE["notecards"])]) for i in range(count)]
    for g, i in open_spaces[:EXAMPLE["tool_marks"]]:
        x, y = 5 + 19 + i * (sq + 1.2), 21 + g * row_h
        parts.append(f'<path d="M{x + 1:.2f},{y + 1:.2f} L{x + sq - 1:.2f},{y + sq - 1:.2f} M{x + sq - 1:.2f},{y + 1:.2f} '
                     f'L{x + 1:.2f},{y + sq - 1:.2f}" stroke="{PENCIL}" stroke-width="0.5" fill="none"/>')
    ny = 21 + len(groups) * row_h + 6
    nstep = min(6.6, (130 - 8 - ny - 2) / sheet.notecard_boxes)
    for k, claim in enumerate(EXAMPLE["notecards"]):
        y = ny + 2 + k * nstep
        parts.append(f'<path d="M{5.8:.2f},{y + 2.3:.2f} L{7.2:.2f},{y + 3.7:.2f} L{9.6:.2f},{y + 0.6:.2f}" '
                     f'stroke="{PENCIL}" stroke-width="0.6" fill="none"/>')
        parts.append(text(5 + 25 + 5.5, y + 3.6, str(claim["points"]), 3.6, weight="bold", fill=PENCIL))
    # the score boxes
    boxes = [score.lines[0].points, score.lines[1].points, -score.lines[2].points, score.total]
    for i, value in enumerate(boxes):
        parts.append(text(49 + i * 35 + 14, 109 + 12.5, str(value), 6, weight="bold", fill=PENCIL))
    return svg_page(190, 130, "".join(parts))


FIGURES = {"example-sheet": example_figure}


# --- the card set's own numbers and names (docs/design/booklets.md) ------------------------------
ELEMENT_WORDS = {"H": "Hydrogen", "O": "Oxygen", "N": "Nitrogen", "C": "Carbon", "burner": "a Bunsen Burner"}
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
TIMES = {1: "once", 2: "twice", 3: "three times", 4: "four times", 5: "five times", 6: "six times"}


def _faces(faces: list[str]) -> str:
    """A die's faces in words: "Hydrogen three times, Oxygen twice and Nitrogen once"."""
    counts: dict[str, int] = {}
    for f in faces:
        counts[f] = counts.get(f, 0) + 1
    parts = [f"{ELEMENT_WORDS.get(f, f)} {TIMES.get(n, f'{n} times')}" for f, n in counts.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _span(values: list[int]) -> str:
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else f"{lo} to {hi}"


def set_values(book: Any) -> dict[str, int | str]:
    """What the booklet and player aid print that the card set decides: its
    counts, its dice, its note sheet and its tools' names, states and costs."""
    data = book.cards
    dice = {d.colour: d for d in data.dice.dice}
    sheet, track = data.sheet, data.sheet.tools_track
    compounds = [n for n in data.notecards if n.kind == "compound"]
    fires = [n for n in data.notecards if n.kind == "lab_fire"]
    opened = track.opened_by_notecard
    out: dict[str, int | str] = {
        "dice": sum(d.count for d in dice.values()),
        "dice-colours": ", ".join(f"{d.count} {c}" for c, d in dice.items()),
        "white-faces": _faces(dice["white"].faces) if "white" in dice else "",
        "yellow-faces": _faces(dice["yellow"].faces) if "yellow" in dice else "",
        "tool-cards": sum(t.copies for t in data.tools),
        "tools": len(data.tools),
        "tool-copies": _span([t.copies for t in data.tools]),
        "notecards": len(data.notecards),
        "compounds": len(compounds),
        "lab-fires": len(fires),
        "spaces": sheet.field.rows * sheet.field.cols,
        "rows": sheet.field.rows,
        "last-space": f"{'ABCDEFGHIJKLMNOPQRST'[sheet.field.rows - 1]}{sheet.field.cols}",
        "trash-cans": sheet.trash_cans,
        "tools-spaces": track.open + sum(opened),
        "tools-open": track.open,
        "tools-opened-by": len(opened),
        "tools-opened": _span(opened) if opened else 0,
        "notecard-boxes": sheet.notecard_boxes,
    }
    for t in data.tools:
        out.update({f"{t.id}.name": t.name, f"{t.id}.state": t.state, f"{t.id}.icons": t.icons,
                    f"{t.id}.compound": t.compound, f"{t.id}.formula": t.formula.translate(SUBSCRIPT)})
    return out
