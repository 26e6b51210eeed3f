"""Tools used at their moment in the Lab phase: Bunsen Burner, Journal,
Graduated Cylinder. (Pipette and Safety Goggles are Research actions; the
Fire Extinguisher is asked for by each Lab Fire.)

* Bunsen Burner, at the start of the Lab phase, in turn order:
  ``{"type": "use_tool", "tool": "bunsen_burner", "cell": i}`` or ``{"type": "pass"}``;
* Journal, when you score a compound: ``{"type": "use_tool", "tool":
  "journal", "element": "S"}`` or ``{"type": "pass"}``;
* Graduated Cylinder, after all scoring, in turn order: ``{"type":
  "use_tool", "tool": "graduated_cylinder", "from": "discover", "to": "lab"}``
  or ``{"type": "pass"}``.
"""

from __future__ import annotations

from engine.compounded.cards import TRACKS
from engine.compounded.flow import Rules, decision
from engine.compounded.scoring import advance, reduce
from engine.compounded.state import State, add, take
from engine.core import Action

PASS = {"type": "pass"}


# --- Bunsen Burner ------------------------------------------------------------------
def _burner_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    if not s.flame_supply:
        return [PASS]
    return [{"type": "use_tool", "tool": "bunsen_burner", "cell": i}
            for i, c in enumerate(s.grid) if r.compound(c.card) and c.flames == 0] + [PASS]


def _burner_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    s.agenda.pop(0)
    if a["type"] == "use_tool":
        s.scientists[seat].tools["bunsen_burner"] = False
        s.grid[a["cell"]].flames += 1
        s.flame_supply -= 1


decision("burner", choices=_burner_choices, resolve=_burner_resolve,
         refusal="The Bunsen Burner adds a flame token to a compound without flame tokens; or pass.")(
    lambda r, s, task: [task["seat"]] if s.scientists[task["seat"]].ready("bunsen_burner") else [])


# --- Journal -----------------------------------------------------------------------
def _journal_seats(r: Rules, s: State, task) -> list[int]:
    seat = task["seat"]
    return [seat] if s.scientists[seat].ready("journal") and s.grid[task["cell"]].elements else []


def _journal_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    return [{"type": "use_tool", "tool": "journal", "element": e} for e in s.grid[task["cell"]].elements] + [PASS]


def _journal_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    s.agenda.pop(0)
    if a["type"] == "use_tool":
        s.scientists[seat].tools["journal"] = False
        take(s.grid[task["cell"]].elements, a["element"])
        add(s.scientists[seat].bench, a["element"])


decision("journal", choices=_journal_choices, resolve=_journal_resolve,
         refusal="Take one element of this compound back to your Workbench with the Journal, or pass.")(_journal_seats)


# --- Graduated Cylinder ------------------------------------------------------------------
def cylinder_moves(r: Rules, s: State, seat: int) -> list[tuple[str, str]]:
    """"You may not reduce any experiment that has scored points": not a
    track at its top, and never the Lab track."""
    down = [t for t in TRACKS if t != "lab" and 0 < s.scientists[seat].level(t) and not r.at_top(s, seat, t)]
    return [(d, u) for d in down for u in TRACKS if u != d and not r.at_top(s, seat, u)]


def _cylinder_choices(r: Rules, s: State, task, seat: int) -> list[Action]:
    return [{"type": "use_tool", "tool": "graduated_cylinder", "from": d, "to": u}
            for d, u in cylinder_moves(r, s, seat)] + [PASS]


def _cylinder_resolve(r: Rules, s: State, task, seat: int, a: Action) -> None:
    s.agenda.pop(0)
    if a["type"] == "use_tool":
        s.scientists[seat].tools["graduated_cylinder"] = False
        reduce(r, s, seat, a["from"])
        advance(r, s, seat, a["to"])


decision("cylinder", choices=_cylinder_choices, resolve=_cylinder_resolve,
         refusal="Move one experiment down 1 and another up 1 (never one that scored), or pass.")(
    lambda r, s, task: [task["seat"]] if s.scientists[task["seat"]].ready("graduated_cylinder")
    and cylinder_moves(r, s, task["seat"]) else [])
