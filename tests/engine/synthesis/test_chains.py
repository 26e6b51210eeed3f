"""Molecular Volume Chains: the points table, the linking rules, and the
exact search (equal to brute force on small tables, tie-break included,
never below a greedy linking on big ones)."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

import pytest

from engine.synthesis import chain_search
from engine.synthesis.chain_search import SearchTooLong, search
from engine.synthesis.chains import POINTS, best_linking, chain_points, chains_of, points_table, score_links
from engine.synthesis.goals import optimize
from engine.synthesis.table import TablePattern, TableShape
from tests.engine.synthesis.brute import brute_best, chain_score
from tests.rulebook import follows

SETTINGS = settings(max_examples=60, deadline=None)


def test_the_reference_table_2_3_3_6_up_to_7_28():
    """The player reference sheet: triangular numbers, "A chain of more than
    7 molecules does not earn additional points (i.e. a chain of 9 only earns 28 points).\""""
    assert [chain_points(n) for n in range(1, 11)] == [0, 3, 6, 10, 15, 21, 28, 28, 28, 28]
    assert points_table({2: 3, 3: 6, 4: 10, 5: 15, 6: 21, 7: 28}) == POINTS


def test_chains_cannot_branch():
    """"These chains cannot branch (i.e. create a "T")."""
    t = TableShape((2, 2, 2))
    colour = {(0, 0): "b", (0, 1): "b", (0, 2): "b", (1, 1): "b"}  # a T
    assert score_links([((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 1), (1, 1))]) is None
    assert best_linking(t, colour).points == 6


def test_chains_never_link_diagonally_or_across_colours():
    """"You cannot connect diagonally"; linked cells have "matching colors"."""
    t = TableShape((2, 2))
    assert best_linking(t, {(0, 0): "r", (1, 1): "r", (0, 1): "b", (1, 0): "g"}).points == 0
    assert best_linking(t, {(0, 0): "r", (0, 1): "r", (1, 0): "b", (1, 1): "b"}).points == 6


@follows("synthesis.md", "However, you can score several separate chains of the same color or of different colors.")
def test_several_chains_of_one_colour_each_score():
    """Nine in a row score more as 7 + 2 (31) than as one chain (28)."""
    row = TableShape((1, 1, 1, 1, 1, 1))
    assert best_linking(row, {(0, c): "g" for c in range(6)}).points == 21
    column = TableShape((9,))
    best = best_linking(column, {(r, 0): "g" for r in range(9)})
    assert best.points == 31 and sorted(len(c) for c in best.chains) == [2, 7]


@follows("synthesis.md", "Connect molecular volume chains in the molecular volume table as desired.",
         "A chain of more than 7 pads scores 28 points.")
def test_eight_in_a_row_are_one_chain_of_eight():
    """Eight molecules score 28 linked as one chain or as 7 and a lone one;
    the player links all eight, whose longest chain (the tie-break) is 8."""
    column = TableShape((8,))
    best = best_linking(column, {(r, 0): "g" for r in range(8)})
    assert best.points == 28 and [len(c) for c in best.chains] == [8] and best.longest == 8
    # a full side B table of one colour: 28 * 4 either way, one chain of 8 among them
    side_b = TableShape((4, 6, 7, 7, 4, 2))
    best = best_linking(side_b, {c: "b" for c in side_b.cells})
    assert best.points == 115 and best.longest == 7  # 30 cells: 7 7 7 7 2; an 8 would cost 3
    side_b_29 = {c: "b" for c in side_b.cells if c != (6, 3)}
    best = best_linking(side_b, side_b_29)
    assert best.points == 112 and best.longest == 8  # 29 cells: 7 7 7 8, not 7 7 7 7 and a lone one


def test_a_full_table_of_one_colour_makes_chains_of_seven():
    """36 cells: five chains of 7 (140), and the one left over joins the
    end of one of them (still 140, and the longest chain is 8)."""
    t = TableShape((6,) * 6)
    best = best_linking(t, {c: "y" for c in t.cells})
    assert best.points == 140 and sorted(len(c) for c in best.chains) == [7, 7, 7, 7, 8]


def test_forced_and_forbidden_links_are_kept():
    t = TableShape((2, 2))
    colour = {c: "g" for c in t.cells}
    best = best_linking(t, colour, forbidden={((0, 0), (0, 1))})
    assert ((0, 0), (0, 1)) not in best.links and best.points == 10
    assert best_linking(t, colour, forced={((0, 0), (0, 1))}, forbidden={((0, 0), (0, 1))}) is None
    assert best_linking(t, {(0, 0): "g", (0, 1): "r"}, forced={((0, 0), (0, 1))}) is None
    assert best_linking(TableShape((1,)), {(0, 0): "g"}).points == 0


# --- against brute force --------------------------------------------------------------
@st.composite
def small_tables(draw, colours="rb", max_cols=3, max_height=3):
    heights = tuple(draw(st.lists(st.integers(1, max_height), min_size=1, max_size=max_cols)))
    t = TableShape(heights)
    colour = {}
    for c, h in enumerate(heights):
        filled = draw(st.integers(h // 2, h))  # mostly full: more to link, more places to fit
        for r in range(filled):
            colour[(r, c)] = draw(st.sampled_from(colours))
    return t, colour


def long_tables():
    """Thin tables of up to 12 cells, mostly one colour: chains longer than 7."""
    return st.one_of(small_tables(colours="gggb", max_cols=6, max_height=2),
                     small_tables(colours="g", max_cols=2, max_height=6),
                     small_tables(colours="ggr", max_cols=4, max_height=3))


def found(t, colour, **goals):
    best = search(t, colour, POINTS, **goals)
    return (best.goals_met, best.points + best.card_points, best.longest)


@SETTINGS
@given(st.one_of(small_tables(max_cols=4), long_tables()))
@example(case=(TableShape((8,)), {(r, 0): "g" for r in range(8)}))
@example(case=(TableShape((2, 2, 2, 2)), {(r, c): "g" for r in range(2) for c in range(4)}))
def test_the_best_linking_equals_brute_force(case):
    """Points first, then the longest chain, as brute force finds them."""
    t, colour = case
    assert found(t, colour) == brute_best(t, colour)
    best = best_linking(t, colour)
    assert (best.points, best.longest) == brute_best(t, colour)[1:]


TWIN = TablePattern.parse(["o-o", "", "o-o"])
CORNER = TablePattern.parse(["o-o", "  |", "  o"])
LADDER = TablePattern.parse(["o-o", ": :", "o-o"])
BYSTANDER = TablePattern.parse(["o-o", "", "  o"])
TRIPLET = TablePattern.parse(["o-o-o"])
QUARTET = TablePattern.parse(["o-o-o-o"])
OPEN_END = TablePattern.parse(["o-o.o"])
CARDS = [(TWIN, 5, 15), (CORNER, 4, 12), (LADDER, 6, 18), (BYSTANDER, 4, 8), (TRIPLET, 5, 20), (QUARTET, 6, 18),
         (OPEN_END, 5, 15)]
"""One of each way the search counts a card: chains side by side (Twin
Pairs, Ladder), a bystander, dotted lines, and one chain (Corner, Triplet,
Quartet, found as stretches of the linking's chains)."""


@SETTINGS
@given(st.one_of(small_tables(max_cols=4), long_tables()), st.sampled_from(CARDS))
@example(case=(TableShape((9,)), {(r, 0): "g" for r in range(9)}), card=(TRIPLET, 5, 20))
@example(case=(TableShape((8,)), {(r, 0): "g" for r in range(8)}), card=(QUARTET, 6, 18))
def test_the_best_linking_with_a_chain_card_equals_brute_force(case, card):
    """Longer chains too: nine in a row with Triplet are one chain of 9 (28
    and three finds, 43; cut as 7 + 2 they keep two finds, 41)."""
    t, colour = case
    assert found(t, colour, card=card) == brute_best(t, colour, card=card)
    best = optimize(t, colour, POINTS, card=card)
    assert (True, best.chain_points + best.card_points, best.linking.longest) == brute_best(t, colour, card=card)


@SETTINGS
@given(small_tables(max_cols=4), st.sampled_from([(TablePattern.parse(["o-o"]),),
                                        (TablePattern.parse(["o-o-o"]), TablePattern.parse(["o-o"])),
                                        (TablePattern.parse(["o-o", "  |", "  o"]),)]))
@example(case=(TableShape((2, 2, 1, 3)), {(0, 0): "b", (0, 1): "r", (0, 2): "r", (0, 3): "r"}),
         project=(TablePattern.parse(["o-o"]),))
def test_project_chains_equal_brute_force(case, project):
    """Goals first, then points, then the longest chain: a linking that
    leaves the Project aside may still score the most when none meets every
    goal."""
    t, colour = case
    for card, need in (((TWIN, 5, 15), 5), ((TRIPLET, 5, 20), 10)):
        assert found(t, colour, card=card, project=project, card_needed=need) == brute_best(
            t, colour, card=card, project=project, card_needed=need)
    best = optimize(t, colour, POINTS, card=(TWIN, 5, 15), project=project, card_needed=5)
    assert (best.goals_met, best.chain_points + best.card_points, best.linking.longest) == brute_best(
        t, colour, card=(TWIN, 5, 15), project=project, card_needed=5)


def greedy(t: TableShape, colour) -> int:
    """Link along rows, then columns, whenever the rules allow; never past 7."""
    links: list = []
    for a, b in t.links:
        if colour.get(a) is None or colour.get(a) != colour.get(b):
            continue
        trial = links + [(a, b)]
        if score_links(trial) is not None and all(len(c) <= 7 for c in chains_of(trial)):
            links = trial
    return chain_score(links)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from(["rb", "rby", "rbyg"]), st.floats(0.5, 1.0))
def test_the_best_linking_is_never_below_a_greedy_one(seed, colours, fill):
    rng = random.Random(seed)
    t = TableShape((5, 6, 6, 6, 4, 3))
    colour = {}
    for c, h in enumerate(t.heights):
        for r in range(h):
            if rng.random() > fill:
                break
            colour[(r, c)] = rng.choice(colours)
    assert best_linking(t, colour).points >= greedy(t, colour)


def test_past_its_bound_on_work_the_search_says_so():
    """The search never answers something it has not proven: past its bound
    it raises, and the paper scorer turns that into a sentence (test_paper)."""
    t = TableShape((5, 6, 6, 6, 4, 3))
    colour = {c: "g" for c in t.cells if c != (5, 2)}
    with pytest.raises(SearchTooLong, match="not proven within 3 steps"):
        search(t, colour, POINTS, card=(TWIN, 5, 15), work=3)
    assert search(t, colour, POINTS, card=(TWIN, 5, 15)).card_points == 15
    assert chain_search.WORK >= 10_000
