"""Earning & Using Tool Cards: the table of abilities the rules know.

Each row is one tool's ability: the phase it is used in, the fields its
action carries, what it offers a player now, and what it does. A tool card
in the data whose id has no row here is a data error (:func:`parse` says so
with its file and line), so a card never prints without playing.

Using a tool marks as many tools-track spaces as the card shows icons
(rulebook: "marks available spaces under Tools ... equal to the number of
icons"); a tool is used at most once a turn, the Fire Suppressant once per
Lab Fire.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Callable

from engine.core import Action, IllegalAction
from engine.labnotes.bonds import check_bond, raise_bond
from engine.labnotes.dice import picker, pool_die
from engine.labnotes.reading import name_of
from engine.labnotes.state import VALENCE, Sheet, State
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules

MAX_REROLLS = 2
"""Centrifuge: "reroll any number of available dice up to 2 times"."""
GROUND = {"C": "N", "N": "O", "O": "H"}
"""Mortar and Pestle: the element that takes one bond fewer."""


@dataclass(frozen=True)
class Ability:
    phase: str
    """The phase it is used in."""
    offers: Callable[["Rules", State, int, Sheet], list[Action]]
    """Its legal uses now, for a seat that has it unlocked and the room to pay."""
    use: Callable[["Rules", State, int, Sheet, Action], None]
    """Check, pay and do it (``use_tool`` has checked it is unlocked)."""
    fields: tuple[str, ...] = ()
    """What its ``use_tool`` action carries besides ``"tool"``."""
    once_a_turn: bool = True


def pay(r: "Rules", sh: Sheet, tool: str) -> None:
    icons = r.tools[tool].icons
    if r.track_room(sh) < icons:
        raise IllegalAction(f"Your tools track has {r.track_room(sh)} open space(s); the "
                            f"{r.tool_name(tool)} needs {icons}.")
    sh.tool_marks += icons
    sh.used += (tool,)


# --- Centrifuge: rerolls before you select your die ------------------------------------
def _centrifuge_offers(r: "Rules", s: State, seat: int, sh: Sheet) -> list[Action]:
    if s.phase != "select" or seat != s.picker() or s.rerolls >= MAX_REROLLS:
        return []
    pool = [i for i, d in enumerate(s.dice) if d.place == "pool"]
    return [{"type": "reroll", "dice": list(c)} for n in range(1, len(pool) + 1) for c in combinations(pool, n)]


def _centrifuge_use(r: "Rules", s: State, seat: int, sh: Sheet, a: Action) -> None:
    raise IllegalAction("The Centrifuge is used by rerolling dice before you select yours.")


def reroll(r: "Rules", s: State, seat: int, a: Action) -> None:
    """The Centrifuge's own action: ``{"type": "reroll", "dice": [...]}``."""
    sh = picker(r, s, seat, "reroll")
    if "centrifuge" not in sh.tools:
        raise IllegalAction("Rerolling needs the Centrifuge: build its compound first.")
    if s.rerolls >= MAX_REROLLS:
        raise IllegalAction("The Centrifuge rerolls at most 2 times before you select your die.")
    dice = a["dice"]
    if not isinstance(dice, (list, tuple)) or not dice:
        raise IllegalAction("Name the dice to reroll: \"dice\": [i, ...].")
    chosen = [pool_die(s, i) for i in dice]
    if len(set(chosen)) != len(chosen):
        raise IllegalAction("Name each die to reroll once.")
    if s.rerolls == 0:
        if "centrifuge" in sh.used:
            raise IllegalAction("You have used the Centrifuge this turn.")
        pay(r, sh, "centrifuge")
    rng = Rng(s.rng)
    for i in sorted(chosen):
        s.dice[i].face = rng.choice(r.faces[s.dice[i].colour])
    s.rng = rng.state
    s.rerolls += 1


# --- Retort Flask: your die again instead of the Community die --------------------------
def _flask_ok(s: State, seat: int, sh: Sheet) -> bool:
    die = s.die_of(seat)
    return die is not None and die.face in VALENCE and any(src == "community" for _, src in sh.pending)


def _flask_offers(r: "Rules", s: State, seat: int, sh: Sheet) -> list[Action]:
    return [{"type": "use_tool", "tool": "retort-flask"}] if _flask_ok(s, seat, sh) else []


def _flask_use(r: "Rules", s: State, seat: int, sh: Sheet, a: Action) -> None:
    if not _flask_ok(s, seat, sh):
        raise IllegalAction("The Retort Flask needs your die to be an element and the Community "
                            "element still to notate.")
    pay(r, sh, "retort-flask")
    die = s.die_of(seat)
    assert die is not None
    sh.pending = tuple((die.face, "flask") if src == "community" else (e, src) for e, src in sh.pending)


# --- Fire Suppressant: ignore a Lab Fire ----------------------------------------------------
def _suppress_offers(r: "Rules", s: State, seat: int, sh: Sheet) -> list[Action]:
    return [{"type": "use_tool", "tool": "fire-suppressant"}] if sh.fires and not sh.burns else []


def _suppress_use(r: "Rules", s: State, seat: int, sh: Sheet, a: Action) -> None:
    if s.phase != "fire" or not sh.fires or sh.burns:
        raise IllegalAction("The Fire Suppressant ignores a Lab Fire, when one reaches you.")
    pay(r, sh, "fire-suppressant")
    sh.fires -= 1


# --- Pipette: one bond after notating -------------------------------------------------------
def _pipette_offers(r: "Rules", s: State, seat: int, sh: Sheet) -> list[Action]:
    if sh.pending:
        return []
    out: list[Action] = []
    for a in range(r.size):
        if sh.spaces[a] in VALENCE and r.room(sh, a) > 0:
            for b in r.neighbours[a]:
                if b > a and sh.spaces[b] in VALENCE and r.room(sh, b) > 0 and sh.bonds.get((a, b), 0) < 3:
                    out.append({"type": "use_tool", "tool": "pipette", "spaces": [a, b]})
    return out


def _pipette_use(r: "Rules", s: State, seat: int, sh: Sheet, a: Action) -> None:
    x, y = r.pair(a["spaces"])
    if sh.pending:
        raise IllegalAction("The Pipette draws its bond after notating: place your elements first.")
    check_bond(r, sh, x, y)
    pay(r, sh, "pipette")
    raise_bond(r, s, sh, x, y)


# --- Mortar and Pestle: grind your die one bond fewer -----------------------------------------
def _mortar_offers(r: "Rules", s: State, seat: int, sh: Sheet) -> list[Action]:
    return [{"type": "use_tool", "tool": "mortar-and-pestle", "element": e}
            for e in dict.fromkeys(e for e, src in sh.pending if src in ("die", "flask") and e in GROUND)]


def _mortar_use(r: "Rules", s: State, seat: int, sh: Sheet, a: Action) -> None:
    element = r.element(a["element"])
    idx = [i for i, (e, src) in enumerate(sh.pending) if e == element and src in ("die", "flask")]
    if element not in GROUND or not idx:
        raise IllegalAction(f"The Mortar and Pestle grinds a Carbon, Nitrogen or Oxygen of your own "
                            f"die still to notate; you have no {name_of(element)} of your die.")
    pay(r, sh, "mortar-and-pestle")
    i = idx[0]
    sh.pending = sh.pending[:i] + ((GROUND[element], sh.pending[i][1]),) + sh.pending[i + 1:]


# --- Fume Hood: erase the last trash can ------------------------------------------------------
def _fume_offers(r: "Rules", s: State, seat: int, sh: Sheet) -> list[Action]:
    return [{"type": "use_tool", "tool": "fume-hood"}] if 0 < len(sh.trash) < r.trash_cans else []


def _fume_use(r: "Rules", s: State, seat: int, sh: Sheet, a: Action) -> None:
    if not sh.trash:
        raise IllegalAction("Your trash is empty: the Fume Hood has nothing to erase.")
    if len(sh.trash) >= r.trash_cans:
        raise IllegalAction("The Fume Hood cannot erase a full trash.")
    pay(r, sh, "fume-hood")
    sh.trash = sh.trash[:-1]


ABILITIES: dict[str, Ability] = {
    "centrifuge": Ability("select", _centrifuge_offers, _centrifuge_use),
    "retort-flask": Ability("notate", _flask_offers, _flask_use),
    "fire-suppressant": Ability("fire", _suppress_offers, _suppress_use, once_a_turn=False),
    "pipette": Ability("notate", _pipette_offers, _pipette_use, ("spaces",)),
    "mortar-and-pestle": Ability("notate", _mortar_offers, _mortar_use, ("element",)),
    "fume-hood": Ability("notate", _fume_offers, _fume_use),
}
"""Every tool whose ability the rules know, by card id."""


# --- the common part of every use ---------------------------------------------------------------
def _usable(r: "Rules", sh: Sheet, tool: str) -> bool:
    ability = ABILITIES[tool]
    if ability.once_a_turn and tool in sh.used:
        return False
    return tool in sh.tools and r.track_room(sh) >= r.tools[tool].icons


def offers(r: "Rules", s: State, seat: int) -> list[Action]:
    """Every tool use open to ``seat`` in the current phase."""
    sh = s.seats[seat]
    out: list[Action] = []
    for tool, ability in ABILITIES.items():
        if ability.phase != s.phase or tool not in sh.tools:
            continue
        rerolling = tool == "centrifuge" and s.rerolls > 0  # paid at the first reroll of the pick
        if rerolling or _usable(r, sh, tool):
            out.extend(ability.offers(r, s, seat, sh))
    return out


def extra_fields(action: Action) -> set[str]:
    if action.get("type") == "use_tool" and isinstance(action.get("tool"), str) and action["tool"] in ABILITIES:
        return set(ABILITIES[action["tool"]].fields)
    return set()


def use_tool(r: "Rules", s: State, seat: int, a: Action) -> None:
    tool = a["tool"]
    if tool == "centrifuge":
        _centrifuge_use(r, s, seat, s.seats[seat], a)
    if not isinstance(tool, str) or tool not in s.tools:
        raise IllegalAction(f"{tool!r} is not a tool of this game.")
    ability = ABILITIES[tool]
    sh = s.seats[seat]
    if tool not in sh.tools:
        t = r.tools[tool]
        raise IllegalAction(f"Build the {t.compound} ({t.formula}) first to unlock the {t.name}.")
    if ability.phase == "notate":
        r.seat_turn(s, seat, "notate", f"use the {r.tool_name(tool)}")
        r.not_blocked(sh)
    if ability.once_a_turn and tool in sh.used:
        raise IllegalAction(f"You have used the {r.tool_name(tool)} this turn.")
    ability.use(r, s, seat, sh, a)
