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
  than anyone else's is safer from a tie that takes it away;
* a recipe in hand is worth what forming it would bring, by how much of
  it the molecules he may react already hold (his own, and one
  opponent's unguarded ones): so a bot builds toward its hand, and at the
  end of a turn swaps away a recipe it cannot reach for one it may. A
  recipe an author made trivial is formed far more often, and one made
  nearly impossible is swapped away (measured in ``docs/design/bots.md``).

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
from engine.organicsoup.offers import unguarded
from engine.organicsoup.state import State

RECIPE = {"basic": 1.0, "simple": 4.0, "complex": 12.0, "amino": 0.0}
"""A recipe in front of a player, by level: each level outranks several of the one below."""
NEXT = {"basic": "simple", "simple": "complex", "complex": "amino"}
"""The level a recipe in front of a player opens to his hand."""
OPENS = {"basic": 0.5, "simple": 2.0, "complex": 4.0}
"""Holding a recipe of this level opens the next level of the hand to a reaction."""
GUARDED = 0.3
"""A molecule whose recipe its owner holds."""
LOOSE = 0.15
"""A molecule anyone may take as an ingredient."""
LIFE = 100.0
"""Created life: ahead of any count of recipes."""
HAND = {"simple": 2.0, "complex": 6.0, "amino": 16.0}
"""A recipe in hand whose every atom the molecules in reach hold: well
below what forming it brings (:data:`RECIPE`, :data:`LIFE`), so a bot forms
it when it can, and scaled by the square of the share held, so the last
atoms count most."""
LOCKED = 0.5
"""A hand recipe of a level he may not form yet (no recipe of the level
below in front of him) counts this much."""


def worth(cards: OrganicSoupCards, state: State, seat: int, free: list[tuple[int, int, int, int]] | None = None) -> float:
    """``free``: each seat's unguarded atoms (:func:`_free`), if already counted."""
    me = state.seats[seat]
    if state.winner == seat:
        return LIFE
    counts = recipes_by_level(cards, me.recipes)
    value = sum(RECIPE[level] * n for level, n in counts.items())
    value += sum(bonus for level, bonus in OPENS.items() if counts[level])
    held = set(me.recipes)
    for recipe, n in me.molecules.items():
        value += (GUARDED if recipe in held else LOOSE) * n
    if me.hand:
        value += in_reach(cards, state, seat, counts, free if free is not None else _free(cards, state))
    return round(value, 6)


def in_reach(cards: OrganicSoupCards, state: State, seat: int, counts: dict[str, int],
             free: list[tuple[int, int, int, int]]) -> float:
    """What the recipes in ``seat``'s hand are worth by the share of their
    atoms the molecules he may react hold (``free``: each seat's unguarded atoms)."""
    own = _atoms(cards, state.seats[seat].molecules)
    pools = [own] + [tuple(a + b for a, b in zip(own, free[j]))
                     for j in range(state.players) if j != seat and any(free[j])]
    levels = {NEXT[level] for level, n in counts.items() if n and level in NEXT}
    value = 0.0
    for rid in state.seats[seat].hand:
        recipe = cards.recipe(rid)
        c, h, n, o = recipe.atoms
        best = max(min(c, p[0]) + min(h, p[1]) + min(n, p[2]) + min(o, p[3]) for p in pools)
        share = best / ((c + h + n + o) or 1)
        value += HAND[recipe.level] * share * share * (1.0 if recipe.level in levels else LOCKED)
    return value


def _free(cards: OrganicSoupCards, state: State) -> list[tuple[int, int, int, int]]:
    """Each seat's unguarded molecules' atoms: what another may take."""
    return [_atoms(cards, unguarded(state, j)) for j in range(state.players)]


def _atoms(cards: OrganicSoupCards, molecules: dict[str, int]) -> tuple[int, int, int, int]:
    c = h = n = o = 0
    for rid, k in molecules.items():
        a = cards.recipe(rid).atoms
        c, h, n, o = c + a[0] * k, h + a[1] * k, n + a[2] * k, o + a[3] * k
    return c, h, n, o


def evaluate(cards: OrganicSoupCards, state: State, seat: int) -> float:
    """``seat``'s worth against the best other's."""
    free = _free(cards, state)
    return round(margin([worth(cards, state, i, free) for i in range(state.players)], seat), 6)
