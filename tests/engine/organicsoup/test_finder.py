"""The reaction finder: exact (checked against a plain exhaustive count and
against its own table), and fast on the worst case a table can ask."""

from __future__ import annotations

import time
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.organicsoup import finder
from engine.organicsoup.finder import SearchTooLong, find_products, total_atoms
from engine.organicsoup.workloads import worst_cases
from tests.engine.organicsoup.conftest import _CARDS

RECIPES = _CARDS.recipes


def brute(target, kinds) -> bool:
    """Is ``target`` a sum of ``kinds``? The plainest count there is."""
    kinds = tuple(sorted(set(k for k in kinds if any(k))))

    @lru_cache(maxsize=None)
    def can(i, r):
        if not any(r):
            return True
        if i == len(kinds):
            return False
        v = kinds[i]
        k = 0
        while all(x >= k * y for x, y in zip(r, v)):
            if can(i + 1, tuple(x - k * y for x, y in zip(r, v))):
                return True
            k += 1
        return False

    return can(0, tuple(target))


def test_the_rulebooks_parallel_reaction(cards):
    """Process in parallel: 3 Carbon, 4 Hydrogen and 2 Nitric Oxide make 1
    Propane, 1 Nitrogen and 1 Oxygen; the finder finds it from those recipes."""
    atoms = total_atoms(cards, {"graphite": 3, "hydrogen": 4, "nitric-oxide": 2})
    allowed = [cards.recipe(r) for r in ("propane", "nitrogen", "oxygen", "water")]
    assert find_products(atoms, allowed, require=cards.recipe("propane")) == {"propane": 1, "nitrogen": 1,
                                                                                "oxygen": 1}


def test_no_products_when_an_atom_cannot_be_placed(cards):
    allowed = [cards.recipe(r) for r in ("water", "hydrogen")]
    assert find_products((0, 2, 0, 1), allowed) == {"water": 1}
    assert find_products((0, 3, 0, 1), allowed) is None         # an odd Hydrogen
    assert find_products((0, 2, 0, 1), allowed, require=cards.recipe("hydrogen")) is None  # O left over
    assert find_products((0, 0, 0, 0), allowed) == {}


def test_isomers_take_the_first_recipe_offered(cards):
    leu, ile = cards.recipe("leucine"), cards.recipe("isoleucine")
    assert find_products(leu.atoms, [ile, leu]) == {"isoleucine": 1}
    assert find_products(leu.atoms, [leu, ile]) == {"leucine": 1}


@settings(max_examples=150, deadline=None)
@given(target=st.tuples(st.integers(0, 7), st.integers(0, 12), st.integers(0, 5), st.integers(0, 7)),
       chosen=st.lists(st.sampled_from(RECIPES), min_size=1, max_size=20, unique_by=lambda r: r.id))
def test_the_finder_is_exact(target, chosen):
    found = find_products(target, chosen)
    assert (found is not None) == brute(target, [r.atoms for r in chosen])
    if found is not None:
        assert total_atoms(_CARDS, found) == target
        assert set(found) <= {r.id for r in chosen} and all(k > 0 for k in found.values())


@settings(max_examples=40, deadline=None)
@given(target=st.tuples(st.integers(0, 20), st.integers(0, 30), st.integers(0, 12), st.integers(0, 20)),
       chosen=st.lists(st.sampled_from(RECIPES), min_size=1, max_size=40, unique_by=lambda r: r.id))
def test_the_search_and_the_exhaustive_table_agree(target, chosen):
    searched = find_products(target, chosen)
    saved = finder.SEARCH_STEPS
    finder.SEARCH_STEPS = 0  # the table answers every question
    try:
        tabled = find_products(target, chosen)
    finally:
        finder.SEARCH_STEPS = saved
    assert (searched is None) == (tabled is None)
    if tabled is not None:
        assert total_atoms(_CARDS, tabled) == target


def test_a_budget_stops_the_search(cards):
    atoms, products, require = worst_cases(cards)[0]
    with pytest.raises(SearchTooLong):
        find_products(atoms, products, require=require, budget=1)


def test_the_worst_case_is_fast(cards):
    """The largest question a table can ask (engine.organicsoup.workloads):
    102 atoms of ingredients, 60 recipes, the largest amino/nucleic one
    required; and the same without an answer. The bench prints the figure;
    here a generous bound, for a busy machine."""
    for atoms, products, require in worst_cases(cards):
        start = time.perf_counter()
        found = find_products(atoms, products, require=require)
        assert time.perf_counter() - start < 1.0
        if require is not None:
            assert found is not None and found[require.id] >= 1 and total_atoms(cards, found) == atoms
        else:
            assert found is None
