"""The Research phase: exchanges with the bag, then placing elements.

Each scientist in turn order from the lead takes one Research turn:

* ``{"type": "exchange", "give": "H", "take": "S"}``: 3 of a kind for 1
  element still in the bag (2 with the Pipette flipped), before placing;
  the 3 go to the Lead Scientist tray, as discards do;
* ``{"type": "use_tool", "tool": "pipette"}`` or ``"safety_goggles"``;
* ``{"type": "place", "element": "O", "cell": 5}`` (add ``"from": "tray"``
  to place from the tray with the Safety Goggles), up to the Research number;
* ``{"type": "done"}``.

Placing the last element completes a compound: an unclaimed one is marked
with the completer's piece. A claimed one stays its claimants' (a Lab
Partner card with a free spot too): "you won't get the points or an
experiment increase, but you AND the scientist who claimed it get any bonus
reward".
"""

from __future__ import annotations

from engine.compounded.flow import Rules, automatic, cell_word, decision, element_word
from engine.compounded.state import State, add, take
from engine.core import Action


@automatic("research")
def _research(r: Rules, s: State, task) -> None:
    s.phase = "research"
    s.agenda[0:0] = [{"do": "research_turn", "seat": seat, "placed": 0, "exchanged": False, "rate": 3,
                      "goggles": False} for seat in s.order()]


def complete_if_full(r: Rules, s: State, i: int, by: int | None) -> bool:
    """Mark the compound on ``i`` complete if nothing is missing; ``by`` placed the last element."""
    cell = s.grid[i]
    if cell.complete or r.missing(cell):
        return False
    cell.complete = True
    cell.completed_by = by
    if by is not None and not r.claimants(s, i):
        cell.marks.append(by)  # "use 1 of your reserved claim tokens to indicate that you have completed it"
    return True


def place(r: Rules, s: State, seat: int | None, element: str, i: int) -> None:
    add(s.grid[i].elements, element)
    complete_if_full(r, s, i, seat)


def _seats(r: Rules, s: State, task) -> list[int]:
    return [task["seat"]]


def _choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    sc = s.scientists[seat]
    out: list[Action] = []
    if task["placed"] == 0 and not task["goggles"]:
        # "trade 3 of a kind for any element in the bag": the same element too
        out += [{"type": "exchange", "give": g, "take": t}
                for g in sc.bench if sc.bench[g] >= task["rate"] for t in s.bag]
        if task["rate"] == 3 and sc.ready("pipette"):
            out.append({"type": "use_tool", "tool": "pipette"})
    if not task["exchanged"] and not task["goggles"] and sc.ready("safety_goggles"):
        out.append({"type": "use_tool", "tool": "safety_goggles"})
    if task["placed"] < r.value(s, seat, "research"):
        for i in r.open_compounds(s):
            need = r.missing(s.grid[i])
            out += [{"type": "place", "element": e, "cell": i} for e in need if sc.bench.get(e)]
            if task["goggles"]:
                out += [{"type": "place", "element": e, "cell": i, "from": "tray"} for e in need if s.tray.get(e)]
    return out + [{"type": "done"}]


def _resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    sc = s.scientists[seat]
    kind = a["type"]
    if kind == "done":
        s.agenda.pop(0)
    elif kind == "exchange":
        take(sc.bench, a["give"], task["rate"])
        add(s.tray, a["give"], task["rate"])
        take(s.bag, a["take"])
        add(sc.bench, a["take"])
        task["exchanged"] = True
    elif kind == "use_tool":
        sc.tools[a["tool"]] = False
        if a["tool"] == "pipette":
            task["rate"] = 2
        else:
            task["goggles"] = True
    elif kind == "place":
        take(s.tray if a.get("from") == "tray" else sc.bench, a["element"])
        task["placed"] += 1
        place(r, s, seat, a["element"], a["cell"])


def _why(r: Rules, s: State, task, seat: int, a: Action) -> str | None:
    sc = s.scientists[seat]
    kind = a.get("type")
    if kind == "exchange":
        if task["goggles"]:
            return "Scientists using Safety Goggles may not trade elements during the Research phase."
        if task["placed"]:
            return "Exchanges come before you place your first element."
        if sc.bench.get(a.get("give"), 0) < task["rate"]:
            return f"You need {task['rate']} {element_word(a.get('give'))} of a kind to exchange."
        return f"There is no {element_word(a.get('take'))} left in the bag."
    if kind == "place":
        i = a.get("cell")
        if task["placed"] >= r.value(s, seat, "research"):
            return f"You have placed your {r.value(s, seat, 'research')} elements this phase."
        if type(i) is not int or i not in r.open_compounds(s):
            return f"There is no compound waiting for elements at {cell_word(s, i)}."
        if a.get("element") not in r.missing(s.grid[i]):
            return f"That compound does not need {element_word(a.get('element'))}."
        if a.get("from") == "tray" and not task["goggles"]:
            return "Only with Safety Goggles can you place elements from the discard tray."
        return f"You have no {element_word(a.get('element'))} to place."
    if kind == "use_tool":
        return "You cannot use that tool now."
    return None


_PLACE = frozenset(("type", "element", "cell"))
_PLACE_FROM = frozenset(("type", "element", "cell", "from"))


def _legal(r: Rules, s: State, task, seat: int, a: Action) -> bool | None:
    """Whether a placement is one of :func:`_choices`, without listing them
    (any other kind of action: ``None``, list them). Kept to the same
    conditions as :func:`_choices`, and tested against it
    (``tests/engine/compounded/test_study_research.py``)."""
    if a.get("type") != "place":
        return None
    keys = a.keys()
    tray = keys == _PLACE_FROM and a["from"] == "tray" and type(a["from"]) is str
    if not (keys == _PLACE or tray):
        return False
    e, i = a["element"], a["cell"]
    if type(e) is not str or type(i) is not int or not 0 <= i < len(s.grid):
        return False
    if task["placed"] >= r.value(s, seat, "research") or e not in r.missing(s.grid[i]):
        return False
    if tray:
        return bool(task["goggles"] and s.tray.get(e))
    return bool(s.scientists[seat].bench.get(e))


decision("research_turn", choices=_choices, resolve=_resolve, why=_why, legal=_legal,
         refusal="Exchange, place an element, use a Research tool, or say you are done.")(_seats)
