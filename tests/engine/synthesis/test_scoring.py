"""End of the Game and Determining the Winner, and the rulebook's Scoring
Example (elemental 28, chains 77, rows and columns 30)."""

from __future__ import annotations

from engine.core import ScoreLine
from engine.synthesis.scoring import Goals, Scored, elemental_points, score, winners
from tests.engine.synthesis.conftest import playout
from tests.rulebook import follows

# The Scoring Example's volume table, on a side A board (columns 5, 6, 6, 6, 4, 3
# high), top row first; "-" is no cell, "." an empty one.
#
#     - . . g - -
#     . g g g - -        a green chain of 7, folded: one Twin Pairs across its fold
#     . g g g r -        a red chain of 3
#     y b b b r r        blue: 10 molecules, a chain of 7 and one of 3, one Twin Pairs
#     y b b b y y        yellow: the 2x2 block kept as two chains of 2 (the card,
#     b b b b y y          upright), and a third chain of 2
#
# Each find is one colour ("The player must choose a single color"): "twice
# horizontally with chains of different colors" (green, blue), "once
# vertically with yellow chains".
EXAMPLE = ["byy", "bbbgg", "bbbgg", "bbbggg", "yyrr", "yyr"]
ELEMENTAL = {"circle": 2, "triangle": 1, "square": 1}
"""Shapes 1 and 2 (a pair: 16), shapes 3 and 4 (one of two other pairs: 6
each); shapes 5 and 6 were made regular molecules."""


def example(game, **goals):
    lay = game.cards.layouts[("A", "A")]
    return score(game.cards.rules, game.cards.points, lay, EXAMPLE, ELEMENTAL, Goals(**goals))


def test_the_scoring_example(game):
    """Scoring Example: "Total elemental molecule points: 28 points",
    "Total molecular chain points: 77 points", "three columns and three rows,
    totaling 30 points"; the Molecular Chain card "met the specified chain
    conditions three times [...] To meet the conditions of the card, the
    yellow chain had to remain separate.\""""
    card = game.cards.chains["twin-pairs"]
    scored = example(game, chain_card=card)
    points = {line.key: line.points for line in scored.lines}
    assert points["elemental"] == 28
    assert points["chains"] == 77
    assert points["lines"] == 30
    assert points["chain_card"] == card.row.maximum == 15
    assert len(scored.details["chain_card"]["found"]) == 3
    colour = game.cards.layouts[("A", "A")].table.colours(EXAMPLE)
    lengths = sorted((colour[(c[0][1] - 1, c[0][0] - 1)], len(c)) for c in scored.details["chains"])
    # 28 green 7; 6 red 3; 3 + 3 + 3 yellow 2s; 28 blue 7 and 6 blue 3
    assert lengths == [("b", 3), ("b", 7), ("g", 7), ("r", 3), ("y", 2), ("y", 2), ("y", 2)]
    finds = sorted("".join(sorted({colour[(row - 1, col - 1)] for col, row in found}))
                   for found in scored.details["chain_card"]["found"])
    assert finds == ["b", "g", "y"]  # "twice horizontally with chains of different colors", once yellow


@follows("synthesis.md", "Eligible molecules must be of the same color.", "The player must choose a single color.")
def test_a_chain_card_is_found_only_in_one_colour(game):
    """Twin Pairs on a red pair above a blue pair is no find: every molecule of a find is one colour (the
    booklet said cells not joined "may be of other colours"). Two red pairs are one."""
    card = game.cards.chains["twin-pairs"]
    lay = game.cards.layouts[("A", "A")]
    mixed = score(game.cards.rules, game.cards.points, lay, ["br", "br", "", "", "", ""], {}, Goals(chain_card=card))
    assert {line.key: line.points for line in mixed.lines}["chain_card"] == 0
    same = score(game.cards.rules, game.cards.points, lay, ["rr", "rr", "", "", "", ""], {}, Goals(chain_card=card))
    assert {line.key: line.points for line in same.lines}["chain_card"] == 5


def test_without_the_card_the_yellow_chains_would_be_linked(game):
    """"The player chose not to connect these chains, because they earn more
    points on a Molecular Chain card": alone, the yellow block links into a
    chain of 4 (10 points instead of 3 + 3)."""
    assert {line.key: line.points for line in example(game).lines}["chains"] == 81


def test_elemental_pairs_score_6_or_16(game):
    """"If only one molecule of a pair is created, you earn 6 points; if both
    are created, you earn 16 points.\""""
    rules = game.cards.rules
    assert elemental_points(rules, {"circle": 1}) == 6
    assert elemental_points(rules, {"circle": 2}) == 16
    assert elemental_points(rules, {"circle": 2, "square": 1, "triangle": 0}) == 22


def test_each_complete_row_or_column_scores_5(game):
    lay = game.cards.layouts[("A", "A")]
    full_row = ["g", "r", "g", "r", "g", "r"]
    scored = score(game.cards.rules, game.cards.points, lay, full_row, {}, Goals())
    assert {line.key: line.points for line in scored.lines}["lines"] == 5
    column = ["gbgbg", "", "", "", "", ""]
    scored = score(game.cards.rules, game.cards.points, lay, column, {}, Goals())
    assert {line.key: line.points for line in scored.lines}["lines"] == 5


def test_goal_cards_score_up_to_their_red_hexagon(game):
    card = game.cards.chains["triplet"]
    scored = score(game.cards.rules, game.cards.points, game.cards.layouts[("A", "A")],
                   ["ggg", "bbb", "rrr", "yyy", "ggg", "bbb"], {}, Goals(chain_card=card))
    assert {line.key: line.points for line in scored.lines}["chain_card"] == card.row.maximum


def scored(total: int, longest: int, elementals: int) -> Scored:
    return Scored((ScoreLine("chains", "Molecular chains", total),), {}, longest, elementals, None)


def test_ties_go_to_the_longest_chain_then_the_most_elementals_then_shared():
    """"In case of a tie, the player with the longest molecular chain wins. If
    there is still a tie, the player who created the most elemental molecules
    wins. If there is still a tie, the players share the victory.\""""
    assert winners([scored(50, 5, 0), scored(60, 2, 0)]) == (1,)
    assert winners([scored(60, 5, 0), scored(60, 7, 0)]) == (1,)
    assert winners([scored(60, 7, 3), scored(60, 7, 1)]) == (0,)
    assert winners([scored(60, 7, 2), scored(60, 7, 2), scored(10, 7, 9)]) == (0, 1)


@follows("synthesis.md", "In case of a tie, the player with the longest molecular chain wins.",
         "Connect molecular volume chains in the molecular volume table as desired.",
         "A chain of more than 7 pads scores 28 points.")
def test_a_tie_goes_to_the_player_whose_eight_molecules_make_one_chain(game):
    """Ada's eight green molecules in a line score 28 linked all together, as
    Bo's seven do: both 38 with the bottom row and column 6. Ada links all
    eight, as she may, so her longest chain is 8 and she wins the tie (it
    was cut at 7, and the victory shared)."""
    lay = game.cards.layouts[("A", "A")]
    ada = ["g", "g", "g", "g", "g", "ggg"]  # the bottom row, then up column 6
    bo = ["g", "g", "g", "g", "g", "ggr"]
    rules, points = game.cards.rules, game.cards.points
    scores = [score(rules, points, lay, cols, {}, Goals()) for cols in (ada, bo)]
    assert [s.total for s in scores] == [38, 38]
    assert [s.details["longest_chain"] for s in scores] == [8, 7]
    assert [len(c) for c in scores[0].details["chains"]] == [8]
    assert winners(scores) == (0,)


def test_the_score_formula_has_the_boards_five_boxes(game):
    s, _ = playout(game, 2, 5)
    for seat_score in game.result(s).scores:
        assert [line.label for line in seat_score.lines] == [
            "Elemental molecules", "Molecular chains", "Rows and columns", "Molecular Chain card",
            "Molecular Pattern card"]
        assert {"chains", "longest_chain", "elemental_molecules", "rows_and_columns"} <= set(seat_score.details)


def test_before_the_end_the_result_is_the_score_so_far(game):
    s = game.setup(2, 3)
    result = game.result(s)
    assert [sc.total for sc in result.scores] == [0, 0] and result.winners == (0, 1)
