"""The bots' evaluation plays toward the recipes in hand
(engine/organicsoup/evaluate.py): a recipe the molecules in reach can form
is worth more, and kept."""

from __future__ import annotations

from engine.bots.levels import Budget, play_greedy
from engine.organicsoup.evaluate import worth
from engine.rng import Rng
from tests.engine.organicsoup.conftest import at, build

SEEDS = range(8)


def test_a_recipe_in_hand_is_worth_more_the_more_of_it_is_in_reach(game, cards):
    """Water (H2O) in hand, with the Oxygen recipe in front: worth more with a
    Hydrogen molecule beside the Oxygen one than with a Nitrogen one (the
    molecules alone are worth the same: one loose, one guarded)."""
    near = at("hydrogen oxygen +oxygen ?water | graphite")
    far = at("nitrogen oxygen +oxygen ?water | graphite")
    assert worth(cards, near, 0) > worth(cards, far, 0)


def test_greedy_keeps_the_recipe_it_can_form(game):
    """At the end of a turn greedy never swaps away Water when its Hydrogen
    and Oxygen molecules hold every atom of it; before, a swap was worth what
    a keep was, and greedy drew between them."""
    s = game.apply(at("hydrogen oxygen +oxygen ?water ?propane ?glycine | nitrogen; soup=CCHHHHNNOOOO"),
                   0, build("oxygen"))
    assert s.phase == "end"
    swapped = {play_greedy(game, s, 0, Rng(k), Budget()).get("recipe") for k in SEEDS}
    assert "water" not in swapped
