"""What the Lab Notes board needs to be drawn, beyond the engine's view.

Nothing here decides a rule. Controls come from ``actions(state, seat)``:
an element button lists exactly the spaces the engine offers it, a bond gap
is marked when the engine offers that bond. A gap between two elements that
the engine does not offer stays tappable, because players tap between
elements to bond them: the engine then says why not, next to the sheet.

The controls use the companion's generic gestures (``companion.js``):
``data-act`` sends an action as it is; an option (``data-option`` with
``data-fill="space"`` and its ``data-values``) is completed by tapping a
target (``data-target="space"``); ``data-act-collect`` gathers ticked boxes.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from engine.chem import ELEMENT_NAMES
from engine.labnotes.state import LINE_POINTS
from engine.labnotes.tools import GROUND
from companion.games.labnotes.drawn import field_html, panel_html, structure_html
from companion.games.labnotes.sheet import formula_runs
from companion.games.labnotes.words import score_lines

SOURCE_WORDS = {"die": "your die", "community": "Community die", "burner": "Bunsen Burner", "flask": "Retort Flask"}
FACE_WORDS = {"H": "Hydrogen", "O": "Oxygen", "N": "Nitrogen", "C": "Carbon", "burner": "Bunsen Burner"}
PHASE_WORDS = {"roll": "Roll", "select": "Select dice", "notate": "Notate", "fire": "Lab Fire", "over": "Game over"}


def _json(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def _by_type(actions: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in actions:
        out[a["type"]].append(a)
    return out


def space_options(by_type) -> list[dict[str, Any]]:
    """Element and Burn buttons: each completed by tapping one of its spaces."""
    out = []
    for element in dict.fromkeys(a["element"] for a in by_type["notate"]):
        spaces = sorted(a["space"] for a in by_type["notate"] if a["element"] == element)
        out.append({"option": _json({"type": "notate", "element": element}), "spaces": spaces, "text": element,
                    "title": f"Notate {ELEMENT_NAMES.get(element, element)}", "kind": "element"})
    if by_type["burn"]:
        out.append({"option": _json({"type": "burn"}), "spaces": sorted(a["space"] for a in by_type["burn"]),
                    "text": "Burn", "title": "Burn this space", "kind": "burn"})
    return out


def buttons(by_type, tools: dict[str, Any], label) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """Buttons of the sheet's actions, and the Pipette's choices of pair."""
    out = [{"act": _json(a), "text": f"Take {ELEMENT_NAMES[a['element']]}", "kind": "choose"}
           for a in by_type["choose_element"]]
    out += [{"act": _json(a), "text": f"Trash {a['element']}", "kind": "trash"} for a in by_type["trash"]]
    pipette = []
    for a in by_type["use_tool"]:
        tool = tools.get(a["tool"])
        name = tool.name if tool else a["tool"]
        if a["tool"] == "pipette":
            x, y = a["spaces"]
            pipette.append({"act": _json(a), "text": f"{label(x)}\u2013{label(y)}"})
        elif a["tool"] == "mortar-and-pestle":
            out.append({"act": _json(a), "text": f"{name}: grind {a['element']} to {GROUND.get(a['element'], '?')}",
                        "kind": "tool"})
        else:
            out.append({"act": _json(a), "text": f"Use the {name}", "kind": "tool"})
    return out, pipette


def dice(snap, view, by_type) -> list[dict[str, Any]]:
    picks = {a["die"] for a in by_type["take_die"]}
    out = []
    for i, d in enumerate(view["dice"]):
        if d["place"] == "box":
            continue
        out.append({"index": i, "colour": d["colour"], "face": d["face"], "place": d["place"],
                    "text": {"burner": "burner", None: "?"}.get(d["face"], d["face"]),
                    "word": FACE_WORDS.get(d["face"], "not rolled"),
                    "owner": snap.name(d["seat"]) if d["seat"] is not None else None,
                    "takeable": i in picks, "act": _json({"type": "take_die", "die": i})})
    return out


def card_line(snap, view, by_type, data) -> list[dict[str, Any]]:
    """The notecard line, newest (6) first."""
    claimed_by: dict[str, list[str]] = defaultdict(list)
    for s, sheet in enumerate(view["seats"]):
        for c in sheet["claims"]:
            claimed_by[c["notecard"]].append(snap.name(s))
    claimable = {a["notecard"] for a in by_type["claim"]}
    out = []
    for i, card_id in enumerate(view["line"]):
        card = data.notecard(card_id)
        out.append({"id": card_id, "name": card.name, "formula": card.formula, "fact": card.fact,
                    "structure_html": None if card.is_lab_fire else structure_html(snap.game, card_id, card.layout,
                                                                                    card.name),
                    "formula_runs": formula_runs(card.formula),
                    "fire": card.is_lab_fire, "points": LINE_POINTS[i] if i < len(LINE_POINTS) else 0,
                    "claimable": card_id in claimable, "claimed_by": claimed_by.get(card_id, []),
                    "act": _json({"type": "claim", "notecard": card_id})})
    return out


def sheets(snap, seat, view, data, offered_spaces, offered_bonds) -> list[dict[str, Any]]:
    """Every note sheet, the caller's first, with the score so far.

    Everything on a note sheet is public (the engine's view hides only the
    deck's order), so another player's sheet is the same for every phone:
    it is worked out once per version, from the spectator's view, and its
    drawings are shared across versions too (:mod:`.drawn`)."""
    order = ([seat] if seat is not None else []) + [s for s in range(len(view["seats"])) if s != seat]
    return [sheet_entry(snap, s, view["seats"][s], data, offered_spaces, offered_bonds) if s == seat
            else snap.cached(("labnotes-sheet", s),
                             lambda s=s: sheet_entry(snap, s, snap.view(None)["seats"][s], data, None, None))
            for s in order]


def sheet_entry(snap, s, shown, data, offered_spaces, offered_bonds) -> dict[str, Any]:
    """One seat's sheet: its own (with the taps it is offered) or anyone's (``None`` offered)."""
    mine = offered_spaces is not None
    score = next(x for x in snap.running_result().scores if x.seat == s)
    tools = {t.id: t.name for t in data.tools}
    return {
        "seat": s, "name": snap.name(s), "mine": mine,
        "field_html": field_html(snap.game, shown, name=snap.name(s), mine=mine,
                                 offered_spaces=offered_spaces or set(), offered_bonds=offered_bonds or set()),
        "trash": list(shown["trash"]), "trash_cans": data.sheet.trash_cans,
        "tool_marks": shown["tool_marks"], "tools_open": shown["tools_open"],
        "track": data.sheet.tools_track.spaces,
        "claims": [{"name": data.notecard(c["notecard"]).name, "points": c["points"]} for c in shown["claims"]],
        "boxes": data.sheet.notecard_boxes,
        "tools": [tools[t] for t in shown["tools"] if t in tools],
        "pending": [{"element": e, "source": SOURCE_WORDS.get(src, src)} for e, src in shown["pending"]],
        "burns": shown["burns"], "fires": shown["fires"], "choosing": shown["choosing"],
        "done": shown["done"], "empty": shown["empty_spaces"],
        "score": {"total": score.total, "lines": [{"label": l.label, "points": l.points} for l in score.lines],
                  "details": dict(score.details)},
        "panel_html": panel_html(snap.game, shown, score, name=snap.name(s)),
        "breakdown": score_lines(score),
    }


def status(snap, view) -> str:
    to_move, phase, lead = snap.to_move(), view["phase"], snap.name(view["lead"])
    if phase == "roll":
        return f"{lead} rolls the dice."
    if phase == "select":
        return f"{snap.name(to_move[0])} picks a die." if to_move else ""
    if phase == "notate":
        waiting = ", ".join(snap.name(s) for s in to_move)
        return f"Everyone notates. Still notating: {waiting}." if waiting else ""
    if phase == "fire":
        return "Lab Fire! Each player burns 2 empty spaces or uses the Fire Suppressant."
    return "The game is over."


def prompt(view, seat, by_type) -> str:
    if seat is None:
        return ""
    me = view["seats"][seat]
    if by_type["roll"]:
        return "You lead: roll the dice."
    if by_type["take_die"]:
        return "Your pick: tap a die to take it."
    if by_type["burn"] and view["phase"] == "fire":
        return "Tap an empty space, then Burn (twice per Lab Fire)."
    if by_type["burn"]:
        return "Bunsen Burner: tap an empty space, then Burn. You then choose any element."
    if by_type["choose_element"]:
        return "Choose the element the Bunsen Burner gives you."
    if me["pending"]:
        left = ", ".join(f"{e} ({SOURCE_WORDS.get(src, src)})" for e, src in me["pending"])
        return f"To notate: {left}. Tap an empty space, then the element."
    if by_type["finish"]:
        return "Draw bonds to your new elements, claim a notecard, or finish your turn."
    return ""


def tools_in_play(snap, seat, view, data) -> list[dict[str, Any]]:
    tools = {t.id: t for t in data.tools}
    out = []
    for t in view["tools"]:
        tool = tools[t]
        owners = [snap.name(s) for s, sheet in enumerate(view["seats"]) if t in sheet["tools"]]
        out.append({"id": t, "name": tool.name, "state": tool.state, "compound": tool.compound,
                    "structure_html": structure_html(snap.game, t, tool.layout, tool.compound),
                    "formula_runs": formula_runs(tool.formula),
                    "formula": tool.formula, "icons": tool.icons, "ability": tool.ability,
                    "owners": owners, "mine": seat is not None and t in view["seats"][seat]["tools"]})
    return out


def board_context(snap: Any, seat: int | None) -> dict[str, Any]:
    game, view = snap.game, snap.view(seat)
    data = game.data
    by_type = _by_type(snap.actions(seat))
    options = space_options(by_type)
    offered_spaces = {k for o in options for k in o["spaces"]}
    offered_bonds = {tuple(sorted(a["spaces"])) for a in by_type["bond"]}
    sheet_buttons, pipette = buttons(by_type, {t.id: t for t in data.tools}, game.rules.label)
    finish = by_type["finish"][0] if by_type["finish"] else None
    return {"ln": {
        "phase": view["phase"], "phase_word": PHASE_WORDS.get(view["phase"], view["phase"]),
        "round": view["round"], "lead": snap.name(view["lead"]),
        "status": status(snap, view), "prompt": prompt(view, seat, by_type),
        "dice": dice(snap, view, by_type), "roll": bool(by_type["roll"]),
        "reroll": sorted({i for a in by_type["reroll"] for i in a["dice"]}), "rerolls_used": view["rerolls"],
        "line": card_line(snap, view, by_type, data), "deck": view["deck"], "discard": len(view["discard"]),
        "sheets": sheets(snap, seat, view, data, offered_spaces, offered_bonds),
        "space_options": options,
        "bond_buttons": [{"act": _json(a), "text": "\u2013".join(game.rules.label(k) for k in a["spaces"])}
                         for a in by_type["bond"]],
        "buttons": sheet_buttons, "pipette": pipette, "finish": _json(finish) if finish else None,
        "finish_confirm": finish_confirm(by_type) if finish else "",
        "tools": tools_in_play(snap, seat, view, data),
    }}


def finish_confirm(by_type: dict[str, list[dict[str, Any]]]) -> str:
    """What "Finish my turn" asks first when it gives something up: bonds
    still to draw or a notecard to claim this turn (nothing: it asks nothing).

    >>> finish_confirm({"bond": [{}, {}], "claim": [{}]})
    'Finish your turn? You could still draw 2 bonds and claim a notecard.'
    >>> finish_confirm({"bond": [], "claim": []})
    ''
    """
    could = []
    bonds = len(by_type.get("bond", ()))
    if bonds:
        could.append(f"draw {bonds} bond{'s' if bonds > 1 else ''}")
    if by_type.get("claim"):
        could.append("claim a notecard")
    return f"Finish your turn? You could still {' and '.join(could)}." if could else ""


def action_label(action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "notate":
        return f"Notate {action.get('element')} on space {action.get('space')}"
    if kind == "take_die":
        return f"Take die {action.get('die')}"
    return ""
