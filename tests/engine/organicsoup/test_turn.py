"""Always end a turn with one of each recipe type: drawing, swapping, keeping."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from tests.engine.organicsoup.conftest import at, build, ingredient as ing, react

FULL = "?water ?propane ?glycine | ?methane ?ethanol ?alanine"
SOUP = "; soup=CCHHHHNNOOOO"


def test_a_full_hand_may_swap_one_recipe(game):
    """"If he does not need to draw, he may instead place one of his three
    recipes on the bottom of its respective draw deck and draw a new one from
    the same deck to replace it." """
    s = game.apply(at(FULL + SOUP), 0, build("oxygen"))
    assert s.phase == "end" and s.turn == 0
    assert game.actions(s, 0) == [{"type": "swap", "recipe": "water"}, {"type": "swap", "recipe": "propane"},
                                  {"type": "swap", "recipe": "glycine"}, {"type": "keep"}]
    top = s.decks["complex"][0]
    after = game.apply(s, 0, {"type": "swap", "recipe": "propane"})
    assert after.seats[0].hand == ["water", top, "glycine"]
    assert after.decks["complex"][-1] == "propane" and len(after.decks["complex"]) == len(s.decks["complex"])
    assert after.turn == 1 and after.phase == "play"


def test_keeping_the_hand_passes_the_turn(game):
    s = game.apply(at(FULL + SOUP), 0, build("oxygen"))
    after = game.apply(s, 0, {"type": "keep"})
    assert after.seats[0].hand == s.seats[0].hand and (after.turn, after.phase) == (1, "play")


def test_draw_until_one_of_each_type_and_no_swap(game):
    """"After the player is finished ... he draws recipes from the draw decks
    until he again has one of each type of recipe in his hand." Having drawn,
    he may not swap: the turn passes at once (design reading 10)."""
    s = at("oxygen*2 +oxygen ?nitric-oxide ?propane ?glycine | nitrogen")
    top = s.decks["simple"][0]
    after = game.apply(s, 0, react([ing(0, "oxygen"), ing(1, "nitrogen")], {"nitric-oxide": 2}))
    assert after.seats[0].hand == [top, "propane", "glycine"]
    assert after.turn == 1 and after.phase == "play"


def test_an_empty_deck_leaves_the_hand_short(game):
    """Design reading 11: nothing to draw, nothing drawn; the hand stays short."""
    s = at("oxygen*2 +oxygen ?nitric-oxide ?propane ?glycine | nitrogen")
    s.seats[1].recipes += s.decks["simple"]  # the simple deck is used up: all on the board
    s.decks["simple"] = []
    game.check(s)
    after = game.apply(s, 0, react([ing(0, "oxygen"), ing(1, "nitrogen")], {"nitric-oxide": 2}))
    assert after.seats[0].hand == ["propane", "glycine"] and after.turn == 1


def test_a_swap_from_an_empty_deck_is_refused(game):
    """Design reading 10: the same recipe would come back."""
    s = game.apply(at(FULL + SOUP), 0, build("oxygen"))
    s.seats[1].recipes += s.decks["amino"]
    s.decks["amino"] = []
    assert {"type": "swap", "recipe": "glycine"} not in game.actions(s, 0)
    with pytest.raises(IllegalAction, match="The amino/nucleic deck is empty"):
        game.apply(s, 0, {"type": "swap", "recipe": "glycine"})


def test_the_end_of_turn_comes_after_the_action(game):
    s = at(FULL + SOUP)
    with pytest.raises(IllegalAction, match="First build molecules or trigger a reaction"):
        game.apply(s, 0, {"type": "keep"})
    s = game.apply(s, 0, build("oxygen"))
    with pytest.raises(IllegalAction, match="Methane is not in your hand"):
        game.apply(s, 0, {"type": "swap", "recipe": "methane"})
    with pytest.raises(IllegalAction, match="You have had your build or reaction this turn"):
        game.apply(s, 0, build("oxygen"))


def test_play_proceeds_clockwise(game):
    """"Play proceeds in turns clockwise around the table": seat order."""
    s = game.setup(4, 3)
    order = []
    for _ in range(8):
        order.append(s.turn)
        seat = s.turn
        s = game.apply(s, seat, game.actions(s, seat)[0])
        if s.phase == "end":
            s = game.apply(s, seat, {"type": "keep"})
    assert order == [(s0 := order[0]) % 4, (s0 + 1) % 4, (s0 + 2) % 4, (s0 + 3) % 4] * 2
