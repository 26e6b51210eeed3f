"""Organic Soup's figures for ``make bench``: the reaction finder on its
worst case, and random games played to the end. Each workload returns how
many units it did; the bench times it.

The finder's worst case is the largest question a table can ask: the
ingredients of a whole late game (every atom not in the soup, 102 of them,
in molecules of every basic type, so no basic recipe may be a product) and
every other recipe of the deck as a possible product, the largest
amino/nucleic one required. Once with an answer, once without (an odd
Nitrogen atom that only a radical could take, and the radicals are left
out), because proving there is none is the slow direction.
"""

from __future__ import annotations

from typing import Callable, Mapping

from engine.organicsoup.atoms import sub
from engine.organicsoup.cards import OrganicSoupCards
from engine.organicsoup import table
from engine.organicsoup.finder import find_products
from engine.organicsoup.game import OrganicSoup
from engine.rng import Rng

SOUP_ATOMS = (3, 3, 3, 3)
"""The twelve atoms left in the soup in the worst case."""


def worst_cases(cards: OrganicSoupCards) -> list[tuple[tuple[int, int, int, int], list, object]]:
    """``(ingredient atoms, allowed products, required product)`` of the
    finder's worst case, with and without an answer."""
    atoms = sub(cards.atom_deck, SOUP_ATOMS)
    products = [r for r in cards.recipes if r.level != "basic"]
    largest = max(cards.level("amino"), key=lambda r: (r.size, r.id))
    closed = [r for r in products if not any(r.structure.radicals)]
    return [(atoms, products, largest), ((atoms[0], atoms[1], atoms[2] - 1, atoms[3]), closed, None)]


def random_game(game: OrganicSoup, seed: int) -> int:
    """One game to the end, every action drawn at random from the offered
    ones; returns the number of actions."""
    rng = Rng(seed)
    state = game.setup(2 + seed % 3, seed)
    steps = 0
    while not game.is_over(state):
        seat = game.to_move(state)[0]
        state = game.apply(state, seat, rng.choice(game.actions(state, seat)))
        steps += 1
    return steps


def workloads(game: OrganicSoup) -> Mapping[str, Callable[[], int]]:
    cases = worst_cases(game.cards)
    seeds = iter(range(1 << 30))

    def finder() -> int:
        for atoms, products, require in cases:
            find_products(atoms, products, require=require)  # type: ignore[arg-type]
        return len(cases)

    whole = game.cards.atom_deck
    several = sorted({r.atoms for r in game.cards.recipes if sum(1 for x in r.atoms if x) > 1})
    single = sorted({r.atoms for r in game.cards.recipes if sum(1 for x in r.atoms if x) == 1})

    def exhaustive() -> int:
        table.solve(whole, several, single)
        return 1

    def one_game() -> int:
        random_game(game, next(seeds))
        return 1

    return {"reaction finder, worst case (102 atoms, 60 recipes), searches": finder,
            "reaction finder's exhaustive table, whole deck and every recipe, tables": exhaustive,
            "random games to the end (2 to 4 players), games": one_game}
