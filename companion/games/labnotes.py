"""Lab Notes at the table: what its board needs to be drawn, beyond the
engine's view, and the page that scores a finished paper note sheet.

Nothing here decides a rule. Controls come from ``actions(state, seat)``:
an element button lists exactly the spaces the engine offers it, a bond gap
is marked when the engine offers that bond. A gap between two elements that
the engine does not offer stays tappable, because players tap between
elements to bond them: the engine then says why not, next to the sheet.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from collections import defaultdict
from typing import Any

from flask import Blueprint, current_app, render_template, request

from engine.chem import ELEMENT_NAMES, Molecule
from engine.hexgrid import ROW_HEIGHT, HexField, bond_lines, molecule_layout
from engine.labnotes.rules import GROUND
from engine.labnotes.state import LINE_POINTS, space_label
SOURCE_WORDS = {"die": "your die", "community": "Community die", "burner": "Bunsen Burner", "flask": "Retort Flask"}
FACE_WORDS = {"H": "Hydrogen", "O": "Oxygen", "N": "Nitrogen", "C": "Carbon", "burner": "Bunsen Burner"}
PHASE_WORDS = {"roll": "Roll", "select": "Select dice", "notate": "Notate", "fire": "Lab Fire", "over": "Game over"}

# Drawing a note sheet, in units of the space pitch.
SPACE_R = 0.34          # the drawn circle
HIT_R = 0.48            # what a finger may tap
GAP_R = 0.25
MARGIN_LEFT, MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM = 0.85, 0.75, 0.6, 0.6
BOND_SPREAD = 0.1


def _sheet_data(game: Any) -> tuple[int, int]:
    field = game.data.sheet.field
    return field.rows, field.cols


def formula_runs(text: str | None) -> list[tuple[str, bool]]:
    """``"CH3OH"`` as runs of letters and of subscript digits."""
    return [(m.group(0), m.group(0).isdigit()) for m in re.finditer(r"\d+|\D+", text or "")]


@lru_cache(maxsize=128)
def structure(smiles: str) -> dict[str, Any]:
    """A card's compound drawn as it is built on a sheet, for a small SVG
    (pitch units, half a pitch of margin)."""
    mol = Molecule.from_smiles(smiles)
    lay = molecule_layout(mol.atoms, mol.bonds)
    m = 0.5
    atoms = [{"element": a["element"], "x": round(a["x"] + m, 3), "y": round(a["y"] + m, 3)} for a in lay["atoms"]]
    lines = [{"x1": round(x1, 3), "y1": round(y1, 3), "x2": round(x2, 3), "y2": round(y2, 3)}
             for b in lay["bonds"]
             for x1, y1, x2, y2 in bond_lines((b["x1"] + m, b["y1"] + m), (b["x2"] + m, b["y2"] + m),
                                              b["order"], BOND_SPREAD, SPACE_R - 0.02)]
    return {"atoms": atoms, "lines": lines, "width": round(lay["width"] + 2 * m, 3),
            "height": round(lay["height"] + 2 * m, 3), "r": SPACE_R}


def label(index: int, cols: int) -> str:
    return space_label(index, cols)


def _centre(index: int, cols: int) -> tuple[float, float]:
    r, c = divmod(index, cols)
    return MARGIN_LEFT + c + 0.5 * (r % 2), MARGIN_TOP + r * ROW_HEIGHT


def _adjacent(a: int, b: int, rows: int, cols: int) -> bool:
    return HexField(rows, cols).are_adjacent(divmod(a, cols), divmod(b, cols))


def draw_sheet(shown: dict[str, Any], rows: int, cols: int, *, offered_spaces: set[int] = frozenset(),
               offered_bonds: set[tuple[int, int]] = frozenset(), mine: bool = False,
               all_gaps: bool = False) -> dict[str, Any]:
    """Geometry of one note sheet for the SVG template."""
    spaces = shown["spaces"].replace("/", "")
    width = MARGIN_LEFT + (cols - 1) + 0.5 + MARGIN_RIGHT
    height = MARGIN_TOP + (rows - 1) * ROW_HEIGHT + MARGIN_BOTTOM
    cells = []
    for k, ch in enumerate(spaces):
        x, y = _centre(k, cols)
        cls = ["space"]
        if ch == "x":
            cls.append("burned")
        elif ch != ".":
            cls.append(f"el-{ch}")
        if k == shown.get("last_placed"):
            cls.append("new")
        if mine and k in offered_spaces:
            cls.append("tappable")
        cells.append({"index": k, "label": label(k, cols), "x": round(x, 3), "y": round(y, 3),
                      "char": ch, "cls": " ".join(cls),
                      "title": _space_title(k, ch, cols)})
    bonds = []
    for a, b, order in shown["bonds"]:
        lines = [{"x1": round(x1, 3), "y1": round(y1, 3), "x2": round(x2, 3), "y2": round(y2, 3)}
                 for x1, y1, x2, y2 in bond_lines(_centre(a, cols), _centre(b, cols), order, BOND_SPREAD,
                                                  SPACE_R - 0.02)]
        bonds.append({"a": a, "b": b, "order": order, "lines": lines})
    gaps = []
    if mine:
        existing = {(a, b): o for a, b, o in shown["bonds"]}
        for a in range(len(spaces)):
            if spaces[a] not in ELEMENT_NAMES and not all_gaps:
                continue
            for b in range(a + 1, len(spaces)):
                if (spaces[b] in ELEMENT_NAMES or all_gaps) and _adjacent(a, b, rows, cols):
                    (ax, ay), (bx, by) = _centre(a, cols), _centre(b, cols)
                    gaps.append({"a": a, "b": b, "x": round((ax + bx) / 2, 3), "y": round((ay + by) / 2, 3),
                                 "offered": (a, b) in offered_bonds, "order": existing.get((a, b), 0),
                                 "name": f"{label(a, cols)}\u2013{label(b, cols)}"})
    row_labels = [{"text": "ABCDEFGHIJKLMNOPQRST"[r], "x": 0.3, "y": round(MARGIN_TOP + r * ROW_HEIGHT, 3)}
                  for r in range(rows)]
    col_labels = [{"text": str(c + 1), "x": round(MARGIN_LEFT + c + 0.25, 3), "y": 0.28} for c in range(cols)]
    return {"width": round(width, 3), "height": round(height, 3), "cells": cells, "bonds": bonds, "gaps": gaps,
            "rows": row_labels, "cols": col_labels, "r": SPACE_R, "hit": HIT_R, "gap_r": GAP_R}


def _space_title(k: int, ch: str, cols: int) -> str:
    if ch == ".":
        return f"{label(k, cols)}: empty"
    if ch == "x":
        return f"{label(k, cols)}: burned"
    return f"{label(k, cols)}: {ELEMENT_NAMES.get(ch, ch)}"


def _pretty(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def board_context(snap: Any, seat: int | None) -> dict[str, Any]:
    game = snap.game
    data = game.data
    view = snap.view(seat)
    rows, cols = _sheet_data(game)
    actions = snap.actions(seat)
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in actions:
        by_type[a["type"]].append(a)

    # Space actions: tap a space, then what to do there.
    space_actions = []
    for element in dict.fromkeys(a["element"] for a in by_type["notate"]):
        spaces = sorted(a["space"] for a in by_type["notate"] if a["element"] == element)
        space_actions.append({"action": _pretty({"type": "notate", "element": element}), "spaces": spaces,
                              "text": element, "title": f"Notate {ELEMENT_NAMES.get(element, element)}",
                              "kind": "element"})
    if by_type["burn"]:
        spaces = sorted(a["space"] for a in by_type["burn"])
        space_actions.append({"action": _pretty({"type": "burn"}), "spaces": spaces, "text": "Burn",
                              "title": "Burn this space", "kind": "burn"})
    offered_spaces = {k for sa in space_actions for k in sa["spaces"]}
    offered_bonds = {tuple(sorted(a["spaces"])) for a in by_type["bond"]}

    tools = {t.id: t for t in data.tools}
    buttons = []
    for a in by_type["choose_element"]:
        buttons.append({"action": _pretty(a), "text": f"Take {ELEMENT_NAMES[a['element']]}", "kind": "choose"})
    for a in by_type["trash"]:
        buttons.append({"action": _pretty(a), "text": f"Trash {a['element']}", "kind": "trash"})
    pipette = []
    for a in by_type["use_tool"]:
        tool = tools.get(a["tool"])
        name = tool.name if tool else a["tool"]
        if a["tool"] == "pipette":
            x, y = a["spaces"]
            pipette.append({"action": _pretty(a), "text": f"{label(x, cols)}\u2013{label(y, cols)}"})
        elif a["tool"] == "mortar-and-pestle":
            ground = GROUND.get(a["element"], "?")
            buttons.append({"action": _pretty(a), "text": f"{name}: grind {a['element']} to {ground}", "kind": "tool"})
        else:
            buttons.append({"action": _pretty(a), "text": f"Use the {name}", "kind": "tool"})
    finish = by_type["finish"][0] if by_type["finish"] else None

    # Dice.
    picks = {a["die"] for a in by_type["take_die"]}
    dice = []
    for i, d in enumerate(view["dice"]):
        if d["place"] == "box":
            continue
        dice.append({"index": i, "colour": d["colour"], "face": d["face"], "place": d["place"],
                     "text": {"burner": "burner", None: "?"}.get(d["face"], d["face"]),
                     "word": FACE_WORDS.get(d["face"], "not rolled"),
                     "owner": snap.name(d["seat"]) if d["seat"] is not None else None,
                     "takeable": i in picks,
                     "action": _pretty({"type": "take_die", "die": i})})
    reroll = sorted({i for a in by_type["reroll"] for i in a["dice"]})

    # The notecard line, newest (6) first.
    claimed_by: dict[str, list[str]] = defaultdict(list)
    for s, sheet in enumerate(view["seats"]):
        for c in sheet["claims"]:
            claimed_by[c["notecard"]].append(snap.name(s))
    claimable = {a["notecard"] for a in by_type["claim"]}
    line = []
    for i, card_id in enumerate(view["line"]):
        card = data.notecard(card_id)
        line.append({"id": card_id, "name": card.name, "formula": card.formula, "fact": card.fact,
                     "structure": None if card.is_lab_fire else structure(card.structure),
                     "formula_runs": formula_runs(card.formula),
                     "fire": card.is_lab_fire, "points": LINE_POINTS[i] if i < len(LINE_POINTS) else 0,
                     "claimable": card_id in claimable, "claimed_by": claimed_by.get(card_id, []),
                     "action": _pretty({"type": "claim", "notecard": card_id})})

    # Sheets, mine first.
    try:
        scores = {s.seat: s for s in game.result(snap.state).scores}   # the score so far (engine: result())
    except Exception:  # an engine that scores only at the end
        scores = {}
    track = data.sheet.tools_track
    sheets = []
    order = ([seat] if seat is not None else []) + [s for s in range(len(view["seats"])) if s != seat]
    for s in order:
        shown = view["seats"][s]
        mine = s == seat
        score = scores.get(s)
        sheets.append({
            "seat": s, "name": snap.name(s), "mine": mine,
            "svg": draw_sheet(shown, rows, cols, offered_spaces=offered_spaces if mine else set(),
                              offered_bonds=offered_bonds if mine else set(), mine=mine),
            "trash": list(shown["trash"]), "trash_cans": data.sheet.trash_cans,
            "tool_marks": shown["tool_marks"], "tools_open": shown["tools_open"], "track": track.spaces,
            "claims": [{"name": data.notecard(c["notecard"]).name, "points": c["points"]} for c in shown["claims"]],
            "boxes": data.sheet.notecard_boxes,
            "tools": [tools[t].name for t in shown["tools"] if t in tools],
            "pending": [{"element": e, "source": SOURCE_WORDS.get(src, src)} for e, src in shown["pending"]],
            "burns": shown["burns"], "fires": shown["fires"], "choosing": shown["choosing"],
            "done": shown["done"], "empty": shown["empty_spaces"],
            "score": ({"total": score.total, "lines": [{"label": l.label, "points": l.points} for l in score.lines],
                       "details": dict(score.details)} if score else None),
        })

    to_move = snap.to_move()
    phase = view["phase"]
    lead = snap.name(view["lead"])
    if phase == "roll":
        status = f"{lead} rolls the dice."
    elif phase == "select":
        status = f"{snap.name(to_move[0])} picks a die." if to_move else ""
    elif phase == "notate":
        waiting = ", ".join(snap.name(s) for s in to_move)
        status = f"Everyone notates. Still notating: {waiting}." if waiting else ""
    elif phase == "fire":
        status = "Lab Fire! Each player burns 2 empty spaces or uses the Fire Suppressant."
    else:
        status = "The game is over."

    prompt = ""
    if seat is not None:
        me = view["seats"][seat]
        if by_type["roll"]:
            prompt = "You lead: roll the dice."
        elif by_type["take_die"]:
            prompt = "Your pick: tap a die to take it."
        elif by_type["burn"] and phase == "fire":
            prompt = "Tap an empty space, then Burn (twice per Lab Fire)."
        elif by_type["burn"]:
            prompt = "Bunsen Burner: tap an empty space, then Burn. You then choose any element."
        elif by_type["choose_element"]:
            prompt = "Choose the element the Bunsen Burner gives you."
        elif me["pending"]:
            left = ", ".join(f"{e} ({SOURCE_WORDS.get(src, src)})" for e, src in me["pending"])
            prompt = f"To notate: {left}. Tap an empty space, then the element."
        elif finish:
            prompt = "Draw bonds to your new element, claim a notecard, or finish your turn."

    tools_in_play = []
    for t in view["tools"]:
        tool = tools[t]
        owners = [snap.name(s) for s, sheet in enumerate(view["seats"]) if t in sheet["tools"]]
        tools_in_play.append({"id": t, "name": tool.name, "state": tool.state, "compound": tool.compound,
                              "structure": structure(tool.structure), "formula_runs": formula_runs(tool.formula),
                              "formula": tool.formula, "icons": tool.icons, "ability": tool.ability,
                              "owners": owners, "mine": seat is not None and t in view["seats"][seat]["tools"]})

    return {"ln": {
        "phase": phase, "phase_word": PHASE_WORDS.get(phase, phase), "round": view["round"], "lead": lead,
        "status": status, "prompt": prompt, "dice": dice, "roll": bool(by_type["roll"]), "reroll": reroll,
        "rerolls_used": view["rerolls"],
        "line": line, "deck": view["deck"], "discard": len(view["discard"]),
        "sheets": sheets, "space_actions": space_actions,
        "bond_buttons": [{"action": _pretty(a), "text": f"{label(a['spaces'][0], cols)}\u2013{label(a['spaces'][1], cols)}"}
                         for a in by_type["bond"]],
        "buttons": buttons, "pipette": pipette, "finish": _pretty(finish) if finish else None,
        "tools": tools_in_play,
    }}


def action_label(action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "notate":
        return f"Notate {action.get('element')} on space {action.get('space')}"
    if kind == "take_die":
        return f"Take die {action.get('die')}"
    return ""


# --- scoring a paper sheet -------------------------------------------------------------

blueprint = Blueprint("labnotes", __name__)
links = [("Score a paper Lab Notes sheet", "labnotes.paper")]


def _paper_context(**kw: Any) -> dict[str, Any]:
    from companion.web import get_referee

    game = get_referee().game("labnotes")
    rows, cols = _sheet_data(game)
    blank = {"spaces": "/".join("." * cols for _ in range(rows)), "bonds": [], "last_placed": None}
    svg = draw_sheet(blank, rows, cols, offered_spaces=set(range(rows * cols)), mine=True, all_gaps=True)
    cards = [c for c in game.data.notecards if not c.is_lab_fire]
    ctx = {"svg": svg, "rows": rows, "cols": cols, "cards": cards, "trash_cans": game.data.sheet.trash_cans,
           "boxes": game.data.sheet.notecard_boxes, "result": None, "problems": None, "sheet_json": "",
           "title": game.title}
    ctx.update(kw)
    return ctx


@blueprint.before_request
def _installed() -> None:
    from engine import GAMES

    if "labnotes" not in GAMES:
        from flask import abort

        abort(404, "Lab Notes is not installed on this server.")


@blueprint.get("/labnotes/sheet")
def paper() -> str:
    return render_template("companion/labnotes/paper.html", **_paper_context())


@blueprint.post("/labnotes/sheet")
def score_paper() -> Any:
    """Score a finished paper sheet: the JSON the tapping page builds, or one pasted."""
    from companion.security import rate_limit

    rate_limit("score_sheet")
    text = request.form.get("sheet", "")
    status, result, problems = _score(text)
    ctx = _paper_context(result=result, problems=problems, sheet_json=text)
    if request.headers.get("HX-Request") == "true":  # htmx swaps only 2xx answers: the result is the page
        return render_template("companion/labnotes/_paper_result.html", **ctx)
    return render_template("companion/labnotes/paper.html", **ctx), status


def _score(text: str) -> tuple[int, dict[str, Any] | None, list[str] | None]:
    from engine.core import InvalidState
    from engine.labnotes.sheet import score_sheet

    try:
        data = json.loads(text)
    except ValueError as exc:
        return 400, None, [f"This is not valid JSON: {exc}"]
    from companion.web import get_referee

    try:
        result = score_sheet(data, get_referee().game("labnotes").data)
    except InvalidState as exc:
        lines = [line[2:] if line.startswith("- ") else line for line in str(exc).splitlines()]
        return 422, None, [line for line in lines if line.strip()]
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        current_app.logger.warning("score_sheet could not read %r: %r", text[:200], exc)
        return 400, None, [f"The sheet cannot be read ({type(exc).__name__})."]
    return 200, result.to_dict(), None


@blueprint.post("/api/games/labnotes/sheet")
def api_score_paper() -> Any:
    from flask import jsonify

    from companion.security import json_error, rate_limit

    rate_limit("score_sheet")
    raw = request.get_data(as_text=True)
    status, result, problems = _score(raw)
    if result is None:
        return json_error(status, (problems or ["The sheet cannot be read."])[0], problems=problems or [])
    return jsonify(result)


def openapi_paths() -> dict[str, Any]:
    err = {"content": {"application/json": {"schema": {
        "type": "object", "required": ["error"],
        "properties": {"error": {"type": "string"}, "problems": {"type": "array", "items": {"type": "string"}}}}}}}
    return {"/api/games/labnotes/sheet": {"post": {
        "summary": "Score a finished paper Lab Notes sheet", "operationId": "scoreLabNotesSheet",
        "description": "The sheet's JSON format is docs/labnotes-sheet-format.md.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}},
        "responses": {
            "200": {"description": "The score boxes",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SeatScore"}}}},
            "400": {"description": "Not JSON, or not readable", **err},
            "403": {"description": "Refused: a request from another site.", **err},
            "404": {"description": "Lab Notes is not installed on this server.", **err},
            "413": {"description": "The body is too large.", **err},
            "415": {"description": "The body is not JSON.", **err},
            "422": {"description": "The sheet breaks rules: every one is listed", **err},
            "429": {"description": "Too many sheets from this address: wait.", **err}}}}}
