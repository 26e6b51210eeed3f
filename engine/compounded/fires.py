"""Refilling the grid, Lab Fires, flames and explosions.

A Lab Fire (drawn while refilling, or a compound's reaction) first asks each
scientist in turn order from the lead whether to use their Fire
Extinguisher (``{"type": "use_tool", "tool": "fire_extinguisher"}`` or
``{"type": "pass"}``). If nobody does, every flammable compound gains a flame
token; one with no room left explodes. The claimant of an exploding compound
(or the lead scientist, if it is unclaimed) moves its elements one at a time
to compounds above, below, left or right that still need them
(``{"type": "scatter", "element": "H", "cell": 6}``); an element no
neighbour needs goes to the tray (``{"type": "scatter", "element": "H",
"tray": true}``).
"""

from __future__ import annotations

from engine.compounded.flow import Rules, automatic, decision, element_word
from engine.compounded.lab import clear_cell, end_game
from engine.compounded.research import complete_if_full
from engine.compounded.state import State, add, take, total
from engine.core import Action


def lab_fire(s: State, cell: int | None) -> list[dict]:
    """The tasks of one Lab Fire; ``cell`` holds its card (``None``: a reaction)."""
    s.fires += 1
    return [{"do": "extinguish", "fire": s.fires, "cell": cell, "next": 0},
            {"do": "burn", "fire": s.fires, "cell": cell}]


# --- refilling ----------------------------------------------------------------------
@automatic("clear_fires")
def _clear_fires(r: Rules, s: State, task) -> None:
    """"The Lab Fire card remains in the Research Field until the end of the NEXT Lab phase": so it
    stays through that phase's refill and its fires, and leaves last. Its space is then refilled at
    once, as a space an explosion opens is (reading 22): the grid is full for the next round."""
    cleared = False
    for i, cell in enumerate(s.grid):
        if r.is_lab_fire(cell.card) and cell.since < s.round:
            s.discard.append(cell.card)
            clear_cell(r, s, i)
            cleared = True
    if cleared:
        s.agenda.insert(0, {"do": "refill"})


@automatic("refill")
def _refill(r: Rules, s: State, task) -> None:
    for i, cell in enumerate(s.grid):
        if cell.card is not None:
            continue
        deck = s.lab_partner_deck if i in s.lab_partner_cells else s.deck
        if not deck:
            end_game(r, s, "the compound grid cannot be fully refilled")
            return
        cell.card = deck.pop(0)
        cell.since = s.round
        if r.is_lab_fire(cell.card):
            # "Once a Lab Fire is discarded, a new compound is drawn to continue refilling the grid."
            s.agenda[0:0] = lab_fire(s, i) + [{"do": "refill"}]
            return


# --- extinguishers ----------------------------------------------------------------------
def _asked(s: State, task) -> int | None:
    order = s.order()
    for k in range(task["next"], s.players):
        if s.scientists[order[k]].ready("fire_extinguisher"):
            return order[k]
    return None


def _ext_seats(r: Rules, s: State, task) -> list[int]:
    seat = _asked(s, task)
    return [] if seat is None else [seat]


def _ext_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    return [{"type": "use_tool", "tool": "fire_extinguisher"}, {"type": "pass"}]


def _ext_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    if a["type"] == "pass":
        task["next"] = s.order().index(seat) + 1
        return
    s.scientists[seat].tools["fire_extinguisher"] = False
    s.agenda.pop(0)
    s.agenda = [t for t in s.agenda if not (t["do"] == "burn" and t["fire"] == task["fire"])]
    if task["cell"] is not None:
        s.discard.append(s.grid[task["cell"]].card)
        s.grid[task["cell"]] = type(s.grid[task["cell"]])()


decision("extinguish", choices=_ext_choices, resolve=_ext_resolve,
         refusal="Use your Fire Extinguisher on this Lab Fire, or pass.")(_ext_seats)


# --- the fire burns -----------------------------------------------------------------
@automatic("burn")
def _burn(r: Rules, s: State, task) -> None:
    exploding = []
    for i, cell in enumerate(s.grid):
        card = r.compound(cell.card)
        if not card or not card.flammable:
            continue
        if cell.flames >= card.flame_slots:
            exploding.append(i)
        elif s.flame_supply > 0:  # with the 30 tokens all out, nothing more catches
            cell.flames += 1
            s.flame_supply -= 1
    tasks = []
    for i in exploding:
        claims = r.claimants(s, i)
        decider = next((seat for seat in s.order() if seat in claims), s.lead)
        elements = dict(s.grid[i].elements)
        s.grid[i].elements = {}
        s.discard.append(s.grid[i].card)
        clear_cell(r, s, i)
        if elements:
            tasks.append({"do": "scatter", "fire": task["fire"], "from": i, "seat": decider, "elements": elements})
    s.agenda[0:0] = tasks


def _scatter_seats(r: Rules, s: State, task) -> list[int]:
    return [task["seat"]] if total(task["elements"]) else []


def _scatter_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    out: list[Action] = []
    around = r.neighbours(s, task["from"])
    for e in task["elements"]:
        to = [n for n in around if e in r.missing(s.grid[n])]
        out += [{"type": "scatter", "element": e, "cell": n} for n in to]
        if not to:
            out.append({"type": "scatter", "element": e, "tray": True})
    return out


def _scatter_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    take(task["elements"], a["element"])
    if "cell" in a:
        add(s.grid[a["cell"]].elements, a["element"])
        # "this can potentially cause a compound to be finished. However, since scoring is over,
        # that compound must survive until the next Lab phase!"
        complete_if_full(r, s, a["cell"], None)
    else:
        add(s.tray, a["element"])


def _scatter_why(r: Rules, s: State, task, seat: int, a: Action) -> str | None:
    if a.get("element") not in task["elements"]:
        return f"The exploding compound had no {element_word(a.get('element'))} left to move."
    if "cell" in a:
        return "Elements go to a compound above, below, left or right of the explosion that still needs them."
    return "An element goes to the tray only when no neighbouring compound needs it."


decision("scatter", choices=_scatter_choices, resolve=_scatter_resolve, why=_scatter_why,
         refusal="Move one element of the exploded compound to a neighbouring compound.")(_scatter_seats)
