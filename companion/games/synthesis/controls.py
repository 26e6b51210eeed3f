"""The controls of one seat's phone, built from ``actions(state, seat)``
alone: every legal action is offered exactly once, and nothing else.

* the turn's bond or an active molecule's bond: every legal placement in a
  menu (``data-act-from``), which the loupe fills as the player taps lines
  (``static/synthesis.js``); the engine's own list, so a drawing the phone
  offers is always one the rules allow;
* a free bond: a colour (``data-option``, ``data-fill="line"``) completed by
  tapping a line of the loupe (``data-target="line"``), in either order;
* everything else a button (``data-act``): roll, pass, shade or not,
  decline, finish, the goal cards kept in Unpredictable Consequences.

An action no builder here knows still gets a plain button, so a new engine
action is never lost on a phone.
"""

from __future__ import annotations

import json
from typing import Any

def to_json(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def an(word: str) -> str:
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


def controls(game: Any, view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    """What this phone may do now, grouped for the decision panel."""
    cards = game.cards
    left = {to_json(a): a for a in actions}   # each action's JSON made once: a bond has a hundred placements
    out: dict[str, Any] = {"buttons": [], "placements": None, "free": None, "goals": [], "kind": None}

    def take(kind: str) -> list[tuple[str, dict[str, Any]]]:
        found = [(act, a) for act, a in left.items() if a["type"] == kind]
        for act, _ in found:
            del left[act]
        return found

    def button(act: str, text: str, cls: str = "", confirm: str = "") -> None:
        out["buttons"].append({"act": act, "text": text, "cls": cls, "confirm": confirm})

    for act, a in take("choose_goals"):
        chain, pattern = cards.chains[a["chain"]].row, cards.patterns[a["pattern"]].row
        out["goals"].append({"act": act, "chain": chain.name, "pattern": pattern.name})
        out["kind"] = "choose"
    for act, _ in take("roll"):
        button(act, "Roll the dice", "primary big")
        out["kind"] = "roll"
    for act, a in take("elemental"):
        button(act, "Shade it: an elemental molecule" if a["shade"] else "Treat it as a normal molecule",
               "primary" if a["shade"] else "")
        out["kind"] = "elemental"
    for kind in ("bond", "active_bond"):
        found = take(kind)
        if found:
            out["placements"] = {"kind": kind, "options": [
                {"act": act, "lines": a["lines"], "text": " \u00b7 ".join(a["lines"])} for act, a in found]}
            out["kind"] = out["kind"] or kind
    for act, _ in take("decline"):
        button(act, "Decline this bond (for good)")
    for act, _ in take("pass"):
        button(act, "Pass: the bond fits nowhere")
    free = [a for _, a in take("free_bond")]
    if free:
        by_colour: dict[str, list[str]] = {}
        for a in free:
            by_colour.setdefault(a["colour"], []).append(a["line"])
        out["free"] = {"lines": sorted({a["line"] for a in free}), "options": [
            {"option": to_json({"type": "free_bond", "colour": c}), "colour": c,
             "text": f"Free bond in {c}", "targets": ",".join(lines)} for c, lines in by_colour.items()]}
        out["kind"] = out["kind"] or "free"
    for act, _ in take("finish"):
        final = view["phase"] == "final"
        # after the last turn, a free bond not drawn now is lost: asked once
        button(act, "Done with my free bonds" if final else "Finish my turn", "primary",
               "Done? The free bonds you have not drawn are lost." if final and free else "")
        out["kind"] = out["kind"] or "finish"
    for act, a in left.items():   # never lose an action the engine offers
        rest = ", ".join(f"{k} {v}" for k, v in a.items() if k != "type")
        button(act, f"{a['type'].replace('_', ' ').capitalize()} ({rest})")
    return out
