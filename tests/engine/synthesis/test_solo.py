"""Solo Modes: First Steps, Predictable Results, Unpredictable
Consequences, each judged a win or a loss with its score."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.synthesis.scoring import Goals, score
from engine.synthesis.state import LEVELS, PROJECT_LEVELS
from tests.engine.synthesis.conftest import playout
from tests.rulebook import follows


def table_score(game, columns, boxes=None, **goals):
    lay = game.cards.layouts[("A", "A")]
    return score(game.cards.rules, game.cards.points, lay, columns, boxes or {}, Goals(**goals))


def test_first_steps_thresholds_by_difficulty(game):
    """"Depending on the chosen difficulty, it will be the green area (easy),
    yellow (medium) or red (hard).\""""
    assert LEVELS == {"easy": "green", "medium": "yellow", "hard": "red"}
    for level, area in LEVELS.items():
        s = game.setup(1, 3, {"mode": "first_steps", "difficulty": level})
        assert s.level == area and s.chain_card and s.pattern_card and s.project is None


@follows("synthesis.md", "Then, place one card from each deck on the table.",
         "Your goal is to reach the minimum score threshold on each goal card.")
def test_first_steps_in_a_first_game_still_deals_one_card_of_each_deck(game):
    """A first game skips the goal cards (Setup 4), but First Steps is played
    for them: with "first game" ticked it deals them all the same (on side
    A), and a game at 0 points is lost, not "goals met, a win"."""
    s = game.setup(1, 3, {"mode": "first_steps", "first_game": True, "difficulty": "medium"})
    assert s.side == "A" and s.level == "yellow"
    assert s.chain_card in game.cards.chains and s.pattern_card in game.cards.patterns
    result = game.result(s)
    solo = result.scores[0].details["solo"]
    assert [g["met"] for g in solo["goals"]] == [False, False] and solo["won"] is False and result.winners == ()
    chosen = game.setup(1, 3, {"mode": "first_steps", "first_game": True, "chain_card": "triplet",
                               "pattern_card": "first-shell"})
    assert (chosen.chain_card, chosen.pattern_card) == ("triplet", "first-shell")
    # the ordinary first game still has no goal cards to deal or to choose
    assert game.setup(2, 3, {"first_game": True}).chain_card is None
    with pytest.raises(IllegalAction, match="no chain card to choose"):
        game.setup(2, 3, {"first_game": True, "chain_card": "triplet"})


def test_first_steps_is_won_by_reaching_both_thresholds(game):
    chain = game.cards.chains["triplet"]  # 5 a chain of three, thresholds 10 / 15 / 20
    pattern = game.cards.patterns["first-shell"]
    columns = ["ggg", "bbb", "rrr", "yyy", "", ""]  # four chains of three, 24 points
    won = table_score(game, columns, chain_card=chain, pattern_card=pattern, level="green", solo=True)
    assert won.details["solo"]["goals"][0] == {"goal": "Triplet: 10", "met": True}
    assert won.won is False  # the Pattern card scored nothing on no formula
    plain = table_score(game, columns, chain_card=chain, level="red", solo=True)
    assert plain.won is True and plain.lines[3].points == 20
    assert table_score(game, ["ggg", "", "", "", "", ""], chain_card=chain, level="yellow", solo=True).won is False


def test_predictable_results_a_project_card_of_chosen_or_drawn_difficulty(game):
    """"Choose a Project card of your preferred difficulty level or draw one at random.\""""
    s = game.setup(1, 4, {"mode": "predictable", "difficulty": 3})
    assert game.cards.projects[s.project].row.difficulty == 3
    assert s.chain_card is None and s.pattern_card is None and s.level is None
    assert game.setup(1, 4, {"mode": "predictable", "project": "project-05"}).project == "project-05"
    with pytest.raises(IllegalAction, match="not both"):
        game.setup(1, 4, {"mode": "predictable", "project": "project-05", "difficulty": 1})


def test_predictable_results_reconstitute_the_chains_and_create_the_elementals(game):
    """"Reconstitute the molecular chains specified on the project card";
    "Create as many elemental molecules as indicated.\""""
    project = game.cards.projects["project-01"]  # a chain of three and a chain of two; one elemental
    columns = ["ggg", "bb", "", "", "", ""]
    met = table_score(game, columns, {"circle": 1}, project=project, solo=True)
    assert met.won is True and met.details["project"]["chains"]
    short = table_score(game, columns, {}, project=project, solo=True)
    assert short.won is False  # no elemental molecule
    assert {"goal": "1 elemental molecule", "met": False} in short.details["solo"]["goals"]
    wrong = table_score(game, ["gggg", "", "", "", "", ""], {"circle": 1}, project=project, solo=True)
    assert wrong.won is False and wrong.details["project"]["chains"] is None


def test_a_project_chain_must_be_a_whole_chain(game):
    """A chain of four does not reconstitute a chain of three unless it is cut."""
    project = game.cards.projects["project-03"]  # one chain of four
    five = table_score(game, ["ggggg", "", "", "", "", ""], {"circle": 1}, project=project, solo=True)
    assert five.won is True
    assert sorted(len(c) for c in five.details["chains"]) == [4]  # cut to 4 + 1 to win


def test_unpredictable_consequences_choose_one_of_two_of_each(game):
    """"Take two random cards from each goal deck. From each pair, choose one card.\""""
    s = game.setup(1, 6, {"mode": "unpredictable", "project": "project-12"})
    assert s.phase == "choose" and game.to_move(s) == [0]
    chains, patterns = s.offer
    assert len(chains) == len(patterns) == 2
    options = game.actions(s, 0)
    assert len(options) == 4 and all(a["type"] == "choose_goals" for a in options)
    with pytest.raises(IllegalAction, match="Choose one of"):
        game.apply(s, 0, {"type": "choose_goals", "chain": "nope", "pattern": patterns[0]})
    s = game.apply(s, 0, {"type": "choose_goals", "chain": chains[1], "pattern": patterns[0]})
    assert (s.chain_card, s.pattern_card, s.phase) == (chains[1], patterns[0], "roll")


def test_unpredictable_consequences_difficulty_comes_from_the_project(game):
    """"If your Project card is difficulty level 2, you must [...] Meet the
    score requirements in the yellow area of each goal card.\""""
    assert PROJECT_LEVELS == {1: "green", 2: "yellow", 3: "red"}
    for pid, card in game.cards.projects.items():
        s = game.setup(1, 1, {"mode": "unpredictable", "project": pid})
        assert s.level == PROJECT_LEVELS[card.row.difficulty]


def test_solo_games_end_in_a_win_or_a_loss_with_a_score(game):
    for mode, options in (("first_steps", {"difficulty": "easy"}), ("predictable", {}), ("unpredictable", {})):
        s, _ = playout(game, 1, 8, {"mode": mode, **options})
        result = game.result(s)
        solo = result.scores[0].details["solo"]
        assert result.winners == ((0,) if solo["won"] else ())
        assert result.scores[0].total == sum(line.points for line in result.scores[0].lines)


def test_a_plain_one_player_game_is_won_by_its_player(game):
    s, _ = playout(game, 1, 9)
    assert game.result(s).winners == (0,) and "solo" not in game.result(s).scores[0].details
