"""The actions a bot weighs (:meth:`engine.core.Game.proposals`): fewer
than a phone is offered where the list is long.

A notate offers every empty space for every element (up to 70 actions),
and a burn every empty space, though most are alike to a player who plans:
an element goes beside the elements that still take bonds, or, to start a
compound, where it has room to grow; a burn goes where it spoils the
least. So a bot weighs those spaces only; everything else (bonds, trash,
claims, tools, dice, finish) it weighs in full. All of it is read from the
seat's own sheet, which the whole table sees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Action
from engine.labnotes.state import EMPTY, VALENCE, Sheet, State

if TYPE_CHECKING:
    from engine.labnotes.rules import Rules

HOOKS = 6
"""Spaces beside open elements weighed per element (the best ones)."""
STARTS = 2
"""Spaces away from open elements weighed per element: room to start a compound."""
BURNS = 4
"""Spaces weighed for a burn."""


def proposals(r: "Rules", s: State, seat: int) -> list[Action]:
    offered = r.actions(s, seat)
    if len(offered) <= HOOKS + STARTS + BURNS:
        return offered
    sh = s.seats[seat]
    hook, empty = _spaces(r, sh)
    keep_notate: dict[str, set[int]] = {}
    out: list[Action] = []
    for a in offered:
        kind = a["type"]
        if kind == "notate":
            e = a["element"]
            if e not in keep_notate:
                keep_notate[e] = _for_element(hook, empty)
            if a["space"] in keep_notate[e]:
                out.append(a)
        elif kind == "burn":
            if a["space"] in _for_burn(hook, empty):
                out.append(a)
        else:
            out.append(a)
    return out or offered


def _spaces(r: "Rules", sh: Sheet) -> tuple[dict[int, int], dict[int, int]]:
    """For each empty space: the bonds its element neighbours still take
    (``hook``) and how many empty neighbours it has (room to grow)."""
    used: dict[int, int] = {}
    for (a, b), order in sh.bonds.items():
        used[a] = used.get(a, 0) + order
        used[b] = used.get(b, 0) + order
    spaces = sh.spaces
    hook, empty = {}, {}
    for k, c in enumerate(spaces):
        if c != EMPTY:
            continue
        near = r.neighbours[k]
        hook[k] = sum(VALENCE[spaces[n]] - used.get(n, 0) for n in near if spaces[n] in VALENCE)
        empty[k] = sum(1 for n in near if spaces[n] == EMPTY)
    return hook, empty


def _for_element(hook: dict[int, int], empty: dict[int, int]) -> set[int]:
    hooked = sorted((k for k in hook if hook[k] > 0), key=lambda k: (-hook[k], -empty[k], k))[:HOOKS]
    starts = sorted((k for k in hook if hook[k] == 0), key=lambda k: (-empty[k], k))[:STARTS]
    return set(hooked) | set(starts)


def _for_burn(hook: dict[int, int], empty: dict[int, int]) -> set[int]:
    """Spaces that help least: beside no open element, with little room around."""
    return set(sorted(hook, key=lambda k: (hook[k], empty[k], k))[:BURNS])
