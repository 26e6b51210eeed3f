"""The controls of one seat's phone, built from ``actions(state, seat)``
alone: every legal action is offered exactly once, and nothing else.

They use the companion's generic gestures (``companion.js``): a button
sends its action (``data-act``); an option misses one field, filled by
tapping a target (``data-option`` + ``data-fill="cell"`` + ``data-values``,
completed by a grid space ``data-target="cell"``, or an element on the
Evaporating Trade Dish ``data-target="take"``); a menu sends the action
chosen in it (``data-act-from``). An action no builder below knows still
gets a plain button, so a new engine action is never lost on a phone.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from engine.compounded.discover import MAX_OFFERS
from engine.compounded.state import cell_of, tool_of

ELEMENT_WORDS = {"H": "Hydrogen", "O": "Oxygen", "N": "Nitrogen", "C": "Carbon", "Ca": "Calcium", "S": "Sulfur"}
TRACK_WORDS = {"discover": "Discover", "study": "Study", "research": "Research", "lab": "Lab"}


_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
"""``json.dumps`` with these settings, without making an encoder at each call (a phone's every action is encoded)."""


def to_json(action: dict[str, Any]) -> str:
    return _encode(action)


def describe_token(b: Any, where: str) -> str:
    i, tool = cell_of(where), tool_of(where)
    if i is not None:
        return f"on {b.cell_name(i)}"
    if tool is not None:
        return f"on the {b.tool_name(tool)} refresh space"
    return "on your Workbench"


class Panel:
    """Controls under construction; each action is used once."""

    def __init__(self, actions: list[dict[str, Any]]) -> None:
        self.left = {to_json(a): a for a in actions}
        self.buttons: list[dict[str, str]] = []
        self.options: list[dict[str, Any]] = []
        self.selects: list[dict[str, Any]] = []
        self.targets: set[int] = set()
        self.take_targets: set[str] = set()

    def of(self, kind: str, **match: Any) -> list[dict[str, Any]]:
        return [a for a in self.left.values() if a["type"] == kind and all(a.get(k) == v for k, v in match.items())]

    def use(self, action: dict[str, Any]) -> str:
        """The action as sent (its JSON: the key it is left under, encoded once)."""
        key = to_json(action)
        del self.left[key]
        return key

    def button(self, action: dict[str, Any], text: str, kind: str = "") -> None:
        self.buttons.append({"act": self.use(action), "text": text, "kind": kind})

    def option(self, actions: list[dict[str, Any]], fill: str, text: str, title: str = "",
               element: str | None = None) -> None:
        """One option for actions that differ only in ``fill``."""
        if not actions:
            return
        base = {k: v for k, v in actions[0].items() if k != fill}
        values = [a[fill] for a in actions]
        for a in actions:
            self.use(a)
        if fill == "cell":
            self.targets.update(values)
        else:
            self.take_targets.update(values)
        self.options.append({"option": to_json(base), "fill": fill, "targets": ",".join(str(v) for v in values),
                             "text": text, "title": title or text, "element": element})

    def select(self, ident: str, label: str, actions: list[tuple[dict[str, Any], str]], button: str) -> None:
        if actions:
            self.selects.append({"id": ident, "label": label, "button": button,
                                 "choices": [{"act": self.use(a), "text": t} for a, t in actions]})


def controls(b: Any, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """``b`` is read only when there are ``actions`` (a seat with none is
    offered nothing, and its Board is not made)."""
    panel = Panel(actions)
    task = (b.view["deciding"] or {}) if actions else {}
    kind = task.get("do") if actions else None
    extra: dict[str, Any] = {"fire": None, "trade": None, "info": [], "dish": None}
    prompt = ""
    if kind in BUILDERS:
        prompt, more = BUILDERS[kind](b, panel, task)
        extra.update(more)
    for a in list(panel.left.values()):  # anything no builder placed: a plain button
        panel.button(a, label(a))
    return {"kind": kind, "prompt": prompt, "buttons": panel.buttons, "options": panel.options,
            "selects": panel.selects, "targets": panel.targets, "take_targets": panel.take_targets, **extra}


def label(a: dict[str, Any]) -> str:
    rest = ", ".join(f"{k} {v}" for k, v in a.items() if k != "type")
    words = str(a.get("type", "?")).replace("_", " ").capitalize()
    return f"{words} ({rest})" if rest else words


def _gems(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {e}" for e, n in counts.items()) or "nothing"


# --- Discover --------------------------------------------------------------------------
def _trade(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    me = b.seat
    opening = p.of("trade_with")
    for a in opening:
        p.button(a, f"Offer a trade to {b.snap.name(a['seat'])}")
    mine = next((o for o in task["offers"] if o["from"] == me), None)
    offer = None
    if mine is not None:
        offer = {"to": b.snap.name(mine["to"]), "gives": _gems(mine["give"]), "asks": _gems(mine["get"]),
                 "proposed": mine["proposed"], "give_buttons": [], "ask_buttons": []}
        for a in p.of("offer_give"):
            offer["give_buttons"].append({"act": p.use(a), "text": f"+ {a['element']}",
                                          "title": f"Give one more {ELEMENT_WORDS[a['element']]}"})
        for a in p.of("offer_ask"):
            offer["ask_buttons"].append({"act": p.use(a), "text": f"+ {a['element']}",
                                         "title": f"Ask for one more {ELEMENT_WORDS[a['element']]}"})
        offer["propose"] = p.use(p.of("propose")[0]) if p.of("propose") else None
        offer["cancel"] = p.use(p.of("cancel_offer")[0]) if p.of("cancel_offer") else None
    incoming = []
    for o in task["offers"]:
        if o["to"] != me or not o["proposed"]:
            continue
        acc, dec = p.of("accept", seat=o["from"]), p.of("decline", seat=o["from"])
        incoming.append({"from": b.snap.name(o["from"]), "gives": _gems(o["give"]), "asks": _gems(o["get"]),
                         "accept": p.use(acc[0]) if acc else None, "decline": p.use(dec[0]) if dec else None})
    others = [{"from": b.snap.name(o["from"]), "to": b.snap.name(o["to"]), "proposed": o["proposed"]}
              for o in task["offers"] if me not in (o["from"], o["to"])]
    done = p.use(p.of("done_trading")[0]) if p.of("done_trading") else None
    if incoming:
        prompt = "You have an offer: accept or decline it."
    elif offer and offer["proposed"]:
        prompt = f"Your offer is with {offer['to']}: wait for the answer, or cancel it."
    elif offer:
        prompt = f"Build your offer to {offer['to']}: what you give and what you ask, then propose it."
    elif opening:
        prompt = "Trade with another scientist, or say you are done trading."
    elif task["opened"][me] >= MAX_OFFERS:
        prompt = f"You have opened {MAX_OFFERS} offers this phase, as many as the table allows: say you are done trading."
    else:
        prompt = "Everyone else is done trading: say you are done trading too."
    return prompt, {"trade": {"offer": offer, "incoming": incoming, "others": others, "done": done}}


def _dish(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    gives = defaultdict(list)
    for a in p.of("dish_trade"):
        gives[a["give"]].append(a)
    for g, acts in gives.items():
        p.option(acts, "take", f"Give {g}", f"Put one {ELEMENT_WORDS[g]} on the dish", element=g)
    for a in p.of("pass"):
        p.button(a, "Pass (no more dish trades this phase)")
    dish = [{"e": e, "target": e in p.take_targets} for e, n in b.view["dish"].items() for _ in range(n)]
    return "Tap an element on the dish, then the one you give for it; or pass.", {"dish": dish}


def _discard(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    me = b.view["scientists"][b.seat]
    held, keep = sum(me["bench"].values()), b.rules.value(b.state, b.seat, "lab")
    for a in p.of("discard"):
        p.button(a, f"Discard {a['element']}", "element")
    return f"You hold {held} elements and your Lab number keeps {keep}: discard {held - keep} to the tray.", {}


# --- Study, and the Claim Jump ------------------------------------------------------------
def _claims(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    tokens = b.view["scientists"][b.seat]["tokens"]
    by_token = defaultdict(list)
    tools = []
    for a in p.of("claim"):
        if "cell" in a:
            by_token[a["token"]].append(a)
        else:
            tools.append((a, f"Token {a['token'] + 1} ({describe_token(b, tokens[a['token']])}) "
                             f"to the {b.tool_name(a['tool'])} refresh space"))
    for k in sorted(by_token):
        p.option(by_token[k], "cell", f"Claim with token {k + 1}",
                 f"Claim token {k + 1}, now {describe_token(b, tokens[k])}")
    p.select("claim-tool", "Or move a claim token to a tool refresh space (it refreshes that tool):", tools,
             "Move it there")
    for a in p.of("keep"):
        p.button(a, "Keep my claim tokens where they are")
    for a in p.of("pass"):
        p.button(a, "No Claim Jump")
    jump = task.get("do") == "claim_jump"
    prompt = ("Claim Jump: tap a compound, then the claim token to move there; or a tool space; or pass."
              if jump else "Tap a compound to claim, then the claim token to put there; or keep.")
    return prompt, {}


# --- Research ------------------------------------------------------------------------------
def _research(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    limit = b.rules.value(b.state, b.seat, "research")
    p.select("exchange", f"Exchange {task['rate']} of a kind for 1 from the bag (before placing):",
             [(a, f"{task['rate']} {a['give']} for 1 {a['take']}") for a in p.of("exchange")], "Exchange")
    for a in p.of("use_tool", tool="pipette"):
        p.button(a, "Use the Pipette: exchange 2 for 1 this turn", "tool")
    for a in p.of("use_tool", tool="safety_goggles"):
        p.button(a, "Use the Safety Goggles: place from the tray (no exchanges)", "tool")
    by_key = defaultdict(list)
    for a in p.of("place"):
        by_key[(a["element"], a.get("from"))].append(a)
    for (e, source), acts in sorted(by_key.items(), key=lambda kv: (kv[0][1] or "", kv[0][0])):
        text = f"{e} from the tray" if source == "tray" else e
        p.option(acts, "cell", text, f"Place {ELEMENT_WORDS[e]}" + (" from the tray" if source else ""), element=e)
    for a in p.of("done"):
        p.button(a, "Done placing", "primary")
    info = [f"Placed {task['placed']} of {limit}."]
    if task["goggles"]:
        info.append("Safety Goggles on: the tray's elements are yours to place.")
    if task["rate"] == 2:
        info.append("Pipette on: exchanges are 2 for 1.")
    return "Tap a compound, then the element to place on it; then Done.", {"info": info}


# --- Lab -------------------------------------------------------------------------------------
def _burner(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    p.option(p.of("use_tool", tool="bunsen_burner"), "cell", "Bunsen Burner", "Add a flame token to this compound")
    for a in p.of("pass"):
        p.button(a, "Keep the Bunsen Burner")
    return "Bunsen Burner: tap a compound without flames to add one; or keep it for later.", {}


def _score(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for a in p.of("score"):
        p.button(a, f"Score {b.cell_name(a['cell'])}", "primary")
    return "Score your completed compounds, one at a time, in the order you choose.", {}


def _journal(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for a in p.of("use_tool", tool="journal"):
        p.button(a, f"Journal: take {a['element']} back to my Workbench", "tool")
    for a in p.of("pass"):
        p.button(a, "Keep the Journal")
    return f"You score {b.cell_name(task['cell'])}: use the Journal to keep one of its elements?", {}


def _advance(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for a in p.of("advance"):
        p.button(a, f"Move up {TRACK_WORDS[a['track']]}", "primary")
    return "Move up the experiment of the compound's state, or your Lab.", {}


def _grant(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for a in p.of("grant"):
        p.button(a, f"{b.snap.name(a['seat'])}: {TRACK_WORDS[a['track']]} up 1")
    return "Grant: choose which experiment of the lowest-scoring scientist moves up.", {}


def _cylinder(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for a in p.of("use_tool", tool="graduated_cylinder"):
        p.button(a, f"{TRACK_WORDS[a['from']]} down 1, {TRACK_WORDS[a['to']]} up 1", "tool")
    for a in p.of("pass"):
        p.button(a, "Keep the Graduated Cylinder")
    return "Graduated Cylinder: move one experiment down 1 and another up 1; or keep it.", {}


# --- Lab Fires ---------------------------------------------------------------------------------
def _extinguish(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for a in p.of("use_tool", tool="fire_extinguisher"):
        p.button(a, "Use my Fire Extinguisher", "primary")
    for a in p.of("pass"):
        p.button(a, "Let it burn", "danger")
    burning = [c for c in b.grid(set()) if c["kind"] == "compound" and c["flammable"]]
    where = b.cell_name(task["cell"]) if task.get("cell") is not None else None
    fire = {"where": where, "burning": [{"label": c["label"], "flames": c["flames"], "slots": c["slots"],
                                         "full": c["full"]} for c in burning]}
    return ("A Lab Fire! Use your Fire Extinguisher to discard it, or let it burn: every flammable compound "
            "gains a flame, and a full one explodes."), {"fire": fire}


def _scatter(b: Any, p: Panel, task: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    by_element = defaultdict(list)
    for a in p.of("scatter"):
        if "cell" in a:
            by_element[a["element"]].append(a)
        else:
            p.button(a, f"{a['element']} to the tray (no neighbour needs it)")
    for e in sorted(by_element):
        p.option(by_element[e], "cell", f"Move {e}", f"Move {ELEMENT_WORDS[e]} to this compound", element=e)
    where = f"row {task['from'] // b.view['cols'] + 1}, column {task['from'] % b.view['cols'] + 1}"
    return (f"The compound at {where} exploded. Its elements ({_gems(task['elements'])}) go to compounds above, "
            "below, left or right that need them: tap a compound, then the element."), {}


BUILDERS = {
    "trade": _trade, "dish": _dish, "discard": _discard, "claims": _claims, "claim_jump": _claims,
    "research_turn": _research, "burner": _burner, "score_turn": _score, "journal": _journal,
    "advance": _advance, "grant": _grant, "cylinder": _cylinder, "extinguish": _extinguish, "scatter": _scatter,
}
