"""Building Molecules, rule by rule, with the rulebook's building examples."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import IllegalAction
from engine.organicsoup.building import builds
from tests.engine.organicsoup.conftest import at, build

EXAMPLE_SOUP = "CHHHHNNNOOOO"
"""The rulebook's example soup: one Carbon, four Hydrogen, three Nitrogen, four Oxygen."""


def offered(game, s) -> set[tuple[str, int]]:
    return {(a["recipe"], a["count"]) for a in game.actions(s, s.turn) if a["type"] == "build"}


def test_the_rulebooks_example_soup(game):
    """Build according to the basic recipes: "You could build up to two
    hydrogen molecules out of the four hydrogen atoms or up to two oxygen
    molecules out of the four oxygen atoms. You could build one nitrogen
    molecule using two of the three nitrogen atoms. You could take the single
    carbon atom as a carbon molecule." """
    s = at(f"| ; soup={EXAMPLE_SOUP}")
    assert offered(game, s) == {("hydrogen", 1), ("hydrogen", 2), ("oxygen", 1), ("oxygen", 2),
                                ("nitrogen", 1), ("graphite", 1)}


def test_five_hydrogen_make_at_most_two_molecules(game):
    """"If there are five Hydrogen cards in the soup, he can take at most four
    of them to build two Hydrogen molecules, as each Hydrogen molecule
    requires two Hydrogen atoms." """
    s = at("| ; soup=HHHHHCCNNOOO")
    assert ("hydrogen", 2) in offered(game, s) and ("hydrogen", 3) not in offered(game, s)
    after = game.apply(s, 0, build("hydrogen", 2))
    assert after.seats[0].molecules == {"hydrogen": 2}
    with pytest.raises(IllegalAction, match=r"6 Hydrogen atoms|more than the soup holds: you can build at most 2, "
                                            r"and never part of a molecule"):
        game.apply(s, 0, build("hydrogen", 3))


def test_if_you_tie_for_the_most_take_the_recipe(game):
    """If you tie for the most, take the recipe: the rulebook's three-player
    example. "The first player has one Nitrogen molecule and the recipe for
    Nitrogen. The second player has two Hydrogen molecules and the recipe for
    Hydrogen. ... you could create one Nitrogen molecule. If you do, you will
    tie with the first player in number of Nitrogen molecules, and so you
    would take the recipe from him." """
    s = at(f"nitrogen +nitrogen | hydrogen*2 +hydrogen | ; soup={EXAMPLE_SOUP}; turn=2")
    after = game.apply(s, 2, build("nitrogen"))
    assert after.seats[2].recipes == ["nitrogen"] and after.seats[0].recipes == []
    assert after.seats[0].molecules == {"nitrogen": 1}  # his molecule stays with him


@pytest.mark.parametrize("recipe", ["oxygen", "graphite"])
def test_open_recipes_are_taken_by_their_first_builder(game, recipe):
    """"The Oxygen and Graphite recipes are still open. You could create
    either Oxygen or Graphite molecules and take the corresponding recipe." """
    s = at(f"nitrogen +nitrogen | hydrogen*2 +hydrogen | ; soup={EXAMPLE_SOUP}; turn=2")
    after = game.apply(s, 2, build(recipe))
    assert after.seats[2].recipes == [recipe] and recipe not in after.middle


def test_fewer_than_the_most_takes_nothing(game):
    """Taking needs "at least as many copies of that molecule as anyone else"."""
    s = at(f"hydrogen*2 +hydrogen | ; soup={EXAMPLE_SOUP}; turn=1")
    after = game.apply(s, 1, build("hydrogen", 1))
    assert after.seats[0].recipes == ["hydrogen"] and after.seats[1].recipes == []


def test_build_from_a_recipe_in_front_of_anyone(game):
    """"The player chooses a faceup recipe anywhere on the board" (design
    reading 4): another player's recipe too, and it is taken on a tie."""
    s = at("water*1 +water | ; soup=HHHHOOOCCNNN; turn=1")
    assert ("water", 1) in offered(game, s) and ("water", 2) in offered(game, s)
    after = game.apply(s, 1, build("water", 2))
    assert after.seats[1].recipes == ["water"] and after.seats[1].molecules == {"water": 2}


def test_no_build_from_a_recipe_in_hand(game):
    """Only face-up recipes: a recipe in hand is not on the board (design reading 4)."""
    s = at("?water | ; soup=HHHHOOOCCNNN")
    assert ("water", 1) not in offered(game, s)
    with pytest.raises(IllegalAction, match="The Water recipe is in your hand, not face up on the board"):
        game.apply(s, 0, build("water"))


def test_replenish_the_soup(game):
    """Replenish the soup: "the player draws atoms from the draw deck and
    places them faceup to replenish the soup until there are once again
    twelve atoms in the soup." """
    s = at(f"| ; soup={EXAMPLE_SOUP}")
    top = s.atoms[:4]
    after = game.apply(s, 0, build("oxygen", 2))
    assert len(after.soup) == 12 and after.atoms == s.atoms[4:]
    assert Counter(after.soup) == Counter("CHHHHNNN") + Counter(top)


def test_one_type_per_build(game):
    """Design reading 3: "as many molecules of the same type as he wishes":
    one build is one recipe; a second build in the same turn is refused."""
    s = at(f"?water ?propane ?glycine | ; soup={EXAMPLE_SOUP}")
    s = game.apply(s, 0, build("oxygen", 1))
    with pytest.raises(IllegalAction, match="You have had your build or reaction this turn"):
        game.apply(s, 0, build("hydrogen", 1))


def test_a_full_soup_always_allows_a_build(game, cards):
    """Design reading 2: twelve atoms of four elements hold at least three of
    one element, and every element has a basic recipe of at most two atoms,
    which never leaves the board: a player can always build."""
    from itertools import combinations_with_replacement
    for soup in combinations_with_replacement("CHNO", 12):
        s = at("| ; soup=" + "".join(soup))
        assert builds(cards, s)


def test_bad_builds_are_refused_with_a_reason(game):
    s = at(f"| ; soup={EXAMPLE_SOUP}")
    with pytest.raises(IllegalAction, match="The Water recipe is not face up on the board"):
        game.apply(s, 0, build("water"))
    with pytest.raises(IllegalAction, match="count must be a whole number"):
        game.apply(s, 0, build("oxygen", 0))
    with pytest.raises(IllegalAction, match="There is no recipe called 'unobtainium'"):
        game.apply(s, 0, build("unobtainium"))
    with pytest.raises(IllegalAction, match="need 1 Carbon atom more than the soup holds"):
        game.apply(s, 0, build("graphite", 2))
