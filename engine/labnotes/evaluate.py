"""How well a seat stands, for the bots (:meth:`engine.core.Game.evaluate`).

A note sheet is worth what its score boxes would give now (Final Score:
bond points, notecards, minus 2 a burned space) plus what is in reach:

* an element placed this turn can still take bonds to its neighbours
  before its player finishes ("Players can only create bonds to or from a
  newly placed element"), so those bonds count almost as drawn;
* a missing bond costs its point at the end only if it stays missing: one
  beside an empty space may still be filled, and the fuller the sheet, the
  less likely, so it costs the sheet's fullness; one with no empty space
  beside it costs its whole point;
* an element with no bond burns at the end (End Game: 2 points), unless an
  element placed beside it later bonds to it: the fuller the sheet, the
  likelier (an empty sheet's first element risks nothing yet);
* an element still to notate (the die taken, the Community die) is worth
  the bonds it could make on this sheet, an unlocked tool a little, and
  the tools track's open spaces are what using one costs;
* a filled trash can costs a little: the element takes no bond, and the
  full trash brings the Bunsen Burner (with a can free, greedy trashed its
  first four elements rather than place them alone);
* the face-up notecards: a group on its way to one is worth a share of the
  card's points, read from the cards (:mod:`engine.labnotes.notecard_reach`).

The seat's worth less the best of the others' (:func:`engine.core.margin`):
a bot plays to win. Once the game is over the score boxes say it all.

>>> from labkit.cardsets import new_game
>>> from labkit.registry import find
>>> from engine.labnotes.state import sheet_from_text
>>> game = new_game(find("labnotes"))
>>> s = game.setup(2, seed=1)
>>> s.seats[0].spaces, s.seats[0].bonds = sheet_from_text("A1:H A2:O A3:H A1-A2 A2-A3")
>>> round(sheet_worth(game.rules, s, 0), 2), round(game.evaluate(s, 0), 2)    # water: 2 points, no risk
(2.0, 2.0)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from engine.core import margin
from engine.labnotes import notecard_reach
from engine.labnotes.scoring import BOND_POINTS, BURN_PENALTY
from engine.labnotes.state import BURNED, BURNER, EMPTY, VALENCE, Sheet, State

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules

REACH = 0.9
"""A bond an element placed this turn can still take: almost a point (a
point drawn is surer than one in reach, so the bot draws it)."""
TRASH_CAN = 0.75
"""A trash can filled: an element that will take no bond, and a step to
the Bunsen Burner of a full trash (a burned space)."""
LONE = 1.0
"""An element with no bond, beside an empty space, burns at the end unless
an element placed beside it bonds to it: its cost is this share of the burn
times the sheet's fullness."""
TOOL = 2.0
"""An unlocked tool: its ability for the rest of the game."""
TRACK_SPACE = 0.5
"""An open space of the tools track: what using a tool costs, in points."""


def sheet_worth(r: "Rules", s: State, seat: int) -> float:
    sh = s.seats[seat]
    bondable = sh.placed if s.phase == "notate" and not sh.done else ()
    tools = (len(sh.tools), r.track_room(sh)) if sh.tools else (0, 0)
    bonds = tuple(sh.bonds.items())
    hand = tuple(_to_notate(s, seat, sh))
    return (_sheet(r, sh.spaces, bonds, bondable, hand, sum(c.points for c in sh.claims), tools, len(sh.trash))
            + notecard_reach.reach(r, s, sh, hand, bonds))


@lru_cache(maxsize=16384)
def _sheet(r: "Rules", spaces: str, bond_items: tuple, bondable: tuple[int, ...], to_notate: tuple[str, ...],
           claimed: int, tools: tuple[int, int], trashed: int) -> float:
    """The sheet's worth from what it depends on: while a seat weighs its
    actions the other sheets do not change, and the same sheets come back
    in every rollout, so most of these are asked before."""
    used: dict[int, int] = {}
    points = 0
    bonds = dict(bond_items)
    for (a, b), order in bond_items:
        points += BOND_POINTS[order]
        used[a] = used.get(a, 0) + order
        used[b] = used.get(b, 0) + order
    filled = 1.0 - spaces.count(EMPTY) / len(spaces)
    worth = points + claimed - BURN_PENALTY * spaces.count(BURNED) - TRASH_CAN * trashed
    for k, e in enumerate(spaces):
        if e not in VALENCE:
            continue
        room = VALENCE[e] - used.get(k, 0)
        if room == 0:
            continue
        near = r.neighbours[k]
        if k in bondable:
            reach = min(room, sum(min(VALENCE[spaces[n]] - used.get(n, 0), 3 - bonds.get((min(k, n), max(k, n)), 0))
                                  for n in near if spaces[n] in VALENCE))
            worth += REACH * reach
            room -= reach
            if reach:
                continue  # it will have a bond: not lone
        open_beside = any(spaces[n] == EMPTY for n in near)
        if k not in used:
            worth -= BURN_PENALTY * LONE * filled if open_beside else BURN_PENALTY
        else:
            worth -= room * (filled if open_beside else 1.0)
    if to_notate:
        hook = _hook(r, spaces, used)
        worth += sum(_element(e, hook) for e in to_notate)
    if tools[0]:
        worth += TOOL * tools[0] + TRACK_SPACE * tools[1]
    return float(worth)


def _to_notate(s: State, seat: int, sh: Sheet) -> list[str]:
    """Elements the seat will notate this round: its pending ones, or in the
    select phase the die it took (a Bunsen Burner: any element, after a burn)."""
    if s.phase == "notate" and not sh.done:
        return [e for e, _ in sh.pending] + (["C"] if sh.choosing else [])
    if s.phase == "select":
        die = s.die_of(seat)
        if die is not None and die.face is not None:
            return [die.face]
    return []


def _hook(r: "Rules", spaces: str, used: dict[int, int]) -> int:
    """The most bonds the elements beside one empty space still take."""
    hook = 0
    for k, c in enumerate(spaces):
        if c == EMPTY:
            hook = max(hook, sum(VALENCE[spaces[n]] - used.get(n, 0) for n in r.neighbours[k] if spaces[n] in VALENCE))
    return hook


def _element(e: str, hook: int) -> float:
    """An element yet to notate: the bonds it could take beside the best
    empty space (a Bunsen Burner: the best element, less the burn)."""
    if e == BURNER:
        return max(_element(x, hook) for x in VALENCE) - BURN_PENALTY
    return 0.25 * VALENCE[e] + REACH * min(VALENCE[e], hook)


def evaluate(r: "Rules", s: State, seat: int, final: list[int] | None) -> float:
    """``seat``'s sheet against the best other (``final``: the totals of a finished game)."""
    if final is not None:
        return margin(final, seat)
    return margin([sheet_worth(r, s, i) for i in range(s.players)], seat)
