"""What a balance report reads from Organic Soup (:meth:`engine.core.Game.card_uses`):
recipes a player takes in front of him, **built** (his build made him the
recipe's holder) or **by a reaction** (its products, or the most molecules
after one), and which of the two ends ended the game.

>>> from engine.organicsoup.examples import example_cards
>>> from engine.organicsoup.scenario import table
>>> s = table(example_cards(), "oxygen*2 +oxygen | nitrogen")
>>> t = s.copy()
>>> t.seats[1].recipes.append("nitrogen")
>>> card_uses(s, t, {"type": "build"})
((1, 'nitrogen', 'built'),)
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.organicsoup.cards import OrganicSoupCards
from engine.organicsoup.state import State

LIFE = "a player created life"
DECK = "the atom deck ran out"


def card_names(cards: OrganicSoupCards) -> dict[str, str]:
    return {r.id: r.name for r in cards.recipes}


def card_uses(before: State, after: State, action: Mapping[str, Any]) -> tuple[tuple[int, str, str], ...]:
    verb = "built" if action.get("type") == "build" else "by a reaction"
    return tuple((seat, rid, verb) for seat, (was, now) in enumerate(zip(before.seats, after.seats))
                 for rid in now.recipes if rid not in was.recipes)


def end_condition(state: State) -> str | None:
    if state.phase != "over":
        return None
    return LIFE if state.winner is not None else DECK
