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
from companion.games.labnotes.drawn import die_html, field_html, other_sheet, panel_html, piece, structure_html
from companion.games.labnotes.sheet import formula_runs
from companion.games.labnotes.words import score_lines
from companion.kept import serial

SOURCE_WORDS = {"die": "your die", "community": "Community die", "burner": "Bunsen Burner", "flask": "Retort Flask"}
FACE_WORDS = {"H": "Hydrogen", "O": "Oxygen", "N": "Nitrogen", "C": "Carbon", "burner": "Bunsen Burner"}
PHASE_WORDS = {"roll": "Roll", "select": "Select dice", "notate": "Notate", "fire": "Lab Fire", "over": "Game over"}


_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
"""``json.dumps`` with these settings, without making an encoder at each call (a phone's every action is encoded)."""


def _json(action: dict[str, Any]) -> str:
    return _encode(action)


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


def dice(snap, view, picks: frozenset[int]) -> list[dict[str, Any]]:
    """The dice on the table; ``picks``: those this phone may take."""
    out = []
    for i, d in enumerate(view["dice"]):
        if d["place"] == "box":
            continue
        die = {"index": i, "colour": d["colour"], "face": d["face"], "place": d["place"],
               "text": {"burner": "burner", None: "?"}.get(d["face"], d["face"]),
               "word": FACE_WORDS.get(d["face"], "not rolled"),
               "owner": snap.name(d["seat"]) if d["seat"] is not None else None,
               "takeable": i in picks, "act": _json({"type": "take_die", "die": i})}
        out.append({**die, "html": die_html(die)})
    return out


def card_line(snap, view, claimable: frozenset[str], data) -> list[dict[str, Any]]:
    """The notecard line, newest (6) first; ``claimable``: what this phone may claim."""
    claimed_by: dict[str, list[str]] = defaultdict(list)
    for s, sheet in enumerate(view["seats"]):
        for c in sheet["claims"]:
            claimed_by[c["notecard"]].append(snap.name(s))
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


def sheets(snap, seat, data, offered_spaces, offered_bonds) -> list[dict[str, Any]]:
    """Every note sheet, the caller's first, with the score so far.

    Everything on a note sheet is public (the engine's view hides only the
    deck's order), so a sheet is the same on every phone but its owner's
    (where it is offered taps): each is worked out once per version, from the
    spectator's view, and kept across versions while what it is drawn from
    stays the same (:func:`sheet_key`), with its drawings (:mod:`.drawn`)."""
    shared = snap.cached("labnotes-sheets", lambda: [shared_sheet(snap, s, data)
                                                     for s in range(len(snap.view(None)["seats"]))])
    if seat is None:
        return [entry for _, entry in shared]
    key, entry = shared[seat]
    spaces, bonds = tuple(sorted(offered_spaces)), tuple(sorted(offered_bonds))
    own = piece((*key, "mine", spaces, bonds), lambda: own_sheet(entry, field_html(
        snap.game, snap.view(None)["seats"][seat], name=entry["name"], mine=True, offered_spaces=offered_spaces,
        offered_bonds=offered_bonds)))
    return [own] + [entry for s, (_, entry) in enumerate(shared) if s != seat]


def own_sheet(entry: dict[str, Any], drawn: Any) -> dict[str, Any]:
    """A sheet as its owner sees it: ``drawn`` with the taps it is offered."""
    return {**entry, "mine": True, "field_html": drawn, "face": {**entry["face"], "field_html": drawn}}


def sheet_key(snap, s) -> tuple[Any, ...]:
    """What seat ``s``'s sheet is drawn from: what is written on it (the
    view's), its player's name, and its score so far; written out with
    ``repr`` (exact for the engine's plain data, and half the cost of JSON)."""
    score = next(x for x in snap.running_result().scores if x.seat == s)
    written = repr((snap.view(None)["seats"][s], score.total,
                    [(line.key, line.label, line.points) for line in score.lines], score.details))
    return ("sheet", serial(snap.game), s, snap.name(s), written)


def shared_sheet(snap, s, data) -> tuple[tuple[Any, ...], dict[str, Any]]:
    key = sheet_key(snap, s)
    return key, piece(key, lambda: sheet_entry(snap, s, snap.view(None)["seats"][s], data))


def sheet_entry(snap, s, shown, data) -> dict[str, Any]:
    """One seat's sheet as anyone sees it (its owner, with its taps: :func:`own_sheet`)."""
    score = next(x for x in snap.running_result().scores if x.seat == s)
    tools = {t.id: t.name for t in data.tools}
    entry = {
        "seat": s, "name": snap.name(s), "mine": False,
        "field_html": field_html(snap.game, shown, name=snap.name(s), mine=False, offered_spaces=set(),
                                 offered_bonds=set()),
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
    # what its card (``_mysheet.html``, ``_others.html``) shows of it: a sheet that changed
    # elsewhere (a die taken, an element waiting to be notated) does not redraw the card
    entry["face"] = {k: entry[k] for k in ("seat", "name", "done", "field_html", "panel_html", "tools")}
    entry["face"]["score"] = {"total": score.total}
    entry["others"] = {}   # as the other phones show it (:func:`shown_to_others`)
    return entry


def shown_to_others(entry: dict[str, Any], opened: bool) -> Any:
    """A sheet as another seat's phone shows it (closed) or a spectator's
    (``opened``): drawn once per change of the sheet, when first shown."""
    found = entry["others"].get(opened)
    if found is None:   # two threads at once: setdefault keeps one drawing for both
        found = entry["others"].setdefault(opened, other_sheet(entry["face"], opened))
    return found


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
    if by_type["finish"] and by_type["bond"]:
        return ("Draw bonds to your new elements (tap a blue mark between two elements on your sheet), "
                "claim a notecard, or finish your turn.")
    if by_type["finish"]:
        return "Claim a notecard, or finish your turn."
    return ""


def tools_in_play(snap, held: tuple[str, ...], view, data) -> list[dict[str, Any]]:
    """The game's tools; ``held``: this phone's (none for a spectator)."""
    tools = {t.id: t for t in data.tools}
    out = []
    for t in view["tools"]:
        tool = tools[t]
        owners = [snap.name(s) for s, sheet in enumerate(view["seats"]) if t in sheet["tools"]]
        out.append({"id": t, "name": tool.name, "state": tool.state, "compound": tool.compound,
                    "structure_html": structure_html(snap.game, t, tool.layout, tool.compound),
                    "formula_runs": formula_runs(tool.formula),
                    "formula": tool.formula, "icons": tool.icons, "ability": tool.ability,
                    "owners": owners, "mine": t in held})
    return out


# What the dice, the notecard line and the tools are drawn from: kept across
# versions under these keys (:func:`.drawn.piece`), each is the same object
# while they stay the same, and the parts showing them compare them at once.
def dice_key(snap, view, picks: frozenset[int]) -> tuple[Any, ...]:
    return ("dice", tuple((d["colour"], d["face"], d["place"], None if d["seat"] is None else snap.name(d["seat"]))
                          for d in view["dice"]), tuple(sorted(picks)))


def line_key(snap, view, claimable: frozenset[str]) -> tuple[Any, ...]:
    claims = tuple((c["notecard"], snap.name(s)) for s, sheet in enumerate(view["seats"]) for c in sheet["claims"])
    return ("line", serial(snap.game), tuple(view["line"]), claims, tuple(sorted(claimable)))


def tools_key(snap, view, held: tuple[str, ...]) -> tuple[Any, ...]:
    owners = tuple((snap.name(s), tuple(sheet["tools"])) for s, sheet in enumerate(view["seats"]))
    return ("tools", serial(snap.game), tuple(view["tools"]), owners, held)


def table(snap) -> dict[str, Any]:
    """What every phone shows alike, once per version."""
    view = snap.view(None)
    return {
        "phase": view["phase"], "phase_word": PHASE_WORDS.get(view["phase"], view["phase"]),
        "round": view["round"], "lead": snap.name(view["lead"]), "status": status(snap, view),
        "rerolls_used": view["rerolls"], "deck": view["deck"], "discard": len(view["discard"]),
    }


def board_context(snap: Any, seat: int | None) -> dict[str, Any]:
    """The board for one phone. What is the same on every phone comes from
    the spectator's view (everything on the table is public but the deck's
    order), worked out once per version; what differs (the dice it may take,
    the notecards it may claim, its tools, its own sheet) once per version
    for each phone that differs."""
    game, view = snap.game, snap.view(None)
    data = game.data
    by_type = _by_type(snap.actions(seat))
    options = space_options(by_type)
    offered_spaces = {k for o in options for k in o["spaces"]}
    offered_bonds = {tuple(sorted(a["spaces"])) for a in by_type["bond"]}
    sheet_buttons, pipette = buttons(by_type, {t.id: t for t in data.tools}, game.rules.label)
    finish = by_type["finish"][0] if by_type["finish"] else None
    picks = frozenset(a["die"] for a in by_type["take_die"])
    claimable = frozenset(a["notecard"] for a in by_type["claim"])
    held = tuple(view["seats"][seat]["tools"]) if seat is not None else ()
    every = sheets(snap, seat, data, offered_spaces, offered_bonds)
    return {"ln": {
        **snap.cached("labnotes-table", lambda: table(snap)),
        "prompt": prompt(view, seat, by_type),
        "dice": snap.cached(("labnotes-dice", picks),
                            lambda: piece(dice_key(snap, view, picks), lambda: dice(snap, view, picks))),
        "roll": bool(by_type["roll"]), "reroll": sorted({i for a in by_type["reroll"] for i in a["dice"]}),
        "line": snap.cached(("labnotes-line", claimable), lambda: piece(
            line_key(snap, view, claimable), lambda: card_line(snap, view, claimable, data))),
        "sheets": every,
        # each part reads only the sheets it shows, and only what it shows of them (``face``):
        # another's move does not redraw this phone's own sheet
        "mine": [every[0]["face"]] if seat is not None else [],
        "others": [shown_to_others(sheet, seat is None) for sheet in (every[1:] if seat is not None else every)],
        "final": sorted(every, key=lambda sheet: sheet["seat"]) if snap.over else [],
        "space_options": options,
        "bond_buttons": [{"act": _json(a), "text": "\u2013".join(game.rules.label(k) for k in a["spaces"])}
                         for a in by_type["bond"]],
        "buttons": sheet_buttons, "pipette": pipette, "finish": _json(finish) if finish else None,
        "finish_confirm": finish_confirm(by_type) if finish else "",
        "tools": snap.cached(("labnotes-tools", held), lambda: piece(
            tools_key(snap, view, held), lambda: tools_in_play(snap, held, view, data))),
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
