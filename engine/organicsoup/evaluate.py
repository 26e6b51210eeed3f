"""How well a player stands, for the bots (:meth:`engine.core.Game.evaluate`).

Organic Soup has no points, so the worth is counted in recipes the way the
end ranks them (Ending the Game: strictly the most complex recipes, then
simple, then basic), plus what is in reach:

* a recipe of a level opens the next level's recipes of the hand to a
  reaction ("He may only form a simple recipe if he has a basic recipe in
  front of him..."), and a complex one the amino/nucleic recipe, which
  creates life and wins at once;
* a molecule is an ingredient of a later reaction, worth more when its
  recipe guards it (an opponent may take only molecules "not accompanied
  by their corresponding recipe"), and a recipe held by more molecules
  than anyone else's is safer from a tie that takes it away.

The player's worth less the best of the others' (:func:`engine.core.margin`).
Created life ends it: the winner is ahead of everyone by :data:`LIFE`.

>>> from engine.organicsoup.examples import example_cards
>>> from engine.organicsoup.scenario import table
>>> cards = example_cards()
>>> s = table(cards, "+propane water*2 +water | +oxygen oxygen*1")
>>> [worth(cards, s, seat) for seat in (0, 1)], evaluate(cards, s, 0)
([22.6, 1.8], 20.8)
"""

from __future__ import annotations

from engine.core import margin
from engine.organicsoup.cards import OrganicSoupCards
from engine.organicsoup.ending import recipes_by_level
from engine.organicsoup.state import State

RECIPE = {"basic": 1.0, "simple": 4.0, "complex": 12.0, "amino": 0.0}
"""A recipe in front of a player, by level: each level outranks several of the one below."""
OPENS = {"basic": 0.5, "simple": 2.0, "complex": 4.0}
"""Holding a recipe of this level opens the next level of the hand to a reaction."""
GUARDED = 0.3
"""A molecule whose recipe its owner holds."""
LOOSE = 0.15
"""A molecule anyone may take as an ingredient."""
LIFE = 100.0
"""Created life: ahead of any count of recipes."""


def worth(cards: OrganicSoupCards, state: State, seat: int) -> float:
    me = state.seats[seat]
    if state.winner == seat:
        return LIFE
    counts = recipes_by_level(cards, me.recipes)
    value = sum(RECIPE[level] * n for level, n in counts.items())
    value += sum(bonus for level, bonus in OPENS.items() if counts[level])
    held = set(me.recipes)
    for recipe, n in me.molecules.items():
        value += (GUARDED if recipe in held else LOOSE) * n
    return round(value, 6)


def evaluate(cards: OrganicSoupCards, state: State, seat: int) -> float:
    """``seat``'s worth against the best other's."""
    return round(margin([worth(cards, state, i) for i in range(state.players)], seat), 6)
