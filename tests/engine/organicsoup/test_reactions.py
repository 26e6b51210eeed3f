"""Triggering a Reaction, rule by rule: the rulebook's examples, and every
refusal in a player's words (a leftover atom, an added atom, a molecule type
on both sides, ingredients from two opponents, a guarded molecule, a recipe
from hand above the level allowed at the start of the turn)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.organicsoup.reactions import hand_levels
from tests.engine.organicsoup.conftest import at, build, ingredient as ing, react
from tests.rulebook import follows

# The Nitric Oxide example: you (seat 0), the player to your left (seat 1,
# next in clockwise order) and the player to your right (seat 2).
NITRIC_OXIDE_TABLE = "oxygen*2 +oxygen ?nitric-oxide ?propane ?glycine | nitrogen | nitrogen*2 +nitrogen"


def refused(game, s, seat, action) -> str:
    with pytest.raises(IllegalAction) as exc:
        game.apply(s, seat, action)
    return str(exc.value)


def test_the_nitric_oxide_example(game):
    """"You react his Nitrogen molecule with one of your Oxygen molecules to
    form two Nitric Oxide molecules, placing the Nitric Oxide [recipe] from
    your hand in front of you." (Design reading 19: the recipe is placed.)"""
    s = at(NITRIC_OXIDE_TABLE)
    after = game.apply(s, 0, react([ing(0, "oxygen"), ing(1, "nitrogen")], {"nitric-oxide": 2}))
    me = after.seats[0]
    assert me.molecules == {"oxygen": 1, "nitric-oxide": 2}
    assert "nitric-oxide" in me.recipes and "nitric-oxide" not in me.hand
    assert after.seats[1].molecules == {}
    assert after.soup == s.soup and after.atoms == s.atoms  # "none from the soup"


def test_the_guarded_nitrogen_of_the_nitric_oxide_example(game):
    """"The player to your right has two Nitrogen molecules, but he has the
    Nitrogen recipe, so you cannot take these as ingredients for your reaction." """
    s = at(NITRIC_OXIDE_TABLE)
    assert refused(game, s, 0, react([ing(0, "oxygen"), ing(2, "nitrogen")], {"nitric-oxide": 2})) == \
        "Player 3's Nitrogen molecules are guarded: the Nitrogen recipe is in front of Player 3."


def test_the_next_player_ties_and_takes_the_nitric_oxide_recipe(game):
    """"On his next turn, the player to his left could build Nitric Oxide
    molecules straight from the pool since the recipe for Nitric Oxide is now
    on the board. He would be able to build two as there are two Nitrogen
    atoms in the pool and five Oxygen atoms. This would move him into a tie
    with you ... and so he would take the recipe from you!" """
    s = at(NITRIC_OXIDE_TABLE + "; soup=CCHHHNNOOOOO")
    s = game.apply(s, 0, react([ing(0, "oxygen"), ing(1, "nitrogen")], {"nitric-oxide": 2}))
    assert s.turn == 1  # he drew a simple recipe for the one he placed: his turn is over
    assert {"type": "build", "recipe": "nitric-oxide", "count": 2} in game.actions(s, 1)
    s = game.apply(s, 1, build("nitric-oxide", 2))
    assert "nitric-oxide" in s.seats[1].recipes and "nitric-oxide" not in s.seats[0].recipes


def test_process_in_parallel(game):
    """Process in parallel: "it is legal to react 3 Carbon, 4 Hydrogen, and 2
    Nitric Oxide molecules into 1 Propane, 1 Nitrogen, and 1 Oxygen
    molecule, even though the breakdown of the Nitric Oxide has nothing to do
    with the formation of the Propane." """
    s = at("graphite*3 hydrogen*4 nitric-oxide*2 +graphite +hydrogen +nitric-oxide ?water ?propane ?glycine |")
    after = game.apply(s, 0, react([ing(0, "graphite", 3), ing(0, "hydrogen", 4), ing(0, "nitric-oxide", 2)],
                                   {"propane": 1, "nitrogen": 1, "oxygen": 1}))
    assert after.seats[0].molecules == {"propane": 1, "nitrogen": 1, "oxygen": 1}
    # Propane came from the hand; Nitrogen and Oxygen, held strictly most, leave the middle.
    assert {"propane", "nitrogen", "oxygen"} <= set(after.seats[0].recipes)


def test_guarded_water_but_not_hydrogen(game):
    """Choose unguarded ingredients from one opponent: "if an opponent has two
    water molecules, two hydrogen molecules, and the recipe for water, he can
    choose one or both of the hydrogen molecules as ingredients, but not the
    water molecules." """
    s = at("oxygen +oxygen | water*2 hydrogen*2 +water")
    after = game.apply(s, 0, react([ing(0, "oxygen"), ing(1, "hydrogen", 2)], {"water": 2}))
    assert after.seats[0].molecules == {"water": 2}
    assert "guarded" in refused(game, s, 0, react([ing(0, "oxygen"), ing(1, "water", 2)], {"hydrogen": 2,
                                                                                           "oxygen": 2}))


def test_choose_ingredients_in_front_of_you(game):
    """"A player may always choose molecules melded in front of him to be
    ingredients", his guarded ones included (design reading 9)."""
    s = at("water*2 +water |")
    after = game.apply(s, 0, react([ing(0, "water", 2)], {"hydrogen": 2, "oxygen": 1}))
    assert after.seats[0].molecules == {"hydrogen": 2, "oxygen": 1}


def test_a_leftover_atom(game):
    """Account for all atoms: "no atoms may be left out"."""
    s = at("oxygen*2 +oxygen ?nitric-oxide | nitrogen")
    assert refused(game, s, 0, react([ing(0, "oxygen", 2), ing(1, "nitrogen")], {"nitric-oxide": 2})) == \
        "2 Oxygen atoms are left over: the products must use every atom of the ingredients."


def test_an_added_atom(game):
    """Account for all atoms: "no atoms may be ... added from the soup"."""
    s = at("oxygen*2 +oxygen ?nitric-oxide | nitrogen")
    assert refused(game, s, 0, react([ing(0, "oxygen"), ing(1, "nitrogen")], {"nitric-oxide": 3})) == \
        "The products need 1 Nitrogen atom and 1 Oxygen atom more than the ingredients hold: no atoms may be " \
        "added from the soup."


def test_left_over_and_missing_at_once(game):
    s = at("water*2 +water |")
    assert refused(game, s, 0, react([ing(0, "water", 2)], {"hydrogen": 1, "oxygen": 2})) == \
        "2 Hydrogen atoms are left over: the products must use every atom of the ingredients. The products need " \
        "2 Oxygen atoms more than the ingredients hold: no atoms may be added from the soup."


def test_a_molecule_type_on_both_sides(game):
    """Do something with all your ingredients: "A molecule type cannot be
    present in a reaction as both an ingredient and a product." """
    s = at("water*2 hydrogen +water |")
    assert refused(game, s, 0, react([ing(0, "water", 2), ing(0, "hydrogen")], {"hydrogen": 3, "oxygen": 1})) == \
        "Hydrogen is both an ingredient and a product: a molecule type cannot be both."


def test_ingredients_from_two_opponents(game):
    """Choose unguarded ingredients from one opponent: "any molecules not
    accompanied by their corresponding recipe in front of one other player"."""
    s = at("oxygen +oxygen ?nitric-oxide | nitrogen | hydrogen*2")
    assert refused(game, s, 0, react([ing(0, "oxygen"), ing(1, "nitrogen"), ing(2, "hydrogen", 2)],
                                     {"nitric-oxide": 2, "hydrogen": 2})) == (
        "Your ingredients come from 2 opponents (Player 2 and Player 3): a reaction may take from only one other "
        "player. Hydrogen is both an ingredient and a product: a molecule type cannot be both.")


def test_ingredients_of_one_opponent_only(game):
    """Design reading 8: a reaction may use an opponent's unguarded molecules
    and none of your own."""
    s = at("+oxygen ?water | hydrogen*2 oxygen")
    after = game.apply(s, 0, react([ing(1, "hydrogen", 2), ing(1, "oxygen")], {"water": 2}))
    assert after.seats[0].molecules == {"water": 2} and after.seats[1].molecules == {}


def test_a_recipe_from_hand_above_the_level_allowed(game):
    """React to form recipes from hand up to next level: "he may only form a
    complex recipe if he starts with a simple recipe in front of him"."""
    s = at("graphite*3 hydrogen*4 +graphite +hydrogen ?water ?propane ?glycine |")
    assert refused(game, s, 0, react([ing(0, "graphite", 3), ing(0, "hydrogen", 4)], {"propane": 1})) == \
        "Propane is a complex recipe: you may form it from your hand only if a simple recipe was in front of you " \
        "at the start of your turn."


def test_a_simple_recipe_needs_a_basic_one_in_front(game):
    """"He may only form a simple recipe if he has a basic recipe in front of
    him at the start of his turn." """
    s = at("hydrogen*2 oxygen ?water | +hydrogen +oxygen")
    assert "Water is a simple recipe: you may form it from your hand only if a basic recipe" in refused(
        game, s, 0, react([ing(0, "hydrogen", 2), ing(0, "oxygen")], {"water": 2}))


def test_an_amino_recipe_needs_a_complex_one_in_front(game):
    """"An amino/nucleic recipe only if he starts with a complex recipe in front of him"."""
    s = at("graphite*5 hydrogen*3 oxygen*2 ammonia +water ?glutamic-acid | +graphite +hydrogen +oxygen +ammonia")
    reason = refused(game, s, 0, react([ing(0, "graphite", 5), ing(0, "hydrogen", 3), ing(0, "oxygen", 2),
                                        ing(0, "ammonia")], {"glutamic-acid": 1}))
    assert reason == "Glutamic Acid is an amino/nucleic recipe: you may form it from your hand only if a complex " \
                     "recipe was in front of you at the start of your turn."


@follows("organic-soup.md", "React to form recipes from hand up to next level",
         "He may only form a simple recipe if he has a basic recipe in front of him at the start of his turn.",
         "Similarly, he may only form a complex recipe if he starts with a simple recipe in front of him, and an "
         "amino/nucleic recipe only if he starts with a complex recipe in front of him.")
def test_each_recipe_in_front_opens_only_the_level_above_it(game):
    """Design reading 21: the rule's body, not its heading. A player whose
    only recipe in front is a complex one (Propane) may form the amino/nucleic
    recipe of his hand, but not his simple or complex one: "up to next level"
    read alone would allow all three."""
    s = at("graphite*2 hydrogen*3 oxygen ammonia +propane ?water ?ethane ?glycine | +ammonia")
    assert hand_levels(game.cards, s.seats[0].recipes) == {"amino"}
    assert refused(game, s, 0, react([ing(0, "hydrogen", 2), ing(0, "oxygen")], {"water": 2})) == \
        "Water is a simple recipe: you may form it from your hand only if a basic recipe was in front of you at " \
        "the start of your turn."
    assert refused(game, s, 0, react([ing(0, "graphite", 2), ing(0, "hydrogen", 3)], {"ethane": 1})) == \
        "Ethane is a complex recipe: you may form it from your hand only if a simple recipe was in front of you " \
        "at the start of your turn."
    after = game.apply(s, 0, react([ing(0, "graphite", 2), ing(0, "ammonia"), ing(0, "hydrogen"), ing(0, "oxygen")],
                                   {"glycine": 1}))
    assert after.winner == 0 and after.life == "glycine"


def test_a_recipe_formed_in_the_reaction_does_not_open_the_next_level(game):
    """Design reading 7: "at the start of his turn": forming Water from hand
    in this very reaction does not allow a complex recipe in the same one."""
    s = at("hydrogen*6 oxygen graphite*3 +hydrogen ?water ?propane |")
    assert "Propane is a complex recipe" in refused(
        game, s, 0, react([ing(0, "hydrogen", 6), ing(0, "oxygen"), ing(0, "graphite", 3)],
                          {"water": 2, "propane": 1}))


def test_react_to_form_existing_recipes_at_any_level(game):
    """React to form existing recipes: "regardless of who has those recipes
    and regardless of the level of those recipes." """
    s = at("graphite*3 hydrogen*4 +graphite +hydrogen | +propane propane")
    after = game.apply(s, 0, react([ing(0, "graphite", 3), ing(0, "hydrogen", 4)], {"propane": 1}))
    assert after.seats[0].molecules == {"propane": 1}
    assert "propane" in after.seats[1].recipes  # a tie: the recipe stays


def test_form_several_recipes_from_hand_at_once(game):
    """"A player may react molecules to form more than one new recipe at
    once": a simple and a complex one, with a basic and a simple recipe in front."""
    s = at("graphite*3 hydrogen*4 nitrogen oxygen +oxygen +water ?nitric-oxide ?propane |")
    after = game.apply(s, 0, react([ing(0, "graphite", 3), ing(0, "hydrogen", 4), ing(0, "nitrogen"),
                                    ing(0, "oxygen")], {"propane": 1, "nitric-oxide": 2}))
    assert after.seats[0].molecules == {"propane": 1, "nitric-oxide": 2}
    assert {"nitric-oxide", "propane"} <= set(after.seats[0].recipes)


def test_a_player_with_strictly_the_most_takes_the_recipe(game):
    """If a player has the most, he takes the recipe: "If as of the result of
    a reaction any player has strictly more of a molecule than any other
    player and he does not have the recipe for that molecule, he takes the
    recipe"; the middle's recipes too (design reading 6)."""
    s = at("water*2 +water | water +oxygen")
    after = game.apply(s, 0, react([ing(0, "water", 2)], {"hydrogen": 2, "oxygen": 1}))
    # Oxygen: Player 2's recipe, but he has no Oxygen and Player 1 now has one: Player 1 takes it.
    assert "oxygen" in after.seats[0].recipes and "oxygen" not in after.seats[1].recipes
    # Hydrogen was in the middle: Player 1 holds strictly the most, and takes it.
    assert "hydrogen" in after.seats[0].recipes and "hydrogen" not in after.middle
    # Water: Player 1 has none left, Player 2 has one: strictly the most, he takes it.
    assert "water" in after.seats[1].recipes and "water" not in after.seats[0].recipes


def test_no_one_strictly_most_leaves_the_recipe_where_it_is(game):
    """"If there is no one player with strictly more of a molecule after a
    reaction, the recipe remains where it is, even if the owning player does
    not share the lead for the most molecules of that type." """
    s = at("nitric-oxide*2 +nitric-oxide | +nitrogen | nitrogen")
    after = game.apply(s, 0, react([ing(0, "nitric-oxide", 2)], {"nitrogen": 1, "oxygen": 1}))
    assert after.seats[0].molecules["nitrogen"] == after.seats[2].molecules["nitrogen"] == 1
    assert "nitrogen" in after.seats[1].recipes  # he has none, but nobody leads strictly


def test_create_life_and_win(game):
    """Create life and win: "When a player triggers a reaction that creates a
    molecule having an amino/nucleic recipe, the game ends and that player wins." """
    s = at("graphite*5 hydrogen*3 oxygen*2 ammonia +propane ?glutamic-acid | propane*2 +graphite +ammonia")
    after = game.apply(s, 0, react([ing(0, "graphite", 5), ing(0, "hydrogen", 3), ing(0, "oxygen", 2),
                                    ing(0, "ammonia")], {"glutamic-acid": 1}))
    assert game.is_over(after) and after.winner == 0 and after.life == "glutamic-acid"
    result = game.result(after)
    assert result.winners == (0,) and result.scores[0].lines[0].label == "Created life: Glutamic Acid"
    assert game.actions(after, 0) == [] and game.to_move(after) == []


def test_a_reaction_leaves_the_soup_and_the_deck_alone(game):
    """Design reading 5: only building refills the soup."""
    s = at("water*2 +water |")
    after = game.apply(s, 0, react([ing(0, "water", 2)], {"hydrogen": 2, "oxygen": 1}))
    assert (after.soup, after.atoms) == (s.soup, s.atoms)


def test_back_up_failed_reactions(game):
    """Back up failed reactions and reconsider: a refused reaction changes
    nothing, and the player may build instead."""
    s = at("water*2 +water | ; soup=CCHHHHNNOOOO")
    before = game.to_dict(s)
    refused(game, s, 0, react([ing(0, "water", 2)], {"hydrogen": 3}))
    assert game.to_dict(s) == before
    game.apply(s, 0, build("hydrogen", 2))


def test_badly_written_reactions(game):
    s = at("water*2 +water | hydrogen")
    assert "ingredients" in refused(game, s, 0, {"type": "react", "products": {}})
    assert "seat 5 is not at the table" in refused(game, s, 0, react([ing(5, "water")], {"oxygen": 1}))
    assert "no recipe called 'mud'" in refused(game, s, 0, react([ing(0, "mud")], {"oxygen": 1}))
    assert "at least 1" in refused(game, s, 0, react([ing(0, "water", 0)], {"oxygen": 1}))
    assert refused(game, s, 0, react([], {})) == "Choose at least one ingredient molecule."
    assert refused(game, s, 0, react([ing(0, "water", 3)], {"hydrogen": 3, "oxygen": 1})) == \
        "You have only 2 Water molecules, not 3. 1 Oxygen atom is left over: the products must use every atom " \
        "of the ingredients."
    assert "Player 2 has no Oxygen molecules." in refused(game, s, 0, react([ing(1, "oxygen")], {"ozone": 1}))
    assert "Ozone is not on the board or in your hand." in refused(
        game, s, 0, react([ing(0, "water", 2)], {"ozone": 1}))


def test_an_ingredient_named_twice_counts_twice(game):
    """Design reading 8: entries for the same seat and molecule are added up."""
    s = at("water*2 +water |")
    after = game.apply(s, 0, react([ing(0, "water"), ing(0, "water")], {"hydrogen": 2, "oxygen": 1}))
    assert after.seats[0].molecules == {"hydrogen": 2, "oxygen": 1}
