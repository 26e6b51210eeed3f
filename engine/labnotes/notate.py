"""Notate Elements, Connecting Elements, Bunsen Burners, and Score & Claim
Notecards (rulebook, Round Order): what each player does at once in the
notate phase, and the burns a Lab Fire asks for in the fire phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Action, IllegalAction
from engine.labnotes import tools
from engine.labnotes.bonds import check_bond, raise_bond
from engine.labnotes.reading import name_of
from engine.labnotes.scoring import compounds
from engine.labnotes.state import (BURNED, BURNER, ELEMENTS, EMPTY, LINE_POINTS, VALENCE, Claim, Sheet, State,
                                   bond_key)

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules

FIRE_BURNS = 2
"""A Lab Fire burns 2 spaces (Lab Fires)."""
TAKE_ORDER = {"burner": 0, "community": 1, "flask": 2, "die": 3}
"""When two pending elements are alike, notating or trashing takes the one
whose loss closes the fewest options (the die's stays grindable)."""


# --- what a seat may do -------------------------------------------------------------
def offers(r: "Rules", s: State, seat: int) -> list[Action]:
    sh = s.seats[seat]
    empties = sh.empty_spaces()
    if sh.burns:
        return [{"type": "burn", "space": k} for k in empties]
    if sh.choosing:
        return [{"type": "choose_element", "element": e} for e in ELEMENTS]
    trash_room = len(sh.trash) < r.trash_cans
    must = r.must_place(sh)
    if must:
        if empties:
            return [{"type": "notate", "element": must, "space": k} for k in empties]
        return [{"type": "trash", "element": must}] if trash_room else []
    out: list[Action] = []
    for e in dict.fromkeys(e for e, _ in sh.pending):
        out.extend({"type": "notate", "element": e, "space": k} for k in empties)
        if trash_room:
            out.append({"type": "trash", "element": e})
    out.extend({"type": "bond", "spaces": list(pair)} for pair in bondable(r, sh))
    out.extend(tools.offers(r, s, seat))
    out.extend({"type": "claim", "notecard": c} for c in claimable(r, s, sh))
    if not sh.pending:
        out.append({"type": "finish"})
    return out


def fire_offers(r: "Rules", s: State, seat: int) -> list[Action]:
    return [{"type": "burn", "space": k} for k in s.seats[seat].empty_spaces()]


def bondable(r: "Rules", sh: Sheet) -> list[tuple[int, int]]:
    """Bonds that may be raised now: to or from an element placed this turn."""
    out: dict[tuple[int, int], None] = {}
    for k in sh.placed:
        if r.room(sh, k) <= 0:
            continue
        for n in r.neighbours[k]:
            if sh.spaces[n] in VALENCE and r.room(sh, n) > 0 and sh.bonds.get(bond_key(k, n), 0) < 3:
                out[bond_key(k, n)] = None
    return sorted(out)


def unused_complete(sh: Sheet):
    used = {c.spaces for c in sh.claims}
    return [c for c in compounds(sh.spaces, sh.bonds) if c.complete and c.spaces not in used]


def claimable(r: "Rules", s: State, sh: Sheet) -> list[str]:
    if len(sh.claims) >= r.boxes:
        return []
    mine = {c.notecard for c in sh.claims}
    cards = [c for c in s.line if c not in r.lab_fires and c not in mine]
    if not cards:
        return []
    ready = unused_complete(sh)
    return [c for c in cards if any(comp.matches(*r.card_shapes[c]) for comp in ready)]


# --- applying ------------------------------------------------------------------------
def notate(r: "Rules", s: State, seat: int, a: Action) -> None:
    sh = r.seat_turn(s, seat, "notate", "notate")
    element, k = r.element(a["element"]), r.space(a["space"])
    if sh.burns or sh.choosing:
        r.not_blocked(sh)
    must = r.must_place(sh)
    if must and must != element:
        raise IllegalAction(f"Notate the Bunsen Burner's {name_of(must)} first: it is notated at once.")
    if sh.spaces[k] != EMPTY:
        what = "is burned" if sh.spaces[k] == BURNED else f"holds {name_of(sh.spaces[k])} already"
        raise IllegalAction(f"{r.label(k)} {what}: elements go on empty spaces.")
    take_pending(sh, element)
    sh.spaces = sh.spaces[:k] + element + sh.spaces[k + 1:]
    sh.placed += (k,)


def bond(r: "Rules", s: State, seat: int, a: Action) -> None:
    sh = r.seat_turn(s, seat, "notate", "draw a bond")
    x, y = r.pair(a["spaces"])
    r.not_blocked(sh)
    if x not in sh.placed and y not in sh.placed:
        placed = ", ".join(r.label(k) for k in sh.placed)
        raise IllegalAction("Bonds are drawn only to or from an element you placed this turn"
                            + (f" ({placed})." if placed else ": you have placed none yet."))
    check_bond(r, sh, x, y)
    raise_bond(r, s, sh, x, y)


def trash(r: "Rules", s: State, seat: int, a: Action) -> None:
    sh = r.seat_turn(s, seat, "notate", "trash")
    element = r.element(a["element"])
    if sh.burns or sh.choosing:
        r.not_blocked(sh)
    if len(sh.trash) >= r.trash_cans:
        raise IllegalAction("Your trash is full: you can no longer trash elements.")
    must = r.must_place(sh)
    if must:
        if must != element:
            raise IllegalAction(f"Notate the Bunsen Burner's {name_of(must)} first: it is notated at once.")
        if sh.has_empty():
            raise IllegalAction("The Bunsen Burner's element must be notated while a space is empty.")
    take_pending(sh, element)
    sh.trash += element
    if len(sh.trash) == r.trash_cans:
        sh.burns += 1  # the last can triggers the Bunsen Burner: not optional


def burn(r: "Rules", s: State, seat: int, a: Action) -> None:
    k = r.space(a["space"])
    sh = s.seats[seat]
    if s.phase == "fire":
        if not (sh.burns or sh.fires):
            raise IllegalAction("You owe no Lab Fire.")
        if not sh.burns:
            sh.fires -= 1
            sh.burns = FIRE_BURNS
    elif s.phase == "notate":
        if sh.done or not sh.burns:
            raise IllegalAction("You owe no burn now.")
    else:
        raise IllegalAction("There is nothing to burn now.")
    if sh.spaces[k] != EMPTY:
        raise IllegalAction(f"{r.label(k)} is not empty: a burn fills an empty space.")
    sh.burn(k, burn_cause(s, seat), s.round)
    sh.burns -= 1
    if s.phase == "notate":
        sh.choosing = True  # then gain any element


def burn_cause(s: State, seat: int) -> str:
    """What the burn a seat owes now comes from (design doc, rule 28). In the
    fire phase a seat faces the round's fires in order: those revealed in the
    line, then the unattended Bunsen Burner. While notating, the burner die
    burns first (rule 18); any later burn is the full trash's."""
    sh = s.seats[seat]
    if s.phase == "fire":
        facing = s.fires - sh.fires - 1  # the fire begun: its burns come before the next one starts
        community = s.community()
        unattended = community is not None and community.face == BURNER
        return "unattended" if unattended and facing == s.fires - 1 else "fire"
    die = s.die_of(seat)
    die_burned = any(b.cause == "burner" and b.round == s.round for b in sh.burned)
    return "burner" if die is not None and die.face == BURNER and not die_burned else "trash"


def choose_element(r: "Rules", s: State, seat: int, a: Action) -> None:
    sh = r.seat_turn(s, seat, "notate", "choose an element")
    element = r.element(a["element"])
    if not sh.choosing:
        raise IllegalAction("You have no Bunsen Burner element to choose.")
    sh.choosing = False
    sh.pending = ((element, "burner"),) + sh.pending


def claim(r: "Rules", s: State, seat: int, a: Action) -> None:
    sh = r.seat_turn(s, seat, "notate", "claim a notecard")
    card = a["notecard"]
    r.not_blocked(sh)
    if not isinstance(card, str) or card not in s.line:
        raise IllegalAction(f"{card!r} is not face up in the notecard line.")
    if card in r.lab_fires:
        raise IllegalAction("A Lab Fire cannot be claimed.")
    name = r.cards[card].name
    if any(c.notecard == card for c in sh.claims):
        raise IllegalAction(f"You have claimed {name} already.")
    if len(sh.claims) >= r.boxes:
        raise IllegalAction("Every notecard box on your sheet is checked.")
    for comp in unused_complete(sh):
        if comp.matches(*r.card_shapes[card]):
            sh.claims += (Claim(card, LINE_POINTS[s.line.index(card)], comp.spaces),)
            s.claimed = True
            return
    raise IllegalAction(f"None of your unused complete compounds is {name} ({r.cards[card].formula}).")


def finish(r: "Rules", s: State, seat: int, a: Action) -> None:
    sh = r.seat_turn(s, seat, "notate", "finish")
    r.not_blocked(sh)
    if sh.pending:
        left = ", ".join(name_of(e) for e, _ in sh.pending)
        raise IllegalAction(f"Notate or trash your {left} first.")
    sh.done = True


def take_pending(sh: Sheet, element: str) -> None:
    options = sorted((TAKE_ORDER[src], i) for i, (e, src) in enumerate(sh.pending) if e == element)
    if not options:
        have = ", ".join(name_of(e) for e, _ in sh.pending) or "nothing"
        raise IllegalAction(f"You have no {name_of(element)} to notate or trash (you have {have}).")
    i = options[0][1]
    sh.pending = sh.pending[:i] + sh.pending[i + 1:]
